"""One tiny call to check that a spec works end to end (``cmbagent models ping``, ``doctor --ping``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cmbagent.models._pricing import cost_usd
from cmbagent.models._protocol import Message, Model, ModelRequest, ModelSettings
from cmbagent.models._providers import get_provider
from cmbagent.models._specs import parse_spec, resolve
from cmbagent.models._transcript import read_transcript

__all__ = ["PING_PROMPT", "ping"]

PING_PROMPT = "Reply with the single word: pong"


def ping(
    spec: str,
    *,
    env: Mapping[str, str] | None = None,
    api_keys: Mapping[str, str] | None = None,
    models: Mapping[str, Model] | None = None,
    max_retries: int | None = None,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Make one short call through ``spec`` and report model id, latency, usage and cost.

    Raises the typed errors of the call (``ConfigError`` for a bad spec or missing key, ``ModelHTTPError``
    or ``ModelConnectionError`` after the retries).  Providers that make no call (``offline``, ``replay:``)
    report what they would serve (a transcript's provider, how many calls it recorded).
    """
    if not (models and spec in models):
        parsed = parse_spec(spec)
        provider = get_provider(parsed.provider)
        if provider is not None and not provider.pings:
            model = resolve(spec, env=env)
            note = f"the {provider.name} backend makes no model call"
            if provider.serves_transcript:
                note = f"transcript with {sum(1 for _ in read_transcript(parsed.model))} recorded calls"
            return {"ok": True, "spec": model.spec or parsed.spec, "model": provider.name, "latency_s": 0.0,
                    "usage": {"input_tokens": 0, "output_tokens": 0, "cached_tokens": 0}, "cost_usd": 0.0,
                    "reply": "", "note": note}
    model = resolve(spec, env=env, api_keys=api_keys, models=models, max_retries=max_retries, timeout=timeout)
    request = ModelRequest(
        messages=[Message(role="user", content=PING_PROMPT)],
        settings=ModelSettings(max_tokens=16, timeout=timeout),
        agent="ping",
    )
    try:
        response = model.request(request)
    finally:
        close = getattr(model, "close", None)
        if callable(close) and not (models and spec in models):
            close()
    return {
        "ok": True,
        "spec": model.spec or spec,
        "model": response.model,
        "latency_s": round(response.latency_s, 4),
        "usage": response.usage.model_dump(),
        "cost_usd": cost_usd(model.spec or spec, response.usage, model_id=response.model),
        "reply": response.text[:200],
    }
