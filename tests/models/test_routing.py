"""Routing and budget configuration: config file < environment < CLI flags; agent > tier > default."""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.exceptions import ConfigError
from cmbagent.models import Budget, Routing, ScriptedModel, load_config, parse_agent_models

CONFIG = """
[models]
default = "anthropic:claude-sonnet-4-5"
retries = 6
timeout = 42

[models.tiers]
strong = "openai:gpt-4.1"
fast = "openai:gpt-4.1-mini"

[models.agents]
planner = "anthropic:claude-opus-4-1"
code-reviewer = "openai:o3"

[budget]
usd = 2.5
tokens = 100000
"""


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "cmbagent.toml"
    path.write_text(CONFIG)
    return path


def test_config_file_alone(config_file: Path) -> None:
    routing = Routing.from_sources(config_file=config_file, env={})
    assert routing.spec_for("planner", "strong") == "anthropic:claude-opus-4-1"  # agent beats tier
    assert routing.spec_for("engineer", "strong") == "openai:gpt-4.1"  # tier beats default
    assert routing.spec_for("engineer", "unknown-tier") == "anthropic:claude-sonnet-4-5"
    assert routing.spec_for("code_reviewer") == "openai:o3"  # '-' and '_' name the same agent
    assert (routing.max_retries, routing.timeout) == (6, 42.0)


def test_environment_beats_config_and_flags_beat_environment(config_file: Path) -> None:
    env = {"CMBAGENT_MODEL": "openai:gpt-4o", "CMBAGENT_MODEL_PLANNER": "openai:gpt-5",
           "CMBAGENT_TIER_FAST": "openai:gpt-5-nano"}
    routing = Routing.from_sources(config_file=config_file, env=env)
    assert routing.spec_for("engineer") == "openai:gpt-4o"
    assert routing.spec_for("planner") == "openai:gpt-5"
    assert routing.spec_for("x", "fast") == "openai:gpt-5-nano"
    assert routing.sources["default"] == "env" and routing.sources["agent:planner"] == "env"

    flagged = Routing.from_sources(config_file=config_file, env=env, model="offline",
                                   agent_models=["planner=openai:o3", "engineer = openai:gpt-4.1"],
                                   tiers={"strong": "openai:o4-mini"})
    assert flagged.spec_for("planner") == "openai:o3"
    assert flagged.spec_for("engineer") == "openai:gpt-4.1"
    assert flagged.spec_for("critic", "strong") == "openai:o4-mini"
    assert flagged.spec_for("critic") == "offline"
    # --model replaces the default only; the config's other per-agent overrides stay
    assert flagged.spec_for("code-reviewer") == "openai:o3"
    assert flagged.sources["default"] == "cli"


def test_no_model_anywhere_defaults_to_offline_or_the_keyed_provider() -> None:
    assert Routing.from_sources(env={}).default == "offline"
    assert Routing.from_sources(env={"OPENAI_API_KEY": "k"}).default == "openai:gpt-4.1"


def test_bad_specs_and_flags_name_their_source(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"agent:planner \(from env\).*provider:"):
        Routing.from_sources(env={"CMBAGENT_MODEL_PLANNER": "gpt4"})
    with pytest.raises(ConfigError, match="AGENT=SPEC"):
        parse_agent_models(["planner"])
    bad = tmp_path / "bad.toml"
    bad.write_text("[models\ndefault = 1")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")


def test_injected_models_resolve_by_name() -> None:
    scripted = ScriptedModel(["hi"])
    routing = Routing.from_sources(env={}, model="scripted", agent_models={"planner": "other"},
                                   models={"scripted": scripted, "other": ScriptedModel(["yo"])})
    assert routing.resolve(routing.spec_for("engineer")) is scripted
    assert routing.resolve(routing.spec_for("planner")) is routing.models["other"]


def test_budget_precedence(config_file: Path) -> None:
    config = load_config(config_file)
    assert Budget.from_sources(config=config, env={}) == Budget(usd=2.5, tokens=100000)
    assert Budget.from_sources(config=config, env={"CMBAGENT_BUDGET_USD": "1.5", "CMBAGENT_BUDGET_SECONDS": "60"}) \
        == Budget(usd=1.5, tokens=100000, seconds=60)
    assert Budget.from_sources(config=config, env={"CMBAGENT_BUDGET_USD": "1.5"}, usd=0.25).usd == 0.25
    with pytest.raises(ConfigError, match="must be a number"):
        Budget.from_sources(env={"CMBAGENT_BUDGET_TOKENS": "lots"})
    with pytest.raises(ConfigError, match="positive"):
        Budget(usd=0)
