"""The run pool: at most N at once, the rest wait in order and know their place; keys are dropped after."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from cmbagent.ui._runs import RunManager, RunRequest, list_runs
from cmbagent.ui._sessions import SessionStore, new_token


def _wait(predicate: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_runs_beyond_the_limit_queue_in_order(tmp_path: Path) -> None:
    release = threading.Event()
    seen_keys: list[Any] = []

    def solve(task: Any, *, run_dir: Path, api_keys: Any = None, **_: Any) -> Any:
        seen_keys.append((api_keys, dict(api_keys or {})))
        run_dir.mkdir(parents=True)
        release.wait(10)
        return type("Result", (), {"status": "done"})()

    manager = RunManager(1, solve_fn=solve)
    store = SessionStore(tmp_path)
    alice, bob = store.session(new_token()), store.session(new_token())
    first = manager.submit_solve(alice, "r1", RunRequest(task="a", title="a"), {"openai": "sk-a"})
    second = manager.submit_solve(bob, "r2", RunRequest(task="b", title="b"), None)
    third = manager.submit_solve(alice, "r3", RunRequest(task="c", title="c"), None)
    _wait(lambda: first.state == "running")
    assert (manager.queue_position(first), manager.queue_position(second), manager.queue_position(third)) == (
        None,
        1,
        2,
    )
    assert manager.counts() == (1, 2)
    # each session lists its own runs only, queued ones included
    assert {r.run_id for r in list_runs(alice, manager)} == {"r1", "r3"}
    assert {r.run_id for r in list_runs(bob, manager)} == {"r2"}
    assert manager.handle(bob, "r1") is None
    release.set()
    _wait(lambda: third.state == "done")
    assert [first.state, second.state] == ["done", "done"]
    passed, copy = seen_keys[0]
    assert copy == {"openai": "sk-a"}
    assert passed == {}  # the manager dropped its copy of the key once the run returned
    manager.shutdown(wait=True)


def test_a_failing_run_reports_its_error_without_the_key(tmp_path: Path) -> None:
    def solve(task: Any, **_: Any) -> Any:
        raise RuntimeError("provider said: bad key sk-SECRET-123")

    manager = RunManager(1, solve_fn=solve)
    session = SessionStore(tmp_path).session(new_token())
    handle = manager.submit_solve(session, "r1", RunRequest(task="a", title="a"), {"openai": "sk-SECRET-123"})
    _wait(lambda: handle.state == "error")
    assert handle.error is not None and "sk-SECRET-123" not in handle.error and "***" in handle.error
    manager.shutdown(wait=True)


def test_a_run_left_running_by_a_dead_server_lists_as_interrupted(tmp_path: Path) -> None:
    session = SessionStore(tmp_path).session(new_token())
    (session.root / "r1").mkdir(parents=True)
    (session.root / "r1" / "run.json").write_text(
        '{"status": "running", "title": "T", "cost_usd": 0.5, "duration_s": 3, "created": 1}'
    )
    rows = list_runs(session, RunManager(1))
    assert [(r.run_id, r.title, r.status, r.cost_usd, r.duration_s) for r in rows] == [
        ("r1", "T", "interrupted", 0.5, 3.0)
    ]
