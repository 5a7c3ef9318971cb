"""AutoGenModelClient, the adapter under the idea team, with an AutoGen AssistantAgent: tool calls go out and
their results come back through cmbagent's messages, streamed text arrives as AutoGen chunks, and every call
is a line of the transcript under the agent's name."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from cmbagent.ideas import AutoGenModelClient
from cmbagent.models import ModelClient, ModelRequest, Routing, ScriptedModel, ToolCall, read_transcript

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_tool_calls_and_results_round_trip_through_the_models_layer(tmp_path: Path) -> None:
    from autogen_agentchat.agents import AssistantAgent
    from autogen_core.tools import FunctionTool

    seen: list[ModelRequest] = []

    def model(request: ModelRequest) -> object:
        seen.append(request)
        if len(seen) == 1:
            return ToolCall(id="call-7", name="add", arguments={"a": 2, "b": 40})
        return f"The sum is {request.messages[-1].text()}."

    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    client = ModelClient(Routing(default="m", models={"m": ScriptedModel(fn=model)}),
                         transcript_path=tmp_path / "transcript.jsonl")
    agent = AssistantAgent("calculator", model_client=AutoGenModelClient(client, agent="researcher"),
                           tools=[FunctionTool(add, description="Add two numbers.")], reflect_on_tool_use=True)
    result = asyncio.run(agent.run(task="What is 2 + 40?"))

    assert result.messages[-1].content == "The sum is 42."
    first, second = seen
    assert [t.name for t in first.tools] == ["add"] and first.tools[0].parameters["required"] == ["a", "b"]
    assert [m.role for m in second.messages[-2:]] == ["assistant", "tool"]
    assert second.messages[-2].tool_calls[0].arguments == {"a": 2, "b": 40}
    assert second.messages[-1].tool_call_id == "call-7" and second.messages[-1].text() == "42"
    records = list(read_transcript(tmp_path / "transcript.jsonl"))
    assert [r["agent"] for r in records] == ["researcher", "researcher"]
    assert records[0]["response"]["tool_calls"][0]["name"] == "add"


def test_streamed_text_arrives_as_autogen_chunks() -> None:
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.messages import ModelClientStreamingChunkEvent, TextMessage

    text = "Streaming through the models layer, sixteen characters at a time."
    client = ModelClient(Routing(default="m", models={"m": ScriptedModel([text])}))
    agent = AssistantAgent("writer", model_client=AutoGenModelClient(client, agent="researcher"),
                           model_client_stream=True)

    async def collect() -> list[object]:
        return [message async for message in agent.run_stream(task="Say something.")]

    messages = asyncio.run(collect())
    chunks = [m.content for m in messages if isinstance(m, ModelClientStreamingChunkEvent)]
    assert len(chunks) > 1 and "".join(chunks) == text
    assert [m.content for m in messages if isinstance(m, TextMessage)][-1] == text
    assert json.loads(json.dumps(client.ledger.to_dict()))["per_agent"]["researcher"]["calls"] == 1
