"""The Planning & Control graph: a LangGraph ``StateGraph`` over :class:`RunState`, compiled once per run
with the SQLite checkpointer of the run folder.

::

    analyse -> plan <-> review -> approve (interrupt with --approve-plan) -> dispatch
    dispatch -> act -> (act | critique | replan);  critique -> (act | summarise | replan | dispatch)
    summarise -> dispatch;  replan -> (dispatch | report);  dispatch -> report (plan done / budget) -> END

Every node routes with ``Command(goto=...)`` chosen by code (:data:`ROUTES` declares where each may go);
models are asked only for judgements.  A budget exhausted inside any node routes to the report, which is
always reached; the run session renders ``report.md`` from what the report node established.

This module is wiring only: the nodes live in :mod:`._planning` (analyse, plan, review, approve, replan),
:mod:`._steps` (dispatch, act, critique, summarise) and :mod:`._reporting` (report, which takes everything but the
two model calls from :mod:`cmbagent.report`); here they are declared, bound to the runtime context and compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cmbagent.exceptions import BudgetExceeded
from cmbagent.planner import _planning, _reporting, _steps
from cmbagent.planner._runtime import Runtime
from cmbagent.planner._state import RunState, go
from cmbagent.state import RunStatus

__all__ = ["NODES", "ROUTES", "Runtime", "build_graph"]

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
    "report": _reporting.report,
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
    "report": ("__end__",),
}


def _guarded(name: str, fn: Node) -> Callable[..., Any]:
    """Bind a node to the run's :class:`Runtime`, which LangGraph passes as the runtime context of the invocation
    (``graph.invoke(..., context=rt)``); a spent budget ends the run cleanly through the report."""

    def node(state: RunState, runtime: Any) -> Any:  # LangGraph injects ``runtime`` by its name
        rt = runtime.context
        if not isinstance(rt, Runtime):
            raise RuntimeError(f"graph node {name!r} ran without its Runtime: invoke the graph with context=Runtime(...)")
        try:
            return fn(rt, state)
        except BudgetExceeded as exc:
            # the model client has already announced the limit (budget_warning, once per run)
            return go("report", status=RunStatus.BUDGET_EXHAUSTED, stop_reason=str(exc))

    # not functools.wraps: LangGraph reads the signature (``runtime``), which ``__wrapped__`` would replace
    node.__name__ = node.__qualname__ = name
    node.__doc__ = fn.__doc__
    return node


def build_graph(checkpointer: Any = None) -> Any:
    """Declare, validate and compile the graph.

    The graph holds no runtime: each invocation passes the run's :class:`Runtime` as LangGraph's runtime context,
    ``graph.invoke(state, config, context=rt)``, so reading a finished or waiting run's checkpoint needs no model
    client, and every node reads the run's settings as ``rt.settings`` from that context.
    """
    from langgraph.graph import START, StateGraph

    graph = StateGraph(RunState, context_schema=Runtime)  # type: ignore[type-var]  # a class, not a TypedDict
    for name, fn in NODES.items():
        graph.add_node(name, _guarded(name, fn), destinations=ROUTES[name])
    graph.add_edge(START, "analyse")
    return graph.compile(checkpointer=checkpointer)
