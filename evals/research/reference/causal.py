"""Reference answers of the causal and screening tasks, with numpy, scipy and scikit-learn only.

* IHDP (semi-synthetic): the truth is in the file — the true ATE is mean(mu1 − mu0) over all units.
* Job training (synthetic): the truth is the generator's own potential outcomes, mean(y1 − y0), recomputed
  here from ``make_data.job_training`` (the run sees only the observed table).
* 401(k): no truth exists; the reference is our own cross-fitted AIPW (doubly robust) estimate with
  gradient-boosted nuisance models, 5 folds, propensities clipped to [0.01, 0.99].  Different learners give
  different numbers (Chernozhukov et al. report 7,461–9,349 US$ for eligibility), so the graders compare in
  units of the run's own standard error.
* Value of prediction: the closed form of Fischer-Abaigar, Kern & Perdomo (2025) evaluated with scipy's
  bivariate normal CDF (not cmbagent's quadrature); the prediction–access ratio by central finite
  differences of that CDF; the empirical recall by counting.

Prints one JSON object: ``{task: {value name: number}}``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread: OpenMP on a busy 2-core machine thrashes

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"
COVARIATES_401K = ["age", "inc", "educ", "fsize", "marr", "twoearn", "db", "pira", "hown"]


def aipw(frame: pd.DataFrame, outcome: str, treatment: str, covariates: list[str], seed: int = 0) -> tuple[float, float]:
    """Cross-fitted AIPW estimate of the ATE and its standard error."""
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
    from sklearn.model_selection import StratifiedKFold

    x = frame[covariates].to_numpy(float)
    d = frame[treatment].to_numpy(int)
    y = frame[outcome].to_numpy(float)
    psi = np.empty(y.size)
    for train, test in StratifiedKFold(5, shuffle=True, random_state=seed).split(x, d):
        ps = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, random_state=seed)
        ps.fit(x[train], d[train])
        e = np.clip(ps.predict_proba(x[test])[:, 1], 0.01, 0.99)
        mu = {}
        for arm in (0, 1):
            rows = train[d[train] == arm]
            reg = HistGradientBoostingRegressor(max_iter=200, learning_rate=0.05, random_state=seed)
            mu[arm] = reg.fit(x[rows], y[rows]).predict(x[test])
        dt, yt = d[test], y[test]
        psi[test] = mu[1] - mu[0] + dt * (yt - mu[1]) / e - (1 - dt) * (yt - mu[0]) / (1 - e)
    return float(psi.mean()), float(psi.std(ddof=1) / np.sqrt(psi.size))


def recall(prediction: np.ndarray, outcome: np.ndarray, alpha: float, beta: float) -> float:
    """Share of the bottom-β of ``outcome`` that the bottom-α of ``prediction`` contains."""
    n = outcome.size
    chosen = np.argsort(prediction, kind="stable")[: round(alpha * n)]
    worst = np.argsort(outcome, kind="stable")[: round(beta * n)]
    return float(np.isin(worst, chosen).mean())


def value(alpha: float, beta: float, r2: float) -> float:
    from scipy.stats import multivariate_normal, norm

    rho = np.sqrt(r2)
    joint = multivariate_normal(mean=[0, 0], cov=[[1, rho], [rho, 1]]).cdf([norm.ppf(alpha), norm.ppf(beta)])
    return float(joint / beta)


def main() -> dict[str, dict[str, float | str]]:
    out: dict[str, dict[str, float | str]] = {}
    for task, rep in (("m11-ihdp-home-visits", 1), ("m12-ihdp-third-replication", 3)):
        ihdp = pd.read_csv(DATA / f"ihdp_npci_{rep}.csv")
        out[task] = {"ate": float((ihdp["mu1"] - ihdp["mu0"]).mean())}

    sys.path.insert(0, str(HERE))
    from make_data import job_training

    jobs = job_training()
    out["m14-job-training-effect"] = {"ate": float((jobs["y1"] - jobs["y0"]).mean())}

    sipp = pd.read_csv(DATA / "sipp1991.csv")
    ate, se = aipw(sipp, "net_tfa", "e401", COVARIATES_401K)
    out["m13-401k-eligibility"] = {"ate": ate, "ate_se": se}
    ate, se = aipw(sipp, "net_tfa", "p401", COVARIATES_401K)
    out["m15-401k-participation"] = {"ate": ate, "ate_se": se}

    out["m17-screening-reach"] = {"value": value(0.15, 0.10, 0.30)}
    step = 1e-4
    d_alpha = (value(0.10 + step, 0.10, 0.20) - value(0.10 - step, 0.10, 0.20)) / (2 * step)
    d_r2 = (value(0.10, 0.10, 0.20 + step) - value(0.10, 0.10, 0.20 - step)) / (2 * step)
    par = d_alpha / d_r2
    # capacity costs 4 per unit of α, prediction 1 per unit of R²: capacity is the better buy when PAR > 4
    out["m20-capacity-or-prediction"] = {"par": par, "value": value(0.10, 0.10, 0.20),
                                         "recommendation": "expand capacity" if par > 4.0 else "improve the model"}
    screening = pd.read_csv(DATA / "screening.csv")
    out["m18-screening-from-data"] = {
        "share_supported": recall(screening["predicted_welfare"].to_numpy(), screening["welfare"].to_numpy(), 0.10, 0.10),
        "r2": float(np.corrcoef(screening["predicted_welfare"], screening["welfare"])[0, 1] ** 2)}
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
