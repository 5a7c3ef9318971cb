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
from cmbagent.models._http import RETRY_NOTICE
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


@pytest.mark.parametrize("status", [400, 500])
def test_openai_compatible_falls_back_to_json_object_with_the_schema(status: int) -> None:
    """llama-cpp-python answers a json_schema format it cannot compile with HTTP 500 (issue 16)."""
    with FakeLLMServer([Json({"x": 1, "y": 2}), Json({"x": 3, "y": 4})], json_schema_supported=False,
                       format_error_status=status) as server:
        model = model_for("openai-compatible", server, max_retries=1)
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        rejected = [r for r in server.requests if r.body["response_format"]["type"] == "json_schema"]
        accepted = server.requests[len(rejected)]
        assert len(rejected) == (2 if status == 500 else 1)  # a 5xx is retried before the next mode
        schema = accepted.body["response_format"]
        assert schema["type"] == "json_object" and schema["schema"]["required"] == ["x", "y"]  # a grammar
        # the schema comes last, in the last user message: the prompt's beginning stays what the agent always sends
        last = accepted.body["messages"][-1]
        assert '"x"' in last["content"] and last["role"] == "user"
        assert all("validates against this JSON schema" not in str(m["content"]) for m in accepted.body["messages"][:-1])
        # the working mode is remembered for the endpoint, by a fresh adapter too
        again = model_for("openai-compatible", server)
        assert again.structured_mode == "json_object_schema"
        assert again.request(ask(output_schema=Point)).output == Point(x=3, y=4)
        assert server.requests[-1].body["response_format"]["type"] == "json_object"
        assert len(server.requests) == len(rejected) + 2


def test_openai_compatible_steps_down_to_json_mode_then_the_prompt() -> None:
    with FakeLLMServer([Json({"x": 1, "y": 2})], json_schema_supported=False,
                       json_object_schema_supported=False) as server:
        model = model_for("openai-compatible", server)
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        assert server.requests[-1].body["response_format"] == {"type": "json_object"}
    with FakeLLMServer([Json({"x": 1, "y": 2})], json_schema_supported=False, json_object_schema_supported=False,
                       json_mode_supported=False) as server:
        model = model_for("openai-compatible", server)
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        assert model.structured_mode == "prompt" and "response_format" not in server.requests[-1].body
        assert [r.body.get("response_format", {}).get("type") for r in server.requests] == [
            "json_schema", "json_object", "json_object", None]


def test_a_configured_mode_is_always_used_and_never_left() -> None:
    with FakeLLMServer([Json({"x": 1, "y": 2})]) as server:
        model = model_for("openai-compatible", server, options={"structured_output": "json_object"})
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        assert server.requests[0].body["response_format"] == {"type": "json_object"}
    with FakeLLMServer([Json({"x": 1, "y": 2})], json_mode_supported=False) as server:
        model = model_for("openai-compatible", server, options={"structured_output": "json_object"})
        with pytest.raises(ModelRequestRejected):
            model.request(ask(output_schema=Point))
    with pytest.raises(ConfigError, match="structured_output 'grammar'"):
        resolve("openai-compatible:m@http://127.0.0.1:1/v1", env={}, options={"structured_output": "grammar"})


def test_openai_itself_never_falls_back() -> None:
    with FakeLLMServer(json_schema_supported=False) as server:
        with pytest.raises(ModelRequestRejected):
            model_for("openai", server).request(ask(output_schema=Point))
        assert len(server.requests) == 1


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
@pytest.mark.parametrize("cut", ["dropped", "no finish reason"])
def test_a_cut_off_stream_is_asked_again_and_says_so(kind: str, cut: str) -> None:
    broken = (Drop(during=Text("this answer never finishes"), after_events=3) if cut == "dropped"
              else Text("this answer never finishes", cut_off=True))
    with FakeLLMServer([broken, Text("the whole answer")]) as server:
        deltas: list[str] = []
        response = model_for(kind, server, max_retries=2).request(ask(), on_text=deltas.append)
        assert response.text == "the whole answer" and response.finish_reason == "stop"
        assert len(server.requests) == 2
        shown = "".join(deltas)
        assert RETRY_NOTICE in shown and shown.endswith("the whole answer")  # not silently re-sent


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_stream_that_never_finishes_is_a_connection_error(kind: str) -> None:
    with FakeLLMServer(default=Text("never finished", cut_off=True)) as server:
        with pytest.raises(ModelConnectionError, match="ended before the model finished") as info:
            model_for(kind, server, max_retries=1).request(ask(), on_text=lambda _t: None)
        assert info.value.url == (server.openai_url if kind == "openai" else server.anthropic_url)
        assert len(server.requests) == 2


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("stream", [False, True])
def test_finish_reason_length_is_reported(kind: str, stream: bool) -> None:
    with FakeLLMServer([Text("truncated", finish="length")]) as server:
        response = model_for(kind, server).request(ask(), on_text=(lambda _t: None) if stream else None)
        assert response.finish_reason == "length"


@pytest.mark.parametrize("stream", [False, True])
def test_usage_missing_is_counted_by_the_server_tokenizer(stream: bool) -> None:
    with FakeLLMServer([Text("one two three")], usage=False, tokenize=True) as server:
        response = model_for("openai-compatible", server).request(ask("four five six seven"),
                                                                  on_text=(lambda _t: None) if stream else None)
        assert response.usage.source == "tokenizer" and response.usage.output_tokens == 3
        assert response.usage.input_tokens >= 4  # the prompt as sent: its words and the JSON around them
        assert [r.path for r in server.requests].count("/tokenize") == 2


def test_usage_missing_without_a_tokenizer_is_estimated() -> None:
    with FakeLLMServer([Text("x" * 40)], usage=False) as server:
        response = model_for("openai-compatible", server).request(ask(), on_text=lambda _t: None)
        assert response.usage.source == "estimate" and response.usage.output_tokens == 10


def test_a_llama_cpp_json_layout_sends_the_schema_as_an_llguidance_grammar() -> None:
    """``local`` asks llama.cpp for an llguidance grammar (the schema, and the JSON's layout) instead of the
    json_schema response format; a server that refuses it gets the next mode like any refused format."""
    import json as _json

    from cmbagent.models._http import Connection
    from cmbagent.models.openai import ChatCompletionsModel

    model = ChatCompletionsModel(Connection(provider="local", model="m", api_key="k", base_url="http://127.0.0.1:9/v1",
                                            max_retries=0, timeout=1), max_tokens_param="max_tokens", fallback=True,
                                 extra_body={"cache_prompt": True}, json_layout="line")
    params = model.params(ask(output_schema=Point))
    assert "response_format" not in params
    grammar = params["extra_body"]["grammar"]
    assert params["extra_body"]["cache_prompt"] is True and grammar.startswith("%llguidance {}\nstart: %json ")
    schema = _json.loads(grammar.split("%json ", 1)[1])
    assert schema["x-guidance"] == {"whitespace_flexible": False, "item_separator": ", ", "key_separator": ": "}
    assert schema["required"] == ["x", "y"] and schema["additionalProperties"] is False
    assert model.params(ask(output_schema=Point), "json_object_schema")["response_format"]["type"] == "json_object"
    with pytest.raises(ConfigError, match="JSON layout"):
        ChatCompletionsModel(Connection(provider="local", model="m", api_key="k", base_url="http://x/v1",
                                        max_retries=0, timeout=1), json_layout="pretty")


def test_a_grammar_the_server_did_not_apply_is_asked_again_with_the_json_schema_format() -> None:
    """llama.cpp answers in prose when it cannot compile an llguidance grammar (it says nothing else): the same call
    goes once more with the json_schema response format, and later calls use that format."""
    from cmbagent.models._http import Connection
    from cmbagent.models.openai import ChatCompletionsModel
    from tests.fakes import Text

    def answer(request):  # type: ignore[no-untyped-def]
        if "grammar" in request.body:
            return Text("Once upon a time there was a point.")
        return Json({"x": 1, "y": 2})

    with FakeLLMServer(fn=answer) as server:
        model = ChatCompletionsModel(Connection(provider="local", model="m", api_key="k", base_url=server.openai_url,
                                                max_retries=0, timeout=5), max_tokens_param="max_tokens",
                                     fallback=True, json_layout="line")
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        assert model.request(ask(output_schema=Point)).output == Point(x=1, y=2)
        sent = [("grammar" in r.body, r.body.get("response_format", {}).get("type")) for r in server.requests]
    assert sent == [(True, None), (False, "json_schema"), (False, "json_schema")]
