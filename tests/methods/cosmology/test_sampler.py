"""The sampler: convergence rule and R-hat on targets with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from cmbagent.tools.methods.cosmology import SamplerSettings, run_emcee, split_rhat


def test_split_rhat_is_one_for_iid_and_large_for_disagreeing_chains() -> None:
    rng = np.random.default_rng(0)
    good = rng.normal(size=(2000, 16, 2))
    assert np.all(np.abs(split_rhat(good, 4) - 1) < 0.01)
    bad = good.copy()
    bad[:, :8] += 1.0  # half of the walkers sample a shifted distribution
    assert np.all(split_rhat(bad, 4) > 1.1)
    drift = good + np.linspace(0, 3, 2000)[:, None, None]  # a trend along the chain
    assert np.all(split_rhat(drift, 4) > 1.1)


def test_emcee_recovers_correlated_gaussian() -> None:
    mean = np.array([0.3, 70.0])
    cov = np.array([[0.02**2, 0.5 * 0.02 * 0.4], [0.5 * 0.02 * 0.4, 0.4**2]])
    icov = np.linalg.inv(cov)

    def log_prob(x: np.ndarray) -> np.ndarray:
        d = x - mean
        return -0.5 * np.einsum("ij,jk,ik->i", d, icov, d)

    bounds = np.array([[0.0, 1.0], [50.0, 100.0]])
    result = run_emcee(log_prob, ("a", "b"), np.array([0.5, 60.0]), bounds, seed=3, settings=SamplerSettings())
    assert result.converged
    assert np.all(result.rhat < 1.01)
    assert result.n_steps > 50 * np.max(result.tau)
    np.testing.assert_allclose(result.best_fit, mean, rtol=1e-4)
    sigma = np.sqrt(np.diag(cov))
    assert np.all(np.abs(result.samples.mean(axis=0) - mean) < 0.1 * sigma)
    np.testing.assert_allclose(result.samples.std(axis=0), sigma, rtol=0.08)
    c = np.corrcoef(result.samples.T)[0, 1]
    assert c == pytest.approx(0.5, abs=0.05)


def test_same_seed_same_chain_and_max_steps_reports_not_converged() -> None:
    def log_prob(x: np.ndarray) -> np.ndarray:
        return -0.5 * np.sum(x**2, axis=1)

    bounds = np.array([[-10.0, 10.0]])
    short = SamplerSettings(max_steps=100, check_every=100)
    a = run_emcee(log_prob, ("x",), np.array([1.0]), bounds, seed=5, settings=short)
    b = run_emcee(log_prob, ("x",), np.array([1.0]), bounds, seed=5, settings=short)
    np.testing.assert_array_equal(a.samples, b.samples)
    assert not a.converged  # 100 steps cannot satisfy N > 50 tau with a stable tau
