"""The audit registry: finding codes, step and run audits, and the runners that never let an audit break a run.

An audit is a plain function of the evidence (:class:`~cmbagent.audits.StepEvidence` for a step,
:class:`~cmbagent.audits.RunEvidence` for the run's report) that returns findings; registering it names the
codes it may emit, and each code is declared once with its default severity, its meaning and the check that
would settle it.  Registration validates both, so a typo in a code fails at import, not in a report.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cmbagent.audits._finding_codes import BUILT_IN
from cmbagent.exceptions import ConfigError
from cmbagent.state import Finding, Severity

__all__ = [
    "CODES",
    "OUTCOMES",
    "AuditCode",
    "AuditOutcome",
    "RegisteredAudit",
    "declare_code",
    "finding",
    "iter_audits",
    "run_audit",
    "run_audits",
    "step_audit",
]

E = TypeVar("E")
AuditFunction = Callable[[Any], Iterable[Finding]]


#: what a finding of a code does to a run: ``fails`` (an error: the step is rejected, and if it stands no
#: trustworthy answer can be given), ``answer`` (a result the report states as part of the answer: a parameter
#: these data do not constrain, what a prior the task named does), ``caveat`` (a warning the report lists with
#: the check that would settle it), ``fact`` (a note the report states)
OUTCOMES = ("fails", "answer", "caveat", "fact")


@dataclass(frozen=True)
class AuditCode:
    """One finding code: its default severity, what it means, what would settle it, and what it does to a run
    (:data:`OUTCOMES`)."""

    code: str
    severity: Severity
    meaning: str
    settle: str
    outcome: str = ""


CODES: dict[str, AuditCode] = {}


def declare_code(code: str, severity: Severity | str, meaning: str, settle: str, *, outcome: str | None = None) -> AuditCode:
    """Declare a finding code (once; a second declaration of the same code is a configuration error).

    ``outcome`` says what the code does to a run (:data:`OUTCOMES`); by default it follows the severity (an
    error fails, a warning is a caveat, a note a fact).  An ``answer`` is never an error: it is what the data
    say, stated in the report."""
    Finding(code=code, severity=Severity(severity), message="probe")  # the code's shape, checked once
    if code in CODES:
        raise ConfigError(f"finding code {code!r} is declared twice; each code is declared once")
    default = {Severity.ERROR: "fails", Severity.WARNING: "caveat", Severity.NOTE: "fact"}[Severity(severity)]
    chosen = outcome or default
    if chosen not in OUTCOMES or (chosen == "answer" and Severity(severity) is Severity.ERROR):
        raise ConfigError(f"finding code {code!r}: outcome must be one of {OUTCOMES}, and an answer is never an error")
    CODES[code] = entry = AuditCode(code, Severity(severity), meaning, settle, chosen)
    return entry


for _arguments, _options in BUILT_IN:  # the built-in codes, declared before any audit registers
    declare_code(*_arguments, **_options)


def finding(code: str, message: str, *, severity: Severity | str | None = None, settle: str | None = None,
            **evidence: Any) -> Finding:
    """A finding of a declared code (default severity and settle text from its declaration)."""
    if code not in CODES:
        raise ConfigError(f"finding code {code!r} is not declared; call declare_code() first")
    entry = CODES[code]
    return Finding(code=code, severity=Severity(severity or entry.severity), message=message,
                   evidence=evidence, settle=entry.settle if settle is None else settle)


@dataclass(frozen=True)
class RegisteredAudit:
    name: str
    scope: str  # "step" | "run"
    codes: tuple[str, ...]
    function: AuditFunction


_AUDITS: dict[str, RegisteredAudit] = {}


def _register(scope: str, codes: tuple[str, ...]) -> Callable[[AuditFunction], AuditFunction]:
    unknown = [c for c in codes if c not in CODES]
    if not codes or unknown:
        raise ConfigError(f"an audit must name the declared codes it emits (undeclared: {unknown or 'none given'})")

    def decorate(function: AuditFunction) -> AuditFunction:
        name = f"{function.__module__}.{function.__qualname__}"
        _AUDITS[name] = RegisteredAudit(name, scope, codes, function)
        return function

    return decorate


def step_audit(*codes: str) -> Callable[[AuditFunction], AuditFunction]:
    """Register ``function(evidence: StepEvidence) -> Iterable[Finding]``, run for every step with a result."""
    return _register("step", codes)


def run_audit(*codes: str) -> Callable[[AuditFunction], AuditFunction]:
    """Register ``function(evidence: RunEvidence) -> Iterable[Finding]``, run on the run's report narrative."""
    return _register("run", codes)


def iter_audits(scope: str | None = None) -> list[RegisteredAudit]:
    return [a for a in _AUDITS.values() if scope is None or a.scope == scope]


@dataclass
class AuditOutcome:
    """What the audits of one scope found, with each audit's wall time (``bench/audits.py`` reads it)."""

    findings: list[Finding] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def total_s(self) -> float:
        return sum(self.seconds.values())


def run_audits(scope: str, evidence: Any, *, step_id: str | None, cell: str | None) -> AuditOutcome:
    """Run every audit of ``scope`` on ``evidence``; an audit that fails becomes an ``audit.failed`` note.

    Bad input to an audit (a result without values, a missing figure file, an unreadable table) must never
    crash a run: the audit reports that it could not run, and the step is judged on the rest.
    """
    outcome = AuditOutcome()
    seen: set[tuple[str, str | None, str]] = set()
    for audit in iter_audits(scope):
        started = time.perf_counter()
        try:
            found = list(audit.function(evidence))
            stray = [f.code for f in found if f.code not in audit.codes]
            if stray:
                raise ConfigError(f"emitted undeclared code(s) {stray}")
        except Exception as exc:  # an audit's failure is a note about the audit, never the run's failure
            found = [finding("audit.failed", f"the audit {audit.name.rsplit('.', 1)[-1]} could not run: "
                                             f"{type(exc).__name__}: {str(exc)[:300]}", audit=audit.name)]
        outcome.seconds[audit.name] = time.perf_counter() - started
        for item in found:
            placed = item.model_copy(update={"step_id": step_id if item.step_id is None else item.step_id,
                                             "cell": item.cell or cell})
            if placed.key not in seen:
                seen.add(placed.key)
                outcome.findings.append(placed)
    outcome.findings.sort(key=lambda f: f.severity.rank)
    return outcome
