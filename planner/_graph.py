"""The Planning & Control graph: a LangGraph ``StateGraph`` over :class:`RunState`, compiled once per run
with the SQLite checkpointer of the run folder.

::

    analyse -> plan <-> review -> approve (interrupt with --approve-plan) -> dispatch
    dispatch -> act -> (act | critique | replan);  critique -> (act | summarise | replan | dispatch)
    summarise -> dispatch;  replan -> (dispatch | report);  dispatch -> report (plan done / budget) -> END

Every edge is chosen by code (the ``next`` field a node sets); models are asked only for judgements.
A budget exhausted inside any node routes to the report, which is always written.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cmbagent.agents._schemas import AuditReport, ReportDraft
from cmbagent.exceptions import BudgetExceeded
from cmbagent.planner import _planning, _steps
from cmbagent.planner._context import brief_text, clip
from cmbagent.planner._plan import Plan
from cmbagent.planner._runtime import GraphSettings, Runtime
from cmbagent.planner._state import RunState

__all__ = ["NODES", "GraphSettings", "Runtime", "build_graph"]

NODES: dict[str, Callable[[Runtime, RunState], dict[str, Any]]] = {
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
_ROUTES: dict[str, tuple[str, ...]] = {
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


def _guarded(rt: Runtime, name: str, fn: Callable[[Runtime, RunState], dict[str, Any]]) -> Callable[[RunState], dict[str, Any]]:
    """Bind a node to the runtime; a spent budget ends the run cleanly through the report."""

    @functools.wraps(fn)
    def node(state: RunState) -> dict[str, Any]:
        try:
            return fn(rt, state)
        except BudgetExceeded as exc:
            rt.events.emit("budget_warning", kind=exc.kind, spent=exc.spent, limit=exc.limit)
            return {"status": "budget_exhausted", "stop_reason": str(exc), "next": "report"}

    node.__name__ = name
    return node


def _route(state: RunState) -> str:
    return state.get("next", "report")


def audit_facts(rt: Runtime, state: RunState) -> dict[str, Any]:
    """What code can establish about reproducibility (the auditor judges these facts)."""
    folder = rt.folder.path
    inputs = {}
    for path in sorted((folder / "data").rglob("*")):
        if path.is_file():
            inputs[rt.folder.rel(path)] = {"bytes": path.stat().st_size,
                                           "sha256": hashlib.sha256(path.read_bytes()).hexdigest()[:16]}
    cells = sorted(str(p.relative_to(folder)) for p in (folder / "steps").glob("*/cells/*.py"))
    unseeded = []
    for rel in cells:
        code = (folder / rel).read_text(encoding="utf-8")
        uses_random = re.search(r"np\.random\.|random\.|emcee|torch\.|sample|run_method", code)
        if uses_random and not re.search(r"seed|random_state|default_rng\(\s*\d", code):
            unseeded.append(rel)
    return {"inputs": inputs, "cells": cells, "unseeded_cells": unseeded,
            "notebook": (folder / "notebook.ipynb").is_file(), "network": "blocked by the sandbox"}


def report_node(rt: Runtime, state: RunState) -> dict[str, Any]:
    """Audit, narrative and report.md; always runs, also after failures and spent budgets."""
    from cmbagent.report import fallback_draft, render_report

    status = state.get("status", "running")
    if status == "running":
        status = "done"
    facts = audit_facts(rt, state)
    audit: AuditReport | None = None
    draft: ReportDraft | None = None
    if status != "budget_exhausted":
        try:
            audit = rt.ask("reproducibility_auditor", [("Facts", clip(str(facts), 4000))], {"facts": facts})
            plan = Plan.model_validate(state["plan"]) if state.get("plan") else None
            summaries = "\n".join(
                f"- {sid} [{r.get('status')}]: {r.get('summary') or r.get('reason') or ''}"[:700]
                for sid, r in state.get("results", {}).items()
            )
            draft = rt.ask(
                "reporter",
                [("Task brief", brief_text(state.get("brief", {"title": state["task"]["title"], "objective": ""}))),
                 ("Plan", plan.outline(state.get("statuses")) if plan else "(no plan)"),
                 ("Step summaries", clip(summaries, 6000)),
                 ("Outcome", f"{status}. {state.get('stop_reason', '')}")],
                {"brief": state.get("brief"), "results": state.get("results", {}), "status": status,
                 "stop_reason": state.get("stop_reason", ""), "task": state["task"]},
            )
        except BudgetExceeded as exc:
            status = "budget_exhausted"
            state = {**state, "stop_reason": str(exc)}
    if draft is None:
        draft = fallback_draft(dict(state), status)
    render_report(rt.folder, state={**state, "status": status}, draft=draft, audit=audit, facts=facts,
                  ledger=getattr(rt.client, "ledger", None))
    return {"status": status, "next": "end"}


def build_graph(rt: Runtime, checkpointer: Any = None) -> Any:
    """Declare, validate and compile the graph for this runtime."""
    from langgraph.graph import END, START, StateGraph

    graph = StateGraph(RunState)
    for name, fn in NODES.items():
        graph.add_node(name, _guarded(rt, name, fn))  # type: ignore[call-overload]
    graph.add_node("report", _guarded(rt, "report", report_node))  # type: ignore[call-overload]
    graph.add_edge(START, "analyse")
    for name, targets in _ROUTES.items():
        graph.add_conditional_edges(name, _route, {t: t for t in targets})
    graph.add_edge("report", END)
    return graph.compile(checkpointer=checkpointer)


def run_dir_of(rt: Runtime) -> Path:
    return rt.folder.path
