"""The Planning & Control graph: plan schema, run state, the LangGraph graph and its control loop.

The graph itself (``build_graph``) imports langgraph lazily; the plan schema is cheap to import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cmbagent.planner._plan import MethodCall, Plan, PlanStep, plan_problems, slugify

if TYPE_CHECKING:  # pragma: no cover
    from cmbagent.planner._graph import GraphSettings, Runtime, build_graph

__all__ = ["GraphSettings", "MethodCall", "Plan", "PlanStep", "Runtime", "build_graph", "plan_problems", "slugify"]


def __getattr__(name: str) -> Any:
    if name in {"build_graph", "Runtime", "GraphSettings"}:
        from cmbagent.planner import _graph

        return getattr(_graph, name)
    raise AttributeError(f"module 'cmbagent.planner' has no attribute {name!r}")
