"""Posterior summaries and chain files, including the published Pantheon+ chain."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import DataError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.cosmology import load_chain, summarize_samples


def test_gaussian_summary_matches_known_quantiles() -> None:
    x = np.random.default_rng(0).normal(1.0, 2.0, size=(200_000, 1))
    s = summarize_samples(x, ["a"])["a"]
    assert s["mean"] == pytest.approx(1.0, abs=0.02)
    assert s["std"] == pytest.approx(2.0, rel=0.01)
    assert s["lower_68"] == pytest.approx(-1.0, abs=0.03) and s["upper_68"] == pytest.approx(3.0, abs=0.03)
    assert s["lower_95"] == pytest.approx(-3.0, abs=0.05) and s["upper_95"] == pytest.approx(5.0, abs=0.05)


def test_weights_act_like_repeated_samples() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(500, 2))
    w = rng.integers(1, 5, size=500)
    weighted = summarize_samples(x, ["a", "b"], w.astype(float))
    repeated = summarize_samples(np.repeat(x, w, axis=0), ["a", "b"])
    for name in ("a", "b"):
        for key in ("mean", "std"):
            assert weighted[name][key] == pytest.approx(repeated[name][key], rel=1e-12)
        assert weighted[name]["upper_68"] == pytest.approx(repeated[name]["upper_68"], abs=0.02)


def test_getdist_style_chain_with_weights_and_burn_in(tmp_path: Path) -> None:
    path = tmp_path / "chain.txt.gz"
    rows = ["# weight like omegam H0"] + [f"{1 + i % 2} {i} {0.1 * i} {60 + i}" for i in range(8)]
    path.write_bytes(gzip.compress("\n".join(rows).encode()))
    chain = load_chain(path, burn_in_fraction=0.5)
    assert chain.names == ("Omega_m", "H0") and chain.n_dropped == 4
    np.testing.assert_allclose(chain.samples[:, 0], [0.4, 0.5, 0.6, 0.7])
    np.testing.assert_allclose(chain.weights, [1, 2, 1, 2])
    assert "like" in chain.extra


def test_chain_without_header_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "bare.txt"
    path.write_text("0.3 70\n0.31 71\n")
    with pytest.raises(DataError, match="no header"):
        load_chain(path)


def test_published_pantheon_plus_chain(reference_data: Path, tmp_path: Path) -> None:
    """The released CosmoSIS chain, first 25% dropped: Omega_m = 0.331 +- 0.018 (tests/data/SOURCES.md)."""
    chain = reference_data / "sn" / "Pantheon+only_FlatLambdaCDM_chain.txt.gz"
    result = run_method(
        "cosmology.summarize_chain",
        {"chain": str(chain), "burn_in_fraction": 0.25, "parameters": ["Omega_m", "h", "M"],
         "output_dir": str(tmp_path)},
    )
    om = result.values["Omega_m"]
    assert om["mean"] == pytest.approx(0.3314, abs=0.25 * 0.0182)
    assert om["std"] == pytest.approx(0.0182, rel=0.05)
    assert om["median"] == pytest.approx(0.3308, abs=0.001)
    assert result.values["n_samples"] == 37200
    assert result.ok and Path(result.artifacts[0]).is_file()
    # '#walkers=16': the interleaved ensemble is read as 2325 steps x 16 walkers; the released chain is shorter
    # than 50 autocorrelation times for every parameter (h and M, degenerate with each other, mix slowest)
    diagnostics = result.diagnostics
    assert (diagnostics["walkers"], diagnostics["n_steps"], diagnostics["chain_source"]) == (16, 2325, "file")
    assert 60 < diagnostics["tau"]["Omega_m"] < 120 and diagnostics["tau"]["h"] > diagnostics["tau"]["Omega_m"]
    assert diagnostics["rhat"]["Omega_m"] < 1.01 < diagnostics["rhat"]["h"]
