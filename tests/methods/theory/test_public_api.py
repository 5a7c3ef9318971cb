"""The theory family's public surface and registration."""

from __future__ import annotations

from pathlib import Path

import cmbagent.tools.methods.theory as theory
from cmbagent.agents import match_method
from cmbagent.task import load_task
from cmbagent.tools.methods import get_family, iter_methods, validate_arguments


def test_public_names_are_pinned() -> None:
    assert set(theory.__all__) == {
        "FAMILY", "LIFNetwork", "TubalGD", "block_circulant", "count_regions", "lif_snn_regions", "make_problem",
        "neuron_partition", "random_network", "single_neuron_trains", "singular_tubes", "t_product",
        "t_product_circulant", "t_transpose", "tubal_rank", "tubal_tensor_gd",
    }


def test_family_registers_through_the_entry_point() -> None:
    names = {spec.name for spec in iter_methods() if spec.family == "theory"}
    assert names == {"theory.tubal_tensor_gd", "theory.lif_snn_regions"}
    assert get_family("theory").expert == "ml_theorist"


def test_example_tasks_name_the_family_and_valid_arguments() -> None:
    examples = sorted((Path(__file__).resolve().parents[3] / "examples").glob("theory_*.md"))
    assert len(examples) == 2
    for path in examples:
        task = load_task(path)
        assert task.method is not None and task.method.startswith("theory.")
        assert match_method(task.text) == task.method  # the keywords alone find the method
        validate_arguments(task.method, dict(task.arguments))  # raises UserError on a bad argument
