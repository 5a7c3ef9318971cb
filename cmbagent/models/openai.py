"""The chat-completions wire adapter; the ``openai`` SDK is imported only in here.

One adapter serves every provider that speaks OpenAI's chat-completions API: ``openai`` itself,
``openai-compatible`` servers (Ollama, vLLM, llama.cpp, LM Studio) and ``local`` (llama.cpp in this
process).  The provider table says how: which token-limit parameter the server takes, and whether
structured output may fall back.  Tools are ``function`` tools; text streams as SSE deltas when an
``on_text`` callback is given.

Structured output, in the order tried (``fallback=True``; OpenAI itself only uses the first):

1. ``json_schema`` response format (strict when the schema allows it); for llama.cpp (``local``) the schema as an
   llguidance grammar instead, which also lays the JSON out on one line (``json_layout``);
2. ``json_object`` **with** the schema in the response format (llama.cpp compiles it into a grammar, so
   enums and patterns hold) and the schema at the end of the last user message (the agent's instructions stay the
   prompt's stable beginning, for the server's prompt cache);
3. ``json_object`` (JSON mode) with the schema at the end of the last user message;
4. the schema as a plain instruction.

A mode that the server answers with a non-2xx status (after the retries; credentials and rate limits
excepted) or with a body that is not the wire format moves on to the next one; the mode that worked is
remembered per endpoint for later calls.  ``[models] structured_output = "<mode>"`` forces one mode.
Every reply is validated (and repaired by the client) whatever the mode.

A stream must end with a ``finish_reason``; one that does not was cut off and is retried.  A stream that
carries no usage is counted from llama.cpp's ``timings``, else by the server's tokenizer endpoint, else
estimated (``Usage.source`` says which).
"""

from __future__ import annotations

import json
import logging
import threading
from typing import Any, Literal, cast

from cmbagent.exceptions import ConfigError, ModelHTTPError
from cmbagent.models._http import (
    RETRY_NOTICE,
    Connection,
    HTTPModel,
    IncompleteStream,
    cut_at_deadline,
    ensure_network_allowed,
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
    TextPart,
    Timings,
    ToolCall,
    Usage,
    keep_partial,
)
from cmbagent.models._providers import Provider, ProviderCall, register_provider
from cmbagent.models._structured import (
    finish,
    grammar_bounds,
    model_schema,
    schema_instruction,
    strict_json_schema,
)
from cmbagent.models._tokens import count_usage

__all__ = ["JSON_LAYOUTS", "STRUCTURED_MODES", "ChatCompletionsModel", "StructuredMode", "llguidance_grammar",
           "to_openai_messages"]

StructuredMode = Literal["json_schema", "json_object_schema", "json_object", "prompt"]
STRUCTURED_MODES: tuple[StructuredMode, ...] = ("json_schema", "json_object_schema", "json_object", "prompt")
#: statuses that say nothing about the response format: never a reason to try another mode
_NOT_ABOUT_FORMAT = {401, 403, 429}
_WORKING_MODE: dict[str, StructuredMode] = {}
log = logging.getLogger(__name__)
_MODE_LOCK = threading.Lock()


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


#: how a llama.cpp reply's JSON is laid out (llguidance's ``x-guidance`` options): ``line`` on one line with a
#: space after commas and colons (25% fewer tokens than the free layout for SmolLM2's replies, measured: 1,145 of
#: 1,379 for a plan; the model keeps to JSON as it is usually written), ``compact`` with no space at all (985 of
#: 1,379; the model strays further from what it read), ``free`` newlines and indentation as the model likes
JSON_LAYOUTS: dict[str, dict[str, Any]] = {
    "line": {"whitespace_flexible": False, "item_separator": ", ", "key_separator": ": "},
    "compact": {"whitespace_flexible": False, "item_separator": ",", "key_separator": ":"},
    "free": {"whitespace_flexible": True},
}


_NOT_LLGUIDANCE = frozenset({"propertyNames", "maxProperties", "uniqueItems"})


def llguidance_grammar(schema: dict[str, Any], layout: str) -> str:
    """``schema`` as a llama.cpp llguidance grammar whose JSON has the ``layout`` of :data:`JSON_LAYOUTS`.

    ``propertyNames``, ``maxProperties`` and ``uniqueItems`` are left out: llguidance does not take them, and
    llama.cpp then generates without any grammar, saying nothing (measured: SmolLM2 answered a method call's schema
    in prose).  The first two only restate what an object's ``properties`` and ``additionalProperties: false``
    already close; a repeated item is code's to drop."""
    def without(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: without(v) for k, v in node.items() if k not in _NOT_LLGUIDANCE}
        if isinstance(node, list):
            return [without(v) for v in node]
        return node

    return "%llguidance {}\nstart: %json " + json.dumps({**without(schema), "x-guidance": JSON_LAYOUTS[layout]},
                                                        separators=(",", ":"))


def _with_last_words(messages: list[Message], text: str) -> list[Message]:
    """``messages`` with ``text`` at the end of the last user message (or as a user message after the others)."""
    last = messages[-1] if messages else None
    if last is None or last.role != "user":
        return [*messages, Message(role="user", content=text)]
    content: str | list[TextPart | ImagePart] = (f"{last.content}\n\n{text}" if isinstance(last.content, str)
                                                 else [*last.content, TextPart(text=text)])
    return [*messages[:-1], last.model_copy(update={"content": content})]


def _usage(usage: Any) -> Usage:
    if usage is None:
        return Usage()
    details = getattr(usage, "prompt_tokens_details", None)
    return Usage(
        input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        cached_tokens=int(getattr(details, "cached_tokens", 0) or 0) if details is not None else 0,
    )


def _timings(chunk: Any) -> Timings | None:
    """llama.cpp's ``timings`` of a reply or a stream's chunk (prompt_n read and cache_n cached prompt tokens,
    prompt_ms of prefill, predicted_n generated tokens in predicted_ms)."""
    timings = getattr(chunk, "timings", None) or (getattr(chunk, "model_extra", None) or {}).get("timings")
    if not isinstance(timings, dict) or "predicted_n" not in timings:
        return None
    return Timings(prompt_tokens=int(timings.get("prompt_n", 0) or 0), cached_tokens=int(timings.get("cache_n", 0) or 0),
                   prefill_s=float(timings.get("prompt_ms", 0) or 0) / 1000,
                   generated_tokens=int(timings.get("predicted_n", 0) or 0),
                   generation_s=float(timings.get("predicted_ms", 0) or 0) / 1000)


def _timings_usage(timings: Timings | None) -> Usage | None:
    """Usage from llama.cpp's ``timings`` (a stream that carried no usage)."""
    if timings is None:
        return None
    return Usage(input_tokens=timings.prompt_tokens + timings.cached_tokens, output_tokens=timings.generated_tokens,
                 cached_tokens=timings.cached_tokens)


def _with_cache(usage: Usage, timings: Timings | None) -> Usage:
    """``usage`` with the prompt tokens the server says came from its cache (llama.cpp reports them in timings)."""
    if timings is None or timings.cached_tokens <= usage.cached_tokens:
        return usage
    return usage.model_copy(update={"cached_tokens": timings.cached_tokens})


def _check_mode(mode: str | None) -> StructuredMode | None:
    if mode in (None, "", "auto"):
        return None
    if mode not in STRUCTURED_MODES:
        raise ConfigError(f"structured_output {mode!r} is not one of auto, {', '.join(STRUCTURED_MODES)}; fix "
                          "[models] structured_output in cmbagent.toml or CMBAGENT_STRUCTURED_OUTPUT")
    return cast(StructuredMode, mode)


class ChatCompletionsModel(HTTPModel):
    """Chat completions at ``connection.base_url``.

    Args:
        connection: Key, endpoint, retries and timeout, from the provider.
        max_tokens_param: ``max_completion_tokens`` (OpenAI) or ``max_tokens`` (most other servers).
        fallback: Whether structured output may fall back through :data:`STRUCTURED_MODES`.
        structured_output: A mode that is always used (``None`` or "auto": json_schema, then fallbacks).
        extra_body: Parameters of the server beyond the OpenAI API, sent with every call (llama.cpp's sampler).
        json_layout: For llama.cpp: the ``json_schema`` mode sends the schema as an llguidance grammar that also
            fixes the reply's layout (:data:`JSON_LAYOUTS`); None sends the ``json_schema`` response format.
    """

    wire = "chat completions"

    def __init__(self, connection: Connection, *, max_tokens_param: str = "max_completion_tokens",
                 fallback: bool = False, structured_output: str | None = None,
                 extra_body: dict[str, Any] | None = None, json_layout: str | None = None):
        super().__init__(connection)
        self.max_tokens_param = max_tokens_param
        self.fallback = fallback
        self.forced_mode = _check_mode(structured_output)
        #: server parameters beyond the OpenAI API sent with every call (llama.cpp's sampler settings)
        self.extra_body = dict(extra_body or {})
        if json_layout is not None and json_layout not in JSON_LAYOUTS:
            raise ConfigError(f"JSON layout {json_layout!r} is not one of {', '.join(JSON_LAYOUTS)}")
        self.json_layout = json_layout

    @property
    def structured_mode(self) -> StructuredMode:
        """The mode the next structured request starts with at this endpoint."""
        if self.forced_mode is not None:
            return self.forced_mode
        with _MODE_LOCK:
            return _WORKING_MODE.get(self.base_url, "json_schema") if self.fallback else "json_schema"

    def _sdk(self) -> Any:
        import openai

        return openai

    def _make_client(self) -> Any:
        import openai

        return openai.OpenAI(api_key=self._api_key, base_url=self.base_url, max_retries=0, timeout=self.timeout)

    # -- parameters -------------------------------------------------------------------------------

    def params(self, request: ModelRequest, mode: StructuredMode = "json_schema") -> dict[str, Any]:
        """The chat-completions parameters for ``request`` with structured output in ``mode``."""
        messages = request.messages
        schema = request.output_schema
        response_format: dict[str, Any] | None = None
        grammar: str | None = None
        if schema is not None:
            raw = model_schema(schema)
            if self.fallback:  # a compatible server (llama.cpp, vLLM, Ollama) may compile it into a grammar
                raw = grammar_bounds(raw)
            strict = strict_json_schema(raw, drop_lengths=not self.fallback)
            if mode == "json_schema" and self.json_layout is not None:
                grammar = llguidance_grammar(strict or raw, self.json_layout)
            elif mode == "json_schema":
                response_format = {"type": "json_schema", "json_schema": {
                    "name": schema.__name__[:64], "schema": strict or raw, "strict": strict is not None}}
            else:
                # at the end, not before the agent's instructions: they stay the prompt's stable beginning (a server's
                # prompt cache reuses it) and the schema, which differs from call to call, comes last; in the last
                # user message, as chat templates refuse a system message after the first
                messages = _with_last_words(messages, schema_instruction(schema))
                if mode == "json_object_schema":
                    response_format = {"type": "json_object", "schema": strict or raw}
                elif mode == "json_object":
                    response_format = {"type": "json_object"}
        params: dict[str, Any] = {"model": self.model, "messages": to_openai_messages(messages)}
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
        if response_format is not None:
            params["response_format"] = response_format
        if self.extra_body or grammar is not None:
            params["extra_body"] = {**self.extra_body, **({"grammar": grammar} if grammar is not None else {})}
        return params

    # -- calls ------------------------------------------------------------------------------------

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        if request.output_schema is None:
            return super().request(request, on_text=on_text)
        first = self.structured_mode
        modes = [first] if self.forced_mode is not None or not self.fallback else \
            list(STRUCTURED_MODES[STRUCTURED_MODES.index(first):])
        for index, mode in enumerate(modes):
            try:
                response = self._request_in(mode, request, on_text)
            except ModelHTTPError as exc:
                if index == len(modes) - 1 or exc.status_code in _NOT_ABOUT_FORMAT:
                    raise
                continue
            if self.fallback and self.forced_mode is None:
                with _MODE_LOCK:
                    _WORKING_MODE[self.base_url] = mode
            return response
        raise AssertionError("unreachable")  # pragma: no cover

    def _request_in(self, mode: StructuredMode, request: ModelRequest,
                    on_text: StreamCallback | None) -> ModelResponse:
        import time

        ensure_network_allowed(self.base_url)
        started = time.monotonic()
        params = self.params(request, mode)
        response = self.with_retries(lambda timeout, relay: self.call(params, relay, timeout), request, on_text)
        if "grammar" in params.get("extra_body", {}) and not response.text.lstrip().startswith(("{", "[")):
            # llama.cpp generates without a grammar it cannot compile and says nothing: the same call once more
            # with the json_schema response format, and that format for the rest of the process
            log.warning("%s: the server did not apply the llguidance grammar of %s; using the json_schema response "
                        "format instead", self._where(), request.output_schema.__name__ if request.output_schema
                        else "the reply")
            self.json_layout = None
            params = self.params(request, mode)
            if on_text is not None:
                on_text(RETRY_NOTICE)  # the live view (and the repetition guard) start over
            response = self.with_retries(lambda timeout, relay: self.call(params, relay, timeout), request, on_text)
        response.latency_s = time.monotonic() - started
        response.model = response.model or self.model
        return finish(request, response)

    def _send(self, request: ModelRequest, on_text: StreamCallback | None, timeout: float) -> ModelResponse:
        return self.call(self.params(request), on_text, timeout)

    def call(self, params: dict[str, Any], on_text: StreamCallback | None, timeout: float) -> ModelResponse:
        """Send prepared parameters once; stream when ``on_text`` is given."""
        completions = self.client().chat.completions
        if on_text is None:
            with unanswered(lambda: self._counted(params, "")):
                reply = completions.create(**params, timeout=timeout)
            choice = reply.choices[0]
            message = choice.message
            calls = []
            for call in message.tool_calls or []:
                arguments, raw = parse_arguments(call.function.arguments)
                calls.append(ToolCall(id=call.id, name=call.function.name, arguments=arguments, raw_arguments=raw))
            text = message.content or getattr(message, "refusal", None) or ""
            timings = _timings(reply)
            usage = _usage(reply.usage) if reply.usage is not None else (
                _timings_usage(timings) or self._counted(params, text))
            return ModelResponse(text=text, tool_calls=calls, usage=_with_cache(usage, timings),
                                 model=reply.model or "", finish_reason=choice.finish_reason, timings=timings)
        return self._stream(completions, params, on_text, timeout)

    def _stream(self, completions: Any, params: dict[str, Any], on_text: StreamCallback,
                timeout: float) -> ModelResponse:
        text: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        usage: Usage | None = None
        timings: Timings | None = None
        model = ""
        finish_reason: str | None = None
        with unanswered(lambda: self._counted(params, "")):
            stream = completions.create(**params, stream=True, stream_options={"include_usage": True},
                                        timeout=timeout)
        try:
            with cut_at_deadline(stream.response):
                for chunk in stream:
                    self.check_deadline()
                    model = chunk.model or model
                    timings = _timings(chunk) or timings
                    if chunk.usage is not None:
                        usage = _usage(chunk.usage)
                    for choice in chunk.choices or []:
                        finish_reason = choice.finish_reason or finish_reason
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
        except BaseException as exc:  # cut off (deadline, dropped connection): what came is on record, counted
            partial = "".join(text) + "".join(slot["arguments"] for slot in calls.values())
            keep_partial(exc, ModelResponse(text="".join(text), usage=usage or self._counted(params, partial),
                                            model=model, finish_reason=None, timings=timings))
            raise
        finally:
            stream.close()
        if finish_reason is None:
            raise IncompleteStream("the stream closed without a finish_reason")
        tool_calls = []
        for index in sorted(calls):
            slot = calls[index]
            arguments, raw = parse_arguments(slot["arguments"])
            tool_calls.append(ToolCall(id=slot["id"] or f"call_{index}", name=slot["name"], arguments=arguments,
                                       raw_arguments=raw))
        joined = "".join(text)
        if usage is None:
            usage = _timings_usage(timings) or self._counted(params, joined + "".join(
                s["arguments"] for s in calls.values()))
        return ModelResponse(text=joined, tool_calls=tool_calls, usage=_with_cache(usage, timings), model=model,
                             finish_reason=finish_reason, timings=timings)

    def _counted(self, params: dict[str, Any], output: str) -> Usage:
        """Usage of a reply that reported none: the server's tokenizer where offered, else an estimate."""
        prompt = json.dumps(params["messages"], ensure_ascii=False)
        return count_usage(self.base_url, self._api_key, prompt, output)


# -- the provider row (the table in :mod:`cmbagent.models._providers`; ``openai-compatible`` builds this adapter
# too, from :mod:`cmbagent.models.compatible`)
def _openai(call: ProviderCall) -> ChatCompletionsModel:
    return ChatCompletionsModel(call.connection(api_key=call.key(), base_url=call.base_url()),
                                max_tokens_param="max_completion_tokens", fallback=False,
                                structured_output=call.options.get("structured_output"))


register_provider(Provider(
    name="openai", description="OpenAI chat completions", factory=_openai,
    forms=("openai:<model>",), example="openai:gpt-4.1",
    key_variable="OPENAI_API_KEY", base_url_variable="OPENAI_BASE_URL",
    default_base_url="https://api.openai.com/v1",
    default_model="gpt-4.1", ping_model="gpt-4.1-nano", pricing="openai",
))
