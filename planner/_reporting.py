"""The report node, the graph's last: always reached, also after failures and spent budgets.

It asks the two agents the report needs — the reproducibility auditor (over the facts code established) and
the reporter (the narrative) — and takes everything else from :mod:`cmbagent.report`, the report's one home: the
facts, code's check of the auditor, the audit of the narrative, the narrative code writes when no model may, the
requirement checks and the status they imply.  What it establishes goes into the state
(:class:`cmbagent.state.ReportInputs`); the run session renders ``report.md`` from it once the graph stops.
"""

from __future__ import annotations

from typing import Any

from cmbagent.agents import AuditContext, ReportContext, StepResult, clip
from cmbagent.exceptions import BudgetExceeded, OutputValidationError
from cmbagent.planner._findings import record_findings
from cmbagent.planner._runtime import Runtime
from cmbagent.planner._state import RunState, go
from cmbagent.report import (
    answer_by_code,
    audit_facts,
    checked_audit,
    final_status,
    narrative_findings,
    references,
    report_draft,
    requirement_checks,
)
from cmbagent.state import AuditReport, Finding, ReportDraft, ReportInputs, RunStatus, Severity

__all__ = ["report"]


def report(rt: Runtime, state: RunState) -> Any:
    """Audit and narrative for report.md.

    The narrative is audited by code (``report.unsupported_number``, and every registered run audit); a
    narrative with an error finding goes back to the reporter once, with the findings, and what remains is
    recorded as the run's findings.
    """
    status: RunStatus = RunStatus.DONE if state.status is RunStatus.RUNNING else state.status
    stop_reason = state.stop_reason
    facts = audit_facts(rt.folder)
    audit: AuditReport | None = None
    draft: ReportDraft | None = None
    found: list[Finding] = []
    if status is not RunStatus.BUDGET_EXHAUSTED:
        try:
            try:
                audit = checked_audit(rt.ask("reproducibility_auditor", AuditContext(facts=facts), AuditReport), facts)
            except OutputValidationError as exc:  # no usable audit: code's verdict on the facts it knows
                audit = checked_audit(AuditReport(reproducible=True, findings=[
                    f"the reproducibility auditor gave no usable reply ({exc})"[:300]]), facts)
            results = [StepResult(id=r.id, title=r.title, status=str(r.status), summary=r.summary, reason=r.reason,
                                  method=r.method, values=r.values, checks=r.checks) for r in state.started()]
            context = ReportContext(title=state.task.title, brief=state.brief, plan=state.plan,
                                    statuses=state.statuses(), results=results, status=str(status),
                                    stop_reason=stop_reason, findings=state.all_findings(),
                                    references=[r.line() for r in references(state.steps)])
            draft = rt.ask("reporter", context, ReportDraft)
            found = narrative_findings(rt.folder, state, draft, state.stop_reason)
            rejected = [f for f in found if f.severity is Severity.ERROR]
            if rejected and rt.compact("reporter"):  # a small model is not asked twice: code's narrative at once
                draft, found = _narrative_by_code(rt, state, status, rejected)
            elif rejected:
                draft = rt.ask("reporter", context.model_copy(update={"rejected": rejected}), ReportDraft)
                found = narrative_findings(rt.folder, state, draft, state.stop_reason)
            if any(f.code == "report.answer_missing" for f in found):  # asked twice, it does not answer
                draft, found = answer_by_code(rt.folder, state, status, found)
        except BudgetExceeded as exc:
            status, stop_reason = RunStatus.BUDGET_EXHAUSTED, str(exc)
        except OutputValidationError as exc:  # the reporter gave no usable narrative (it looped twice): code's
            draft = report_draft(state, status, state.stop_reason)
            draft.limitations.append(f"The reporter gave no usable narrative ({clip(str(exc), 200)}); this summary "
                                     "was written by code from the key numbers.")
            found = narrative_findings(rt.folder, state, draft, state.stop_reason)
    if draft is None:  # the stop reason may be new (the budget ran out in the reporter's call): audit with it
        draft = report_draft(state, status, stop_reason)
        found = narrative_findings(rt.folder, state, draft, stop_reason)
    checks = requirement_checks(rt.folder, state, draft)
    found += [f for c in checks if (f := c.finding()) is not None]  # task.requirement_unmet
    status, stop_reason = final_status(status, stop_reason, checks)
    return go("__end__", status=status, stop_reason=stop_reason,
              report=ReportInputs(draft=draft, audit=audit, facts=facts, requirements=checks),
              **record_findings(rt, state, found))


def _narrative_by_code(rt: Runtime, state: RunState, status: RunStatus,
                       rejected: list[Finding]) -> tuple[ReportDraft, list[Finding]]:
    """A small model's narrative that code's audits rejected, set aside for the one code writes from the key
    numbers without asking the model again: its second narrative is set aside as well (SmolLM2's two drafts of the
    supernova report were "1.1.1." and "1.4.5.1.3078487,"; the second call read 4,653 prompt tokens to write
    137).  The first rejection stays, as a warning that says so; the draft is audited like any other."""
    draft = report_draft(state, status, state.stop_reason)
    draft.limitations.append("The reporter's narrative was set aside: code's audits rejected it; this summary was "
                             "written by code from the key numbers.")
    first = rejected[0]
    more = f" (and {len(rejected) - 1} more error finding(s))" if len(rejected) > 1 else ""
    kept = first.model_copy(update={"severity": Severity.WARNING,
                                    "message": f"{first.message}{more}; the reporter's narrative was set aside for a "
                                               "summary written by code from the key numbers"})
    return draft, [kept, *narrative_findings(rt.folder, state, draft, state.stop_reason)]
