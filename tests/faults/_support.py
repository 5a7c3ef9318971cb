"""What the fault-injection runs share: a fake OpenAI server that answers as each agent would, with faults
pushed in at a chosen call, and helpers to read what a run did.

The plan has a code step (``s1``: the engineer's cell prints a number) and a text step (``s2``: the
researcher interprets it), so a run exercises planning, a cell, critique, a text answer and the report.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cmbagent.agents import (
    AuditReport,
    CodeDraft,
    CodeReview,
    Critique,
    DebugFix,
    PlanReview,
    ReportDraft,
    StepSummary,
    TaskBrief,
    TextAnswer,
)
from cmbagent.events import Event, read_events
from cmbagent.planner import Plan, PlanStep
from cmbagent.state import RequirementList
from tests.fakes import Json, RecordedRequest, Reply
from tests.planner._support import result_code

TWO_WORDS = {"task_analyst", "requirements_analyst", "plan_reviewer", "code_reviewer", "step_critic", "plot_critic", "science_checker",
             "reproducibility_auditor"}
CELL = result_code({"answer": 42.0}, "import math\nx = math.sqrt(42.0) ** 2")


def agent_of(request: RecordedRequest) -> tuple[str, str, str]:
    """(agent, step id, user text) of a chat-completions request, read from its prompts."""
    messages = request.body["messages"]
    user = messages[-1]["content"]
    if isinstance(user, list):
        user = "\n".join(part.get("text", "") for part in user)
    # a fallback structured-output mode puts the format instructions before the agent's own prompt
    systems = [str(m["content"]) for m in messages if m["role"] == "system"]
    words = next((w for w in (re.search(r"You are the (\w+)(?: (\w+))?", t) for t in systems) if w), None)
    assert words is not None, systems
    two = f"{words.group(1)}_{words.group(2)}".lower()
    name = two if two in TWO_WORDS else words.group(1).lower()
    sid = (re.search(r"^Step (\S+):", user, re.M) or [None, ""])[1]
    return name, sid, user


class Agents:
    """Answers as each agent would; ``faults[n]`` (replies) are served instead, from the n-th agent call on
    (1-based; a retried request takes the next fault, then the real answer).  ``code`` maps attempt numbers
    of the engineer/debugger to cells (default: :data:`CELL`).  Thread-safe (the server is threaded)."""

    def __init__(self, *, faults: dict[int, list[Reply]] | None = None, code: dict[int, str] | None = None,
                 on_call: Callable[[str, str, int], None] | None = None, input_tokens: int | None = None,
                 text_only: bool = False):
        self.text_only = text_only
        self.faults = dict(faults or {})
        self.code = dict(code or {})
        self.on_call = on_call
        self.input_tokens = input_tokens
        self.calls: list[str] = []
        self.served_faults = 0
        self._pending: list[Reply] = []
        self._lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> Reply:
        with self._lock:
            if self._pending:
                self.served_faults += 1
                return self._pending.pop(0)
            name, sid, user = agent_of(request)
            self.calls.append(name)
            n = len(self.calls)
            if n in self.faults:
                self._pending = list(self.faults.pop(n))
                self.calls.pop()  # the call is answered once the faults are served
                self.served_faults += 1
                return self._pending.pop(0)
        if self.on_call is not None:
            self.on_call(name, sid, n)
        tokens = self.input_tokens or len(json.dumps(request.body)) // 4
        return Json(self.reply(name, sid, user), input_tokens=tokens, output_tokens=40)

    def attempts(self) -> int:
        return sum(1 for c in self.calls if c in {"engineer", "debugger"})

    def reply(self, agent: str, sid: str, user: str) -> Any:
        if agent == "task_analyst":
            return TaskBrief(title="The answer", objective="Compute the answer and interpret it.")
        if agent == "planner":
            code = PlanStep(id="s1", title="Compute the answer", goal="Compute it.", agent="engineer",
                            acceptance_criteria=["answer printed"])
            text = PlanStep(id="s2", title="Interpret", goal="Interpret it.", agent="researcher",
                            acceptance_criteria=["one paragraph"])
            return Plan(steps=[text] if self.text_only else [code, text])
        if agent in {"engineer", "debugger"}:
            code = self.code.get(self.attempts(), CELL)
            if agent == "debugger":
                return DebugFix(diagnosis="try again", code=code)
            return CodeDraft(code=code, explanation="compute")
        answers: dict[str, Any] = {
            "plan_reviewer": PlanReview(approved=True),
            "code_reviewer": CodeReview(approved=True),
            "step_critic": Critique(accepted=True, verdict="Criteria met."),
            "science_checker": Critique(accepted=True, verdict="plausible"),
            # with no code step there is no number to quote (an invented one is a report.unsupported_number error)
            "researcher": (TextAnswer(text="The task asks for an interpretation; no number was computed.",
                                      key_points=["no computation"]) if self.text_only
                           else TextAnswer(text="The answer is 42.", key_points=["42"])),
            "summariser": StepSummary(summary=f"{sid} finished."),
            "reproducibility_auditor": AuditReport(reproducible=True, findings=[]),
            "requirements_analyst": RequirementList(),
            "reporter": (ReportDraft(title="The answer", summary="An interpretation, with no number computed.")
                         if self.text_only else ReportDraft(title="The answer", summary="It is 42.", conclusions=["42"])),
        }
        if agent not in answers:
            raise AssertionError(f"unexpected agent {agent}")
        return answers[agent]


TASK = "Compute the answer to everything and interpret it."


def events(run: Path) -> list[Event]:
    return list(read_events(run / "events.jsonl"))


def started_steps(evs: list[Event]) -> list[str]:
    return [e.data["step_id"] for e in evs if e.type == "step_started"]


def finished(evs: list[Event]) -> dict[str, str]:
    return {e.data["step_id"]: e.data["status"] for e in evs if e.type == "step_finished"}


def tree_digest(folder: Path, *, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    """Every regular file under ``folder`` (relative name -> bytes), for "no file was lost or changed"."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_file() and not path.is_symlink() and not rel.startswith(skip):
            out[rel] = path.read_bytes()
    return out
