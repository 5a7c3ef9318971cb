"""PostgreSQL checkpoints (``CMBAGENT_CHECKPOINTS=postgresql://…``) against a real server: the graph state
lives in the database, the run folder keeps its files, and resume after kill -9, replay and the Runs list
work as with SQLite."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest

from cmbagent.api import replay, resume, solve
from cmbagent.checkpoints import open_store
from cmbagent.events import read_events
from cmbagent.exceptions import UserError
from cmbagent.run import list_runs
from tests.planner._support import chain_task
from tests.planner.test_realistic_run import sandbox_backend
from tests.planner.test_resume import CLI, done_steps, kill_when
from tests.planner.test_resume import env as resume_env

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::cmbagent.sandbox.UnisolatedSandboxWarning")]


def threads(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT thread_id, count(*) FROM checkpoints GROUP BY thread_id").fetchall()
    return {str(thread): int(n) for thread, n in rows}


def test_a_run_checkpoints_to_postgres_and_resumes_and_replays(tmp_path: Path, postgres_url: str) -> None:
    task = chain_task(tmp_path)
    result = solve(task, workspace=tmp_path / "ws", sandbox=sandbox_backend(), checkpoints=postgres_url)
    assert result.status == "done", result.error
    run = result.run_dir
    record = json.loads((run / "run.json").read_text())
    assert record["checkpoints"] == {"kind": "postgres", "url": postgres_url}  # no password to hide here
    assert not (run / "checkpoints.sqlite").exists()  # the state is in the database, the files in the folder
    for name in ("report.md", "events.jsonl", "transcript.jsonl", "plan.json", "notebook.ipynb"):
        assert (run / name).is_file(), name
    assert threads(postgres_url).get(record["thread"], 0) > 3
    assert record["thread"].startswith(run.name + ".")  # unique across folders that share the database

    again = resume(run, checkpoints=postgres_url)  # a finished run: nothing redone
    assert again.status == "done"
    assert [e.type for e in read_events(run / "events.jsonl")].count("run_started") == 1
    # the Runs list reads run folders the same way
    assert [r["status"] for r in list_runs(tmp_path / "ws")] == ["done"]

    # without the database, or with another one, a resume says where the state lives
    with pytest.raises(UserError, match="live in PostgreSQL"):
        resume(run, checkpoints="")
    with pytest.raises(UserError, match="but CMBAGENT_CHECKPOINTS names"):
        resume(run, checkpoints=postgres_url.replace("/runs?", "/other?"))

    replayed, comparison = replay(run, workspace=tmp_path / "replays", sandbox=sandbox_backend())
    assert replayed.status == "done" and comparison["identical"], comparison


def test_one_process_at_a_time_per_run_thread(tmp_path: Path, postgres_url: str) -> None:
    first = open_store(tmp_path, {"kind": "postgres", "url": postgres_url}, url=postgres_url, thread="t-lock")
    try:
        with pytest.raises(UserError, match="another process is working on this run"):
            open_store(tmp_path, {"kind": "postgres", "url": postgres_url}, url=postgres_url, thread="t-lock")
    finally:
        first.close()
    open_store(tmp_path, {"kind": "postgres", "url": postgres_url}, url=postgres_url, thread="t-lock").close()


@pytest.mark.slow
def test_kill_9_mid_step_then_resume_from_postgres(tmp_path: Path, postgres_url: str) -> None:
    task = chain_task(tmp_path)
    run = tmp_path / "run"
    env = {**resume_env(), "CMBAGENT_CHECKPOINTS": postgres_url}
    proc = subprocess.Popen([*CLI, "solve", str(task), "--run-dir", str(run), "--sandbox", "process"], cwd=tmp_path,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    before = kill_when(proc, run / "events.jsonl", 0,
                       lambda e: e.type == "step_started" and e.data["step_id"] == "s2")
    assert proc.returncode == -signal.SIGKILL
    assert done_steps(before) == {"s1"}
    final = subprocess.run([*CLI, "resume", str(run), "--json"], cwd=tmp_path, env=env, capture_output=True,
                           timeout=300)
    assert final.returncode == 0, final.stderr.decode()[-3000:]
    assert json.loads(final.stdout.decode().strip().splitlines()[-1])["status"] == "done"
    after = list(read_events(run / "events.jsonl"))[len(before):]
    assert "s1" not in {e.data["step_id"] for e in after if e.type == "step_started"}  # not redone
    assert done_steps(after) == {"s2", "s3"}
    assert not (run / "checkpoints.sqlite").exists()

