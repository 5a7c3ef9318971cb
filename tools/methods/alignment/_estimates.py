"""Design-based estimates of answer shares, their differences and distances, by linearisation.

Every estimate here is a ratio of weighted totals (a share, a share within a subgroup, ballot or wave).  Its
variance is the Taylor linearisation survey statisticians use (Särndal, Swensson & Wretman 1992, ch. 5–6): the
ratio's linearised variable z_i = (a_i − θ b_i) / Σ w b, *residualised on what the weights calibrate on*
(the weighting covariates; Deville & Särndal 1992 — weights fitted to known margins carry no sampling error
along those margins), times the weight, with the with-replacement variance within each stratum (wave):
V = Σ_h n_h/(n_h − 1) Σ_{i∈h} (u_i − ū_h)².  The population margins are taken as known (a census); a small
reference sample's own noise is not added.

Non-linear summaries (total variation, Jensen–Shannon, which subgroup is closest) get a multiplier bootstrap of
the same linearisation: a replicate is θ* = θ + Σ_i ξ_i u_i with independent ξ_i ~ N(0, 1), so replicates
carry the calibration and the strata, and every estimate of one run is replicated jointly (the misjudgement
of the unweighted sample, a difference of two gaps, gets its interval from the same replicates).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from scipy.spatial.distance import jensenshannon
from scipy.special import expit, logit
from scipy.stats import chi2, norm

__all__ = ["Design", "Linear", "interval", "js_divergence", "kappa", "share_interval", "shares", "stack",
           "total_variation", "wald_test"]


@dataclass(frozen=True)
class Design:
    """The final weights of the respondents, what they were calibrated on, and the strata (waves)."""

    weights: np.ndarray
    calibration: np.ndarray | None = None
    strata: np.ndarray | None = None

    @classmethod
    def unweighted(cls, n: int, strata: np.ndarray | None = None) -> Design:
        return cls(weights=np.ones(n), strata=strata)

    @cached_property
    def _projector(self) -> np.ndarray | None:
        """(√w X)⁺ √w: weighted least squares of any z on the calibration columns, computed once."""
        if self.calibration is None:
            return None
        root = np.sqrt(self.weights)
        return np.linalg.pinv(self.calibration * root[:, None]) * root[None, :]

    @cached_property
    def _leverage(self) -> np.ndarray | None:
        """Each respondent's leverage h_i in the calibration regression (diagonal of the weighted hat matrix)."""
        if self.calibration is None or self._projector is None:
            return None
        return np.clip(np.einsum("ij,ji->i", self.calibration, self._projector), 0.0, 0.99)

    def contributions(self, z: np.ndarray) -> np.ndarray:
        """u = w·e/(1 − h), centred within strata and scaled by √(n_h/(n_h − 1)), so that uᵀu is the covariance.

        The residuals are divided by 1 − h (the jackknife's small-sample correction of a regression residual):
        a respondent alone in a sparse cell is fitted almost exactly by the calibration, and without the
        correction the variance is underestimated when weights are extreme (pooled coverage of 95% intervals
        0.87 instead of 0.91 at design effect 8.5 in the ANES validation; 0.95 either way at design effect 2.2)."""
        w = self.weights
        e = z
        if self.calibration is not None and self._projector is not None and self._leverage is not None:
            e = (z - self.calibration @ (self._projector @ z)) / (1 - self._leverage)[:, None]
        u = w[:, None] * e
        labels = np.zeros(len(w), dtype=int) if self.strata is None else self.strata
        for h in np.unique(labels):
            rows = labels == h
            n_h = int(rows.sum())
            u[rows] = (u[rows] - u[rows].mean(axis=0)) * (np.sqrt(n_h / (n_h - 1)) if n_h > 1 else 0.0)
        return u


@dataclass
class Linear:
    """Estimates θ (m values) with their linearised contributions u (n × m): Cov(θ) = uᵀu."""

    theta: np.ndarray
    u: np.ndarray

    @property
    def cov(self) -> np.ndarray:
        return self.u.T @ self.u

    @property
    def std(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.einsum("ij,ij->j", self.u, self.u), 0.0))

    def __sub__(self, other: Linear) -> Linear:
        return Linear(self.theta - other.theta, self.u - other.u)

    def replicates(self, xi: np.ndarray) -> np.ndarray:
        """θ + ξ u for multiplier draws ξ (B × n): B replicates of every estimate."""
        return self.theta[None, :] + xi @ self.u


def stack(parts: list[Linear]) -> Linear:
    return Linear(np.concatenate([p.theta for p in parts]), np.hstack([p.u for p in parts]))


def shares(design: Design, answers: pd.Series, levels: list[str], domain: np.ndarray | None = None) -> Linear:
    """The share of each answer level among respondents who answered (and are in ``domain``)."""
    n = len(answers)
    values = answers.to_numpy(dtype=object)
    answered = pd.notna(answers).to_numpy() & (np.ones(n, bool) if domain is None else domain)
    onehot = np.stack([(values == level) & answered for level in levels], axis=1).astype(float)
    total = float(design.weights @ answered)
    if total <= 0:
        return Linear(np.full(len(levels), np.nan), np.zeros((n, len(levels))))
    theta = design.weights @ onehot / total
    z = (onehot - answered[:, None] * theta[None, :]) / total
    return Linear(theta, design.contributions(z))


def interval(mean: float, std: float, confidence: float = 0.95) -> dict[str, float]:
    """A Wald interval in the result format (68% and the requested level)."""
    z68, z = float(norm.ppf(0.84134474606854)), float(norm.ppf(0.5 + confidence / 2))
    tag = f"{round(100 * confidence)}"
    return {"mean": float(mean), "std": float(std), "lower_68": float(mean - z68 * std),
            "upper_68": float(mean + z68 * std), f"lower_{tag}": float(mean - z * std),
            f"upper_{tag}": float(mean + z * std)}


def share_interval(mean: float, std: float, confidence: float = 0.95) -> dict[str, float]:
    """A share's interval on the logit scale (it stays inside [0, 1] and is better near the ends)."""
    out = interval(mean, std, confidence)
    if not 0 < mean < 1 or std <= 0:
        return out | {k: float(mean) for k in out if k.startswith(("lower", "upper"))}
    slope = std / (mean * (1 - mean))
    centre = float(logit(mean))
    for key in [k for k in out if k.startswith("lower")]:
        width = (mean - out[key]) / std * slope
        out[key], out["upper" + key[5:]] = float(expit(centre - width)), float(expit(centre + width))
    return out


def wald_test(difference: Linear) -> tuple[float, int, float]:
    """χ² test that a vector of share differences is zero (one level dropped: shares sum to one)."""
    d, cov = difference.theta[:-1], difference.cov[:-1, :-1]
    if len(d) == 0:
        return 0.0, 0, 1.0
    stat = float(d @ np.linalg.pinv(cov) @ d)
    df = int(np.linalg.matrix_rank(cov)) or 1
    return stat, df, float(chi2.sf(stat, df))


def total_variation(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """½ Σ |p − q| along the last axis (0: same distribution, 1: disjoint)."""
    return 0.5 * np.abs(np.asarray(p) - np.asarray(q)).sum(axis=-1)


def js_divergence(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Jensen–Shannon divergence in bits along the last axis (0 … 1): the square of scipy's distance."""
    p = np.clip(np.asarray(p, dtype=float), 0.0, None)
    q = np.clip(np.asarray(q, dtype=float), 0.0, None)
    p, q = np.broadcast_arrays(p, q)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(jensenshannon(p, q, base=2, axis=-1)) ** 2


def _kappa(confusion: np.ndarray) -> np.ndarray:
    """Cohen's κ of (weighted) confusion matrices, the last two axes."""
    total = confusion.sum(axis=(-2, -1))
    observed = np.trace(confusion, axis1=-2, axis2=-1) / total
    expected = np.einsum("...i,...i->...", confusion.sum(axis=-1), confusion.sum(axis=-2)) / total**2
    with np.errstate(invalid="ignore", divide="ignore"):
        return (observed - expected) / (1 - expected)


def kappa(first: pd.Series, second: pd.Series, weights: np.ndarray, *, strata: np.ndarray | None, n_boot: int,
          rng: np.random.Generator, confidence: float = 0.95) -> dict[str, float]:
    """Cohen's κ of a repeated answer (scikit-learn, survey-weighted) with a bootstrap over respondents
    (within strata: multinomial resampling counts, replicated confusion matrices); rows where either answer
    is missing are left out."""
    from sklearn.metrics import cohen_kappa_score

    both = (pd.notna(first) & pd.notna(second)).to_numpy()
    a, b = first.to_numpy(dtype=object)[both].astype(str), second.to_numpy(dtype=object)[both].astype(str)
    w = np.asarray(weights, dtype=float)[both]
    labels = np.zeros(len(a), dtype=int) if strata is None else np.asarray(strata)[both]
    estimate = float(cohen_kappa_score(a, b, sample_weight=w))
    levels = np.unique(np.concatenate([a, b]))
    k = len(levels)
    cell = np.searchsorted(levels, a) * k + np.searchsorted(levels, b)
    counts = np.zeros((n_boot, len(a)))
    for h in np.unique(labels):
        rows = np.flatnonzero(labels == h)
        counts[:, rows] = rng.multinomial(len(rows), np.full(len(rows), 1 / len(rows)), size=n_boot)
    onehot = np.zeros((len(a), k * k))
    onehot[np.arange(len(a)), cell] = 1.0
    reps = _kappa(((counts * w) @ onehot).reshape(n_boot, k, k))
    reps = reps[np.isfinite(reps)]
    std = float(reps.std(ddof=1)) if len(reps) > 1 else 0.0
    tag = f"{round(100 * confidence)}"
    lo, hi = (np.quantile(reps, [0.5 - confidence / 2, 0.5 + confidence / 2]) if len(reps)
              else (estimate, estimate))
    return interval(estimate, std, confidence) | {f"lower_{tag}": float(lo), f"upper_{tag}": float(hi),
                                                  "agreement": float(w @ (a == b) / w.sum()), "n": len(a)}
