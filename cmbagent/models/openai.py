"""OpenAI chat-completions adapter (``openai:<model>``); the ``openai`` SDK is imported only in here.

Structured output uses the ``json_schema`` response format (strict when the schema allows it); tools are
``function`` tools; text streams as SSE deltas when an ``on_text`` callback is given.
"""

from __future__ import annotations

import json
from typing import Any

from cmbagent.models._http import HTTPModel, image_base64, parse_arguments
from cmbagent.models._protocol import (
    ImagePart,
    Message,
    ModelRequest,
    ModelResponse,
    StreamCallback,
    ToolCall,
    Usage,
)
from cmbagent.models._structured import strict_json_schema

__all__ = ["OpenAIModel"]


def _content(message: Message) -> Any:
    if isinstance(message.content, str):
        return message.content
    parts: list[dict[str, Any]] = []
    for part in message.content:
        if isinstance(part, ImagePart):
            media_type, data = image_base64(part)
            parts.append({"type": "image_url", "image_url": {"url": f"data:{media_type};base64,{data}"}})
        else:
            parts.append({"type": "text", "text": part.text})
    return parts


def to_openai_messages(messages: list[Message]) -> list[dict[str, Any]]:
    """Our messages in the chat-completions wire format."""
    out: list[dict[str, Any]] = []
    for message in messages:
        if message.role == "tool":
            out.append({"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.text()})
            continue
        item: dict[str, Any] = {"role": message.role, "content": _content(message)}
        if message.role == "assistant" and message.tool_calls:
            item["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.raw_arguments or json.dumps(call.arguments)},
                }
                for call in message.tool_calls
            ]
            if not item["content"]:
                item["content"] = None
        out.append(item)
    return out


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        cached_tokens=int(getattr(details, "cached_tokens", 0) or 0) if details is not None else 0,
    )


class OpenAIModel(HTTPModel):
    """Chat completions against api.openai.com (or ``OPENAI_BASE_URL``)."""

    provider = "openai"
    key_variable = "OPENAI_API_KEY"
    #: the token-limit parameter; the official API wants max_completion_tokens, most local servers max_tokens
    max_tokens_param = "max_completion_tokens"

    def _sdk(self) -> Any:
        import openai

        return openai

    def _make_client(self) -> Any:
        import openai

        return openai.OpenAI(
            api_key=self._api_key, base_url=self.base_url, max_retries=self.max_retries, timeout=self.timeout
        )

    def response_format(self, request: ModelRequest) -> dict[str, Any] | None:
        schema = request.output_schema
        if schema is None:
            return None
        raw = schema.model_json_schema()
        strict = strict_json_schema(raw)
        return {
            "type": "json_schema",
            "json_schema": {"name": schema.__name__[:64], "schema": strict or raw, "strict": strict is not None},
        }

    def params(self, request: ModelRequest) -> dict[str, Any]:
        params: dict[str, Any] = {"model": self.model, "messages": to_openai_messages(request.messages)}
        if request.tools:
            params["tools"] = [
                {"type": "function",
                 "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
                for t in request.tools
            ]
        settings = request.settings
        if settings.temperature is not None:
            params["temperature"] = settings.temperature
        if settings.max_tokens is not None:
            params[self.max_tokens_param] = settings.max_tokens
        if settings.reasoning_effort is not None:
            params["reasoning_effort"] = settings.reasoning_effort
        if settings.timeout is not None:
            params["timeout"] = settings.timeout
        response_format = self.response_format(request)
        if response_format is not None:
            params["response_format"] = response_format
        return params

    def _send(self, request: ModelRequest, on_text: StreamCallback | None) -> ModelResponse:
        return self.call(self.params(request), on_text)

    def call(self, params: dict[str, Any], on_text: StreamCallback | None) -> ModelResponse:
        """Send prepared parameters; stream when ``on_text`` is given."""
        completions = self.client().chat.completions
        if on_text is None:
            reply = completions.create(**params)
            choice = reply.choices[0]
            message = choice.message
            calls = []
            for call in message.tool_calls or []:
                arguments, raw = parse_arguments(call.function.arguments)
                calls.append(ToolCall(id=call.id, name=call.function.name, arguments=arguments, raw_arguments=raw))
            text = message.content or getattr(message, "refusal", None) or ""
            return ModelResponse(text=text, tool_calls=calls, usage=_usage(reply.usage), model=reply.model or "")
        return self._stream(completions, params, on_text)

    def _stream(self, completions: Any, params: dict[str, Any], on_text: StreamCallback) -> ModelResponse:
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage = Usage()
        model = ""
        stream = completions.create(**params, stream=True, stream_options={"include_usage": True})
        for chunk in stream:
            model = chunk.model or model
            if chunk.usage is not None:
                usage = _usage(chunk.usage)
            for choice in chunk.choices or []:
                delta = choice.delta
                if delta is None:
                    continue
                if delta.content:
                    text.append(delta.content)
                    on_text(delta.content)
                for call in delta.tool_calls or []:
                    slot = calls.setdefault(call.index, {"id": "", "name": "", "arguments": ""})
                    if call.id:
                        slot["id"] = call.id
                    if call.function is not None:
                        slot["name"] += call.function.name or ""
                        slot["arguments"] += call.function.arguments or ""
        tool_calls = []
        for index in sorted(calls):
            slot = calls[index]
            arguments, raw = parse_arguments(slot["arguments"])
            tool_calls.append(ToolCall(id=slot["id"] or f"call_{index}", name=slot["name"], arguments=arguments,
                                       raw_arguments=raw))
        return ModelResponse(text="".join(text), tool_calls=tool_calls, usage=usage, model=model)
