"""theory.tubal_tensor_gd: the Fourier-domain gradient is the t-product gradient; the α sweep of the issue."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.theory import TubalGD, make_problem, t_product, t_transpose


def _loss(problem, u: np.ndarray) -> float:  # type: ignore[no-untyped-def]
    m = problem.operator.shape[0]
    x = t_product(u, t_transpose(u))
    r = problem.operator.reshape(m, -1) @ x.ravel() - problem.y
    return 0.5 * float(r @ r) / m


def test_gradient_matches_finite_differences_and_the_fourier_step() -> None:
    problem = make_problem(6, 4, 2, 60, seed=1)
    u = np.random.default_rng(0).normal(size=(6, 5, 4))
    grad = TubalGD().loss_gradient(problem.operator, problem.y, u)
    for index in [(1, 2, 3), (0, 0, 0), (5, 4, 2)]:
        e = np.zeros_like(u)
        e[index] = 1e-6
        assert np.isclose((_loss(problem, u + e) - _loss(problem, u - e)) / 2e-6, grad[index], rtol=1e-5)
    # one step of the estimator (Fourier domain) equals one step with the definition's gradient
    gd = TubalGD(rank=5, alpha=0.5, learning_rate=0.01, iterations=1, random_state=3)
    u0 = 0.5 * np.random.default_rng(3).normal(size=(6, 5, 4)) / np.sqrt(5)
    gd.fit(problem.operator, problem.y)
    expected = u0 - 0.01 * TubalGD().loss_gradient(problem.operator, problem.y, u0)
    assert np.allclose(gd.u_, expected, atol=1e-12)


def test_recovers_a_low_rank_tensor_from_few_measurements() -> None:
    problem = make_problem(8, 4, 1, 120, seed=2)
    gd = TubalGD(rank=20, alpha=1e-5, learning_rate=0.05, iterations=1500, random_state=0)
    gd.fit(problem.operator, problem.y, problem.x_star)
    assert gd.history_["train_error"][-1] < 1e-3
    assert np.linalg.norm(gd.x_ - problem.x_star) / np.linalg.norm(problem.x_star) < 0.02


# the figure values: relative test error at α = 1e-6, 1e-3, 0.1 (n=10, k=4, r*=2, r=50, m=110)
PAPER = {1e-6: 0.007, 1e-3: 0.1, 0.1: 0.34}


def test_test_error_grows_with_alpha_while_the_data_stay_fitted(tmp_path: Path) -> None:
    result = run_method("theory.tubal_tensor_gd", {
        "alphas": list(PAPER), "n": 10, "k": 4, "true_rank": 2, "rank": 50, "measurements": 110,
        "iterations": 4000, "n_seeds": 5, "output_dir": str(tmp_path)})
    table = result.values["alpha"]
    medians = [table[f"{a:g}"]["test_error"]["median"] for a in PAPER]
    assert medians == sorted(medians) and medians[-1] > 10 * medians[0]
    for alpha, paper in PAPER.items():
        row = table[f"{alpha:g}"]
        # the error of one instance varies over two orders of magnitude between seeds at small α: the paper's
        # single-run value must lie inside our range over 5 seeds, and our geometric mean within 3× of it
        assert row["test_error"]["min"] <= paper <= row["test_error"]["max"], (alpha, row["test_error"])
        assert paper / 3 <= row["test_error"]["geomean"] <= paper * 3, (alpha, row["test_error"])
        assert row["train_error"]["max"] < 1e-2
    assert table["1e-06"]["tubal_rank"]["median"] <= 3
    assert table["0.1"]["tubal_rank"]["median"] >= 5
    assert result.ok, result.checks
    assert all(Path(p).is_file() for p in result.artifacts)


def test_sweeps_over_rank_and_measurements(tmp_path: Path) -> None:
    result = run_method("theory.tubal_tensor_gd", {
        "alphas": [1e-4], "n": 6, "k": 3, "true_rank": 1, "rank": 10, "measurements": 60, "iterations": 600,
        "n_seeds": 2, "rank_sweep": [2, 10], "measurement_sweep": [30, 90], "output_dir": str(tmp_path)})
    rows = result.values["measurement_sweep"]["results"]
    assert set(rows) == {"30", "90"} and set(result.values["rank_sweep"]["results"]) == {"2", "10"}
    # more measurements pin the tensor down better
    assert rows["90"]["test_error"]["median"] < rows["30"]["test_error"]["median"]


@pytest.mark.parametrize(("arguments", "match"), [
    ({"alphas": [1e-3, 0.0]}, "alphas"),
    ({"alphas": [-1e-3]}, "alphas"),
    ({"true_rank": 12, "n": 10}, "true_rank"),
    ({"learning_rate": 0}, "learning_rate"),
    ({"rank_sweep": [0]}, "rank_sweep"),
])
def test_bad_arguments_name_the_fix(arguments: dict, match: str) -> None:
    with pytest.raises(UserError, match=match):
        run_method("theory.tubal_tensor_gd", arguments)


def test_estimator_refuses_mismatched_shapes() -> None:
    problem = make_problem(5, 3, 1, 20, seed=0)
    with pytest.raises(UserError, match="y"):
        TubalGD(iterations=2).fit(problem.operator, problem.y[:-1])
    with pytest.raises(UserError, match="x_star"):
        TubalGD(iterations=2).fit(problem.operator, problem.y, np.zeros((5, 5, 4)))
    with pytest.raises(UserError, match="m×n×n×k"):
        TubalGD(iterations=2).fit(problem.operator[:, :, :4], problem.y)
    with pytest.raises(UserError, match="alpha"):
        TubalGD(alpha=0).fit(problem.operator, problem.y)


def test_a_large_alpha_that_stops_short_of_the_data_is_reported_not_failed(tmp_path: Path) -> None:
    # a problem unlike the example's (n=12, k=3, m=150 of 432 entries, α up to 0.5): at α = 0.5 gradient descent
    # is still at a relative train error of 1.3e-2 after 4000 steps (measured), the far end of the sweep where the
    # bias is lost; the claim at small α holds, so the tool passes and says what happened at α = 0.5
    args = {"alphas": [1e-5, 1e-3, 0.1, 0.5], "n": 12, "k": 3, "true_rank": 2, "rank": 40, "measurements": 150,
            "n_seeds": 2, "seed": 11, "output_dir": str(tmp_path)}
    result = run_method("theory.tubal_tensor_gd", args)
    table = result.values["alpha"]
    assert table["0.5"]["train_error"]["max"] > 1e-2 and table["0.5"]["fitted"] is False
    assert all(table[a]["fitted"] for a in ("1e-05", "0.001", "0.1"))
    assert result.ok, result.checks
    (note,) = result.findings
    assert set(note.evidence["not_interpolated"]) == {"0.5"} and "α = 0.5" in note.message
    assert "not interpolated within 4000 steps at α = 0.5" in result.summary
    # stopping short at the small-α end is a failure: there a low rank only means the factor never grew
    short = run_method("theory.tubal_tensor_gd", {**args, "iterations": 300})
    failed = {c.name for c in short.checks if not c.passed}
    assert "data fitted at the smallest α" in failed and not short.findings
    assert "does not show the implicit bias" in short.summary
