"""Weights from balance: raking meets the margins, IPW and CBPS balance the covariates, a reference sample works
like margins, and bad populations fail with a message that says what to fix."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods.alignment import biased_sample, fit_weights
from cmbagent.tools.methods.alignment._io import Target
from cmbagent.tools.methods.alignment._weights import weight_diagnostics


@pytest.fixture(scope="module")
def sample(population: pd.DataFrame) -> pd.DataFrame:
    return biased_sample(population, 900, seed=7)


def _weighted_margin(sample: pd.DataFrame, weights: np.ndarray, column: str) -> pd.Series:
    return pd.Series(weights).groupby(sample[column].to_numpy()).sum() / weights.sum()


def test_raking_meets_the_margins_and_reports_its_cost(sample: pd.DataFrame,
                                                       margins: dict[str, dict[str, float]]) -> None:
    w = fit_weights(sample, ["age_group", "education"], Target(margins=margins), "rake")
    for c in ("age_group", "education"):
        got = _weighted_margin(sample, w.weights, c)
        assert np.allclose([got[k] for k in margins[c]], list(margins[c].values()), atol=2e-3)
    assert w.converged and w.weights.mean() == pytest.approx(1.0)
    assert min(w.asmd_before.values()) > 0.1 and max(w.asmd_after.values()) < 0.01
    stats = weight_diagnostics(w.weights)
    deff = 1 + w.weights.var() / w.weights.mean() ** 2  # Kish: 1 + CV²
    assert stats["design_effect"] == pytest.approx(deff, rel=1e-6)
    assert stats["effective_sample_size"] == pytest.approx(len(sample) / deff)
    assert stats["extreme_weight_share"] == pytest.approx(np.mean(w.weights > 5))


@pytest.mark.parametrize("method", ["ipw", "cbps"])
def test_propensity_weights_balance_the_covariates(sample: pd.DataFrame, margins: dict[str, dict[str, float]],
                                                   method: str) -> None:
    w = fit_weights(sample, ["age_group", "education"], Target(margins=margins), method)
    assert w.converged
    assert max(w.asmd_after.values()) < 0.1 < max(w.asmd_before.values())


def test_a_reference_sample_is_a_population_too(sample: pd.DataFrame, population: pd.DataFrame) -> None:
    reference = population[["age_group", "education"]].sample(5000, random_state=0)
    w = fit_weights(sample, ["age_group", "education"], Target(frame=reference), "rake")
    got = _weighted_margin(sample, w.weights, "education")
    want = reference["education"].value_counts(normalize=True)
    assert np.allclose(got.reindex(want.index), want, atol=2e-3)


def test_waves_are_weighted_each_on_their_own(sample: pd.DataFrame, margins: dict[str, dict[str, float]]) -> None:
    strata = (np.arange(len(sample)) % 2).astype(int)
    w = fit_weights(sample, ["age_group", "education"], Target(margins=margins), "rake", strata=strata)
    for h in (0, 1):
        rows = strata == h
        got = _weighted_margin(sample[rows].reset_index(drop=True), w.weights[rows], "education")
        assert np.allclose([got[k] for k in margins["education"]], list(margins["education"].values()), atol=2e-3)
        assert w.weights[rows].mean() == pytest.approx(1.0)


def test_levels_that_do_not_match_are_named(sample: pd.DataFrame, margins: dict[str, dict[str, float]]) -> None:
    renamed = {**margins, "education": {("phd" if k == "postgrad" else k): v for k, v in margins["education"].items()}}
    with pytest.raises(DataError, match=r"level\(s\) \['postgrad'\] of 'education'"):
        fit_weights(sample, ["age_group", "education"], Target(margins=renamed), "rake")
    with pytest.raises(UserError, match="no margins in the population table"):
        fit_weights(sample, ["age_group", "party"], Target(margins=margins), "rake")
    broken = sample.assign(education=sample["education"].where(sample.index > 2))
    with pytest.raises(DataError, match="missing in 3 row"):
        fit_weights(broken, ["education"], Target(margins=margins), "rake")


def test_importing_balance_prints_nothing_and_keeps_the_log_handlers() -> None:
    code = ("import logging; h = logging.NullHandler(); logging.getLogger().addHandler(h)\n"
            "from cmbagent.tools.methods.alignment._weights import import_balance\n"
            "import_balance()\n"
            "assert h in logging.getLogger().handlers, 'root handlers dropped'\n"
            "assert not logging.getLogger('balance').handlers, 'balance kept its stderr handler'\n"
            "logging.getLogger('balance').warning('quiet')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and "balance" not in done.stderr  # no banner (the last warning goes to the root)
