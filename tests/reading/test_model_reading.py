"""A language model keeps the reader's contract (issue 29): the task analyst is offered only the methods that fit
by meaning (an enum of the top candidates, or none), and its arguments are checked by the same code — what code
read surely wins over what the model wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import TaskBrief
from cmbagent.api import solve
from cmbagent.models import ModelRequest
from cmbagent.sandbox import InMemoryExecutor
from tests.planner._support import brain
from tests.reading import _make

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning",
                                                            "ignore::RuntimeWarning")]

TEXT = ("In `programme.csv`, people with `enrolled` = 1 took our job-training programme. What did it do to 2022 "
        "earnings (`earn22`)? Adjust for age, years of schooling and earnings in 2019 and 2020.\n")


def _method_enum(schema: dict[str, Any]) -> list[str]:
    method = schema["properties"]["method"]
    options = method.get("anyOf") or [method]
    return [v for option in options for v in option.get("enum", [])]


def test_the_analyst_chooses_among_the_candidates_and_code_checks_its_arguments(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    _make.programme(folder)
    (folder / "task.md").write_text(TEXT)
    seen: dict[str, Any] = {}

    def analyst(request: ModelRequest) -> TaskBrief:
        assert request.output_schema is not None
        seen["enum"] = _method_enum(request.output_schema.model_json_schema())
        seen["context"] = request.messages[-1].text()
        # a small model's reading: the right method, but the outcome of another year and a made-up column
        return TaskBrief(title="Programme effect", objective="The programme's effect on earnings.",
                         method="causal.dml_ate", arguments={"outcome": "earn19", "treatment": "enrolled",
                                                             "covariates": ["age", "schooling_years"]})

    model = brain(task_analyst=analyst)
    result = solve(folder / "task.md", workspace=tmp_path / "ws", model="offline",
                   agent_models={"task_analyst": "scripted"}, models={"scripted": model},
                   executor=InMemoryExecutor, n_reviews=0)
    # offered only methods that fit by meaning, never the whole catalogue (24 methods)
    assert seen["enum"][0] == "causal.dml_ate" and 1 <= len(seen["enum"]) <= 3
    assert all(name.startswith("causal.") for name in seen["enum"])
    assert "What the data files hold" in seen["context"] and "enrolled: binary 0/1" in seen["context"]
    assert result.status == "done", result.error
    step = json.loads((result.run_dir / next(s["dir"] for s in result.steps if s["agent"] == "method_operator")
                       / "step.json").read_text())
    arguments = step["method"]["arguments"]
    assert arguments["outcome"] == "earn22"  # code read the outcome surely; the model's other year lost
    assert set(arguments["covariates"]) == {"age", "school", "earn19", "earn20"}
