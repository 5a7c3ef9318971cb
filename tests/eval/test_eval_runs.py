"""Evals on a real local Ray cluster (no mocks of the eval): a two-task eval end to end with the offline backend,
in both modes, with its eval.md, eval.json and a comparison of the modes; the budget stopping an eval against a
priced fake OpenAI endpoint; an eval killed with kill -9 resuming without redoing finished runs.

About 90 s on a quiet 2-core machine (a Ray cluster, four offline graph runs, three one-shot runs); marked slow.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.batch import read_batch
from cmbagent.control import run_owner
from cmbagent.eval import EvalSettings, compare_evals, load_suite, read_eval, render_comparison, run_eval
from cmbagent.events import read_events
from tests.fakes import FakeLLMServer
from tests.faults._support import Agents
from tests.planner.test_realistic_run import sandbox_backend

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::FutureWarning"), pytest.mark.filterwarnings("ignore::UserWarning")]

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "evals" / "research"
#: each call of the fake endpoint costs $0.10 at gpt-4.1's list price (50k input tokens)
CALL_USD = 50_000 * 2.00 / 1e6 + 40 * 8.00 / 1e6


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local Ray cluster of 2 CPUs whose workers see a priced fake OpenAI endpoint (set before it starts)."""
    import ray  # a test that needs Ray fails without it (pip install 'cmbagent[batch]')

    from cmbagent.batch import connect_ray

    server = FakeLLMServer(fn=Agents(input_tokens=50_000)).start()
    saved = {k: os.environ.get(k) for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    os.environ.update(OPENAI_API_KEY="sk-test-eval", OPENAI_BASE_URL=server.openai_url)
    assert connect_ray(num_cpus=2)
    try:
        yield server.openai_url
    finally:
        ray.shutdown()
        server.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def test_a_two_task_eval_end_to_end_offline(tmp_path: Path, cluster: str) -> None:
    suite = load_suite(SUITE).select(["m01-jla-matter-density", "c19-low-mass-hosts"])
    folder = tmp_path / "eval"
    record = run_eval(suite, folder, EvalSettings(model="offline", modes=["pc", "one-shot"], sandbox=sandbox_backend()))
    verdicts = {(g.task, g.mode): g.verdict for g in record.grades}
    assert verdicts == {("m01-jla-matter-density", "pc"): "pass", ("c19-low-mass-hosts", "pc"): "needs_model",
                        ("m01-jla-matter-density", "one-shot"): "needs_model",
                        ("c19-low-mass-hosts", "one-shot"): "needs_model"}
    pc = record.summary["pc"]
    assert (pc["pass"], pc["graded"], pc["attempted"]) == (1, 2, 1)
    assert pc["interval_95"][0] == pytest.approx(0.0126, abs=1e-3) and pc["interval_95"][1] == pytest.approx(0.9874, abs=1e-3)
    assert pc["calls"]["total"] > 10 and pc["cost_usd"]["total"] == 0.0 and pc["wall_s"]["median"] > 0
    assert record.summary["one-shot"]["calls"]["total"] == 0  # the offline backend writes no program: no call
    # a normal batch folder underneath, a run folder per task and mode
    batch = read_batch(folder)
    assert [row.item.name for row in batch.items] == ["c19-low-mass-hosts-pc", "m01-jla-matter-density-pc",
                                                      "c19-low-mass-hosts-os", "m01-jla-matter-density-os"]
    assert (folder / "runs" / "02-m01-jla-matter-density-pc" / "report.md").is_file()
    saved = json.loads((folder / "eval.json").read_text())
    assert saved["model_resolved"] == "offline" and len(saved["grades"]) == 4 and saved["tasks"][0]["grader"]
    table = (folder / "eval.md").read_text()
    assert "| pc | 2 | 1 | 0 | 1 | 0 | 1/2 = 50% [1%, 99%] | 1/1 = 100% [3%, 100%] |" in table
    assert "| m01-jla-matter-density | method | pass: Omega_m = 0.29" in table
    assert "[run](runs/02-m01-jla-matter-density-pc/report.md)" in table  # links relative to the eval folder
    # the graph against one model alone, side by side (one folder, two modes)
    again = read_eval(folder)
    result = compare_evals(again, again, "pc", "one-shot")
    assert result["only_a"] == ["m01-jla-matter-density"] and not result["only_b"]
    assert "| m01-jla-matter-density | pass | needs a model | A better |" in render_comparison(result)
    from cmbagent.cli import app

    shown = CliRunner().invoke(app, ["eval", "--compare", f"{folder}:pc", f"{folder}:one-shot", "--json"])
    assert shown.exit_code == 0 and json.loads(shown.stdout)["only_a"] == ["m01-jla-matter-density"]


def test_the_budget_stops_an_eval(tmp_path: Path, cluster: str) -> None:
    suite = tmp_path / "suite"
    suite.mkdir()
    for i in range(3):
        (suite / f"t{i}.md").write_text(f"# The answer {i}\n\nCompute the answer to everything and report it as `answer`.\n")
        (suite / f"t{i}.grade.yaml").write_text("kind: code\nchecks:\n  - value: answer\n    expected: 42\n"
                                                "    tolerance: {abs: 0.5}\n    why: the fake engineer prints 42\n")
    from cmbagent.cli import app

    folder = tmp_path / "eval"
    result = CliRunner().invoke(app, ["eval", str(suite), "--model", "openai:gpt-4.1", "--mode", "one-shot",
                                      "--budget-usd", "0.05", "--max-concurrent", "1", "--eval-dir", str(folder),
                                      "--sandbox", sandbox_backend()])
    assert result.exit_code == 3, result.output  # stopped by the budget
    record = read_eval(folder)
    assert [g.verdict for g in record.grades] == ["pass", "not_run", "not_run"]
    assert all("budget" in g.why for g in record.grades[1:])
    assert not (folder / "runs" / "02-t1-os").exists()  # never started: no folder, it starts on a resume
    one_shot = record.summary["one-shot"]
    assert one_shot["not_run"] == 2 and one_shot["cost_usd"]["total"] == pytest.approx(CALL_USD)
    assert one_shot["tokens"]["total"] == 50_040 and one_shot["calls"]["total"] == 1
    assert "| one-shot | 3 | 1 | 0 | 0 | 2 | 1/1 = 100%" in (folder / "eval.md").read_text()
    # a larger budget finishes it; what the eval spent before counts, the finished run is not redone
    more = CliRunner().invoke(app, ["eval", "--resume", str(folder), "--budget-usd", "0.25"])
    assert more.exit_code == 0, more.output
    record = read_eval(folder)
    assert [g.verdict for g in record.grades] == ["pass", "pass", "pass"] and record.settings.budget_usd == 0.25
    assert record.summary["one-shot"]["calls"]["total"] == 3


def test_an_eval_killed_with_kill_9_resumes_without_redoing_finished_runs(tmp_path: Path) -> None:
    import ray  # noqa: F401  (the eval commands start their own local clusters: a missing Ray fails here)
    folder = tmp_path / "eval"
    env = {**os.environ, "CMBAGENT_OFFLINE_DELAY": "0.2", "PYTHONWARNINGS": "ignore"}
    cli = [sys.executable, "-m", "cmbagent", "eval"]
    proc = subprocess.Popen([*cli, str(SUITE), "--only", "m02-union-matter-density", "--only", "m01-jla-matter-density",
                             "--model", "offline", "--max-concurrent", "1", "--eval-dir", str(folder),
                             "--sandbox", sandbox_backend()], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    second = folder / "runs" / "02-m02-union-matter-density-pc"
    deadline = time.monotonic() + 400
    while not any(e.type == "step_started" for e in read_events(second / "events.jsonl")):
        assert proc.poll() is None, proc.stderr.read().decode()[-3000:]  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "the second run never started"
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60
    while run_owner(second) is not None:
        assert time.monotonic() < deadline, "the killed eval's run kept going"
        time.sleep(0.2)
    assert [r.status for r in read_batch(folder).items] == ["done", "running"]
    assert read_eval(folder).grades == []  # killed before grading
    first = folder / "runs" / "01-m01-jla-matter-density-pc"
    first_events = len(list(read_events(first / "events.jsonl")))

    again = subprocess.run([*cli, "--resume", str(folder), "--json"], env=env, capture_output=True, timeout=600)
    assert again.returncode == 0, again.stderr.decode()[-3000:]
    record = json.loads(again.stdout)
    assert [(g["task"], g["verdict"]) for g in record["grades"]] == [("m01-jla-matter-density", "pass"),
                                                                     ("m02-union-matter-density", "pass")]
    assert len(list(read_events(first / "events.jsonl"))) == first_events  # the finished run was not redone
    resumed = [e.data["resumed"] for e in read_events(second / "events.jsonl") if e.type == "run_started"]
    assert resumed == [False, True]  # the interrupted run resumed from its checkpoints
