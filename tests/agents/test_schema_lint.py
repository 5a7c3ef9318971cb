"""The schema lint (issue 30): every schema any agent is given leaves a model nothing to write without end.

SmolLM2-135M looped for 6,850 tokens (459 s) inside the open ``priors`` mapping of a method's arguments: the
grammar let it write any key.  This walks every schema a run can ask a model for — each roster agent's output
schema as the graph binds it (plans, replans, briefs, method calls, critiques, ideas and their reviews, reports,
text answers, ...), in the situations the graph binds them in — and every registered method's arguments as a
model writes them, and fails on a string without a length, a list without a count, an object whose keys are not
enumerated, or a value of any type.  The same schemas must stay what hosted providers accept: OpenAI's strict
subset where they are sent strict, a valid JSON Schema object as an Anthropic tool's ``input_schema``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from cmbagent.agents import SCHEMAS, bind_schema, load_registry
from cmbagent.models import model_schema, output_budget, reply_chars, unbounded_fields
from cmbagent.models._structured import strict_json_schema
from cmbagent.state import ArgumentShapes
from cmbagent.tools.methods import iter_methods, path_arguments

SN = "cosmology.fit_supernovae"


def _shapes(files: list[str] | None = None) -> ArgumentShapes:
    """The argument shapes the runtime binds (planner/_runtime.py ``argument_shapes``), with the run's files."""
    shapes = ArgumentShapes.of({spec.name: spec.model_parameters for spec in iter_methods()},
                               inputs={spec.name: [a for a, kind in path_arguments(spec.name).items() if kind == "input"]
                                       for spec in iter_methods()})
    return shapes if files is None else shapes.with_files(files)


def _situations() -> Iterator[tuple[str, dict[str, Any]]]:
    """The bindings the graph makes: a task that names its method or not, the run's files or none, a step with
    criteria or none, passages to cite or none, ideas and new steps counted or not."""
    registry = load_registry()
    methods = [spec.name for spec in iter_methods()]
    base = {"agents": sorted(registry.step_agents()), "methods": methods,
            "method_agents": sorted(registry.step_agents("method"))}
    yield "any method, no files", {**base, "arguments": _shapes()}
    yield "any method, the run's files", {**base, "arguments": _shapes(["data/sn.csv", "data/cov.txt"]),
                                          "files": ["data/sn.csv", "data/cov.txt"], "max_steps": 12}
    yield "the task names its method", {**base, "methods": [SN], "arguments": _shapes(["data/sn.csv"]), "named": SN,
                                        "files": ["data/sn.csv"], "max_steps": 4, "fixed": {"data": "data/sn.csv"}}
    yield "a step with criteria", {**base, "arguments": _shapes(), "criteria": ("chi2/dof < 2", "converged")}
    yield "counted", {**base, "arguments": _shapes(), "criteria": 2, "new_steps": 3, "ideas": 3, "citable": ["c-1"]}
    yield "no shapes given (the idea team)", {"agents": [], "methods": [SN, "causal.dml_ate"], "ideas": 2}


def _bound() -> Iterator[tuple[str, type[BaseModel]]]:
    """Every schema in every situation, as a hosted model and as a small model (one that takes compact prompts,
    whose plans, requirements lists, critiques, summaries and reports have their own bounds) is asked for it."""
    for situation, kwargs in _situations():
        for name, declared in SCHEMAS.items():
            yield f"{name} ({situation})", bind_schema(declared, **kwargs)
            yield f"{name} ({situation}, a small model)", bind_schema(declared, **kwargs, stated=3, compact=True)


def test_every_schema_any_agent_is_given_is_closed_and_bounded() -> None:
    problems = {label: found for label, schema in _bound() if (found := unbounded_fields(model_schema(schema)))}
    assert not problems, json.dumps(problems, indent=1)[:4000]


def test_every_agent_of_the_roster_answers_in_a_schema_the_lint_walks() -> None:
    """A new output schema (the lead's method choice, a plugin's) is covered as soon as it is in SCHEMAS."""
    declared = {spec.output_schema for spec in load_registry() if spec.output_schema}
    assert declared <= set(SCHEMAS), declared - set(SCHEMAS)


def test_every_methods_arguments_are_closed_and_bounded_as_a_model_writes_them() -> None:
    shapes = _shapes(["data/a.csv"])
    problems = {}
    for spec in iter_methods():
        found = unbounded_fields(shapes.closed(spec.name))
        if found:
            problems[spec.name] = found
    assert not problems, problems


def test_a_mapping_argument_has_its_methods_own_keys_and_no_others() -> None:
    """``priors`` (the issue's loop): an object of the parameters a prior may be set on, each optional, nothing
    else; a mapping whose keys the method cannot name (``parents``: feature names) is not a model's to write."""
    priors = json.loads(dict(dict(_shapes().shapes)[SN])["priors"])
    closed = next(option for option in priors["anyOf"] if option.get("type") == "object")
    assert set(closed["properties"]) == {"Omega_m", "Omega_de", "w0", "wa", "H0", "M"}
    assert closed["additionalProperties"] is False and "propertyNames" not in closed
    parents = json.loads(dict(dict(_shapes().shapes)["causal.brace_counterfactual"])["parents"])
    assert parents == {"type": "null"}
    # what the method takes is unchanged: its signature validates the keys (an unknown one with a sentence)
    from cmbagent.exceptions import UserError
    from cmbagent.tools.methods import validate_arguments

    with pytest.raises(UserError, match="Omega_m"):
        validate_arguments(SN, {"data": "x.csv", "priors": {"priors.data": [0, 1]}})


def test_the_lint_fails_on_each_kind_of_unbounded_field() -> None:
    """The lint is not vacuous: each shape SmolLM2 looped in is reported, with its path."""
    loose = {"type": "object", "additionalProperties": False, "properties": {
        "text": {"type": "string"},
        "items": {"type": "array", "items": {"type": "string", "maxLength": 5}},
        "priors": {"type": "object", "additionalProperties": {"type": "number"}},
        "anything": {},
        "code": {"type": "string", "pattern": "^[a-z]+$"},
        "fine": {"type": "string", "pattern": "^[a-z]{1,8}$"},
        "nested": {"type": "object", "properties": {"a": {"type": "integer"}}},
    }}
    found = unbounded_fields(loose)
    for field in ("text", "items", "priors", "anything", "code", "nested"):
        assert any(f.startswith(f"$.{field}:") for f in found), (field, found)
    assert not any(f.startswith("$.fine") for f in found)
    assert reply_chars(loose) == -1


# -- what hosted providers accept ------------------------------------------------------------------------------
#: OpenAI's strict subset (platform.openai.com/docs/guides/structured-outputs, "Supported schemas"): these
#: keywords, every object closed with all its properties required, a root object, at most 10 levels of nesting
#: and 5,000 properties, and 1,000 enum values in all
_STRICT_KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const",
                    "$defs", "$ref", "description", "title", "pattern", "format", "minimum", "maximum",
                    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems"}


def _strict_problems(schema: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    counts = {"properties": 0, "enum": 0}

    def visit(node: Any, path: str, depth: int) -> None:
        if isinstance(node, list):
            for n, item in enumerate(node):
                visit(item, f"{path}[{n}]", depth)
            return
        if not isinstance(node, dict):
            return
        unknown = set(node) - _STRICT_KEYWORDS
        if unknown:
            problems.append(f"{path}: {sorted(unknown)} are not in the strict subset")
        if "properties" in node:
            counts["properties"] += len(node["properties"])
            if depth > 10:
                problems.append(f"{path}: nested deeper than 10 levels")
            if node.get("additionalProperties") is not False:
                problems.append(f"{path}: an object must be closed")
            if sorted(node.get("required", [])) != sorted(node["properties"]):
                problems.append(f"{path}: every property must be required")
            for name, child in node["properties"].items():
                visit(child, f"{path}.{name}", depth + 1)
        counts["enum"] += len(node.get("enum", []))
        for key in ("items", "anyOf"):
            if key in node:
                visit(node[key], f"{path}/{key}", depth)
        for name, child in (node.get("$defs") or {}).items():
            visit(child, f"#/$defs/{name}", depth)

    if schema.get("type") != "object":
        problems.append("the root must be an object")
    visit(schema, "$", 1)
    if counts["properties"] > 5000 or counts["enum"] > 1000:
        problems.append(f"too large: {counts}")
    return problems


def test_schemas_sent_strict_to_openai_are_in_its_strict_subset() -> None:
    strict_names: set[str] = set()
    for label, schema in _bound():
        strict = strict_json_schema(model_schema(schema), drop_lengths=True)  # what openai:<model> is sent
        if strict is None:
            continue  # sent non-strict: an object of optional known keys (method arguments) has no strict form
        strict_names.add(schema.__name__)
        assert _strict_problems(strict) == [], label
    # the judgements without method arguments are strict; they are most of a run's calls
    assert {"Critique", "ReportDraft", "PlanReview", "StepSummary", "ControlDecision", "AuditReport", "CodeDraft",
            "DebugFix", "TextAnswer", "IdeaReview"} <= strict_names, strict_names


def test_every_schema_is_a_valid_anthropic_tool_input_schema() -> None:
    """Anthropic's forced tool: a JSON Schema object with ``type: object`` at its root, every ``$ref`` resolving,
    and a tool name of at most 64 letters, digits, ``_`` or ``-`` (as the adapter sends it)."""
    import jsonschema  # a dev dependency (pyproject.toml [dev]): absent, the test fails rather than skips

    from cmbagent.models import Message, ModelRequest
    from cmbagent.models._http import Connection
    from cmbagent.models.anthropic import AnthropicModel

    adapter = AnthropicModel(Connection(provider="anthropic", model="claude", api_key="k", base_url="http://x",
                                        max_retries=0, timeout=1))
    for label, schema in _bound():
        params = adapter.params(ModelRequest(messages=[Message(role="user", content="go")], output_schema=schema))
        (tool,) = params["tools"]
        assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", tool["name"]), label
        input_schema = tool["input_schema"]
        assert input_schema["type"] == "object", label
        jsonschema.Draft202012Validator.check_schema(input_schema)
        refs = set(re.findall(r'"\$ref": "#/\$defs/([^"]+)"', json.dumps(input_schema)))
        assert refs <= set(input_schema.get("$defs", {})), (label, refs)


def test_a_calls_budget_follows_its_schema() -> None:
    """Output budgets per call (issue 30): the tokens of the longest reply the bound schema allows, so a plan's
    budget grows with the steps it may hold and a critique's with the criteria it may judge."""
    kwargs = {"agents": ["engineer", "researcher"], "methods": [SN], "arguments": ArgumentShapes()}
    from cmbagent.agents import PlanDraft
    from cmbagent.state import Critique

    plans = [output_budget(bind_schema(PlanDraft, **kwargs, max_steps=n)) for n in (1, 2, 4)]
    assert plans[0] is not None and plans[0] < plans[1] < plans[2], plans  # type: ignore[operator]
    critiques = [output_budget(bind_schema(Critique, **kwargs, criteria=n)) for n in (0, 2, 5)]
    assert critiques[0] < critiques[1] < critiques[2], critiques  # type: ignore[operator]
    assert critiques[2] < 2000  # a critique never gets a tier's 8,192 tokens to loop in


def test_a_small_models_replies_are_bounded_to_what_the_run_uses_and_its_budget_follows() -> None:
    """A small model's critique, summary, report and requirements list are bounded to what code uses of them, and
    their budgets follow at a token a character; a requirements list grows with the files and numbers the task
    states, up to its declared count."""
    from cmbagent.agents import ReportDraft, StepSummary
    from cmbagent.state import Critique, RequirementList

    def chars(schema: type[BaseModel]) -> int:
        return reply_chars(model_schema(schema))

    kwargs: dict[str, Any] = {"agents": ["engineer"], "methods": [SN], "arguments": ArgumentShapes()}
    for schema, extra in ((Critique, {"criteria": 2}), (StepSummary, {}), (ReportDraft, {}),
                          (RequirementList, {"stated": 3})):
        full, small = (bind_schema(schema, **kwargs, **extra, compact=c) for c in (False, True))
        assert 0 < chars(small) < 0.6 * chars(full), (schema.__name__, chars(small), chars(full))
        assert output_budget(small, chars_per_token=1) == max(256, chars(small))
    listed = [chars(bind_schema(RequirementList, **kwargs, stated=n, compact=True)) for n in (0, 2, 20, 99)]
    assert listed[0] < listed[1] < listed[2] == listed[3]  # at most the declared count
