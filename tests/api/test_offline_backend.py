"""The deterministic offline backend's rules, one agent at a time (no graph, no sandbox)."""

from __future__ import annotations

import math

import pytest

from cmbagent.agents._sanity import sanity_issues
from cmbagent.agents._schemas import Critique, DebugFix, PlanReview, TaskBrief
from cmbagent.exceptions import TaskError
from cmbagent.models import Message, ModelRequest
from cmbagent.models.offline import OfflineModel, fill_arguments, match_method, offline_plan


def ask(agent: str, schema: type, **metadata: object) -> object:
    request = ModelRequest(messages=[Message(role="user", content="x")], output_schema=schema, agent=agent,
                           metadata=metadata)
    return OfflineModel().request(request).output


def test_match_method_uses_keywords_and_honours_the_requested_name() -> None:
    assert match_method("Fit the Pantheon+ supernova distances") == "cosmology.fit_supernovae"
    assert match_method("anything at all", "cosmology.summarize_chain") == "cosmology.summarize_chain"
    assert match_method("anything", "cosmology.nope") is None
    assert match_method("Write a sonnet about the sea") is None


def test_fill_arguments_from_text_and_data_files() -> None:
    args = fill_arguments("cosmology.fit_supernovae", "Fit a wcdm model with free H0 and n_walkers: 48.",
                          {}, ["data/sn.dat"])
    assert args == {"data": "data/sn.dat", "model": "wcdm", "free_h0": True, "n_walkers": 48}
    # front matter wins over the text
    given = fill_arguments("cosmology.fit_supernovae", "use wcdm", {"model": "lcdm", "data": "data/a.txt"}, [])
    assert given["model"] == "lcdm" and given["data"] == "data/a.txt"


def test_offline_plan_is_inspect_run_interpret() -> None:
    plan = offline_plan({"method": "cosmology.fit_supernovae", "data_files": ["data/sn.dat"],
                         "arguments": {"data": "data/sn.dat"}})
    assert [s.agent for s in plan.steps] == ["data_engineer", "method_operator", "cosmologist"]
    assert plan.steps[1].method is not None and plan.steps[1].method.arguments == {"data": "data/sn.dat"}
    with pytest.raises(TaskError, match="--model openai:"):
        offline_plan({"title": "a poem"})


def test_unmappable_task_says_how_to_configure_a_model() -> None:
    with pytest.raises(TaskError, match="OPENAI_API_KEY"):
        ask("task_analyst", TaskBrief, task={"text": "Write a sonnet.", "title": "sonnet", "data_files": []})


def test_reviewer_rejects_unknown_agents_and_methods() -> None:
    plan = {"steps": [{"id": "s1", "agent": "wizard", "method": None},
                      {"id": "s2", "agent": "method_operator", "method": {"name": "magic.spell"}}]}
    review = ask("plan_reviewer", PlanReview, plan=plan)
    assert isinstance(review, PlanReview) and not review.approved
    assert any("wizard" in c for c in review.comments) and any("magic.spell" in c for c in review.comments)


def test_debugger_fixes_a_missing_import_and_gives_up_honestly_otherwise() -> None:
    fix = ask("debugger", DebugFix, code="x = np.arange(3)", error="NameError: name 'np' is not defined")
    assert isinstance(fix, DebugFix) and fix.code.startswith("import numpy as np\n") and not fix.give_up
    stuck = ask("debugger", DebugFix, code="1/0", error="ZeroDivisionError: division by zero")
    assert isinstance(stuck, DebugFix) and stuck.give_up and "ZeroDivisionError" in stuck.diagnosis


def test_sanity_findings_reject_a_step() -> None:
    values = {"a": {"mean": 1.0, "std": -0.1}, "b": math.nan, "c": {"mean": 0.5, "std": 0.28, "prior_width": 0.98},
              "d": {"lower_68": 2.0, "upper_68": 1.0}}
    issues = sanity_issues(values, {"acceptance_fraction": 0.99})
    text = " ".join(issues)
    assert "negative spread" in text and "b is not finite" in text and "as wide as its prior" in text
    assert "lower_68" in text and "acceptance fraction" in text
    assert sanity_issues({"omega_m": {"mean": 0.3, "std": 0.02, "prior_width": 0.98}}) == []
    verdict = ask("step_critic", Critique, sanity=issues, values=values, step={"acceptance_criteria": ["x"]})
    assert isinstance(verdict, Critique) and not verdict.accepted and verdict.issues == issues
