"""The width sweep: class stability, test accuracy and a norm-based capacity measure against width.

Data: a 2-D mixture (each class a mixture of Gaussian blobs on a checkerboard of centres) with a
fraction of the *training* labels flipped. One-hidden-layer ReLU networks of increasing width are
trained (full-batch Adam) to fit the noisy training set. For each we record training and test accuracy
(clean test labels), class stability on the test inputs (line search, with its standard error), and
the spectral complexity of Bartlett, Foster & Telgarsky (2017) divided by the training margin -- the
classic norm-based capacity measure. The experiment shows what the law of robustness predicts: wider
networks fit the noise with more stable predictions, while the norm measure grows with width and so
does not track test accuracy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.tools.methods.robustness._stability import estimate_stability

__all__ = ["TorchMLPClassifier", "noisy_mixture", "spectral_complexity", "width_sweep"]


def noisy_mixture(
    n: int, *, noise: float = 0.2, blobs_per_side: int = 1, spread: float = 0.35, seed: int = 0, flip: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample ``(X, y_noisy, y_clean)`` from a checkerboard mixture of Gaussian blobs in 2-D."""
    rng = np.random.default_rng(seed)
    grid = np.arange(blobs_per_side * 2, dtype=float)
    centres = np.array([(a, b) for a in grid for b in grid])
    labels = np.array([(int(a) + int(b)) % 2 for a in grid for b in grid])
    pick = rng.integers(len(centres), size=n)
    X = centres[pick] + spread * rng.standard_normal((n, 2))
    clean = labels[pick]
    noisy = clean.copy()
    if flip and noise > 0:
        flipped = rng.random(n) < noise
        noisy[flipped] = 1 - noisy[flipped]
    return X, noisy, clean


@dataclass
class TorchMLPClassifier:
    """A one-hidden-layer ReLU network for binary labels, trained full-batch with Adam.

    Only what the sweep needs: ``fit``, ``predict``, ``margins`` and the weight matrices.
    """

    width: int
    steps: int = 2000
    learning_rate: float = 1e-2
    random_state: int = 0
    n_threads: int | None = None

    def fit(self, X: np.ndarray, y: np.ndarray) -> TorchMLPClassifier:
        import torch

        old = torch.get_num_threads()
        if self.n_threads is not None:
            torch.set_num_threads(self.n_threads)
        try:
            torch.manual_seed(self.random_state)
            self.mean_ = X.mean(axis=0)
            self.net_ = torch.nn.Sequential(
                torch.nn.Linear(X.shape[1], self.width), torch.nn.ReLU(), torch.nn.Linear(self.width, 1)
            )
            xt = torch.as_tensor(X - self.mean_, dtype=torch.float32)
            yt = torch.as_tensor(y, dtype=torch.float32)
            opt = torch.optim.Adam(self.net_.parameters(), lr=self.learning_rate)
            for _ in range(self.steps):
                loss = torch.nn.functional.binary_cross_entropy_with_logits(self.net_(xt).squeeze(1), yt)
                opt.zero_grad()
                loss.backward()
                opt.step()
            self.classes_ = np.array([0, 1])
        finally:
            torch.set_num_threads(old)
        return self

    def logits(self, X: np.ndarray) -> np.ndarray:
        import torch

        with torch.no_grad():
            out = self.net_(torch.as_tensor(np.asarray(X) - self.mean_, dtype=torch.float32)).squeeze(1)
        return out.numpy().astype(np.float64)

    def predict(self, X: np.ndarray) -> np.ndarray:
        return (self.logits(X) > 0).astype(int)

    def weights(self) -> list[np.ndarray]:
        return [layer.weight.detach().numpy().astype(np.float64) for layer in self.net_ if hasattr(layer, "weight")]


def spectral_complexity(weights: list[np.ndarray], margin: float) -> float:
    """Bartlett et al.'s spectral complexity ``prod ||W||_2 * (sum (||W^T||_{2,1}/||W||_2)^(2/3))^(3/2)`` / margin."""
    if margin <= 0:
        return float("inf")
    spectral = [float(np.linalg.norm(W, 2)) for W in weights]
    l21 = [float(np.linalg.norm(W, axis=0).sum()) for W in weights]  # sum of column norms of W (rows of W^T)
    ratio = sum((a / s) ** (2.0 / 3.0) for a, s in zip(l21, spectral))
    return float(np.prod(spectral) * ratio**1.5 / margin)


def width_sweep(
    widths: list[int],
    *,
    n_train: int = 100,
    n_test: int = 2000,
    noise: float = 0.2,
    n_eval: int = 300,
    n_directions: int = 32,
    steps: int = 2000,
    seed: int = 0,
    n_threads: int | None = None,
) -> dict[str, Any]:
    """Train one network per width and measure stability, accuracies and the norm measure."""
    if not widths or any(int(w) < 1 for w in widths):
        raise UserError(f"widths must be a non-empty list of positive integers, got {widths!r}")
    X, y, _ = noisy_mixture(n_train, noise=noise, seed=seed)
    Xt, _, yt = noisy_mixture(n_test, noise=noise, seed=seed + 10_000, flip=False)
    X_eval = Xt[:n_eval]
    rows = []
    for w in sorted(int(v) for v in widths):
        model = TorchMLPClassifier(w, steps=steps, random_state=seed, n_threads=n_threads).fit(X, y)
        signed = model.logits(X) * (2 * y - 1)
        margin = float(np.quantile(signed, 0.1)) if (signed > 0).mean() >= 0.9 else float(np.quantile(np.abs(signed), 0.1))
        est = estimate_stability(model, X_eval, n_directions=n_directions, random_state=seed)
        rows.append(
            {
                "width": w,
                "parameters": int(sum(p.numel() for p in model.net_.parameters())),
                "train_accuracy": float((model.predict(X) == y).mean()),
                "test_accuracy": float((model.predict(Xt) == yt).mean()),
                "stability": est.mean,
                "stability_stderr": est.stderr,
                "censored": est.censored,
                "spectral_complexity": spectral_complexity(model.weights(), margin),
            }
        )
    return {"rows": rows, "settings": {"n_train": n_train, "n_test": n_test, "noise": noise, "n_eval": n_eval,
                                       "n_directions": n_directions, "steps": steps, "seed": seed}}
