"""A scripted model for tests: a queue of replies, or a function of the request.

It is a real :class:`Model` (the protocol's in-memory reference implementation, docs/architecture.md, Rules
7): it streams its text to ``on_text``, validates structured output the way the HTTP adapters do, and keeps
every request it was sent in ``requests`` for assertions.  A reply may be:

* ``str`` -- the reply text (for a structured request: the raw JSON, validated and repaired like any reply);
* a pydantic object -- the structured output (its JSON is the text);
* a ``dict`` -- JSON for a structured request (validated);
* a :class:`ToolCall` or a list of them -- tool calls;
* a :class:`ModelResponse` -- returned as given (its usage too);
* an exception instance -- raised (to test error paths).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from cmbagent.exceptions import ModelError
from cmbagent.models._protocol import Model, ModelRequest, ModelResponse, StreamCallback, ToolCall, Usage
from cmbagent.models._structured import finish

__all__ = ["ScriptExhausted", "ScriptedModel", "as_response"]

Reply = str | BaseModel | dict[str, Any] | ToolCall | list[ToolCall] | ModelResponse | BaseException


class ScriptExhausted(ModelError):
    """The script has no reply left for a request (a test expected fewer calls)."""


def as_response(reply: Any, *, usage: Usage | None = None, model: str = "scripted") -> ModelResponse:
    """Turn one scripted reply into a :class:`ModelResponse`."""
    usage = usage or Usage()
    if isinstance(reply, ModelResponse):
        return reply.model_copy(deep=True)
    if isinstance(reply, str):
        return ModelResponse(text=reply, usage=usage, model=model)
    if isinstance(reply, BaseModel) and not isinstance(reply, ToolCall):
        return ModelResponse(text=reply.model_dump_json(), output=reply, usage=usage, model=model)
    if isinstance(reply, dict):
        return ModelResponse(text=json.dumps(reply), usage=usage, model=model)
    if isinstance(reply, ToolCall):
        return ModelResponse(tool_calls=[reply], usage=usage, model=model)
    if isinstance(reply, list) and all(isinstance(item, ToolCall) for item in reply):
        return ModelResponse(tool_calls=list(reply), usage=usage, model=model)
    raise TypeError(f"a scripted reply cannot be a {type(reply).__name__}; see cmbagent.models.scripted")


class ScriptedModel(Model):
    """Replies from a queue (``replies``) or from ``fn(request)``; records the requests it receives.

    Args:
        replies: Replies served in order (see the module docstring for the kinds).
        fn: Called with each request instead of the queue; returns a reply of the same kinds.
        usage: Usage reported for replies that are not a :class:`ModelResponse` (for budget tests).
        name: The model id reported in responses.
        parallel: How many calls it takes at once (default 1: the graph's calls come in its order; more lets a test
            exercise calls made side by side, answered by ``fn``).
    """

    spec = "scripted"

    def __init__(
        self,
        replies: Iterable[Reply] | None = None,
        *,
        fn: Callable[[ModelRequest], Any] | None = None,
        usage: Usage | None = None,
        name: str = "scripted",
        parallel: int = 1,
    ):
        self.parallel = parallel
        self.replies: deque[Any] = deque(replies or [])
        self.fn = fn
        self.usage = usage or Usage()
        self.name = name
        self.requests: list[ModelRequest] = []
        self._lock = threading.Lock()

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        if self.fn is not None and self.parallel > 1:  # calls side by side: ``fn`` answers each in its own thread
            with self._lock:
                self.requests.append(request)
            reply = self.fn(request)
        else:
            reply = self._next(request)
        if isinstance(reply, BaseException):
            raise reply
        response = as_response(reply, usage=self.usage, model=self.name)
        if on_text is not None and response.text:
            for piece in _pieces(response.text):
                on_text(piece)
        return finish(request, response)

    def _next(self, request: ModelRequest) -> Any:
        with self._lock:
            self.requests.append(request)
            if self.fn is not None:
                return self.fn(request)
            if self.replies:
                return self.replies.popleft()
            raise ScriptExhausted(
                f"scripted model {self.name!r} has no reply left for request {len(self.requests)} "
                f"(agent {request.agent!r}); add replies to the script"
            )


def _pieces(text: str, size: int = 16) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
