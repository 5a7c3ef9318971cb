"""The Planning & Control graph: typed run state, the LangGraph graph and its control loop.

``build_graph(runtime, checkpointer)`` compiles the graph over :class:`RunState`; the nodes share a
:class:`Runtime` (run folder, model client, sandbox, events, :class:`GraphSettings`, and a
:class:`Retriever` over the run's knowledge index when it has one).  The graph modules
import langgraph lazily.  The plan types live in :mod:`cmbagent.state` and are re-exported here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cmbagent.state import MethodCall, Plan, PlanDraft, PlanStep, StepDraft, plan_problems, slugify

if TYPE_CHECKING:  # pragma: no cover
    from cmbagent.planner._findings import record_findings
    from cmbagent.planner._graph import (
        NODES,
        ROUTES,
        audit_facts,
        build_graph,
        report_draft,
        requirement_checks,
        write_requirements,
    )
    from cmbagent.planner._retrieval import Retriever
    from cmbagent.planner._runtime import GraphSettings, Runtime
    from cmbagent.planner._state import RunState

__all__ = [
    "NODES",
    "ROUTES",
    "GraphSettings",
    "MethodCall",
    "Plan",
    "PlanDraft",
    "PlanStep",
    "Retriever",
    "RunState",
    "Runtime",
    "StepDraft",
    "audit_facts",
    "build_graph",
    "plan_problems",
    "record_findings",
    "report_draft",
    "requirement_checks",
    "slugify",
    "write_requirements",
]

_LAZY = {"build_graph": "_graph", "NODES": "_graph", "ROUTES": "_graph",
         "audit_facts": "_graph", "report_draft": "_graph", "record_findings": "_findings",
         "requirement_checks": "_graph", "write_requirements": "_graph",
         "Runtime": "_runtime", "GraphSettings": "_runtime", "RunState": "_state", "Retriever": "_retrieval"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"cmbagent.planner.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'cmbagent.planner' has no attribute {name!r}")
