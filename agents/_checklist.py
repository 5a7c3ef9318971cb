"""The offline backend's requirements checklist: the arguments the task states (from
:func:`~cmbagent.agents._understand.understand`) plus the outputs its text asks for.

Outputs it recognises: ``|quantity − reference|`` ("report the error |ATE − 4.016|"), which of the compared
methods is best (by the metric the sentence names, e.g. AUC-PR), and a figure ("plot", "Hubble diagram").
The same module writes the sentences that deliver those outputs from a step's values
(:func:`deliver_outputs`), so the interpreting step and the report of an offline run say what was asked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cmbagent.agents._understand import Understanding, sentences
from cmbagent.state import Requirement, best_entry, requested_number

__all__ = ["METRICS", "checklist", "deliver_outputs", "output_requirements"]

#: metric names and the ways prose writes them
METRICS: dict[str, tuple[str, ...]] = {
    "auc_pr": (r"\bAUC[-_ ]?PR\b", r"\baverage precision\b", r"\bPR[-_ ]AUC\b"),
    "auc_roc": (r"\bAUC[-_ ]?ROC\b", r"\bROC[-_ ]AUC\b", r"\bAUC\b(?![-_ ]?PR)"),
    "accuracy": (r"\baccuracy\b",),
    "f1": (r"\bF1\b",),
    "rmse": (r"\bRMSE\b",),
    "mae": (r"\bMAE\b", r"\bmean absolute error\b"),
    "mse": (r"\bMSE\b", r"\bmean squared error\b"),
    "r2": (r"\bR2\b", r"\bR²"),
}
_NUMBER = r"[-+−]?\d+(?:\.\d+)?"
_ASK = re.compile(r"\b(?:report|quote|give|state|compute|calculate|print|show|error|difference|deviation|bias)\b",
                  re.I)
_BEST = (r"\bwhich\b[^.?!]{0,100}\bbest\b", r"\bbest[- ]performing\b", r"\b(?:say|state|tell) which\b",
         r"\bwhich (?:method|model|approach|estimator|one) (?:wins|is better)\b")
_FIGURE = re.compile(r"\b(?:plot|plots|figure|figures|diagram|histogram|contours?|curves)\b", re.I)


def _metrics_in(text: str) -> list[tuple[int, str]]:
    hits = [(m.start(), name) for name, patterns in METRICS.items() for p in patterns
            for m in re.finditer(p, text, re.I)]
    return sorted(hits)


def output_requirements(text: str) -> list[Requirement]:
    """The outputs ``text`` explicitly asks for."""
    found: list[Requirement] = []
    figure = False
    for sentence in sentences(text):
        for match in re.finditer(r"\|\s*([^|\n]{1,40}?)\s*[−–-]\s*(" + _NUMBER + r")\s*\|", sentence):
            if not _ASK.search(sentence):
                continue
            token = re.match(r"[A-Za-zΑ-ω][\w^()]*", match.group(1).strip())
            if token is None:
                continue
            found.append(Requirement(kind="output", text=sentence[:240], output="abs_difference",
                                     quantity=token.group(0), reference=float(match.group(2).replace("−", "-"))))
        best = next((m for p in _BEST if (m := re.search(p, sentence, re.I))), None)
        if best is not None:
            before = [name for at, name in _metrics_in(sentence) if at < best.end()]
            anywhere = [name for _, name in _metrics_in(text)]
            metric = before[-1] if before else (anywhere[0] if anywhere else None)
            found.append(Requirement(kind="output", text=sentence[:240], output="best", quantity=metric))
        if not figure and _FIGURE.search(sentence) and re.search(r"\b(?:plot|show|draw|make|produce|with|and)\b",
                                                                 sentence, re.I):
            figure = True
            found.append(Requirement(kind="output", text=sentence[:240], output="figure"))
    return found


def checklist(understanding: Understanding, text: str) -> list[Requirement]:
    """Every requirement of the task, numbered r1, r2, ...: its stated arguments, then its requested outputs."""
    items = [*understanding.requirements, *output_requirements(text)]
    return [item.model_copy(update={"id": f"r{n}"}) for n, item in enumerate(items, 1)]


def deliver_outputs(requirements: Sequence[Requirement], values: Mapping[str, Any]) -> list[str]:
    """Sentences that deliver the requested numbers and comparisons from a step's ``values`` (what the offline
    interpreting step and reporter write; a language model is asked for the same through the brief)."""
    lines: list[str] = []
    for req in requirements:
        if req.kind != "output":
            continue
        if req.output == "abs_difference" and req.quantity and req.reference is not None:
            found = requested_number(values, req.quantity, req.reference)
            if found is not None:
                name, diff = found
                lines.append(f"|{name} − {req.reference:g}| = {diff:.4g}, as the task asks.")
        elif req.output == "best":
            best = best_entry(values, req.quantity)
            if best is not None:
                entry, metric, value = best
                others = [f"{k} {v[metric]:.4g}" for k, v in values.items()
                          if isinstance(v, Mapping) and k != entry and isinstance(v.get(metric), (int, float))]
                lines.append(f"Best by {metric}: {entry} ({value:.4g})" + (f"; then {', '.join(others)}" if others
                                                                          else "") + ".")
    return lines
