"""The rl family's public surface and registration."""

from __future__ import annotations

from pathlib import Path

import cmbagent.tools.methods.rl as rl
from cmbagent.agents import match_method
from cmbagent.task import load_task
from cmbagent.tools.methods import get_family, iter_methods, validate_arguments


def test_public_names_are_pinned() -> None:
    assert set(rl.__all__) == {
        "FAMILY", "TD3BC", "Answers", "InverseDynamics", "Labeler", "LinearRewardModel", "WindowDiffusion",
        "compare_query_types", "diffusion_world_model", "distinguishability_queries", "returns_to_go", "run_queries",
    }


def test_family_registers_through_the_entry_point() -> None:
    names = {spec.name for spec in iter_methods() if spec.family == "rl"}
    assert names == {"rl.distinguishability_queries", "rl.diffusion_world_model"}
    assert get_family("rl").expert == "rl_engineer"


def test_example_tasks_name_the_family_and_valid_arguments() -> None:
    examples = sorted((Path(__file__).resolve().parents[3] / "examples").glob("rl_*.md"))
    assert len(examples) == 2
    for path in examples:
        task = load_task(path)
        assert task.method is not None and task.method.startswith("rl.")
        assert match_method(task.text) == task.method  # the keywords alone find the method
        validate_arguments(task.method, dict(task.arguments))  # raises UserError on a bad argument
