"""The task's explicit requirements as a typed checklist (``<run>/requirements.json``).

The task analyst extracts them (a language model with structured output, the offline backend by rules):
the model and its variant, priors, data files and columns, the label column, numbers of labels, folds and
seeds — each a requirement on a method *argument* — and the outputs the task asks for, such as "report
|ATE − 4.016|" or "which method is best".  At the end of the run code checks every item against what was
actually run and delivered (:class:`RequirementCheck`); an unmet item becomes a finding
``task.requirement_unmet``.  The helpers here are pure functions of values, shared by the rules that
deliver an output and the code that checks it, so both compute the same number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cmbagent.state._findings import Finding, Severity

__all__ = [
    "FILE_ROLES",
    "LOWER_IS_BETTER",
    "REQUIREMENT_UNMET",
    "Requirement",
    "RequirementCheck",
    "RequirementList",
    "StatedItem",
    "best_entry",
    "find_value",
    "requested_number",
    "same_value",
]

#: the finding code of an unmet requirement
REQUIREMENT_UNMET = "task.requirement_unmet"
#: metric names for which a smaller number is better
LOWER_IS_BETTER = ("error", "loss", "mae", "mse", "rmse", "kl", "nll", "bias", "width", "regret", "cost", "time")


class Requirement(BaseModel):
    """One thing the task explicitly asks for."""

    id: str = Field(default="", description="r1, r2, ... (numbered by code).")
    kind: Literal["argument", "output", "file", "number", "word"] = Field(
        description="'argument': a method argument must have a value (or exclude items); 'output': the run must "
                    "deliver a number or statement; 'file': a named input file must be read in its role; "
                    "'number': a stated setting must be used; 'word': a model or estimand word fixes what runs.")
    text: str = Field(description="The task's own words that state the requirement (a short quote).")
    source: Literal["front_matter", "text", "rule", "model"] = Field(
        default="text", description="Where the requirement comes from: the front matter, the reading of the text "
                                    "that decides what runs, the independent rules, or the requirements agent.")
    method: str | None = Field(default=None, description="The method the argument belongs to.")
    argument: str | None = Field(default=None, description="For kind 'argument': the argument's name.")
    relation: Literal["equals", "excludes"] = Field(
        default="equals", description="'equals': the argument has exactly `value`; 'excludes': the argument (a "
                                      "list) contains none of the items in `value`.")
    value: Any = Field(default=None, description="For kind 'argument': the value the task asks for.")
    output: Literal["abs_difference", "best", "figure", "value"] | None = Field(
        default=None, description="For kind 'output': 'abs_difference' |quantity − reference|, 'best' which "
                                  "compared entry is best by `quantity` (a metric), 'figure' a plot, 'value' "
                                  "a named number.")
    quantity: str | None = Field(default=None, description="The value (or metric) the output is about, e.g. 'ate'.")
    reference: float | None = Field(default=None, description="For 'abs_difference': the reference number.")
    file: str | None = Field(default=None, description="For kind 'file': the input file (run-relative).")
    role: str | None = Field(default=None, description="For kind 'file': the role the task's words give it "
                                                        "(covariance, test, embeddings, chain, instruments, data).")
    accepted: list[str] | None = Field(default=None, description="For kind 'word': the values of the aspect "
                                                                 "(`quantity`) the words allow.")

    def label(self) -> str:
        """The item in a few words, e.g. ``model = flat_lcdm`` or ``report |ate − 4.016|``."""
        if self.kind == "argument":
            shown = _short(self.value)
            return f"{self.argument} excludes {shown}" if self.relation == "excludes" else f"{self.argument} = {shown}"
        if self.kind == "file":
            return f"read {self.file} as the {self.role or 'data'}"
        if self.kind == "number":
            return f"use {self.quantity} {_short(self.value)}"
        if self.kind == "word":
            return f"{self.quantity} as “{self.value}” says ({' or '.join(self.accepted or [])})"
        if self.output == "abs_difference":
            reference = "?" if self.reference is None else f"{self.reference:g}"
            return f"report |{self.quantity} − {reference}|"
        if self.output == "best":
            return f"say which method is best by {self.quantity or 'its main metric'}"
        if self.output == "figure":
            return "make a figure"
        return f"report {self.quantity}"


class RequirementCheck(BaseModel):
    """A requirement as checked at the end of the run."""

    requirement: Requirement
    met: bool | None = None  # None: not checked yet (the run has not ended)
    severity: Literal["error", "warning"] | None = None  # of the finding an unmet item becomes
    step_id: str = "task"
    evidence: str = ""

    def finding(self) -> Finding | None:
        """The ``task.requirement_unmet`` finding of an unmet item (None when met or not checked)."""
        if self.met is not False:
            return None
        req = self.requirement
        return Finding(code=REQUIREMENT_UNMET, severity=Severity(self.severity or "warning"), step_id=self.step_id,
                       message=f"The task asks: {req.label()}; {self.evidence}",
                       evidence={"requirement": req.id, "kind": req.kind, "argument": req.argument,
                                 "expected": req.value if req.kind == "argument" else req.reference,
                                 "output": req.output, "quantity": req.quantity, "task_text": req.text})


def _short(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


def find_value(values: Mapping[str, Any], quantity: str) -> tuple[str, float] | None:
    """The number named ``quantity`` among ``values`` (the mean of an uncertain one), matched loosely
    (``ATE`` finds ``ate``; ``ATE estimate`` finds it too), or None."""
    wanted = _key(quantity)
    candidates = [wanted, *wanted.split("_")]
    for name in candidates:
        for key, value in values.items():
            if _key(str(key)) != name:
                continue
            number = value.get("mean") if isinstance(value, Mapping) else value
            if isinstance(number, (int, float)) and not isinstance(number, bool) and math.isfinite(number):
                return str(key), float(number)
    return None


def requested_number(values: Mapping[str, Any], quantity: str, reference: float) -> tuple[str, float] | None:
    """``(value name, |value − reference|)`` for an ``abs_difference`` output, or None when no value fits."""
    found = find_value(values, quantity)
    if found is None:
        return None
    return found[0], abs(found[1] - reference)


def _metric(entry: Any, metric: str | None) -> tuple[str, float] | None:
    if not isinstance(entry, Mapping) or {"mean", "std"} <= set(entry):  # a quantity, not a compared method
        return None
    numbers = {str(k): float(v) for k, v in entry.items()
               if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}
    if not numbers:
        return None
    if metric is not None:
        key = next((k for k in numbers if _key(k) == _key(metric)), None)
        return (key, numbers[key]) if key is not None else None
    first = next(iter(numbers))
    return first, numbers[first]


def best_entry(values: Mapping[str, Any], metric: str | None = None) -> tuple[str, str, float] | None:
    """``(entry, metric, value)`` of the best of the compared entries in ``values``, or None.

    Compared entries are the values that are mappings of numbers sharing the metric (e.g. ``{wsad_dt:
    {auc_pr, auc_roc}, iforest: {...}}``); at least two are needed.  Higher is better unless the metric's
    name says otherwise (:data:`LOWER_IS_BETTER`).
    """
    if metric is None:  # without a named metric, compare on the first compared entry's first number
        first = next((found for entry in values.values() if (found := _metric(entry, None)) is not None), None)
        if first is None:
            return None
        metric = first[0]
    scored: list[tuple[str, str, float]] = []
    for name, entry in values.items():
        found = _metric(entry, metric)
        if found is not None:
            scored.append((str(name), found[0], found[1]))
    if len(scored) < 2:
        return None
    lower = any(word in _key(scored[0][1]).split("_") for word in LOWER_IS_BETTER)
    return (min if lower else max)(scored, key=lambda s: s[2])


def same_value(expected: Any, actual: Any) -> bool:
    """Whether a run's argument equals what the task asked for (numbers to 1e-9 relative, lists in order,
    mappings key by key, strings exactly)."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual or expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return math.isclose(float(expected), float(actual), rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return set(expected) == set(actual) and all(same_value(expected[k], actual[k]) for k in expected)
    if isinstance(expected, (list, tuple)) and isinstance(actual, (list, tuple)):
        return len(expected) == len(actual) and all(same_value(a, b) for a, b in zip(expected, actual, strict=True))
    return bool(expected == actual)


#: the roles a named input file can play (what the task's words make it)
FILE_ROLES = ("data", "covariance", "test", "embeddings", "chain", "instruments")


class StatedItem(BaseModel):
    """One thing the task states, as the requirements agent lists it (closed and bounded for small models)."""

    model_config = ConfigDict(json_schema_extra={"additionalProperties": False})

    kind: Literal["file", "number", "word"] = Field(
        description="'file': an input file the task names and the role its words give it; 'number': a number the "
                    "task states as a setting (prior, threshold, seed, folds, sample size); 'word': a model or "
                    "estimand word that fixes what must run (e.g. 'constant w', 'effect on the treated').")
    quote: str = Field(description="The task's own words that state it.", json_schema_extra={"maxLength": 160})
    file: str | None = Field(default=None, description="For 'file': the file's name as the task writes it.",
                             json_schema_extra={"anyOf": [{"type": "string", "maxLength": 120}, {"type": "null"}]})
    role: Literal["data", "covariance", "test", "embeddings", "chain", "instruments"] | None = Field(
        default=None, description="For 'file': its role.")
    number: float | None = Field(default=None, description="For 'number': the value (0.05 for 5%).")
    what: str | None = Field(default=None, description="For 'number': what it sets (prior, threshold, seed, folds, "
                                                        "walkers, steps, samples, sample size); for 'word': the aspect "
                                                        "(model, estimand, classifier).",
                             json_schema_extra={"anyOf": [{"type": "string", "maxLength": 30}, {"type": "null"}]})


class RequirementList(BaseModel):
    """The requirements agent's list: the files, numbers and words the task states, read on its own."""

    model_config = ConfigDict(json_schema_extra={"additionalProperties": False})

    items: list[StatedItem] = Field(default_factory=list, max_length=16, description="What the task states.",
                                    json_schema_extra={"maxItems": 12})
