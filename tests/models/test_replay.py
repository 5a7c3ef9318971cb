"""Replay: a recorded run reproduced with the network off; divergences fail with a diff or are tolerated."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from cmbagent.exceptions import ReplayDivergence
from cmbagent.models import (
    Message,
    ModelClient,
    ModelRequest,
    Routing,
    ScriptedModel,
    ToolCall,
    ToolSpec,
    Usage,
)
from cmbagent.models._transcript import read_transcript
from tests.models._backends import network_off


class Plan(BaseModel):
    steps: list[str]


def ask(text: str, **kwargs: Any) -> ModelRequest:
    return ModelRequest(messages=[Message(role="user", content=text)], **kwargs)


def run_session(client: ModelClient, task: str = "fit supernovae") -> list[Any]:
    plan = client.request(agent="planner", tier="strong", request=ask(task, output_schema=Plan))
    call = client.request(agent="engineer", request=ask("write code", tools=[ToolSpec(name="run")]))
    summary = client.request(agent="researcher", request=ask("summarise"))
    return [plan.output, call.tool_calls, summary.text, summary.usage]


@pytest.fixture
def recorded(tmp_path: Path) -> tuple[Path, list[Any]]:
    model = ScriptedModel(['{"steps": 3}', Plan(steps=["load", "fit"]), ToolCall(id="t1", name="run", arguments={"c": 1}),
                           "Omega_m = 0.33"], usage=Usage(input_tokens=9, output_tokens=4))
    client = ModelClient(Routing(default="scripted", models={"scripted": model}),
                         transcript_path=tmp_path / "run1" / "transcript.jsonl")
    return tmp_path / "run1" / "transcript.jsonl", run_session(client)


def replay_client(path: Path, tmp_path: Path, *, lenient: bool = False) -> ModelClient:
    routing = Routing.from_sources(env={}, model=f"replay:{path}", agent_models={"planner": f"replay:{path}"})
    return ModelClient(routing, transcript_path=tmp_path / "run2" / "transcript.jsonl", replay_lenient=lenient)


def test_replay_reproduces_every_response_with_no_network(recorded: tuple[Path, list[Any]], tmp_path: Path) -> None:
    path, original = recorded
    with network_off():
        client = replay_client(path, tmp_path)
        assert run_session(client) == original
    old = list(read_transcript(path))
    new = list(read_transcript(tmp_path / "run2" / "transcript.jsonl"))
    assert [r["request_hash"] for r in new] == [r["request_hash"] for r in old]  # the repair was replayed too
    assert len(new) == 4 and client.ledger.tokens == 4 * 13
    assert client.ledger.cost_usd == 0.0


def test_divergence_fails_with_a_short_diff(recorded: tuple[Path, list[Any]], tmp_path: Path) -> None:
    path, _ = recorded
    client = replay_client(path, tmp_path)
    with pytest.raises(ReplayDivergence) as info:
        client.request(agent="planner", tier="strong", request=ask("fit quasars", output_schema=Plan))
    diff = info.value.diff
    assert '-   "content": "fit supernovae",' in diff.splitlines()
    assert '+   "content": "fit quasars",' in diff.splitlines()
    assert len(diff.splitlines()) < 20 and "--replay-lenient" in str(info.value)


def test_lenient_replay_warns_and_continues(recorded: tuple[Path, list[Any]], tmp_path: Path,
                                           caplog: pytest.LogCaptureFixture) -> None:
    path, original = recorded
    client = replay_client(path, tmp_path, lenient=True)
    with caplog.at_level(logging.WARNING, logger="cmbagent.models.replay"):
        result = run_session(client, task="fit quasars")
    assert result == original
    replay = client.model_for(f"replay:{path}")
    assert len(replay.divergences) == 2  # type: ignore[attr-defined]  # the task text and its repair
    assert "fit quasars" in caplog.text


def test_asking_more_than_was_recorded_fails(recorded: tuple[Path, list[Any]], tmp_path: Path) -> None:
    path, _ = recorded
    client = replay_client(path, tmp_path)
    run_session(client)
    with pytest.raises(ReplayDivergence, match="records only 4"):
        client.request(agent="researcher", request=ask("one more"))
