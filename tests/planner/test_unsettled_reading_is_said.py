"""With a model as the task analyst, what code's reading of the task could not settle is asked, not guessed.

Offline, pre-flight asks the person and nothing runs. With a model the analyst's arguments would decide those
points (issue 29: a small model's analyst planned runs with wrong arguments on tasks the offline reader asked
about), so the plan waits for a person: every open point is in run.json (``understanding.open``) and a
``task.reading_unsettled`` warning, nothing has run, the CLI prints the points and exits 2, and approving the plan
(or ``--accept-analyst``) lets the analyst's arguments decide, with the warning in the report.

The model is faked at the HTTP boundary (the real OpenAI SDK against tests.fakes.FakeLLMServer)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cmbagent.api import PlanDecision, resume, solve
from cmbagent.cli import app
from cmbagent.sandbox import InMemoryExecutor
from tests.fakes import FakeLLMServer
from tests.planner.test_sure_reading_pins_the_method import SmallModel, _distances

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


_OPEN = ("# Matter density\n\nFrom the supernova distance moduli in `hubble_flow.csv`, what matter density does a flat "
         "ΛCDM universe prefer? Treat an extra host dispersion as free, with a flat prior from 0.05 to 0.4 mag.\n")
_CONFIG = {"models": {"retries": 1, "timeout": 30}}


def _open_task(tmp_path: Path) -> Path:
    _distances(tmp_path / "hubble_flow.csv")
    task = tmp_path / "task.md"
    task.write_text(_OPEN)
    return task


def _unsettled(run_dir: Path) -> list[dict]:
    run = json.loads((run_dir / "run.json").read_text())
    return [f for f in run.get("findings", []) if f["code"] == "task.reading_unsettled"]


def test_points_the_reading_left_open_hold_the_plan_for_a_person(tmp_path: Path) -> None:
    task = _open_task(tmp_path)
    with FakeLLMServer(fn=SmallModel()) as server:
        model = f"openai-compatible:fake-model@{server.openai_url}"
        result = solve(task, run_dir=tmp_path / "run", model=model, executor=InMemoryExecutor, config=_CONFIG)
        assert result.status == "awaiting_approval"  # no --approve-plan: the open points alone held it
        assert not [s for s in result.steps if s.get("status") == "done"]  # nothing ran
        understanding = json.loads((result.run_dir / "run.json").read_text())["understanding"]
        assert any("0.4" in q for q in understanding["open"]), understanding
        unsettled = _unsettled(result.run_dir)
        assert unsettled and unsettled[0]["severity"] == "warning"
        assert any("0.4" in q for q in unsettled[0]["evidence"]["questions"]), unsettled[0]["evidence"]
        assert unsettled[0]["evidence"]["method"] == "cosmology.fit_supernovae"
        events = [json.loads(line) for line in (result.run_dir / "events.jsonl").read_text().splitlines()]
        held = [e for e in events if e["type"] == "plan_held"]
        assert held and held[0]["data"]["open"] == understanding["open"]
        assert not [e for e in events if e["type"] == "plan_approved"]

        # the person approves the analyst's values: the run goes on and the report says what they decided
        result = resume(result.run_dir, decision=PlanDecision(action="approve"), executor=InMemoryExecutor)
    assert result.status not in {"awaiting_approval"}, result.status
    assert [s for s in result.steps if s.get("status") == "done"]
    report = result.report_path.read_text()
    assert "task.reading_unsettled" in report or "left 1 point" in report or "point(s) open" in report, report[:2000]


def test_accept_analyst_lets_the_analyst_decide_and_says_so(tmp_path: Path) -> None:
    task = _open_task(tmp_path)
    with FakeLLMServer(fn=SmallModel()) as server:
        result = solve(task, run_dir=tmp_path / "run", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config=_CONFIG, settings={"accept_analyst": True})
    assert result.status != "awaiting_approval"
    assert [s for s in result.steps if s.get("status") == "done"]
    assert _unsettled(result.run_dir)  # said, though not asked


def test_the_cli_prints_the_open_points_and_exits_2(tmp_path: Path) -> None:
    task = _open_task(tmp_path)
    config = tmp_path / "cmbagent.toml"
    config.write_text("[models]\nretries = 1\ntimeout = 30\n")
    with FakeLLMServer(fn=SmallModel()) as server:
        out = CliRunner().invoke(app, ["solve", str(task), "--run-dir", str(tmp_path / "run"), "--sandbox", "process",
                                       "--config", str(config), "--model",
                                       f"openai-compatible:fake-model@{server.openai_url}"])
    assert out.exit_code == 2, out.output
    assert "left these points open" in out.output and "0.4" in out.output, out.output
    assert "--accept-analyst" in out.output and "cmbagent resume" in out.output
    assert json.loads((tmp_path / "run" / "run.json").read_text())["status"] == "awaiting_approval"


def test_a_settled_reading_adds_no_warning(tmp_path: Path) -> None:
    _distances(tmp_path / "hubble_flow.csv")
    task = tmp_path / "task.md"
    task.write_text("# Matter density\n\nFrom the supernova distance moduli in `hubble_flow.csv`, what matter density "
                    "does a flat ΛCDM universe prefer?\n")
    with FakeLLMServer(fn=SmallModel()) as server:
        result = solve(task, run_dir=tmp_path / "run", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
    run = json.loads((result.run_dir / "run.json").read_text())
    assert "task.reading_unsettled" not in [f["code"] for f in run.get("findings", [])]


class AnalystPicks(SmallModel):
    """An analyst that names a method code's reading did not settle on (SmolLM2 chose a spiking-network method for a
    question no method of the catalogue answers)."""

    def __init__(self, method: str) -> None:
        super().__init__()
        self.method = method

    def reply(self, agent: str, sid: str, user: str) -> object:
        if agent == "task_analyst":
            from cmbagent.state import TaskBrief

            return TaskBrief(title="Strength", objective="Fit the strengths.", method=self.method, arguments={})
        if agent == "planner":
            from cmbagent.state import MethodCall, Plan, PlanStep

            return Plan(steps=[PlanStep(id="s1", title="Fit", goal="Fit the strengths.", agent="method_operator",
                                        method=MethodCall(name=self.method, arguments={}))])
        return super().reply(agent, sid, user)


def test_a_method_code_could_not_settle_on_holds_the_plan(tmp_path: Path) -> None:
    from cmbagent.agents import read_task

    rng = np.random.default_rng(3)
    (tmp_path / "rod_strengths.csv").write_text(
        "rod,strength_mpa\n" + "".join(f"{i},{v:.1f}\n" for i, v in enumerate(rng.weibull(6.0, 40) * 300)))
    text = ("# Glass rods\n\nFit a two-parameter Weibull distribution to the breaking strengths in "
            "`rod_strengths.csv` and give the modulus with a bootstrap interval.\n")
    (tmp_path / "task.md").write_text(text)
    reading = read_task(text=text)
    assert reading.choice.status != "chosen" and reading.choice.top(3), reading.choice
    picked = reading.choice.top(3)[0].method
    with FakeLLMServer(fn=AnalystPicks(picked)) as server:
        result = solve(tmp_path / "task.md", run_dir=tmp_path / "run", executor=InMemoryExecutor, config=_CONFIG,
                       model=f"openai-compatible:fake-model@{server.openai_url}")
    assert result.status == "awaiting_approval"
    assert not [s for s in result.steps if s.get("status") == "done"]
    understanding = json.loads((result.run_dir / "run.json").read_text())["understanding"]
    assert any("code's reading of the task" in q and f"the task analyst chose {picked}" in q
               for q in understanding["open"]), understanding
