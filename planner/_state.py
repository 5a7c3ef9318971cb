"""The graph's checkpointed state: small typed things (ids, paths, summaries, statuses).

Outputs, figures and data stay in the run folder and are referenced by run-relative path.  Nodes read a
:class:`RunState` and return a LangGraph ``Command`` carrying the fields they change and the next node
(:func:`go`); routing is never stored in the state.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from cmbagent.state import (
    Attempt,
    AttemptKey,
    Finding,
    Plan,
    PlanStep,
    ReportInputs,
    RunStatus,
    StepRecord,
    StepStatus,
    TaskBrief,
    TaskSpec,
)

__all__ = ["RunState", "go"]


class RunState(BaseModel):
    """Everything the graph carries from node to node (and checkpoints after each)."""

    task: TaskSpec
    brief: TaskBrief | None = None
    stated: dict[str, Any] = Field(default_factory=dict)  # the brief method's arguments code read in the prose
    candidates: list[str] = Field(default_factory=list)  # the methods that fit the task by meaning (code's choice)
    plan: Plan | None = None
    plan_version: int = 0  # plans/plan-NN.json counter
    review_round: int = 0  # review rounds done for the current plan cycle
    feedback: list[str] = Field(default_factory=list)  # change requests for the next planner call
    steps: dict[str, StepRecord] = Field(default_factory=dict)  # every step ever planned, by id
    current: str | None = None  # the step being worked on
    step_index: int = 0  # running counter that numbers step folders
    attempt: int = 1
    rejections: int = 0
    history: list[AttemptKey] = Field(default_factory=list)  # attempts of the current step (stall detection)
    last: Attempt | None = None  # the current step's latest attempt
    issues: list[str] = Field(default_factory=list)  # critic issues for the next attempt
    replans: int = 0
    status: RunStatus = RunStatus.RUNNING
    stop_reason: str = ""
    report: ReportInputs | None = None  # what report.md is made from (rendered once, by the run session)
    findings: list[Finding] = Field(default_factory=list)  # about the run, not one step (its report, its task)

    def fixed(self, method: str | None) -> dict[str, Any]:
        """The arguments of ``method`` the task states, which no model may change: its front matter's (when the
        task names this method) over those code read in its prose (:attr:`stated`, for the brief's method)."""
        if method is None:
            return {}
        out = dict(self.stated) if method == (self.task.method or (self.brief.method if self.brief else None)) else {}
        return {**out, **self.task.arguments} if method == self.task.method else out

    def statuses(self) -> dict[str, str]:
        return {sid: str(record.status) for sid, record in self.steps.items()}

    def current_step(self) -> tuple[Plan, PlanStep, StepRecord]:
        """The plan, the step being worked on and its record (the routing guarantees there is one)."""
        if self.plan is None or self.current is None:
            raise RuntimeError("no current step: the graph routed a step node without dispatching a step")
        return self.plan, self.plan.step(self.current), self.steps[self.current]

    def started(self) -> list[StepRecord]:
        """Records of the steps that have started or were skipped, in the order the run met them."""
        return [record for record in self.steps.values() if record.status is not StepStatus.PENDING]

    def all_findings(self) -> list[Finding]:
        """Every finding of the run: each started step's (plan order of the record table), then the run's own."""
        return [f for record in self.steps.values() for f in record.findings] + list(self.findings)

    def with_step(self, record: StepRecord) -> dict[str, StepRecord]:
        """The ``steps`` mapping with ``record`` replacing its step's entry (for an update)."""
        return {**self.steps, record.id: record}


_FIELDS = frozenset(RunState.model_fields)


def go(goto: str, **update: Any) -> Any:
    """``Command(goto=..., update=...)``; a field that :class:`RunState` lacks is a bug caught here."""
    from langgraph.types import Command

    unknown = set(update) - _FIELDS
    if unknown:
        raise TypeError(f"RunState has no field(s) {sorted(unknown)}")
    return Command(goto=goto, update=update)
