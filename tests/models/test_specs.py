"""Spec parsing, lazy resolution, keys, the network switch, provider listing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cmbagent.exceptions import ConfigError
from cmbagent.models import (
    Message,
    ModelRequest,
    configured_providers,
    default_model_spec,
    parse_spec,
    resolve,
)
from cmbagent.models.anthropic import AnthropicModel
from cmbagent.models.openai import ChatCompletionsModel
from cmbagent.models.replay import ReplayModel


@pytest.mark.parametrize(
    ("spec", "provider", "model", "base_url"),
    [
        ("openai:gpt-4.1", "openai", "gpt-4.1", None),
        ("anthropic:claude-sonnet-4-5", "anthropic", "claude-sonnet-4-5", None),
        ("openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1/", "openai-compatible", "llama3.1:8b",
         "http://127.0.0.1:11434/v1"),
        ("openai-compatible:qwen", "openai-compatible", "qwen", None),
        ("replay:runs/a/transcript.jsonl", "replay", "runs/a/transcript.jsonl", None),
        ("offline", "offline", "offline", None),
        ("local", "local", "", None),
        ("local:models/tiny.gguf", "local", "models/tiny.gguf", None),
    ],
)
def test_valid_specs_parse(spec: str, provider: str, model: str, base_url: str | None) -> None:
    parsed = parse_spec(spec)
    assert (parsed.provider, parsed.model, parsed.base_url) == (provider, model, base_url)
    assert parse_spec(parsed.spec) == parsed  # the canonical spec parses back to the same thing


@pytest.mark.parametrize("spec", ["", "gpt-4.1", "openia:gpt-4.1", "openai:", "openai-compatible:@http://x/v1",
                                  "offline:x"])
def test_malformed_specs_list_the_valid_forms(spec: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_spec(spec)
    message = str(info.value)
    assert "openai:<model>" in message and "openai-compatible:<model>@<base_url>" in message and "offline" in message
    assert "local:<path.gguf>" in message


def test_missing_key_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        resolve("anthropic:claude-sonnet-4-5", env={})
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        resolve("openai:gpt-4.1", env={"ANTHROPIC_API_KEY": "sk-ant-x"})


def test_resolve_builds_the_right_adapter_without_network() -> None:
    env = {"OPENAI_API_KEY": "sk-env-key-123456", "ANTHROPIC_API_KEY": "sk-ant-env-123456"}
    openai = resolve("openai:gpt-4.1", env=env)
    assert isinstance(openai, ChatCompletionsModel) and openai.base_url == "https://api.openai.com/v1"
    assert openai.max_tokens_param == "max_completion_tokens" and openai.fallback is False
    assert openai.spec == "openai:gpt-4.1" and openai._client is None  # lazy: no SDK client yet
    assert "sk-env" not in repr(openai)
    injected = resolve("openai:gpt-4.1", env=env, api_keys={"openai": "sk-session-key-999999"})
    assert injected._api_key == "sk-session-key-999999"  # type: ignore[attr-defined]
    anthropic = resolve("anthropic:claude-sonnet-4-5", env={**env, "ANTHROPIC_BASE_URL": "http://127.0.0.1:1"})
    assert isinstance(anthropic, AnthropicModel) and anthropic.base_url == "http://127.0.0.1:1"


def test_openai_compatible_base_url_and_key_pairing() -> None:
    local = resolve("openai-compatible:llama@http://127.0.0.1:8000/v1", env={"OPENAI_API_KEY": "sk-real-openai-key"})
    # the same wire adapter as OpenAI's, with the settings of a self-hosted server
    assert isinstance(local, ChatCompletionsModel) and local.fallback and local.max_tokens_param == "max_tokens"
    assert local._api_key == "not-needed"  # the OpenAI key is never sent to another server
    paired = resolve("openai-compatible:llama", env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
                                                     "OPENAI_API_KEY": "sk-paired-key-1234"})
    assert paired.base_url == "http://127.0.0.1:9/v1" and paired._api_key == "sk-paired-key-1234"  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="OPENAI_BASE_URL"):
        resolve("openai-compatible:llama", env={})


def test_network_switch_refuses_remote_urls_before_any_request() -> None:
    model = resolve("openai:gpt-4.1", env={"OPENAI_API_KEY": "sk-x-123456789"})
    with pytest.raises(ConfigError, match="CMBAGENT_BLOCK_NETWORK"):
        model.request(ModelRequest(messages=[Message(role="user", content="hi")]))
    assert model._client is None  # type: ignore[attr-defined]  # refused before the SDK was even set up
    remote = resolve("openai-compatible:m@http://10.1.2.3:8000/v1", env={})
    with pytest.raises(ConfigError, match=r"10\.1\.2\.3"):
        remote.request(ModelRequest(messages=[Message(role="user", content="hi")]))


def test_replay_spec_needs_an_existing_transcript(tmp_path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        resolve(f"replay:{tmp_path / 'missing.jsonl'}")
    path = tmp_path / "t.jsonl"
    path.write_text("")
    assert isinstance(resolve(f"replay:{path}"), ReplayModel)


def test_default_model_follows_configured_keys() -> None:
    assert default_model_spec({}) == "offline"
    assert default_model_spec({"ANTHROPIC_API_KEY": "k"}).startswith("anthropic:")
    assert default_model_spec({"OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k"}).startswith("openai:")


def test_configured_providers_never_reveal_values() -> None:
    rows = configured_providers({"OPENAI_API_KEY": "sk-secret-value-1"})
    by_name = {row["provider"]: row for row in rows}
    assert by_name["openai"]["is_set"] is True and by_name["anthropic"]["is_set"] is False
    assert by_name["anthropic"]["env_var"] == "ANTHROPIC_API_KEY"
    assert "sk-secret-value-1" not in repr(rows)


def test_importing_and_resolving_loads_no_vendor_sdk() -> None:
    code = (
        "import sys, cmbagent.models as m\n"
        "m.resolve('openai:gpt-4.1', env={'OPENAI_API_KEY': 'k'})\n"
        "m.resolve('anthropic:claude-sonnet-4-5', env={'ANTHROPIC_API_KEY': 'k'})\n"
        "import cmbagent.cli\n"
        "print(sorted(n for n in ('openai', 'anthropic') if n in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
