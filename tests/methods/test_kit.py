"""The method author's kit (tools/methods/_kit.py): the helpers every family shares behave as the families
relied on when each had its own copy."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods._kit import blas_threads, check_positive, check_range, output_path, set_threads


def test_output_path_creates_the_folder_and_names_the_file(tmp_path: Path) -> None:
    target = output_path(str(tmp_path / "out" / "figs"), "fit.png")
    assert target == tmp_path / "out" / "figs" / "fit.png"
    assert target.parent.is_dir() and not target.exists()
    assert output_path(str(tmp_path / "out" / "figs"), "again.png").parent == target.parent  # exists already: fine


@pytest.mark.parametrize("value", [0, -1.5, math.inf, math.nan])
def test_check_positive_refuses_what_is_not_a_finite_positive_number(value: float) -> None:
    with pytest.raises(UserError, match=r"^n_steps: must be a positive number, got"):
        check_positive(value, argument="n_steps")


def test_check_positive_integer_and_minimum() -> None:
    check_positive(3, argument="seeds", integer=True)
    check_positive(0.25, argument="lr")
    with pytest.raises(UserError, match=r"seeds: must be a positive integer, got 2\.5"):
        check_positive(2.5, argument="seeds", integer=True)
    check_positive(4, argument="rank", integer=True, minimum=4)
    with pytest.raises(UserError, match="rank: must be at least 4, got 3"):
        check_positive(3, argument="rank", integer=True, minimum=4)


def test_check_range_is_inclusive_and_names_the_bounds() -> None:
    check_range(0.05, 0.05, 0.9, argument="test_fraction")
    check_range(0.9, 0.05, 0.9, argument="test_fraction")
    for bad in (1.0, 0.0, math.nan):
        with pytest.raises(UserError, match=r"test_fraction: must lie in \[0.05, 0.9\]"):
            check_range(bad, 0.05, 0.9, argument="test_fraction")


def test_threads_are_one_unless_the_environment_says_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch
    from threadpoolctl import threadpool_info

    before = torch.get_num_threads()
    try:
        monkeypatch.delenv("CMBAGENT_TORCH_THREADS", raising=False)
        set_threads()
        assert torch.get_num_threads() == 1
        set_threads(2)
        assert torch.get_num_threads() == 2
        monkeypatch.setenv("CMBAGENT_TORCH_THREADS", "3")
        set_threads()
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(before)

    monkeypatch.setenv("CMBAGENT_TORCH_THREADS", "0")
    with blas_threads():
        blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
        assert blas and all(pool["num_threads"] == 1 for pool in blas)
