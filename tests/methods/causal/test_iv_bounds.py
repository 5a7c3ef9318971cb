"""causal.iv_cate_bounds: the validations of METHODS.md ("CATE bounds with high-dimensional instruments")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import get_method
from cmbagent.tools.methods.causal import iv_cate_bounds
from cmbagent.tools.methods.causal._simulate import iv_simulation
from cmbagent.tools.methods.causal.iv_bounds import NuisanceGrid, cell_bounds, one_hot


def _write(tmp_path: Path, n: int, seed: int) -> tuple[str, list[str]]:
    sim = iv_simulation(n, seed)
    names = [f"z{j}" for j in range(sim["z"].shape[1])]
    frame = pd.DataFrame(sim["z"], columns=names)
    frame["x"], frame["a"], frame["y"], frame["cate"] = sim["x"], sim["a"], sim["y"], sim["cate"]
    path = tmp_path / "iv.csv"
    frame.to_csv(path, index=False)
    return str(path), names


def test_bounds_cover_true_cate_and_learned_partition_is_narrowest(tmp_path: Path) -> None:
    data, instruments = _write(tmp_path, 1200, seed=0)
    result = iv_cate_bounds(
        data,
        outcome="y",
        treatment="a",
        covariates=["x"],
        instruments=instruments,
        n_cells=4,
        outcome_support=[0.0, 1.0],
        reference_cate="cate",
        output_dir=str(tmp_path),
    )
    v = result.values
    assert v["coverage"] >= 0.95
    assert v["manski_width"] == 1.0
    assert v["mean_width"] < v["manski_width"]
    assert v["learned_mean_width"] <= v["kmeans_mean_width"]
    assert v["learned_mean_width"] <= v["quantile_mean_width"]
    bounds = pd.read_csv(result.artifacts[0])
    assert len(bounds) == 1200 and (bounds["upper"] >= bounds["lower"]).mean() > 0.95
    assert result.ok


def test_one_cell_gives_manski_width_and_exact_bounds_from_known_nuisances() -> None:
    rng = np.random.default_rng(1)
    n, m = 5, 40
    prop = rng.uniform(0.1, 0.9, size=(n, m))
    mu1, mu0 = rng.uniform(size=(n, m)), rng.uniform(size=(n, m))
    grid = NuisanceGrid(prop, prop * mu1, (1 - prop) * mu0, rng.normal(size=(m, 2)), (0.0, 1.0))
    lower, upper = cell_bounds(grid, np.ones((m, 1)))
    assert np.allclose(upper - lower, 1.0)
    labels = np.arange(m) % 2
    lower2, upper2 = cell_bounds(grid, one_hot(labels, 2))
    pi = np.stack([prop[:, labels == k].mean(1) for k in (0, 1)], 1)
    ya = np.stack([(prop * mu1)[:, labels == k].mean(1) for k in (0, 1)], 1)
    yc = np.stack([((1 - prop) * mu0)[:, labels == k].mean(1) for k in (0, 1)], 1)
    expected_lower = (ya + (1 - pi) * 0).max(1) - (yc + pi * 1).min(1)
    expected_upper = (ya + (1 - pi) * 1).min(1) - (yc + pi * 0).max(1)
    assert np.allclose(lower2, expected_lower) and np.allclose(upper2, expected_upper)
    assert np.all(upper2 - lower2 <= 1.0 + 1e-12)


def test_bad_inputs_name_the_argument(tmp_path: Path) -> None:
    data, instruments = _write(tmp_path, 200, seed=2)
    with pytest.raises(UserError, match="n_cells"):
        iv_cate_bounds(data, "y", "a", ["x"], instruments=instruments, n_cells=1)
    with pytest.raises(DataError, match="outcome_support"):
        iv_cate_bounds(data, "y", "a", ["x"], instruments=instruments, outcome_support=[0.0, 0.5])
    with pytest.raises(DataError, match="treatment"):
        iv_cate_bounds(data, "y", "x", ["a"], instruments=instruments)
    with pytest.raises(UserError, match="instruments, instrument_file"):
        iv_cate_bounds(data, "y", "a", ["x"])
    array = tmp_path / "z.npy"
    np.save(array, np.random.default_rng(0).normal(size=(150, 3)))
    with pytest.raises(DataError, match="mismatched lengths"):
        iv_cate_bounds(data, "y", "a", ["x"], instrument_file=str(array))
    assert get_method("causal.iv_cate_bounds").paper.arxiv == "2410.08976"
