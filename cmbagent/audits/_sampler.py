"""MCMC convergence from the chain's own diagnostics: length in autocorrelation times, split R-hat, effective
sample size, acceptance, and whether the sampler stopped at its step limit instead of its convergence rule.

Diagnostics are read from wherever the step put them (a method's ``diagnostics``, or a code step's printed
values) under the names the ecosystem uses (``tau``/``autocorr_time``, ``rhat``/``r_hat``, ``ess``), as a
number, a list or a per-parameter mapping.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import finding, step_audit
from cmbagent.state import Finding, Severity

__all__ = ["ACCEPTANCE", "ESS_MIN", "RHAT_MAX", "TAU_FACTOR"]

TAU_FACTOR, RHAT_MAX, ESS_MIN = 50.0, 1.01, 400.0
ACCEPTANCE = (0.05, 0.95)

_NAMES = {"tau": ("tau", "autocorr_time", "autocorrelation_time", "integrated_autocorr_time"),
          "rhat": ("rhat", "r_hat", "split_rhat", "gelman_rubin"),
          "ess": ("ess", "n_eff", "effective_sample_size"),
          "steps": ("n_steps", "chain_length", "iterations"),
          "acceptance": ("acceptance_fraction", "acceptance_rate", "acceptance")}


#: what a table of weights reports beside its effective sample size: a survey's, not a sampler's
_WEIGHTING = ("design_effect", "weighting", "kish_ess", "weight_trimming")


def _named(value: Any, name: str = "") -> list[tuple[str, float]]:
    """``(parameter, number)`` pairs from a number, a list or a per-parameter mapping."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [(name, float(value) if math.isfinite(value) else math.nan)]
    if isinstance(value, dict):
        return [pair for key, v in value.items() for pair in _named(v, str(key))]
    if isinstance(value, (list, tuple)) and len(value) <= 1000:
        return [pair for n, v in enumerate(value) for pair in _named(v, name or f"#{n}")]
    return []


def _find(sources: list[dict[str, Any]], kind: str) -> list[tuple[str, float]]:
    for source in sources:
        for name in _NAMES[kind]:
            if name in source:
                found = _named(source[name])
                if found:
                    return found
    return []


def _worst(pairs: list[tuple[str, float]], largest: bool) -> tuple[str, float]:
    nan = [p for p in pairs if math.isnan(p[1])]
    if nan:
        return nan[0]
    return max(pairs, key=lambda p: p[1]) if largest else min(pairs, key=lambda p: p[1])


def _of(name: str) -> str:
    return f" ({name})" if name and not name.startswith("#") else ""


@step_audit("sampler.not_converged")
def converged(ev: StepEvidence) -> Iterator[Finding]:
    sources = [ev.diagnostics, ev.values, *[v for v in ev.diagnostics.values() if isinstance(v, dict)
                                            and any(k in v for names in _NAMES.values() for k in names)]]
    tau, rhat, ess = _find(sources, "tau"), _find(sources, "rhat"), _find(sources, "ess")
    steps = [v for _, v in _find(sources, "steps")]
    if not (tau or rhat or ess):
        return  # not a sampler
    if not (tau or rhat or steps) and any(k in source for source in sources for k in _WEIGHTING):
        return  # Kish's effective sample size of survey weights (with their design effect), not a chain's
    reasons: list[str] = []
    facts: dict[str, Any] = {}
    if tau and steps:
        name, longest = _worst(tau, largest=True)
        facts.update(tau_max=longest, n_steps=steps[0])
        if math.isnan(longest) or steps[0] < TAU_FACTOR * longest:
            reasons.append(f"the chain is {steps[0]:g} steps long, shorter than {TAU_FACTOR:g} τ (τ = {longest:.3g}"
                           f"{_of(name).replace(' (', ' for ').rstrip(')')})")
    if rhat:
        name, worst = _worst(rhat, largest=True)
        facts["rhat_max"] = worst
        if math.isnan(worst) or worst > RHAT_MAX:
            reasons.append(f"split R-hat = {worst:.4f}{_of(name)} > {RHAT_MAX}")
    if ess:
        name, fewest = _worst(ess, largest=False)
        facts["ess_min"] = fewest
        if math.isnan(fewest) or fewest < ESS_MIN:
            reasons.append(f"effective sample size {fewest:.0f}{_of(name)} < {ESS_MIN:.0f}")
    limit = ev.arguments.get("max_steps")
    stopped = ev.diagnostics.get("converged") is False or (
        isinstance(limit, int) and steps and steps[0] >= limit and ev.diagnostics.get("converged") is not True)
    if stopped:
        facts["max_steps"] = limit
        reasons.append(f"the sampler stopped at its step limit (max_steps = {limit}) before its convergence rule held"
                       if limit else "the sampler reports it did not converge")
    acceptance = [v for _, v in _find([ev.diagnostics], "acceptance")]
    low, high = ACCEPTANCE
    if acceptance and not low <= sum(acceptance) / len(acceptance) <= high:
        facts["acceptance"] = sum(acceptance) / len(acceptance)
        reasons.append(f"mean acceptance fraction {facts['acceptance']:.3f} is outside [{low}, {high}]: "
                       "the chain is not mixing")
    if reasons:
        # a chain read from a file cannot be rerun by this step: its shortfall is a caveat, not a rejection
        given = ev.diagnostics.get("chain_source") == "file"
        yield finding("sampler.not_converged", "the MCMC chain has not converged: " + "; ".join(reasons)
                      + "; its posterior summaries are not reliable",
                      severity=Severity.WARNING if given else None,
                      settle=("Obtain a longer chain (or more walkers) from its authors or rerun the sampler; quote "
                              "only parameters whose chain is longer than 50 τ.") if given else None, **facts)
