"""What the fake LLM server answers: wire-neutral replies, rendered per API by the server.

A script is a list of these, consumed one per HTTP request (retries included), so ``[Status(429), Status(500),
Text("ok")]`` means "fail twice, then answer".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Drop", "Json", "MalformedBody", "Reply", "Slow", "Status", "Text", "ToolCalls", "bad_tool_args"]


@dataclass
class Text:
    """A text answer. ``input_tokens`` counts all prompt tokens, ``cached_tokens`` of them from a cache."""

    text: str = "pong"
    input_tokens: int = 12
    output_tokens: int = 3
    cached_tokens: int = 0
    model: str | None = None
    #: end the stream cleanly but without a finish/stop reason (a cut-off reply, as some servers send)
    cut_off: bool = False
    #: the finish reason sent ("length": the max_tokens limit was hit)
    finish: str = "stop"


@dataclass
class Json:
    """A structured answer: the JSON text (OpenAI content) or the forced tool's input (Anthropic).

    ``obj`` may be a dict, a pydantic object, or a string (sent verbatim, so it can be malformed).
    """

    obj: Any
    input_tokens: int = 20
    output_tokens: int = 8
    cached_tokens: int = 0
    model: str | None = None
    cut_off: bool = False
    finish: str = "stop"

    def text(self) -> str:
        import json

        if isinstance(self.obj, str):
            return self.obj
        if hasattr(self.obj, "model_dump_json"):
            return str(self.obj.model_dump_json())
        return json.dumps(self.obj)


@dataclass
class ToolCalls:
    """Tool calls: ``(name, arguments)`` pairs; a string argument is sent verbatim (may be invalid JSON)."""

    calls: list[tuple[str, dict[str, Any] | str]] = field(default_factory=list)
    text: str = ""
    input_tokens: int = 15
    output_tokens: int = 6
    cached_tokens: int = 0
    model: str | None = None
    cut_off: bool = False
    finish: str = "tool_calls"


@dataclass
class Status:
    """An error status with the API's error body; ``retry_after`` (seconds) sets the Retry-After header."""

    code: int = 500
    retry_after: float | None = None
    message: str = "injected failure"


@dataclass
class Slow:
    """Wait ``seconds`` before sending ``then`` (to exercise timeouts and slow servers)."""

    seconds: float
    then: Any = field(default_factory=Text)


@dataclass
class Trickle:
    """Stream ``then`` with ``every`` seconds between its events (one slow generation, the others at speed)."""

    then: Any
    every: float = 0.5


@dataclass
class Drop:
    """Close the connection without sending a response, or (``during``) in the middle of a streamed answer."""

    during: Text | Json | ToolCalls | None = None
    after_events: int = 2


@dataclass
class MalformedBody:
    """Answer 200 with a body that is not JSON (or an SSE stream whose data is not JSON)."""

    body: str = '{"choices": [ this is not json'


Reply = Text | Json | ToolCalls | Status | Slow | Trickle | Drop | MalformedBody


def bad_tool_args(name: str, raw: str = '{"x": 1,') -> ToolCalls:
    """A tool call whose arguments are not valid JSON."""
    return ToolCalls([(name, raw)])
