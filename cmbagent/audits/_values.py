"""Audits of a step's own verdicts: its numbers are finite and ordered, it printed a result, it did not
swallow an exception, and what its method checked or declared about itself.

A failed method check becomes a finding under the code of the science it is about (a convergence check is
``sampler.not_converged``, an overlap check ``causal.no_overlap``), so a report lists one vocabulary; the
specific audits of those codes read the numbers themselves, and a check-derived finding is kept only when no
specific audit said the same (``cmbagent.audits.audit_step``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import CODES, finding, step_audit
from cmbagent.cells import RESULT_BEGIN, RESULT_END
from cmbagent.state import Finding, Severity

__all__ = ["leaves"]


_STD_KEYS = ("std", "sigma", "stderr", "std_err", "se", "error", "err")
_QUANTITY = {"mean", "std", "median", "value", "estimate", "se", "sigma", "best_fit", "lower_68", "upper_68",
             "lower_95", "upper_95"}
_NOT_APPLICABLE = re.compile(r"(^|_)(to|until|first|best|when|if|hit|found|note|reason|path|file)(_|$)")
# failed checks with these words in their name mean the numbers cannot be trusted (an error, not a caveat)
_CHECK_CODES: tuple[tuple[tuple[str, ...], str, Severity], ...] = (
    (("converg", "rhat", "r_hat", "autocorr", "acceptance", "enough_samples"), "sampler.not_converged", Severity.ERROR),
    (("posterior_narrower",), "param.prior_dominated", Severity.ERROR),
    (("prior_edge",), "param.prior_dominated", Severity.WARNING),
    (("goodness_of_fit",), "fit.chi2_high", Severity.WARNING),
    (("overlap",), "causal.no_overlap", Severity.WARNING),
    (("finite", "nan"), "value.not_finite", Severity.ERROR),
    (("valid",), "method.check_failed", Severity.ERROR),
)
_EXCEPTION = re.compile(r"Traceback \(most recent call last\)|(?<![\w.])([A-Z][A-Za-z0-9]*(?:Error|Exception))(?=[:)\s])")


def leaves(values: Any, prefix: str = "", limit: int = 200) -> Iterator[tuple[str, Any]]:
    """``(dotted.name, leaf)`` for every leaf of nested values (lists longer than ``limit`` are one leaf)."""
    if isinstance(values, dict):
        for key, value in values.items():
            yield from leaves(value, f"{prefix}.{key}" if prefix else str(key), limit)
    elif isinstance(values, (list, tuple)) and len(values) <= limit:
        for n, value in enumerate(values):
            yield from leaves(value, f"{prefix}[{n}]", limit)
    else:
        yield prefix, values


def _dicts(values: Any, prefix: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(values, dict):
        if prefix:
            yield prefix, values
        for key, value in values.items():
            yield from _dicts(value, f"{prefix}.{key}" if prefix else str(key))


@step_audit("value.not_finite", "value.negative_spread", "value.inverted_interval")
def numbers_are_sane(ev: StepEvidence) -> Iterator[Finding]:
    """Non-finite numbers, negative spreads and inverted intervals: any scientist flags them at once."""
    for name, value in leaves(ev.values):
        if not name:
            continue
        leaf = name.rsplit(".", 1)[-1].lower()
        # a NaN reaches the result as JSON null; other nulls are a method's "not applicable" (no success yet)
        if (isinstance(value, float) and not math.isfinite(value)) or (value is None and (
                leaf in _QUANTITY or ("." not in name and not _NOT_APPLICABLE.search(leaf)))):
            yield finding("value.not_finite", f"{name} is missing or not finite ({value})", name=name)
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
            leaf = name.rsplit(".", 1)[-1].lower()
            if leaf in _STD_KEYS or leaf in {"variance", "var"}:
                yield finding("value.negative_spread", f"{name} = {value} is a negative spread", name=name, value=value)
    for name, value in _dicts(ev.values):
        lower, upper = value.get("lower_68"), value.get("upper_68")
        if isinstance(lower, (int, float)) and isinstance(upper, (int, float)) and lower > upper:
            yield finding("value.inverted_interval", f"{name}: lower_68 ({lower}) is above upper_68 ({upper})",
                          name=name, lower=lower, upper=upper)


@step_audit("step.no_result")
def printed_a_result(ev: StepEvidence) -> Iterator[Finding]:
    if ev.cell is not None and ev.status == "ok" and not ev.printed_result:
        yield finding("step.no_result", f"the cell printed no result JSON between {RESULT_BEGIN} and {RESULT_END}")


@step_audit("audit.failed")
def method_result_has_values(ev: StepEvidence) -> Iterator[Finding]:
    """A method step whose result holds no values leaves the number audits nothing to check: say so."""
    if ev.method is not None and ev.status == "ok" and not ev.values:
        yield finding("audit.failed", f"the result of {ev.method} holds no values; the audits of its numbers "
                                      "(fit, priors, convergence, rows) could not run", method=ev.method)


@step_audit("step.error_ignored")
def no_swallowed_exception(ev: StepEvidence) -> Iterator[Finding]:
    """An exception named in the output of a cell that ended 'ok' was caught and printed, not handled."""
    if ev.status != "ok" or ev.cell is None:
        return
    for line in ev.output.splitlines():
        match = _EXCEPTION.search(line)
        if match is None or "Warning" in line.split(":")[0]:
            continue
        name = match.group(1) or "an exception"
        yield finding("step.error_ignored",
                      f"the cell ran to the end but its output reports {name} ({line.strip()[:160]!r}); "
                      "the step's result may rest on data it failed to read", exception=name,
                      line=line.strip()[:300])
        return


@step_audit("method.check_failed", "sampler.not_converged", "param.prior_dominated", "fit.chi2_high",
            "causal.no_overlap", "value.not_finite")
def failed_checks(ev: StepEvidence) -> Iterator[Finding]:
    """Each failed method check, under the code of what it checks (kept when no specific audit said it)."""
    for check in ev.checks:
        if check.passed:
            continue
        name = check.name.lower()
        code, severity = "method.check_failed", Severity.WARNING
        for words, mapped, level in _CHECK_CODES:
            if any(w in name for w in words):
                code, severity = mapped, level
                break
        yield finding(code, f"method check {check.name} failed: {check.message}", severity=severity,
                      check=check.name)


@step_audit("method.note", "method.known_shortfall")
def method_declared(ev: StepEvidence) -> Iterator[Finding]:
    """Findings the method tool returned about its own result (``MethodResult.findings``)."""
    for raw in ev.method_findings:
        code = str(raw.get("code") or "method.note")
        severity = str(raw.get("severity") or "note")
        if severity not in {"error", "warning", "note"}:
            severity = "note"
        given = raw.get("evidence")
        evidence: dict[str, Any] = dict(given) if isinstance(given, dict) else {}
        if code not in CODES or code.split(".")[0] not in {"method"}:
            evidence = {**evidence, "declared_code": code}
            code = "method.note"
        yield finding(code, str(raw.get("message") or "")[:600], severity=severity,
                      settle=str(raw.get("settle") or CODES[code].settle), **evidence)
