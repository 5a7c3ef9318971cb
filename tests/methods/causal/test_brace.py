"""causal.brace_counterfactual: the linear-SCM validations of METHODS.md (BRACE)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods.causal import brace_counterfactual
from cmbagent.tools.methods.causal._scm import LinearSCM
from cmbagent.tools.methods.causal._simulate import LOAN_FEATURES, LOAN_NOISE, LOAN_WEIGHTS, loan_scm
from cmbagent.tools.methods.causal.brace import brace_linear, car_linear, wachter_linear

LAMBDAS = [0.0, 0.1, 0.3, 1.0, 3.0, 10.0]


def _random_problem(seed: int) -> tuple[LinearSCM, np.ndarray, float]:
    rng = np.random.default_rng(seed)
    d = 5
    weights = np.tril(rng.normal(scale=0.7, size=(d, d)), k=-1) * (rng.uniform(size=(d, d)) < 0.7)
    weights[1:, 0] = 0.0  # feature 0 (immutable) is a root
    weights[1, 0] = 0.8  # ... with a descendant
    return LinearSCM(weights, rng.uniform(0.5, 1.5, size=d)), rng.normal(size=d), float(rng.normal())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_linear_scm_checks(seed: int) -> None:
    scm, w, b = _random_problem(seed)
    unmixing, mixing = scm.unmixing, scm.mixing
    rng = np.random.default_rng(100 + seed)
    for _ in range(6):
        x = mixing @ rng.normal(size=5)
        target = 1 - int(w @ x + b > 0)
        sols = [brace_linear(x, unmixing, w, b, target, lam, [0]) for lam in LAMBDAS]
        assert all((w @ s + b > 0) == (target == 1) for s in sols)  # every counterfactual valid
        assert all(abs(s[0] - x[0]) < 1e-7 for s in sols)  # immutable feature kept
        wachter = wachter_linear(x, w, b, target, [0])
        assert np.allclose(sols[0], wachter, atol=1e-4 * (1 + np.linalg.norm(wachter - x)))
        d_x = [np.linalg.norm(s - x) for s in sols]
        d_u = [np.linalg.norm(unmixing @ (s - x)) for s in sols]
        tol = 1e-5 * (1 + max(d_x + d_u))
        assert all(later >= earlier - tol for earlier, later in itertools.pairwise(d_x))
        assert all(later <= earlier + tol for earlier, later in itertools.pairwise(d_u))
        assert d_u[-1] < d_u[0]  # backtracking really moves the latent distance
        car, _ = car_linear(x, scm, w, b, target, [0])
        assert (w @ car + b > 0) == (target == 1)
        car_dx, car_du = np.linalg.norm(car - x), np.linalg.norm(unmixing @ (car - x))
        at_budget = brace_linear(x, unmixing, w, b, target, 0.0, [0], latent_budget=car_du + 1e-9)
        assert np.linalg.norm(at_budget - x) <= car_dx + 1e-6


def test_tool_with_given_scm_and_fitted_classifier(tmp_path: Path) -> None:
    x, approved = loan_scm(600, seed=0)
    path = tmp_path / "loans.csv"
    pd.DataFrame(x, columns=LOAN_FEATURES).assign(approved=approved).to_csv(path, index=False)
    result = brace_counterfactual(
        str(path),
        features=LOAN_FEATURES,
        label="approved",
        target_class=1,
        immutable=["age"],
        scm_weights=LOAN_WEIGHTS.tolist(),
        noise_std=LOAN_NOISE.tolist(),
        output_dir=str(tmp_path),
    )
    assert result.ok, [c.message for c in result.checks]
    assert result.values["share_valid"] == 1.0
    assert abs(result.values["d_x_by_lambda"]["0"] - result.values["wachter_d_x"]) < 1e-4
    assert result.values["brace_at_car_d_x"] <= result.values["car_d_x"] + 1e-6
    table = pd.read_csv(result.artifacts[0])
    brace_rows = table[table["method"].str.startswith("brace")]
    original = pd.read_csv(path)
    assert np.allclose(brace_rows["age"].to_numpy(), original.loc[brace_rows["row"], "age"].to_numpy())


def test_fitted_scm_and_mlp_classifier_gradient_version(tmp_path: Path) -> None:
    x, approved = loan_scm(400, seed=1)
    path = tmp_path / "loans.csv"
    pd.DataFrame(x, columns=LOAN_FEATURES).assign(approved=approved).to_csv(path, index=False)
    result = brace_counterfactual(
        str(path),
        features=LOAN_FEATURES,
        label="approved",
        classifier="mlp",
        instances=[0],
        immutable=["age"],
        lambdas=[0.0, 10.0],
        parents={
            "education": ["age"],
            "income": ["age", "education"],
            "savings": ["age", "income"],
            "debt": ["income", "savings"],
        },
        output_dir=str(tmp_path),
    )
    assert result.diagnostics["solver"] == "gradient"
    assert result.values["share_valid"] == 1.0
    d_u = result.values["d_u_by_lambda"]
    assert d_u["10"] <= d_u["0"] + 1e-6


def test_non_invertible_scm_is_refused(tmp_path: Path) -> None:
    x, approved = loan_scm(100, seed=2)
    path = tmp_path / "loans.csv"
    pd.DataFrame(x, columns=LOAN_FEATURES).assign(approved=approved).to_csv(path, index=False)
    cyclic = np.zeros((5, 5))
    cyclic[0, 1], cyclic[1, 0] = 1.0, 1.0  # X0 = X1 + U0, X1 = X0 + U1: I - B singular
    with pytest.raises(UserError, match="scm_weights"):
        brace_counterfactual(str(path), features=LOAN_FEATURES, label="approved", scm_weights=cyclic.tolist())
    ragged = [[0.0, 1.0, 2.0], *[[0.1, 1.0, 2.0, 1.0, 0.2]] * 4]  # what a 135M model wrote: rows of unequal length
    with pytest.raises(UserError, match=r"scm_weights: expected a 5x5 matrix .* lengths \[3, 5, 5, 5, 5\]"):
        brace_counterfactual(str(path), features=LOAN_FEATURES, label="approved", scm_weights=ragged)
    with pytest.raises(UserError, match="noise_std"):
        brace_counterfactual(
            str(path),
            features=LOAN_FEATURES,
            label="approved",
            scm_weights=LOAN_WEIGHTS.tolist(),
            noise_std=[1, 1, 0, 1, 1],
        )
    with pytest.raises(UserError, match="immutable"):
        brace_counterfactual(str(path), features=LOAN_FEATURES, label="approved", immutable=["height"])
