"""The conformance suite every adapter passes: openai, anthropic, openai-compatible (real SDKs against the
fake server), scripted, and replay (recorded, then replayed with the network off)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from cmbagent.exceptions import BudgetExceeded, ModelHTTPError, OutputValidationError
from cmbagent.models import Budget, Message, ModelClient, ModelRequest, ToolSpec, price_for
from cmbagent.tools import function_schema
from tests.fakes import Json, Status, Text, ToolCalls, bad_tool_args
from tests.models._backends import ALL_BACKENDS, HTTP_BACKENDS, KEYS, Outcome, backend

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class Measurement(BaseModel):
    name: str
    value: float
    unit: str = "km/s/Mpc"


def add(a: int, b: int) -> int:
    """Add two integers.

    Args:
        a: First addend.
        b: Second addend.
    """
    return a + b


ADD = ToolSpec(**function_schema(add))


def ask(text: str, **kwargs: object) -> ModelRequest:
    return ModelRequest(messages=[Message(role="system", content="Be brief."), Message(role="user", content=text)],
                        **kwargs)  # type: ignore[arg-type]


def run(name: str, tmp_path: Path, replies: list, scenario, **options) -> Outcome:
    return backend(name).run(tmp_path, replies, scenario, **options)


def expected_cost(name: str, input_tokens: int, output_tokens: int, cached: int) -> float:
    if name not in ("openai", "anthropic"):
        return 0.0  # local servers, scripted models and replays cost nothing
    model = "gpt-4.1" if name == "openai" else "claude-sonnet-4-5"
    price = price_for(name, model)
    assert price is not None
    return ((input_tokens - cached) * price.input + cached * price.cached + output_tokens * price.output) / 1e6


@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_text_usage_and_cost(name: str, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> tuple:
        response = client.request(agent="researcher", request=ask("What is H0?"))
        return response.text, response.usage.model_dump(), response.cost_usd

    out = run(name, tmp_path, [Text("H0 is about 70.", input_tokens=40, output_tokens=9, cached_tokens=16)], scenario)
    text, usage, cost = out.result
    assert text == "H0 is about 70."
    assert usage == {"input_tokens": 40, "output_tokens": 9, "cached_tokens": 16}
    assert cost == pytest.approx(expected_cost(name, 40, 9, 16))
    totals = out.client.ledger.to_dict()
    assert totals["per_agent"]["researcher"]["total_tokens"] == 49
    assert totals["total"]["calls"] == 1
    data, = [d for k, d in out.events if k == "model_call"]
    assert data["agent"] == "researcher" and data["input_tokens"] == 40 and data["output_tokens"] == 9
    line, = out.transcript_lines()
    assert line["agent"] == "researcher" and line["response"]["text"] == "H0 is about 70."
    assert line["request"]["messages"][1]["content"] == "What is H0?" and len(line["request_hash"]) == 64


@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_streaming_text_deltas(name: str, tmp_path: Path) -> None:
    text = "Streaming arrives in several small pieces."

    def scenario(client: ModelClient) -> tuple:
        deltas: list[str] = []
        response = client.request(agent="engineer", request=ask("stream"), on_text=deltas.append)
        return response.text, "".join(deltas), response.usage.model_dump()

    out = run(name, tmp_path, [Text(text, input_tokens=21, output_tokens=8, cached_tokens=4)], scenario)
    assert out.result == (text, text, {"input_tokens": 21, "output_tokens": 8, "cached_tokens": 4})
    streamed = [d["text"] for kind, d in out.events if kind == "text_delta"]
    assert "".join(streamed) == text
    live = out.recorded or out  # a replay has no stream of its own; its recording had
    assert len([k for k, _ in live.events if k == "text_delta"]) > 1
    if live.server is not None:
        assert live.server.requests[0].stream


@pytest.mark.parametrize("name", ALL_BACKENDS)
@pytest.mark.parametrize("stream", [False, True])
def test_tool_call_round_trip(name: str, stream: bool, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> tuple:
        on_text = (lambda _t: None) if stream else None
        first = client.request(agent="engineer", request=ask("add 2 and 3", tools=[ADD]), on_text=on_text)
        call = first.tool_calls[0]
        follow = ask("add 2 and 3", tools=[ADD])
        follow.messages += [Message(role="assistant", content=first.text, tool_calls=first.tool_calls),
                            Message(role="tool", tool_call_id=call.id, content=str(add(**call.arguments)))]
        final = client.request(agent="engineer", request=follow, on_text=on_text)
        return call.name, call.arguments, final.text

    out = run(name, tmp_path, [ToolCalls([("add", {"a": 2, "b": 3})]), Text("The sum is 5.")], scenario)
    assert out.result == ("add", {"a": 2, "b": 3}, "The sum is 5.")
    if out.server is not None:
        first, second = out.server.requests[:2]
        if first.wire == "openai":
            assert first.body["tools"][0]["function"]["name"] == "add"
            assert first.body["tools"][0]["function"]["parameters"]["required"] == ["a", "b"]
            assert second.body["messages"][-1] == {"role": "tool", "tool_call_id": second.body["messages"][-2]
                                                   ["tool_calls"][0]["id"], "content": "5"}
        else:
            assert first.body["tools"][0]["input_schema"]["required"] == ["a", "b"]
            result_block = second.body["messages"][-1]["content"][-1]
            assert result_block["type"] == "tool_result" and result_block["content"] == "5"
            # the instructions are a system block marked as the prompt cache's boundary (issue 30)
            assert second.body["system"] == [{"type": "text", "text": "Be brief.",
                                              "cache_control": {"type": "ephemeral"}}]


@pytest.mark.parametrize("name", ALL_BACKENDS)
@pytest.mark.parametrize("stream", [False, True])
def test_structured_output_repaired_after_malformed_answer(name: str, stream: bool, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> tuple:
        on_text = (lambda _t: None) if stream else None
        response = client.request(agent="planner", request=ask("measure", output_schema=Measurement), on_text=on_text)
        return response.output

    replies = [Json('{"name": "H0", "value": '), Json({"name": "H0", "value": "fast"}),
               Json({"name": "H0", "value": 67.4})]
    out = run(name, tmp_path, replies, scenario)
    assert out.result == Measurement(name="H0", value=67.4)
    lines = out.transcript_lines()
    assert len(lines) == 3
    repair = lines[2]["request"]["messages"]
    assert repair[-1]["role"] == "user" and "value" in repair[-1]["content"]
    assert repair[-2]["content"] == '{"name": "H0", "value": "fast"}'
    assert lines[0]["request"]["output_schema"]["name"] == "Measurement"
    if out.server is not None and name != "replay":
        body = out.server.requests[0].body
        if name == "anthropic":
            assert body["tool_choice"] == {"type": "tool", "name": "final_Measurement"}
        else:
            schema = body["response_format"]["json_schema"]
            assert schema["name"] == "Measurement" and schema["strict"] is True
            assert schema["schema"]["required"] == ["name", "value", "unit"]


@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_structured_output_gives_up_with_quoted_output(name: str, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> tuple:
        try:
            client.request(agent="planner", request=ask("measure", output_schema=Measurement))
        except OutputValidationError as exc:
            return "failed", exc.output, "not a measurement" in str(exc)
        return ("succeeded",)

    out = run(name, tmp_path, [Json("not a measurement")] * 2, scenario, max_repairs=1)
    assert out.result == ("failed", "not a measurement", True)
    assert len(out.transcript_lines()) == 2


@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_invalid_tool_arguments_go_back_to_the_model(name: str, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> list:
        response = client.request(agent="engineer", request=ask("add", tools=[ADD]))
        return [(c.name, c.arguments) for c in response.tool_calls]

    out = run(name, tmp_path, [bad_tool_args("add"), ToolCalls([("add", {"a": 1, "b": 1})])], scenario)
    assert out.result == [("add", {"a": 1, "b": 1})]
    repair = out.transcript_lines()[1]["request"]["messages"][-1]["content"]
    assert "not a JSON object" in repair and "add" in repair


@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_budget_stops_before_the_next_call(name: str, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> tuple:
        client.request(agent="engineer", request=ask("one"))
        try:
            client.request(agent="engineer", request=ask("two"))
        except BudgetExceeded as exc:
            return exc.kind, exc.spent, exc.limit
        return ("no stop",)

    out = run(name, tmp_path, [Text("1", input_tokens=30, output_tokens=5), Text("2")], scenario,
              budget=Budget(tokens=30))
    assert out.result == ("tokens", 35.0, 30.0)
    assert len(out.transcript_lines()) == 1  # the second call was never made
    if out.server is not None:
        assert len((out.recorded or out).server.requests) == 1  # type: ignore[union-attr]
    warning, = [d for k, d in out.events if k == "budget_warning"]
    assert warning == {"kind": "tokens", "spent": 35, "limit": 30}


@pytest.mark.parametrize("name", ALL_BACKENDS)
def test_keys_never_reach_the_transcript(name: str, tmp_path: Path) -> None:
    leaked = KEYS["OPENAI_API_KEY"]

    def scenario(client: ModelClient) -> str:
        request = ask(f"my key is {leaked}, header Authorization: Bearer abcdefgh12345678",
                      tools=[ToolSpec(name="note", description="x-api-key: sk-ant-zzzzzzzzzzzz999")])
        # a replay serves the scrubbed text, so only the key-free part is compared
        return client.request(agent="researcher", request=request).text.split()[0]

    out = run(name, tmp_path, [Text(f"echo {leaked}")], scenario)
    text = out.transcript.read_text()
    for secret in (*KEYS.values(), "abcdefgh12345678", "sk-ant-zzzzzzzzzzzz999"):
        assert secret not in text
    assert "[REDACTED]" in text
    if name in ("openai", "anthropic"):
        headers = out.server.requests[0].headers  # type: ignore[union-attr]
        sent = headers.get("authorization", "") + headers.get("x-api-key", "")
        assert KEYS["OPENAI_API_KEY" if name == "openai" else "ANTHROPIC_API_KEY"] in sent


@pytest.mark.parametrize("name", [*HTTP_BACKENDS, "replay"])
def test_bursts_of_429_and_500_are_retried(name: str, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> str:
        return client.request(agent="engineer", request=ask("hello")).text

    burst = [Status(429, retry_after=0.05), Status(500, retry_after=0.05), Status(503, retry_after=0.05)]
    out = run(name, tmp_path, [*burst, Text("finally")], scenario, retries=3)
    assert out.result == "finally"
    assert len(out.server.requests) == 4  # type: ignore[union-attr]
    assert len(out.transcript_lines()) == 1


@pytest.mark.parametrize("name", [*HTTP_BACKENDS, "replay"])
def test_server_that_never_recovers_raises_typed_error(name: str, tmp_path: Path) -> None:
    def scenario(client: ModelClient) -> tuple:
        try:
            client.request(agent="engineer", request=ask("hello"))
        except ModelHTTPError as exc:
            return "error", exc.status_code
        return ("ok",)

    out = run(name, tmp_path, [Status(503, retry_after=0.02)] * 3, scenario, retries=2)
    assert out.result == ("error", 503)
    line, = out.transcript_lines()
    assert line["error"]["status_code"] == 503 and line["response"] is None
    if name != "replay":
        assert len(out.server.requests) == 3  # type: ignore[union-attr]
