"""Model spec strings (``provider:model``), resolved lazily into :class:`Model` adapters.

A spec names a provider of :mod:`cmbagent.models._providers` and a model; resolving it checks the spec
and that a key is configured, but imports no vendor SDK and opens no connection (the adapter does that at
its first request).  Keys come only from the environment or from an injected ``api_keys`` mapping (the
UI passes a browser-session key); they are held in memory by the adapter and never written anywhere.

The valid forms are the provider table's (``cmbagent models`` lists them)::

    openai:<model>                          OPENAI_API_KEY (OPENAI_BASE_URL honoured)
    anthropic:<model>                       ANTHROPIC_API_KEY (ANTHROPIC_BASE_URL honoured)
    openai-compatible:<model>@<base_url>    Ollama, vLLM, llama.cpp server, LM Studio, ...
    openai-compatible:<model>               base URL from OPENAI_BASE_URL
    local[:<path.gguf>]                     llama.cpp in this process (xllamacpp), SmolLM2 by default
    replay:<transcript.jsonl>               serve a recorded run's responses, in order, with no network
    offline                                 the deterministic no-LLM backend

Tests inject ready :class:`Model` instances by name through ``models=`` (see :class:`Routing`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from cmbagent.exceptions import ConfigError
from cmbagent.models._http import ensure_network_allowed
from cmbagent.models._protocol import Model
from cmbagent.models._providers import ParsedSpec, ProviderCall, get_provider, spec_forms

__all__ = [
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT_S",
    "ParsedSpec",
    "ensure_network_allowed",
    "parse_spec",
    "resolve",
    "spec_error",
]

#: retries (429, 5xx, timeouts, dropped connections; Retry-After honoured) before a typed error.
DEFAULT_MAX_RETRIES = 4
#: seconds per HTTP request; local models on a CPU can be slow, so this is generous.
DEFAULT_TIMEOUT_S = 300.0


def spec_error(spec: str, why: str) -> ConfigError:
    """A malformed-spec error that lists every valid form."""
    forms = "\n  ".join(spec_forms())
    return ConfigError(f"model spec {spec!r}: {why}. Valid forms:\n  {forms}")


def parse_spec(spec: str) -> ParsedSpec:
    """Check a spec's syntax (no key lookup, no import); raise :class:`ConfigError` listing the valid forms."""
    text = spec.strip() if isinstance(spec, str) else ""
    if not text:
        raise spec_error(str(spec), "empty")
    name, sep, rest = text.partition(":")
    provider = get_provider(name)
    if provider is None:
        raise spec_error(text, f"unknown provider {name!r}" if sep else "missing 'provider:' prefix")
    rest = rest.strip()
    if not sep:
        if provider.model == "required":
            raise spec_error(text, "no model name after the provider")
        return ParsedSpec(provider.name, provider.name if provider.model == "none" else "")
    if provider.model == "none":
        raise spec_error(text, f"{provider.name!r} takes no model name")
    if provider.takes_base_url:
        model, at, base_url = rest.rpartition("@")
        if at and base_url.startswith(("http://", "https://")):
            if not model:
                raise spec_error(text, "no model name before '@'")
            return ParsedSpec(provider.name, model, base_url.rstrip("/"))
    if not rest:
        raise spec_error(text, "no model name after the provider")
    return ParsedSpec(provider.name, rest)


def resolve(
    spec: str,
    *,
    env: Mapping[str, str] | None = None,
    api_keys: Mapping[str, str] | None = None,
    models: Mapping[str, Model] | None = None,
    max_retries: int | None = None,
    timeout: float | None = None,
    replay_lenient: bool = False,
    options: Mapping[str, Any] | None = None,
) -> Model:
    """Turn a spec into a :class:`Model` without importing a vendor SDK or touching the network.

    Args:
        spec: A model spec (see the module docstring) or a name in ``models``.
        env: Where keys and base URLs are read from (default ``os.environ``).
        api_keys: Keys by provider (``{"openai": "..."}``) that take precedence over ``env``.
        models: Ready instances by name; a spec equal to a name resolves to that instance (tests use this
            to route agents to a :class:`ScriptedModel`).
        max_retries: Retries before a typed error (default :data:`DEFAULT_MAX_RETRIES`).
        timeout: Seconds per HTTP request (default :data:`DEFAULT_TIMEOUT_S`).
        replay_lenient: For ``replay:``, warn and continue on divergence instead of raising.
        options: Adapter options from the configuration (``structured_output``).
    """
    if models and spec in models:
        return models[spec]
    parsed = parse_spec(spec)
    provider = get_provider(parsed.provider)
    if provider is None:  # pragma: no cover - parse_spec already checked
        raise spec_error(spec, f"unknown provider {parsed.provider!r}")
    call = ProviderCall(
        provider=provider,
        spec=parsed,
        env=os.environ if env is None else env,
        api_keys=dict(api_keys or {}),
        max_retries=DEFAULT_MAX_RETRIES if max_retries is None else max_retries,
        timeout=DEFAULT_TIMEOUT_S if timeout is None else timeout,
        options={**(options or {}), "replay_lenient": replay_lenient},
    )
    model = provider.factory(call)
    model.spec = parsed.spec
    return model
