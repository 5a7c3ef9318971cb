"""ModelClient bookkeeping with the scripted model: repairs, ledger, prices, events, transcripts, resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from cmbagent.exceptions import BudgetExceeded, ConfigError, ModelHTTPError, OutputValidationError
from cmbagent.models import (
    Budget,
    Message,
    ModelClient,
    ModelRequest,
    ModelResponse,
    Routing,
    ScriptedModel,
    ScriptExhausted,
    ToolCall,
    Usage,
    cost_usd,
    price_for,
)
from cmbagent.models._transcript import Scrubber, read_transcript


class Verdict(BaseModel):
    accepted: bool
    issues: list[str] = []


class StepNote(BaseModel):
    step: int


def ask(text: str = "go", **kwargs: Any) -> ModelRequest:
    return ModelRequest(messages=[Message(role="user", content=text)], **kwargs)


def client_for(model: ScriptedModel, tmp_path: Path, **kwargs: Any) -> ModelClient:
    return ModelClient(Routing(default="scripted", models={"scripted": model}),
                       transcript_path=tmp_path / "transcript.jsonl", **kwargs)


def test_prices_match_the_published_table_and_prefixes() -> None:
    price = price_for("openai", "gpt-4.1")
    assert price is not None and (price.input, price.output, price.cached) == (2.0, 8.0, 0.5)
    assert price_for("openai", "gpt-4.1-2025-04-14") == price  # dated ids use their base price
    assert price_for("openai", "gpt-4.1-mini") != price  # the longest prefix wins
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000, cached_tokens=500_000)
    assert cost_usd("openai:gpt-4.1", usage) == pytest.approx(0.5 * 2 + 0.5 * 0.5 + 8)
    assert cost_usd("openai:my-finetune", usage) is None  # unknown: tokens count, cost does not
    assert cost_usd("openai-compatible:llama@http://127.0.0.1:1/v1", usage) == 0.0
    assert cost_usd("offline", usage) == 0.0


def test_unknown_price_makes_the_total_unknown_but_counts_tokens(tmp_path: Path) -> None:
    client = ModelClient(
        Routing(default="openai:my-finetune", models={"openai:my-finetune": ScriptedModel(["a"], usage=Usage(
            input_tokens=10, output_tokens=5))}),
    )
    response = client.request(agent="engineer", request=ask())
    assert response.cost_usd is None
    total = client.ledger.totals()
    assert total["total_tokens"] == 15 and total["cost_usd"] is None and total["cost_known"] is False


def test_structured_output_from_objects_dicts_and_repairs(tmp_path: Path) -> None:
    model = ScriptedModel([Verdict(accepted=True), {"accepted": False, "issues": ["x"]}, "maybe", '{"accepted": 1.5}',
                           '```json\n{"accepted": true}\n```'])
    client = client_for(model, tmp_path)
    assert client.request(agent="critic", request=ask(output_schema=Verdict)).output == Verdict(accepted=True)
    assert client.request(agent="critic", request=ask(output_schema=Verdict)).output.issues == ["x"]
    # "maybe" and 1.5 fail, the fenced JSON passes on the second repair
    repaired = client.request(agent="critic", request=ask(output_schema=Verdict))
    assert repaired.output == Verdict(accepted=True)
    last = model.requests[-1].messages
    assert [m.role for m in last[-4:]] == ["assistant", "user", "assistant", "user"]
    assert "accepted" in last[-1].text() and last[-2].text() == '{"accepted": 1.5}'
    assert client.ledger.per_agent()["critic"]["calls"] == 5


def test_repairs_are_bounded_and_configurable(tmp_path: Path) -> None:
    model = ScriptedModel(fn=lambda request: "still prose")
    with pytest.raises(OutputValidationError) as info:
        client_for(model, tmp_path, max_repairs=3).request(agent="critic", request=ask(output_schema=Verdict))
    assert len(model.requests) == 4 and info.value.output == "still prose"
    assert "'still prose'" in str(info.value) and "--agent-model critic=" in str(info.value)


class Step(BaseModel):
    id: str
    agent: str
    done: bool


class Plan(BaseModel):
    steps: list[Step]


def test_every_validation_error_reaches_the_repair_and_the_final_error(tmp_path: Path) -> None:
    bad = {"steps": [{"id": "s1", "agent": 3, "done": "maybe"}, {"agent": "engineer", "done": True}]}
    model = ScriptedModel(fn=lambda request: bad)
    with pytest.raises(OutputValidationError) as info:
        client_for(model, tmp_path, max_repairs=1).request(agent="planner", request=ask(output_schema=Plan))
    repair = model.requests[1].messages[-1].text()
    for where in ("steps.0.agent", "steps.0.done", "steps.1.id"):
        assert where in repair and where in str(info.value)  # issue 16: the reason used to be dropped
    assert "(got 3)" in repair and '(got "maybe")' in repair
    assert "Reply again" in repair and "Reply again" not in str(info.value)


def test_a_cut_off_reply_is_told_so_in_the_repair(tmp_path: Path) -> None:
    model = ScriptedModel([ModelResponse(text='{"accepted": tr', finish_reason="length"), Verdict(accepted=True)])
    client_for(model, tmp_path).request(agent="critic", request=ask(output_schema=Verdict))
    assert "cut off at the output-token limit" in model.requests[1].messages[-1].text()


def test_calls_get_a_max_tokens_limit_by_agent_then_tier(tmp_path: Path) -> None:
    model = ScriptedModel(fn=lambda request: "ok")
    routing = Routing(default="scripted", models={"scripted": model},
                      max_tokens={"planner": 1234, "fast": 99, "default": 777})
    client = ModelClient(routing, transcript_path=tmp_path / "transcript.jsonl")
    client.request(agent="planner", tier="strong", request=ask())
    client.request(agent="summariser", tier="fast", request=ask())
    client.request(agent="engineer", tier="strong", request=ask())
    client.request(agent="researcher", request=ask())
    client.request(agent="engineer", tier="strong", request=ask(settings={"max_tokens": 5}))  # the call's budget
    # a call's own budget (the graph's: the longest reply its schema allows) stays within the agent's limit
    client.request(agent="summariser", tier="fast", request=ask(settings={"max_tokens": 5000}))
    assert [r.settings.max_tokens for r in model.requests] == [1234, 99, 8192, 777, 5, 99]
    recorded = [r["request"]["settings"]["max_tokens"] for r in read_transcript(tmp_path / "transcript.jsonl")]
    assert recorded == [1234, 99, 8192, 777, 5, 99]
    with pytest.raises(ConfigError, match="max_tokens"):
        Routing(max_tokens={"planner": 0})
    loaded = Routing.from_sources(config={"models": {"max_tokens": {"strong": 300}}}, env={})
    assert loaded.max_tokens_for("engineer", "strong") == 300 and loaded.max_tokens_for("x", "fast") == 2048


def test_unknown_tool_name_is_repaired(tmp_path: Path) -> None:
    from cmbagent.models import ToolSpec

    model = ScriptedModel([ToolCall(id="1", name="rm_rf"), ToolCall(id="2", name="run_code", arguments={"code": "1"})])
    response = client_for(model, tmp_path).request(agent="engineer", request=ask(tools=[ToolSpec(name="run_code")]))
    assert response.tool_calls[0].name == "run_code"
    assert "no tool 'rm_rf'" in model.requests[1].messages[-1].text()


def test_events_usage_and_budget_warning(tmp_path: Path) -> None:
    events: list[tuple[str, dict[str, Any]]] = []
    model = ScriptedModel(["first reply here", "second"], usage=Usage(input_tokens=50, output_tokens=30))
    client = client_for(model, tmp_path, budget=Budget(tokens=190), on_event=lambda k, d: events.append((k, d)))
    client.request(agent="planner", request=ask())
    assert [k for k, _ in events if k == "budget_warning"] == []
    client.request(agent="planner", request=ask())  # 160 of 190 tokens: past 80 %
    kinds = [k for k, _ in events]
    assert kinds.count("model_call") == 2 and "text_delta" in kinds
    assert ("budget_warning", {"kind": "tokens", "spent": 160, "limit": 190}) in events
    assert "".join(d["text"] for k, d in events if k == "text_delta") == "first reply heresecond"
    client.check_budget()  # 160 < 190: still fine
    assert kinds.count("budget_warning") == 1


def test_seconds_and_usd_budgets(tmp_path: Path) -> None:
    client = client_for(ScriptedModel(["a"]), tmp_path, budget=Budget(seconds=5), elapsed_offset_s=10)
    with pytest.raises(BudgetExceeded) as info:
        client.request(agent="planner", request=ask())
    # the flag that sets the time budget is --timeout (issue 16 found a message naming --budget-seconds)
    assert info.value.kind == "seconds" and "--timeout" in str(info.value) and "--budget-seconds" not in str(info.value)
    costly = ModelClient(Routing(default="openai:gpt-4.1", models={"openai:gpt-4.1": ScriptedModel(
        ["a", "b"], usage=Usage(input_tokens=1_000_000))}), budget=Budget(usd=1.0))
    costly.request(agent="planner", request=ask())  # $2 spent: the next call is refused
    with pytest.raises(BudgetExceeded, match="usd budget"):
        costly.request(agent="planner", request=ask())


def test_budget_warning_is_emitted_once_per_run_even_across_resume_and_threads(tmp_path: Path) -> None:
    import threading

    events: list[tuple[str, dict[str, Any]]] = []
    model = ScriptedModel(fn=lambda request: "x", usage=Usage(input_tokens=45))
    client = client_for(model, tmp_path, budget=Budget(tokens=1000), on_event=lambda k, d: events.append((k, d)))
    threads = [threading.Thread(target=client.request, kwargs={"agent": "a", "request": ask()}) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [k for k, _ in events].count("budget_warning") == 1
    resumed = client_for(model, tmp_path, budget=Budget(tokens=1000), on_event=lambda k, d: events.append((k, d)))
    resumed.request(agent="a", request=ask())
    assert [k for k, _ in events].count("budget_warning") == 1  # the resumed part does not announce it again


def test_resumed_client_continues_the_ledger_from_the_transcript(tmp_path: Path) -> None:
    first = client_for(ScriptedModel(["a"], usage=Usage(input_tokens=7, output_tokens=3)), tmp_path)
    first.request(agent="planner", request=ask())
    resumed = client_for(ScriptedModel(["b"], usage=Usage(input_tokens=1, output_tokens=1)), tmp_path,
                         budget=Budget(tokens=12))
    assert resumed.ledger.tokens == 10
    resumed.request(agent="planner", request=ask())
    with pytest.raises(BudgetExceeded):
        resumed.check_budget()
    assert [r["seq"] for r in read_transcript(tmp_path / "transcript.jsonl")] == [0, 1]


def test_model_errors_are_recorded_and_raised(tmp_path: Path) -> None:
    client = client_for(ScriptedModel([ModelHTTPError("boom", status_code=502)]), tmp_path)
    with pytest.raises(ModelHTTPError):
        client.request(agent="engineer", request=ask())
    record, = read_transcript(tmp_path / "transcript.jsonl")
    assert record["error"]["type"] == "ModelHTTPError" and record["error"]["status_code"] == 502
    with pytest.raises(ScriptExhausted, match="no reply left"):
        client.request(agent="engineer", request=ask())


def test_a_call_interrupted_mid_way_is_on_record(tmp_path: Path) -> None:
    """A run stopped by SIGTERM (raised as KeyboardInterrupt) keeps its unfinished call in the transcript."""
    client = client_for(ScriptedModel([KeyboardInterrupt()]), tmp_path)
    with pytest.raises(KeyboardInterrupt):
        client.request(agent="planner", request=ask())
    record, = read_transcript(tmp_path / "transcript.jsonl")
    assert record["agent"] == "planner" and record["error"]["type"] == "KeyboardInterrupt"


def test_transcript_line_contents_and_torn_tail(tmp_path: Path) -> None:
    reply = ModelResponse(text="", tool_calls=[ToolCall(id="c1", name="f", arguments={"x": 1})],
                          usage=Usage(input_tokens=3, output_tokens=2, cached_tokens=1))
    client = client_for(ScriptedModel([reply]), tmp_path)
    client.request(agent="engineer", request=ask("hi", context=StepNote(step=2),
                                                 settings={"temperature": 0.2}))
    path = tmp_path / "transcript.jsonl"
    with open(path, "a") as handle:
        handle.write('{"v": 1, "seq": 1, "agent"')  # a kill -9 in the middle of a write
    record, = read_transcript(path)
    # the transcript holds what the model saw; the typed context the messages were rendered from is not sent
    assert "context" not in record["request"] and record["request"]["settings"]["temperature"] == 0.2
    assert record["response"]["tool_calls"][0]["arguments"] == {"x": 1}
    assert record["usage"] == {"input_tokens": 3, "output_tokens": 2, "cached_tokens": 1}
    assert set(record) >= {"agent", "model", "request", "response", "usage", "cost_usd", "latency_s", "request_hash"}


def test_scrubber_patterns_and_values() -> None:
    scrub = Scrubber.from_sources({"MY_SERVICE_TOKEN": "tok-abcdef-123", "HOME": "/root"}, {"ui": "session-key-xyz"})
    text = scrub('sk-proj-AbC123456789 "Authorization": "Bearer eyJhbGciOi" tok-abcdef-123 session-key-xyz /root')
    assert "AbC123456789" not in text and "eyJhbGciOi" not in text and "tok-abcdef-123" not in text
    assert "session-key-xyz" not in text and "/root" in text  # only secrets go
    assert json.loads(json.dumps(scrub.scrub_json({"a": ["sk-abcdefghijk"]}))) == {"a": ["sk-[REDACTED]"]}


def test_session_keys_from_the_ui_are_scrubbed(tmp_path: Path) -> None:
    session_key = "browser-session-key-42"  # not sk-shaped: only the injected value identifies it
    client = client_for(ScriptedModel([f"you said {session_key}"]), tmp_path, api_keys={"openai": session_key})
    client.request(agent="engineer", request=ask(f"key={session_key}"))
    text = (tmp_path / "transcript.jsonl").read_text()
    assert session_key not in text and text.count("[REDACTED]") == 2
