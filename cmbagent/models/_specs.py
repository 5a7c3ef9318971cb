"""Model spec strings (``provider:model``), resolved lazily into :class:`Model` adapters.

A spec names a wire format and a model; resolving it checks the spec and that a key is configured, but
imports no vendor SDK and opens no connection (the adapter does that at its first request).  Keys come
only from the environment or from an injected ``api_keys`` mapping (the UI passes a browser-session key);
they are held in memory by the adapter and never written anywhere.

Valid forms::

    openai:<model>                          OPENAI_API_KEY (OPENAI_BASE_URL honoured)
    anthropic:<model>                       ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL honoured)
    openai-compatible:<model>@<base_url>    Ollama, vLLM, llama.cpp server, LM Studio, ...
    openai-compatible:<model>               base URL from OPENAI_BASE_URL
    replay:<transcript.jsonl>               serve a recorded run's responses, in order, with no network
    offline                                 the deterministic no-LLM backend

Tests inject ready :class:`Model` instances by name through ``models=`` (see :class:`Routing`).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cmbagent.exceptions import ConfigError
from cmbagent.models._protocol import Model

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT_S",
    "PROVIDERS",
    "SPEC_FORMS",
    "ParsedSpec",
    "configured_providers",
    "default_model_spec",
    "ensure_network_allowed",
    "parse_spec",
    "resolve",
]

#: SDK retries (429, 5xx, timeouts, dropped connections; Retry-After honoured) before a typed error.
DEFAULT_MAX_RETRIES = 4
#: seconds per HTTP request; local models on a CPU can be slow, so this is generous.
DEFAULT_TIMEOUT_S = 300.0

SPEC_FORMS = (
    "openai:<model>",
    "anthropic:<model>",
    "openai-compatible:<model>@<base_url>",
    "openai-compatible:<model> (with OPENAI_BASE_URL set)",
    "replay:<transcript.jsonl>",
    "offline",
)

#: provider -> (key variable or None, one-line description, example spec)
PROVIDERS: dict[str, tuple[str | None, str, str]] = {
    "openai": ("OPENAI_API_KEY", "OpenAI chat completions", "openai:gpt-4.1"),
    "anthropic": ("ANTHROPIC_API_KEY", "Anthropic messages", "anthropic:claude-sonnet-4-5"),
    "openai-compatible": (
        None,
        "local or self-hosted OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio)",
        "openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1",
    ),
    "replay": (None, "replays a recorded transcript.jsonl, no network", "replay:workspaces/<run>/transcript.jsonl"),
    "offline": (None, "deterministic no-LLM backend (method catalogue, front matter)", "offline"),
}

_DEFAULTS_BY_KEY = (("OPENAI_API_KEY", "openai:gpt-4.1"), ("ANTHROPIC_API_KEY", "anthropic:claude-sonnet-4-5"))
#: the cheapest current model per hosted provider, used by ``cmbagent doctor --ping``
_PING_SPECS = {"openai": "openai:gpt-4.1-nano", "anthropic": "anthropic:claude-haiku-4-5"}


@dataclass(frozen=True)
class ParsedSpec:
    """A syntactically valid spec: ``provider``, ``model`` (or transcript path) and optional ``base_url``."""

    provider: str
    model: str
    base_url: str | None = None

    @property
    def spec(self) -> str:
        if self.provider == "offline":
            return "offline"
        suffix = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}:{self.model}{suffix}"


def _spec_error(spec: str, why: str) -> ConfigError:
    forms = "\n  ".join(SPEC_FORMS)
    return ConfigError(f"model spec {spec!r}: {why}. Valid forms:\n  {forms}")


def parse_spec(spec: str) -> ParsedSpec:
    """Check a spec's syntax (no key lookup, no import); raise :class:`ConfigError` listing the valid forms."""
    text = spec.strip() if isinstance(spec, str) else ""
    if not text:
        raise _spec_error(str(spec), "empty")
    if text == "offline":
        return ParsedSpec("offline", "offline")
    provider, sep, rest = text.partition(":")
    if not sep:
        raise _spec_error(text, "missing 'provider:' prefix")
    if provider not in PROVIDERS or provider == "offline":
        raise _spec_error(text, f"unknown provider {provider!r}")
    rest = rest.strip()
    if provider == "openai-compatible":
        model, at, base_url = rest.rpartition("@")
        if at and base_url.startswith(("http://", "https://")):
            if not model:
                raise _spec_error(text, "no model name before '@'")
            return ParsedSpec(provider, model, base_url.rstrip("/"))
        model = rest
    else:
        model = rest
    if not model:
        raise _spec_error(text, "no model name after the provider")
    return ParsedSpec(provider, model)


def default_model_spec(env: Mapping[str, str] | None = None) -> str:
    """The model used when none is configured: the first provider with a key, else ``offline``."""
    env = os.environ if env is None else env
    for variable, spec in _DEFAULTS_BY_KEY:
        if env.get(variable):
            return spec
    return "offline"


def configured_providers(env: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Which providers have their key variable set (for ``cmbagent doctor``); never reveals values.

    Each row: ``provider``, ``env_var``, ``is_set`` (``None`` when no variable applies), ``description``,
    ``example`` and ``ping_spec`` (a cheap spec to ping, or ``None``).
    """
    env = os.environ if env is None else env
    rows: list[dict[str, Any]] = []
    for provider, (variable, description, example) in PROVIDERS.items():
        row: dict[str, Any] = {"provider": provider, "env_var": variable, "description": description,
                               "example": example, "ping_spec": _PING_SPECS.get(provider)}
        if variable is None:
            row["is_set"] = None
        else:
            row["is_set"] = bool(env.get(variable))
        if provider == "openai-compatible":
            row["env_var"] = "OPENAI_BASE_URL"
            row["is_set"] = bool(env.get("OPENAI_BASE_URL"))
        rows.append(row)
    return rows


def _is_loopback_host(host: str) -> bool:
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0]).is_loopback
    except ValueError:
        return False


def ensure_network_allowed(url: str, env: Mapping[str, str] | None = None) -> None:
    """Refuse a non-loopback ``url`` while ``CMBAGENT_BLOCK_NETWORK=1`` (set by the test suite).

    A second guard besides the socket guard of ``tests/conftest.py``: it fires before any request.
    """
    flags = {os.environ.get("CMBAGENT_BLOCK_NETWORK", "")}
    if env is not None:
        flags.add(env.get("CMBAGENT_BLOCK_NETWORK", ""))
    if "1" not in flags:
        return
    host = urlsplit(url).hostname or ""
    if not _is_loopback_host(host):
        raise ConfigError(
            f"CMBAGENT_BLOCK_NETWORK=1 forbids model calls to {url}; point the base URL at a local "
            "server (127.0.0.1) or unset CMBAGENT_BLOCK_NETWORK"
        )


def _key(variable: str, provider: str, env: Mapping[str, str], api_keys: Mapping[str, str] | None) -> str:
    if api_keys and api_keys.get(provider):
        return api_keys[provider]
    value = env.get(variable, "")
    if not value:
        raise ConfigError(
            f"no API key for {provider}: set the environment variable {variable} "
            f"(or choose another model with --model, e.g. 'offline')"
        )
    return value


def resolve(
    spec: str,
    *,
    env: Mapping[str, str] | None = None,
    api_keys: Mapping[str, str] | None = None,
    models: Mapping[str, Model] | None = None,
    max_retries: int | None = None,
    timeout: float | None = None,
    replay_lenient: bool = False,
) -> Model:
    """Turn a spec into a :class:`Model` without importing a vendor SDK or touching the network.

    Args:
        spec: A model spec (see the module docstring) or a name in ``models``.
        env: Where keys and base URLs are read from (default ``os.environ``).
        api_keys: Keys by provider (``{"openai": "..."}``) that take precedence over ``env``.
        models: Ready instances by name; a spec equal to a name resolves to that instance (tests use this
            to route agents to a :class:`ScriptedModel`).
        max_retries: SDK retries before a typed error (default :data:`DEFAULT_MAX_RETRIES`).
        timeout: Seconds per HTTP request (default :data:`DEFAULT_TIMEOUT_S`).
        replay_lenient: For ``replay:``, warn and continue on divergence instead of raising.
    """
    if models and spec in models:
        return models[spec]
    env = os.environ if env is None else env
    parsed = parse_spec(spec)
    retries = DEFAULT_MAX_RETRIES if max_retries is None else max_retries
    seconds = DEFAULT_TIMEOUT_S if timeout is None else timeout
    model: Model
    if parsed.provider == "offline":
        from cmbagent.models.offline import OfflineModel

        model = OfflineModel()
    elif parsed.provider == "openai":
        from cmbagent.models.openai import OpenAIModel

        model = OpenAIModel(
            parsed.model,
            api_key=_key("OPENAI_API_KEY", "openai", env, api_keys),
            base_url=env.get("OPENAI_BASE_URL") or "https://api.openai.com/v1",
            max_retries=retries,
            timeout=seconds,
        )
    elif parsed.provider == "anthropic":
        from cmbagent.models.anthropic import AnthropicModel

        model = AnthropicModel(
            parsed.model,
            api_key=_key("ANTHROPIC_API_KEY", "anthropic", env, api_keys),
            base_url=env.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com",
            max_retries=retries,
            timeout=seconds,
        )
    elif parsed.provider == "openai-compatible":
        from cmbagent.models.openai_compatible import OpenAICompatibleModel

        base_url = parsed.base_url
        key = (api_keys or {}).get("openai-compatible") or env.get("OPENAI_COMPATIBLE_API_KEY", "")
        if base_url is None:
            base_url = env.get("OPENAI_BASE_URL", "").rstrip("/")
            if not base_url:
                raise _spec_error(spec, "no base URL: append '@http://host:port/v1' or set OPENAI_BASE_URL")
            # the user paired OPENAI_BASE_URL with OPENAI_API_KEY themselves; never send that key elsewhere
            key = key or env.get("OPENAI_API_KEY", "")
        model = OpenAICompatibleModel(
            parsed.model, api_key=key or "not-needed", base_url=base_url, max_retries=retries, timeout=seconds
        )
    else:  # replay
        from cmbagent.models.replay import ReplayModel

        model = ReplayModel(parsed.model, lenient=replay_lenient)
    model.spec = parsed.spec
    return model
