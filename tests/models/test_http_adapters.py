"""Wire-level behaviour of the HTTP adapters against the fake server: failures, fallbacks, parameters."""

from __future__ import annotations

import base64
import socket
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from cmbagent.exceptions import ConfigError, ModelConnectionError, ModelHTTPError
from cmbagent.models import (
    ImagePart,
    Message,
    ModelRequest,
    ModelRequestRejected,
    ModelSettings,
    TextPart,
    resolve,
)
from tests.fakes import Drop, FakeLLMServer, Json, MalformedBody, Slow, Status, Text
from tests.models._backends import KEYS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Point(BaseModel):
    x: float
    y: float


def model_for(kind: str, server: FakeLLMServer, **kwargs: Any):
    env = {**KEYS, "OPENAI_BASE_URL": server.openai_url, "ANTHROPIC_BASE_URL": server.anthropic_url}
    spec = {"openai": "openai:gpt-4.1", "anthropic": "anthropic:claude-sonnet-4-5",
            "openai-compatible": f"openai-compatible:local@{server.openai_url}"}[kind]
    return resolve(spec, env=env, **kwargs)


def ask(text: str = "hi", **kwargs: Any) -> ModelRequest:
    return ModelRequest(messages=[Message(role="user", content=text)], **kwargs)


def test_dropped_connection_and_slow_reply_are_survived() -> None:
    with FakeLLMServer([Drop(), Slow(0.3, Text("late but fine"))]) as server:
        model = model_for("openai-compatible", server, max_retries=2, timeout=5)
        assert model.request(ask()).text == "late but fine"
        assert len(server.requests) == 2


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_timeouts_end_in_a_connection_error_naming_the_url(kind: str) -> None:
    with FakeLLMServer(default=Slow(2.0)) as server:
        model = model_for(kind, server, max_retries=1, timeout=0.3)
        with pytest.raises(ModelConnectionError) as info:
            model.request(ask())
        assert info.value.url == model.base_url and model.base_url in str(info.value)
        assert "timed out after 1 retries" in str(info.value)
        assert len(server.requests) == 2


def test_a_base_url_that_does_not_answer() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    model = resolve(f"openai-compatible:m@{url}", env={}, max_retries=1, timeout=2)
    with pytest.raises(ModelConnectionError, match="could not be reached after 1 retries") as info:
        model.request(ask())
    assert info.value.url == url


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("stream", [False, True])
def test_malformed_body_is_a_typed_http_error(kind: str, stream: bool) -> None:
    with FakeLLMServer([MalformedBody()]) as server:
        with pytest.raises(ModelHTTPError, match="not the expected wire format"):
            model_for(kind, server, max_retries=0).request(ask(), on_text=(lambda _t: None) if stream else None)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_rejected_key_is_a_caller_error_and_not_retried(kind: str) -> None:
    with FakeLLMServer([Status(401, message="invalid x-api-key")]) as server:
        with pytest.raises(ModelRequestRejected) as info:
            model_for(kind, server, max_retries=3).request(ask())
        assert isinstance(info.value, ConfigError) and isinstance(info.value, ModelHTTPError)
        assert info.value.status_code == 401
        assert ("OPENAI_API_KEY" if kind == "openai" else "ANTHROPIC_API_KEY") in str(info.value)
        assert len(server.requests) == 1


def test_openai_compatible_falls_back_from_json_schema_to_json_mode() -> None:
    with FakeLLMServer([Json({"x": 1, "y": 2}), Json({"x": 3, "y": 4})], json_schema_supported=False) as server:
        model = model_for("openai-compatible", server)
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        rejected, accepted = server.requests[:2]
        assert rejected.body["response_format"]["type"] == "json_schema"
        assert accepted.body["response_format"] == {"type": "json_object"}
        assert '"x"' in accepted.body["messages"][0]["content"] and accepted.body["messages"][0]["role"] == "system"
        assert model.request(ask(output_schema=Point)).output == Point(x=3, y=4)
        assert len(server.requests) == 3  # the working mode is remembered


def test_openai_compatible_without_any_json_mode_uses_the_prompt() -> None:
    with FakeLLMServer([Json({"x": 1, "y": 2})], json_schema_supported=False, json_mode_supported=False) as server:
        model = model_for("openai-compatible", server)
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        assert model.structured_mode == "prompt" and "response_format" not in server.requests[-1].body


def test_settings_images_and_wire_parameters(tmp_path: Path) -> None:
    image = tmp_path / "fig.png"
    image.write_bytes(b"\x89PNG fake bytes")
    encoded = base64.b64encode(image.read_bytes()).decode()
    content: list[TextPart | ImagePart] = [TextPart(text="what is this?"), ImagePart(path=str(image))]
    request = ModelRequest(messages=[Message(role="user", content=content)],
                           settings=ModelSettings(temperature=0.1, max_tokens=99))
    with FakeLLMServer() as server:
        for kind in ("openai", "openai-compatible", "anthropic"):
            model_for(kind, server).request(request)
        openai, compatible, anthropic = (r.body for r in server.requests)
    assert openai["max_completion_tokens"] == 99 and compatible["max_tokens"] == 99 and anthropic["max_tokens"] == 99
    assert openai["temperature"] == 0.1
    assert anthropic.get("temperature", 0.1) == 0.1  # sent when the installed SDK still takes it
    assert openai["messages"][0]["content"][1]["image_url"]["url"] == f"data:image/png;base64,{encoded}"
    block = anthropic["messages"][0]["content"][1]
    assert block == {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": encoded}}


def test_free_form_schema_is_sent_non_strict() -> None:
    class Notes(BaseModel):
        values: dict[str, float]

    with FakeLLMServer([Json({"values": {"h0": 70.0}})]) as server:
        assert model_for("openai", server).request(ask(output_schema=Notes)).output == Notes(values={"h0": 70.0})
        assert server.requests[0].body["response_format"]["json_schema"]["strict"] is False


def test_reasoning_effort_reaches_both_wires() -> None:
    request = ask(settings=ModelSettings(reasoning_effort="high", max_tokens=500))
    with FakeLLMServer() as server:
        model_for("openai", server).request(request)
        model_for("anthropic", server).request(request)
        openai, anthropic = (r.body for r in server.requests)
    assert openai["reasoning_effort"] == "high"
    assert anthropic["thinking"] == {"type": "enabled", "budget_tokens": 16384}
    assert anthropic["max_tokens"] > 16384  # the answer needs room beyond the thinking budget


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_stream_cut_off_midway_is_a_connection_error(kind: str) -> None:
    with FakeLLMServer([Drop(during=Text("this answer never finishes"), after_events=3)]) as server:
        deltas: list[str] = []
        with pytest.raises(ModelConnectionError) as info:
            model_for(kind, server, max_retries=2).request(ask(), on_text=deltas.append)
        assert info.value.url == (server.openai_url if kind == "openai" else server.anthropic_url)
        assert deltas and "".join(deltas) != "this answer never finishes"
        assert len(server.requests) == 1  # a broken stream is not silently re-sent (its text was shown)
