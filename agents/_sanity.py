"""Sanity findings that code can compute about a step's numbers.

They go into the critic's context (and the offline critic's verdict): a model should not have to notice a
NaN or a negative variance by reading JSON.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["sanity_issues"]

_STD_KEYS = ("std", "sigma", "stderr", "std_err", "se", "error", "err")


def _walk(values: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(values, dict):
        out: list[tuple[str, Any]] = []
        for key, value in values.items():
            out.extend(_walk(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(values, (list, tuple)) and len(values) <= 50:
        out = []
        for n, value in enumerate(values):
            out.extend(_walk(value, f"{prefix}[{n}]"))
        return out
    return [(prefix, values)]


def sanity_issues(values: dict[str, Any], diagnostics: dict[str, Any] | None = None) -> list[str]:
    """Problems any scientist would flag at once: non-finite numbers, negative spreads, inverted
    intervals, and posteriors as wide as their priors (the data did not constrain the parameter)."""
    issues: list[str] = []
    for name, value in _walk(values):
        if value is None and name:
            issues.append(f"{name} is missing or not finite (NaN/inf)")
        elif isinstance(value, float) and not math.isfinite(value):
            issues.append(f"{name} is not finite ({value})")
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            leaf = name.rsplit(".", 1)[-1].lower()
            if leaf in _STD_KEYS and value < 0:
                issues.append(f"{name} = {value} is a negative spread")
            if leaf in {"variance", "var"} and value < 0:
                issues.append(f"{name} = {value} is a negative variance")
    for name, value in _walk_dicts(values):
        lower, upper = value.get("lower_68"), value.get("upper_68")
        if isinstance(lower, (int, float)) and isinstance(upper, (int, float)) and lower > upper:
            issues.append(f"{name}: lower_68 ({lower}) is above upper_68 ({upper})")
        std, prior = value.get("std"), value.get("prior_width") or value.get("prior_std")
        if isinstance(std, (int, float)) and isinstance(prior, (int, float)) and prior > 0:
            # a uniform prior of width w has std w/sqrt(12); a posterior that wide learnt nothing
            ratio = std / (prior / math.sqrt(12) if "prior_width" in value else prior)
            if ratio > 0.9:
                issues.append(f"{name}: the posterior is as wide as its prior (ratio {ratio:.2f}); the data do not constrain it")
    diagnostics = diagnostics or {}
    acc = diagnostics.get("acceptance_fraction")
    if isinstance(acc, (int, float)) and not 0.05 <= acc <= 0.95:
        issues.append(f"MCMC acceptance fraction {acc:.3f} is outside [0.05, 0.95]; the chain is not mixing")
    return issues


def _walk_dicts(values: Any, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    out: list[tuple[str, dict[str, Any]]] = []
    if isinstance(values, dict):
        if prefix:
            out.append((prefix, values))
        for key, value in values.items():
            out.extend(_walk_dicts(value, f"{prefix}.{key}" if prefix else str(key)))
    return out
