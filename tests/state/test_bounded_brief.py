"""The task brief a model writes has bounded lists and mappings: a grammar-constrained decoder must close them.

SmolLM2-135M under llama.cpp's json_schema grammar repeated one data file until its 8,192-token limit when
``data_files`` had no ``maxItems`` (issue 16); with the bound the grammar ends the list.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from cmbagent.state import TaskBrief


def _unbounded(node: Any, path: str = "") -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        if node.get("type") == "array" and "maxItems" not in node:
            found.append(path)
        if node.get("type") == "object" and node.get("additionalProperties") not in (None, False) \
                and "maxProperties" not in node:
            found.append(path)
        for key, value in node.items():
            found += _unbounded(value, f"{path}/{key}")
    elif isinstance(node, list):
        for n, value in enumerate(node):
            found += _unbounded(value, f"{path}/{n}")
    return found


def test_every_list_and_open_mapping_of_the_brief_is_bounded() -> None:
    schema = TaskBrief.model_json_schema()
    assert _unbounded({k: v for k, v in schema.items() if k != "$defs"}) == []


def test_a_brief_past_its_bounds_is_refused_with_the_field_named() -> None:
    with pytest.raises(ValidationError, match="data_files"):
        TaskBrief(title="t", objective="o", data_files=[f"data/{n}.csv" for n in range(21)])


def _worst_case_chars(node: Any) -> int:
    """The most characters of free text a grammar lets a decoder write in ``node`` (strings times list bounds)."""
    if not isinstance(node, dict):
        return 0
    if "anyOf" in node:
        return max(_worst_case_chars(alt) for alt in node["anyOf"])
    if node.get("type") == "string" and not {"enum", "const"} & set(node):
        return int(node.get("maxLength", 10**6))
    if node.get("type") == "array":
        return int(node.get("maxItems", 10**6)) * _worst_case_chars(node.get("items", {}))
    return sum(_worst_case_chars(v) for v in node.get("properties", {}).values())


def test_a_plan_step_is_small_under_a_grammar() -> None:
    """SmolLM2-135M filled every list of a step to its bound with digits: 2,338 tokens, 7.6 minutes on one core
    for a one-step plan.  The step's free text (method arguments aside) is bounded to ~3,000 characters."""
    from cmbagent.state import step_schema

    for methods in ([], ["cosmology.fit_supernovae", "theory.lif_snn_regions"]):  # none registered, or some
        step = step_schema(agents=["engineer", "method_operator"], methods=methods,
                           method_agents=["method_operator"]).model_json_schema()
        for kind in step.get("anyOf", [step]):
            kind["properties"].pop("method")  # arguments: bounded per argument (tests/state/test_closed_arguments.py)
            chars = _worst_case_chars(kind)
            assert 1000 < chars <= 3000, (methods, chars)
            assert kind["properties"]["acceptance_criteria"]["maxItems"] <= 3


def test_a_method_step_is_asked_for_no_inputs_or_outputs() -> None:
    """SmolLM2 spent most of a 2,577-token JoLA plan (570 s) on a method step's inputs ("n_heads_n_heads_n_n…"):
    a method step's call names its files and the method its artifacts, so the schema asks for neither there; a
    hosted model's step that still lists them validates."""
    from cmbagent.state import StepDraft, step_schema

    schema = step_schema(agents=["engineer", "method_operator"], methods=["cosmology.fit_supernovae"],
                         method_agents=["method_operator"])
    method_step, other_step = schema.model_json_schema()["anyOf"]
    assert method_step["properties"]["agent"]["enum"] == ["method_operator"]
    assert not {"inputs", "expected_outputs"} & set(method_step["properties"])
    assert method_step["properties"]["instructions"]["maxLength"] == 300
    assert {"inputs", "expected_outputs"} <= set(other_step["properties"])
    step = schema.model_validate({"title": "Fit", "goal": "Fit the supernovae.", "agent": "method_operator",
                                  "inputs": ["data/sn.csv"], "method": {"name": "cosmology.fit_supernovae"}})
    assert isinstance(step, StepDraft) and step.inputs == ["data/sn.csv"]


def test_the_analysts_brief_is_small_under_a_grammar() -> None:
    """SmolLM2-135M wrote 1,904 tokens of one brief, nearly all of them requirements repeating
    "categ_treatment_effect_from_a_taxonomy_…" under ids it made up.  In the analyst's schema the brief's free
    text is bounded to ~10,500 characters (it was not bounded at all: a requirement's value was any JSON, and an
    optional text's maxLength stood beside its ``anyOf``, where llama.cpp's grammar converter does not look) and
    the checklist ids are code's (not in the schema); a hosted model's longer brief still validates."""
    from cmbagent.state import ArgumentShapes, brief_schema

    bound = brief_schema(methods=("cosmology.fit_supernovae",), arguments=ArgumentShapes(), named=None,
                         files=("data/sn.csv",))
    schema = bound.model_json_schema()
    requirement = schema["$defs"]["Requirement"]
    assert "id" not in requirement["properties"]
    chars = _worst_case_chars({"properties": {k: v for k, v in schema["properties"].items()
                                              if k not in ("arguments", "requirements")}})
    chars += schema["properties"]["requirements"]["maxItems"] * _worst_case_chars(requirement)
    assert 3000 < chars <= 11000, chars
    many = bound.model_validate({"title": "t", "objective": "o", "constraints": ["c"] * 12,
                                 "requirements": [{"kind": "output", "text": "a figure", "output": "figure"}] * 20})
    assert len(many.constraints) == 12 and len(many.requirements) == 20


def _beside_any_of(node: Any, path: str = "") -> list[str]:
    """Bounds written beside an ``anyOf`` (llama.cpp's converter ignores them: measured, SmolLM2 wrote 562
    characters into a field so bounded to 8, and 8 when the bound sat inside the string branch)."""
    found: list[str] = []
    if isinstance(node, dict):
        if "anyOf" in node and {"maxLength", "maxItems", "maxProperties"} & set(node):
            found.append(path)
        for key, value in node.items():
            found += _beside_any_of(value, f"{path}/{key}")
    elif isinstance(node, list):
        for n, value in enumerate(node):
            found += _beside_any_of(value, f"{path}/{n}")
    return found


def test_no_bound_of_a_model_facing_schema_sits_beside_an_any_of() -> None:
    from cmbagent.agents import SCHEMAS, bind_schema
    from cmbagent.state import ArgumentShapes, Critique
    from cmbagent.tools.methods import iter_methods

    shapes = ArgumentShapes.of({spec.name: spec.schema["parameters"] for spec in iter_methods()})
    methods = ["cosmology.fit_supernovae", "theory.lif_snn_regions"]
    for named in (None, "theory.lif_snn_regions"):
        for name, declared in SCHEMAS.items():
            bound = bind_schema(declared, agents=["engineer", "method_operator", "researcher"], methods=methods,
                                arguments=shapes, named=named, max_steps=6, method_agents=["method_operator"],
                                files=["data/sn.csv"], criteria=3 if declared is Critique else None, new_steps=2,
                                citable=["c1"])
            assert _beside_any_of(bound.model_json_schema()) == [], (name, named)


def _free(node: Any, defs: dict[str, Any], path: str = "", depth: int = 0) -> list[str]:
    """Strings without a length, lists without a count (a grammar lets a decoder write them forever)."""
    found: list[str] = []
    if isinstance(node, dict):
        if "$ref" in node and depth < 4:
            return _free(defs[node["$ref"].rsplit("/", 1)[-1]], defs, path, depth + 1)
        kind = node.get("type")
        if kind == "string" and not {"enum", "const", "maxLength", "pattern"} & set(node):
            found.append(path)
        if kind == "array" and not {"maxItems", "prefixItems"} & set(node):
            found.append(path + "[]")
        for key, value in node.items():
            if key != "$defs":
                found += _free(value, defs, f"{path}/{key}", depth)
    elif isinstance(node, list):
        for n, value in enumerate(node):
            found += _free(value, defs, f"{path}/{n}", depth)
    return found


def test_every_judgement_a_run_asks_for_is_bounded_but_code() -> None:
    """SmolLM2 wrote a 5,453-token plan review (334 s on one core) into PlanReview's unbounded ``comments``.
    Every schema a run asks a model for is bounded, but a cell's code (the call's deadline bounds that)."""
    from cmbagent.agents import SCHEMAS, bind_schema
    from cmbagent.state import ArgumentShapes, Critique
    from cmbagent.tools.methods import iter_methods

    shapes = ArgumentShapes.of({spec.name: spec.schema["parameters"] for spec in iter_methods()})
    code = {"/properties/code", "/properties/revised_code/anyOf/0"}
    for name, declared in SCHEMAS.items():
        bound = bind_schema(declared, agents=["engineer", "method_operator"], methods=["theory.lif_snn_regions"],
                            arguments=shapes, named="theory.lif_snn_regions", max_steps=4,
                            method_agents=["method_operator"], files=["data/a.csv"],
                            criteria=2 if declared is Critique else None, new_steps=2, ideas=3)
        schema = bound.model_json_schema()
        free = set(_free({k: v for k, v in schema.items() if k != "$defs"}, schema.get("$defs", {}))) - code
        assert not free, (name, sorted(free))


def test_an_idea_set_and_its_review_hold_as_many_ideas_as_were_asked_for() -> None:
    """The idea maker and hater (``cmbagent ideas``) answer in bounded schemas: ``--n-ideas 3`` is three ideas
    and three critiques in the grammar; a hosted model's longer reply still validates (code ranks and trims)."""
    from cmbagent.agents import IdeaReview, IdeaSet, bind_schema

    ideas = bind_schema(IdeaSet, agents=[], methods=["cosmology.fit_supernovae"], ideas=3)
    review = bind_schema(IdeaReview, agents=[], methods=["cosmology.fit_supernovae"], ideas=3)
    assert ideas.model_json_schema()["properties"]["ideas"]["maxItems"] == 3
    assert review.model_json_schema()["properties"]["critiques"]["maxItems"] == 3
    numbered = review.model_json_schema()["$defs"]["IdeaCritique"]["properties"]["idea"]
    assert (numbered["minimum"], numbered["maximum"]) == (1, 3)  # SmolLM2 critiqued ideas 104 and 327 of two
    idea = {"title": "t", "question": "q", "method": "cosmology.fit_supernovae", "approach": "a" * 900}
    assert issubclass(ideas, IdeaSet) and len(ideas.model_validate({"ideas": [idea] * 5}).ideas) == 5
    with pytest.raises(ValidationError, match="method"):
        ideas.model_validate({"ideas": [{**idea, "method": "scatterplot"}]})
