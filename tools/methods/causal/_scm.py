"""Linear structural causal models X = B X + U with independent Gaussian noise (helpers for BRACE).

Noise is measured in standard units, ũ = U / σ, so the model is the invertible map X = A ũ + c with
A = (I − B)⁻¹ diag(σ).  Distances only involve differences, so the offset c never matters.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cmbagent.exceptions import UserError

__all__ = ["LinearSCM", "fit_linear_scm", "scm_from_weights"]


@dataclass(frozen=True)
class LinearSCM:
    """X = B X + U, U_j ~ N(0, σ_j²) independent; ``weights`` is B (row j: coefficients of X_j's parents)."""

    weights: np.ndarray
    noise_std: np.ndarray

    @property
    def mixing(self) -> np.ndarray:
        """A with X − x = A (ũ − u)."""
        return np.linalg.solve(np.eye(len(self.noise_std)) - self.weights, np.diag(self.noise_std))

    @property
    def unmixing(self) -> np.ndarray:
        """A⁻¹ = diag(1/σ)(I − B): the abduction map from feature changes to standardised noise changes."""
        return (np.eye(len(self.noise_std)) - self.weights) / self.noise_std[:, None]

    def intervention_map(self, intervened: list[int] | np.ndarray) -> np.ndarray:
        """T with x' = x + T δ for do(X_S := x_S + δ_S), abducted noise kept for the other features.

        From x' = D(B x' + u) + (I − D)(x + δ) with D the indicator of non-intervened features and u = (I − B)x.
        """
        d = len(self.noise_std)
        keep = np.ones(d)
        keep[list(intervened)] = 0.0
        dmat = np.diag(keep)
        return np.linalg.solve(np.eye(d) - dmat @ self.weights, np.eye(d) - dmat)

    def standardised(self, scale: np.ndarray) -> LinearSCM:
        """The same model for features divided by ``scale``: B̃ = S⁻¹ B S, σ̃ = σ / s."""
        return LinearSCM(self.weights * scale[None, :] / scale[:, None], self.noise_std / scale)


def scm_from_weights(
    weights: list[list[float]] | np.ndarray, noise_std: list[float] | np.ndarray | None, d: int
) -> LinearSCM:
    """Validate a user-given B and σ; a non-invertible model is refused with the reason."""
    try:
        b = np.asarray(weights, dtype=float)
    except (TypeError, ValueError):  # ragged rows, or entries that are not numbers
        lengths = [len(row) if isinstance(row, (list, tuple)) else 1 for row in weights]
        raise UserError(f"scm_weights: expected a {d}x{d} matrix of numbers (one row and column per feature), "
                        f"got {len(lengths)} rows of lengths {lengths}") from None
    if b.shape != (d, d):
        raise UserError(
            f"scm_weights: expected a {d}x{d} matrix (one row and column per feature), got {b.shape}"
        )
    if not np.all(np.isfinite(b)):
        raise UserError("scm_weights: entries must be finite numbers")
    sigma = np.ones(d) if noise_std is None else np.asarray(noise_std, dtype=float)
    if sigma.shape != (d,) or not np.all(np.isfinite(sigma)):
        raise UserError(f"noise_std: expected {d} finite numbers, got {noise_std}")
    if np.any(sigma <= 0):
        raise UserError(
            "noise_std: every noise standard deviation must be > 0, else the SCM is not invertible"
        )
    if np.linalg.cond(np.eye(d) - b) > 1e10:
        raise UserError(
            "scm_weights: I − B is singular, so X = F(U) is not invertible (a cycle with gain 1?); "
            "use an acyclic graph or weights whose cycles have gain below 1"
        )
    return LinearSCM(b, sigma)


def fit_linear_scm(x: np.ndarray, parents: dict[int, list[int]] | None = None) -> LinearSCM:
    """Least-squares fit of each feature on its parents; by default every earlier column is a parent
    (the column order is taken as a causal order), which is always acyclic and invertible."""
    d = x.shape[1]
    b = np.zeros((d, d))
    sigma = np.zeros(d)
    centred = x - x.mean(0)
    for j in range(d):
        pa = list(range(j)) if parents is None else list(parents.get(j, []))
        if j in pa:
            raise UserError(f"parents: feature {j} lists itself as a parent")
        resid = centred[:, j]
        if pa:
            coef, *_ = np.linalg.lstsq(centred[:, pa], centred[:, j], rcond=None)
            b[j, pa] = coef
            resid = centred[:, j] - centred[:, pa] @ coef
        sigma[j] = float(np.sqrt(np.mean(resid**2)))
    if np.any(sigma <= 1e-12 * (x.std(0) + 1e-300)):
        bad = np.nonzero(sigma <= 1e-12 * (x.std(0) + 1e-300))[0].tolist()
        raise UserError(
            f"features {bad} are exact functions of their parents: the fitted SCM is not invertible"
        )
    return scm_from_weights(b, sigma, d)
