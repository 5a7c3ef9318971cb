"""The report of a stopped graph, written once by the run session: ``requirements.json`` with the checklist as
checked at the end, then ``report.md`` from what the report node established — or, when the run broke, was
cancelled or stopped before that node, from a narrative and facts code establishes here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cmbagent.report._inputs import RunSnapshot, audit_facts, report_draft, requirement_checks
from cmbagent.report._render import ReportView, Resolver, render_report
from cmbagent.report._requirements import write_requirements
from cmbagent.run import RunFolder
from cmbagent.state import ReportInputs, RequirementCheck, RunStatus

__all__ = ["final_requirements", "write_report"]


def final_requirements(folder: RunFolder, state: RunSnapshot, error: str | None) -> list[RequirementCheck]:
    """The task's checklist as checked at the end (by the report node; by code here when the run broke, with no
    narrative to check against), saved as ``requirements.json``; ``[]`` before the task was analysed."""
    if state.report is not None and error is None:
        checks = list(state.report.requirements)
    elif state.brief is not None:
        checks = requirement_checks(folder, state, None)
    else:
        return []
    write_requirements(folder, checks)
    return checks


def write_report(folder: RunFolder, state: RunSnapshot, *, costs: dict[str, Any], error: str | None = None,
                 status: RunStatus | None = None, stop_reason: str | None = None, resolve: Resolver | None = None,
                 requirements: list[RequirementCheck] | None = None) -> Path:
    """Render ``report.md`` of a stopped graph (``state`` is its final :class:`cmbagent.planner.RunState`).

    The report node's narrative, audit and facts are used when it ran; when the run broke (``error``), was
    stopped before it (``status``, e.g. cancelled, with its ``stop_reason``) or had not reached it, code
    writes the narrative.  ``resolve`` audits the citations (see :func:`render_report`).
    """
    inputs = state.report
    stopped = state.stop_reason
    if status is not None:  # stopped from outside: what the report node may have established is not used
        inputs, stopped = None, stop_reason or state.stop_reason
    else:
        status = state.status
    if error is not None or inputs is None:  # the run broke: code writes the narrative
        status = RunStatus.FAILED if error is not None else status
        stopped = error or stopped
        inputs = ReportInputs(draft=report_draft(state, status, stopped), facts=audit_facts(folder),
                              requirements=list(requirements or []))
    view = ReportView(task=state.task, brief=state.brief, plan=state.plan, steps=dict(state.steps), status=status,
                      stop_reason=stopped, draft=inputs.draft, audit=inputs.audit, facts=inputs.facts,
                      costs=costs, findings=list(state.findings), requirements=inputs.requirements)
    return render_report(folder, view, resolve=resolve)
