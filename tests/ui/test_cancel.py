"""The UI's cancel: a waiting run leaves the queue without starting; a running one stops as `cancelled` with a
partial report, and the manager resumes it to done."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from cmbagent.events import read_events
from cmbagent.ui._runs import RunManager, RunRequest, list_runs
from cmbagent.ui._sessions import SessionStore, new_token
from tests.planner._support import chain_task

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def wait(predicate: Any, timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_cancel_a_waiting_and_a_running_run_then_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CMBAGENT_OFFLINE_DELAY", "0.2")
    task = chain_task(tmp_path)
    manager = RunManager(1)
    store = SessionStore(tmp_path / "ws")
    session = store.session(new_token())
    store.ensure(session)
    options = {"sandbox": "process"}
    running = manager.submit_solve(session, "20260101-000000-a-000001",
                                   RunRequest(task=task, title="a", options=options), None)
    waiting = manager.submit_solve(session, "20260101-000000-b-000002",
                                   RunRequest(task=task, title="b", options=options), None)
    assert manager.cancel(session, waiting.run_id) == "cancelled before it started"
    assert manager.queue_position(waiting) is None
    run = session.root / running.run_id
    wait(lambda: any(e.type == "step_started" for e in read_events(run / "events.jsonl")))
    assert "cancel requested" in manager.cancel(session, running.run_id)
    wait(lambda: running.ended is not None)
    assert running.result_status == "cancelled" and (run / "report.md").is_file()
    assert not (session.root / waiting.run_id).exists()  # it never started
    with pytest.raises(ValueError, match="not running"):
        manager.cancel(session, running.run_id)
    assert {r.run_id: r.status for r in list_runs(session, manager)}[running.run_id] == "cancelled"

    resumed = manager.submit_resume(session, running.run_id, None, None, sandbox="process")
    wait(lambda: resumed.ended is not None)
    assert resumed.result_status == "done", resumed.error
    manager.shutdown(wait=True)
