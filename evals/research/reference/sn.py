"""Reference answers of the supernova tasks: posteriors on dense grids, written with numpy only.

Independent of cmbagent's cosmology tools: distances are a cumulative trapezoid of 1/E(z) on a fine
redshift grid (not the tools' quadrature), the additive offset (absolute magnitude, degenerate with H0) is
removed by profiling the χ² analytically (equal to marginalising it with a flat prior), and posterior
moments are sums over a grid instead of MCMC samples.  Model of every fit:
μ = 5 log10[(1 + z_hel) D_M(z_cmb) c/H0 / Mpc] + 25, no radiation.

Prints one JSON object: ``{task: {value name: number}}``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent.parent / "data"
C_KM_S = 299_792.458
Z_GRID = np.concatenate([np.linspace(0.0, 0.01, 51)[:-1], np.geomspace(0.01, 2.5, 1500)])


def comoving(z: np.ndarray, e_of_z: np.ndarray) -> np.ndarray:
    """D_C(z)·H0/c for each row of ``e_of_z`` (E on :data:`Z_GRID`), linearly interpolated at ``z``."""
    inv = 1.0 / e_of_z
    steps = np.diff(Z_GRID)
    cum = np.concatenate([np.zeros((inv.shape[0], 1)), np.cumsum(0.5 * (inv[:, 1:] + inv[:, :-1]) * steps, axis=1)],
                         axis=1)
    right = np.clip(np.searchsorted(Z_GRID, z), 1, Z_GRID.size - 1)
    frac = (z - Z_GRID[right - 1]) / (Z_GRID[right] - Z_GRID[right - 1])
    return cum[:, right - 1] * (1 - frac) + cum[:, right] * frac


def e_wcdm(om: np.ndarray, w: np.ndarray, ok: np.ndarray | None = None) -> np.ndarray:
    """E(z) on :data:`Z_GRID` for every (Ωm, w[, Ωk]) row; NaN where E² ≤ 0."""
    zp1 = 1.0 + Z_GRID[None, :]
    om, w = np.asarray(om, float)[:, None], np.asarray(w, float)[:, None]
    ok = np.zeros_like(om) if ok is None else np.asarray(ok, float)[:, None]
    ode = 1.0 - om - ok
    e2 = om * zp1**3 + ok * zp1**2 + ode * zp1 ** (3 * (1 + w))
    with np.errstate(invalid="ignore"):
        return np.where(e2 > 0, np.sqrt(np.where(e2 > 0, e2, 1.0)), np.nan)


def transverse(dc: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """D_M·H0/c from D_C·H0/c for curvature Ωk (per row)."""
    ok = np.asarray(ok, float)[:, None]
    out = dc.copy()
    pos, neg = ok[:, 0] > 1e-12, ok[:, 0] < -1e-12
    out[pos] = np.sinh(np.sqrt(ok[pos]) * dc[pos]) / np.sqrt(ok[pos])
    out[neg] = np.sin(np.sqrt(-ok[neg]) * dc[neg]) / np.sqrt(-ok[neg])
    return out


def profiled_chi2(residual: np.ndarray, inv_cov: np.ndarray) -> np.ndarray:
    """χ² of each row of ``residual`` with a free additive constant removed (flat-prior marginalisation);
    ``inv_cov`` is the inverse covariance, or a vector of weights 1/σ² for diagonal errors."""
    if inv_cov.ndim == 1:
        total = inv_cov.sum()
        a = (residual**2 * inv_cov).sum(axis=1)
        b = residual @ inv_cov
        return a - b**2 / total
    ones = np.ones(residual.shape[1])
    a = np.einsum("ij,jk,ik->i", residual, inv_cov, residual)
    b = residual @ (inv_cov @ ones)
    return a - b**2 / (ones @ inv_cov @ ones)


def moments(weights: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    p = weights / weights.sum()
    mean = float((p * values).sum())
    return mean, float(np.sqrt((p * (values - mean) ** 2).sum()))


def posterior_weights(chi2: np.ndarray, log_prior: np.ndarray | float = 0.0) -> np.ndarray:
    logp = -0.5 * np.where(np.isfinite(chi2), chi2, np.inf) + log_prior
    return np.exp(logp - np.nanmax(logp))


# -- data --------------------------------------------------------------------------------------------------
def jla() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    z, mu = np.loadtxt(DATA / "jla_mub.txt", unpack=True)
    cov = np.loadtxt(DATA / "jla_mub_covmatrix.txt").reshape(z.size, z.size)
    return z, mu, cov


def union21() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = [line.split("\t") for line in (DATA / "SCPUnion2.1_mu_vs_z.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    z = np.array([float(r[1]) for r in rows])
    mu = np.array([float(r[2]) for r in rows])
    err = np.array([float(r[3]) for r in rows])
    return z, mu, err


def pantheon() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    lines = (DATA / "Pantheon+SH0ES.dat").read_text().splitlines()
    names = lines[0].split()
    table = np.array([line.split() for line in lines[1:] if line.strip()])
    col = {name: i for i, name in enumerate(names)}
    zhd = table[:, col["zHD"]].astype(float)
    keep = zhd > 0.01
    return (zhd[keep], table[keep, col["zHEL"]].astype(float), table[keep, col["m_b_corr"]].astype(float),
            table[keep, col["m_b_corr_err_DIAG"]].astype(float))


# -- fits --------------------------------------------------------------------------------------------------
def flat_lcdm_om(z_cmb: np.ndarray, z_hel: np.ndarray, m: np.ndarray, inv_cov: np.ndarray,
                 log_prior: object = None) -> tuple[float, float]:
    om = np.arange(0.01, 0.99 + 1e-9, 0.0005)
    dm = comoving(z_cmb, e_wcdm(om, -np.ones_like(om)))
    residual = m[None, :] - 5 * np.log10((1 + z_hel)[None, :] * dm)
    prior = 0.0 if log_prior is None else log_prior(om)  # type: ignore[operator]
    return moments(posterior_weights(profiled_chi2(residual, inv_cov), prior), om)


def flat_wcdm(z_cmb: np.ndarray, z_hel: np.ndarray, m: np.ndarray, inv_cov: np.ndarray,
              log_prior_om: object = None) -> dict[str, tuple[float, float]]:
    om_axis = np.linspace(0.01, 0.99, 197)
    w_axis = np.linspace(-3.0, 1.0, 321)
    om, w = (a.ravel() for a in np.meshgrid(om_axis, w_axis, indexing="ij"))
    chi2 = np.empty(om.size)
    for start in range(0, om.size, 2000):
        part = slice(start, start + 2000)
        dm = comoving(z_cmb, e_wcdm(om[part], w[part]))
        residual = m[None, :] - 5 * np.log10((1 + z_hel)[None, :] * dm)
        chi2[part] = profiled_chi2(residual, inv_cov)
    prior = 0.0 if log_prior_om is None else log_prior_om(om)  # type: ignore[operator]
    weights = posterior_weights(chi2, prior)
    return {"Omega_m": moments(weights, om), "w": moments(weights, w)}


def curved_lcdm(z: np.ndarray, m: np.ndarray, inv_cov: np.ndarray) -> dict[str, tuple[float, float]]:
    om_axis = np.linspace(0.01, 0.99, 197)
    ode_axis = np.linspace(0.0, 1.5, 301)
    om, ode = (a.ravel() for a in np.meshgrid(om_axis, ode_axis, indexing="ij"))
    ok = 1.0 - om - ode
    chi2 = np.empty(om.size)
    for start in range(0, om.size, 2000):
        part = slice(start, start + 2000)
        e = e_wcdm(om[part], -np.ones(om[part].size), ok[part])
        bad = ~np.all(np.isfinite(e), axis=1)  # no expansion history out to the grid's end: zero prior
        dm = transverse(comoving(z, np.where(np.isfinite(e), e, 1.0)), ok[part])
        with np.errstate(invalid="ignore", divide="ignore"):
            residual = m[None, :] - 5 * np.log10((1 + z)[None, :] * dm)
        c = profiled_chi2(np.where(np.isfinite(residual), residual, 0.0), inv_cov)
        c[bad | ~np.all(np.isfinite(residual), axis=1)] = np.inf
        chi2[part] = c
    weights = posterior_weights(chi2)
    return {"Omega_m": moments(weights, om), "Omega_de": moments(weights, ode)}


def union_free_h0() -> dict[str, tuple[float, float]]:
    """Flat ΛCDM with H0 free: Union2.1 μ are absolute (computed with M for h = 0.7)."""
    z, mu, err = union21()
    om_axis = np.linspace(0.01, 0.99, 981)
    h0_axis = np.linspace(68.0, 72.0, 801)  # the prior is flat on [50, 100]; the posterior lives well inside
    dm = comoving(z, e_wcdm(om_axis, -np.ones_like(om_axis)))
    base = 5 * np.log10((1 + z)[None, :] * dm * C_KM_S) + 25  # μ at H0 = 1 km/s/Mpc
    chi2 = np.empty((om_axis.size, h0_axis.size))
    for j, h0 in enumerate(h0_axis):
        chi2[:, j] = (((mu[None, :] - base + 5 * np.log10(h0)) / err[None, :]) ** 2).sum(axis=1)
    weights = posterior_weights(chi2)
    om_grid, h0_grid = np.meshgrid(om_axis, h0_axis, indexing="ij")
    return {"H0": moments(weights.ravel(), h0_grid.ravel()),
            "Omega_de": moments(weights.ravel(), 1.0 - om_grid.ravel())}


def gaussian(mean: float, std: float) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: -0.5 * ((np.asarray(x) - mean) / std) ** 2


def main() -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    zj, muj, covj = jla()
    inv_j = np.linalg.inv(covj)
    m, s = flat_lcdm_om(zj, zj, muj, inv_j)
    out["m01-jla-matter-density"] = {"omega_m": m, "omega_m_std": s}

    zu, muu, erru = union21()
    inv_u = 1 / erru**2
    m, s = flat_lcdm_om(zu, zu, muu, inv_u)
    out["m02-union-matter-density"] = {"omega_m": m, "omega_m_std": s}
    fit = union_free_h0()
    out["m03-union-hubble-constant"] = {"h0": fit["H0"][0], "h0_std": fit["H0"][1],
                                        "omega_lambda": fit["Omega_de"][0], "omega_lambda_std": fit["Omega_de"][1]}

    zhd, zhel, mb, errp = pantheon()
    inv_p = 1 / errp**2
    m, s = flat_lcdm_om(zhd, zhel, mb, inv_p)
    out["m04-pantheon-matter-density"] = {"omega_m": m, "omega_m_std": s}
    fit = flat_wcdm(zhd, zhel, mb, inv_p)
    out["m05-pantheon-dark-energy-w"] = {"w": fit["w"][0], "w_std": fit["w"][1]}

    fit = curved_lcdm(zu, muu, inv_u)
    out["m06-union-curvature"] = {"omega_m": fit["Omega_m"][0], "omega_m_std": fit["Omega_m"][1],
                                  "omega_lambda": fit["Omega_de"][0], "omega_lambda_std": fit["Omega_de"][1]}

    fit = flat_wcdm(zj, zj, muj, inv_j, log_prior_om=gaussian(0.30, 0.02))
    out["m07-jla-w-with-prior"] = {"w": fit["w"][0], "w_std": fit["w"][1]}

    m, s = flat_lcdm_om(zhd, zhel, mb, inv_p, log_prior=gaussian(0.30, 0.05))
    out["m08-pantheon-with-prior"] = {"omega_m": m, "omega_m_std": s}
    fit = flat_wcdm(zu, zu, muu, inv_u)
    out["m19-union-dark-energy-w"] = {"w": fit["w"][0], "w_std": fit["w"][1]}
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
