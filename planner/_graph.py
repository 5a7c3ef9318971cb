"""The Planning & Control graph: a LangGraph ``StateGraph`` over :class:`RunState`, compiled once per run
with the SQLite checkpointer of the run folder.

::

    analyse -> plan <-> review -> approve (interrupt with --approve-plan) -> dispatch
    dispatch -> act -> (act | critique | replan);  critique -> (act | summarise | replan | dispatch)
    summarise -> dispatch;  replan -> (dispatch | report);  dispatch -> report (plan done / budget) -> END

Every node routes with ``Command(goto=...)`` chosen by code (:data:`ROUTES` declares where each may go);
models are asked only for judgements.  A budget exhausted inside any node routes to the report, which is
always reached; the run session renders ``report.md`` from what the report node established.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from collections.abc import Callable
from typing import Any

from cmbagent.agents import AuditContext, ReportContext, StepResult, clip
from cmbagent.audits import audit_run, run_evidence
from cmbagent.exceptions import BudgetExceeded, OutputValidationError, PathError
from cmbagent.paths import iter_files_beneath, read_beneath
from cmbagent.planner import _planning, _steps
from cmbagent.planner._findings import record_findings
from cmbagent.planner._requirements import cell_reader, check_requirements, delivered_text, write_requirements
from cmbagent.planner._runtime import GraphSettings, Runtime
from cmbagent.planner._state import RunState, go
from cmbagent.run import RunFolder
from cmbagent.state import (
    AuditFacts,
    AuditReport,
    Finding,
    InputFile,
    ReportDraft,
    ReportInputs,
    RequirementCheck,
    RunStatus,
    Severity,
)

__all__ = ["NODES", "ROUTES", "GraphSettings", "Runtime", "audit_facts", "build_graph", "report_draft",
           "requirement_checks", "write_requirements"]

Node = Callable[[Runtime, RunState], Any]

NODES: dict[str, Node] = {
    "analyse": _planning.analyse,
    "plan": _planning.plan,
    "review": _planning.review,
    "approve": _planning.approve,
    "dispatch": _steps.dispatch,
    "act": _steps.act,
    "critique": _steps.critique,
    "summarise": _steps.summarise,
    "replan": _planning.replan,
}
ROUTES: dict[str, tuple[str, ...]] = {
    "analyse": ("plan", "report"),
    "plan": ("review", "approve", "report"),
    "review": ("plan", "approve", "report"),
    "approve": ("plan", "dispatch", "report"),
    "dispatch": ("act", "report"),
    "act": ("act", "critique", "replan", "report"),
    "critique": ("act", "summarise", "replan", "dispatch", "report"),
    "summarise": ("dispatch", "report"),
    "replan": ("dispatch", "report"),
}


def _guarded(runtime: Callable[[], Runtime], name: str, fn: Node) -> Callable[[RunState], Any]:
    """Bind a node to the runtime; a spent budget ends the run cleanly through the report."""

    @functools.wraps(fn)
    def node(state: RunState) -> Any:
        rt = runtime()
        try:
            return fn(rt, state)
        except BudgetExceeded as exc:
            # the model client has already announced the limit (budget_warning, once per run)
            return go("report", status=RunStatus.BUDGET_EXHAUSTED, stop_reason=str(exc))

    node.__name__ = name
    return node


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


def report_draft(state: RunState, status: RunStatus) -> ReportDraft:
    """The narrative written by code when no model may be asked (budget spent, or the run broke)."""
    from cmbagent.report import key_numbers

    done = [r for r in state.steps.values() if r.status == "done"]
    numbers = "; ".join(f"{row['name']} = {row['text']}" for row in key_numbers(state.steps)[:8])
    summary = f"The run ended with status '{status}' after {len(done)} completed step(s)."
    if numbers:
        summary += f" Key numbers: {numbers}."
    if state.stop_reason:
        summary += f" It stopped because: {state.stop_reason}"
    limitations = (["This report was written without the reporter agent (budget exhausted)."]
                   if status is RunStatus.BUDGET_EXHAUSTED else [])
    return ReportDraft(title=state.task.title, summary=summary, conclusions=[], limitations=limitations)


def _answer_by_code(rt: Runtime, state: RunState, status: RunStatus,
                    found: list[Finding]) -> tuple[ReportDraft, list[Finding]]:
    """The reporter's narrative set aside for the one code writes from the key numbers; the finding that says
    why stays, as a warning: the report's answer is sound now, but no model wrote it."""
    missing = next(f for f in found if f.code == "report.answer_missing")
    draft = report_draft(state, status)
    draft.limitations.append("The reporter's narrative was set aside: it stated none of the run's results; "
                             "this summary was written by code from the key numbers.")
    kept = missing.model_copy(update={"severity": Severity.WARNING,
                                      "message": f"{missing.message}; the reporter's narrative was set aside for "
                                                 "a summary written by code from the key numbers"})
    return draft, [kept, *(f for f in _audit_narrative(rt, state, draft) if f.code != "report.answer_missing")]


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


def _audit_narrative(rt: Runtime, state: RunState, draft: ReportDraft) -> list[Finding]:
    evidence = run_evidence(rt.folder.path, draft=draft, steps=state.started(), task=state.task,
                            findings=state.all_findings(), facts=[state.stop_reason or ""])
    return audit_run(evidence).findings


def report_node(rt: Runtime, state: RunState) -> Any:
    """Audit and narrative for report.md; always reached, also after failures and spent budgets.

    The narrative is audited by code (``report.unsupported_number``, and every registered run audit); a
    narrative with an error finding goes back to the reporter once, with the findings, and what remains is
    recorded as the run's findings.
    """
    status = RunStatus.DONE if state.status is RunStatus.RUNNING else state.status
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
            from cmbagent.report import references

            context = ReportContext(title=state.task.title, brief=state.brief, plan=state.plan,
                                    statuses=state.statuses(), results=results, status=str(status),
                                    stop_reason=stop_reason, findings=state.all_findings(),
                                    references=[r.line() for r in references(state.steps)])
            draft = rt.ask("reporter", context, ReportDraft)
            found = _audit_narrative(rt, state, draft)
            rejected = [f for f in found if f.severity is Severity.ERROR]
            if rejected:
                draft = rt.ask("reporter", context.model_copy(update={"rejected": rejected}), ReportDraft)
                found = _audit_narrative(rt, state, draft)
            if any(f.code == "report.answer_missing" for f in found):  # asked twice, it does not answer
                draft, found = _answer_by_code(rt, state, status, found)
        except BudgetExceeded as exc:
            status, stop_reason = RunStatus.BUDGET_EXHAUSTED, str(exc)
        except OutputValidationError as exc:  # the reporter gave no usable narrative (it looped twice): code's
            draft = report_draft(state, status)
            draft.limitations.append(f"The reporter gave no usable narrative ({clip(str(exc), 200)}); this summary "
                                     "was written by code from the key numbers.")
            found = _audit_narrative(rt, state, draft)
    if draft is None:  # the stop reason may be new (the budget ran out in the reporter's call): audit with it
        stopped = state.model_copy(update={"stop_reason": stop_reason})
        draft = report_draft(stopped, status)
        found = _audit_narrative(rt, stopped, draft)
    checks = requirement_checks(rt.folder, state, draft)
    found += [f for c in checks if (f := c.finding()) is not None]  # task.requirement_unmet
    contradicted = [c for c in checks if c.met is False and c.severity == "error"]
    if status is RunStatus.DONE and contradicted:  # results exist, but not what the task asked: not `done`
        status = RunStatus.UNMET
        stop_reason = "the run did not do what the task asked: " + "; ".join(
            f"{c.requirement.label()} ({c.evidence})" for c in contradicted[:3])
    return go("__end__", status=status, stop_reason=stop_reason,
              report=ReportInputs(draft=draft, audit=audit, facts=facts, requirements=checks),
              **record_findings(rt, state, found))


def requirement_checks(folder: RunFolder, state: RunState, draft: ReportDraft | None) -> list[RequirementCheck]:
    """The task's checklist checked against what the run did and reported (see :mod:`._requirements`)."""
    requirements = state.brief.requirements if state.brief is not None else []
    return check_requirements(requirements, state.steps, delivered_text(folder, state.steps, draft),
                              cell_reader(folder))


def build_graph(rt: Runtime | Callable[[], Runtime], checkpointer: Any = None) -> Any:
    """Declare, validate and compile the graph.

    ``rt`` is the runtime, or a function that makes it when the first node runs (so reading a finished or
    waiting run's checkpoint needs no model client).
    """
    from langgraph.graph import END, START, StateGraph

    runtime: Callable[[], Runtime]
    if isinstance(rt, Runtime):
        fixed = rt
        runtime = lambda: fixed  # noqa: E731
    else:
        runtime = rt
    graph = StateGraph(RunState)
    for name, fn in NODES.items():
        graph.add_node(name, _guarded(runtime, name, fn), destinations=ROUTES[name])  # type: ignore[call-overload]
    graph.add_node("report", _guarded(runtime, "report", report_node), destinations=(END,))  # type: ignore[call-overload]
    graph.add_edge(START, "analyse")
    return graph.compile(checkpointer=checkpointer)
