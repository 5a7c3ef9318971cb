"""lm.compositional_diversity: coverage grids, the additive fit, and both measures rising with k."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.lm.compositional_diversity import additive_r2, coverage_grid


@pytest.mark.parametrize("k", [1, 3, 5])
def test_coverage_grid_is_k_regular(k: int) -> None:
    mask = coverage_grid(6, k, seed=1)
    assert (mask.sum(0) == k).all() and (mask.sum(1) == k).all()


def test_additive_r2_is_one_for_additive_codes_and_low_for_interactions() -> None:
    rng = np.random.default_rng(0)
    u, v = rng.normal(size=(5, 8)), rng.normal(size=(5, 8))
    c1, c2 = np.repeat(np.arange(5), 5), np.tile(np.arange(5), 5)
    assert additive_r2(u[c1] + v[c2], c1, c2) == pytest.approx(1.0, abs=1e-10)
    table = rng.normal(size=(5, 5, 8))
    assert additive_r2(table[c1, c2], c1, c2) < 0.5


@pytest.mark.slow
def test_accuracy_and_additivity_rise_with_coverage(tmp_path: Path) -> None:
    torch.set_num_threads(1)
    result = run_method("lm.compositional_diversity", {"n": 6, "ks": [1, 2, 3, 4, 5], "n_train": 1200,
                                                       "seeds": [0, 1, 2], "epochs": 20, "output_dir": str(tmp_path)})
    assert result.values["spearman_unseen_accuracy"] >= 0.8
    assert result.values["spearman_additive_r2"] >= 0.8
    assert result.ok, result.checks


def test_scores_user_embeddings(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    shapes, colours = rng.integers(0, 4, 400), rng.integers(0, 4, 400)
    u, v = rng.normal(size=(4, 16)), rng.normal(size=(4, 16))
    z = u[shapes] + v[colours] + 0.1 * rng.normal(size=(400, 16))
    np.save(tmp_path / "z.npy", z)
    (tmp_path / "labels.csv").write_text("shape,colour\n" + "".join(f"s{a},c{b}\n" for a, b in zip(shapes, colours,
                                                                                                       strict=True)))
    result = run_method("lm.compositional_diversity", {"embeddings": str(tmp_path / "z.npy"),
                                                       "labels": str(tmp_path / "labels.csv")})
    assert result.values["additive_r2"] > 0.95
    assert result.values["heldout_combination_accuracy"] > 0.9
    (tmp_path / "short.csv").write_text("shape,colour\na,b\n")
    with pytest.raises(DataError, match="labels"):
        run_method("lm.compositional_diversity", {"embeddings": str(tmp_path / "z.npy"),
                                                  "labels": str(tmp_path / "short.csv")})
    with pytest.raises(UserError, match="embeddings"):
        run_method("lm.compositional_diversity", {"labels": str(tmp_path / "labels.csv")})
    with pytest.raises(UserError, match="ks"):
        run_method("lm.compositional_diversity", {"n": 4, "ks": [1, 4]})
