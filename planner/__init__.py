"""The Planning & Control graph: typed run state, the LangGraph graph and its control loop.

``build_graph(checkpointer)`` compiles the graph over :class:`RunState`; ``graph.invoke(..., context=rt)`` hands
every node the run's :class:`Runtime` through LangGraph's runtime context (run folder, model client, sandbox,
events, the run's :class:`cmbagent.config.RunSettings`, and a :class:`Retriever` over the run's knowledge index
when it has one).  The graph modules
import langgraph lazily.  The plan types live in :mod:`cmbagent.state` and are re-exported here; what the
report is made from (its draft, audit facts and requirement checks) lives in :mod:`cmbagent.report`, which the
report node calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cmbagent.state import MethodCall, Plan, PlanDraft, PlanStep, StepDraft, plan_problems, slugify

if TYPE_CHECKING:  # pragma: no cover
    from cmbagent.planner._findings import record_findings
    from cmbagent.planner._graph import NODES, ROUTES, build_graph
    from cmbagent.planner._retrieval import Retriever
    from cmbagent.planner._runtime import Runtime
    from cmbagent.planner._state import RunState

__all__ = [
    "NODES",
    "ROUTES",
    "MethodCall",
    "Plan",
    "PlanDraft",
    "PlanStep",
    "Retriever",
    "RunState",
    "Runtime",
    "StepDraft",
    "build_graph",
    "plan_problems",
    "record_findings",
    "slugify",
]

_LAZY = {"build_graph": "_graph", "NODES": "_graph", "ROUTES": "_graph", "record_findings": "_findings",
         "Runtime": "_runtime", "RunState": "_state", "Retriever": "_retrieval"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"cmbagent.planner.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'cmbagent.planner' has no attribute {name!r}")
