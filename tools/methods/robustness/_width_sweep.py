"""The width sweep: class stability, test accuracy and a norm-based capacity measure against width.

Data: a 2-D mixture (each class a mixture of Gaussian blobs on a checkerboard of centres) with a
fraction of the *training* labels flipped. For each we record training and test accuracy
(clean test labels), class stability on the test inputs (line search, with its standard error), and
the spectral complexity of Bartlett, Foster & Telgarsky (2017) divided by the training margin -- the
classic norm-based capacity measure. The networks are two-layer ReLU networks in the lazy regime
(random hidden layer, minimum-norm interpolating output layer), swept from the interpolation threshold
(width = number of training points) upwards, so every model fits the noisy labels. The experiment shows
what the law of robustness predicts: a network that interpolates with few parameters is unstable, and
wider ones interpolate the same noise with more stable predictions; the norm measure, after its peak at
the threshold, grows again with width while test accuracy keeps improving, so it does not track it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.tools.methods.robustness._stability import estimate_stability

__all__ = ["RandomFeatureNetwork", "noisy_mixture", "spectral_complexity", "width_sweep"]


def noisy_mixture(
    n: int,
    *,
    noise: float = 0.2,
    blobs_per_side: int = 1,
    spacing: float = 2.0,
    spread: float = 0.5,
    seed: int = 0,
    flip: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample ``(X, y_noisy, y_clean)`` from a checkerboard mixture of Gaussian blobs in 2-D."""
    rng = np.random.default_rng(seed)
    grid = spacing * np.arange(blobs_per_side * 2, dtype=float)
    centres = np.array([(a, b) for a in grid for b in grid])
    labels = np.array([(i + j) % 2 for i in range(len(grid)) for j in range(len(grid))])
    pick = rng.integers(len(centres), size=n)
    X = centres[pick] + spread * rng.standard_normal((n, 2))
    clean = labels[pick]
    noisy = clean.copy()
    if flip and noise > 0:
        flipped = rng.random(n) < noise
        noisy[flipped] = 1 - noisy[flipped]
    return X, noisy, clean


class RandomFeatureNetwork:
    """A two-layer ReLU network whose hidden layer is random and whose output layer interpolates.

    ``f(x) = a . relu(W x + b) / sqrt(width)`` on standardised inputs, with ``W, b ~ N(0, 1)`` and ``a`` the
    minimum-norm solution of ``f(x_i) = +-1`` on the training set. This is the lazy (kernel) regime of
    wide networks: from ``width = n_train`` on, it fits every (noisy) training label, and as the width grows
    it converges to the kernel interpolant -- the setting of the law of robustness.
    """

    def __init__(self, width: int, random_state: int = 0) -> None:
        self.width = width
        self.random_state = random_state

    def fit(self, X: np.ndarray, y: np.ndarray) -> RandomFeatureNetwork:
        rng = np.random.default_rng(self.random_state)
        self.mean_, self.scale_ = X.mean(axis=0), X.std(axis=0) + 1e-12
        self.W_ = rng.standard_normal((X.shape[1], self.width))
        self.b_ = rng.standard_normal(self.width)
        self.a_ = np.linalg.pinv(self._features(X)) @ (2.0 * np.asarray(y) - 1.0)
        self.classes_ = np.array([0, 1])
        return self

    def _features(self, X: np.ndarray) -> np.ndarray:
        return np.maximum(0.0, ((X - self.mean_) / self.scale_) @ self.W_ + self.b_) / np.sqrt(self.width)

    def logits(self, X: np.ndarray) -> np.ndarray:
        X = np.asarray(X, dtype=float)
        step = max(1, 2_000_000 // self.width)  # bound the feature matrix's memory
        return np.concatenate([self._features(X[i : i + step]) @ self.a_ for i in range(0, len(X), step)])

    def predict(self, X: np.ndarray) -> np.ndarray:
        return (self.logits(X) > 0).astype(int)

    def weights(self) -> list[np.ndarray]:
        """Layer matrices acting on the raw inputs: (width x d) and (1 x width)."""
        return [(self.W_ / self.scale_[:, None]).T, (self.a_ / np.sqrt(self.width))[None, :]]


def spectral_complexity(weights: list[np.ndarray], margin: float) -> float:
    """Bartlett et al.'s spectral complexity ``prod ||W||_2 * (sum (||W^T||_{2,1}/||W||_2)^(2/3))^(3/2)`` / margin."""
    if margin <= 0:
        return float("inf")
    spectral = [float(np.linalg.norm(W, 2)) for W in weights]
    l21 = [float(np.linalg.norm(W, axis=0).sum()) for W in weights]  # sum of column norms of W (rows of W^T)
    ratio = sum((a / s) ** (2.0 / 3.0) for a, s in zip(l21, spectral, strict=False))
    return float(np.prod(spectral) * ratio**1.5 / margin)


def width_sweep(
    widths: list[int] | None = None,
    *,
    n_train: int = 60,
    n_test: int = 2000,
    noise: float = 0.15,
    n_eval: int = 120,
    n_directions: int = 16,
    seed: int = 0,
) -> dict[str, Any]:
    """Fit one network per width; measure stability, accuracies and the norm measure.

    The default widths run from the interpolation threshold (``width = n_train``) to 64 times it.
    """
    widths = widths or [n_train * k for k in (1, 2, 4, 16, 64)]
    if any(int(w) < 1 for w in widths):
        raise UserError(f"widths must be positive integers, got {widths!r}")
    X, y, _ = noisy_mixture(n_train, noise=noise, seed=seed)
    Xt, _, yt = noisy_mixture(n_test, noise=noise, seed=seed + 10_000, flip=False)
    X_eval = Xt[:n_eval]
    rows = []
    for w in sorted(int(v) for v in widths):
        model = RandomFeatureNetwork(w, random_state=seed).fit(X, y)
        margin = float(np.quantile(np.abs(model.logits(X)), 0.1))
        est = estimate_stability(model, X_eval, n_directions=n_directions, n_grid=32, random_state=seed)
        rows.append(
            {
                "width": w,
                "parameters": int(w * (X.shape[1] + 2)),
                "train_accuracy": float((model.predict(X) == y).mean()),
                "test_accuracy": float((model.predict(Xt) == yt).mean()),
                "stability": est.mean,
                "stability_stderr": est.stderr,
                "censored": est.censored,
                "spectral_complexity": spectral_complexity(model.weights(), margin),
            }
        )
    settings = {
        "n_train": n_train,
        "n_test": n_test,
        "noise": noise,
        "n_eval": n_eval,
        "n_directions": n_directions,
        "seed": seed,
        "network": "random-feature ReLU, minimum-norm interpolating output layer",
    }
    return {"rows": rows, "settings": settings}
