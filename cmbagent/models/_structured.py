"""Structured output and tool-call checks shared by every adapter and by the repair loop.

Adapters put a structured reply's raw JSON text in ``ModelResponse.text`` and call :func:`finish` to set
``output`` when it validates.  :func:`problem` says what is wrong with a reply (schema violation, tool
arguments that are not a JSON object, an unknown tool); :func:`repair_request` turns that into the next
request, which shows the model its own reply and the error (rule 3: fixable by the model).
"""

from __future__ import annotations

import copy
import functools
import json
import re
from typing import Any

from pydantic import BaseModel, ValidationError

from cmbagent.models._protocol import Message, ModelRequest, ModelResponse

__all__ = [
    "finish",
    "issue_text",
    "model_schema",
    "output_budget",
    "parse_output",
    "problem",
    "repair_request",
    "reply_chars",
    "schema_instruction",
    "strict_json_schema",
    "unbounded_fields",
]

#: the instruction that ends every repair message (dropped when the issue is quoted in an error)
_AGAIN = "Reply again with only a corrected JSON object."
#: characters of a faulty reply echoed back in its repair request (head and tail; the errors say what to fix)
REPAIR_ECHO_CHARS = 4000
#: validation errors listed in a repair message (a reply can be wrong everywhere; the rest are counted)
_MAX_ERRORS = 40


def model_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema a model is given for ``schema``: pydantic's, with every object that lists its properties
    and says nothing of others closed (``additionalProperties: false``).  JSON Schema leaves such an object open,
    and so do hosted providers (llama.cpp's grammar happens to close it); closed, it means the same everywhere."""
    return copy.deepcopy(_model_schema(schema))


@functools.lru_cache(maxsize=256)
def _model_schema(schema: type[BaseModel]) -> dict[str, Any]:
    def close(node: Any) -> None:
        if isinstance(node, list):
            for item in node:
                close(item)
        elif isinstance(node, dict):
            if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
                node["additionalProperties"] = False
            for key, value in node.items():
                if key in ("properties", "$defs", "definitions") and isinstance(value, dict):
                    for child in value.values():
                        close(child)
                elif key not in ("enum", "const", "default", "examples"):
                    close(value)

    raw = schema.model_json_schema()
    close(raw)
    return raw


def strict_json_schema(schema: dict[str, Any], *, drop_lengths: bool = False) -> dict[str, Any] | None:
    """Rewrite a pydantic JSON schema for OpenAI's strict mode, or ``None`` when it cannot be strict.

    Strict mode wants every object closed (``additionalProperties: false``) with all properties required,
    and no free-form objects.  Fields with defaults become required (the model must state them), which
    only narrows what validation accepts.
    """
    schema = copy.deepcopy(schema)

    def visit(node: Any) -> bool:
        if isinstance(node, list):
            return all(visit(item) for item in node)
        if not isinstance(node, dict):
            return True
        node.pop("default", None)
        if drop_lengths:  # a bound for grammar decoders; OpenAI's strict mode does not take it
            node.pop("maxLength", None)
            node.pop("minLength", None)
        ok = True
        if node.get("type") == "object" or "properties" in node:
            if node.get("additionalProperties") not in (None, False) or "properties" not in node:
                return False  # a free-form mapping has no strict form
            if "propertyNames" in node:
                return False  # a mapping of optional known keys (method arguments): strict would require them all
            node["additionalProperties"] = False
            node["required"] = list(node["properties"])
            ok = all(visit(child) for child in node["properties"].values())
        for key in ("items", "prefixItems", "anyOf", "allOf", "oneOf"):
            if key in node:
                ok = ok and visit(node[key])
        for key in ("$defs", "definitions"):
            if key in node:
                ok = ok and all(visit(child) for child in node[key].values())
        return ok

    return schema if visit(schema) else None


#: fields whose text is the work itself (a cell, a fix, an answer): only the token limit bounds them
_UNBOUNDED_FIELDS = frozenset({"code", "revised_code", "text", "summary"})
#: what a grammar gets for a string or list the schema leaves unbounded (a comment, a criterion, a reason)
GRAMMAR_STRING_CHARS, GRAMMAR_LIST_ITEMS = 600, 12


def grammar_bounds(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with a length on every free string and a count on every list that has none, for servers that
    compile the schema into a grammar (llama.cpp): a small model under a grammar that never has to close a
    string repeats a phrase until its token limit (SmolLM2 wrote a 600-token review comment of one sentence).
    Strings of :data:`_UNBOUNDED_FIELDS` are left alone."""
    schema = copy.deepcopy(schema)

    def visit(node: Any, name: str = "") -> None:
        if isinstance(node, list):
            for item in node:
                visit(item, name)
            return
        if not isinstance(node, dict):
            return
        kinds = node.get("type")
        kinds = set(kinds) if isinstance(kinds, list) else {kinds}
        if "string" in kinds and name not in _UNBOUNDED_FIELDS and \
                not {"enum", "const", "pattern", "maxLength", "format"} & set(node):
            node["maxLength"] = GRAMMAR_STRING_CHARS
        if "array" in kinds and "maxItems" not in node:
            node["maxItems"] = GRAMMAR_LIST_ITEMS
        for key, child in node.items():
            if key == "properties" and isinstance(child, dict):
                for prop, sub in child.items():
                    visit(sub, prop)
            elif key in ("$defs", "definitions") and isinstance(child, dict):
                for sub in child.values():
                    visit(sub)
            elif key in ("items", "anyOf", "oneOf", "allOf", "prefixItems", "additionalProperties"):
                visit(child, name if key != "additionalProperties" else "")
    visit(schema)
    return schema


def schema_instruction(schema: type[BaseModel]) -> str:
    """The instruction used where the wire format cannot enforce a schema (JSON mode, plain prompting)."""
    return (
        "Reply with only one JSON object (no prose, no code fence) that validates against this JSON schema:\n"
        + json.dumps(model_schema(schema), separators=(",", ":"))
    )


def _strip_fence(text: str) -> str:
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.split("\n", 1)[1] if "\n" in stripped else ""
        if stripped.rstrip().endswith("```"):
            stripped = stripped.rstrip()[:-3]
    return stripped.strip()


def parse_output(schema: type[BaseModel], response: ModelResponse) -> BaseModel:
    """Validate a reply into ``schema``; raises :class:`pydantic.ValidationError` or ``ValueError``."""
    if isinstance(response.output, schema):
        return response.output
    if isinstance(response.output, dict):
        return schema.model_validate(response.output)
    text = _strip_fence(response.text)
    if not text:
        raise ValueError("the reply was empty; a JSON object was required")
    return schema.model_validate_json(text)


def finish(request: ModelRequest, response: ModelResponse) -> ModelResponse:
    """Set ``response.output`` to the validated object when the reply validates (else leave it ``None``)."""
    schema = request.output_schema
    if schema is None or isinstance(response.output, schema):
        return response
    if response.tool_calls:
        return response  # the model chose to call a tool first
    try:
        response.output = parse_output(schema, response)
    except (ValidationError, ValueError):
        response.output = None
    return response


def _errors(error: Exception) -> str:
    """Every validation error: where, what, and the value the model gave (so it can see its mistake)."""
    if not isinstance(error, ValidationError):
        return f"- {error}"
    items = error.errors(include_url=False)
    lines = []
    for item in items[:_MAX_ERRORS]:
        where = ".".join(str(part) for part in item["loc"]) or "(root)"
        line = f"- {where}: {item['msg']}"
        if item["type"] not in ("missing", "json_invalid") and "input" in item:
            given = json.dumps(item["input"], default=repr, ensure_ascii=False)
            line += f" (got {given[:160]}{'...' if len(given) > 160 else ''})"
        lines.append(line)
    if len(items) > _MAX_ERRORS:
        lines.append(f"- ... and {len(items) - _MAX_ERRORS} more errors")
    return "\n".join(lines)


def issue_text(issue: str) -> str:
    """A repair message as quoted in an error: what was wrong, without the instruction to the model."""
    return "\n".join(line for line in issue.splitlines() if line != _AGAIN).strip()


def problem(request: ModelRequest, response: ModelResponse) -> str | None:
    """What the model must fix in ``response``, or ``None`` when it is acceptable."""
    offered = {tool.name for tool in request.tools}
    for call in response.tool_calls:
        if call.raw_arguments is not None:
            return (
                f"The arguments of your call to tool {call.name!r} were not a JSON object: "
                f"{call.raw_arguments[:300]!r}. Call it again with a JSON object matching its parameters."
            )
        if offered and call.name not in offered:
            return f"There is no tool {call.name!r}; the available tools are: {', '.join(sorted(offered))}."
    schema = request.output_schema
    if schema is None or response.tool_calls:
        return None
    try:
        response.output = parse_output(schema, response)
    except (ValidationError, ValueError) as exc:
        cut = ""
        if response.finish_reason == "length":
            cut = ("Your reply was cut off at the output-token limit before it was complete; keep the next "
                   "one shorter.\n")
        return f"{cut}Your reply does not match the required {schema.__name__} schema:\n{_errors(exc)}\n{_AGAIN}"
    return None


def repair_request(request: ModelRequest, response: ModelResponse, issue: str) -> ModelRequest:
    """The next request of a repair: the conversation, the model's faulty reply, and what to fix."""
    reply = response.text or json.dumps(
        [{"tool": c.name, "arguments": c.raw_arguments or c.arguments} for c in response.tool_calls]
    )
    if len(reply) > REPAIR_ECHO_CHARS:  # a reply that ran to its token limit would not fit a small context twice
        head, tail = reply[: REPAIR_ECHO_CHARS * 3 // 4], reply[-REPAIR_ECHO_CHARS // 4:]
        reply = f"{head}\n[... {len(reply) - len(head) - len(tail)} characters of this reply left out ...]\n{tail}"
    messages = [*request.messages, Message(role="assistant", content=reply), Message(role="user", content=issue)]
    return request.model_copy(update={"messages": messages})


# -- what a schema lets a model write -----------------------------------------------------------------------
_STRUCTURE = frozenset({"anyOf", "oneOf", "allOf", "enum", "const", "properties", "$ref", "items", "prefixItems"})
#: characters a JSON number takes at most under a grammar (llama.cpp: 16 integral and 16 decimal digits, exponent)
_NUMBER_CHARS = 40


def _bounded_pattern(pattern: str) -> bool:
    """Whether every repetition in ``pattern`` has an upper bound (``*``, ``+`` and ``{n,}`` have none)."""
    text = re.sub(r"\\.", "x", pattern)  # an escaped character is one character
    text = re.sub(r"\[[^\]]*\]", "x", text)  # so is a character class
    return not re.search(r"[*+]|\{\d*,\}", text)


def _resolve(node: Any, defs: dict[str, Any]) -> Any:
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return defs.get(ref.removeprefix("#/$defs/"), {})
    return node


def unbounded_fields(schema: dict[str, Any]) -> list[str]:
    """Where ``schema`` (a JSON schema a model is given) lets a model write without end: a string without a
    length (or with an unbounded pattern), a list without a count, an object whose keys are not enumerated, a
    value of any type.  A grammar-constrained small model loops exactly there (SmolLM2 wrote 6,850 tokens of
    invented keys into an open ``priors`` mapping).  Each entry is a path and what is wrong."""
    defs = schema.get("$defs", {})
    found: list[str] = []

    def visit(node: Any, path: str, seen: tuple[str, ...]) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if isinstance(ref, str):
            if ref in seen:
                return  # a recursive schema is checked once
            visit(_resolve(node, defs), path, (*seen, ref))
            return
        kinds = node.get("type")
        kinds = set(kinds) if isinstance(kinds, list) else ({kinds} if kinds else set())
        for key in ("anyOf", "oneOf", "allOf"):
            for n, option in enumerate(node.get(key, [])):
                visit(option, f"{path}|{n}", seen)
        if not kinds and not _STRUCTURE & set(node):
            found.append(f"{path}: a value of any type")
        if "string" in kinds and not {"enum", "const", "maxLength"} & set(node):
            pattern = node.get("pattern")
            if not (isinstance(pattern, str) and _bounded_pattern(pattern)):
                found.append(f"{path}: a string without maxLength")
        if "array" in kinds or "items" in node or "prefixItems" in node:
            if "maxItems" not in node:
                found.append(f"{path}: a list without maxItems")
            visit(node.get("items"), f"{path}[]", seen)
            for n, item in enumerate(node.get("prefixItems", [])):
                visit(item, f"{path}[{n}]", seen)
        if "object" in kinds or "properties" in node:
            if node.get("additionalProperties") is not False:
                found.append(f"{path}: an object whose keys are not enumerated (additionalProperties is not false)")
            for name, child in (node.get("properties") or {}).items():
                visit(child, f"{path}.{name}", seen)

    visit(schema, schema.get("title", "$"), ())
    return found


def reply_chars(schema: dict[str, Any]) -> int:
    """The characters of the longest reply ``schema`` allows (compact JSON, every optional field written), or
    -1 when it allows replies without end (see :func:`unbounded_fields`).  The output budget of a call is
    derived from it: a plan's from the steps it may hold, a critique's from the criteria it may judge."""
    defs = schema.get("$defs", {})

    def size(node: Any, seen: tuple[str, ...]) -> float:
        if not isinstance(node, dict):
            return float("inf")
        ref = node.get("$ref")
        if isinstance(ref, str):
            return float("inf") if ref in seen else size(_resolve(node, defs), (*seen, ref))
        options = node.get("anyOf") or node.get("oneOf")
        if options:
            return max(size(option, seen) for option in options)
        if "const" in node:
            return len(json.dumps(node["const"]))
        if "enum" in node:
            return max((len(json.dumps(v, ensure_ascii=False)) for v in node["enum"]), default=4)
        kinds = node.get("type")
        kinds = set(kinds) if isinstance(kinds, list) else {kinds}
        best = 0.0
        if "string" in kinds:
            limit = node.get("maxLength")
            if limit is None and not (isinstance(node.get("pattern"), str) and _bounded_pattern(node["pattern"])):
                return float("inf")
            best = max(best, (limit if limit is not None else len(node["pattern"])) + 2)
        if kinds & {"number", "integer"}:
            best = max(best, _NUMBER_CHARS)
        if kinds & {"boolean", "null"}:
            best = max(best, 5)
        if "array" in kinds or "items" in node or "prefixItems" in node:
            prefix = [size(item, seen) for item in node.get("prefixItems", [])]
            count = node.get("maxItems")
            if count is None and not prefix:
                return float("inf")
            rest = max(0, (count if count is not None else len(prefix)) - len(prefix))
            item = size(node["items"], seen) if rest and isinstance(node.get("items"), dict) else 0.0
            best = max(best, 2 + sum(prefix) + rest * item + max(0, len(prefix) + rest - 1))
        if "object" in kinds or "properties" in node:
            if node.get("additionalProperties") is not False:
                return float("inf")
            props = node.get("properties") or {}
            best = max(best, 2 + sum(len(json.dumps(k)) + 1 + size(v, seen) for k, v in props.items())
                       + max(0, len(props) - 1))
        if not kinds - {None} and not best:
            return float("inf")
        return best

    total = size(schema, ())
    return -1 if total == float("inf") else int(total)


#: characters per token assumed for a reply's budget: JSON keys, digits and punctuation are short tokens (English
#: prose runs about four characters a token, so a hosted model's unbounded text gets twice its schema's length)
BUDGET_CHARS_PER_TOKEN = 2
#: the smallest budget a call gets (a reply's scaffolding, a short verdict)
MIN_BUDGET = 256


def output_budget(schema: type[BaseModel], *, chars_per_token: int = BUDGET_CHARS_PER_TOKEN) -> int | None:
    """The output-token budget of a call that asks for ``schema``: the tokens of the longest reply the schema allows
    (:func:`reply_chars` at ``chars_per_token``, :data:`BUDGET_CHARS_PER_TOKEN` unless told), at least
    :data:`MIN_BUDGET`; None when the schema allows replies without end.  A plan's budget so follows the steps it
    may hold, a critique's the criteria it may judge; the client keeps it within the agent's or tier's limit
    (``[models.max_tokens]``).  A grammar-constrained small model is given one token a character
    (``chars_per_token=1``): its reply cannot outgrow the schema, and its digits take about a token each (SmolLM2
    wrote 460 characters of a summary in 407 tokens, hit the limit and was asked again)."""
    chars = reply_chars(model_schema(schema))
    if chars < 0:
        return None
    return max(MIN_BUDGET, -(-chars // max(1, chars_per_token)))
