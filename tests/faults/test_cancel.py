"""Cancel: `cmbagent cancel RUN_DIR` from another process stops `cmbagent solve` (exit 4, status cancelled, a
partial report) and `cmbagent resume` then finishes the run without redoing a completed step; a cancel
interrupts the cell in flight and stops the kernel at once, not at the cell's timeout."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path

import pytest

from cmbagent.api import resume, solve
from cmbagent.control import request_cancel, run_owner
from cmbagent.events import read_events
from tests.faults._scripted import CELL, scripted
from tests.faults._support import events, finished, started_steps
from tests.faults.test_process_faults import env, start
from tests.faults.test_sandbox_faults import kernels_of_this_process
from tests.planner._support import chain_task
from tests.planner.test_realistic_run import sandbox_backend
from tests.planner.test_resume import CLI, done_steps

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.filterwarnings("ignore::DeprecationWarning")]


@pytest.mark.slow
def test_cmbagent_cancel_from_another_process_then_resume(tmp_path: Path) -> None:
    task = chain_task(tmp_path)
    run = tmp_path / "run"
    proc = start(["solve", str(task), "--run-dir", str(run), "--sandbox", "process"], tmp_path)
    deadline = time.monotonic() + 240
    while not any(e.type == "step_started" and e.data["step_id"] == "s2" for e in read_events(run / "events.jsonl")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
        time.sleep(0.05)
    cancel = subprocess.run([*CLI, "cancel", str(run), "--reason", "enough for today"], cwd=tmp_path, env=env(),
                            capture_output=True, text=True, timeout=120)
    assert cancel.returncode == 0, cancel.stderr
    assert f"{run}: cancelled" in cancel.stdout
    assert proc.wait(timeout=60) == 4
    record = json.loads((run / "run.json").read_text())
    assert record["status"] == "cancelled" and record["finished"] is None
    report = (run / "report.md").read_text()
    assert "cancelled" in report and "enough for today" in report and "n_files" in report  # partial: s1's numbers
    before = list(read_events(run / "events.jsonl"))
    assert before[-1].type == "run_finished" and before[-1].data["status"] == "cancelled"
    # nothing to cancel once it stopped
    again = subprocess.run([*CLI, "cancel", str(run), "--wait", "0"], cwd=tmp_path, env=env(), capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 1 and "not running (status cancelled)" in again.stderr

    final = subprocess.run([*CLI, "resume", str(run), "--json"], cwd=tmp_path, env=env(), capture_output=True,
                           timeout=300)
    assert final.returncode == 0, final.stderr.decode()[-3000:]
    after = list(read_events(run / "events.jsonl"))[len(before):]
    assert not {e.data["step_id"] for e in after if e.type == "step_started"} & done_steps(before)
    assert json.loads((run / "run.json").read_text())["status"] == "done"


@pytest.mark.slow
def test_a_cancel_stops_the_cell_in_flight_and_the_kernel_at_once(tmp_path: Path) -> None:
    run = tmp_path / "run"
    slow = "import time\nopen('cell-started', 'w').close()\ntime.sleep(120)\n" + CELL
    asked: list[float] = []

    def cancel_when_the_cell_runs() -> None:
        deadline = time.monotonic() + 120
        while not (run / "cell-started").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        asked.append(time.monotonic())
        request_cancel(run, reason="stop now")

    thread = threading.Thread(target=cancel_when_the_cell_runs, daemon=True)
    thread.start()
    result = solve("Compute the answer and interpret it.", run_dir=run, model="scripted",
                   models={"scripted": scripted([slow])}, sandbox=sandbox_backend())
    stopped = time.monotonic()
    assert asked and result.status == "cancelled"
    assert stopped - asked[0] < 10  # the 120 s cell did not run out
    assert not kernels_of_this_process()  # the kernel was stopped
    assert run_owner(run) is None
    cells = [e.data for e in events(run) if e.type == "cell_executed"]
    assert not cells or cells[-1]["status"] == "died"
    assert "stop now" in (run / "report.md").read_text()

    done = resume(run, models={"scripted": scripted([CELL])}, sandbox=sandbox_backend())
    assert done.status == "done", done.error
    evs = events(run)
    assert finished(evs) == {"s1": "done", "s2": "done"} and started_steps(evs).count("s2") == 1


def test_a_cancel_during_a_model_call_cuts_the_call_and_the_run_resumes(tmp_path: Path) -> None:
    """The third model call streams for ~60 s; a cancel while it streams ends the run within seconds (not when
    the call would have ended), the cut call is on record, and `resume` finishes the run."""
    from cmbagent.models import read_transcript
    from cmbagent.sandbox import InMemoryExecutor
    from tests.fakes import FakeLLMServer, Text, Trickle
    from tests.faults._support import TASK, Agents

    agents = Agents(faults={3: [Trickle(Text("thinking " * 300), every=0.2)]})
    run = tmp_path / "run"
    asked: list[float] = []

    def cancel_while_the_call_streams() -> None:
        deadline = time.monotonic() + 120
        while agents.served_faults == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(1.0)  # well inside the trickle
        asked.append(time.monotonic())
        request_cancel(run, reason="not this one")

    with FakeLLMServer(fn=agents) as server:
        model = f"openai-compatible:fake-model@{server.openai_url}"
        thread = threading.Thread(target=cancel_while_the_call_streams, daemon=True)
        thread.start()
        result = solve(TASK, run_dir=run, model=model, executor=InMemoryExecutor,
                       config={"models": {"retries": 1, "timeout": 120}})
        stopped = time.monotonic()
        assert asked and result.status == "cancelled", result.error
        assert stopped - asked[0] < 8, stopped - asked[0]  # the call had ~55 s of streaming left
        last = list(read_transcript(run / "transcript.jsonl"))[-1]
        assert last["error"]["type"] == "CallAborted" and last["response"]["text"].startswith("thinking")
        assert "not this one" in (run / "report.md").read_text()
        done = resume(run, executor=InMemoryExecutor)
    assert done.status == "done", done.error
    assert finished(events(run)) == {"s1": "done", "s2": "done"}
