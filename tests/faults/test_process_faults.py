"""Faults of the process running a run: SIGINT, SIGTERM and SIGKILL to `cmbagent solve` / `resume` (clean stop,
exit 130 / 143, resumable; kill -9 resumable), two `resume` commands at once (one refuses, naming the other),
and a truncated or overwritten checkpoint file (a clear message naming it; every other file intact)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from cmbagent.api import solve
from cmbagent.control import run_owner
from cmbagent.events import read_events
from tests.faults._support import tree_digest
from tests.planner._support import chain_task
from tests.planner.test_resume import CLI, done_steps
from tests.planner.test_resume import env as slow_env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def env() -> dict[str, str]:
    """Offline answers that take a moment (so a signal lands inside a step), shorter than the kill -9 test's."""
    return {**slow_env(), "CMBAGENT_OFFLINE_DELAY": "0.15"}


def start(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([*CLI, *args], cwd=cwd, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def signal_when(proc: subprocess.Popen[bytes], log: Path, seen: int, step: str, sig: int) -> int:
    """Send ``sig`` to the command itself once ``step`` has started (after ``seen`` events); its exit code."""
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        new = list(read_events(log))[seen:] if log.exists() else []
        if any(e.type == "step_started" and e.data["step_id"] == step for e in new):
            time.sleep(0.3)  # inside the step
            os.kill(proc.pid, sig)
            return proc.wait(timeout=120)
        if proc.poll() is not None:
            raise AssertionError(f"ended before {step}: {proc.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError(f"{step} never started")


@pytest.mark.slow
def test_sigint_sigterm_and_sigkill_stop_the_run_and_each_time_it_resumes(tmp_path: Path) -> None:
    task = chain_task(tmp_path)
    run = tmp_path / "run"
    log = run / "events.jsonl"
    plan = [("s1", signal.SIGINT, 130), ("s2", signal.SIGTERM, 143), ("s3", signal.SIGKILL, -signal.SIGKILL)]
    segments = []
    seen = 0
    for n, (step, sig, code) in enumerate(plan):
        args = ["solve", str(task), "--run-dir", str(run), "--sandbox", "process"] if n == 0 else ["resume", str(run)]
        proc = start(args, tmp_path)
        assert signal_when(proc, log, seen, step, sig) == code, (sig, proc.stderr.read().decode()[-2000:])  # type: ignore[union-attr]
        evs = list(read_events(log))
        segments.append(evs[seen:])
        seen = len(evs)
        status = json.loads((run / "run.json").read_text())["status"]
        # a clean stop records it; kill -9 leaves "running", which resume treats the same way
        assert status == ("running" if sig == signal.SIGKILL else "interrupted"), (sig, status)
        if sig != signal.SIGKILL:
            assert segments[-1][-1].type == "run_finished" and segments[-1][-1].data["status"] == "interrupted"
        assert run_owner(run) is None  # the lock went with the process
    final = subprocess.run([*CLI, "resume", str(run), "--json"], cwd=tmp_path, env=env(), capture_output=True,
                           timeout=300)
    assert final.returncode == 0, final.stderr.decode()[-3000:]
    assert json.loads(final.stdout.decode().strip().splitlines()[-1])["status"] == "done"
    segments.append(list(read_events(log))[seen:])
    completed: set[str] = set()
    for seg in segments:
        again = {e.data["step_id"] for e in seg if e.type == "step_started"} & completed
        assert not again, f"redid {again}"
        completed |= done_steps(seg)
    assert completed == {"s1", "s2", "s3"}


def waiting_run(tmp_path: Path) -> Path:
    """A run stopped at its plan (cheap, and resumable with --approve), made in this process."""
    result = solve(chain_task(tmp_path), run_dir=tmp_path / "run", approve_plan=True, sandbox="process")
    assert result.status == "awaiting_approval"
    return result.run_dir


@pytest.mark.slow
def test_two_resumes_at_once_one_refuses_with_a_clear_message(tmp_path: Path) -> None:
    run = waiting_run(tmp_path)
    first = start(["resume", str(run), "--approve", "--sandbox", "process"], tmp_path)
    deadline = time.monotonic() + 60
    while run_owner(run) is None:
        assert first.poll() is None and time.monotonic() < deadline, first.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
        time.sleep(0.02)
    second = subprocess.run([*CLI, "resume", str(run), "--approve", "--sandbox", "process"], cwd=tmp_path, env=env(),
                            capture_output=True, timeout=120)
    message = second.stderr.decode()
    assert second.returncode == 2, message
    assert f"is being worked on by process {first.pid}" in message and "cmbagent cancel" in message
    assert first.wait(timeout=300) == 0, first.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
    assert json.loads((run / "run.json").read_text())["status"] == "done"
    kinds = [e.type for e in read_events(run / "events.jsonl")]
    assert kinds.count("run_finished") == 1  # the refused resume did not touch the run


@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_a_damaged_checkpoint_file_is_named_and_nothing_else_is_touched(tmp_path: Path, damage: str) -> None:
    run = waiting_run(tmp_path)
    path = run / "checkpoints.sqlite"
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 3])
    else:
        path.write_bytes(data[:100] + os.urandom(len(data) - 100))
    before = tree_digest(run, skip=("checkpoints.sqlite",))
    proc = subprocess.run([*CLI, "resume", str(run), "--approve"], cwd=tmp_path, env=env(), capture_output=True,
                          timeout=120)
    message = proc.stderr.decode()
    assert proc.returncode == 2, message
    assert f"the checkpoint file {path} cannot be read" in message and "intact" in message, message
    assert "Traceback" not in message
    assert tree_digest(run, skip=("checkpoints.sqlite",)) == before  # no file of the run was changed or lost
