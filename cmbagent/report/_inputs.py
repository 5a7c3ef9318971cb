"""What code establishes for a run's report (the fields of :class:`cmbagent.state.ReportInputs`): the narrative
code writes when no model may (or will) write it, the audit of any narrative, the reproducibility facts and
code's check of the auditor's verdict, and the task's checklist checked against what ran.

The graph's report node asks the auditor and the reporter and calls these for everything else; the run session
calls them when the run broke before that node (:mod:`._write`).  Each reads a stopped graph's state through
:class:`RunSnapshot` (:class:`cmbagent.planner.RunState` is one), so this package never imports the graph.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from typing import Protocol

from cmbagent.exceptions import PathError
from cmbagent.paths import iter_files_beneath, read_beneath
from cmbagent.report._render import key_numbers
from cmbagent.report._requirements import cell_reader, check_requirements, delivered_text
from cmbagent.run import RunFolder
from cmbagent.state import (
    AuditFacts,
    AuditReport,
    Finding,
    InputFile,
    Plan,
    ReportDraft,
    ReportInputs,
    RequirementCheck,
    RunStatus,
    Severity,
    StepRecord,
    TaskBrief,
    TaskSpec,
)

__all__ = ["RunSnapshot", "answer_by_code", "audit_facts", "checked_audit", "final_status", "narrative_findings",
           "report_draft", "requirement_checks"]


class RunSnapshot(Protocol):
    """What the report reads of a graph's state."""

    @property
    def task(self) -> TaskSpec: ...
    @property
    def brief(self) -> TaskBrief | None: ...
    @property
    def plan(self) -> Plan | None: ...
    @property
    def steps(self) -> Mapping[str, StepRecord]: ...
    @property
    def status(self) -> RunStatus: ...
    @property
    def stop_reason(self) -> str: ...
    @property
    def report(self) -> ReportInputs | None: ...
    @property
    def findings(self) -> list[Finding]: ...

    def started(self) -> list[StepRecord]: ...

    def all_findings(self) -> list[Finding]: ...


def audit_facts(run: RunFolder) -> AuditFacts:
    """What code can establish about a run's reproducibility (the auditor judges these facts)."""
    folder = run.path
    inputs = {}
    data = folder / "data"
    # every file through no link: the run's code can plant one to a file of the host
    for rel, handle in iter_files_beneath(data) if data.is_dir() and not data.is_symlink() else []:
        digest = hashlib.sha256(handle.read()).hexdigest()[:16]
        inputs[f"data/{rel}"] = InputFile(bytes=os.fstat(handle.fileno()).st_size, sha256=digest)
    inputs = dict(sorted(inputs.items()))
    cells = sorted(str(p.relative_to(folder)) for p in (folder / "steps").glob("*/cells/*.py"))
    unseeded = []
    for rel in cells:
        try:
            code = read_beneath(folder, rel).decode("utf-8", errors="replace")
        except (OSError, PathError):
            continue
        uses_random = re.search(r"np\.random\.|random\.|emcee|torch\.|sample|run_method", code)
        if uses_random and not re.search(r"seed|random_state|default_rng\(\s*\d", code):
            unseeded.append(rel)
    return AuditFacts(inputs=inputs, cells=cells, unseeded_cells=unseeded, notebook=(folder / "notebook.ipynb").is_file())


def checked_audit(audit: AuditReport, facts: AuditFacts) -> AuditReport:
    """The auditor's report with code's verdict where code knows it: a run with unseeded cells or no notebook is
    not reproducible whatever a model says (SmolLM2 said "yes" and listed "S.B.4178992129391394" six times).  The
    auditor may still call a run code found nothing against irreproducible; its findings are kept only where they
    are sentences (two words at least), once each."""
    known = bool(facts.notebook) and not facts.unseeded_cells
    findings = [f for f in dict.fromkeys(audit.findings)
                if sum(1 for w in f.split() if len(w.strip(".,;:()'\"")) >= 2 and w.strip(".,;:()'\"").isalpha()) >= 2]
    if not known and audit.reproducible:
        why = [f"{cell} uses randomness without a visible seed" for cell in facts.unseeded_cells]
        why += [] if facts.notebook else ["notebook.ipynb is missing"]
        findings = [f"code's check overrides the auditor's 'reproducible': {'; '.join(why)}", *findings]
    return audit.model_copy(update={"reproducible": audit.reproducible and known, "findings": findings})


def report_draft(state: RunSnapshot, status: RunStatus, stop_reason: str) -> ReportDraft:
    """The narrative written by code when no model may be asked (budget spent, or the run broke)."""
    done = [r for r in state.steps.values() if r.status == "done"]
    numbers = "; ".join(f"{row['name']} = {row['text']}" for row in key_numbers(state.steps)[:8])
    summary = f"The run ended with status '{status}' after {len(done)} completed step(s)."
    if numbers:
        summary += f" Key numbers: {numbers}."
    if stop_reason:
        summary += f" It stopped because: {stop_reason}"
    limitations = (["This report was written without the reporter agent (budget exhausted)."]
                   if status is RunStatus.BUDGET_EXHAUSTED else [])
    return ReportDraft(title=state.task.title, summary=summary, conclusions=[], limitations=limitations)


def narrative_findings(folder: RunFolder, state: RunSnapshot, draft: ReportDraft, stop_reason: str) -> list[Finding]:
    """Every registered run audit over ``draft`` (``report.unsupported_number``, ``report.answer_missing``, ...):
    a number may come from a step's values, outputs and checks, the findings, the task, or why the run stopped."""
    from cmbagent.audits import audit_run, run_evidence  # the audits are heavy; reading a report needs none

    evidence = run_evidence(folder.path, draft=draft, steps=state.started(), task=state.task,
                            findings=state.all_findings(), facts=[stop_reason or ""])
    return audit_run(evidence).findings


def answer_by_code(folder: RunFolder, state: RunSnapshot, status: RunStatus,
                   found: list[Finding]) -> tuple[ReportDraft, list[Finding]]:
    """The reporter's narrative set aside for the one code writes from the key numbers (``found`` has its
    ``report.answer_missing``); the finding that says why stays, as a warning: the report's answer is sound now,
    but no model wrote it."""
    missing = next(f for f in found if f.code == "report.answer_missing")
    draft = report_draft(state, status, state.stop_reason)
    draft.limitations.append("The reporter's narrative was set aside: it stated none of the run's results; "
                             "this summary was written by code from the key numbers.")
    kept = missing.model_copy(update={"severity": Severity.WARNING,
                                      "message": f"{missing.message}; the reporter's narrative was set aside for "
                                                 "a summary written by code from the key numbers"})
    again = narrative_findings(folder, state, draft, state.stop_reason)
    return draft, [kept, *(f for f in again if f.code != "report.answer_missing")]


def requirement_checks(folder: RunFolder, state: RunSnapshot, draft: ReportDraft | None) -> list[RequirementCheck]:
    """The task's checklist checked against what the run did and reported (see :mod:`._requirements`)."""
    requirements = state.brief.requirements if state.brief is not None else []
    return check_requirements(requirements, state.steps, delivered_text(folder, state.steps, draft),
                              cell_reader(folder))


def final_status(status: RunStatus, stop_reason: str, checks: list[RequirementCheck]) -> tuple[RunStatus, str]:
    """The run's status once its checklist is checked: a run that would end ``done`` while a requirement it
    contradicts stands (an error, not a missing item) ends ``unmet``, with the first three as its stop reason."""
    contradicted = [c for c in checks if c.met is False and c.severity == "error"]
    if status is RunStatus.DONE and contradicted:  # results exist, but not what the task asked: not `done`
        status = RunStatus.UNMET
        stop_reason = "the run did not do what the task asked: " + "; ".join(
            f"{c.requirement.label()} ({c.evidence})" for c in contradicted[:3])
    return status, stop_reason
