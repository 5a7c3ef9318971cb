"""An AutoGen ``ChatCompletionClient`` over cmbagent's models layer.

AutoGen agents (``AssistantAgent`` in a ``RoundRobinGroupChat``) call ``create(messages, ...)``; this client
turns that into one :meth:`cmbagent.models.ModelClient.request` for a named agent.  So everything ``solve``
guarantees holds for an AutoGen team too: routing per agent and tier, budgets checked before each call,
structured output validated and repaired, every call in ``transcript.jsonl``, ``replay:`` with no network,
and the ``offline`` backend (which answers from the typed context ``context_of`` builds from the messages).

AutoGen re-raises an agent's exception as a ``RuntimeError`` carrying only its text; the original (a
``BudgetExceeded``, say) is kept in :attr:`AutoGenModelClient.errors` so the caller can act on its type.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from typing import Any, Literal

from autogen_core import FunctionCall
from autogen_core.models import ChatCompletionClient, CreateResult, ModelInfo, RequestUsage
from pydantic import BaseModel

from cmbagent.models import ImagePart, Message, ModelRequest, ModelResponse, TextPart, ToolCall, ToolSpec

__all__ = ["AutoGenModelClient"]

ContextOf = Callable[[Sequence[Message]], BaseModel | None]
_FINISH = {"stop": "stop", "length": "length", "tool_calls": "function_calls", "content_filter": "content_filter"}


class AutoGenModelClient(ChatCompletionClient):
    """``ChatCompletionClient`` for one agent, sending its calls through a :class:`cmbagent.models.ModelClient`.

    Args:
        client: the run's model client (one per run: its ledger, budget and transcript are the run's).
        agent: the roster agent these calls are for (routing, transcript, per-agent cost).
        tier: the agent's model tier.
        context_of: builds the typed context of a call from its messages (for rule-based models).
        vision: whether the routed model takes images.
        context_window: tokens the routed model reads (AutoGen asks; cmbagent counts by provider usage).
    """

    def __init__(
        self,
        client: Any,
        *,
        agent: str,
        tier: str = "strong",
        context_of: ContextOf | None = None,
        vision: bool = False,
        context_window: int = 128_000,
    ) -> None:
        self.client = client
        self.agent = agent
        self.tier = tier
        self.context_of = context_of
        self.vision = vision
        self.context_window = context_window
        self.errors: list[BaseException] = []
        self._usage = (0, 0)
        self._last = (0, 0)

    # -- the calls -----------------------------------------------------------------------------------
    async def create(
        self,
        messages: Sequence[Any],
        *,
        tools: Sequence[Any] = (),
        tool_choice: Any = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: Any = None,
    ) -> CreateResult:
        """One model call (in a worker thread: the models layer is synchronous)."""
        request = self._request(messages, tools, json_output)
        try:
            response = await asyncio.to_thread(self.client.request, agent=self.agent, tier=self.tier,
                                               request=request)
        except BaseException as exc:
            self.errors.append(exc)
            raise
        return self._result(response)

    async def create_stream(
        self,
        messages: Sequence[Any],
        *,
        tools: Sequence[Any] = (),
        tool_choice: Any = "auto",
        json_output: bool | type[BaseModel] | None = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: Any = None,
    ) -> AsyncGenerator[str | CreateResult, None]:
        """Text deltas as the model streams them, then the ``CreateResult``."""
        request = self._request(messages, tools, json_output)
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[str | None] = asyncio.Queue()

        def on_text(text: str) -> None:
            loop.call_soon_threadsafe(queue.put_nowait, text)

        def call() -> ModelResponse:
            try:
                response: ModelResponse = self.client.request(agent=self.agent, tier=self.tier, request=request,
                                                              on_text=on_text)
                return response
            finally:
                loop.call_soon_threadsafe(queue.put_nowait, None)

        task = asyncio.ensure_future(asyncio.to_thread(call))
        while (delta := await queue.get()) is not None:
            yield delta
        try:
            response = await task
        except BaseException as exc:
            self.errors.append(exc)
            raise
        yield self._result(response)

    # -- translation ---------------------------------------------------------------------------------
    def _request(self, messages: Sequence[Any], tools: Sequence[Any], json_output: Any) -> ModelRequest:
        ours = [m for message in messages for m in _message(message)]
        schema = json_output if isinstance(json_output, type) and issubclass(json_output, BaseModel) else None
        return ModelRequest(messages=ours, tools=[_tool(t) for t in tools], output_schema=schema, agent=self.agent,
                            context=self.context_of(ours) if self.context_of is not None else None)

    def _result(self, response: ModelResponse) -> CreateResult:
        usage = response.usage
        self._last = (usage.input_tokens, usage.output_tokens)
        self._usage = (self._usage[0] + usage.input_tokens, self._usage[1] + usage.output_tokens)
        content: Any
        if response.tool_calls:
            content = [FunctionCall(id=c.id, name=c.name, arguments=json.dumps(c.arguments)) for c in response.tool_calls]
            finish: Literal["stop", "length", "function_calls", "content_filter", "unknown"] = "function_calls"
        else:
            output = response.output
            content = output.model_dump_json() if isinstance(output, BaseModel) else response.text
            finish = _FINISH.get(response.finish_reason or "stop", "unknown")  # type: ignore[assignment]
        return CreateResult(finish_reason=finish, content=content, cached=False,
                            usage=RequestUsage(prompt_tokens=usage.input_tokens, completion_tokens=usage.output_tokens))

    # -- what AutoGen asks about the model ------------------------------------------------------------
    async def close(self) -> None:
        """The run owns the model client; it closes it."""

    def actual_usage(self) -> RequestUsage:
        return RequestUsage(prompt_tokens=self._last[0], completion_tokens=self._last[1])

    def total_usage(self) -> RequestUsage:
        return RequestUsage(prompt_tokens=self._usage[0], completion_tokens=self._usage[1])

    def count_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
        """An estimate (~4 characters a token): cmbagent counts by the provider's reported usage, and a
        tokenizer such as tiktoken would download its encodings."""
        text = "".join(m.text() for message in messages for m in _message(message))
        return len(text) // 4 + sum(len(json.dumps(_tool(t).parameters)) // 4 for t in tools)

    def remaining_tokens(self, messages: Sequence[Any], *, tools: Sequence[Any] = ()) -> int:
        return max(0, self.context_window - self.count_tokens(messages, tools=tools))

    @property
    def capabilities(self) -> Any:  # AutoGen's deprecated name of model_info
        return self.model_info

    @property
    def model_info(self) -> ModelInfo:
        # structured output holds for every backend: the models layer validates (and repairs) the reply
        return {"vision": self.vision, "function_calling": True, "json_output": True, "structured_output": True,
                "family": "unknown"}


def _text(content: Any) -> str | list[TextPart | ImagePart]:
    if isinstance(content, str):
        return content
    parts: list[TextPart | ImagePart] = []
    for item in content:
        if isinstance(item, str):
            parts.append(TextPart(text=item))
        elif hasattr(item, "data_uri"):
            parts.append(ImagePart(data_url=item.data_uri))
    return parts


def _message(message: Any) -> list[Message]:
    """One AutoGen ``LLMMessage`` as cmbagent messages (a function-result message becomes one per call)."""
    kind = type(message).__name__
    if kind == "SystemMessage":
        return [Message(role="system", content=message.content)]
    if kind == "UserMessage":
        return [Message(role="user", content=_text(message.content))]
    if kind == "AssistantMessage":
        if isinstance(message.content, str):
            return [Message(role="assistant", content=message.content)]
        calls = [ToolCall(id=c.id, name=c.name, arguments=_arguments(c.arguments)) for c in message.content]
        return [Message(role="assistant", content=message.thought or "", tool_calls=calls)]
    if kind == "FunctionExecutionResultMessage":
        return [Message(role="tool", content=r.content, tool_call_id=r.call_id) for r in message.content]
    raise TypeError(f"cannot translate AutoGen message {kind}")


def _arguments(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _tool(tool: Any) -> ToolSpec:
    schema = tool.schema if hasattr(tool, "schema") else tool
    return ToolSpec(name=schema["name"], description=schema.get("description", ""),
                    parameters=dict(schema.get("parameters") or {"type": "object", "properties": {}}))
