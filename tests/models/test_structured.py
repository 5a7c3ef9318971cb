"""Strict JSON schemas for OpenAI and the checks behind the repair loop."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from cmbagent.models import Message, ModelRequest, ModelResponse, ToolCall, ToolSpec
from cmbagent.models._structured import finish, problem, strict_json_schema


class Step(BaseModel):
    id: str
    default: str = "x"  # a field that happens to be called "default"
    depends_on: list[str] = []


class Plan(BaseModel):
    steps: list[Step]
    note: str | None = None


def walk(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append(node)
        for value in node.values():
            found += walk(value)
    elif isinstance(node, list):
        for value in node:
            found += walk(value)
    return found


def test_strict_schema_closes_every_object_and_requires_every_field() -> None:
    strict = strict_json_schema(Plan.model_json_schema())
    assert strict is not None
    objects = walk(strict)
    assert len(objects) == 2  # Plan and the Step definition
    for obj in objects:
        assert obj["additionalProperties"] is False and obj["required"] == list(obj["properties"])
    step = strict["$defs"]["Step"]
    assert "default" in step["properties"] and "default" not in step["properties"]["default"]
    assert Plan.model_json_schema()["$defs"]["Step"].get("additionalProperties") is None  # input untouched


def test_free_form_objects_have_no_strict_form() -> None:
    class Loose(BaseModel):
        extra: dict[str, Any]

    assert strict_json_schema(Loose.model_json_schema()) is None


def test_problem_and_finish() -> None:
    request = ModelRequest(messages=[Message(role="user", content="plan")], output_schema=Plan,
                           tools=[ToolSpec(name="search")])
    good = finish(request, ModelResponse(text='{"steps": [{"id": "s1"}]}'))
    assert isinstance(good.output, Plan) and problem(request, good) is None
    bad = ModelResponse(text='{"steps": [{"name": "s1"}]}')
    assert finish(request, bad).output is None
    issue = problem(request, bad)
    assert issue is not None and "steps.0.id" in issue and "Plan" in issue
    # a tool call is a legitimate reply even when a schema is asked for
    calling = ModelResponse(tool_calls=[ToolCall(id="1", name="search", arguments={"q": "h0"})])
    assert problem(request, calling) is None


def test_every_validation_error_is_quoted_with_the_value_given() -> None:
    request = ModelRequest(messages=[Message(role="user", content="plan")], output_schema=Plan)
    steps = [{"name": f"n{i}", "depends_on": f"bad-{i}"} for i in range(12)]  # 24 errors
    issue = problem(request, ModelResponse(text=json.dumps({"steps": steps})))
    assert issue is not None
    for i in range(12):
        assert f"steps.{i}.id: Field required" in issue
        assert f'steps.{i}.depends_on: Input should be a valid array (got "bad-{i}")' in issue


def test_grammar_servers_get_a_bound_on_every_free_string_and_list() -> None:
    """Sent to a compatible server (llama.cpp compiles the schema into a grammar), never to OpenAI itself."""
    from cmbagent.agents._schemas import CodeDraft, PlanReview
    from cmbagent.models import resolve
    from cmbagent.models._structured import GRAMMAR_LIST_ITEMS, GRAMMAR_STRING_CHARS, grammar_bounds
    from tests.models._backends import KEYS

    review = grammar_bounds(PlanReview.model_json_schema())
    comments = review["properties"]["comments"]
    assert comments["maxItems"] == GRAMMAR_LIST_ITEMS and comments["items"]["maxLength"] == GRAMMAR_STRING_CHARS
    nested = grammar_bounds(Plan.model_json_schema())["$defs"]["Step"]["properties"]
    assert nested["id"]["maxLength"] == GRAMMAR_STRING_CHARS and nested["depends_on"]["maxItems"] == GRAMMAR_LIST_ITEMS
    code = grammar_bounds(CodeDraft.model_json_schema())["properties"]["code"]
    assert "maxLength" not in code  # a cell is bounded by the token limit only

    class Short(BaseModel):
        name: str = Field(json_schema_extra={"maxLength": 40})
        kind: Literal["a", "b"] = "a"

    short = grammar_bounds(Short.model_json_schema())["properties"]
    assert short["name"]["maxLength"] == 40 and "maxLength" not in short["kind"]  # own bounds and enums kept

    request = ModelRequest(messages=[Message(role="user", content="review")], output_schema=PlanReview)
    compatible = resolve("openai-compatible:m@http://127.0.0.1:9/v1", env=KEYS)
    sent = compatible.params(request)["response_format"]["json_schema"]["schema"]  # type: ignore[attr-defined]
    assert sent["properties"]["comments"]["items"]["maxLength"] == GRAMMAR_STRING_CHARS
    hosted = resolve("openai:gpt-4.1", env=KEYS)
    fmt = hosted.params(request)["response_format"]["json_schema"]  # type: ignore[attr-defined]
    assert fmt["strict"] is True and "maxLength" not in json.dumps(fmt["schema"])  # strict mode takes none
