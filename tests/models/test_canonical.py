"""Request hashes over a canonical form: a dict built in another order or floating-point noise in a recomputed
number does not make a replay diverge; a real change still does."""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.agents import PlanReviewContext, TaskContext
from cmbagent.exceptions import ConfigError
from cmbagent.models import Message, ModelRequest
from cmbagent.models._transcript import canonical_request, request_hash
from cmbagent.models.replay import ReplayModel
from cmbagent.state import MethodCall, Plan, PlanStep, TaskBrief


def _hash(text: str, **settings: object) -> str:
    request = ModelRequest(messages=[Message(role="user", content=text)], agent="plan_reviewer")
    if settings:
        request = request.model_copy(update={"settings": request.settings.model_copy(update=settings)})
    return request_hash(canonical_request(request))


def _plan(arguments: dict[str, object]) -> Plan:
    step = PlanStep(id="s1", title="Run the fit", agent="method_operator", goal="fit",
                    method=MethodCall(name="cosmology.fit_supernovae", arguments=arguments))
    return Plan(steps=[step])


def test_argument_key_order_does_not_change_the_prompt_or_its_hash() -> None:
    brief = TaskBrief(title="t", objective="o")
    a = PlanReviewContext(brief=brief, plan=_plan({"data": "data/x.dat", "model": "flat_lcdm"}), round=1, rounds=1)
    b = PlanReviewContext(brief=brief, plan=_plan({"model": "flat_lcdm", "data": "data/x.dat"}), round=1, rounds=1)
    assert a.render() == b.render()
    assert _hash(a.render()) == _hash(b.render())
    task_a = TaskContext(title="t", text="x", arguments={"b": 1, "a": 2}, front_matter={"seed": 0, "title": "t"})
    task_b = TaskContext(title="t", text="x", arguments={"a": 2, "b": 1}, front_matter={"title": "t", "seed": 0})
    assert task_a.render() == task_b.render()


def test_float_noise_is_normalised_but_real_changes_are_not() -> None:
    assert _hash("Omega_m = 0.35123456789012345") == _hash("Omega_m = 0.35123456789012346")
    assert _hash("Omega_m = 0.3512345") != _hash("Omega_m = 0.3512346")
    assert _hash("x", temperature=0.30000000000000004) == _hash("x", temperature=0.3)
    assert _hash("version 1.2.3 and 0.1") == _hash("version 1.2.3 and 0.1")
    assert _hash("fit supernovae") != _hash("fit quasars")


def test_a_transcript_without_the_canonical_form_is_refused(tmp_path: Path) -> None:
    old = tmp_path / "transcript.jsonl"
    old.write_text('{"v": 1, "seq": 0, "agent": "planner", "request": {}, "request_hash": "x", "response": null}\n')
    model = ReplayModel(old)
    request = ModelRequest(messages=[Message(role="user", content="x")], agent="planner")
    with pytest.raises(ConfigError, match=r"format 1.*run the task again"):
        model.request(request)
