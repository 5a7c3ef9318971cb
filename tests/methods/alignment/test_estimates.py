"""The design-based estimates: linearised variances against closed forms, κ against scikit-learn, the distances
against their definitions, calibration removing the variance along the weighting margins."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.spatial.distance import jensenshannon
from sklearn.metrics import cohen_kappa_score

from cmbagent.tools.methods.alignment import (
    Design,
    biased_sample,
    fit_weights,
    js_divergence,
    shares,
    total_variation,
)
from cmbagent.tools.methods.alignment._estimates import kappa, share_interval, wald_test
from cmbagent.tools.methods.alignment._io import Target


def test_unweighted_share_variance_is_the_binomial_one() -> None:
    rng = np.random.default_rng(0)
    answers = pd.Series(rng.choice(["a", "b", "c"], 500, p=[0.2, 0.5, 0.3]), dtype=object)
    est = shares(Design.unweighted(500), answers, ["a", "b", "c"])
    p = answers.value_counts(normalize=True).reindex(["a", "b", "c"]).to_numpy()
    assert np.allclose(est.theta, p)
    assert np.allclose(est.std, np.sqrt(p * (1 - p) / (500 - 1)))
    # the covariance of two shares is −p_a p_b / (n − 1)
    assert est.cov[0, 1] == pytest.approx(-p[0] * p[1] / 499)


def test_missing_answers_are_left_out_and_domains_are_ratios() -> None:
    answers = pd.Series(["a", "b", None, "a", "b", "b"], dtype=object)
    domain = np.array([True, True, True, True, False, False])
    est = shares(Design(np.array([1.0, 2, 3, 1, 1, 1])), answers, ["a", "b"], domain)
    assert np.allclose(est.theta, [2 / 4, 2 / 4])  # rows 0, 1, 3 answered and in the domain: weights 1, 2, 1


def test_calibrated_weights_have_no_variance_along_their_margins(population: pd.DataFrame,
                                                                  margins: dict[str, dict[str, float]]) -> None:
    sample = biased_sample(population, 800, seed=3)
    w = fit_weights(sample, ["age_group", "education"], Target(margins=margins), "rake", asmd=False)
    levels = sorted(margins["education"])
    calibrated = shares(Design(w.weights, w.calibration), sample["education"].astype(object), levels)
    fixed = shares(Design(w.weights), sample["education"].astype(object), levels)
    assert np.allclose(calibrated.theta, [margins["education"][lv] for lv in levels], atol=1e-3)
    assert calibrated.std.max() < 1e-6 < fixed.std.min()  # raking fixed them; fixed-weight variance does not know


def test_share_interval_stays_in_the_unit_interval() -> None:
    iv = share_interval(0.01, 0.01)
    assert 0 < iv["lower_95"] < 0.01 < iv["upper_95"] < 0.1
    assert iv["lower_68"] < iv["upper_68"]


def test_wald_test_is_chi2_of_the_differences() -> None:
    rng = np.random.default_rng(1)
    a = pd.Series(rng.choice(["x", "y"], 4000, p=[0.5, 0.5]), dtype=object)
    b = pd.Series(rng.choice(["x", "y"], 4000, p=[0.45, 0.55]), dtype=object)
    both = pd.concat([a, b], ignore_index=True)
    first = np.r_[np.ones(4000, bool), np.zeros(4000, bool)]
    design = Design.unweighted(8000)
    diff = shares(design, both, ["x", "y"], ~first) - shares(design, both, ["x", "y"], first)
    stat, df, p = wald_test(diff)
    z = diff.theta[0] / diff.std[0]
    assert df == 1 and stat == pytest.approx(z**2) and p < 1e-3


def test_distances_match_their_definitions() -> None:
    p, q = np.array([0.2, 0.5, 0.3]), np.array([0.1, 0.1, 0.8])
    assert total_variation(p, q) == pytest.approx(0.5)
    assert js_divergence(p, q) == pytest.approx(jensenshannon(p, q, base=2) ** 2)
    assert js_divergence(p, p) == pytest.approx(0.0, abs=1e-12)
    assert js_divergence(np.array([1.0, 0]), np.array([0.0, 1])) == pytest.approx(1.0)


def test_kappa_equals_scikit_learn_and_its_bootstrap_covers_the_planted_value() -> None:
    rng = np.random.default_rng(2)
    n = 2000
    first = rng.choice(["l", "m", "c"], n, p=[0.3, 0.3, 0.4])
    redraw = rng.choice(["l", "m", "c"], n, p=[0.3, 0.3, 0.4])
    second = np.where(rng.random(n) < 0.6, first, redraw)
    w = rng.uniform(0.5, 2.0, n)
    out = kappa(pd.Series(first, dtype=object), pd.Series(second, dtype=object), w, strata=None, n_boot=400,
                rng=np.random.default_rng(0))
    assert out["mean"] == pytest.approx(cohen_kappa_score(first, second, sample_weight=w))
    assert out["lower_95"] < 0.6 < out["upper_95"] and 0.01 < out["std"] < 0.04
