"""Bounded calls (issue 16): a call cannot outlive the run's time budget, and a cut call is on record."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from cmbagent.exceptions import BudgetExceeded
from cmbagent.models import Budget, Message, ModelClient, ModelRequest, Routing, read_transcript
from tests.fakes import FakeLLMServer, Slow, Status, Text
from tests.models._backends import KEYS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def ask() -> ModelRequest:
    return ModelRequest(messages=[Message(role="user", content="plan the run")])


def client(spec: str, server: FakeLLMServer, tmp_path: Path, seconds: float) -> ModelClient:
    import anthropic  # noqa: F401  - the SDK imports take seconds on a busy machine: not part of the budget
    import openai  # noqa: F401

    env = {**KEYS, "OPENAI_BASE_URL": server.openai_url, "ANTHROPIC_BASE_URL": server.anthropic_url}
    return ModelClient(Routing(default=spec, max_retries=3, timeout=60), transcript_path=tmp_path / "t.jsonl",
                       budget=Budget(seconds=seconds), env=env)


def spec_for(kind: str, server: FakeLLMServer) -> str:
    return {"openai-compatible": f"openai-compatible:m@{server.openai_url}",
            "anthropic": "anthropic:claude-sonnet-4-5"}[kind]


@pytest.mark.parametrize("kind", ["openai-compatible", "anthropic"])
@pytest.mark.parametrize("stream", [False, True])
def test_a_call_is_cut_at_the_deadline_of_the_time_budget(kind: str, stream: bool, tmp_path: Path) -> None:
    options = {"event_delay": 0.25} if stream else {}
    reply = Text("a long answer " * 8) if stream else Slow(6.0, Text("too late"))
    with FakeLLMServer([reply], **options) as server:
        models = client(spec_for(kind, server), server, tmp_path, seconds=1.5)
        started = time.monotonic()
        with pytest.raises(BudgetExceeded) as info:
            models.request(agent="planner", request=ask(), on_text=(lambda _t: None) if stream else None)
        took = time.monotonic() - started
        models.close()
    assert info.value.kind == "seconds" and "--timeout" in str(info.value) and "planner" in str(info.value)
    assert took < 3.5  # cut at the 1.5 s deadline (slack for a loaded machine), not after the 6 s reply
    assert len(server.requests) == 1  # no retry starts past the deadline
    line, = read_transcript(tmp_path / "t.jsonl")  # the unfinished call is on record, with its token counts
    assert line["agent"] == "planner" and line["error"]["type"] == "DeadlineReached"
    assert line["usage"]["input_tokens"] > 0  # the prompt was read (and is billed) even though the reply never came
    if stream:  # what streamed before the cut is kept and counted
        assert line["response"]["text"].startswith("a long answer") and line["usage"]["output_tokens"] > 0
        assert line["response"]["finish_reason"] is None
    else:
        assert line["response"]["text"] == "" and line["usage"]["output_tokens"] == 0
    if kind == "openai-compatible":  # no usage came: counted by the server's tokenizer where it has one, else estimated
        assert line["usage_source"] in ("tokenizer", "estimate")


@pytest.mark.parametrize("kind", ["openai-compatible", "anthropic"])
def test_keep_alive_pings_do_not_stretch_the_deadline(kind: str, tmp_path: Path) -> None:
    """llama.cpp sends SSE comments while it reads a long prompt; the SDKs swallow them, so no chunk
    reaches the adapter and every read restarts the read timeout (seen: a 49 s deadline, a 93 s call)."""
    with FakeLLMServer([Text("finally")], ping_for=8.0) as server:
        models = client(spec_for(kind, server), server, tmp_path, seconds=1.5)
        started = time.monotonic()
        with pytest.raises(BudgetExceeded):
            models.request(agent="planner", request=ask(), on_text=lambda _t: None)
        assert time.monotonic() - started < 3.5
        models.close()


def test_no_retry_sleeps_past_the_deadline(tmp_path: Path) -> None:
    with FakeLLMServer([Status(503, retry_after=30)], default=Text("fine")) as server:
        models = client(spec_for("openai-compatible", server), server, tmp_path, seconds=2.0)
        started = time.monotonic()
        with pytest.raises(BudgetExceeded):
            models.request(agent="engineer", request=ask())
        assert time.monotonic() - started < 1.5  # a 30 s Retry-After that would end past the deadline
        assert len(server.requests) == 1


def test_without_a_time_budget_retries_follow_retry_after(tmp_path: Path) -> None:
    with FakeLLMServer([Status(503, retry_after=0.3)], default=Text("fine")) as server:
        env = {"OPENAI_BASE_URL": server.openai_url}
        models = ModelClient(Routing(default=f"openai-compatible:m@{server.openai_url}", max_retries=2), env=env)
        started = time.monotonic()
        assert models.request(agent="engineer", request=ask()).text == "fine"
        assert time.monotonic() - started >= 0.3 and len(server.requests) == 2


@pytest.mark.parametrize("kind", ["openai-compatible", "anthropic"])
def test_a_cancel_cuts_the_streamed_call_in_flight(kind: str, tmp_path: Path) -> None:
    """`cmbagent cancel` during a long model call: the stream is cut now, not at the call's deadline, the run
    stops with the cancel (not a model error), and what had streamed is on record with its token counts."""
    from cmbagent.exceptions import RunCancelled

    with FakeLLMServer([Text("a long answer " * 60)], event_delay=0.2) as server:  # ~12 s of streaming
        models = client(spec_for(kind, server), server, tmp_path, seconds=120)
        cancelled = False

        def interrupt() -> None:
            if cancelled:
                raise RunCancelled("the run was cancelled (test)")

        models.interrupt = interrupt
        deltas: list[str] = []
        got: list[BaseException] = []

        def call() -> None:
            try:
                models.request(agent="planner", request=ask(), on_text=deltas.append)
            except BaseException as exc:  # the thread hands it to the test
                got.append(exc)

        worker = threading.Thread(target=call)
        worker.start()
        deadline = time.monotonic() + 30
        while not deltas and time.monotonic() < deadline:  # the reply is streaming
            time.sleep(0.05)
        assert deltas, "the fake server never streamed"
        cancelled = True
        cut_at = time.monotonic()
        models.abort_calls()  # what the run's cancel watch calls when the cancel file appears
        worker.join(timeout=30)
        took = time.monotonic() - cut_at
        models.close()
    assert not worker.is_alive() and took < 2.0, took  # not the ~10 s the reply had left, nor the 120 s deadline
    assert len(got) == 1 and isinstance(got[0], RunCancelled), got
    assert len(server.requests) == 1  # a cancelled call is not retried
    line, = read_transcript(tmp_path / "t.jsonl")
    assert line["error"]["type"] == "CallAborted" and line["response"]["text"] == "".join(deltas) != ""
    assert line["usage"]["output_tokens"] > 0
