"""Which model each agent uses, merged from a config file, the environment and CLI flags.

Precedence, lowest to highest (each key is taken from the highest source that sets it)::

    1. cmbagent.toml      [models] default = "...", retries = 4, timeout = 300, structured_output = "auto"
                          [models.tiers]  strong = "anthropic:claude-sonnet-4-5"
                          [models.agents] planner = "openai:gpt-4.1"
                          [models.max_tokens] default = 4096, strong = 8192, planner = 6000
                          [budget] usd = 2.0, tokens = 2_000_000, seconds = 3600
    2. environment        CMBAGENT_MODEL (the default), CMBAGENT_MODEL_<AGENT> (e.g. CMBAGENT_MODEL_PLANNER),
                          CMBAGENT_TIER_<TIER>, CMBAGENT_STRUCTURED_OUTPUT, CMBAGENT_BUDGET_USD|TOKENS|SECONDS
    3. CLI flags          --model SPEC, --agent-model AGENT=SPEC (repeatable), --budget-usd, --timeout ...

An agent then gets, in this order: its own override, its tier's model, the default.  So ``--model X``
replaces the default but keeps a config file's per-agent overrides (override those with --agent-model).
With no model configured anywhere the default is the first provider whose key is set
(``OPENAI_API_KEY`` -> ``openai:gpt-4.1``, ``ANTHROPIC_API_KEY`` -> ``anthropic:claude-sonnet-4-5``), else
``offline``.  Keys themselves are never part of routing or config files.

Every call is bounded: a request that sets no ``max_tokens`` gets its agent's, else its tier's, else the
default limit of :data:`DEFAULT_MAX_TOKENS` (each overridable in ``[models.max_tokens]``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cmbagent.config_file import CONFIG_FILENAME, load_config
from cmbagent.exceptions import ConfigError
from cmbagent.models._protocol import Model
from cmbagent.models._providers import default_model_spec
from cmbagent.models._specs import parse_spec, resolve

__all__ = ["CONFIG_FILENAME", "DEFAULT_MAX_TOKENS", "Routing", "load_config", "parse_agent_models"]

#: output-token limits by tier ("default" for agents without one); a plan or a code cell fits in "strong"
DEFAULT_MAX_TOKENS = {"default": 4096, "strong": 8192, "fast": 2048, "vision": 2048}


def parse_agent_models(items: Iterable[str] | Mapping[str, str] | None) -> dict[str, str]:
    """``["planner=anthropic:...", ...]`` (the --agent-model flag) -> ``{"planner": "anthropic:..."}``."""
    if items is None:
        return {}
    if isinstance(items, Mapping):
        return dict(items)
    out: dict[str, str] = {}
    for item in items:
        agent, sep, spec = item.partition("=")
        if not sep or not agent.strip() or not spec.strip():
            raise ConfigError(f"--agent-model {item!r}: expected AGENT=SPEC, e.g. planner=openai:gpt-4.1")
        out[agent.strip()] = spec.strip()
    return out


def _norm(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def _table(config: Mapping[str, Any], *keys: str) -> dict[str, Any]:
    node: Any = config
    for key in keys:
        node = node.get(key, {}) if isinstance(node, Mapping) else {}
    if not isinstance(node, Mapping):
        raise ConfigError(f"[{'.'.join(keys)}] in {CONFIG_FILENAME} must be a table")
    return dict(node)


@dataclass
class Routing:
    """The default model, per-tier and per-agent overrides, and injected model instances.

    ``models`` maps names to ready :class:`Model` instances: a spec equal to one of the names resolves to
    that instance.  This is how tests run the graph on a :class:`ScriptedModel`::

        Routing(default="scripted", models={"scripted": ScriptedModel(replies=[...])})
    """

    default: str = "offline"
    tiers: dict[str, str] = field(default_factory=dict)
    agents: dict[str, str] = field(default_factory=dict)
    models: dict[str, Model] = field(default_factory=dict)
    max_retries: int | None = None
    timeout: float | None = None
    #: where each setting came from ("config", "env", "cli", "default"), for `cmbagent models`
    sources: dict[str, str] = field(default_factory=dict)
    #: output-token limits by agent or tier name, over :data:`DEFAULT_MAX_TOKENS`
    max_tokens: dict[str, int] = field(default_factory=dict)
    #: force one structured-output mode on chat-completions servers ("auto": json_schema, then fallbacks)
    structured_output: str = "auto"

    def __post_init__(self) -> None:
        self.agents = {_norm(k): v for k, v in self.agents.items()}
        self.tiers = {_norm(k): v for k, v in self.tiers.items()}
        limits: dict[str, int] = {}
        for key, value in self.max_tokens.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"[models.max_tokens] {key} must be a positive integer, got {value!r}")
            limits[_norm(key)] = value
        self.max_tokens = limits
        named = [("default", self.default), *((f"tier:{k}", v) for k, v in self.tiers.items()),
                 *((f"agent:{k}", v) for k, v in self.agents.items())]
        for where, spec in named:
            if spec not in self.models:
                try:
                    parse_spec(spec)
                except ConfigError as exc:
                    origin = self.sources.get(where, "")
                    raise ConfigError(f"{where}{f' (from {origin})' if origin else ''}: {exc}") from exc

    @classmethod
    def from_sources(
        cls,
        *,
        config_file: str | os.PathLike[str] | None = None,
        config: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        model: str | None = None,
        agent_models: Iterable[str] | Mapping[str, str] | None = None,
        tiers: Mapping[str, str] | None = None,
        models: Mapping[str, Model] | None = None,
    ) -> Routing:
        """Merge config file < environment < arguments (see the module docstring)."""
        env = os.environ if env is None else env
        config = dict(config) if config is not None else load_config(config_file)
        section = _table(config, "models")
        default: str | None = None
        sources: dict[str, str] = {}
        merged_tiers: dict[str, str] = {}
        merged_agents: dict[str, str] = {}

        def put(target: dict[str, str], key: str, spec: Any, origin: str) -> None:
            kind = "tier" if target is merged_tiers else "agent"
            if not isinstance(spec, str):
                raise ConfigError(f"{kind} {key} ({origin}) must be a model spec string, got {spec!r}")
            target[_norm(key)] = spec
            sources[f"{kind}:{_norm(key)}"] = origin

        if section.get("default") is not None:
            default, sources["default"] = str(section["default"]), "config"
        for key, spec in _table(config, "models", "tiers").items():
            put(merged_tiers, key, spec, "config")
        for key, spec in _table(config, "models", "agents").items():
            put(merged_agents, key, spec, "config")

        for name, value in env.items():
            if not value:
                continue
            if name == "CMBAGENT_MODEL":
                default, sources["default"] = value, "env"
            elif name.startswith("CMBAGENT_MODEL_"):
                put(merged_agents, name.removeprefix("CMBAGENT_MODEL_"), value, "env")
            elif name.startswith("CMBAGENT_TIER_"):
                put(merged_tiers, name.removeprefix("CMBAGENT_TIER_"), value, "env")

        if model:
            default, sources["default"] = model, "cli"
        for key, spec in (tiers or {}).items():
            put(merged_tiers, key, spec, "cli")
        for key, spec in parse_agent_models(agent_models).items():
            put(merged_agents, key, spec, "cli")
        if default is None:
            default, sources["default"] = default_model_spec(env), "default"

        retries = section.get("retries")
        timeout = section.get("timeout")
        structured = env.get("CMBAGENT_STRUCTURED_OUTPUT") or section.get("structured_output") or "auto"
        return cls(
            default=default,
            tiers=merged_tiers,
            agents=merged_agents,
            models=dict(models or {}),
            max_retries=None if retries is None else int(retries),
            timeout=None if timeout is None else float(timeout),
            sources=sources,
            max_tokens=_table(config, "models", "max_tokens"),
            structured_output=str(structured),
        )

    def spec_for(self, agent: str = "", tier: str | None = None) -> str:
        """The spec for ``agent``: its override, else its tier's model, else the default."""
        if agent and _norm(agent) in self.agents:
            return self.agents[_norm(agent)]
        if tier and _norm(tier) in self.tiers:
            return self.tiers[_norm(tier)]
        return self.default

    def max_tokens_for(self, agent: str = "", tier: str | None = None) -> int:
        """The output-token limit for ``agent``: its own, else its tier's, else the default."""
        limits = {**DEFAULT_MAX_TOKENS, **self.max_tokens}
        for key in (_norm(agent) if agent else "", _norm(tier) if tier else ""):
            if key and key in limits:
                return limits[key]
        return limits["default"]

    def specs(self) -> list[str]:
        """Every distinct spec this routing can hand out."""
        return sorted({self.default, *self.tiers.values(), *self.agents.values()})

    def resolve(
        self,
        spec: str,
        *,
        env: Mapping[str, str] | None = None,
        api_keys: Mapping[str, str] | None = None,
        replay_lenient: bool = False,
    ) -> Model:
        """Resolve ``spec`` with this routing's injected models, retries and timeout."""
        return resolve(spec, env=env, api_keys=api_keys, models=self.models, max_retries=self.max_retries,
                       timeout=self.timeout, replay_lenient=replay_lenient,
                       options={"structured_output": self.structured_output})

    def to_dict(self) -> dict[str, Any]:
        return {"default": self.default, "tiers": dict(self.tiers), "agents": dict(self.agents),
                "injected": sorted(self.models), "sources": dict(self.sources),
                "max_tokens": {**DEFAULT_MAX_TOKENS, **self.max_tokens}, "structured_output": self.structured_output}
