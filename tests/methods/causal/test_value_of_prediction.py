"""causal.value_of_prediction: the validations of METHODS.md ("Value of prediction for identifying the worst-off")."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import multivariate_normal, norm

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.causal.value_of_prediction import (
    empirical_value,
    prediction_access_ratio,
    value_gaussian,
)


@pytest.mark.parametrize(("alpha", "r2", "beta"), [(0.1, 0.3, 0.1), (0.2, 0.6, 0.05), (0.3, 0.5, 0.3)])
def test_monte_carlo_matches_closed_form(alpha: float, r2: float, beta: float) -> None:
    rng = np.random.default_rng(0)
    n = 1_000_000
    f = rng.normal(size=n)
    y = np.sqrt(r2) * f + np.sqrt(1 - r2) * rng.normal(size=n)
    assert abs(empirical_value(f, y, alpha, beta) - value_gaussian(alpha, r2, beta)) < 0.005
    rho = np.sqrt(r2)
    scipy_value = (
        multivariate_normal([0, 0], [[1, rho], [rho, 1]]).cdf([norm.ppf(alpha), norm.ppf(beta)]) / beta
    )
    assert abs(value_gaussian(alpha, r2, beta) - scipy_value) < 1e-5


def test_par_at_least_one_on_prop_3_3_region() -> None:
    worst = min(
        prediction_access_ratio(alpha, r2, beta)
        for r2 in np.linspace(0.151, 0.849, 15)
        for beta in np.linspace(0.031, 0.499, 15)
        for alpha in np.linspace(0.005, beta, 12)
    )
    assert worst >= 1.0


def test_par_vanishes_as_r2_goes_to_zero() -> None:
    values = [prediction_access_ratio(0.1, r2, 0.1) for r2 in (1e-2, 1e-4, 1e-6, 1e-8)]
    assert all(b < a for a, b in itertools.pairwise(values))
    assert values[-1] < 1e-3


def test_par_matches_finite_differences() -> None:
    alpha, r2, beta, h = 0.15, 0.4, 0.2, 1e-5
    d_alpha = (value_gaussian(alpha + h, r2, beta) - value_gaussian(alpha - h, r2, beta)) / (2 * h)
    d_r2 = (value_gaussian(alpha, r2 + h, beta) - value_gaussian(alpha, r2 - h, beta)) / (2 * h)
    assert prediction_access_ratio(alpha, r2, beta) == pytest.approx(d_alpha / d_r2, rel=1e-4)


def test_tool_on_data_and_decision(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    f = rng.normal(size=20000)
    y = 0.6 * f + 0.8 * rng.normal(size=20000)  # R² = 0.36
    path = tmp_path / "pred.csv"
    pd.DataFrame({"prediction": f, "outcome": y}).to_csv(path, index=False)
    result = run_method(
        "causal.value_of_prediction",
        {
            "data": str(path),
            "alpha": 0.1,
            "beta": 0.1,
            "cost_capacity": 1.0,
            "cost_prediction": 1.0,
            "output_dir": str(tmp_path),
        },
    )
    v = result.values
    assert abs(v["r2_data"] - 0.36) < 0.02
    assert abs(v["empirical_value"] - v["value"]) < 0.03
    assert v["par"] > 1.0 and v["recommendation"] == "expand capacity"
    assert result.ok and Path(result.artifacts[0]).is_file()
    cheap_model = run_method(
        "causal.value_of_prediction",
        {"r2": 0.36, "cost_capacity": 100.0, "cost_prediction": 1.0, "output_dir": str(tmp_path)},
    )
    assert cheap_model.values["recommendation"] == "improve the model"


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"alpha": 1.2, "r2": 0.3}, "alpha"),
        ({"beta": 0.0, "r2": 0.3}, "beta"),
        ({"r2": 1.5}, "r2"),
        ({}, "r2, data"),
    ],
)
def test_bad_inputs_name_the_argument(arguments: dict[str, float], name: str, tmp_path: Path) -> None:
    with pytest.raises(UserError, match=name):
        run_method("causal.value_of_prediction", {**arguments, "output_dir": str(tmp_path)})
