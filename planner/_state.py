"""The graph's checkpointed state: small things only (ids, paths, summaries, statuses).

Outputs, figures and data stay in the run folder and are referenced by run-relative path.
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = ["RunState"]


class RunState(TypedDict, total=False):
    task: dict[str, Any]  # text, title, method, arguments, data_files (from task.md)
    brief: dict[str, Any]  # TaskBrief
    plan: dict[str, Any]  # Plan
    plan_version: int  # plans/plan-NN.json counter
    review_round: int  # review rounds done for the current plan cycle
    feedback: list[str]  # comments for the next planner call (review, validation, person)
    statuses: dict[str, str]  # step id -> pending | running | done | failed | skipped
    results: dict[str, dict[str, Any]]  # step id -> {index, dir, summary, values, cell, figures, reason}
    current: str | None  # id of the step being worked on
    step_index: int  # running counter used to number step folders
    attempt: int
    rejections: int
    history: list[dict[str, Any]]  # attempts of the current step: {code_hash, error}
    last: dict[str, Any]  # the latest attempt's record
    issues: list[str]  # critic issues for the next attempt
    replans: int
    status: str  # running | done | failed | budget_exhausted
    stop_reason: str
    next: str  # routing decided by code in the node that just ran
