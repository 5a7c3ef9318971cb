"""The class-stability estimator (exact for linear models, a line search for any other classifier): the
definition and the algorithm are in :mod:`cmbagent.tools.methods.robustness.class_stability`, whose tool and
whose width sweep (:mod:`cmbagent.tools.methods.robustness._width_sweep`) both use it from here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cmbagent.exceptions import DataError, UserError

__all__ = ["StabilityEstimate", "estimate_stability", "linear_stability"]


@dataclass
class StabilityEstimate:
    """Per-point boundary distances and their summaries.

    Attributes:
        distances: distance of each evaluated point to the decision boundary.
        predicted: predicted class of each point.
        method: ``"exact_linear"`` or ``"line_search"``.
        censored: points whose search found no boundary within ``max_distance`` (line search only).
    """

    distances: np.ndarray
    predicted: np.ndarray
    method: str
    censored: int = 0
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return float(self.distances.mean())

    @property
    def stderr(self) -> float:
        n = self.distances.size
        return float(self.distances.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0

    def summary(self) -> dict[str, Any]:
        """Overall and per-class stability as ``{"mean","std","lower_68","upper_68", "n"}`` dicts."""
        out: dict[str, Any] = {"overall": _summ(self.distances)}
        out["per_class"] = {
            str(c): _summ(self.distances[self.predicted == c]) for c in np.unique(self.predicted)
        }
        return out


def _summ(d: np.ndarray) -> dict[str, float]:
    n = d.size
    se = float(d.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0
    mean = float(d.mean()) if n else float("nan")
    return {"mean": mean, "std": se, "lower_68": mean - se, "upper_68": mean + se, "n": n}


def _linear_parts(model: Any) -> tuple[np.ndarray, np.ndarray] | None:
    """(W, b) with scores = X @ W.T + b when ``model`` is a fitted linear classifier, else None."""
    from sklearn.pipeline import Pipeline

    if isinstance(model, Pipeline):
        return None  # a scaler in front changes the geometry; treat as a black box
    coef = getattr(model, "coef_", None)
    intercept = getattr(model, "intercept_", None)
    classes = getattr(model, "classes_", None)
    if coef is None or intercept is None or classes is None or not hasattr(model, "decision_function"):
        return None
    W = np.atleast_2d(np.asarray(coef, dtype=float))
    b = np.atleast_1d(np.asarray(intercept, dtype=float))
    return W, b


def linear_stability(W: np.ndarray, b: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact distances to the boundary of a linear classifier; returns (distances, predicted index).

    ``W`` has one row (binary: class 1 iff ``w.x + b > 0``) or one row per class (argmax of scores).
    """
    X = np.asarray(X, dtype=float)
    if W.shape[0] == 1:
        s = X @ W[0] + b[0]
        norm = np.linalg.norm(W[0])
        if norm == 0:
            raise DataError(
                "the linear classifier has an all-zero weight vector; it has no decision boundary"
            )
        return np.abs(s) / norm, (s > 0).astype(int)
    S = X @ W.T + b
    k = S.argmax(axis=1)
    dist = np.full(X.shape[0], np.inf)
    for j in range(W.shape[0]):
        diff_w = W[k] - W[j]  # (n, d)
        norm = np.linalg.norm(diff_w, axis=1)
        gap = S[np.arange(len(k)), k] - S[:, j]
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where((j != k) & (norm > 0), gap / norm, np.inf)
        dist = np.minimum(dist, d)
    return dist, k


def estimate_stability(
    model: Any,
    X: Any,
    *,
    n_directions: int = 64,
    max_distance: float | None = None,
    n_grid: int = 48,
    n_bisect: int = 25,
    exact_if_linear: bool = True,
    random_state: int | None = 0,
) -> StabilityEstimate:
    """Class stability of a fitted classifier on the rows of ``X``.

    Args:
        model: fitted classifier with ``predict`` (linear models with ``coef_``/``intercept_`` are exact).
        X: points to evaluate, shape (n, d).
        n_directions: random directions per point for the line search.
        max_distance: search radius; default 2x the data's diameter (bounding-box diagonal).
        n_grid: grid steps along each direction before bisection.
        n_bisect: bisection steps refining the first label change.
        exact_if_linear: use the closed form when the model is linear.
        random_state: seed of the random directions.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[0] == 0:
        raise DataError(f"X must be a non-empty 2-D array; got shape {X.shape}")
    if not np.isfinite(X).all():
        raise DataError("X contains NaN/inf values; impute or drop them before estimating stability")
    if not hasattr(model, "predict"):
        raise UserError(f"{type(model).__name__} has no predict(); pass a fitted classifier")
    parts = _linear_parts(model) if exact_if_linear else None
    if parts is not None:
        dist, k = linear_stability(*parts, X)
        classes = np.asarray(model.classes_)
        return StabilityEstimate(dist, classes[k], "exact_linear")
    if n_directions < 1 or n_grid < 2:
        raise UserError("n_directions must be >= 1 and n_grid >= 2")
    if max_distance is None:
        span = float(np.linalg.norm(X.max(axis=0) - X.min(axis=0)))
        max_distance = 2.0 * span if span > 0 else 1.0
    rng = np.random.default_rng(random_state)
    n, d = X.shape
    base = np.asarray(model.predict(X))
    best = np.full(n, np.inf)
    chunk = max(1, 200_000 // (n_directions * n_grid))
    for start in range(0, n, chunk):
        xs, ys = X[start : start + chunk], base[start : start + chunk]
        m = xs.shape[0]
        U = rng.standard_normal((m, n_directions, d))
        U /= np.linalg.norm(U, axis=2, keepdims=True)
        ts = np.linspace(0.0, max_distance, n_grid + 1)[1:]
        pts = xs[:, None, None, :] + ts[None, None, :, None] * U[:, :, None, :]
        pred = np.asarray(model.predict(pts.reshape(-1, d))).reshape(m, n_directions, n_grid)
        changed = pred != ys[:, None, None]
        hit = changed.any(axis=2)
        first = np.where(hit, changed.argmax(axis=2), n_grid - 1)
        hi = ts[first]
        lo = np.where(first > 0, ts[np.maximum(first - 1, 0)], 0.0)
        for _ in range(n_bisect):  # invariant: label at lo equals ys, label at hi differs
            mid = 0.5 * (lo + hi)
            pm = np.asarray(model.predict((xs[:, None, :] + mid[..., None] * U).reshape(-1, d))).reshape(
                m, n_directions
            )
            moved = pm != ys[:, None]
            hi = np.where(hit & moved, mid, hi)
            lo = np.where(hit & ~moved, mid, lo)
        dist = np.where(hit, hi, max_distance)
        best[start : start + m] = dist.min(axis=1)
    censored = int((best >= max_distance).sum())
    settings = {
        "n_directions": n_directions,
        "max_distance": max_distance,
        "n_grid": n_grid,
        "n_bisect": n_bisect,
    }
    return StabilityEstimate(best, base, "line_search", censored, settings)
