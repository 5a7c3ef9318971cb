"""`cmbagent models` and `cmbagent models ping` against the fake server, for both wire formats."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cmbagent.cli import app
from tests.fakes import FakeLLMServer, Slow, Status, Text
from tests.models._backends import KEYS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SPECS = {"openai": "openai:gpt-4.1", "anthropic": "anthropic:claude-sonnet-4-5"}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    with FakeLLMServer() as fake:
        monkeypatch.setenv("OPENAI_API_KEY", KEYS["OPENAI_API_KEY"])
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEYS["ANTHROPIC_API_KEY"])
        monkeypatch.setenv("OPENAI_BASE_URL", fake.openai_url)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.anthropic_url)
        yield fake


def invoke(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
def test_ping_succeeds_within_retries_of_a_burst(wire: str, server: FakeLLMServer) -> None:
    server.push(Status(429, retry_after=0.05), Status(500, retry_after=0.05), Slow(0.2, Status(503, retry_after=0.05)),
                Text("pong", input_tokens=11, output_tokens=2))
    result = invoke("models", "ping", SPECS[wire], "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert info["ok"] is True and info["model"] == SPECS[wire].split(":")[1] and info["reply"] == "pong"
    assert info["usage"] == {"input_tokens": 11, "output_tokens": 2, "cached_tokens": 0}
    assert info["cost_usd"] > 0 and info["latency_s"] > 0
    assert len(server.requests) == 4
    assert KEYS["OPENAI_API_KEY"] not in result.output and KEYS["ANTHROPIC_API_KEY"] not in result.output


@pytest.mark.parametrize("wire", ["openai", "anthropic"])
def test_ping_fails_with_the_typed_error_when_the_server_never_recovers(wire: str, server: FakeLLMServer) -> None:
    server.default = Status(500, retry_after=0.02, message="upstream exploded")
    result = invoke("models", "ping", SPECS[wire], "--retries", "2")
    assert result.exit_code == 1
    assert "ModelHTTPError" in result.stderr and "HTTP 500 after 2 retries" in result.stderr
    assert len(server.requests) == 3
    as_json = invoke("models", "ping", SPECS[wire], "--retries", "0", "--json")
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["status_code"] == 500


def test_ping_openai_compatible_text_output(server: FakeLLMServer) -> None:
    result = invoke("models", "ping", f"openai-compatible:tiny@{server.openai_url}")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ok  openai-compatible:tiny@") and "cost=$0.000000" in result.stdout


@pytest.mark.parametrize("spec", ["gpt-4.1", "nonsense:model", "openai-compatible:"])
def test_ping_malformed_spec_is_a_usage_error(spec: str) -> None:
    result = invoke("models", "ping", spec)
    assert result.exit_code == 2
    assert "Valid forms" in result.stderr


def test_ping_missing_key_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = invoke("models", "ping", "anthropic:claude-sonnet-4-5")
    assert result.exit_code == 2 and "ANTHROPIC_API_KEY" in result.stderr


def test_models_lists_providers_and_routing(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cmbagent.toml").write_text('[models.agents]\nplanner = "openai:o3"\n')
    monkeypatch.setenv("OPENAI_API_KEY", "sk-list-test-123456789")
    result = invoke("models", "--json")
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    assert info["routing"]["default"] == "openai:gpt-4.1" and info["routing"]["agents"] == {"planner": "openai:o3"}
    assert "sk-list-test" not in result.stdout
    text = invoke("models")
    assert "openai" in text.stdout and "[OPENAI_API_KEY set]" in text.stdout and "agent planner: openai:o3" in text.stdout
    resolved = invoke("models", "resolve", "openai:gpt-4.1-2025-04-14", "--json")
    assert json.loads(resolved.stdout)["price_per_million"]["output"] == 8.0
