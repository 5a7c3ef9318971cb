"""Simulators with known answers, used by the validation tests and to make the example data files."""

from __future__ import annotations

import numpy as np

__all__ = ["iv_simulation", "latent_confounding", "loan_scm"]


def _expit(v: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-v))


def latent_confounding(
    n: int, seed: int, *, theta: float = 1.0, dim: int = 64, rotate: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y, d, z): a 5-d confounder C is seen only through a nonlinear 64-d embedding Z = tanh(C W + ½) Q,
    Q a random rotation; treatment and outcome depend on C nonlinearly; the true effect is ``theta``."""
    rng = np.random.default_rng(seed)
    c = rng.normal(size=(n, 5))
    weights = np.random.default_rng(12345).normal(size=(5, dim)) / np.sqrt(5)
    z = np.tanh(c @ weights + 0.5)
    if rotate:
        z = z @ np.linalg.qr(rng.normal(size=(dim, dim)))[0]
    score = c[:, 0] + 0.5 * c[:, 1] - 0.5 * c[:, 2]
    d = (rng.uniform(size=n) < _expit(1.5 * score)).astype(float)
    y = theta * d + 2.0 * score + np.sin(c[:, 3]) + 0.5 * c[:, 4] ** 2 + rng.normal(size=n)
    return y, d, z


def iv_simulation(n: int, seed: int, *, dim_z: int = 10) -> dict[str, np.ndarray]:
    """Binary treatment with an unobserved confounder U and a 10-d instrument acting nonlinearly through two
    of its coordinates; binary outcome.  Returns y, a, x (n,), z (n, dim_z) and the true CATE τ(x) computed by
    Gauss–Hermite quadrature over U."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, n)
    z = rng.normal(size=(n, dim_z))
    u = rng.normal(size=n)
    g = 2.5 * np.sin(1.5 * z[:, 0]) + 1.5 * z[:, 1] * z[:, 2]
    a = (g + 0.5 * x + u + 0.5 * rng.normal(size=n) > 0).astype(float)
    y = (rng.uniform(size=n) < _expit(-0.5 + (1.0 + x) * a + 0.8 * x + u)).astype(float)
    nodes, weights = np.polynomial.hermite_e.hermegauss(40)
    weights = weights / weights.sum()
    base = -0.5 + 0.8 * x[:, None] + nodes[None, :]
    tau = (_expit(base + 1.0 + x[:, None]) - _expit(base)) @ weights
    return {"y": y, "a": a, "x": x, "z": z, "cate": tau}


LOAN_FEATURES = ["age", "education", "income", "savings", "debt"]
LOAN_WEIGHTS = np.array(
    [
        [0.0, 0.0, 0.0, 0.0, 0.0],
        [0.05, 0.0, 0.0, 0.0, 0.0],
        [0.4, 3.0, 0.0, 0.0, 0.0],
        [0.2, 0.0, 0.5, 0.0, 0.0],
        [0.0, 0.0, 0.3, -0.4, 0.0],
    ]
)
LOAN_NOISE = np.array([10.0, 2.0, 8.0, 6.0, 5.0])
LOAN_MEANS = np.array([40.0, 12.0, 0.0, 0.0, 0.0])


def loan_scm(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(features, approved) from the linear SCM above (age → education → income → savings, debt); the bank
    approves when 0.08·income + 0.1·savings − 0.12·debt − 8 > logistic noise."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(n, 5)) * LOAN_NOISE + LOAN_MEANS
    x = np.linalg.solve(np.eye(5) - LOAN_WEIGHTS, u.T).T
    logit = 0.08 * x[:, 2] + 0.1 * x[:, 3] - 0.12 * x[:, 4] - 8.0
    approved = (rng.uniform(size=n) < _expit(logit)).astype(int)
    return x, approved
