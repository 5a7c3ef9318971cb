"""The public surface of cmbagent.models is pinned: the graph, CLI and UI code against these names."""

from __future__ import annotations

import cmbagent.models as models

EXPECTED = {
    "CONFIG_FILENAME", "PROVIDERS", "SPEC_FORMS", "Budget", "CallRecord", "EventCallback", "ImagePart", "Ledger",
    "Message", "Model", "ModelClient", "ModelRequest", "ModelRequestRejected", "ModelResponse", "ModelSettings",
    "ParsedSpec", "Routing", "ScriptExhausted", "ScriptedModel", "StreamCallback", "TextPart", "ToolCall",
    "ToolSpec", "Usage", "configured_providers", "cost_usd", "default_model_spec", "load_config",
    "parse_agent_models", "parse_spec", "ping", "price_for", "read_transcript", "resolve",
}


def test_public_names_are_pinned() -> None:
    assert set(models.__all__) == EXPECTED
    for name in EXPECTED:
        assert getattr(models, name) is not None
