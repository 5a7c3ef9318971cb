"""Every adapter behind one harness, so one conformance suite runs against all of them.

A test gives a script of wire-neutral replies (tests.fakes) and a *scenario*: a function of a
:class:`ModelClient` returning plain, comparable data.  Each backend runs the scenario its own way:

* ``openai``, ``anthropic``, ``openai-compatible``: the real SDK against the fake server;
* ``scripted``: the same replies converted for :class:`ScriptedModel` (no HTTP);
* ``replay``: recorded through ``openai-compatible`` first, then replayed from the transcript with every
  socket connection refused; the replayed result must equal the recorded one.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.exceptions import ModelHTTPError
from cmbagent.models import Budget, ModelClient, ModelResponse, Routing, ScriptedModel, ToolCall, Usage
from tests.fakes import FakeLLMServer, Json, Reply, Status, Text, ToolCalls

KEYS = {"OPENAI_API_KEY": "sk-test-OPENAI-0123456789abcdefXYZ", "ANTHROPIC_API_KEY": "sk-ant-test-ANTH-0123456789abcdef"}
HTTP_BACKENDS = ("openai", "anthropic", "openai-compatible")
ALL_BACKENDS = (*HTTP_BACKENDS, "scripted", "replay")

Scenario = Callable[[ModelClient], Any]


@dataclass
class Outcome:
    result: Any
    client: ModelClient
    transcript: Path
    server: FakeLLMServer | None = None
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    scripted: ScriptedModel | None = None
    recorded: Outcome | None = None

    def transcript_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.transcript.read_text().splitlines()]

    def event_kinds(self) -> list[str]:
        return [kind for kind, _ in self.events]


@contextlib.contextmanager
def network_off() -> Iterator[None]:
    """Refuse every socket connection, loopback included."""
    original = socket.socket.connect

    def refuse(self: socket.socket, address: object) -> None:
        raise ConnectionRefusedError(f"network is switched off in this test (tried {address!r})")

    socket.socket.connect = refuse  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        socket.socket.connect = original  # type: ignore[method-assign]


def _client(spec: str, tmp_path: Path, env: dict[str, str], events: list[Any], *, models: dict[str, Any] | None = None,
            budget: Budget | None = None, max_repairs: int = 2, retries: int = 3, timeout: float = 5.0,
            transcript: str = "transcript.jsonl", lenient: bool = False) -> ModelClient:
    routing = Routing(default=spec, models=dict(models or {}), max_retries=retries, timeout=timeout)
    return ModelClient(routing, transcript_path=tmp_path / transcript, budget=budget, env=env,
                       on_event=lambda kind, data: events.append((kind, data)), max_repairs=max_repairs,
                       replay_lenient=lenient)


class Backend:
    name = ""
    http = False

    def run(self, tmp_path: Path, replies: list[Reply], scenario: Scenario, **options: Any) -> Outcome:
        raise NotImplementedError


class HTTPBackend(Backend):
    http = True

    def __init__(self, name: str):
        self.name = name

    def spec(self, server: FakeLLMServer) -> str:
        return {"openai": "openai:gpt-4.1", "anthropic": "anthropic:claude-sonnet-4-5",
                "openai-compatible": f"openai-compatible:local-llm@{server.openai_url}"}[self.name]

    def env(self, server: FakeLLMServer) -> dict[str, str]:
        return {**KEYS, "OPENAI_BASE_URL": server.openai_url, "ANTHROPIC_BASE_URL": server.anthropic_url}

    def run(self, tmp_path: Path, replies: list[Reply], scenario: Scenario, *, server_options: dict[str, Any] | None = None,
            **options: Any) -> Outcome:
        events: list[Any] = []
        with FakeLLMServer(replies, **(server_options or {})) as server:
            client = _client(self.spec(server), tmp_path, self.env(server), events, **options)
            try:
                result = scenario(client)
            finally:
                client.close()
        return Outcome(result, client, tmp_path / options.get("transcript", "transcript.jsonl"), server, events)


def scripted_reply(reply: Reply) -> Any:
    """The :class:`ScriptedModel` equivalent of a fake-server reply."""
    if isinstance(reply, Status):
        return ModelHTTPError(f"scripted HTTP {reply.code}", status_code=reply.code)
    usage = Usage(input_tokens=reply.input_tokens, output_tokens=reply.output_tokens,  # type: ignore[union-attr]
                  cached_tokens=reply.cached_tokens)  # type: ignore[union-attr]
    if isinstance(reply, Text):
        return ModelResponse(text=reply.text, usage=usage, model="scripted")
    if isinstance(reply, Json):
        return ModelResponse(text=reply.text(), usage=usage, model="scripted")
    if isinstance(reply, ToolCalls):
        calls = []
        for index, (name, arguments) in enumerate(reply.calls):
            if isinstance(arguments, str):
                try:
                    parsed = json.loads(arguments)
                except json.JSONDecodeError:
                    parsed = None
                if isinstance(parsed, dict):
                    calls.append(ToolCall(id=f"s{index}", name=name, arguments=parsed))
                else:
                    calls.append(ToolCall(id=f"s{index}", name=name, raw_arguments=arguments))
            else:
                calls.append(ToolCall(id=f"s{index}", name=name, arguments=arguments))
        return ModelResponse(text=reply.text, tool_calls=calls, usage=usage, model="scripted")
    raise TypeError(f"no scripted equivalent of {reply!r}")


class ScriptedBackend(Backend):
    name = "scripted"

    def run(self, tmp_path: Path, replies: list[Reply], scenario: Scenario, *, server_options: Any = None,
            **options: Any) -> Outcome:
        model = ScriptedModel([scripted_reply(r) for r in replies])
        events: list[Any] = []
        client = _client("scripted", tmp_path, {}, events, models={"scripted": model}, **options)
        return Outcome(scenario(client), client, tmp_path / "transcript.jsonl", None, events, scripted=model)


class ReplayBackend(Backend):
    name = "replay"

    def run(self, tmp_path: Path, replies: list[Reply], scenario: Scenario, **options: Any) -> Outcome:
        record_dir = tmp_path / "recorded"
        record_dir.mkdir()
        recorded = HTTPBackend("openai-compatible").run(record_dir, replies, scenario, **options)
        options.pop("server_options", None)
        events: list[Any] = []
        with network_off():
            client = _client(f"replay:{recorded.transcript}", tmp_path, {}, events, **options)
            result = scenario(client)
        assert result == recorded.result, "the replay must reproduce the recorded run"
        return Outcome(result, client, tmp_path / "transcript.jsonl", recorded.server, events, recorded=recorded)


def backend(name: str) -> Backend:
    if name in HTTP_BACKENDS:
        return HTTPBackend(name)
    return {"scripted": ScriptedBackend, "replay": ReplayBackend}[name]()
