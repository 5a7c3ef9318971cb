"""rl.distinguishability_queries: likelihood gradients, the simulated labeler, DistQ vs pairwise on the gridworld."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.special import expit

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.rl import Answers, Labeler, LinearRewardModel


def _answers(kind: str, rng: np.random.Generator, n: int = 30, pool: int = 20) -> Answers:
    answers = Answers(kind)
    for _ in range(n):
        idx = rng.choice(pool, size=4, replace=False)
        bits = tuple(int(b) for b in rng.integers(2, size=2))
        answers.rows.append((*map(int, idx[:2]), bits[0]) if kind == "pairwise" else (*map(int, idx), *bits))
    return answers


@pytest.mark.parametrize("kind", ["pairwise", "distq"])
def test_likelihood_gradient_matches_finite_differences(kind: str) -> None:
    rng = np.random.default_rng(0)
    phi = rng.normal(size=(20, 6))
    data = _answers(kind, rng).array()
    model = LinearRewardModel(prior_precision=0.3)
    theta = rng.normal(size=6)
    _, grad = model._objective(theta, phi, data, kind)
    for i in range(6):
        e = np.zeros(6)
        e[i] = 1e-6
        numeric = (model._objective(theta + e, phi, data, kind)[0] - model._objective(theta - e, phi, data, kind)[0]) / 2e-6
        assert np.isclose(numeric, grad[i], rtol=1e-4, atol=1e-6)


def test_labeler_follows_its_noise_model() -> None:
    rng = np.random.default_rng(1)
    labeler = Labeler(rationality=2.0, mistake_rate=0.2, scale=1.0)
    gap = np.full(200_000, 0.5)
    agree = labeler.prefers_first(gap, np.zeros_like(gap), rng).mean()
    assert np.isclose(agree, 0.8 * expit(1.0) + 0.2 * 0.5, atol=0.005)
    easier = labeler.first_pair_easier(np.full(200_000, -2.0), np.full(200_000, 1.0), rng).mean()
    assert np.isclose(easier, 0.8 * expit(2.0) + 0.1, atol=0.005)


def test_fit_recovers_utilities_from_many_noiseless_answers() -> None:
    rng = np.random.default_rng(2)
    phi = rng.normal(size=(60, 5))
    theta = rng.normal(size=5)
    u = phi @ theta
    answers = Answers("distq")
    labeler = Labeler(rationality=8.0, scale=float(u.std()))
    for _ in range(400):
        a, b, c, d = rng.choice(60, size=4, replace=False)
        z = bool(labeler.first_pair_easier(u[a] - u[b], u[c] - u[d], rng))
        p, q = (a, b) if z else (c, d)
        answers.rows.append((int(a), int(b), int(c), int(d), int(z), int(labeler.prefers_first(u[p], u[q], rng))))
    model = LinearRewardModel(prior_precision=0.01).fit(phi, answers)
    assert model.converged_
    assert np.corrcoef(phi @ model.theta_, u)[0, 1] > 0.98


def test_distq_beats_pairwise_on_the_gridworld_with_fewer_labeler_errors(tmp_path: Path) -> None:
    result = run_method("rl.distinguishability_queries", {"environments": ["tabular"], "n_queries": 100,
                                                          "n_seeds": 5, "output_dir": str(tmp_path)})
    tab = result.values["tabular"]
    distq, pairwise = tab["distq"], tab["pairwise"]
    assert distq["pearson"]["mean"] >= 0.93 and pairwise["pearson"]["mean"] <= 0.9, (distq, pairwise)
    assert tab["pearson_gain"]["mean"] >= 0.05 and tab["distq_wins"] >= 4, tab["pearson_gain"]
    assert distq["labeler_error_rate"]["mean"] <= 0.75 * pairwise["labeler_error_rate"]["mean"]
    assert result.ok, result.checks
    assert Path(result.artifacts[0]).is_file()


def test_runs_on_a_classic_control_task(tmp_path: Path) -> None:
    result = run_method("rl.distinguishability_queries", {
        "environments": ["CartPole-v1"], "n_queries": 30, "batch": 10, "n_seeds": 2, "pool_size": 60,
        "test_size": 60, "horizon": 30, "output_dir": str(tmp_path)})
    cart = result.values["CartPole-v1"]
    assert cart["feature_ceiling"]["mean"] > 0.99  # the return is the segment length, a feature
    assert cart["distq"]["pearson"]["mean"] > 0.8 and cart["pairwise"]["pearson"]["mean"] > 0.5


@pytest.mark.parametrize(("arguments", "match"), [
    ({"environments": ["Breakout-v5"]}, "environments"),
    ({"environments": ["NoSuchEnv-v0"]}, "unknown"),
    ({"environments": []}, "environments"),
    ({"n_queries": 0}, "n_queries"),
    ({"mistake_rate": 1.5}, "mistake_rate"),
    ({"pool_size": 3}, "pool_size"),
])
def test_bad_arguments_name_the_fix(arguments: dict, match: str) -> None:
    with pytest.raises(UserError, match=match):
        run_method("rl.distinguishability_queries", arguments)


def test_an_uninformative_task_is_reported_without_losing_the_others(tmp_path: Path) -> None:
    # MountainCar pays −1 per step until the goal, which 5-step segments never reach: all utilities tie
    args = {"n_queries": 10, "batch": 5, "n_seeds": 1, "pool_size": 20, "test_size": 20, "horizon": 5,
            "output_dir": str(tmp_path)}
    result = run_method("rl.distinguishability_queries", {"environments": ["tabular", "MountainCar-v0"], **args})
    assert "tabular" in result.values and "MountainCar-v0" in result.values["skipped"]
    assert not result.ok and any("MountainCar-v0" in c.name and not c.passed for c in result.checks)
    with pytest.raises(DataError, match="horizon longer than 5"):
        run_method("rl.distinguishability_queries", {"environments": ["MountainCar-v0"], **args})
