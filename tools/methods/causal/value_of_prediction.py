"""Value of prediction for identifying the worst-off (Fischer-Abaigar, Kern & Perdomo, arXiv 2501.19334).

A planner screens the α-fraction of people with the lowest predicted welfare f(X) and wants to reach those
whose true outcome Y is in the bottom β.  The value of the screening rule is the recall
V(α, R²; β) = Pr[f(X) in bottom α | Y in bottom β]; under a bivariate Gaussian model with corr(f, Y)² = R²,
V = Φ₂(Φ⁻¹α, Φ⁻¹β; √R²) / β.  The prediction–access ratio compares the marginal value of more capacity with
that of better prediction, PAR = (∂V/∂α) / (∂V/∂R²) = 2ρ Φ((b − ρa)/√(1−ρ²)) / φ₂(a, b; ρ) with a = Φ⁻¹α,
b = Φ⁻¹β, ρ = √R²: when PAR exceeds the ratio of marginal costs, expanding capacity is the better buy.
The empirical estimator is the recall on data; better prediction is simulated by shrinking residuals.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import output_path
from cmbagent.tools.methods.causal._io import (
    check_columns,
    check_finite,
    check_fraction,
    check_not_constant,
    check_same_length,
    load_table,
)

__all__ = ["empirical_value", "prediction_access_ratio", "value_gaussian", "value_of_prediction"]

PAPER = Paper(
    title="The Value of Prediction in Identifying the Worst-Off",
    arxiv="2501.19334",
    authors="Unai Fischer-Abaigar, Christoph Kern, Juan Carlos Perdomo",
    year=2025,
)


@cache
def _legendre(n: int = 64) -> tuple[np.ndarray, np.ndarray]:
    return np.polynomial.legendre.leggauss(n)


def _bvn_cdf(a: float, b: float, rho: float) -> float:
    """Φ₂(a, b; ρ) by Gauss–Legendre quadrature of Plackett's identity ∂Φ₂/∂ρ = φ₂ (accurate to ~1e-12)."""
    from scipy.stats import norm

    base = float(norm.cdf(a) * norm.cdf(b))
    if rho == 0.0:
        return base
    nodes, weights = _legendre()
    r = 0.5 * rho * (nodes + 1.0)
    dens = np.exp(-(a * a - 2 * r * a * b + b * b) / (2 * (1 - r * r))) / (2 * np.pi * np.sqrt(1 - r * r))
    return base + 0.5 * rho * float(weights @ dens)


def _check_r2(r2: float) -> float:
    if not 0.0 <= r2 < 1.0:
        raise UserError(f"r2: must lie in [0, 1), got {r2}")
    return float(r2)


def value_gaussian(alpha: float, r2: float, beta: float) -> float:
    """Closed form V(α, R²; β) = Φ₂(Φ⁻¹α, Φ⁻¹β; √R²) / β."""
    from scipy.stats import norm

    alpha = check_fraction(alpha, argument="alpha")
    beta = check_fraction(beta, argument="beta")
    r2 = _check_r2(r2)
    return _bvn_cdf(float(norm.ppf(alpha)), float(norm.ppf(beta)), float(np.sqrt(r2))) / beta


def prediction_access_ratio(alpha: float, r2: float, beta: float) -> float:
    """PAR = (∂V/∂α)/(∂V/∂R²) under the Gaussian model (→ 0 as R² → 0: prediction gains dominate there)."""
    from scipy.stats import norm

    alpha = check_fraction(alpha, argument="alpha")
    beta = check_fraction(beta, argument="beta")
    r2 = _check_r2(r2)
    if r2 == 0.0:
        return 0.0
    a, b, rho = float(norm.ppf(alpha)), float(norm.ppf(beta)), float(np.sqrt(r2))
    d_alpha = float(norm.cdf((b - rho * a) / np.sqrt(1 - rho * rho)))
    dens = np.exp(-(a * a - 2 * rho * a * b + b * b) / (2 * (1 - rho * rho))) / (
        2 * np.pi * np.sqrt(1 - rho * rho)
    )
    return 2.0 * rho * d_alpha / float(dens)


def empirical_value(prediction: np.ndarray, outcome: np.ndarray, alpha: float, beta: float) -> float:
    """Share of the bottom-β outcomes whose prediction is in the bottom α (the screening rule's recall)."""
    n = len(outcome)
    worst = np.argsort(outcome, kind="stable")[: max(1, round(beta * n))]
    screened = np.zeros(n, dtype=bool)
    screened[np.argsort(prediction, kind="stable")[: max(1, round(alpha * n))]] = True
    return float(screened[worst].mean())


def _shrunk_prediction(
    prediction: np.ndarray, outcome: np.ndarray, r2_gain: float
) -> tuple[np.ndarray, float]:
    """Predictions with residuals (after linear calibration) scaled so that R² rises by ``r2_gain``."""
    slope, intercept = np.polyfit(prediction, outcome, 1)
    calibrated = slope * prediction + intercept
    resid = outcome - calibrated
    r2 = 1.0 - float(resid.var() / outcome.var())
    target = min(r2 + r2_gain, 0.999)
    factor = float(np.sqrt((1.0 - target) / max(1.0 - r2, 1e-12)))
    return outcome - factor * resid, r2


def _plot(
    path: str,
    beta: float,
    r2_grid: list[float],
    point: tuple[float, float] | None,
    empirical: tuple[np.ndarray, np.ndarray] | None,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    alphas = np.linspace(0.01, 0.99, 60)
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for r2 in r2_grid:
        ax.plot(alphas, [value_gaussian(a, r2, beta) for a in alphas], label=f"R² = {r2:g}")
    if empirical is not None:
        ax.plot(*empirical, "k--", lw=1.5, label="empirical (data)")
    if point is not None:
        ax.plot(*point, "ko", ms=7, label="current (α, V)")
    ax.plot(alphas, alphas, ":", color="grey", lw=1, label="random screening")
    ax.set_xlabel("screening capacity α")
    ax.set_ylabel(f"value V = recall of the bottom {beta:g}")
    ax.set_title("Value of prediction against capacity")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


@method(
    "causal.value_of_prediction",
    paper=PAPER,
    keywords=[
        "value of prediction",
        "worst-off",
        "targeting",
        "screening",
        "capacity",
        "allocation",
        "prediction-access ratio",
        "PAR",
        "social welfare",
        "R squared",
        "recall",
        "public policy",
    ],
    example="value_of_prediction(alpha=0.1, beta=0.1, r2=0.3, cost_capacity=1.0, cost_prediction=2.0)",
)
def value_of_prediction(
    alpha: float = 0.1,
    beta: float = 0.1,
    r2: float | None = None,
    data: InputFile | None = None,
    prediction: str = "prediction",
    outcome: str = "outcome",
    higher_is_worse: bool = False,
    delta_alpha: float = 0.01,
    delta_r2: float = 0.01,
    cost_capacity: float | None = None,
    cost_prediction: float | None = None,
    r2_grid: list[float] | None = None,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Value of prediction for reaching the worst-off, and whether to expand capacity or improve the model.

    Computes the recall V of screening the α-fraction with the lowest predictions among the bottom-β
    outcomes: in closed form under the Gaussian model for a given R², and empirically from (prediction,
    outcome) data when given. The prediction-access ratio PAR compares the gain from more capacity with the
    gain from better prediction; with marginal costs per unit of α and per unit of R², it answers "expand
    capacity or improve the model?" (expand when PAR > cost_capacity / cost_prediction). Plots V against α for
    several R².

    Args:
        alpha: Screening capacity, the share of people the programme can reach, in (0, 1).
        beta: Share defining the worst-off (bottom β of the outcome), in (0, 1).
        r2: R² of the predictor (Gaussian model); taken from data when omitted and data is given.
        data: Optional table of predictions and realised outcomes for the empirical estimate.
        prediction: Prediction column of data.
        outcome: Outcome column of data (low values are worse unless higher_is_worse).
        higher_is_worse: Set when high outcomes (e.g. risk scores) mark the worst-off.
        delta_alpha: Capacity step for the finite-difference gains.
        delta_r2: R² step for the finite-difference gains (residual scaling on data).
        cost_capacity: Marginal cost of one unit of α (optional).
        cost_prediction: Marginal cost of one unit of R² (optional).
        r2_grid: R² values for the plot (default 0.1, 0.3, 0.5, 0.7, 0.9).
        output_dir: Folder for the figure.
    """
    alpha = check_fraction(alpha, argument="alpha")
    beta = check_fraction(beta, argument="beta")
    if not 0 < delta_alpha < 1 - alpha:
        raise UserError(f"delta_alpha: must be in (0, 1 - alpha) = (0, {1 - alpha:.3g}), got {delta_alpha}")
    if not 0 < delta_r2 < 1:
        raise UserError(f"delta_r2: must be in (0, 1), got {delta_r2}")
    if (cost_capacity is None) != (cost_prediction is None):
        raise UserError("cost_capacity, cost_prediction: give both marginal costs or neither")
    if cost_capacity is not None and (cost_capacity <= 0 or cost_prediction is None or cost_prediction <= 0):
        raise UserError("cost_capacity, cost_prediction: marginal costs must be positive")
    if r2 is None and data is None:
        raise UserError("r2, data: give the predictor's R² or a data file with predictions and outcomes")
    grid = [0.1, 0.3, 0.5, 0.7, 0.9] if r2_grid is None else [_check_r2(v) for v in r2_grid]
    values: dict[str, Any] = {"alpha": alpha, "beta": beta}
    checks: list[Check] = []
    empirical_curve = None
    if data is not None:
        frame = load_table(data)
        check_columns(frame, [prediction, outcome], argument="prediction/outcome")
        f = check_finite(frame[prediction].to_numpy(), argument="prediction")
        y = check_finite(frame[outcome].to_numpy(), argument="outcome")
        check_same_length(prediction=f, outcome=y)
        check_not_constant(
            np.column_stack([f, y]), argument="prediction/outcome", names=[prediction, outcome]
        )
        if higher_is_worse:
            f, y = -f, -y
        if len(y) < 50:
            raise UserError(f"data: need at least 50 rows for an empirical estimate, got {len(y)}")
        v_emp = empirical_value(f, y, alpha, beta)
        better, r2_data = _shrunk_prediction(f, y, delta_r2)
        gain_access = empirical_value(f, y, alpha + delta_alpha, beta) - v_emp
        gain_prediction = empirical_value(better, y, alpha, beta) - v_emp
        values.update(
            {
                "empirical_value": v_emp,
                "r2_data": r2_data,
                "empirical_gain_access": gain_access,
                "empirical_gain_prediction": gain_prediction,
                "empirical_par": gain_access / gain_prediction if gain_prediction > 0 else None,
            }
        )
        if r2 is None:
            r2 = float(np.clip(r2_data, 0.0, 0.999))
        alphas = np.linspace(0.01, 0.99, 60)
        empirical_curve = (alphas, np.array([empirical_value(f, y, a, beta) for a in alphas]))
    r2 = _check_r2(float(r2))  # type: ignore[arg-type]
    v = value_gaussian(alpha, r2, beta)
    par = prediction_access_ratio(alpha, r2, beta)
    gain_access = value_gaussian(alpha + delta_alpha, r2, beta) - v
    gain_prediction = value_gaussian(alpha, min(r2 + delta_r2, 0.999), beta) - v
    values.update(
        {
            "r2": r2,
            "value": v,
            "par": par,
            "gain_access": gain_access,
            "gain_prediction": gain_prediction,
            "finite_difference_par": gain_access / gain_prediction * delta_r2 / delta_alpha
            if gain_prediction > 0
            else None,
        }
    )
    advice = ""
    if cost_capacity is not None and cost_prediction is not None:
        threshold = cost_capacity / cost_prediction
        choice = "expand capacity" if par > threshold else "improve the model"
        values["recommendation"] = choice
        values["cost_ratio"] = threshold
        advice = (
            f" With marginal costs {cost_capacity:g} per unit of α and {cost_prediction:g} per unit of R², "
            f"PAR {par:.3g} {'>' if par > threshold else '<='} cost ratio {threshold:.3g}: {choice}."
        )
    if "empirical_value" in values:
        gap = abs(values["empirical_value"] - v)
        checks.append(
            Check(
                name="Gaussian model fits data",
                passed=gap <= 0.05,
                message=f"empirical value {values['empirical_value']:.3f} vs closed form {v:.3f}",
            )
        )
    checks.append(
        Check(
            name="better than random screening",
            passed=v >= alpha - 1e-12,
            message=f"V = {v:.3f} vs α = {alpha:.3f} for random screening",
        )
    )
    figure = output_path(output_dir, "value_of_prediction.png")
    _plot(str(figure), beta, grid, (alpha, v), empirical_curve)
    summary = (
        f"Screening the {100 * alpha:.3g}% with the lowest predictions reaches V = {v:.3f} of the bottom "
        f"{100 * beta:.3g}% under the Gaussian model with R² = {r2:.3g}"
        + (
            f" (empirical recall on data {values['empirical_value']:.3f})"
            if "empirical_value" in values
            else ""
        )
        + f". Prediction-access ratio PAR = {par:.3g}: one unit of capacity is worth {par:.3g} units of R² here."
        + advice
    )
    return MethodResult(
        summary=summary,
        values=values,
        checks=checks,
        artifacts=[str(figure)],
        diagnostics={"r2_grid": grid, "delta_alpha": delta_alpha, "delta_r2": delta_r2},
    )
