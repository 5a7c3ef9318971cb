"""`cmbagent solve` exit codes and errors: bad input exits 2 with a clear message and leaves no run folder;
a task whose step cannot succeed exits 1 with a report that says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.cli import app

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def solve(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["solve", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "not found"),
        ("", "the task is empty"),
        ("---\ntitle: [unclosed\n---\nDo it.\n", "not valid YAML"),
        ("---\ntitel: x\n---\nDo it.\n", "did you mean 'title'?"),
        ("---\narguments: {data: missing/file.csv}\n---\nDo it.\n", "data file 'missing/file.csv'"),
        ("---\nmethod: cosmology.fit_supernova\n---\nDo it.\n", "did you mean 'cosmology.fit_supernovae'?"),
        ("---\nbudget_usd: -1\n---\nDo it.\n", "'budget_usd' must be a positive number"),
        ("Write a sonnet about the sea.", "could not map this task"),
    ],
)
def test_bad_input_exits_2_and_leaves_no_run_folder(tmp_path: Path, content: str | None, needle: str) -> None:
    task = tmp_path / "task.md"
    if content is not None:
        task.write_text(content)
    ws = tmp_path / "ws"
    code, output = solve(str(task), "--workspace", str(ws), "--sandbox", "process")
    assert code == 2, output
    assert needle in output
    assert not ws.exists() or not any(ws.iterdir())


def test_unmappable_task_names_how_to_configure_a_model(tmp_path: Path) -> None:
    code, output = solve("Write a sonnet about the sea.", "--workspace", str(tmp_path / "ws"))
    assert code == 2
    assert output.splitlines()[0].startswith("no model configured")
    assert "--model openai:" in output and "OPENAI_API_KEY" in output and "openai-compatible:" in output


def test_bad_flags_exit_2(tmp_path: Path) -> None:
    task = tmp_path / "task.md"
    task.write_text("Summarise the MCMC chain.")
    assert solve(str(task), "--agent-model", "planner", "--workspace", str(tmp_path))[0] == 2
    assert solve(str(task), "--model", "nonsense:xyz", "--workspace", str(tmp_path))[0] == 2
    assert solve(str(task), "--max-steps", "0")[0] == 2


@pytest.mark.slow
def test_a_step_that_cannot_succeed_exits_1_with_a_report(tmp_path: Path) -> None:
    (tmp_path / "chain.txt").write_text("# omega_m h0\nnot numbers at all\n")
    task = tmp_path / "task.md"
    task.write_text("---\nmethod: cosmology.summarize_chain\narguments: {chain: chain.txt}\n---\nSummarise the chain.\n")
    code, output = solve(str(task), "--workspace", str(tmp_path / "ws"), "--sandbox", "process", "--json")
    assert code == 1, output
    summary = json.loads(output.strip().splitlines()[-1])
    assert summary["status"] == "failed"
    statuses = {s["id"]: s["status"] for s in summary["steps"]}
    assert statuses["s2"] == "skipped"
    report = Path(summary["report"]).read_text()
    assert "## What failed or was skipped" in report and "s2 (Run cosmology.summarize_chain) skipped" in report


def test_spent_budget_exits_3_with_a_partial_report(tmp_path: Path) -> None:
    (tmp_path / "chain.txt").write_text("# omega_m\n0.3\n0.31\n")
    task = tmp_path / "task.md"
    task.write_text("---\nmethod: cosmology.summarize_chain\narguments: {chain: chain.txt}\n---\nSummarise the chain.\n")
    code, output = solve(str(task), "--workspace", str(tmp_path / "ws"), "--sandbox", "process", "--timeout", "1e-9",
                         "--json")
    assert code == 3, output
    summary = json.loads(output.strip().splitlines()[-1])
    assert summary["status"] == "budget_exhausted"
    report = Path(summary["report"]).read_text()
    assert "Stopped early" in report and "seconds budget exhausted" in report


@pytest.mark.slow
def test_ctrl_c_exits_130_and_the_run_resumes(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    from cmbagent.events import read_events
    from tests.planner._support import chain_task

    task = chain_task(tmp_path)
    run = tmp_path / "run"
    env = {**os.environ, "CMBAGENT_OFFLINE_DELAY": "0.3", "PYTHONWARNINGS": "ignore"}
    proc = subprocess.Popen([sys.executable, "-m", "cmbagent", "solve", str(task), "--run-dir", str(run),
                             "--sandbox", "process"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 240
    while not any(e.type == "step_started" for e in read_events(run / "events.jsonl")):
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert f"resume with: cmbagent resume {run}" in out  # the way back is printed, not left to guess
    assert json.loads((run / "run.json").read_text())["status"] == "interrupted"
    assert [e.data["status"] for e in read_events(run / "events.jsonl") if e.type == "run_finished"] == ["interrupted"]
    code = CliRunner().invoke(app, ["resume", str(run)]).exit_code
    assert code == 0
    assert json.loads((run / "run.json").read_text())["status"] == "done"
