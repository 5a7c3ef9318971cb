"""A scripted-model run with a real kernel: a two-step plan (a code step, a text step), cells chosen per
attempt, and a hook called at a chosen agent turn (where a test injects its fault)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cmbagent.agents import CodeDraft, DebugFix, StepSummary
from cmbagent.models import ModelRequest
from cmbagent.planner import Plan, PlanStep
from tests.faults._support import CELL
from tests.planner._support import brain, step_id

PLAN = Plan(steps=[PlanStep(id="s1", title="Compute the answer", goal="Compute it.", agent="engineer",
                            acceptance_criteria=["answer printed"]),
                   PlanStep(id="s2", title="Interpret", goal="Interpret it.", agent="researcher",
                            acceptance_criteria=["one paragraph"])])


def scripted(cells: list[str], *, after_summary: Callable[[str], None] | None = None) -> Any:
    """The model: the engineer and then the debugger answer ``cells[0]``, ``cells[1]``, … (the last one
    repeats); ``after_summary(step_id)`` runs when a step's summary is asked for (its cell has run)."""
    attempts: list[str] = []

    def code(request: ModelRequest) -> str:
        attempts.append(step_id(request))
        return cells[min(len(attempts), len(cells)) - 1]

    def summary(request: ModelRequest) -> StepSummary:
        sid = step_id(request)
        if after_summary is not None:
            after_summary(sid)
        return StepSummary(summary=f"{sid} finished.")

    return brain(planner=lambda r: PLAN, engineer=lambda r: CodeDraft(code=code(r), explanation="compute"),
                 debugger=lambda r: DebugFix(diagnosis="try again", code=code(r)), summariser=summary)


__all__ = ["CELL", "PLAN", "Path", "scripted"]
