"""Helpers for graph tests: a scripted 'brain' that answers by agent, tasks, event reading."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cmbagent.agents import (
    AuditReport,
    CodeReview,
    Critique,
    PlanReview,
    ReportDraft,
    StepSummary,
    TaskBrief,
    TextAnswer,
)
from cmbagent.cells import RESULT_BEGIN, RESULT_END
from cmbagent.events import Event, read_events
from cmbagent.models import ModelRequest, ScriptedModel
from cmbagent.state import RequirementList

BEGIN, END = RESULT_BEGIN, RESULT_END

Handler = Callable[[ModelRequest], Any]


def result_code(values: dict[str, Any], body: str = "") -> str:
    return f"{body}\nimport json\nprint({BEGIN!r})\nprint(json.dumps({values!r}))\nprint({END!r})\n"


def step_id(request: ModelRequest) -> str:
    """The id of the step a request is about, read from its typed context (what the prompt was rendered from)."""
    step = getattr(request.context, "step", None)
    if step is not None:
        return str(step.id)
    match = re.search(r"^Step (\S+):", request.messages[-1].text(), re.M)  # a request made without a context
    return match.group(1) if match else ""


def _results(request: ModelRequest) -> str:
    """The done steps' values as a reporter states them (names and numbers; ``report.answer_missing``)."""
    results = getattr(request.context, "results", [])
    stated = [f"{name} = {value}" for r in results if r.status == "done" for name, value in r.values.items()]
    return "; ".join(stated) + "." if stated else "nothing was computed."


DEFAULTS: dict[str, Handler] = {
    "task_analyst": lambda r: TaskBrief(title="Test task", objective="Test the graph."),
    "requirements_analyst": lambda r: RequirementList(),
    "plan_reviewer": lambda r: PlanReview(approved=True),
    "code_reviewer": lambda r: CodeReview(approved=True),
    "step_critic": lambda r: Critique(accepted=True, verdict="fine"),
    "science_checker": lambda r: Critique(accepted=True, verdict="plausible"),
    "plot_critic": lambda r: Critique(accepted=True, verdict="good figure"),
    "summariser": lambda r: StepSummary(summary=f"Step {step_id(r)} finished as planned."),
    "researcher": lambda r: TextAnswer(text="An interpretation.", key_points=["a point"]),
    "reproducibility_auditor": lambda r: AuditReport(reproducible=True, findings=["all cells seeded"]),
    "reporter": lambda r: ReportDraft(title="Test report", summary="It worked: " + _results(r), conclusions=["ok"]),
}


def brain(**handlers: Handler) -> ScriptedModel:
    """A scripted model answering each agent with ``handlers[agent]`` (falling back to :data:`DEFAULTS`)."""
    table = {**DEFAULTS, **handlers}

    def answer(request: ModelRequest) -> Any:
        if request.agent not in table:
            raise AssertionError(f"unexpected call to {request.agent}")
        return table[request.agent](request)

    return ScriptedModel(fn=answer)


def events(run_dir: Path) -> list[Event]:
    return list(read_events(run_dir / "events.jsonl"))


def of_type(run_dir: Path, kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events(run_dir) if e.type == kind]


def chain_task(folder: Path, *, extra: str = "") -> Path:
    """A small MCMC chain and a task that the offline backend maps to cosmology.summarize_chain."""
    import numpy as np

    rng = np.random.default_rng(1)
    samples = np.column_stack([rng.normal(0.3, 0.02, 2000), rng.normal(0.7, 0.01, 2000)])
    np.savetxt(folder / "chain.txt", samples, header="omega_m h0", fmt="%.6f")
    task = folder / "task.md"
    task.write_text(
        "---\ntitle: Summarise a chain\nmethod: cosmology.summarize_chain\narguments: {chain: chain.txt}\n"
        f"{extra}---\nSummarise the MCMC chain: posterior means and 68% intervals of every parameter.\n"
    )
    return task


def plan_json(run_dir: Path) -> dict[str, Any]:
    return dict(json.loads((run_dir / "plan.json").read_text()))
