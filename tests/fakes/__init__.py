"""Test doubles shared by every test folder: a fake LLM HTTP server and the scripted model.

::

    from tests.fakes import FakeLLMServer, Json, ScriptedModel, Status, Text, ToolCalls

    with FakeLLMServer([Status(429, retry_after=0.05), Text("hello")]) as server:
        model = resolve(f"openai-compatible:fake@{server.openai_url}", max_retries=3)
"""

from __future__ import annotations

from cmbagent.models.scripted import ScriptedModel
from tests.fakes._replies import (
    Drop,
    Json,
    MalformedBody,
    Reply,
    Slow,
    Status,
    Text,
    ToolCalls,
    Trickle,
    bad_tool_args,
)
from tests.fakes._server import FakeLLMServer, RecordedRequest

__all__ = [
    "Drop",
    "FakeLLMServer",
    "Json",
    "MalformedBody",
    "RecordedRequest",
    "Reply",
    "ScriptedModel",
    "Slow",
    "Status",
    "Text",
    "ToolCalls",
    "Trickle",
    "bad_tool_args",
]
