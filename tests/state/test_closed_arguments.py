"""Method arguments in the schemas a model is asked for name only the method's own arguments (issue 16).

Free-form ``arguments`` let SmolLM2-135M under a JSON grammar loop on invented key names; closed objects (the
method's names, typed, ``additionalProperties: false``) leave a constrained decoder nothing to invent, and
validation tells a hosted model which names exist.  Built from the real method registry.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from cmbagent.agents import bind_schema
from cmbagent.agents._schemas import MethodCallDraft
from cmbagent.models._structured import strict_json_schema
from cmbagent.state import ArgumentShapes, PlanDraft, TaskBrief, plan_schema
from cmbagent.tools.methods import get_method, iter_methods

SN = "cosmology.fit_supernovae"
AGENTS = ["engineer", "method_operator"]


@pytest.fixture(scope="module")
def shapes() -> ArgumentShapes:
    return ArgumentShapes.of({spec.name: spec.schema["parameters"] for spec in iter_methods()})


@pytest.fixture(scope="module")
def methods() -> list[str]:
    return [spec.name for spec in iter_methods()]


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [r for v in node.values() for r in refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in refs(v)]
    return []


def test_a_methods_arguments_object_is_closed_typed_and_self_contained(shapes: ArgumentShapes) -> None:
    closed = shapes.closed(SN)
    assert list(closed["properties"]) == list(get_method(SN).arguments)
    assert closed["additionalProperties"] is False and closed["propertyNames"]["enum"] == list(closed["properties"])
    assert closed["properties"]["model"]["enum"] == ["flat_lcdm", "lcdm", "wcdm", "w0wacdm"]
    assert refs(closed) == []  # the priors' GaussianPrior $ref is inlined: the object stands alone in any schema
    assert "description" not in json.dumps(closed)  # prose stays in the prompt's catalogue, not the grammar


def test_the_brief_for_a_named_method_takes_only_its_arguments(shapes: ArgumentShapes, methods: list[str]) -> None:
    brief = bind_schema(TaskBrief, agents=AGENTS, methods=methods, arguments=shapes, named=SN)
    assert issubclass(brief, TaskBrief)
    schema = brief.model_json_schema()
    assert schema["properties"]["method"]["anyOf"][0] == {"enum": [SN]}
    assert list(schema["properties"]["arguments"]["properties"]) == list(get_method(SN).arguments)
    assert schema["properties"]["title"]["maxLength"] == 120  # every string has a length a grammar closes
    assert brief.model_validate({"title": "t", "objective": "o", "arguments": {"model": "wcdm"}}).arguments == {
        "model": "wcdm"}
    with pytest.raises(ValidationError, match=r"no argument 'Mantel2015'; its arguments are: data, covariance"):
        brief.model_validate({"title": "t", "objective": "o", "arguments": {"Mantel2015": 1}})
    with pytest.raises(ValidationError, match="no argument 'omega'"):
        brief.model_validate({"title": "t", "objective": "o", "requirements": [
            {"kind": "argument", "text": "x", "method": SN, "argument": "omega", "value": 1}]})


def test_a_brief_without_a_named_method_may_use_any_methods_argument_names(shapes: ArgumentShapes,
                                                                           methods: list[str]) -> None:
    brief = bind_schema(TaskBrief, agents=AGENTS, methods=methods, arguments=shapes)
    schema = brief.model_json_schema()
    assert schema["properties"]["method"]["anyOf"][0] == {"enum": sorted(methods)}
    names = set(schema["properties"]["arguments"]["properties"])
    assert {"n_labeled", "free_h0", "data"} <= names and schema["properties"]["arguments"]["additionalProperties"] is False
    # the analyst picked a method: its arguments must be that method's
    with pytest.raises(ValidationError, match="no argument 'n_labeled'"):
        brief.model_validate({"title": "t", "objective": "o", "method": SN, "arguments": {"n_labeled": 5}})


def test_each_plan_step_method_names_only_its_own_arguments(shapes: ArgumentShapes, methods: list[str]) -> None:
    plan = plan_schema(agents=AGENTS, methods=methods, arguments=shapes)
    schema = plan.model_json_schema()
    alternatives = schema["$defs"]["StepDraft"]["properties"]["method"]["anyOf"]
    by_name = {a["properties"]["name"]["const"]: a for a in alternatives if "properties" in a}
    assert set(by_name) == set(methods) and {"type": "null"} in alternatives
    for name, alternative in by_name.items():
        assert list(alternative["properties"]["arguments"]["properties"]) == list(get_method(name).arguments)
    step = {"title": "Fit", "goal": "fit", "agent": "method_operator"}
    ok = plan.model_validate({"steps": [{**step, "method": {"name": SN, "arguments": {"model": "lcdm"}}}]})
    assert ok.steps[0].method is not None and ok.steps[0].method.arguments == {"model": "lcdm"}
    with pytest.raises(ValidationError, match="no argument 'dta'"):
        plan.model_validate({"steps": [{**step, "method": {"name": SN, "arguments": {"dta": "x"}}}]})
    assert plan_schema(agents=AGENTS, methods=methods, arguments=shapes) is plan  # cached
    free = plan_schema(agents=AGENTS, methods=methods)  # no shapes: arguments stay a free mapping
    assert free is not plan and free.model_validate({"steps": [{**step, "method": {"name": SN,
                                                                                    "arguments": {"dta": 1}}}]})


def test_the_method_operators_call_is_bound_to_the_steps_method(shapes: ArgumentShapes, methods: list[str]) -> None:
    call = bind_schema(MethodCallDraft, agents=AGENTS, methods=methods, arguments=shapes, named=SN)
    schema = call.model_json_schema()
    assert schema["properties"]["method"]["enum"] == [SN]
    assert schema["properties"]["arguments"]["additionalProperties"] is False
    with pytest.raises(ValidationError, match="no argument 'walkers'"):
        call.model_validate({"method": SN, "arguments": {"walkers": 32}})
    # no method known in advance: one of the methods, with arguments one of theirs (never a free mapping, issue 30)
    unnamed = bind_schema(MethodCallDraft, agents=AGENTS, methods=methods, arguments=shapes).model_json_schema()
    assert unnamed["properties"]["method"]["enum"] == methods
    assert all(o["additionalProperties"] is False for o in unnamed["properties"]["arguments"]["anyOf"])


def test_closed_argument_objects_are_never_sent_as_strict(shapes: ArgumentShapes, methods: list[str]) -> None:
    """Strict mode requires every property: it would force a model to state all of a method's arguments."""
    plan = plan_schema(agents=AGENTS, methods=methods, arguments=shapes)
    assert strict_json_schema(plan.model_json_schema()) is None
    assert strict_json_schema(PlanDraft.model_json_schema()) is None  # free mapping: not strict either
    closed_only = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert strict_json_schema(closed_only) == {**closed_only, "additionalProperties": False, "required": ["a"]}


def test_the_briefs_data_files_are_the_runs_inputs(shapes: ArgumentShapes, methods: list[str]) -> None:
    """SmolLM2 listed one covariance file that is not there 20 times (the list's bound); code knows the files."""
    brief = bind_schema(TaskBrief, agents=AGENTS, methods=methods, arguments=shapes, named=SN,
                        files=["data/sn/Pantheon+SH0ES.dat"])
    files = brief.model_json_schema()["properties"]["data_files"]
    assert files["items"] == {"enum": ["data/sn/Pantheon+SH0ES.dat"]} and files["maxItems"] == 1
    assert files["uniqueItems"] is True
    none = bind_schema(TaskBrief, agents=AGENTS, methods=methods, arguments=shapes, named=SN, files=[])
    assert none.model_json_schema()["properties"]["data_files"]["maxItems"] == 0


def test_a_runaway_reply_is_echoed_clipped_in_its_repair_request() -> None:
    """SmolLM2's 4,525-token plan was sent back whole with the repair: 15,546 tokens for an 8,192-token context."""
    from cmbagent.models import Message, ModelRequest, ModelResponse
    from cmbagent.models._structured import REPAIR_ECHO_CHARS, repair_request

    request = ModelRequest(messages=[Message(role="user", content="plan it")])
    reply = '{"steps": [{"title": "' + "preprocessed_dataset_" * 1000
    repaired = repair_request(request, ModelResponse(text=reply), "the reply was cut off")
    echoed = repaired.messages[1].content
    assert isinstance(echoed, str) and len(echoed) < REPAIR_ECHO_CHARS + 100
    assert echoed.startswith('{"steps"') and echoed.endswith("preprocessed_dataset_")
    assert f"{len(reply) - REPAIR_ECHO_CHARS} characters of this reply left out" in echoed
    assert repaired.messages[2].content == "the reply was cut off"
    short = repair_request(request, ModelResponse(text='{"a": 1'), "fix it")
    assert short.messages[1].content == '{"a": 1'
    grammar = ArgumentShapes.of({SN: get_method(SN).schema["parameters"]}).closed(SN)["properties"]
    assert grammar["data"]["maxLength"] == 200 and "maxLength" not in grammar["model"]  # an enum needs none


def test_a_method_is_given_only_to_an_agent_that_runs_methods(shapes: ArgumentShapes) -> None:
    """SmolLM2 gave cosmology.fit_supernovae to llm_engineer (a text role): no method would have run."""
    from cmbagent.state import plan_problems

    agents = ["engineer", "llm_engineer", "method_operator"]
    plan = plan_schema(agents=agents, methods=[SN], arguments=shapes, method_agents=["method_operator"])
    method_step, other_step = plan.model_json_schema()["$defs"]["StepDraft"]["anyOf"]
    assert method_step["properties"]["agent"]["enum"] == ["method_operator"]
    assert method_step["required"][-1] == "method" and method_step["additionalProperties"] is False
    assert other_step["properties"]["agent"]["enum"] == ["engineer", "llm_engineer"]
    assert other_step["properties"]["method"] == {"type": "null"}
    wrong = plan.model_validate({"steps": [{"title": "Fit", "goal": "fit", "agent": "llm_engineer",
                                            "method": {"name": SN, "arguments": {}}}]}).numbered()
    problems = plan_problems(wrong, step_agents=set(agents), method_agents={"method_operator"}, methods={SN},
                             max_steps=4)
    assert problems == [f"step s1: it calls {SN}, but llm_engineer does not run methods; give the step to "
                        "method_operator, or drop its method"]


def test_repeated_steps_of_a_draft_are_dropped_before_numbering() -> None:
    from cmbagent.planner._planning import without_repeats
    from cmbagent.state import MethodCall, StepDraft

    fit = MethodCall(name=SN, arguments={"model": "flat_lcdm"})
    steps = [StepDraft(title="Measure Omega_m", goal="fit", agent="method_operator", method=fit),
             StepDraft(title="measure omega_m again", goal="fit", agent="method_operator", method=fit),
             StepDraft(title="Fit wCDM", goal="fit", agent="method_operator",
                       method=MethodCall(name=SN, arguments={"model": "wcdm"})),
             StepDraft(title="Interpret", goal="Say what it means.", agent="researcher"),
             StepDraft(title="interpret ", goal="say what it means.", agent="researcher"),
             # SmolLM2's filler: the same agent and title, a goal of noise
             StepDraft(title="Interpret", goal="mjn-1", agent="researcher"),
             StepDraft(title="Interpret", goal="Say what it means.", agent="ml_theorist")]
    kept = without_repeats(PlanDraft(steps=steps)).numbered()
    assert [(s.id, s.title, s.agent) for s in kept.steps] == [
        ("s1", "Measure Omega_m", "method_operator"), ("s2", "Fit wCDM", "method_operator"),
        ("s3", "Interpret", "researcher"), ("s4", "Interpret", "ml_theorist")]
    unique = PlanDraft(steps=steps[:1])
    assert without_repeats(unique) is unique
    # calls that differ only in what the task fixes run the same: one is kept (SmolLM2 planned three x-hacking
    # audits that differed in the label column the front matter gives)
    audits = [StepDraft(title=f"Audit {n}", goal="audit", agent="method_operator",
                        method=MethodCall(name=SN, arguments={"model": model, "n_walkers": 16}))
              for n, model in enumerate(["wcdm", "flat_lcdm", "lcdm"])]
    fixed = {SN: {"model": "flat_lcdm"}}
    kept = without_repeats(PlanDraft(steps=audits), lambda method: fixed.get(method, {}))
    assert [s.title for s in kept.steps] == ["Audit 0"]
    assert len(without_repeats(PlanDraft(steps=audits)).steps) == 3


def test_input_file_arguments_are_the_runs_files_or_nothing() -> None:
    from cmbagent.state import ArgumentShapes
    from cmbagent.tools.methods import get_method, path_arguments

    shapes = ArgumentShapes.of({"lm.jola": get_method("lm.jola").schema["parameters"]},
                               inputs={"lm.jola": [a for a, k in path_arguments("lm.jola").items() if k == "input"]})
    free = shapes.closed("lm.jola")["properties"]["data"]
    assert {"type": "string", "maxLength": 200} in free["anyOf"]  # no files known: bounded, as before
    assert shapes.with_files([]).closed("lm.jola")["properties"]["data"] == {"type": "null"}
    data = shapes.with_files(["data/pairs.csv"]).closed("lm.jola")["properties"]["data"]
    assert data == {"anyOf": [{"type": "string", "enum": ["data/pairs.csv"]}, {"type": "null"}]}
    fixed = shapes.with_files([]).closed("lm.jola", fixed={"data": "data/given.csv"})["properties"]["data"]
    assert fixed == {"const": "data/given.csv"}  # what the task states wins
    assert shapes.with_files(["a.csv"]).closed("lm.jola")["properties"]["n_heads"] == \
        shapes.closed("lm.jola")["properties"]["n_heads"]  # other arguments untouched


def test_a_list_of_numbers_is_bounded_as_a_sweep_and_a_list_of_names_as_a_list(shapes: ArgumentShapes) -> None:
    """SmolLM2's planner filled the initialisation scales of a tubal sweep up to the 100 items any list took (1,583
    tokens): a list of numbers takes at most 32, a list of names (columns, covariates) 100; a list the task states is
    a constant of the call, whatever its length."""
    def array(node: dict[str, Any]) -> dict[str, Any]:
        return next(a for a in [node, *node.get("anyOf", [])] if a.get("type") == "array")

    tubal = shapes.closed("theory.tubal_tensor_gd")["properties"]
    assert array(tubal["alphas"])["maxItems"] == 32 and array(tubal["rank_sweep"])["maxItems"] == 32
    assert array(shapes.closed("causal.dml_ate")["properties"]["covariates"])["maxItems"] == 100
    stated = [10.0 ** -k for k in range(40)]
    fixed = shapes.closed("theory.tubal_tensor_gd", fixed={"alphas": stated})["properties"]["alphas"]
    assert fixed == {"const": stated}
