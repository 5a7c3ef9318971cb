"""With a model as the task analyst, what code's reading of the task could not settle is said, not dropped.

Offline, pre-flight asks the person and nothing runs. With a model nothing stops the run there (the analyst
decides), so every open point of code's reading for the method the run uses becomes a ``task.reading_unsettled``
warning in run.json, with the questions code would have asked and the arguments that decided them (issue 29: a
small model's analyst planned runs with wrong arguments on tasks the offline reader asked about).

The model is faked at the HTTP boundary (the real OpenAI SDK against tests.fakes.FakeLLMServer)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.api import solve
from cmbagent.sandbox import InMemoryExecutor
from tests.fakes import FakeLLMServer
from tests.planner.test_sure_reading_pins_the_method import SmallModel, _distances

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_points_the_reading_left_open_are_a_warning_with_the_questions(tmp_path: Path) -> None:
    _distances(tmp_path / "hubble_flow.csv")
    task = tmp_path / "task.md"
    task.write_text("# Matter density\n\nFrom the supernova distance moduli in `hubble_flow.csv`, what matter density "
                    "does a flat ΛCDM universe prefer? Treat an extra host dispersion as free, with a flat prior from "
                    "0.05 to 0.4 mag.\n")
    with FakeLLMServer(fn=SmallModel()) as server:
        result = solve(task, run_dir=tmp_path / "run", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
    run = json.loads((result.run_dir / "run.json").read_text())
    unsettled = [f for f in run.get("findings", []) if f["code"] == "task.reading_unsettled"]
    assert unsettled, [f["code"] for f in run.get("findings", [])]
    assert unsettled[0]["severity"] == "warning"
    assert any("0.4" in q for q in unsettled[0]["evidence"]["questions"]), unsettled[0]["evidence"]
    assert unsettled[0]["evidence"]["method"] == "cosmology.fit_supernovae"


def test_a_settled_reading_adds_no_warning(tmp_path: Path) -> None:
    _distances(tmp_path / "hubble_flow.csv")
    task = tmp_path / "task.md"
    task.write_text("# Matter density\n\nFrom the supernova distance moduli in `hubble_flow.csv`, what matter density "
                    "does a flat ΛCDM universe prefer?\n")
    with FakeLLMServer(fn=SmallModel()) as server:
        result = solve(task, run_dir=tmp_path / "run", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
    run = json.loads((result.run_dir / "run.json").read_text())
    assert "task.reading_unsettled" not in [f["code"] for f in run.get("findings", [])]
