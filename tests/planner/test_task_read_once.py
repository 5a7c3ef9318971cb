"""The task is read once a run: pre-flight reads it (the method choice, the arguments, what each input file holds)
before the run folder exists, and the graph's analyst uses that reading, handed on through the run's runtime
context, instead of reading the task and profiling its inputs again.

The reader's functions are wrapped by spies that count their calls and return what the real function returns."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import cmbagent.agents
import cmbagent.agents._reading
import cmbagent.inputs
from cmbagent.api import solve
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.state import PlanDraft, StepDraft
from tests.planner._support import brain, chain_task

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, calls: list[dict[str, Any]]) -> None:
    real: Callable[..., Any] = getattr(module, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_preflight_and_the_analyst_share_one_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[dict[str, Any]] = []
    profiles: list[dict[str, Any]] = []
    understood: list[dict[str, Any]] = []
    _spy(monkeypatch, cmbagent.agents, "read_task", reads)
    _spy(monkeypatch, cmbagent.inputs, "profile_inputs", profiles)
    _spy(monkeypatch, cmbagent.agents._reading, "understand", understood)  # what read_task reads a method with
    _spy(monkeypatch, cmbagent.agents, "understand_task", understood)  # what the analyst's checklist reads with
    task = chain_task(tmp_path)
    plan = PlanDraft(steps=[StepDraft(title="Say it", goal="Say what the chain holds.", agent="researcher")])
    result = solve(task, workspace=tmp_path / "ws", model="scripted", models={"scripted": brain(planner=lambda r: plan)},
                   executor=InMemoryExecutor)
    assert result.status == "done", result.error
    assert len(reads) == 1 and len(profiles) == 1  # pre-flight's; the analyst read none again
    assert len([c for c in understood if c.get("profiles") is not None]) == 1
    run = json.loads((result.run_dir / "run.json").read_text())
    # the analyst used that reading: its record of the arguments is in run.json
    assert run["understanding"]["method"] == "cosmology.summarize_chain"
    assert run["understanding"]["arguments"]["chain"]["value"] == "data/chain.txt"
