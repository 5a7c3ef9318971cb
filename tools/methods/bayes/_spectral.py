"""Laplace–Beltrami eigenbases of the torus and the sphere, grouped by eigenspace.

Both are orthonormal with respect to the *uniform probability measure* of the domain, so that the empirical
average (1/n) Σ y_i φ_j(x_i) over uniformly drawn x_i is an unbiased estimate of the coefficient ⟨f, φ_j⟩
(what Spec-Avg estimates).

* torus T^d: 1, √2 cos(k·x), √2 sin(k·x) for integer k ≠ 0 with its first non-zero entry positive;
  eigenvalue |k|².
* sphere S²: real spherical harmonics Y_lm times √(4π); eigenvalue l(l+1).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

__all__ = ["Eigenspace", "eigenspaces"]


@dataclass(frozen=True)
class Eigenspace:
    """One eigenvalue's basis: ``evaluate(points)`` gives the (n, dim) matrix of its eigenfunctions."""

    eigenvalue: float
    domain: str
    modes: np.ndarray  # torus: (m, d) integer wave vectors with a flag column 0=cos/1=sin; sphere: (m, 2) (l, m)

    @property
    def dim(self) -> int:
        return len(self.modes)

    def evaluate(self, points: np.ndarray) -> np.ndarray:
        if self.domain == "torus":
            k, kind = self.modes[:, :-1], self.modes[:, -1]
            if not k.any():
                return np.ones((len(points), 1))
            phase = points @ k.T.astype(float)
            return np.sqrt(2.0) * np.where(kind[None, :] == 0, np.cos(phase), np.sin(phase))
        return _real_harmonics(points, self.modes)


def _real_harmonics(points: np.ndarray, modes: np.ndarray) -> np.ndarray:
    from scipy.special import sph_harm_y

    r = np.linalg.norm(points, axis=1)
    theta = np.arccos(np.clip(points[:, 2] / r, -1.0, 1.0))  # polar
    phi = np.arctan2(points[:, 1], points[:, 0])  # azimuth
    cols = []
    for degree, m in modes:
        y = sph_harm_y(int(degree), abs(int(m)), theta, phi)
        if m > 0:
            col = np.sqrt(2.0) * (-1.0) ** m * y.real
        elif m < 0:
            col = np.sqrt(2.0) * (-1.0) ** m * y.imag
        else:
            col = y.real
        cols.append(np.sqrt(4 * np.pi) * col)
    return np.stack(cols, axis=1)


def _torus_spaces(dim: int, count: int) -> list[Eigenspace]:
    spaces: list[Eigenspace] = []
    total, radius = 0, 1
    while True:
        vectors = [k for k in itertools.product(range(-radius, radius + 1), repeat=dim)]
        by_norm: dict[int, list[tuple[int, ...]]] = {}
        for k in vectors:
            nz = next((v for v in k if v != 0), 0)
            if nz < 0 or (nz == 0 and any(k)):
                continue
            by_norm.setdefault(sum(v * v for v in k), []).append(k)
        spaces, total = [], 0
        for norm in sorted(by_norm):
            if norm > radius * radius:  # shells beyond the cube's inscribed ball are incomplete
                break
            ks = sorted(by_norm[norm])
            if norm == 0:
                modes = np.zeros((1, dim + 1), dtype=int)
            else:
                modes = np.array([[*k, flag] for k in ks for flag in (0, 1)], dtype=int)
            spaces.append(Eigenspace(float(norm), "torus", modes))
            total += len(modes)
            if total >= count:
                return spaces
        radius += 1


def _sphere_spaces(count: int) -> list[Eigenspace]:
    spaces, total, degree = [], 0, 0
    while total < count:
        modes = np.array([[degree, m] for m in range(-degree, degree + 1)])
        spaces.append(Eigenspace(float(degree * (degree + 1)), "sphere", modes))
        total += 2 * degree + 1
        degree += 1
    return spaces


def eigenspaces(domain: str, dim: int, count: int) -> list[Eigenspace]:
    """Whole eigenspaces in increasing eigenvalue order until at least ``count`` eigenfunctions."""
    return _torus_spaces(dim, count) if domain == "torus" else _sphere_spaces(count)
