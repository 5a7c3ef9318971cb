"""`cmbagent solve` offline end to end with the real sandbox, the run folder and report it leaves, then a
replay of the recorded run with no network that reproduces the plan, the cells and the numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.api import replay, solve
from cmbagent.cli import app
from tests.planner._support import chain_task, of_type

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.slow]


def test_offline_solve_then_replay(tmp_path: Path) -> None:
    task = chain_task(tmp_path)
    ws = tmp_path / "ws"
    result = solve(task, workspace=ws, sandbox="process")
    assert result.status == "done", result.error
    run = result.run_dir
    # the offline planner mapped the task: inspect -> method -> interpret
    assert [s["agent"] for s in result.steps] == ["data_engineer", "method_operator", "cosmologist"]
    assert result.values["Omega_m"]["mean"] == pytest.approx(0.30, abs=0.01)
    assert result.values["Omega_m"]["std"] == pytest.approx(0.02, abs=0.003)
    assert (run / "data" / "chain.txt").is_file()
    task_md = (run / "task.md").read_text()
    assert "chain: data/chain.txt" in task_md  # file arguments point into the run folder
    method_cell = next((run / "steps").glob("02-*/cells/attempt-1.py")).read_text()
    assert "run_method('cosmology.summarize_chain'" in method_cell and "data/chain.txt" in method_cell
    assert list((run / "figures").rglob("*.png"))
    report = (run / "report.md").read_text()
    row = next(line for line in report.splitlines() if line.startswith("| Omega_m |"))
    assert "steps/02-run-cosmology-summarize-chain/cells/attempt-1.py" in row
    assert "## Costs per agent" in report and "| planner | 1 |" in report
    nb = json.loads((run / "notebook.ipynb").read_text())
    assert len([c for c in nb["cells"] if c["cell_type"] == "code"]) == 2
    run_json = json.loads((run / "run.json").read_text())
    assert run_json["status"] == "done" and run_json["config"]["model"] == "offline"
    assert run_json["steps_done"] == 3 and run_json["cost_usd"] == 0.0

    replayed, comparison = replay(run, workspace=tmp_path / "replays")
    assert replayed.status == "done", replayed.error
    assert comparison["same_plan"] and comparison["same_cells"] and comparison["same_numbers"], comparison
    assert comparison["n_cells"] == 2
    assert replayed.values["Omega_m"] == result.values["Omega_m"]
    assert json.loads((replayed.run_dir / "run.json").read_text())["config"]["model"].startswith("replay:")

    # `cmbagent runs` lists it; `cmbagent report` re-renders the same report
    runner = CliRunner()
    listing = runner.invoke(app, ["runs", "--workspace", str(ws)])
    assert listing.exit_code == 0 and run.name in listing.output and "done" in listing.output
    (run / "report.md").unlink()
    again = runner.invoke(app, ["report", str(run)])
    assert again.exit_code == 0, again.output
    assert (run / "report.md").read_text() == report
    assert of_type(run, "run_finished")[-1]["status"] == "done"
