"""Background cosmology: dimensionless distances for many parameter samples at once.

The expansion rate (no radiation, no massive neutrinos, matching astropy with ``Tcmb0=0``)::

    E(z)^2 = Om (1+z)^3 + Ok (1+z)^2 + Ode f(z),   Ok = 1 - Om - Ode,
    f(z) = (1+z)^(3 (1 + w0 + wa)) exp(-3 wa z / (1+z))          (w0waCDM; wa = 0 is wCDM, w0 = -1 is LCDM)

The line-of-sight comoving distance D_C(z) = int_0^z dz'/E(z') (in units of c/H0) is computed once per
parameter sample on a fixed grid uniform in x = ln(1+z): Gauss-Legendre quadrature on every grid interval,
a cumulative sum, then cubic Hermite interpolation to the requested redshifts using the exact derivative
dD_C/dx = (1+z)/E at the nodes.  The grid and the interpolation weights depend only on the redshifts,
so they are built once per data set, and one call evaluates every walker of an ensemble sampler as a
single array operation: a few thousand E(z) evaluations per sample instead of one adaptive quadrature per
supernova.  With the default step the result agrees with astropy's adaptive quadrature to ~1e-8 relative
for 0.001 <= z <= 3.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["DistanceGrid", "expansion_rate"]

Array = NDArray[np.float64]

# Gauss-Legendre nodes/weights on [0, 1] (5 points: exact for polynomials of degree 9).
_GL_X, _GL_W = np.polynomial.legendre.leggauss(5)
_GL_X = 0.5 * (_GL_X + 1.0)
_GL_W = 0.5 * _GL_W


def _column(value: ArrayLike) -> Array:
    return np.atleast_1d(np.asarray(value, dtype=float)).reshape(-1, 1)


def _e2(
    zp1: Array, omega_m: ArrayLike, omega_de: ArrayLike, w0: ArrayLike, wa: ArrayLike
) -> Array:
    """E(z)^2 for every sample (rows) and redshift (columns); ``zp1`` is 1 + z with shape (1, n_z)."""
    om, ode, w0_, wa_ = (_column(v) for v in (omega_m, omega_de, w0, wa))
    ok = 1.0 - om - ode
    if np.all(w0_ == -1.0) and np.all(wa_ == 0.0):
        de = ode  # cosmological constant: skip the exp/log of the general dark-energy density
    else:
        de = ode * np.exp(3.0 * (1.0 + w0_ + wa_) * np.log(zp1) - 3.0 * wa_ * (1.0 - 1.0 / zp1))
    if np.all(ok == 0.0):
        return np.asarray(om * (zp1 * zp1 * zp1) + de)
    return np.asarray(om * (zp1 * zp1 * zp1) + ok * (zp1 * zp1) + de)


def _inverse_e(e2: Array) -> Array:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(e2 > 0, 1.0 / np.sqrt(np.where(e2 > 0, e2, 1.0)), np.nan)


def expansion_rate(
    z: ArrayLike, omega_m: ArrayLike, omega_de: ArrayLike, w0: ArrayLike = -1.0, wa: ArrayLike = 0.0
) -> Array:
    """E(z) = H(z)/H0 with shape (n_samples, n_z); NaN where E^2 <= 0 (no physical expansion history).

    Args:
        z: redshifts.
        omega_m: matter density today, one value per sample.
        omega_de: dark-energy density today (curvature is 1 - omega_m - omega_de).
        w0: dark-energy equation of state today.
        wa: its derivative in the CPL form w(a) = w0 + wa (1 - a).
    """
    e2 = _e2(1.0 + np.asarray(z, dtype=float).reshape(1, -1), omega_m, omega_de, w0, wa)
    return 1.0 / _inverse_e(e2)


@dataclass(frozen=True)
class DistanceGrid:
    """Precomputed quadrature grid and interpolation weights for a fixed set of redshifts.

    Args:
        z: the redshifts at which distances are wanted (any shape; results are flattened).
        step: grid spacing in ln(1+z); 0.01 gives ~1e-9 relative accuracy.
    """

    z: Array
    nodes_x: Array
    zp1: Array
    weights: Array
    index: NDArray[np.intp]
    hermite: Array

    @classmethod
    def build(cls, z: ArrayLike, step: float = 0.01) -> DistanceGrid:
        zz = np.asarray(z, dtype=float).ravel()
        if zz.size == 0 or not np.all(np.isfinite(zz)) or np.any(zz < 0):
            raise ValueError("redshifts must be finite and >= 0")
        x_max = float(np.log1p(zz.max()))
        n_int = max(1, int(np.ceil(x_max / step)))
        h = max(x_max, 1e-12) / n_int
        nodes_x = h * np.arange(n_int + 1)
        quad_x = (nodes_x[:-1, None] + h * _GL_X[None, :]).ravel()
        xz = np.log1p(zz)
        index = np.minimum((xz / h).astype(np.intp), n_int - 1)
        t = xz / h - index
        t2, t3 = t * t, t * t * t
        # cubic Hermite basis: value weights at both ends, derivative weights (times the step) at both ends
        hermite = np.stack([2 * t3 - 3 * t2 + 1, -2 * t3 + 3 * t2, h * (t3 - 2 * t2 + t), h * (t3 - t2)])
        # one evaluation array: the Gauss-Legendre points of every interval, then the nodes themselves
        zp1 = np.exp(np.concatenate([quad_x, nodes_x]))[None, :]
        return cls(zz, np.asarray(nodes_x, dtype=float), zp1, np.tile(_GL_W * h, n_int), index, hermite)

    def comoving(
        self, omega_m: ArrayLike, omega_de: ArrayLike, w0: ArrayLike = -1.0, wa: ArrayLike = 0.0
    ) -> Array:
        """Line-of-sight comoving distance D_C in units of c/H0, shape (n_samples, n_z)."""
        n_int = self.nodes_x.size - 1
        n_quad = n_int * _GL_X.size
        f = self.zp1 * _inverse_e(_e2(self.zp1, omega_m, omega_de, w0, wa))  # dD/dx = (1+z)/E
        per_interval = (f[:, :n_quad] * self.weights).reshape(f.shape[0], n_int, _GL_X.size).sum(axis=2)
        d_nodes = np.zeros((f.shape[0], n_int + 1))
        np.cumsum(per_interval, axis=1, out=d_nodes[:, 1:])
        f_nodes = f[:, n_quad:]
        i = self.index
        v0, v1, d0, d1 = self.hermite
        return np.asarray(v0 * d_nodes[:, i] + v1 * d_nodes[:, i + 1] + d0 * f_nodes[:, i] + d1 * f_nodes[:, i + 1])

    def transverse(
        self, omega_m: ArrayLike, omega_de: ArrayLike, w0: ArrayLike = -1.0, wa: ArrayLike = 0.0
    ) -> Array:
        """Transverse comoving distance D_M in units of c/H0 (equals D_C when flat); NaN beyond a closed
        universe's antipode, where D_M would turn negative."""
        dc = self.comoving(omega_m, omega_de, w0, wa)
        ok = np.broadcast_to(1.0 - _column(omega_m) - _column(omega_de), (dc.shape[0], 1))[:, 0]
        if not np.any(ok):
            return dc
        dm = dc.copy()
        root = np.sqrt(np.abs(ok))[:, None]
        open_, closed = ok > 0, ok < 0
        dm[open_] = np.sinh(root[open_] * dc[open_]) / root[open_]
        angle = root[closed] * dc[closed]
        dm[closed] = np.where(angle < np.pi, np.sin(angle) / root[closed], np.nan)
        return dm
