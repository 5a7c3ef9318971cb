"""The idea team over HTTP: the real openai SDK talks to the fake OpenAI server through the AutoGen team
(RoundRobinGroupChat of two AssistantAgents whose model client is our models layer).  The maker proposes,
the hater rejects one idea, the maker revises, the hater is satisfied; the transcript then replays with the
fake server gone and the network blocked.  A spent budget ends the team cleanly with the ideas so far."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import Idea, IdeaCritique, IdeaReview, IdeaSet
from cmbagent.ideas import generate_ideas, replay_ideas
from tests.fakes import FakeLLMServer, Json, RecordedRequest

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

TASK = """---
title: Treatment effect on a small trial
method: causal.dml_ate
arguments: {data: trial.csv, outcome: y, treatment: d, covariates: [x1, x2]}
---
Estimate the average effect of the treatment d on the outcome y, adjusting for x1 and x2.
"""


def _idea(title: str, **arguments: Any) -> Idea:
    return Idea(title=title, question=f"{title}?", hypothesis="the effect is robust", method="causal.dml_ate",
                arguments={"data": "data/trial.csv", "outcome": "y", "treatment": "d", "covariates": ["x1", "x2"],
                           **arguments},
                approach="Run it and compare with the task's estimate.", risks=["small sample"])


class Team:
    """Answers as the agent its system prompt names; records what each call saw."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, list[dict[str, Any]]]] = []

    def __call__(self, request: RecordedRequest) -> Json:
        messages = request.body["messages"]
        system = messages[0]["content"]
        agent = "idea_maker" if system.startswith("You are the idea maker") else "idea_hater"
        self.calls.append((agent, messages))
        maker_turns = sum(1 for a, _ in self.calls if a == "idea_maker")
        if agent == "idea_maker" and maker_turns == 1:
            reply: Any = IdeaSet(ideas=[_idea("Interactive model", model="irm"),
                                        _idea("Lasso nuisances", learner="lasso"),
                                        _idea("Adjust for age", covariates=["x1", "x2", "age"])])
        elif agent == "idea_maker":
            reply = IdeaSet(ideas=[_idea("Interactive model", model="irm"), _idea("Lasso nuisances", learner="lasso"),
                                   _idea("More folds", n_folds=10)],
                            notes="replaced the idea that adjusts for a column the data lacks")
        elif maker_turns == 1:
            reply = IdeaReview(satisfied=False, summary="one idea names a missing column", critiques=[
                IdeaCritique(idea=1, novelty=3, feasibility=5, verdict="fine", keep=True,
                             confounders=["unmeasured confounding"]),
                IdeaCritique(idea=2, novelty=2, feasibility=5, verdict="a robustness check", keep=True),
                IdeaCritique(idea=3, novelty=4, feasibility=1, verdict="the data has no age column", keep=False)])
        else:
            reply = IdeaReview(satisfied=True, summary="all three can run", critiques=[
                IdeaCritique(idea=1, novelty=3, feasibility=5, verdict="the main idea", keep=True),
                IdeaCritique(idea=2, novelty=2, feasibility=5, verdict="a robustness check", keep=True),
                IdeaCritique(idea=3, novelty=2, feasibility=4, verdict="cheap variance check", keep=True)])
        return Json(reply, input_tokens=400, output_tokens=120)


def _task(folder: Path) -> Path:
    import numpy as np

    rng = np.random.default_rng(0)
    x = rng.normal(size=(200, 2))
    d = (x[:, 0] + rng.normal(size=200) > 0).astype(int)
    y = 2 * d + x @ [1.0, -0.5] + rng.normal(size=200)
    rows = "\n".join(f"{a:.4f},{b:.4f},{t},{o:.4f}" for (a, b), t, o in zip(x, d, y, strict=True))
    (folder / "trial.csv").write_text("x1,x2,d,y\n" + rows + "\n")
    (folder / "task.md").write_text(TASK)
    return folder / "task.md"


def test_a_scripted_team_over_http_revises_and_its_transcript_replays_offline(tmp_path: Path) -> None:
    team = Team()
    task = _task(tmp_path)
    with FakeLLMServer(fn=team) as server:
        result = generate_ideas(task, workspace=tmp_path / "ws", rounds=3, n_ideas=3,
                                model=f"openai-compatible:fake-model@{server.openai_url}")
    assert result.status == "done", result.error
    # two rounds: propose, review (one rejected), revise, review (satisfied) -> the team stopped early
    assert [agent for agent, _ in team.calls] == ["idea_maker", "idea_hater", "idea_maker", "idea_hater"]
    assert result.rounds_run == 2
    # each agent's context is bounded: its system prompt, the brief, and at most the last two messages
    brief = team.calls[0][1][1]["content"]
    assert "data/trial.csv" in brief and "columns: x1, x2, d, y" in brief and "causal.dml_ate" in brief
    for _, messages in team.calls:
        assert messages[1]["content"] == brief and len(messages) <= 5
    revise = team.calls[2][1]
    assert "no age column" in revise[-1]["content"] and '"Adjust for age"' in revise[-2]["content"]

    titles = [row.idea.title for row in result.ideas]
    assert titles == ["Interactive model", "Lasso nuisances", "More folds"]  # by novelty + feasibility
    assert all(row.selected for row in result.ideas)
    assert result.ideas[0].reasons == "novelty 3/5, feasibility 5/5: the main idea"
    data = json.loads(result.ideas_json.read_text())
    assert [r["agent"] for r in data["rounds_log"]] == ["idea_maker", "idea_hater", "idea_maker", "idea_hater"]
    assert data["rounds_log"][2]["ideas"]["notes"].startswith("replaced the idea")

    # every call went through the models layer: transcript, usage and cost per agent
    transcript = [json.loads(line) for line in (result.run_dir / "transcript.jsonl").read_text().splitlines()]
    assert [t["agent"] for t in transcript] == ["idea_maker", "idea_hater", "idea_maker", "idea_hater"]
    assert transcript[0]["request"]["output_schema"]["name"] == "IdeaSet"
    run = json.loads((result.run_dir / "run.json").read_text())
    assert run["costs"]["per_agent"]["idea_hater"]["calls"] == 2

    # the server is gone and the network is blocked (tests/conftest.py): the replay reads the transcript
    replayed, comparison = replay_ideas(result.run_dir, workspace=tmp_path / "replays")
    assert replayed.status == "done" and comparison["identical"], comparison
    assert [r.idea.title for r in replayed.ideas] == titles
    replay_calls = (replayed.run_dir / "transcript.jsonl").read_text().splitlines()
    assert [json.loads(line)["model"].startswith("replay:") for line in replay_calls] == [True] * 4


def test_a_spent_budget_ends_the_team_with_the_ideas_so_far(tmp_path: Path) -> None:
    team = Team()
    with FakeLLMServer(fn=team) as server:
        result = generate_ideas(_task(tmp_path), workspace=tmp_path / "ws", rounds=3, n_ideas=3, budget_tokens=1000,
                                model=f"openai-compatible:fake-model@{server.openai_url}")
    assert result.status == "budget_exhausted"
    assert len(team.calls) == 2  # 520 tokens a call: the third call is refused before it is made
    assert [r.idea.title for r in result.ideas][:2] == ["Interactive model", "Lasso nuisances"]
    assert not result.ideas[-1].selected and "no age column" in result.ideas[-1].reasons
    md = result.ideas_md.read_text()
    assert "status **budget_exhausted**" in md and "Stopped early" in md


def test_cli_runs_ideas_and_replays_them(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cmbagent.cli import app

    runner = CliRunner()
    out = runner.invoke(app, ["ideas", str(_task(tmp_path)), "--workspace", str(tmp_path / "ws"), "--n-ideas", "3",
                              "--to-tasks", str(tmp_path / "tasks"), "--json"])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout.strip().splitlines()[-1])
    assert summary["status"] == "done" and len(summary["ideas"]) == 3 and len(summary["tasks"]) == 3
    assert all(Path(p).is_file() for p in summary["tasks"]) and (tmp_path / "tasks" / "data" / "trial.csv").is_file()
    replay = runner.invoke(app, ["replay", summary["run_dir"], "--json"])
    assert replay.exit_code == 0, replay.output
    assert json.loads(replay.stdout.strip().splitlines()[-1])["comparison"]["same_ideas"] is True
