"""A realistic multi-step run over HTTP: the real openai SDK talks to the fake OpenAI server, which answers
as each agent would.  A cell fails and the debugger fixes it; the critic rejects a figure, the controller
asks for a replan and the replanner revises the remaining steps; the report links numbers to cells."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import (
    AuditReport,
    CodeDraft,
    CodeReview,
    ControlDecision,
    Critique,
    DebugFix,
    PlanReview,
    ReplanDecision,
    ReportDraft,
    StepSummary,
    TaskBrief,
    TextAnswer,
)
from cmbagent.api import solve
from cmbagent.planner import Plan, PlanStep
from cmbagent.state import RequirementList
from tests.fakes import FakeLLMServer, Json, RecordedRequest
from tests.planner._support import BEGIN, END, of_type

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.slow]

FIT = f"""x, y = np.loadtxt("data/line.csv", delimiter=",", skiprows=1, unpack=True)
coef, cov = np.polyfit(x, y, 1, cov=True)
import json
print({BEGIN!r})
print(json.dumps({{"slope": {{"mean": float(coef[0]), "std": float(np.sqrt(cov[0, 0]))}}}}))
print({END!r})
"""
PLOT = f"""import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
x, y = np.loadtxt("data/line.csv", delimiter=",", skiprows=1, unpack=True)
fig, ax = plt.subplots()
ax.plot(x, y, "o")
ax.set_xlabel("x")
ax.set_ylabel("y")
fig.savefig("figures/{{name}}.png")
plt.close(fig)
print({BEGIN!r})
print(json.dumps({{{{"figures": ["figures/{{name}}.png"]}}}}))
print({END!r})
"""


TWO_WORD_AGENTS = {"task_analyst", "requirements_analyst", "plan_reviewer", "code_reviewer", "step_critic", "plot_critic",
                   "reproducibility_auditor"}


def step(sid: str, title: str, agent: str) -> PlanStep:
    return PlanStep(id=sid, title=title, goal=f"{title}.", agent=agent, acceptance_criteria=[f"{title} done"])


class Agents:
    """Answers each request as the agent named in its system prompt would."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.images: list[dict[str, Any]] = []

    def __call__(self, request: RecordedRequest) -> Json:
        messages = request.body["messages"]
        system = messages[0]["content"]
        user = messages[-1]["content"]
        if isinstance(user, list):  # text + images (the plot critic on a vision model)
            self.images += [part for part in user if part.get("type") == "image_url"]
            user = "\n".join(part["text"] for part in user if part.get("type") == "text")
        words = re.match(r"You are the (\w+)(?: (\w+))?", system.strip())
        assert words is not None, system[:80]
        two = f"{words.group(1)}_{words.group(2)}".lower()
        name = two if two in TWO_WORD_AGENTS else words.group(1).lower()
        self.calls.append(name)
        sid = (re.search(r"^Step (\S+):", user, re.M) or [None, ""])[1]
        return Json(self.reply(name, sid, user), input_tokens=len(system + user) // 4, output_tokens=50)

    def reply(self, agent: str, sid: str, user: str) -> Any:
        if agent == "task_analyst":
            return TaskBrief(title="Slope of a line", objective="Measure the slope of y(x).",
                             data_files=["data/line.csv"], deliverables=["slope with error", "a figure"])
        if agent == "planner":
            return Plan(steps=[step("s1", "Fit the line", "engineer"), step("s2", "Plot the data", "visualiser"),
                               step("s3", "Interpret", "researcher")])
        if agent == "plan_reviewer":
            return PlanReview(approved=True)
        if agent == "engineer":
            return CodeDraft(code=FIT, explanation="fit")  # forgets `import numpy as np`
        if agent == "code_reviewer":
            return CodeReview(approved=True)
        if agent == "debugger":
            assert "NameError" in user and "np.loadtxt" in user
            return DebugFix(diagnosis="numpy was not imported", code="import numpy as np\n" + FIT)
        if agent == "visualiser":
            return CodeDraft(code=PLOT.format(name=f"plot-{sid}"))
        if agent == "step_critic":
            if sid == "s2":
                return Critique(accepted=False, verdict="The plot lacks the fitted line.",
                                issues=["overplot the fitted line"])
            return Critique(accepted=True, verdict="Criteria met.")
        if agent == "plot_critic":
            return Critique(accepted=True, verdict="Readable.")
        if agent == "controller":
            return ControlDecision(action="replan", reason="the figure needs a different step")
        if agent == "replanner":
            return ReplanDecision(action="revise", reason="plot the data with the fit instead",
                                  new_steps=[step("s4", "Plot data and fit", "visualiser"),
                                             step("s5", "Interpret the slope", "researcher")])
        if agent == "researcher":
            return TextAnswer(text="The slope is close to 2.", key_points=["slope ≈ 2"])
        if agent == "summariser":
            return StepSummary(summary=f"{sid} finished.")
        if agent == "reproducibility_auditor":
            return AuditReport(reproducible=True, findings=[])
        if agent == "requirements_analyst":
            return RequirementList()
        if agent == "reporter":
            return ReportDraft(title="Slope of a line", summary="The slope is 2.0 within its error.",
                               conclusions=["slope ≈ 2"], limitations=["s2 was replaced"])
        raise AssertionError(f"unexpected agent {agent}")


def sandbox_backend() -> str:
    from cmbagent.sandbox import probe_backends

    return "bwrap" if probe_backends()["bwrap"].available else "process"


def test_debugger_fix_critic_rejection_replan_and_report(tmp_path: Path) -> None:
    data = tmp_path / "line.csv"
    data.write_text("x,y\n" + "".join(f"{x},{2 * x + 1 + 0.01 * ((-1) ** x)}\n" for x in range(20)))
    agents = Agents()
    with FakeLLMServer(fn=agents) as server:
        result = solve("Measure the slope of y against x in line.csv and plot it.", data_files=[data],
                       workspace=tmp_path / "ws", model=f"openai-compatible:fake-model@{server.openai_url}",
                       agent_models={"plot_critic": f"openai-compatible:fake-vision@{server.openai_url}"},
                       sandbox=sandbox_backend())
    run = result.run_dir
    assert result.status == "done", result.error
    assert agents.calls[0] == "task_analyst" and "debugger" in agents.calls and "replanner" in agents.calls
    # the plot critic, routed to a vision model, saw the figures themselves
    assert agents.images and agents.images[0]["image_url"]["url"].startswith("data:image/png;base64,")

    cells = [c for c in of_type(run, "cell_executed") if c["step_id"] == "s1"]
    assert [c["status"] for c in cells] == ["error", "ok"]
    assert "NameError" in cells[0]["error"]
    assert result.values["slope"]["mean"] == pytest.approx(2.0, abs=0.01)

    critiques = of_type(run, "step_critiqued")
    assert any(c["step_id"] == "s2" and not c["accepted"] for c in critiques)
    replans = of_type(run, "replanned")
    assert replans and replans[0]["new_steps"] == ["s4", "s5"] and replans[0]["skipped"] == ["s3"]
    finished = {e["step_id"]: e["status"] for e in of_type(run, "step_finished")}
    assert finished == {"s1": "done", "s2": "failed", "s4": "done", "s5": "done"}

    # run folder layout (docs/architecture.md, "The run folder")
    for name in ("task.md", "run.json", "plan.json", "notebook.ipynb", "transcript.jsonl", "events.jsonl",
                 "checkpoints.sqlite", "report.md"):
        assert (run / name).is_file(), name
    fit_dir = next((run / "steps").glob("01-*"))
    assert {p.name for p in (fit_dir / "cells").iterdir()} == {"attempt-1.py", "attempt-2.py"}
    for name in ("step.json", "summary.md", "critique.json"):
        assert (fit_dir / name).is_file()
    assert (run / "figures" / "plot-s4.png").is_file()
    assert len(list((run / "plans").glob("plan-*.json"))) == 2
    assert json.loads((run / "plan.json").read_text())["steps"][-1]["id"] == "s5"

    report = (run / "report.md").read_text()
    cell_link = f"[{fit_dir.relative_to(run)}/cells/attempt-2.py]"
    slope_row = next(line for line in report.splitlines() if line.startswith("| slope |"))
    assert cell_link in slope_row and re.search(r"\| 1\.999\d+ ± 0\.000\d+ \|", slope_row), slope_row
    assert "s2 (Plot the data) failed" in report and "overplot the fitted line" in report
    assert "![plot-s4.png](figures/plot-s4.png)" in report
    assert "| debugger | 1 |" in report  # costs per agent
    assert "## Package versions" in report and "numpy" in report
    # every model call was recorded with its usage
    transcript = [json.loads(line) for line in (run / "transcript.jsonl").read_text().splitlines()]
    assert len(transcript) == len(agents.calls)
