"""Parameters the data did not measure: posteriors that are the prior, and parameters the likelihood cannot
constrain by construction.

``param.unconstrained`` compares each reported posterior with its flat prior: as wide as the prior means the data
said nothing; a posterior piled against a bound means the bound, not the data, sets that side.  Either is a
result, stated in the report (``evidence["answer"]``: "wa is unconstrained by these data ..."), never a failure;
only a narrative that quotes such a number as a measurement is wrong (``report.unconstrained_as_measurement``).
``param.prior_dominated``: a Gaussian prior carries the posterior (the data-alone value and how much the data
narrow the prior are the answer).  ``param.prior_shift``: a Gaussian prior
narrow enough to move the posterior by a data-only standard deviation or more (what the data alone say is
recovered in the Gaussian approximation, :func:`data_alone`) — the value is partly the prior's, and a referee
asks for the data-only number and whether the two agree.  ``param.degenerate`` reads what the
method declares it cannot constrain (``diagnostics["not_constrained"]``: e.g. H0 from supernova magnitudes with
a free absolute magnitude) and its sampled nuisances (``diagnostics["nuisance"]``), and flags them when they
are reported as values or asked for by the task.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from cmbagent.audits._evidence import RunEvidence, StepEvidence
from cmbagent.audits._registry import finding, run_audit, step_audit
from cmbagent.state import Finding, Severity

__all__ = ["data_alone", "prior_of", "requested"]

WIDE_UNIFORM = 0.5  # posterior std / prior std for a uniform prior (a posterior half the prior's width)
WIDE_GAUSSIAN = 0.8  # posterior std / prior std for a Gaussian prior: the prior carries the posterior
SHIFT = 1.0  # how far (in data-only standard deviations) a Gaussian prior may move a posterior unremarked
EDGE = 0.02  # fraction of the prior width that counts as "at the bound"


_REQUEST = re.compile(r"\b(measure|estimat|determin|report|constrain|infer|deriv|obtain|fit\b|fitting|give|"
                      r"what is|find)", re.I)
_HEDGE = re.compile(r"\b(degenera|marginali[sz]|nuisance|fixed|assum|without|cannot|not\b|free absolute)", re.I)
_ALIASES = {"H0": r"\bH_?0\b|\bHubble constant\b|\bHubble parameter today\b"}


def prior_of(name: str, value: dict[str, Any], priors: dict[str, Any]) -> tuple[str, float, float] | None:
    """``("uniform", lo, hi)`` or ``("gaussian", mean, sigma)`` for a parameter, when its prior is known."""
    raw = priors.get(name)
    if isinstance(raw, (list, tuple)) and len(raw) == 2 and all(isinstance(v, (int, float)) for v in raw):
        lo, hi = float(raw[0]), float(raw[1])
        return ("uniform", lo, hi) if hi > lo else None
    if isinstance(raw, dict):
        for key in ("gaussian", "normal"):
            pair = raw.get(key)
            if isinstance(pair, (list, tuple)) and len(pair) == 2:
                return "gaussian", float(pair[0]), float(pair[1])
        mean = raw.get("mean", raw.get("mu"))
        sigma = raw.get("std", raw.get("sigma"))
        if isinstance(mean, (int, float)) and isinstance(sigma, (int, float)) and sigma > 0:
            return "gaussian", float(mean), float(sigma)
        bounds = raw.get("bounds", raw.get("uniform"))
        if isinstance(bounds, (list, tuple)) and len(bounds) == 2:
            return "uniform", float(bounds[0]), float(bounds[1])
    width, sd = value.get("prior_width"), value.get("prior_std")
    if isinstance(width, (int, float)) and width > 0:
        centre = value.get("mean", 0.0)
        return "uniform", float(centre) - width / 2, float(centre) + width / 2
    if isinstance(sd, (int, float)) and sd > 0:
        return "gaussian", float(value.get("prior_mean", value.get("mean", 0.0))), float(sd)
    return None


def data_alone(mean: float, std: float, prior_mean: float, prior_std: float) -> tuple[float, float] | None:
    """What the data alone say, in the Gaussian approximation: a posterior N(mean, std) that is the product of
    the likelihood and a prior N(prior_mean, prior_std) has the likelihood's precision 1/std² − 1/prior_std²
    and mean (mean/std² − prior_mean/prior_std²) / that precision.  None when the posterior is not narrower
    than the prior (the data add nothing measurable)."""
    precision = 1.0 / std**2 - 1.0 / prior_std**2
    if not precision > 0:
        return None
    centre = (mean / std**2 - prior_mean / prior_std**2) / precision
    return centre, precision**-0.5


@step_audit("param.prior_dominated", "param.prior_shift", "param.unconstrained")
def prior_dominated(ev: StepEvidence) -> Iterator[Finding]:
    """What the prior does to each reported posterior, stated as part of the answer (``evidence["answer"]``):
    a Gaussian prior that carries the posterior (the data-alone estimate and how much the data narrow it), one
    that moves it, and a flat prior the posterior fills or leans on (the parameter is unconstrained by these
    data, with its bound).  None of these is an error: a value the data cannot give is a result to state."""
    priors = {**ev.section("priors"), **ev.section("gaussian_priors")}  # a Gaussian prior over its flat range
    for name, value in ev.values.items():
        if not isinstance(value, dict):
            continue
        std, mean = value.get("std"), value.get("mean")
        if not isinstance(std, (int, float)) or not isinstance(mean, (int, float)) or not math.isfinite(std):
            continue
        prior = prior_of(name, value, priors)
        if prior is None:
            continue
        kind, a, b = prior
        if kind == "gaussian":
            yield from _gaussian(name, mean, std, a, b)
            continue
        width = b - a
        ratio = std / (width / math.sqrt(12.0))
        low95, high95 = value.get("lower_95"), value.get("upper_95")
        span = (f"its 95% interval [{low95:.3g}, {high95:.3g}]" if isinstance(low95, (int, float))
                and isinstance(high95, (int, float)) else f"its posterior {mean:.3g} ± {std:.2g}")
        if ratio >= WIDE_UNIFORM:
            answer = (f"{name} is not constrained by these data within its flat prior [{a:g}, {b:g}]: {span} fills "
                      f"{min(ratio, 1.0):.0%} of the prior's width, so its value reflects the prior, not the data")
            yield finding("param.unconstrained",
                          f"{name}: posterior std {std:.4g} is {ratio:.2f} of its flat prior's [{a:g}, {b:g}]; the "
                          "data do not constrain it and the reported value reflects the prior",
                          parameter=name, ratio=round(ratio, 3), prior=[a, b], answer=answer,
                          interval=[low95, high95] if isinstance(low95, (int, float)) else None)
            continue
        near_low = isinstance(low95, (int, float)) and low95 - a < EDGE * width and mean - a < 2.5 * std
        near_high = isinstance(high95, (int, float)) and b - high95 < EDGE * width and b - mean < 2.5 * std
        if near_low or near_high:
            edge = a if near_low else b
            bound = (f"{name} < {high95:.3g}" if near_low else f"{name} > {low95:.3g}") + " (95%)"
            answer = (f"these data bound {name} on one side only: {bound}; the other side is the prior's bound "
                      f"{edge:g}, so quote the bound, not {mean:.3g} ± {std:.2g}")
            yield finding("param.unconstrained",
                          f"{name}: the posterior piles up against the prior bound {edge:g} (mean {mean:.4g}, "
                          f"std {std:.3g}); the bound, not the data, sets that side of the interval",
                          parameter=name, bound=edge, prior=[a, b], answer=answer, one_sided=bound)


def _gaussian(name: str, mean: float, std: float, a: float, b: float) -> Iterator[Finding]:
    ratio = std / b
    alone = data_alone(mean, std, a, b) if std > 0 else None
    narrowing = b / std if std > 0 else math.inf
    said = (f"the data alone give ≈ {alone[0]:.4g} ± {alone[1]:.2g} (Gaussian approximation)"
            if alone is not None else "the data alone add nothing measurable")
    answer = (f"{name} = {mean:.4g} ± {std:.2g} with the prior N({a:g}, {b:g}); {said}; the data narrow the "
              f"prior's σ by a factor {narrowing:.2f}")
    evidence: dict[str, Any] = {"parameter": name, "prior": ["gaussian", a, b], "answer": answer,
                                "narrowing": round(narrowing, 3),
                                "data_alone": [round(alone[0], 6), round(alone[1], 6)] if alone else None}
    if ratio >= WIDE_GAUSSIAN:
        yield finding("param.prior_dominated",
                      f"{name}: posterior std {std:.4g} is {ratio:.2f} of its Gaussian prior's ({b:.4g}); the data "
                      f"barely move it, so the reported value is mostly the prior's; {said}",
                      ratio=round(ratio, 3), **evidence)
        return
    if alone is not None and abs(mean - alone[0]) >= SHIFT * alone[1]:
        shift, tension = abs(mean - alone[0]) / alone[1], abs(alone[0] - a) / math.hypot(alone[1], b)
        yield finding("param.prior_shift",
                      f"{name}: the Gaussian prior N({a:g}, {b:g}) moves the posterior to {mean:.4g} ± {std:.2g}, "
                      f"{shift:.1f}σ from what the data alone give (≈ {alone[0]:.4g} ± {alone[1]:.2g}, Gaussian "
                      f"approximation); prior and data differ by {tension:.1f}σ",
                      shift_sigma=round(shift, 2), tension_sigma=round(tension, 2), **evidence)


def requested(text: str, parameter: str) -> bool:
    """Whether the task asks for ``parameter`` (a sentence that requests it and does not hedge about it)."""
    pattern = _ALIASES.get(parameter, rf"\b{re.escape(parameter)}\b")
    for sentence in re.split(r"(?<=[.!?;])\s+|\n+", text):
        if re.search(pattern, sentence) and _REQUEST.search(sentence) and not _HEDGE.search(sentence):
            return True
    return False


@step_audit("param.degenerate")
def degenerate(ev: StepEvidence) -> Iterator[Finding]:
    for name, entry in ev.section("not_constrained").items():
        reason = entry.get("reason", "") if isinstance(entry, dict) else str(entry)
        severity = Severity(entry.get("severity", "warning")) if isinstance(entry, dict) else Severity.WARNING
        severity = Severity.WARNING if severity is Severity.ERROR else severity  # a result, never a failure
        answer = f"{name} cannot be measured from these data: {reason}"
        if name in ev.values:
            yield finding("param.degenerate", f"{name} is reported, but these data cannot constrain it: {reason}",
                          severity=severity, parameter=name, reported=True, answer=answer)
        elif requested(ev.task_text, name):
            yield finding("param.degenerate", f"the task asks for {name}, which these data cannot constrain: {reason}",
                          severity=severity, parameter=name, requested=True, answer=answer)
    for name, reason in ev.section("nuisance").items():
        if name in ev.values:
            yield finding("param.degenerate", f"{name} is a sampled nuisance parameter, not a measurement: {reason}",
                          severity=Severity.WARNING, parameter=name, nuisance=True,
                          answer=f"{name} is a nuisance parameter of the fit, not a measurement",
                          settle=f"Report {name} as a nuisance parameter (or leave it out of the results).")


_HEDGED = re.compile(r"\b(?:unconstrain\w*|not constrain\w*|cannot|can't|could not|prior|bound|upper limit|lower limit|"
                     r"one[- ]sided|degenera\w*|nuisance|not (?:a )?measur\w*|limit)\b|[<>≤≥]", re.I)


@run_audit("report.unconstrained_as_measurement")
def unconstrained_as_measurement(ev: RunEvidence) -> Iterator[Finding]:
    """A narrative sentence that quotes a number for a parameter the audits found unconstrained (or not
    measurable) without saying so: the one way such a result becomes wrong."""
    flagged = {str(f.evidence.get("parameter")): f for f in ev.findings
               if f.code in {"param.unconstrained", "param.degenerate"} and f.evidence.get("parameter")
               and not f.evidence.get("nuisance")}
    if not flagged:
        return
    draft = ev.draft
    texts = [("summary", draft.summary), *((f"conclusion {n}", c) for n, c in enumerate(draft.conclusions, 1))]
    for where, text in texts:
        for sentence in re.split(r"(?<=[.!?;])\s+|\n+", text):
            for name, source in flagged.items():
                pattern = _ALIASES.get(name, rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
                mention = re.search(pattern, sentence)
                if mention is None or not re.match(r"\s*(?:=|:|≈|~|is|was|of|at|equals|measured at)\s*[-+−]?\d",
                                                   sentence[mention.end():]):
                    continue  # "wa = -0.51 ± 1.2" quotes a value; "tau ... wa 13.6" quotes a check
                if _HEDGED.search(sentence):
                    continue
                yield finding("report.unconstrained_as_measurement",
                              f"the report's {where} quotes {name} as a measurement (“{sentence.strip()[:200]}”), "
                              f"but {source.evidence.get('answer') or source.message}", parameter=name, where=where)
