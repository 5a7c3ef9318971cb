"""Run configuration: flag given > environment > task front matter > config file > default, with "given"
known from the call (a flag equal to its default still wins), and the resolved config stored for resume."""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.api import solve
from cmbagent.config import RunConfig
from cmbagent.exceptions import ConfigError
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.session import RunSession
from cmbagent.state import PlanDraft, StepDraft
from tests.planner._support import brain

FILE = {"models": {"default": "openai:from-file", "agents": {"planner": "openai:planner-from-file"}},
        "budget": {"usd": 1.0, "tokens": 1000, "seconds": 60}}
TASK = {"model": "openai:from-task", "agent_models": {"planner": "openai:planner-from-task"}, "budget_usd": 2.0,
        "max_steps": 5, "n_reviews": 0}
ENV = {"CMBAGENT_MODEL": "openai:from-env", "CMBAGENT_BUDGET_USD": "3"}


def resolve(flags: dict[str, object], env: dict[str, str] | None = None, task: dict[str, object] | None = None,
            file: dict[str, object] | None = None) -> RunConfig:
    return RunConfig.resolve(flags=flags, env=env or {}, front_matter=task, config_file=file or {})


def test_each_layer_beats_the_ones_below() -> None:
    everything = resolve({"model": "openai:from-flag", "budget_usd": 4.0, "max_steps": 12}, ENV, TASK, FILE)
    assert (everything.model, everything.budget.usd, everything.settings.max_steps) == ("openai:from-flag", 4.0, 12)
    assert everything.sources["default"] == "flag" and everything.sources["budget.usd"] == "flag"
    env = resolve({}, ENV, TASK, FILE)
    assert (env.model, env.budget.usd, env.sources["default"]) == ("openai:from-env", 3.0, "env")
    task = resolve({}, {}, TASK, FILE)
    assert (task.model, task.budget.usd, task.settings.max_steps, task.settings.n_reviews) == (
        "openai:from-task", 2.0, 5, 0)
    assert task.agent_models["planner"] == "openai:planner-from-task" and task.sources["agent:planner"] == "task"
    assert task.budget.tokens == 1000 and task.sources["budget.tokens"] == "config"
    file = resolve({}, {}, {}, FILE)
    assert (file.model, file.budget.usd, file.sources["default"]) == ("openai:from-file", 1.0, "config")
    default = resolve({})
    assert (default.model, default.settings.max_steps, default.sources["max_steps"]) == ("offline", 12, "default")


def test_a_given_flag_equal_to_its_default_still_wins_over_the_front_matter() -> None:
    assert resolve({"max_steps": 12, "n_reviews": 1}, task=TASK).settings.max_steps == 12
    assert resolve({"max_steps": None}, task=TASK).settings.max_steps == 5  # None: not given


def test_bad_settings_say_what_to_fix() -> None:
    with pytest.raises(ConfigError, match="max_steps: Input should be greater than or equal to 1"):
        resolve({"max_steps": 0})


def test_solve_honours_an_explicit_default_and_resume_reads_the_stored_config(tmp_path: Path) -> None:
    task = tmp_path / "task.md"
    task.write_text("---\ntitle: Two paragraphs\nmax_steps: 1\nn_reviews: 0\n---\nWrite two paragraphs.\n")
    two = PlanDraft(steps=[StepDraft(title=t, goal=f"Write {t}.", agent="researcher") for t in ("a", "b")])
    model = brain(planner=lambda r: two)
    # the front matter allows one step; the caller explicitly allows twelve (the default value)
    result = solve(task, workspace=tmp_path, model="scripted", models={"scripted": model}, max_steps=12,
                   executor=InMemoryExecutor)
    assert result.status == "done", result.error
    assert [s["id"] for s in result.steps] == ["s1", "s2"]
    stored = RunSession.open(result.run_dir).config
    assert stored.settings.max_steps == 12 and stored.sources["max_steps"] == "flag"
    assert stored.settings.n_reviews == 0 and stored.sources["n_reviews"] == "task"
