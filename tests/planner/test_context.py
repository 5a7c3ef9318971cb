"""Bounded context: the prompt of step 20's engineer is no larger than step 2's plus a small margin."""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.agents import CodeDraft, StepSummary
from cmbagent.api import solve
from cmbagent.models import ModelRequest
from cmbagent.planner import Plan, PlanStep
from tests.planner._support import brain, result_code, step_id

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.slow]


def test_prompt_of_step_20_is_no_larger_than_step_2(tmp_path: Path) -> None:
    plan = Plan(steps=[
        PlanStep(id=f"s{i}", title=f"Compute quantity {i}", goal=f"Compute quantity number {i} and print it.",
                 agent="engineer", acceptance_criteria=[f"prints q{i}"])
        for i in range(1, 21)
    ])
    prompts: dict[str, int] = {}

    def engineer(request: ModelRequest) -> CodeDraft:
        sid = step_id(request)
        prompts[sid] = sum(len(m.text()) for m in request.messages)
        n = int(sid[1:])
        return CodeDraft(code=result_code({f"q{n}": n * 1.5}, body=f"print('working on {sid}')"))

    def summary(request: ModelRequest) -> StepSummary:
        # long summaries on purpose: history must not grow the prompt
        # (distinct words: one phrase written 120 times is a loop the repetition guard cuts)
        return StepSummary(summary=f"Step {step_id(request)} computed its quantity. " + " ".join(
            f"detail{n}" for n in range(120)))

    model = brain(planner=lambda r: plan, engineer=engineer, summariser=summary)
    result = solve("Compute twenty quantities.", workspace=tmp_path, model="scripted", models={"scripted": model},
                   max_steps=20, n_reviews=0, sandbox="process")
    assert result.status == "done", result.error
    assert len(prompts) == 20
    margin = 1500
    assert prompts["s20"] <= prompts["s2"] + margin, prompts
    # and it is flat once the recent-steps window is full
    assert abs(prompts["s20"] - prompts["s10"]) <= 100
    assert result.values["q20"] == 30.0
