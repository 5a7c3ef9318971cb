"""The numbers behind every ``answer:`` of ``tasks.yaml``, computed without cmbagent.

``python tests/understanding/reference/answers.py`` prints one line per task: the value, and for the simulated
causal tasks also a plain cross-fitted AIPW estimate (scikit-learn) with its standard error, which is what the
tolerances were sized from (about 2.5 standard errors: an adjusted estimate lands inside, the unadjusted
difference does not). ``tests/understanding/test_set.py`` imports :data:`ANSWERS` and checks that the
manifest states these values.

Each entry maps a task name to a function of the data folder. Where the data are simulated and the truth is
the answer (an average effect, a planted head), the function reads ``truths.json`` written by
``make_data.py``; everywhere else it computes the value: grid posteriors (``supernovae.py``), weighted chain
means, closed-form posteriors, the bivariate-normal value of prediction, least-squares R^2, linear-SVM
distances.
"""

from __future__ import annotations

import csv
import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parent))
import supernovae as sn

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data"


def table(path: Path) -> dict[str, np.ndarray]:
    with path.open() as fh:
        rows = list(csv.DictReader(fh))
    out: dict[str, np.ndarray] = {}
    for key in rows[0]:
        try:
            out[key] = np.array([float(r[key]) for r in rows])
        except ValueError:
            out[key] = np.array([r[key] for r in rows])
    return out


def truth(data: Path, group: str, key: str) -> float:
    return json.loads((data / "truths.json").read_text())[group][key]


def standardise(x: np.ndarray) -> np.ndarray:
    return (x - x.mean()) / x.std()


# ------------------------------------------------------------------------------------------------ chains


def chain_mean(path: Path, column: int, burn_in: float, weight_column: int | None = None) -> float:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:
        rows = np.loadtxt(fh, comments="#")
    rows = rows[round(burn_in * len(rows)):]
    w = rows[:, weight_column] if weight_column is not None else np.ones(len(rows))
    return float(np.sum(w * rows[:, column]) / w.sum())


# -------------------------------------------------------------------------------------------- prediction


def value_gaussian(alpha: float, beta: float, r2: float) -> float:
    """Pr[prediction in the bottom alpha | outcome in the bottom beta] for jointly Gaussian (f, y), corr sqrt(R^2)."""
    rho = np.sqrt(r2)
    joint = stats.multivariate_normal([0, 0], [[1, rho], [rho, 1]]).cdf([stats.norm.ppf(alpha), stats.norm.ppf(beta)])
    return float(joint / beta)


def value_empirical(prediction: np.ndarray, outcome: np.ndarray, alpha: float, beta: float,
                    higher_is_worse: bool) -> float:
    sign = -1 if higher_is_worse else 1
    worst = np.argsort(sign * outcome, kind="stable")[: round(beta * outcome.size)]
    screened = np.argsort(sign * prediction, kind="stable")[: round(alpha * prediction.size)]
    return float(np.isin(worst, screened).mean())


# ------------------------------------------------------------------------------------------ classifiers


def linear_svm_distance(path: Path, label: str, splits: int = 20) -> float:
    """Mean distance |w.x + b| / |w| of held-out rows to a linear SVM's boundary, averaged over random 70/30 splits."""
    from sklearn.model_selection import train_test_split
    from sklearn.svm import LinearSVC

    t = table(path)
    y = t.pop(label).astype(int)
    x = np.column_stack(list(t.values()))
    found = []
    for seed in range(splits):
        xtr, xte, ytr, _ = train_test_split(x, y, test_size=0.3, random_state=seed, stratify=y)
        clf = LinearSVC(C=1.0, max_iter=20000).fit(xtr, ytr)
        w, b = clf.coef_[0], clf.intercept_[0]
        found.append(np.mean(np.abs(xte[:300] @ w + b) / np.linalg.norm(w)))
    return float(np.mean(found))


def redundancy_r2(path: Path, label: str, feature: str) -> float:
    """R^2 of one feature regressed (least squares) on the other features: how replaceable it is."""
    t = table(path)
    t.pop(label)
    target = t.pop(feature)
    x = np.column_stack([np.ones(target.size), *t.values()])
    resid = target - x @ np.linalg.lstsq(x, target, rcond=None)[0]
    return float(max(0.0, 1 - resid.var() / target.var()))


# ---------------------------------------------------------------------------------------------- Bayes


def conjugate_slope(path: Path, x_col: str, y_col: str, prior_std: float, noise_std: float) -> float:
    """Posterior mean of w in y = b + w z + N(0, noise^2), z the standardised input, b, w ~ N(0, prior^2)."""
    t = table(path)
    design = np.column_stack([np.ones(t[x_col].size), standardise(t[x_col])])
    precision = design.T @ design / noise_std**2 + np.eye(2) / prior_std**2
    return float(np.linalg.solve(precision, design.T @ t[y_col] / noise_std**2)[1])


def mixture_upper_mean(path: Path, column: str, prior_std: float) -> float:
    """Posterior mean of the larger component mean of 1/2 N(m1, 1) + 1/2 N(m2, 1), m ~ N(0, prior^2), m1 <= m2."""
    y = table(path)[column]
    grid = np.arange(-8, 8 + 1e-9, 0.02)
    m1, m2 = np.meshgrid(grid, grid, indexing="ij")
    loglik = np.zeros_like(m1)
    for v in y:
        loglik += np.logaddexp(-0.5 * (v - m1) ** 2, -0.5 * (v - m2) ** 2)
    logp = loglik - 0.5 * (m1**2 + m2**2) / prior_std**2
    logp[m1 > m2] = -np.inf
    p = np.exp(logp - logp.max())
    return float(np.sum(p * m2) / p.sum())


def logistic_posterior_mean(path: Path, label: str, columns: list[str], prior_std: float, which: int) -> float:
    """Posterior mean of one coefficient (0 = intercept) of a logistic regression on standardised inputs, N(0,
    prior^2) on every coefficient: a sum over a grid of 41 points per axis spanning +-6 Laplace standard
    deviations around the mode (found by Newton's method)."""
    t = table(path)
    x = np.column_stack([np.ones(t[label].size)] + [standardise(t[c]) for c in columns])
    y = t[label]
    beta = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ beta))
        grad = x.T @ (y - p) - beta / prior_std**2
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.eye(x.shape[1]) / prior_std**2
        beta = beta + np.linalg.solve(hess, grad)
    sd = np.sqrt(np.diag(np.linalg.inv(hess)))
    axes = [b + s * np.linspace(-6, 6, 41) for b, s in zip(beta, sd, strict=True)]
    grid = np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")], axis=1)
    eta = grid @ x.T
    logp = (y * eta - np.logaddexp(0, eta)).sum(axis=1) - 0.5 * (grid**2).sum(axis=1) / prior_std**2
    w = np.exp(logp - logp.max())
    return float(np.sum(w * grid[:, which]) / w.sum())


def additive_r2(embeddings: Path, labels: Path, columns: tuple[str, str]) -> float:
    """Pooled R^2 of the additive fit mu + u_{c1} + v_{c2} to the per-combination mean embeddings (the quantity
    ``cmbagent.tools.methods.lm.additive_r2`` documents), by least squares over all dimensions."""
    emb = np.load(embeddings).astype(float)
    t = table(labels)
    pairs = sorted(set(zip(t[columns[0]], t[columns[1]], strict=True)))
    means = np.array([emb[(t[columns[0]] == a) & (t[columns[1]] == b)].mean(axis=0) for a, b in pairs])
    parts = [np.ones((len(pairs), 1))]
    for i in range(2):
        values = sorted({p[i] for p in pairs})
        parts.append(np.array([[float(p[i] == v) for v in values[1:]] for p in pairs]))
    design = np.concatenate(parts, axis=1)
    resid = means - design @ np.linalg.lstsq(design, means, rcond=None)[0]
    return float(1 - (resid**2).sum() / ((means - means.mean(axis=0)) ** 2).sum())


# ---------------------------------------------------------------------------------------------- answers

ANSWERS: dict[str, Callable[[Path], float]] = {
    "job_training_earnings": lambda d: truth(d, "job_training", "ate"),
    "tutoring_average_gain": lambda d: truth(d, "tutoring", "ate"),
    "coupon_uplift_embeddings": lambda d: truth(d, "coupons", "ate"),
    "nitrogen_yield_response": lambda d: truth(d, "nitrogen", "theta"),
    "recovery_from_notes": lambda d: truth(d, "clinic_notes", "ate"),
    "binned_w_with_systematics": lambda d: sn.binned_wcdm(d / "binned_sn_mags.txt",
                                                          d / "binned_sn_sys_cov.txt")["w0"][0],
    "sn_with_bao_prior": lambda d: sn.flat_lcdm(d / "deep_field_sne.csv", (0.300, 0.012))["Omega_m"][0],
    "evolving_dark_energy_small_set": lambda d: sn.w0wa(d / "small_binned_mu.csv")["w0"][0],
    "hubble_constant_from_moduli": lambda d: sn.flat_lcdm_free_h0(d / "sn_distance_moduli.csv")["H0"][0],
    "matter_density_peak_mags": lambda d: sn.flat_lcdm(d / "sn_peak_mags.csv")["Omega_m"][0],
    "is_the_universe_flat": lambda d: sn.curved_lcdm(d / "sn_curvature.csv")["Omega_de"][0],
    "wcdm_chain_burn_in": lambda d: chain_mean(d / "wcdm_chain.txt", 0, 0.3, weight_column=2),
    "lensing_chain_sigma8": lambda d: chain_mean(d / "lensing_chain.txt.gz", 1, 0.2),
    "checkup_letters_bounds": lambda d: 100.0 - 0.0,  # Manski width = the stated outcome range
    "bus_pass_bounds": lambda d: 1.0 - 0.0,  # a binary outcome
    "food_bank_capacity": lambda d: value_gaussian(0.15, 0.05, 0.35),
    "dropout_mentoring_recall": lambda d: value_empirical(table(d / "dropout_risk.csv")["predicted_risk"],
                                                          table(d / "dropout_risk.csv")["days_absent"],
                                                          0.2, 0.1, higher_is_worse=True),
    "wafer_boundary_distance": lambda d: linear_svm_distance(d / "wafer_inspection.csv", "defect"),
    "loan_explanation_hiding": lambda d: redundancy_r2(d / "loan_book.csv", "defaulted", "area_median_income"),
    "sepsis_lactate_promotion": lambda d: redundancy_r2(d / "sepsis_screen.csv", "sepsis", "lactate"),
    "seedling_survival_semi_implicit": lambda d: logistic_posterior_mean(
        d / "seedling_survival.csv", "survived", ["soil_moisture_pct", "canopy_shade_pct"], 3.0, 1),
    "hatchling_growth_posterior": lambda d: conjugate_slope(d / "hatchling_growth.csv", "incubation_temp_c",
                                                            "log_growth_rate", 1.0, 0.5),
    "vole_mass_two_populations": lambda d: mixture_upper_mean(d / "vole_log_mass.csv", "log_mass_centred", 2.0),
    "embedding_additivity": lambda d: additive_r2(d / "shape_embeddings.npy", d / "shape_labels.csv",
                                                  ("colour", "shape")),
}


def _covariates(t: dict[str, np.ndarray], covariates: list[str] | str) -> np.ndarray:
    x = np.load(DATA / covariates) if isinstance(covariates, str) else np.column_stack([t[c] for c in covariates])
    return (x - x.mean(axis=0)) / x.std(axis=0)


def aipw(path: Path, outcome: str, treatment: str, covariates: list[str] | str) -> tuple[float, float]:
    """Cross-fitted AIPW (5 folds; gradient-boosting outcome models, logistic propensity clipped to [0.01, 0.99]):
    the estimate and its standard error. ``covariates`` may name a .npy file of features instead of columns."""
    from sklearn.ensemble import GradientBoostingRegressor
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import KFold

    t = table(path)
    x, a, y = _covariates(t, covariates), t[treatment], t[outcome]
    psi = np.empty(y.size)
    for train, test in KFold(5, shuffle=True, random_state=0).split(x):
        e = LogisticRegression(max_iter=2000).fit(x[train], a[train]).predict_proba(x[test])[:, 1].clip(0.01, 0.99)
        mu = [GradientBoostingRegressor(random_state=0).fit(x[train][a[train] == k], y[train][a[train] == k])
              .predict(x[test]) for k in (0, 1)]
        psi[test] = mu[1] - mu[0] + a[test] * (y[test] - mu[1]) / e - (1 - a[test]) * (y[test] - mu[0]) / (1 - e)
    return float(psi.mean()), float(psi.std() / np.sqrt(psi.size))


def partialling_out(path: Path, outcome: str, treatment: str, covariates: list[str]) -> tuple[float, float]:
    """Cross-fitted partialling-out estimate of theta in Y = theta D + g(X) + e (gradient boosting), with its
    heteroscedasticity-robust standard error."""
    from sklearn.ensemble import GradientBoostingRegressor
    from sklearn.model_selection import KFold

    t = table(path)
    x, d, y = _covariates(t, covariates), t[treatment], t[outcome]
    rd, ry = np.empty(d.size), np.empty(y.size)
    for train, test in KFold(5, shuffle=True, random_state=0).split(x):
        rd[test] = d[test] - GradientBoostingRegressor(random_state=0).fit(x[train], d[train]).predict(x[test])
        ry[test] = y[test] - GradientBoostingRegressor(random_state=0).fit(x[train], y[train]).predict(x[test])
    theta = float(rd @ ry / (rd @ rd))
    se = float(np.sqrt(np.sum(rd**2 * (ry - theta * rd) ** 2)) / (rd @ rd))
    return theta, se


CHECKS: dict[str, tuple[Callable[..., tuple[float, float]], str, str, str, list[str] | str]] = {
    "job_training_earnings": (aipw, "training_programme.csv", "earnings_after", "trained",
                              ["age", "years_school", "black", "married", "no_degree", "earnings_two_years_before",
                               "earnings_year_before"]),
    "tutoring_average_gain": (aipw, "tutoring.csv", "maths_score", "tutored",
                              ["prior_score", "attendance_pct", "parent_degree", "free_meals", "class_size"]),
    "coupon_uplift_embeddings": (aipw, "coupon_customers.csv", "spend_next_month", "coupon",
                                 "customer_embeddings.npy"),
    "nitrogen_yield_response": (partialling_out, "nitrogen_trials.csv", "yield_t_ha", "nitrogen_kg_ha",
                                ["soil_ph", "organic_matter_pct", "rainfall_mm", "previous_legume"]),
}


def main() -> None:
    for name, fn in ANSWERS.items():
        line = f"{name:34s} {fn(DATA):.6g}"
        if name in CHECKS:
            estimator, file, outcome, treatment, covariates = CHECKS[name]
            est, se = estimator(DATA / file, outcome, treatment, covariates)
            t = table(DATA / file)
            naive = np.polyfit(t[treatment], t[outcome], 1)[0]  # the difference in means for a 0/1 treatment
            line += f"   ({estimator.__name__} {est:.4g} +- {se:.3g}; unadjusted {naive:.4g})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
