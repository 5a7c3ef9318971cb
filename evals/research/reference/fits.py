"""Reference answers of the regression, posterior and curve-fit tasks, in closed form with numpy.

* Ordinary least squares and its standard errors: the normal equations.
* A linear model with known Gaussian noise and flat priors: the posterior is Gaussian with the least-squares
  mean and covariance σ²(XᵀX)⁻¹, so an MCMC answer is checked against the exact posterior.
* The conjugate posterior of the in-context-learning task (N(0, 1) priors on intercept and slope, noise
  standard deviation 1, dose standardised to mean 0 and standard deviation 1).
* A model linear in its coefficients (y = a sin t + b sin(t/2) + c): least squares is exact.

Prints one JSON object: ``{task: {value name: number}}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent.parent / "data"


def table(name: str) -> dict[str, np.ndarray]:
    lines = (DATA / name).read_text().splitlines()
    header = lines[0].split(",")
    values = np.array([[float(v) for v in line.split(",")] for line in lines[1:] if line.strip()])
    return {column: values[:, i] for i, column in enumerate(header)}


def main() -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    reg = table("regression.csv")
    x = np.column_stack([np.ones(reg["dose"].size), reg["dose"]])
    y = reg["response"]
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    resid = y - x @ beta
    sigma2 = resid @ resid / (y.size - 2)
    cov = sigma2 * np.linalg.inv(x.T @ x)
    out["c05-dose-response-ols"] = {"slope": beta[1], "slope_se": np.sqrt(cov[1, 1]),
                                    "intercept": beta[0], "intercept_se": np.sqrt(cov[0, 0])}
    exact = np.linalg.inv(x.T @ x)  # σ = 1 known, flat priors
    out["c06-dose-response-mcmc"] = {"slope": beta[1], "slope_std": np.sqrt(exact[1, 1]),
                                     "intercept": beta[0], "intercept_std": np.sqrt(exact[0, 0])}

    z = (reg["dose"] - reg["dose"].mean()) / reg["dose"].std()
    xs = np.column_stack([np.ones(z.size), z])
    post_cov = np.linalg.inv(xs.T @ xs + np.eye(2))
    post_mean = post_cov @ xs.T @ y
    out["m16-dose-response-in-context"] = {"slope": post_mean[1], "slope_std": np.sqrt(post_cov[1, 1]),
                                           "intercept": post_mean[0], "intercept_std": np.sqrt(post_cov[0, 0])}

    gp = table("gp_curve.csv")
    design = np.column_stack([np.sin(gp["t"]), np.sin(gp["t"] / 2), np.ones(gp["t"].size)])
    coef, *_ = np.linalg.lstsq(design, gp["y"], rcond=None)
    out["c07-two-sines"] = {"a": coef[0], "b": coef[1], "c": coef[2]}
    return {task: {k: float(v) for k, v in values.items()} for task, values in out.items()}


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
