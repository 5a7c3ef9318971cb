"""The UI asks in the chat when a task is unclear: nothing runs on a guess, and the question names the
candidate methods with the front matter that pins each (issue 29)."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from cmbagent.ui._runs import RunManager, RunRequest
from cmbagent.ui._sessions import SessionStore, new_token
from cmbagent.ui._tasks import chat_messages
from cmbagent.ui._view import RunView

ROOT = Path(__file__).resolve().parents[2]


def test_an_ambiguous_task_becomes_a_question_in_the_chat(tmp_path: Path) -> None:
    folder = tmp_path / "task"
    folder.mkdir()
    shutil.copy(ROOT / "examples" / "data" / "bayes" / "regression.csv", folder / "regression.csv")
    task = folder / "task.md"
    task.write_text("Give me the posterior of the regression weights for regression.csv.\n")
    manager = RunManager(1)
    store = SessionStore(tmp_path / "ws")
    session = store.session(new_token())
    store.ensure(session)
    handle = manager.submit_solve(session, "20260101-000000-q-000001",
                                  RunRequest(task=task, title="posterior", options={"sandbox": "process"}), None)
    deadline = time.monotonic() + 120
    while handle.ended is None:
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    manager.shutdown(wait=True)
    assert handle.state == "error" and handle.error is not None
    said = chat_messages(RunView(run_id=handle.run_id), handle.state, "posterior", handle.error)
    question = said[-1]["content"]
    assert question.startswith("Before I run anything I need to ask you something")
    assert question.count("method: bayes.") >= 2  # the front matter of each candidate, to copy
    assert not (session.root / handle.run_id / "steps").exists()  # nothing ran
