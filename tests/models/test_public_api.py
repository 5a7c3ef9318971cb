"""The public surface of cmbagent.models is pinned: the graph, CLI and UI code against these names."""

from __future__ import annotations

import cmbagent.models as models

EXPECTED = {
    "CONFIG_FILENAME", "DEFAULT_MAX_TOKENS", "Budget", "CallRecord", "EventCallback", "ImagePart", "Ledger",
    "Message", "Model", "ModelClient", "ModelRequest", "ModelRequestRejected", "ModelResponse", "ModelSettings",
    "ParsedSpec", "Provider", "ProviderCall", "Routing", "ScriptExhausted", "ScriptedModel", "StreamCallback",
    "TextPart", "ToolCall", "ToolSpec", "Usage", "configured_providers", "cost_usd", "default_model_spec",
    "fallback_provider", "get_provider", "how_to_configure", "load_config", "parse_agent_models", "parse_spec",
    "ping", "price_for", "provider_load_errors", "providers", "read_transcript", "register_provider", "resolve",
    "spec_forms", "RepetitionDetected", "RepetitionGuard", "model_schema", "output_budget", "reply_chars",
    "unbounded_fields", "Timings",
}


def test_public_names_are_pinned() -> None:
    assert set(models.__all__) == EXPECTED
    for name in EXPECTED:
        assert getattr(models, name) is not None
