"""Gaussian supernova likelihood with an analytically marginalised (or sampled) offset.

Model (the convention of the reference fits in tests/data/SOURCES.md, "Supernovae", and of the Pantheon+
release)::

    mu(z) = 5 log10[(1 + z_hel) D_M(z_cmb) c / H0 / Mpc] + 25,     m_B = mu + M.

Only the sum of the constant terms is measured by supernovae alone: ``M - 5 log10 H0`` for magnitudes,
and for distance moduli (which were computed with an assumed M) an offset equivalent to H0.  We write the
prediction as ``s(theta) + a`` with the shape ``s = 5 log10[(1 + z_hel) D_M / (c/H0)]`` and one additive
constant ``a``.  Residuals ``r = y - s`` are whitened by the Cholesky factor L of the covariance
(``C = L L^T``, factorised and inverted once, so a batch of samples is whitened by one matrix product);
``chi2(a) = |L^-1 (r - a 1)|^2``, and a flat prior on ``a`` integrates to ``chi2_marg = A - B^2 / E``
with ``A = |r~|^2``, ``B = r~ . u~``, ``E = |u~|^2``, ``u~ = L^-1 1`` (plus a theta-independent constant), which equals chi2 profiled over ``a``.  Alternatively the constant
is a sampled parameter: ``H0`` for distance moduli, or ``M`` for magnitudes (at H0 = 70 km/s/Mpc, since
magnitudes constrain only ``M - 5 log10 h``).

Default flat priors (:data:`DEFAULT_PRIORS`): Omega_m U[0.01, 0.99], Omega_de U[0, 1.5],
w0 U[-3, 1], wa U[-3, 2], H0 U[50, 100] km/s/Mpc, M U[-21, -17].  A parameter may instead get a Gaussian
prior N(mean, std) (an external measurement, e.g. Omega_m = 0.30 ± 0.02), truncated to its default range.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from cmbagent.exceptions import UserError
from cmbagent.tools.methods.cosmology._background import DistanceGrid
from cmbagent.tools.methods.cosmology._io import SNData

__all__ = ["DEFAULT_PRIORS", "MODELS", "SPEED_OF_LIGHT_KMS", "ModelSpec", "SNLikelihood"]

Array = NDArray[np.float64]
SPEED_OF_LIGHT_KMS = 299792.458
REFERENCE_H0 = 70.0

DEFAULT_PRIORS: dict[str, tuple[float, float]] = {
    "Omega_m": (0.01, 0.99),
    "Omega_de": (0.0, 1.5),
    "w0": (-3.0, 1.0),
    "wa": (-3.0, 2.0),
    "H0": (50.0, 100.0),
    "M": (-21.0, -17.0),
}
START: dict[str, float] = {"Omega_m": 0.3, "Omega_de": 0.7, "w0": -1.0, "wa": 0.0, "H0": 70.0, "M": -19.3}
LABELS: dict[str, str] = {
    "Omega_m": r"$\Omega_m$", "Omega_de": r"$\Omega_{\rm DE}$", "Omega_k": r"$\Omega_k$", "w0": r"$w_0$",
    "wa": r"$w_a$", "H0": r"$H_0$", "M": r"$M$",
}

Background = tuple[Array, Array, Array, Array]


@dataclass(frozen=True)
class ModelSpec:
    """A background model: its sampled parameters and how they map to (Om, Ode, w0, wa)."""

    name: str
    params: tuple[str, ...]
    description: str
    to_background: Callable[[Array], Background]
    derived: tuple[str, ...] = ()

    def derive(self, theta: Array) -> dict[str, Array]:
        """Derived parameters (each an array over samples) from sampled ones (n, k)."""
        om, ode, _, _ = self.to_background(theta)
        out: dict[str, Array] = {}
        if "Omega_de" in self.derived:
            out["Omega_de"] = ode
        if "Omega_k" in self.derived:
            out["Omega_k"] = 1.0 - om - ode
        return out


def _flat_lcdm(t: Array) -> Background:
    return t[:, 0], 1.0 - t[:, 0], np.full(t.shape[0], -1.0), np.zeros(t.shape[0])


def _lcdm(t: Array) -> Background:
    return t[:, 0], t[:, 1], np.full(t.shape[0], -1.0), np.zeros(t.shape[0])


def _wcdm(t: Array) -> Background:
    return t[:, 0], 1.0 - t[:, 0], t[:, 1], np.zeros(t.shape[0])


def _w0wacdm(t: Array) -> Background:
    return t[:, 0], 1.0 - t[:, 0], t[:, 1], t[:, 2]


MODELS: dict[str, ModelSpec] = {
    "flat_lcdm": ModelSpec("flat_lcdm", ("Omega_m",), "flat LCDM", _flat_lcdm, ("Omega_de",)),
    "lcdm": ModelSpec("lcdm", ("Omega_m", "Omega_de"), "LCDM with curvature", _lcdm, ("Omega_k",)),
    "wcdm": ModelSpec("wcdm", ("Omega_m", "w0"), "flat wCDM (constant w)", _wcdm, ("Omega_de",)),
    "w0wacdm": ModelSpec("w0wacdm", ("Omega_m", "w0", "wa"), "flat w0waCDM (CPL)", _w0wacdm, ("Omega_de",)),
}


PriorSpec = Sequence[float] | Mapping[str, float]


def _parse_prior(key: str, spec: PriorSpec) -> tuple[tuple[float, float], tuple[float, float] | None]:
    """``(flat bounds, Gaussian (mean, std) or None)`` of one prior given as ``[lo, hi]`` or ``{mean, std}``."""
    if isinstance(spec, Mapping):
        unknown = set(spec) - {"mean", "std"}
        if unknown or not {"mean", "std"} <= set(spec):
            raise UserError(f"prior for {key}: a Gaussian prior is {{'mean': m, 'std': s}} (got keys "
                            f"{sorted(spec)}); a flat prior is [lower, upper]")
        mean, std = float(spec["mean"]), float(spec["std"])
        if not (np.isfinite(mean) and np.isfinite(std) and std > 0):
            raise UserError(f"prior for {key}: the Gaussian std must be a positive number (got {std})")
        lo, hi = DEFAULT_PRIORS[key]
        if not lo < mean < hi:
            raise UserError(f"prior for {key}: mean {mean} lies outside the parameter's range [{lo}, {hi}]")
        return (lo, hi), (mean, std)
    bounds = [float(b) for b in spec]
    if len(bounds) != 2:
        raise UserError(f"prior for {key}: a flat prior is [lower, upper] (got {len(bounds)} numbers)")
    lo, hi = bounds
    if not lo < hi:
        raise UserError(f"prior for {key}: lower bound {lo} must be below upper bound {hi}")
    return (lo, hi), None


def get_model(name: str) -> ModelSpec:
    try:
        return MODELS[name]
    except KeyError:
        raise UserError(f"unknown model {name!r}; use one of {', '.join(MODELS)}") from None


class SNLikelihood:
    """Gaussian likelihood of supernova distances for one background model.

    Args:
        data: distances from :func:`load_sn_data`.
        model: a key of :data:`MODELS`.
        sample_offset: sample the offset (``H0`` for distance moduli, ``M`` for magnitudes) instead of
            marginalising it analytically.
        priors: priors overriding :data:`DEFAULT_PRIORS`: flat bounds ``{"Omega_m": (0.1, 0.9)}`` or a
            Gaussian ``{"Omega_m": {"mean": 0.3, "std": 0.02}}`` (truncated to the default range).
        grid_step: integration step in ln(1+z) (see :class:`DistanceGrid`).
    """

    def __init__(
        self,
        data: SNData,
        model: str = "flat_lcdm",
        *,
        sample_offset: bool = False,
        priors: Mapping[str, PriorSpec] | None = None,
        grid_step: float = 0.01,
    ) -> None:
        from scipy.linalg import cholesky, solve_triangular

        self.data = data
        self.model = get_model(model)
        self.offset_name: str | None = ("H0" if data.kind == "mu" else "M") if sample_offset else None
        self.names: tuple[str, ...] = self.model.params + ((self.offset_name,) if self.offset_name else ())
        merged = dict(DEFAULT_PRIORS)
        gaussian: dict[str, tuple[float, float]] = {}
        for key, spec in (priors or {}).items():
            if key not in DEFAULT_PRIORS:
                raise UserError(f"prior for unknown parameter {key!r}; parameters are {', '.join(DEFAULT_PRIORS)}")
            merged[key], normal = _parse_prior(key, spec)
            if normal is not None:
                gaussian[key] = normal
        unused = sorted(set(gaussian) - set(self.names))
        if unused:
            raise UserError(f"Gaussian prior on {', '.join(unused)}, which model {self.model.name} does not sample "
                            f"(its parameters: {', '.join(self.names)}); drop it or choose another model")
        self.bounds: Array = np.array([merged[name] for name in self.names], dtype=float)
        #: Gaussian priors by parameter: (mean, std); the others are flat within ``bounds``
        self.gaussian: dict[str, tuple[float, float]] = gaussian
        self._gauss_index = np.array([self.names.index(k) for k in gaussian], dtype=int)
        self._gauss_mean = np.array([gaussian[k][0] for k in gaussian])
        self._gauss_std = np.array([gaussian[k][1] for k in gaussian])
        start = [gaussian[name][0] if name in gaussian else START[name] for name in self.names]
        self.start: Array = np.clip(start, self.bounds[:, 0], self.bounds[:, 1])
        self.grid = DistanceGrid.build(data.z_cmb, step=grid_step)
        self._log_zhel = 5.0 * np.log10(1.0 + data.z_hel)
        self._inv_chol_t: Array | None = None
        self._inv_sigma: Array = 1.0 / data.sigma  # whitening of diagonal errors
        if data.covariance is not None:
            # factorise once; keep L^-1 (transposed) so whitening a batch is one matrix product
            chol = cholesky(data.covariance, lower=True)
            self._inv_chol_t = np.ascontiguousarray(
                solve_triangular(chol, np.eye(data.n), lower=True, check_finite=False).T
            )
        self._y = self.whiten(data.obs[None, :])[0]
        self._u = self.whiten(np.ones((1, data.n)))[0]
        self._uu = float(self._u @ self._u)

    # ------------------------------------------------------------------ pieces
    @property
    def ndim(self) -> int:
        return len(self.names)

    @property
    def n_constant(self) -> int:
        """Number of fitted constants: the parameters, plus the offset when it is marginalised."""
        return self.ndim + (0 if self.offset_name else 1)

    def whiten(self, x: Array) -> Array:
        """Apply L^-1 to each row of ``x`` (n, N)."""
        if self._inv_chol_t is not None:
            return np.asarray(x @ self._inv_chol_t)
        return np.asarray(x * self._inv_sigma)

    def distance_shape(self, theta: ArrayLike) -> Array:
        """5 log10[(1 + z_hel) D_M H0/c] at the data redshifts, shape (n, N); NaN where undefined."""
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        om, ode, w0, wa = self.model.to_background(t)
        dm = self.grid.transverse(om, ode, w0, wa)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(5.0 * np.log10(dm) + self._log_zhel)

    def offset(self, theta: ArrayLike) -> Array:
        """The sampled additive constant per sample (zero when the offset is marginalised)."""
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        if self.offset_name == "H0":
            return np.asarray(25.0 + 5.0 * np.log10(SPEED_OF_LIGHT_KMS / t[:, -1]))
        if self.offset_name == "M":
            return np.asarray(25.0 + 5.0 * np.log10(SPEED_OF_LIGHT_KMS / REFERENCE_H0) + t[:, -1])
        return np.zeros(t.shape[0])

    def _whitened_residual(self, theta: Array, shape: Array | None = None) -> Array:
        shape = self.distance_shape(theta) if shape is None else shape
        model = shape + self.offset(theta)[:, None]
        return np.asarray(self._y - self.whiten(np.nan_to_num(model, nan=0.0)))

    def chi2(self, theta: ArrayLike) -> Array:
        """chi^2 per sample (marginalised over the offset when it is not sampled); inf where undefined."""
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        shape = self.distance_shape(t)
        bad = ~np.isfinite(shape.sum(axis=1))
        r = self._whitened_residual(t, shape)
        chi2 = np.einsum("ij,ij->i", r, r)
        if self.offset_name is None:
            b = r @ self._u
            chi2 = chi2 - b * b / self._uu
        return np.where(bad, np.inf, chi2)

    def best_offset(self, theta: ArrayLike) -> Array:
        """The additive constant that maximises the likelihood at ``theta`` (the sampled one if sampled)."""
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        if self.offset_name is not None:
            return self.offset(t)
        return np.asarray(self._whitened_residual(t) @ self._u / self._uu)

    def in_prior(self, theta: ArrayLike) -> NDArray[np.bool_]:
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        return np.all((t >= self.bounds[:, 0]) & (t <= self.bounds[:, 1]), axis=1)

    def log_prior(self, theta: ArrayLike) -> Array:
        """Log prior up to a constant: 0 (flat) inside the bounds plus the Gaussian terms, -inf outside."""
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        out = np.where(self.in_prior(t), 0.0, -np.inf)
        if self._gauss_index.size:
            z = (t[:, self._gauss_index] - self._gauss_mean) / self._gauss_std
            out = out - 0.5 * np.sum(z * z, axis=1)
        return np.asarray(out)

    def prior_std(self) -> Array:
        """The prior's standard deviation per parameter (a flat prior of width w has w/sqrt(12))."""
        std = (self.bounds[:, 1] - self.bounds[:, 0]) / np.sqrt(12.0)
        for j, sigma in zip(self._gauss_index, self._gauss_std, strict=True):
            std[j] = sigma
        return np.asarray(std)

    def describe_priors(self) -> str:
        """The priors in words, e.g. ``Omega_m ~ N(0.3, 0.02) in [0.01, 0.99]``."""
        parts = []
        for j, name in enumerate(self.names):
            lo, hi = self.bounds[j]
            if name in self.gaussian:
                mean, std = self.gaussian[name]
                parts.append(f"{name} ~ N({mean:g}, {std:g}) in [{lo:g}, {hi:g}]")
            else:
                parts.append(f"{name} ~ U[{lo:g}, {hi:g}]")
        return ", ".join(parts)

    def log_posterior(self, theta: ArrayLike) -> Array:
        """Log posterior (up to a constant) for one (k,) or many (n, k) samples."""
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        out = self.log_prior(t)
        inside = np.isfinite(out)
        if np.any(inside):
            out[inside] = out[inside] - 0.5 * self.chi2(t[inside])
        return out

    def model_mu(self, z: ArrayLike, theta: ArrayLike, z_hel: ArrayLike | None = None) -> Array:
        """Predicted observable (mu or m_B, offset at its best value) at arbitrary redshifts, for plots."""
        t = np.atleast_2d(np.asarray(theta, dtype=float))
        zz = np.asarray(z, dtype=float)
        zh = zz if z_hel is None else np.asarray(z_hel, dtype=float)
        om, ode, w0, wa = self.model.to_background(t)
        dm = DistanceGrid.build(zz).transverse(om, ode, w0, wa)
        with np.errstate(invalid="ignore", divide="ignore"):
            shape = 5.0 * np.log10(dm) + 5.0 * np.log10(1.0 + zh)
        return np.asarray(shape + self.best_offset(t)[:, None])

    def implied_h0(self, theta: ArrayLike) -> float | None:
        """For distance moduli with a marginalised offset: the H0 the best offset corresponds to
        (meaningful only relative to the absolute magnitude the moduli were computed with)."""
        if self.data.kind != "mu":
            return None
        if self.offset_name == "H0":
            return float(np.atleast_2d(np.asarray(theta, dtype=float))[0, -1])
        a = float(self.best_offset(theta)[0])
        return float(SPEED_OF_LIGHT_KMS / 10.0 ** ((a - 25.0) / 5.0))
