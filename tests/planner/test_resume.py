"""Kill -9 of `cmbagent solve` during planning, mid-step, between steps and during the report;
`cmbagent resume` finishes the run and redoes no completed step (checked from events.jsonl)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cmbagent.events import Event, read_events
from tests.planner._support import chain_task

pytestmark = pytest.mark.slow

CLI = [sys.executable, "-m", "cmbagent"]


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "CMBAGENT_MODEL"}}
    # every offline answer takes a moment, so each kill point is reached while the run is in it
    out["CMBAGENT_OFFLINE_DELAY"] = "0.4"
    out["PYTHONWARNINGS"] = "ignore"
    return out


def start(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*CLI, *args], cwd=cwd, env=env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)


def kill_when(proc: subprocess.Popen[bytes], events: Path, seen: int, condition: Callable[[Event], bool],
              timeout: float = 240.0) -> list[Event]:
    """Wait for the first event after ``seen`` meeting ``condition``; then kill -9 the whole process group."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        new = list(read_events(events))[seen:] if events.exists() else []
        if any(condition(e) for e in new):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return list(read_events(events))
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before the kill point: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError("kill point not reached in time")


def done_steps(events: list[Event]) -> set[str]:
    return {e.data["step_id"] for e in events if e.type == "step_finished" and e.data["status"] == "done"}


def test_kill_at_four_points_then_resume_redoes_no_completed_step(tmp_path: Path) -> None:
    task = chain_task(tmp_path)
    run = tmp_path / "run"
    log = run / "events.jsonl"
    points: list[tuple[str, Callable[[Event], bool]]] = [
        ("during planning", lambda e: e.type == "run_started"),
        ("mid-step", lambda e: e.type == "step_started" and e.data["step_id"] == "s2"),
        ("between steps", lambda e: e.type == "step_finished" and e.data["step_id"] == "s2"),
        ("during the report", lambda e: e.type == "step_finished" and e.data["step_id"] == "s3"),
    ]
    segments: list[tuple[str, list[Event]]] = []
    seen = 0
    for n, (label, condition) in enumerate(points):
        args = ["solve", str(task), "--run-dir", str(run), "--sandbox", "process"] if n == 0 else ["resume", str(run)]
        proc = start(args, tmp_path)
        events = kill_when(proc, log, seen, condition)
        segments.append((label, events[seen:]))
        seen = len(events)
        assert json.loads((run / "run.json").read_text())["status"] == "running", label
    kinds = [e.type for _, seg in segments for e in seg]
    assert "plan_approved" not in [e.type for e in segments[0][1]]  # the first kill came during planning
    assert "report.md" not in os.listdir(run)  # the last kill came before the report was written

    final = subprocess.run([*CLI, "resume", str(run), "--json"], cwd=tmp_path, env=env(), capture_output=True,
                           timeout=300)
    assert final.returncode == 0, final.stderr.decode()[-3000:]
    summary = json.loads(final.stdout.decode().strip().splitlines()[-1])
    assert summary["status"] == "done"
    everything = list(read_events(log))
    segments.append(("final resume", everything[seen:]))

    # no step that was done before a segment started again in it
    finished: set[str] = set()
    for label, seg in segments:
        restarted = {e.data["step_id"] for e in seg if e.type == "step_started"} & finished
        assert not restarted, f"{label}: redid completed step(s) {restarted}"
        finished |= done_steps(seg)
    assert finished == {"s1", "s2", "s3"}
    assert sum(1 for e in everything if e.type == "step_finished") == 3
    assert [e.data["resumed"] for e in everything if e.type == "run_started"] == [False, True, True, True, True]
    assert everything[-1].type == "run_finished" and everything[-1].data["status"] == "done"
    assert "Omega_m" in (run / "report.md").read_text()
    assert kinds.count("run_finished") == 0  # killed runs never claimed to finish
