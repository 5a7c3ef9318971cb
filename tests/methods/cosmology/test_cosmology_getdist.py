"""GetDist in the cosmology family: R-1 between several chains in ``summarize_chain`` (its summary keys kept)
and the triangle plots."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method

KEYS = {"mean", "std", "median", "lower_68", "upper_68", "lower_95", "upper_95"}


def _chain(path: Path, mean: list[float], seed: int, n: int = 4000) -> str:
    rng = np.random.default_rng(seed)
    np.savetxt(path, rng.normal(mean, [0.02, 0.01], size=(n, 2)), header="omega_m h")
    return str(path)


def test_rminus1_between_agreeing_and_disagreeing_chains(tmp_path: Path) -> None:
    a = _chain(tmp_path / "a.txt", [0.3, 0.7], 0)
    b = _chain(tmp_path / "b.txt", [0.3, 0.7], 1)
    c = _chain(tmp_path / "c.txt", [0.33, 0.7], 2)  # 1.5 sigma away in omega_m
    good = run_method("cosmology.summarize_chain", {"chain": a, "more_chains": [b], "output_dir": str(tmp_path)})
    assert set(good.values["Omega_m"]) == KEYS and good.values["n_samples"] == 2 * 3000
    assert good.values["Omega_m"]["mean"] == pytest.approx(0.3, abs=0.002)
    between = good.diagnostics["between_chains"]
    assert between["n_chains"] == 2 and between["rminus1"] < 0.01 and good.ok
    bad = run_method("cosmology.summarize_chain", {"chain": a, "more_chains": [c], "output_dir": str(tmp_path)})
    check = next(ch for ch in bad.checks if ch.name == "convergence_rminus1_between_chains")
    assert not check.passed and bad.diagnostics["between_chains"]["per_parameter"]["Omega_m"] > 0.5
    assert bad.diagnostics["between_chains"]["per_parameter"]["h"] < 0.01
    assert "R-1" in bad.summary


def test_triangle_plot_is_drawn_by_getdist(tmp_path: Path) -> None:
    a = _chain(tmp_path / "a.txt", [0.3, 0.7], 0)
    result = run_method("cosmology.summarize_chain", {"chain": a, "output_dir": str(tmp_path / "fig")})
    figure = Path(result.artifacts[0])
    assert figure.is_file() and figure.stat().st_size > 5000
    import matplotlib.pyplot as plt

    assert plt.get_fignums() == []  # GetDist's pyplot figure was closed after writing


def test_chains_must_share_the_parameters(tmp_path: Path) -> None:
    a = _chain(tmp_path / "a.txt", [0.3, 0.7], 0)
    other = tmp_path / "o.txt"
    np.savetxt(other, np.ones((100, 1)), header="w")
    with pytest.raises(UserError, match="lacks Omega_m, h"):
        run_method("cosmology.summarize_chain", {"chain": a, "more_chains": [str(other)], "output_dir": str(tmp_path)})
