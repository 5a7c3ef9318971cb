"""The one home of a run's report: what it is made from and how ``report.md`` is rendered.

* :mod:`._inputs` — what code establishes for the report (:class:`cmbagent.state.ReportInputs`): the narrative
  code writes when no model may (:func:`report_draft`), the audit of a narrative (:func:`narrative_findings`,
  :func:`answer_by_code`), the reproducibility facts and code's check of the auditor (:func:`audit_facts`,
  :func:`checked_audit`), the task's checklist checked against what ran (:func:`requirement_checks`) and the
  status that follows from it (:func:`final_status`);
* :mod:`._requirements` — how each requirement is checked (:func:`check_requirements`) and
  ``requirements.json`` (:func:`write_requirements`);
* :mod:`._render` — ``report.md`` from a :class:`ReportView` (:func:`render_report`), kept in ``run.json`` so
  that :func:`rerender` (``cmbagent report RUN_DIR``) renders the same report again;
* :mod:`._write` — the report of a stopped graph, written once by the run session (:func:`write_report`).

The graph's report node asks the reproducibility auditor and the reporter and calls this package for the rest;
the run session and ``cmbagent report`` call it to write and re-render.  It reads the graph's state through
:class:`RunSnapshot` and never imports the graph, the session or anything above them
(``tests/package/test_borders.py``).
"""

from __future__ import annotations

from cmbagent.report._inputs import (
    RunSnapshot,
    answer_by_code,
    audit_facts,
    checked_audit,
    final_status,
    narrative_findings,
    report_draft,
    requirement_checks,
)
from cmbagent.report._render import (
    BAD_CITATION,
    Reference,
    ReportView,
    Resolver,
    citation_findings,
    costs_of,
    data_answers,
    findings_section,
    format_value,
    key_numbers,
    reading_lines,
    references,
    render_report,
    rerender,
    sorted_conclusions,
    unmeasured,
)
from cmbagent.report._requirements import check_requirements, write_requirements
from cmbagent.report._write import final_requirements, write_report

__all__ = [
    "BAD_CITATION",
    "Reference",
    "ReportView",
    "Resolver",
    "RunSnapshot",
    "answer_by_code",
    "audit_facts",
    "check_requirements",
    "checked_audit",
    "citation_findings",
    "costs_of",
    "data_answers",
    "final_requirements",
    "final_status",
    "findings_section",
    "format_value",
    "key_numbers",
    "narrative_findings",
    "reading_lines",
    "references",
    "render_report",
    "report_draft",
    "requirement_checks",
    "rerender",
    "sorted_conclusions",
    "unmeasured",
    "write_report",
    "write_requirements",
]
