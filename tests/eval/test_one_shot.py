"""The one-shot baseline against the scripted fake model, in the real sandbox: one call to the engineer with the
task, the data's description and the method catalogue; one program run once in the run folder; the result,
the figure and the cost recorded like a graph run's and graded by the same grader; self-repair rounds only
when asked for; the offline backend makes no call and says that one-shot needs a model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.agents import CodeDraft
from cmbagent.eval import SuiteTask, grade_run, load_grader, read_outcome, run_one_shot
from cmbagent.models import ScriptedModel, Usage
from cmbagent.task import load_task
from tests.planner.test_realistic_run import sandbox_backend

TASK = """# Slope of a calibration line

`data/line.csv` holds 20 calibration points (`x`, `y`). Fit a straight line by least squares and report its
slope as `slope`; plot the points with the fit, label the axes and add a legend, and save the plot as
`figures/calibration.png`.
"""

PROGRAM = """import json
import numpy as np
import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

df = pd.read_csv("data/line.csv")
slope, intercept = np.polyfit(df["x"], df["y"], 1)
fig, ax = plt.subplots()
ax.plot(df["x"], df["y"], "o", label="data")
ax.plot(df["x"], slope * df["x"] + intercept, label="fit")
ax.set_xlabel("x"); ax.set_ylabel("y"); ax.legend()
fig.savefig("figures/calibration.png")
print("<<<CMBAGENT_RESULT")
print(json.dumps({"slope": float(slope)}))
print("CMBAGENT_RESULT>>>")
"""

GRADER = """kind: code
checks:
  - value: slope
    expected: 2.0
    tolerance: {abs: 0.01}
    why: the line is y = 2x + 1 with ±0.01 wiggles
  - figure: 'figures/calibration.png'
    xlabel: 'x'
    min_series: 2
    legend: true
    why: data and fit, labelled
"""


@pytest.fixture
def task(tmp_path: Path) -> tuple[object, SuiteTask]:
    folder = tmp_path / "suite"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "line.csv").write_text("x,y\n" + "".join(f"{x},{2 * x + 1 + 0.01 * (-1) ** x}\n" for x in range(20)))
    (folder / "line.md").write_text(TASK)
    (folder / "line.grade.yaml").write_text(GRADER)
    suite_task = SuiteTask(name="line", path=str(folder / "line.md"), grader=load_grader(folder / "line.grade.yaml"))
    return load_task(folder / "line.md"), suite_task


def test_one_call_one_program_graded_like_a_graph_run(tmp_path: Path, task: tuple) -> None:
    parsed, suite_task = task
    model = ScriptedModel([CodeDraft(code=PROGRAM, explanation="fits the line and plots it")],
                          usage=Usage(input_tokens=1200, output_tokens=300))
    record = run_one_shot(parsed, run_dir=tmp_path / "run", model="scripted", models={"scripted": model},
                          sandbox=sandbox_backend())
    assert record["status"] == "done", record.get("error")
    assert len(model.requests) == 1
    request = model.requests[0]
    assert request.agent == "engineer" and request.output_schema is not None
    system, user = (m.content for m in request.messages)
    assert "You are the engineer" in str(system)
    assert "Fit a straight line" in str(user)                    # the task
    assert "`data/line.csv`" in str(user) and "x,y" in str(user)  # the data's description: its first lines
    assert "cosmology.fit_supernovae" in str(user)               # the method catalogue
    run = tmp_path / "run"
    assert (run / "program.py").read_text() == PROGRAM and (run / "figures" / "calibration.png").is_file()
    saved = json.loads((run / "run.json").read_text())
    assert saved["mode"] == "one-shot" and saved["values"] == {"slope": pytest.approx(2.0, abs=1e-3)}
    assert saved["costs"]["total"]["calls"] == 1 and saved["costs"]["total"]["total_tokens"] == 1500
    assert (run / "transcript.jsonl").is_file() and "one-shot" in (run / "report.md").read_text()
    outcome = read_outcome(run, mode="one-shot", status="done")
    grade = grade_run(suite_task, outcome)
    assert grade.verdict == "pass", grade.why
    assert grade.tokens == 1500 and grade.calls == 1 and outcome.findings is None


def test_an_error_is_final_without_repairs_and_repaired_with_them(tmp_path: Path, task: tuple) -> None:
    parsed, suite_task = task
    broken = PROGRAM.replace('df["x"], df["y"], 1', 'df["x"], df["z"], 1')  # a column that is not there
    once = ScriptedModel([CodeDraft(code=broken)])
    record = run_one_shot(parsed, run_dir=tmp_path / "once", model="scripted", models={"scripted": once},
                          sandbox=sandbox_backend())
    assert record["status"] == "failed" and "KeyError" in record["error"] and len(once.requests) == 1
    assert grade_run(suite_task, read_outcome(tmp_path / "once", mode="one-shot", status="failed")).verdict == "fail"

    twice = ScriptedModel([CodeDraft(code=broken), CodeDraft(code=PROGRAM)])
    record = run_one_shot(parsed, run_dir=tmp_path / "twice", model="scripted", models={"scripted": twice},
                          sandbox=sandbox_backend(), repairs=1)
    assert record["status"] == "done" and record["attempts"] == 2
    repair = str(twice.requests[1].messages[-1].content)
    assert "previous program failed" in repair and "KeyError" in repair and 'df["z"]' in repair
    assert sorted(p.name for p in (tmp_path / "twice" / "attempts").iterdir()) == ["attempt-1.py", "attempt-2.py"]


def test_the_offline_backend_makes_no_call_and_needs_a_model(tmp_path: Path, task: tuple) -> None:
    parsed, suite_task = task
    record = run_one_shot(parsed, run_dir=tmp_path / "run", model="offline")
    assert record["needs_model"] and record["costs"]["total"]["calls"] == 0
    grade = grade_run(suite_task, read_outcome(tmp_path / "run", mode="one-shot", status="failed"))
    assert grade.verdict == "needs_model" and "needs a language model" in grade.why
