"""The deterministic offline backend's rules, one output schema at a time (no graph, no sandbox).

Each call carries the typed context the graph would render into the prompt; the rules read that object.
"""

from __future__ import annotations

import pytest

from cmbagent.agents import (
    CritiqueContext,
    DebugContext,
    DebugFix,
    OfflineModel,
    PlanReview,
    PlanReviewContext,
    TaskContext,
    fill_arguments,
    match_method,
    offline_plan,
)
from cmbagent.exceptions import ConfigError, TaskError
from cmbagent.models import Message, ModelRequest
from cmbagent.state import Critique, Finding, Plan, PlanStep, TaskBrief


def ask(agent: str, schema: type, context: object) -> object:
    request = ModelRequest(messages=[Message(role="user", content="x")], output_schema=schema, agent=agent,
                           context=context)  # type: ignore[arg-type]
    return OfflineModel().request(request).output


STEP = PlanStep(id="s1", title="Fit", goal="Fit it.", agent="engineer", acceptance_criteria=["x"])
BRIEF = TaskBrief(title="t", objective="o")


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


def test_offline_plan_is_inspect_run_interpret_with_the_family_expert() -> None:
    plan = offline_plan(TaskBrief(title="t", objective="o", method="cosmology.fit_supernovae",
                                  data_files=["data/sn.dat"], arguments={"data": "data/sn.dat"}))
    assert [s.agent for s in plan.steps] == ["data_engineer", "method_operator", "cosmologist"]
    assert plan.steps[1].method is not None and plan.steps[1].method.arguments == {"data": "data/sn.dat"}
    assert plan.numbered().ids == ["s1", "s2", "s3"] and plan.steps[2].inputs == ["s1", "s2"]
    with pytest.raises(TaskError, match="--model openai:"):
        offline_plan(TaskBrief(title="a poem", objective="rhyme"))


def test_unmappable_task_says_how_to_configure_a_model() -> None:
    with pytest.raises(TaskError, match="OPENAI_API_KEY"):
        ask("task_analyst", TaskBrief, TaskContext(title="sonnet", text="Write a sonnet."))


def test_reviewer_rejects_unknown_agents_and_methods() -> None:
    plan = Plan(steps=[PlanStep(id="s1", title="a", goal="g", agent="wizard"),
                       PlanStep(id="s2", title="b", goal="g", agent="method_operator",
                                method={"name": "magic.spell"})])  # type: ignore[arg-type]
    review = ask("plan_reviewer", PlanReview, PlanReviewContext(brief=BRIEF, plan=plan, round=1, rounds=1))
    assert isinstance(review, PlanReview) and not review.approved
    assert any("wizard" in c for c in review.comments) and any("magic.spell" in c for c in review.comments)


def test_debugger_fixes_a_missing_import_and_gives_up_honestly_otherwise() -> None:
    def context(code: str, error: str) -> DebugContext:
        return DebugContext(brief=BRIEF, step=STEP, folder="steps/01-fit", code=code, error=error)

    fix = ask("debugger", DebugFix, context("x = np.arange(3)", "NameError: name 'np' is not defined"))
    assert isinstance(fix, DebugFix) and fix.code.startswith("import numpy as np\n") and not fix.give_up
    stuck = ask("debugger", DebugFix, context("1/0", "ZeroDivisionError: division by zero"))
    assert isinstance(stuck, DebugFix) and stuck.give_up and "ZeroDivisionError" in stuck.diagnosis


def test_the_offline_critic_decides_by_the_severity_of_the_findings() -> None:
    error = Finding(code="value.not_finite", severity="error", step_id="s1", message="b is not finite (nan)")
    warning = Finding(code="fit.chi2_low", severity="warning", step_id="s1", message="chi2 too low",
                      settle="use the covariance")
    context = CritiqueContext(step=STEP, folder="steps/01-fit", values={"b": None}, findings=[warning, error])
    rejected = ask("step_critic", Critique, context)
    assert isinstance(rejected, Critique) and not rejected.accepted and rejected.issues == [error.line()]
    caveat = ask("step_critic", Critique, context.model_copy(update={"findings": [warning]}))
    assert isinstance(caveat, Critique) and caveat.accepted and "fit.chi2_low" in caveat.verdict
    assert "use the covariance" in caveat.verdict


def test_a_new_agent_needs_no_rule_but_a_new_schema_names_the_one_rule_it_needs() -> None:
    # an agent the backend has never heard of, answering an existing schema, gets that schema's rule
    verdict = ask("units_checker", Critique, CritiqueContext(step=STEP, folder="steps/01-fit", output="ok",
                                                             values={"x": 1.0}))
    assert isinstance(verdict, Critique) and verdict.accepted

    from pydantic import BaseModel

    class UnitsVerdict(BaseModel):
        consistent: bool

    with pytest.raises(ConfigError, match=r"no rule for output schema UnitsVerdict; add one with @offline_rule"):
        ask("units_checker", UnitsVerdict, CritiqueContext(step=STEP, folder="steps/01-fit"))
