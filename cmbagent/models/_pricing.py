"""Cost of a call from provider-reported usage and the price table in ``prices.toml``.

Token counts come from the provider (no local tokenizer: tiktoken downloads its encodings).  Which price
list applies is the provider table's ``pricing`` key; providers without one (local servers, ``offline``,
``replay``) and injected test models cost nothing.  A priced provider's model missing from the table costs
``None``, shown as "unknown", while its tokens still count.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from cmbagent.models._protocol import Usage
from cmbagent.models._providers import get_provider

__all__ = ["Price", "cost_usd", "price_for"]

@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cached: float


@lru_cache(maxsize=1)
def _table() -> dict[str, dict[str, Price]]:
    text = resources.files("cmbagent.models").joinpath("prices.toml").read_text(encoding="utf-8")
    raw = tomllib.loads(text)
    return {
        provider: {
            name: Price(float(row["input"]), float(row["output"]), float(row.get("cached", row["input"])))
            for name, row in models.items()
        }
        for provider, models in raw.items()
    }


def price_for(pricing: str, model: str) -> Price | None:
    """The price of ``model`` in the ``pricing`` section (exact id or longest listed prefix), or ``None``."""
    table = _table().get(pricing, {})
    if model in table:
        return table[model]
    best = ""
    for name in table:
        if model.startswith(name + "-") and len(name) > len(best):
            best = name
    return table[best] if best else None


def cost_usd(spec: str, usage: Usage, *, model_id: str = "") -> float | None:
    """USD cost of one call made through ``spec``; ``None`` when the price is unknown.

    ``usage.input_tokens`` counts every prompt token, cached ones included; the cached share is charged
    at the cached price.
    """
    name, sep, model = spec.partition(":")
    provider = get_provider(name) if sep else None
    if provider is None or provider.pricing is None:
        return 0.0
    price = price_for(provider.pricing, model) or (price_for(provider.pricing, model_id) if model_id else None)
    if price is None:
        return None
    cached = min(usage.cached_tokens, usage.input_tokens)
    fresh = usage.input_tokens - cached
    return (fresh * price.input + cached * price.cached + usage.output_tokens * price.output) / 1_000_000
