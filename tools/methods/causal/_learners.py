"""Nuisance learners for double machine learning.

Latent features (embeddings of images or text) are identified only up to an invertible linear map, so the
paper (Schulte, Rügamer & Nagler, arXiv 2506.14329) asks for nuisance learners whose function class does not
change under such maps.  The kernel learners here depend on the inputs only through Euclidean distances
(RBF kernel, median-heuristic bandwidth, landmark rows chosen by index), so a rotation of the features leaves
their predictions unchanged to floating-point precision; an MLP has a rotation-invariant function class but
its random initialisation is not, so it is invariant only in distribution.  Tree ensembles and the lasso act
coordinate-wise and are offered for tabular covariates only.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

__all__ = ["LEARNERS", "KernelRidgeClassifier", "KernelRidgeRegressor", "make_learners"]

LearnerName = Literal["kernel_ridge", "mlp", "random_forest", "gradient_boosting", "lasso"]
LEARNERS: tuple[str, ...] = ("kernel_ridge", "mlp", "random_forest", "gradient_boosting", "lasso")
ROTATION_INVARIANT: frozenset[str] = frozenset({"kernel_ridge", "mlp"})


def _sq_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d2 = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * a @ b.T
    return np.maximum(d2, 0.0)


class KernelRidgeRegressor(RegressorMixin, BaseEstimator):
    """RBF kernel ridge regression with Nyström landmarks and leave-one-out tuning.

    The bandwidth is ``scale`` times the median distance between landmarks and the ridge penalty is chosen
    among ``alphas`` (times n) by the closed-form leave-one-out error, so the learner needs no tuning by hand.
    With ``n <= n_components`` every row is a landmark and the fit is exact kernel ridge regression.

    Args:
        n_components: number of landmark rows of the Nyström approximation.
        alphas: candidate ridge penalties, relative to the training size.
        scales: candidate bandwidth multipliers of the median heuristic.
        random_state: seed for the choice of landmark rows.
    """

    def __init__(
        self,
        n_components: int = 800,
        alphas: tuple[float, ...] = (1e-5, 1e-4, 1e-3, 1e-2, 1e-1),
        scales: tuple[float, ...] = (0.5, 1.0, 2.0),
        random_state: int | None = 0,
    ) -> None:
        self.n_components = n_components
        self.alphas = alphas
        self.scales = scales
        self.random_state = random_state

    def _features(self, x: np.ndarray, bandwidth: float) -> np.ndarray:
        kernel = np.exp(-_sq_distances(x, self.landmarks_) / (2.0 * bandwidth**2))
        return kernel @ self._projections[bandwidth]

    def fit(self, X: Any, y: Any) -> KernelRidgeRegressor:
        x = np.asarray(X, dtype=float)
        target = np.asarray(y, dtype=float).ravel()
        n = len(x)
        rng = np.random.default_rng(self.random_state)
        m = min(n, int(self.n_components))
        index = np.sort(rng.choice(n, size=m, replace=False)) if m < n else np.arange(n)
        self.landmarks_ = x[index]
        d2 = _sq_distances(self.landmarks_, self.landmarks_)
        median = float(np.sqrt(np.median(d2[np.triu_indices(m, k=1)]))) if m > 1 else 1.0
        median = median if median > 0 else 1.0
        self.y_mean_ = float(target.mean())
        centred = target - self.y_mean_
        self._projections: dict[float, np.ndarray] = {}
        best: tuple[float, float, float, np.ndarray] | None = None
        exact = m == n
        for scale in self.scales:
            bandwidth = scale * median
            k_mm = np.exp(-d2 / (2.0 * bandwidth**2))
            eigval, eigvec = np.linalg.eigh(k_mm)
            keep = eigval > 1e-10 * eigval.max()
            if exact:  # dual form: K = U diag(s²) Uᵀ, coefficients on the kernel columns
                u, s2 = eigvec[:, keep], eigval[keep]
                self._projections[bandwidth] = np.eye(m)
            else:
                self._projections[bandwidth] = eigvec[:, keep] / np.sqrt(eigval[keep])
                u, s, vt = np.linalg.svd(self._features(x, bandwidth), full_matrices=False)
                s2 = s**2
            uty = u.T @ centred
            for alpha in self.alphas:
                shrink = s2 / (s2 + alpha * n)
                fitted = u @ (shrink * uty)
                leverage = (u**2) @ shrink
                loo = float(np.mean(((centred - fitted) / np.maximum(1.0 - leverage, 1e-8)) ** 2))
                if best is None or loo < best[0]:
                    coef = (
                        u @ (uty / (s2 + alpha * n))
                        if exact
                        else vt.T @ (np.sqrt(s2) / (s2 + alpha * n) * uty)
                    )
                    best = (loo, bandwidth, alpha, coef)
        if best is None:
            raise ValueError("KernelRidgeRegressor needs non-empty scales and alphas")
        _, self.bandwidth_, self.alpha_, self.coef_ = best
        self._projections = {self.bandwidth_: self._projections[self.bandwidth_]}
        self.n_features_in_ = x.shape[1]
        return self

    def predict(self, X: Any) -> np.ndarray:
        x = np.asarray(X, dtype=float)
        return self._features(x, self.bandwidth_) @ self.coef_ + self.y_mean_


class KernelRidgeClassifier(ClassifierMixin, BaseEstimator):
    """Propensity model: kernel ridge regression of the 0/1 label, clipped to a probability.

    Regressing the indicator estimates E[D | X] directly, which is exactly the nuisance the partially linear
    model needs, and keeps the learner rotation-invariant and fast (no iterative solver whose path could
    depend on the coordinates).

    Args:
        n_components: number of Nyström landmark rows.
        clip: probabilities are clipped to ``[clip, 1 - clip]``.
        random_state: seed for the choice of landmark rows.
    """

    def __init__(self, n_components: int = 800, clip: float = 1e-3, random_state: int | None = 0) -> None:
        self.n_components = n_components
        self.clip = clip
        self.random_state = random_state

    def fit(self, X: Any, y: Any) -> KernelRidgeClassifier:
        labels = np.asarray(y).ravel()
        self.classes_ = np.unique(labels)
        if self.classes_.size != 2:
            raise ValueError("KernelRidgeClassifier needs exactly two classes")
        target = (labels == self.classes_[1]).astype(float)
        self.regressor_ = KernelRidgeRegressor(n_components=self.n_components, random_state=self.random_state)
        self.regressor_.fit(X, target)
        self.n_features_in_ = self.regressor_.n_features_in_
        return self

    def predict_proba(self, X: Any) -> np.ndarray:
        p = np.clip(self.regressor_.predict(X), self.clip, 1.0 - self.clip)
        return np.column_stack([1.0 - p, p])

    def predict(self, X: Any) -> np.ndarray:
        return self.classes_[(self.predict_proba(X)[:, 1] > 0.5).astype(int)]


def make_learners(name: str, *, seed: int, classifier: bool, n_components: int = 800) -> tuple[Any, Any]:
    """(outcome regressor, treatment model) for learner ``name``; the treatment model is a classifier when
    ``classifier`` (binary treatment), else a regressor."""
    from sklearn.ensemble import (
        HistGradientBoostingClassifier,
        HistGradientBoostingRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )
    from sklearn.linear_model import LassoCV, LogisticRegressionCV
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    if name == "kernel_ridge":
        reg = KernelRidgeRegressor(n_components=n_components, random_state=seed)
        treat: Any = (
            KernelRidgeClassifier(n_components=n_components, random_state=seed)
            if classifier
            else (KernelRidgeRegressor(n_components=n_components, random_state=seed))
        )
        return reg, treat
    if name == "mlp":
        options: dict[str, Any] = {
            "hidden_layer_sizes": (64, 32),
            "alpha": 1e-3,
            "early_stopping": True,
            "max_iter": 500,
            "random_state": seed,
        }
        return MLPRegressor(**options), (MLPClassifier(**options) if classifier else MLPRegressor(**options))
    if name == "random_forest":
        forest: dict[str, Any] = {
            "n_estimators": 200,
            "min_samples_leaf": 5,
            "max_features": 0.5,
            "random_state": seed,
            "n_jobs": 1,
        }
        return RandomForestRegressor(**forest), (
            RandomForestClassifier(**forest) if classifier else RandomForestRegressor(**forest)
        )
    if name == "gradient_boosting":
        boost: dict[str, Any] = {
            "max_iter": 200,
            "learning_rate": 0.05,
            "max_leaf_nodes": 15,
            "min_samples_leaf": 20,
            "random_state": seed,
        }
        return HistGradientBoostingRegressor(**boost), (
            HistGradientBoostingClassifier(**boost) if classifier else HistGradientBoostingRegressor(**boost)
        )
    if name == "lasso":
        return LassoCV(cv=5, random_state=seed), (
            LogisticRegressionCV(cv=5, Cs=10, max_iter=2000)
            if classifier
            else LassoCV(cv=5, random_state=seed)
        )
    raise ValueError(f"unknown learner {name!r}")
