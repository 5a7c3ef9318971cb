"""Anthropic messages adapter (``anthropic:<model>``); the ``anthropic`` SDK is imported only in here.

Structured output is forced tool use: the schema becomes a tool the model must call, and that call's input
is the object (its JSON streams to ``on_text`` as it is written, like a chat-completions reply, so the live view
and the repetition guard see it).  Streaming reads the raw event stream (text and tool-input deltas) so that a
malformed tool input reaches the repair loop instead of breaking the SDK's accumulator; a stream without a stop
reason was cut off and is retried.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from cmbagent.models._http import (
    HTTPModel,
    IncompleteStream,
    cut_at_deadline,
    image_base64,
    parse_arguments,
    unanswered,
)
from cmbagent.models._protocol import (
    ImagePart,
    Message,
    ModelRequest,
    ModelResponse,
    StreamCallback,
    ToolCall,
    Usage,
    keep_partial,
)
from cmbagent.models._providers import Provider, ProviderCall, register_provider
from cmbagent.models._structured import model_schema
from cmbagent.models._tokens import estimate_tokens

__all__ = ["AnthropicModel"]

DEFAULT_MAX_TOKENS = 4096
#: Anthropic stop reasons in the protocol's words (``ModelResponse.finish_reason``)
_FINISH = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length", "tool_use": "tool_calls",
           "refusal": "content_filter", "pause_turn": "stop"}
#: thinking budget per reasoning effort (used for plain-text calls only; see ``params``)
_THINKING_BUDGET = {"low": 1024, "medium": 4096, "high": 16384}


@functools.cache
def _sdk_accepts(parameter: str) -> bool:
    """Whether the installed SDK's ``messages.create`` takes ``parameter``."""
    import inspect

    import anthropic

    return parameter in inspect.signature(anthropic.resources.Messages.create).parameters


def output_tool_name(request: ModelRequest) -> str:
    """The name of the tool that carries the structured output."""
    schema = request.output_schema
    base = schema.__name__ if schema is not None else "result"
    return "final_" + re.sub(r"[^A-Za-z0-9_-]", "_", base)[:56]


def _blocks(message: Message) -> list[dict[str, Any]]:
    if message.role == "tool":
        return [{"type": "tool_result", "tool_use_id": message.tool_call_id or "", "content": message.text()}]
    blocks: list[dict[str, Any]] = []
    if isinstance(message.content, str):
        if message.content:
            blocks.append({"type": "text", "text": message.content})
    else:
        for part in message.content:
            if isinstance(part, ImagePart):
                media_type, data = image_base64(part)
                blocks.append({"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}})
            elif part.text:
                blocks.append({"type": "text", "text": part.text})
    for call in message.tool_calls:
        blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments})
    return blocks


def to_anthropic(messages: list[Message]) -> tuple[str, list[dict[str, Any]]]:
    """``(system, messages)``: system text apart; tool results as user turns; same-role turns merged."""
    system = "\n\n".join(m.text() for m in messages if m.role == "system")
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "system":
            continue
        role = "assistant" if message.role == "assistant" else "user"
        blocks = _blocks(message)
        if not blocks:
            continue
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": role, "content": blocks})
    return system, out


def _sent_estimate(params: dict[str, Any]) -> Usage:
    """Input tokens of a request that got no usage back, estimated from what was sent (system, messages, tools)."""
    sent = json.dumps({k: params.get(k) for k in ("system", "messages", "tools")}, ensure_ascii=False, default=str)
    return Usage(input_tokens=estimate_tokens(sent), source="estimate")


def _usage(usage: Any, *, output_only: bool = False) -> Usage:
    if usage is None:
        return Usage()
    cached = int(getattr(usage, "cache_read_input_tokens", 0) or 0)
    written = int(getattr(usage, "cache_creation_input_tokens", 0) or 0)
    fresh = int(getattr(usage, "input_tokens", 0) or 0)
    return Usage(
        input_tokens=0 if output_only else fresh + cached + written,
        output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
        cached_tokens=0 if output_only else cached,
    )


class AnthropicModel(HTTPModel):
    """Messages API against api.anthropic.com (or ``ANTHROPIC_BASE_URL``)."""

    wire = "Anthropic messages"

    def _sdk(self) -> Any:
        import anthropic

        return anthropic

    def _make_client(self) -> Any:
        import anthropic

        return anthropic.Anthropic(api_key=self._api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout)

    def params(self, request: ModelRequest) -> dict[str, Any]:
        system, messages = to_anthropic(request.messages)
        settings = request.settings
        params: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": settings.max_tokens or DEFAULT_MAX_TOKENS,
        }
        if system:
            # the cache boundary: the agent's instructions come first and stay the same from call to call, so every
            # call after an agent's first reads them from Anthropic's prompt cache (tools and system are the prefix)
            params["system"] = [{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}]
        tools = [{"name": t.name, "description": t.description, "input_schema": t.parameters} for t in request.tools]
        if request.output_schema is not None:
            name = output_tool_name(request)
            tools.append({
                "name": name,
                "description": "Give the final answer by calling this tool with an object matching its schema.",
                "input_schema": model_schema(request.output_schema),
            })
            params["tool_choice"] = {"type": "tool", "name": name} if len(tools) == 1 else {"type": "any"}
        if tools:
            params["tools"] = tools
        if settings.temperature is not None and _sdk_accepts("temperature"):
            # recent SDKs dropped sampling parameters (newer models reject them); then it is not sent
            params["temperature"] = settings.temperature
        if settings.reasoning_effort is not None and not tools:
            # extended thinking cannot be combined with a forced tool choice, and its blocks would have to
            # be sent back in tool loops; plain-text calls are where it is safe and useful
            budget = _THINKING_BUDGET[settings.reasoning_effort]
            params["thinking"] = {"type": "enabled", "budget_tokens": budget}
            params["max_tokens"] = max(params["max_tokens"], budget + 1024)
            params.pop("temperature", None)
        return params

    def _send(self, request: ModelRequest, on_text: StreamCallback | None, timeout: float) -> ModelResponse:
        params = {**self.params(request), "timeout": timeout}
        output_tool = output_tool_name(request) if request.output_schema is not None else None
        messages = self.client().messages
        if on_text is None:
            with unanswered(lambda: _sent_estimate(params)):
                reply = messages.create(**params)
            blocks = [
                {"type": block.type, "text": getattr(block, "text", ""), "id": getattr(block, "id", ""),
                 "name": getattr(block, "name", ""), "input": getattr(block, "input", None)}
                for block in reply.content
            ]
            response = self._response(blocks, _usage(reply.usage), reply.model or "", output_tool)
            response.finish_reason = _FINISH.get(reply.stop_reason or "", reply.stop_reason)
            return response
        return self._stream(messages, params, on_text, output_tool)

    def _stream(self, messages: Any, params: dict[str, Any], on_text: StreamCallback,
                output_tool: str | None) -> ModelResponse:
        blocks: dict[int, dict[str, Any]] = {}
        usage = Usage()
        model = ""
        stop: str | None = None
        with unanswered(lambda: _sent_estimate(params)):
            stream = messages.create(**params, stream=True)
        try:
            with cut_at_deadline(stream.response):
                for event in stream:
                    self.check_deadline()
                    kind = event.type
                    if kind == "message_start":
                        model = event.message.model or ""
                        usage = _usage(event.message.usage)
                    elif kind == "content_block_start":
                        block = event.content_block
                        blocks[event.index] = {"type": block.type, "text": getattr(block, "text", "") or "",
                                               "id": getattr(block, "id", ""), "name": getattr(block, "name", ""),
                                               "json": ""}
                    elif kind == "content_block_delta":
                        delta = event.delta
                        slot = blocks.setdefault(event.index, {"type": "text", "text": "", "json": ""})
                        if delta.type == "text_delta":
                            slot["text"] += delta.text
                            on_text(delta.text)
                        elif delta.type == "input_json_delta":
                            slot["json"] += delta.partial_json
                            if output_tool is not None and slot.get("name") == output_tool:
                                on_text(delta.partial_json)  # the structured reply streams as OpenAI's does
                    elif kind == "message_delta":
                        stop = getattr(event.delta, "stop_reason", None) or stop
                        if event.usage is not None:
                            usage = Usage(input_tokens=usage.input_tokens, cached_tokens=usage.cached_tokens,
                                          output_tokens=_usage(event.usage, output_only=True).output_tokens)
        except BaseException as exc:  # cut off: the input count came first; the output is estimated from its text
            written = "".join(b.get("text", "") + b.get("json", "") for b in blocks.values())
            counted = usage if usage.output_tokens else Usage(
                input_tokens=usage.input_tokens or _sent_estimate(params).input_tokens,
                cached_tokens=usage.cached_tokens, output_tokens=estimate_tokens(written), source="estimate")
            structured = [b["json"] for b in blocks.values() if output_tool is not None and b.get("name") == output_tool]
            keep_partial(exc, ModelResponse(text="".join(structured) if structured else
                                            "".join(b.get("text", "") for b in blocks.values()), usage=counted,
                                            model=model))
            raise
        finally:
            stream.close()
        if stop is None:
            raise IncompleteStream("the stream closed without a stop_reason")
        ordered = []
        for index in sorted(blocks):
            block = blocks[index]
            if block["type"] == "tool_use":
                block["input"] = block["json"] or "{}"
            ordered.append(block)
        response = self._response(ordered, usage, model, output_tool)
        response.finish_reason = _FINISH.get(stop, stop)
        return response

    def _response(self, blocks: list[dict[str, Any]], usage: Usage, model: str,
                  output_tool: str | None) -> ModelResponse:
        texts: list[str] = []
        calls: list[ToolCall] = []
        structured: str | None = None
        for block in blocks:
            if block["type"] == "text":
                texts.append(block["text"])
            elif block["type"] == "tool_use":
                raw_input = block["input"]
                text_input = raw_input if isinstance(raw_input, str) else json.dumps(raw_input)
                if output_tool is not None and block["name"] == output_tool:
                    structured = text_input
                    continue
                arguments, raw = parse_arguments(text_input)
                calls.append(ToolCall(id=block["id"], name=block["name"], arguments=arguments, raw_arguments=raw))
        # with a schema the reply text is the object (any prose around the forced call is dropped)
        text = structured if structured is not None else "".join(texts)
        return ModelResponse(text=text, tool_calls=calls, usage=usage, model=model)


# -- the provider row (the table in :mod:`cmbagent.models._providers`)
def _anthropic(call: ProviderCall) -> AnthropicModel:
    return AnthropicModel(call.connection(api_key=call.key(), base_url=call.base_url()))


register_provider(Provider(
    name="anthropic", description="Anthropic messages", factory=_anthropic,
    forms=("anthropic:<model>",), example="anthropic:claude-sonnet-4-5",
    key_variable="ANTHROPIC_API_KEY", base_url_variable="ANTHROPIC_BASE_URL",
    default_base_url="https://api.anthropic.com",
    default_model="claude-sonnet-4-5", ping_model="claude-haiku-4-5", pricing="anthropic",
))
