"""Science audits: code that reads a step's results, cells, figures and input data and says what a referee
would stop (docs/architecture.md, "Audit").

::

    outcome = audit_step(step_evidence(run_dir, step=step, attempt=attempt, task=task, earlier=done))
    outcome.findings        # [Finding(code="fit.chi2_low", severity="warning", ...), ...]

Why a package of its own, not agents/: audits are code, not judgements, and the graph, the report, the
benchmark and other run-level checks (a task's requirements, a report's citations) all use them; placed here,
between the method tools (whose detection functions they reuse) and the planner (which acts on them), they
import nothing of the agents or the graph (``tests/package/test_borders.py``).

What the graph does with a finding is fixed by its severity (:class:`cmbagent.state.Severity`): an error
rejects the step, a warning becomes a caveat of the report naming its ``settle`` check, a note is stated.
Each code also declares its ``outcome`` (:data:`OUTCOMES`): whether it fails a run, is part of the answer
(a parameter these data do not constrain is a result), a caveat or a fact; and a finding whose condition the
task asked for (a prior it names, a cut it chose: :class:`Intent`) is marked ``asked`` and is never an error.

Adding an audit is one function (``docs/extending.md``, "Add an audit")::

    declare_code("units.inconsistent", "error", "what it means", "the check that settles it")

    @step_audit("units.inconsistent")
    def units(ev: StepEvidence) -> Iterable[Finding]:
        ...
        yield finding("units.inconsistent", "H0 is in km/s/Mpc in s2 but in 1/s in s3", h0_s2=..., h0_s3=...)

A run-level audit (``@run_audit``) receives :class:`RunEvidence` (the report narrative and every step) and
runs when the report is written; its findings have no step.
"""

from __future__ import annotations

from cmbagent.audits import (
    _causal,
    _cell_code,
    _compare,
    _data,
    _fit,
    _numbers,
    _params,
    _plots,
    _sampler,
    _values,
)
from cmbagent.audits._critics import Grounds, weigh_critics
from cmbagent.audits._evidence import RunEvidence, StepEvidence, run_evidence, step_evidence
from cmbagent.audits._intent import ASKED, Intent, with_intent
from cmbagent.audits._numbers import repetitive, summary_numbers
from cmbagent.audits._registry import (
    CODES,
    OUTCOMES,
    AuditCode,
    AuditOutcome,
    declare_code,
    finding,
    iter_audits,
    run_audit,
    run_audits,
    step_audit,
)
from cmbagent.state import Critique, Finding, Severity

__all__ = [
    "ASKED",
    "CODES",
    "OUTCOMES",
    "AuditCode",
    "AuditOutcome",
    "Grounds",
    "Intent",
    "RunEvidence",
    "StepEvidence",
    "audit_run",
    "audit_step",
    "critic_findings",
    "declare_code",
    "finding",
    "iter_audits",
    "repetitive",
    "run_audit",
    "run_evidence",
    "step_audit",
    "step_evidence",
    "summary_numbers",
    "weigh_critics",
    "with_intent",
]

_BUILT_IN = (_causal, _cell_code, _compare, _data, _fit, _numbers, _params, _plots, _sampler, _values)  # registered


def audit_step(evidence: StepEvidence) -> AuditOutcome:
    """Every step audit on one attempt; a failed method check is kept only where no specific audit of the same
    science (``fit``, ``sampler``, ``param``, ...) found something."""
    outcome = run_audits("step", evidence, step_id=evidence.step_id, cell=evidence.cell)
    specific = {f.code.split(".")[0] for f in outcome.findings if "check" not in f.evidence} - {"method", "audit"}
    outcome.findings = with_intent([f for f in outcome.findings
                                    if "check" not in f.evidence or f.code.split(".")[0] not in specific],
                                   evidence.intent)
    outcome.findings.sort(key=lambda f: f.severity.rank)
    return outcome


def audit_run(evidence: RunEvidence) -> AuditOutcome:
    """Every run audit on the report narrative (findings about the run: ``step_id`` is None)."""
    return run_audits("run", evidence, step_id=None, cell=None)


def critic_findings(critic: str, critique: Critique, *, step_id: str, cell: str | None) -> list[Finding]:
    """The findings a critic added to its verdict, in the audits' schema (``source`` names the critic).

    A critic that accepted the step rated nothing in it an error: its "error" findings are recorded as warnings
    (SmolLM2's step critic accepted a step and, in the same reply, filed the step's own region counts as three
    error findings coded after its figure; the step was rejected and run again)."""
    out = []
    for raw in critique.findings:
        code = raw.code.strip().lower().replace(" ", "_") or "critic.finding"
        severity = Severity(raw.severity)
        if critique.accepted and severity is Severity.ERROR:
            severity = Severity.WARNING
        try:
            out.append(Finding(code=code, severity=severity, step_id=step_id, message=raw.message,
                               cell=cell, settle=raw.settle, source=critic))
        except ValueError:  # a malformed code from a model: keep the finding under a neutral code
            out.append(Finding(code="critic.finding", severity=severity, step_id=step_id,
                               message=f"{raw.code}: {raw.message}", cell=cell, settle=raw.settle, source=critic,
                               evidence={"code_given": raw.code}))
    return out
