"""A threaded fake LLM server on 127.0.0.1 speaking the OpenAI chat-completions and Anthropic messages APIs.

The real ``openai`` and ``anthropic`` SDKs talk to it.  ``POST /v1/chat/completions`` answers in the
OpenAI format, ``POST /v1/messages`` in the Anthropic one, both with or without streaming (SSE).  Each
request takes the next reply of the script (``replies``, :meth:`push`) or, when the script is empty,
``fn(request)`` or ``default``.  Every request is kept in ``requests`` (path, lower-cased headers, body).
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.fakes._replies import Drop, Json, MalformedBody, Reply, Slow, Status, Text, ToolCalls, Trickle

__all__ = ["FakeLLMServer", "RecordedRequest"]

_IDS = itertools.count(1)


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def wire(self) -> str:
        return "anthropic" if self.path.endswith("/messages") else "openai"

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    fake: FakeLLMServer

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if isinstance(sys.exc_info()[1], ConnectionError):
            return  # the client gave up (timeout test) while we were still answering
        super().handle_error(request, client_address)


class FakeLLMServer:
    """Scriptable fake of both wire formats; use as a context manager.

    Args:
        replies: The script, one reply per HTTP request.
        default: Answer once the script is spent (unless ``fn`` is given).
        fn: ``fn(RecordedRequest) -> Reply`` once the script is spent.
        json_schema_supported: When false, OpenAI requests with a ``json_schema`` response format are
            refused with ``format_error_status`` (400 like an older server, 500 like llama-cpp-python), and
            ``json_object`` requests carrying a ``schema`` too when ``json_object_schema_supported`` is false,
            and every ``json_object`` request when ``json_mode_supported`` is false.
        format_error_status: The status of a refused response format.
        usage: When false, answers carry no usage (like some local servers' streams).
        tokenize: Serve llama.cpp's ``POST /tokenize`` (one token per whitespace-separated word).
        event_delay: Seconds between the events of a streamed answer (a slow generator).
        ping_for: Seconds of SSE keep-alive comments (``: ping``, every 0.1 s) before a streamed answer's
            first event, as llama.cpp sends while it reads a long prompt.
        model: The model id reported in answers (default: the requested one).
        port: Listen on this port (default: any free one); a server stopped and started again on its old
            port is an endpoint that went away and came back.
    """

    def __init__(
        self,
        replies: Iterable[Reply] = (),
        *,
        default: Reply | None = None,
        fn: Callable[[RecordedRequest], Reply] | None = None,
        json_schema_supported: bool = True,
        json_object_schema_supported: bool = True,
        json_mode_supported: bool = True,
        format_error_status: int = 400,
        usage: bool = True,
        tokenize: bool = False,
        event_delay: float = 0.0,
        ping_for: float = 0.0,
        model: str | None = None,
        port: int = 0,
    ):
        self.port = port
        self.script: deque[Reply] = deque(replies)
        self.default: Reply = default if default is not None else Text()
        self.fn = fn
        self.json_schema_supported = json_schema_supported
        self.json_object_schema_supported = json_object_schema_supported
        self.json_mode_supported = json_mode_supported
        self.format_error_status = format_error_status
        self.usage = usage
        self.tokenize = tokenize
        self.event_delay = event_delay
        self.ping_for = ping_for
        self.model = model
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self) -> FakeLLMServer:
        server = _Server(("127.0.0.1", self.port), _Handler)
        server.fake = self
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        if self._server is None:
            raise RuntimeError("the fake server is not started")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def openai_url(self) -> str:
        """Base URL for the OpenAI SDK / ``openai-compatible:<model>@<url>``."""
        return self.url + "/v1"

    @property
    def anthropic_url(self) -> str:
        """Base URL for the Anthropic SDK (it appends ``/v1/messages``)."""
        return self.url

    # -- scripting -----------------------------------------------------------------------------------

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self.script.extend(replies)

    def next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self.script:
                return self.script.popleft()
        if self.fn is not None:
            return self.fn(request)
        return self.default


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        return

    def do_GET(self) -> None:
        if self.path.rstrip("/").endswith("/models"):
            self._json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._json(400, {"error": {"message": "request body is not JSON"}})
            return
        request = RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        if self.path == "/tokenize" and self.server.fake.tokenize:
            with self.server.fake._lock:
                self.server.fake.requests.append(request)
            self._json(200, {"tokens": list(range(len(str(body.get("content", "")).split())))})
            return
        if not self.path.endswith(("/chat/completions", "/messages")):
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        fake = self.server.fake
        rejected = self._unsupported_format(fake, body) if request.wire == "openai" else ""
        if rejected:  # a rejected format does not consume the script
            with fake._lock:
                fake.requests.append(request)
            self._json(fake.format_error_status, {"error": {"message": rejected, "type": "invalid_request_error"}})
            return
        reply = fake.next_reply(request)
        self.trickle = 0.0  # a handler serves every request of its keep-alive connection
        while isinstance(reply, Slow | Trickle):
            if isinstance(reply, Trickle):
                self.trickle = reply.every
            else:
                time.sleep(reply.seconds)
            reply = reply.then
        self._answer(request, reply)

    @staticmethod
    def _unsupported_format(fake: FakeLLMServer, body: dict[str, Any]) -> str:
        response_format = body.get("response_format") or {}
        kind = response_format.get("type")
        if kind == "json_schema" and not fake.json_schema_supported:
            return "response_format json_schema is not supported by this server"
        if kind == "json_object" and "schema" in response_format and not fake.json_object_schema_supported:
            return "response_format json_object with a schema is not supported by this server"
        if kind == "json_object" and not fake.json_mode_supported:
            return "response_format json_object is not supported by this server"
        return ""

    # -- transport helpers ---------------------------------------------------------------------------

    def _send(self, status: int, payload: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(payload)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)
        self.wfile.flush()

    def _json(self, status: int, obj: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(obj).encode(), "application/json", headers)

    drop_after: int | None = None
    trickle: float = 0.0  # seconds between the events of this answer (a Trickle reply)

    def _sse(self, events: list[tuple[str | None, Any]]) -> None:
        """Stream events with chunked encoding, as real servers do (so a cut-off stream is detectable)."""
        if self.drop_after is not None:
            events = events[: self.drop_after]
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("cache-control", "no-cache")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        until = time.monotonic() + self.server.fake.ping_for
        while time.monotonic() < until:
            ping = b": ping\n\n"
            self.wfile.write(f"{len(ping):x}\r\n".encode() + ping + b"\r\n")
            self.wfile.flush()
            time.sleep(0.1)
        for name, data in events:
            delay = self.trickle or self.server.fake.event_delay
            if delay:
                time.sleep(delay)
            text = (f"event: {name}\n" if name else "") + f"data: {data if isinstance(data, str) else json.dumps(data)}\n\n"
            payload = text.encode()
            self.wfile.write(f"{len(payload):x}\r\n".encode() + payload + b"\r\n")
            self.wfile.flush()
        if self.drop_after is not None:
            self._drop()
            return
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _drop(self) -> None:
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # -- answers -----------------------------------------------------------------------------------

    def _answer(self, request: RecordedRequest, reply: Reply) -> None:
        if isinstance(reply, Drop):
            if reply.during is not None and request.stream:
                self.drop_after = reply.after_events
                reply = reply.during
            else:
                self._drop()
                return
        if isinstance(reply, Status):
            headers = {} if reply.retry_after is None else {"retry-after": f"{reply.retry_after:g}"}
            if request.wire == "anthropic":
                kinds = {429: "rate_limit_error", 529: "overloaded_error", 401: "authentication_error"}
                body: dict[str, Any] = {"type": "error", "error": {"type": kinds.get(reply.code, "api_error"),
                                                                 "message": reply.message}}
            else:
                body = {"error": {"message": reply.message, "type": "server_error", "code": reply.code}}
            self._json(reply.code, body, headers)
            return
        if isinstance(reply, MalformedBody):
            if request.stream:
                self._sse([("message_start" if request.wire == "anthropic" else None, reply.body)])
            else:
                self._send(200, reply.body.encode(), "application/json")
            return
        model = getattr(reply, "model", None) or self.server.fake.model or str(request.body.get("model", "fake"))
        if request.wire == "openai":
            _OpenAIWire(self, request, model).answer(reply)
        else:
            _AnthropicWire(self, request, model).answer(reply)


def _pieces(text: str, size: int = 5) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _tool_calls(reply: ToolCalls) -> list[tuple[str, str, str]]:
    """``(id, name, arguments text)`` for each call."""
    out = []
    for name, arguments in reply.calls:
        text = arguments if isinstance(arguments, str) else json.dumps(arguments)
        out.append((f"call_{next(_IDS)}", name, text))
    return out


class _OpenAIWire:
    def __init__(self, handler: _Handler, request: RecordedRequest, model: str):
        self.h, self.request, self.model = handler, request, model
        self.id = f"chatcmpl-{next(_IDS)}"

    def _usage(self, reply: Text | Json | ToolCalls) -> dict[str, Any]:
        return {"prompt_tokens": reply.input_tokens, "completion_tokens": reply.output_tokens,
                "total_tokens": reply.input_tokens + reply.output_tokens,
                "prompt_tokens_details": {"cached_tokens": reply.cached_tokens}}

    def answer(self, reply: Reply) -> None:
        assert isinstance(reply, Text | Json | ToolCalls), reply
        text = reply.text() if isinstance(reply, Json) else reply.text
        calls = _tool_calls(reply) if isinstance(reply, ToolCalls) else []
        finish: str | None = None if reply.cut_off else ("tool_calls" if calls else reply.finish)
        usage = self.h.server.fake.usage and not reply.cut_off
        if not self.request.stream:
            message: dict[str, Any] = {"role": "assistant", "content": text or None}
            if calls:
                message["tool_calls"] = [{"id": i, "type": "function", "function": {"name": n, "arguments": a}}
                                         for i, n, a in calls]
            answer = {"id": self.id, "object": "chat.completion", "created": 0, "model": self.model,
                      "choices": [{"index": 0, "message": message, "finish_reason": finish}]}
            if usage:
                answer["usage"] = self._usage(reply)
            self.h._json(200, answer)
            return
        events: list[tuple[str | None, Any]] = [(None, self._chunk({"role": "assistant", "content": ""}))]
        if text:
            events += [(None, self._chunk({"content": piece})) for piece in _pieces(text)]
        for index, (call_id, name, arguments) in enumerate(calls):
            events.append((None, self._chunk({"tool_calls": [{"index": index, "id": call_id, "type": "function",
                                                               "function": {"name": name, "arguments": ""}}]})))
            events += [(None, self._chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
                       for piece in _pieces(arguments, 7)]
        if finish is not None:
            events.append((None, self._chunk({}, finish)))
        if usage and (self.request.body.get("stream_options") or {}).get("include_usage"):
            events.append((None, {"id": self.id, "object": "chat.completion.chunk", "created": 0,
                                  "model": self.model, "choices": [], "usage": self._usage(reply)}))
        events.append((None, "[DONE]"))
        self.h._sse(events)

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {"id": self.id, "object": "chat.completion.chunk", "created": 0, "model": self.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class _AnthropicWire:
    def __init__(self, handler: _Handler, request: RecordedRequest, model: str):
        self.h, self.request, self.model = handler, request, model
        self.id = f"msg_{next(_IDS)}"

    def _forced_tool(self) -> str:
        choice = self.request.body.get("tool_choice") or {}
        if choice.get("type") == "tool":
            return str(choice["name"])
        names = [tool["name"] for tool in self.request.body.get("tools", [])]
        finals = [name for name in names if name.startswith("final_")]
        return (finals or names or ["final_result"])[0]

    def answer(self, reply: Reply) -> None:
        assert isinstance(reply, Text | Json | ToolCalls), reply
        blocks: list[dict[str, Any]] = []
        if isinstance(reply, Json):
            blocks.append({"type": "tool_use", "id": f"toolu_{next(_IDS)}", "name": self._forced_tool(),
                           "raw": reply.text()})
        else:
            if reply.text:
                blocks.append({"type": "text", "text": reply.text})
            if isinstance(reply, ToolCalls):
                blocks += [{"type": "tool_use", "id": i, "name": n, "raw": a} for i, n, a in _tool_calls(reply)]
        stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else (
            "max_tokens" if reply.finish == "length" else "end_turn")
        usage = {"input_tokens": reply.input_tokens - reply.cached_tokens, "output_tokens": reply.output_tokens,
                 "cache_read_input_tokens": reply.cached_tokens, "cache_creation_input_tokens": 0}
        if not self.request.stream:
            content = []
            for block in blocks:
                if block["type"] == "tool_use":
                    try:
                        value: Any = json.loads(block["raw"])
                    except json.JSONDecodeError:
                        value = block["raw"]  # what a broken gateway might send
                    content.append({"type": "tool_use", "id": block["id"], "name": block["name"], "input": value})
                else:
                    content.append(block)
            self.h._json(200, {"id": self.id, "type": "message", "role": "assistant", "model": self.model,
                               "content": content, "stop_reason": stop, "stop_sequence": None, "usage": usage})
            return
        start_usage = dict(usage, output_tokens=1)
        events: list[tuple[str | None, Any]] = [("message_start", {
            "type": "message_start",
            "message": {"id": self.id, "type": "message", "role": "assistant", "model": self.model, "content": [],
                        "stop_reason": None, "stop_sequence": None, "usage": start_usage}})]
        for index, block in enumerate(blocks):
            if block["type"] == "text":
                events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                       "content_block": {"type": "text", "text": ""}}))
                events += [("content_block_delta", {"type": "content_block_delta", "index": index,
                                                    "delta": {"type": "text_delta", "text": piece}})
                           for piece in _pieces(block["text"])]
            else:
                events.append(("content_block_start", {"type": "content_block_start", "index": index,
                                                       "content_block": {"type": "tool_use", "id": block["id"],
                                                                         "name": block["name"], "input": {}}}))
                events += [("content_block_delta", {"type": "content_block_delta", "index": index,
                                                    "delta": {"type": "input_json_delta", "partial_json": piece}})
                           for piece in _pieces(block["raw"], 7)]
            events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
        if not reply.cut_off:
            events.append(("message_delta", {"type": "message_delta",
                                              "delta": {"stop_reason": stop, "stop_sequence": None},
                                              "usage": {"output_tokens": reply.output_tokens}}))
        events.append(("message_stop", {"type": "message_stop"}))
        self.h._sse(events)
