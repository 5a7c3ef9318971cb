"""The plan vocabulary: code numbers the steps, the schema a model is asked for names only real agents and
methods, and statuses are decided by value."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from cmbagent.state import (
    Finding,
    Plan,
    PlanDraft,
    PlanStep,
    Severity,
    SkipReason,
    StepDraft,
    StepRecord,
    StepStatus,
    next_step_ids,
    plan_problems,
    plan_schema,
)

AGENTS = ["engineer", "method_operator", "researcher"]
METHODS = ["cosmology.fit_supernovae", "cosmology.summarize_chain"]


def test_code_numbers_the_steps_and_never_reuses_an_id() -> None:
    draft = PlanDraft(steps=[StepDraft(title="a", goal="g", agent="engineer"),
                             StepDraft(title="b", goal="g", agent="researcher")])
    assert draft.numbered().ids == ["s1", "s2"]
    assert draft.numbered(used=["s1", "s2", "s3", "wrap-up"]).ids == ["s4", "s5"]
    assert next_step_ids(["s2", "s4"], 3) == ["s5", "s6", "s7"]
    # the executed plan keeps id first (plan.json is read and edited by people)
    assert next(iter(draft.numbered().model_dump()["steps"][0])) == "id"


def test_a_model_reply_with_invented_ids_is_a_valid_draft() -> None:
    schema = plan_schema(agents=AGENTS, methods=METHODS)
    reply = {"steps": [{"id": "chain check", "title": "Check the chain", "goal": "g", "agent": "engineer"},
                       {"id": "chain check", "title": "Interpret", "goal": "g", "agent": "researcher"}]}
    assert schema.model_validate(reply).numbered().ids == ["s1", "s2"]
    with pytest.raises(ValidationError):  # the same ids would fail as the executed plan
        Plan.model_validate(reply)


def test_the_plan_schema_names_agents_and_methods_as_enums() -> None:
    schema = plan_schema(agents=AGENTS, methods=METHODS)
    defs = schema.model_json_schema()["$defs"]
    assert defs["StepDraft"]["properties"]["agent"]["enum"] == AGENTS
    assert defs["MethodCall"]["properties"]["name"]["enum"] == METHODS
    assert "id" not in defs["StepDraft"]["properties"]  # bookkeeping is not asked of a model
    assert plan_schema(agents=list(reversed(AGENTS)), methods=METHODS) is schema  # cached per roster
    with pytest.raises(ValidationError) as info:
        schema.model_validate({"steps": [{"title": "x", "goal": "g", "agent": "wizard",
                                          "method": {"name": "magic.spell"}}]})
    text = str(info.value)
    assert "unknown agent 'wizard'; step agents are: engineer, method_operator, researcher" in text
    assert "unknown method 'magic.spell'; known methods: cosmology.fit_supernovae" in text
    # with no method registered, a step cannot name one at all (an enum may not be empty)
    bare = plan_schema(agents=AGENTS, methods=[])
    assert "MethodCall" not in bare.model_json_schema().get("$defs", {})


def test_plan_problems_reads_roles_not_names() -> None:
    plan = Plan(steps=[PlanStep(id="s1", title="run", goal="g", agent="caller"),
                       PlanStep(id="s1", title="x", goal=" ", agent="engineer")])
    problems = plan_problems(plan, step_agents={"caller", "engineer"}, method_agents={"caller"}, methods=set(),
                             max_steps=1)
    assert "a caller step must name a method" in " ".join(problems)
    assert any("used twice" in p for p in problems) and any("limit is 1" in p for p in problems)
    assert any("goal is empty" in p for p in problems)


def test_a_skip_is_a_gap_unless_a_revised_plan_replaced_the_step_or_it_was_a_narrative() -> None:
    """A narrative left out by code for invented numbers (issue 30) is no gap either: the report states the
    results from the steps' values."""
    def skipped(reason: SkipReason) -> StepRecord:
        return StepRecord(id="s1", status=StepStatus.SKIPPED, skip_reason=reason, reason="whatever the text says")

    assert not skipped(SkipReason.REPLACED).is_gap and not skipped(SkipReason.NARRATIVE).is_gap
    assert all(skipped(r).is_gap for r in SkipReason if r not in (SkipReason.REPLACED, SkipReason.NARRATIVE))
    assert not StepRecord(id="s1", status=StepStatus.FAILED).is_gap  # a revision took its place


def test_findings_have_a_fixed_shape() -> None:
    finding = Finding(code="posterior_at_prior_edge", severity="warning", step_id="s2",
                      message="Omega_m piles up at the prior edge.", evidence={"mass_at_edge": 0.4})
    assert finding.severity is Severity.WARNING
    assert finding.model_dump(mode="json")["severity"] == "warning"
    with pytest.raises(ValidationError):
        Finding(code="x", severity="fatal", step_id="s1", message="m")
    with pytest.raises(ValidationError):
        Finding(code="not a code!", severity="note", step_id="s1", message="m")
