"""Audits that know what the task asked for.

An audit flags a condition — a posterior the prior dominates, rows a cut dropped, many specifications tried —
that is a mistake when nobody asked for it and the very point of the task when somebody did ("with the Planck
prior on Ω_m, how much do the supernovae add?", "keep only z > 0.02", "compare these five specifications").
:class:`Intent` is what the task asks for, read by code from its text and its checklist; :func:`with_intent`
marks each finding whose condition the task asked for (``asked``, with the task's words in ``intent``) and
caps its severity: an asked-for condition is a note (or a warning where it still limits the answer), never an
error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cmbagent.state import Finding, Requirement, Severity

__all__ = ["ASKED", "Intent", "with_intent"]

_PARAMETER_WORDS = {  # how prose writes common parameters (the task's words, not a method's)
    "Omega_m": r"(?:Ω|Omega|omega)_?\{?m\b|\bmatter density\b|\bO_?m\b",
    "Omega_de": r"(?:Ω|Omega)_?\{?(?:Λ|Lambda|de|DE)\b|\bdark[- ]energy density\b",
    "H0": r"\bH_?\{?0\}?\b|\bHubble constant\b",
    "w0": r"\bw_?\{?0\}?\b|\bequation of state\b",
    "wa": r"\bw_?\{?a\}?\b",
    "M": r"\babsolute magnitude\b|\bM_?B\b",
}
_CUT = re.compile(r"\b(?:only|keep(?:ing)?|restrict(?:ed|ing)? to|exclud\w*|drop(?:ping)?|remov\w*|cut|subsample|"
                  r"subset|above|below|at least|at most|greater than|less than)\b|[<>≤≥]", re.I)
_VARIANTS = re.compile(r"\b(?:compare|try|tried|several|each of|all of the|every one of|variants?|specifications?|"
                       r"alternatives?|sensitivity|robustness (?:check|analysis))\b", re.I)
_DIAGONAL = re.compile(r"\bdiagonal (?:errors|uncertainties|covariance)\b|\bwithout (?:the |a |any )?covariance\b|"
                       r"\bignor\w* (?:the )?(?:correlations|covariance)\b|\bstatistical errors only\b", re.I)


@dataclass(frozen=True)
class Intent:
    """What the task asks for, as far as the audits care: priors it names (parameter -> its words), the cuts
    it chooses, whether it asks to compare variants, whether it asks for diagonal errors."""

    text: str = ""
    priors: dict[str, str] = field(default_factory=dict)
    cuts: tuple[str, ...] = ()
    variants: str = ""
    diagonal: str = ""

    @classmethod
    def of(cls, text: str, requirements: Sequence[Requirement] = ()) -> Intent:
        """Read the intent from the task's text and its checklist (priors the reading mapped, numbers stated as
        priors or thresholds)."""
        priors: dict[str, str] = {}
        for item in requirements:
            if item.kind == "argument" and item.argument == "priors" and isinstance(item.value, dict):
                for name in item.value:
                    priors[str(name)] = item.text
        sentences = [s.strip() for s in re.split(r"(?<=[.!?;])\s+|\n\s*\n|\n\s*[-*]\s+", text) if s.strip()]
        for sentence in sentences:
            if not re.search(r"\bpriors?\b|\bfrom (?:Planck|the CMB|BBN|SH0ES|another experiment)\b", sentence, re.I):
                continue
            for name, pattern in _PARAMETER_WORDS.items():
                if re.search(pattern, sentence, re.I):
                    priors.setdefault(name, sentence)
        cuts = [s for s in sentences if _CUT.search(s) and re.search(r"\d", s)]
        cuts += [item.text for item in requirements if item.kind == "number" and item.quantity == "threshold"]
        variants = next((s for s in sentences if _VARIANTS.search(s)), "")
        diagonal = next((s for s in sentences if _DIAGONAL.search(s)), "")
        return cls(text=text, priors=priors, cuts=tuple(dict.fromkeys(cuts)), variants=variants, diagonal=diagonal)


def _prior(finding: Finding, intent: Intent) -> str | None:
    parameter = str(finding.evidence.get("parameter") or "")
    prior = finding.evidence.get("prior")
    gaussian = isinstance(prior, list) and prior[:1] == ["gaussian"]
    return intent.priors.get(parameter) if gaussian else None


#: per finding code: the task's words that asked for its condition, or None
ASKED: dict[str, Callable[[Finding, Intent], str | None]] = {
    "param.prior_dominated": _prior,
    "param.prior_shift": _prior,
    "data.rows_dropped": lambda finding, intent: intent.cuts[0] if intent.cuts else None,
    "analysis.specification_search": lambda finding, intent: intent.variants or None,
    "fit.chi2_low": lambda finding, intent: intent.diagonal or None,
}
#: the severity an asked-for condition keeps (a note states it; a warning where it still limits the answer)
_ASKED_SEVERITY = {"fit.chi2_low": Severity.WARNING}


def with_intent(findings: Iterable[Finding], intent: Intent | None) -> list[Finding]:
    """``findings`` with ``asked``/``intent`` set where the task asked for the condition, and such findings'
    severity capped (never an error; a note unless the condition still limits the answer)."""
    out = []
    for item in findings:
        rule = ASKED.get(item.code)
        words = rule(item, intent) if rule is not None and intent is not None else None
        if words is None:
            out.append(item if rule is None or intent is None else item.model_copy(update={"asked": False}))
            continue
        severity = _ASKED_SEVERITY.get(item.code, Severity.NOTE)
        if item.severity.rank > severity.rank:  # already milder
            severity = item.severity
        message = f"{item.message} — as the task asks (“{_clip(words)}”)"
        update: dict[str, Any] = {"asked": True, "intent": _clip(words, 240), "severity": severity,
                                  "message": message}
        out.append(item.model_copy(update=update))
    return out


def _clip(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
