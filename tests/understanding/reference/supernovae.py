"""Grid posteriors of the supernova tasks, written from scratch with numpy (no cmbagent code).

The model is the textbook one: mu = 5 log10[(1 + z) D_M(z) c/H0 / Mpc] + 25 with D_M from the Friedmann
equation (flat or curved, w0 + wa z/(1+z) dark energy, no radiation), integrated by the trapezoid rule on a
fine redshift grid. A Gaussian likelihood with the data's covariance (diagonal errors, plus a systematic matrix where the
task names one); an additive offset (the absolute magnitude, or H0 for distance moduli) is integrated out with a
flat prior, which for a linear offset leaves chi2 minimised over it up to a constant. Flat priors are those a
user reads in the method's documentation (Omega_m in [0.01, 0.99], Omega_de in [0, 1.5], w0 in [-3, 1], wa in
[-3, 2], H0 in [50, 100]); a Gaussian prior, where the task states one, multiplies them. Posterior means and
standard deviations are sums over the grid.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

C_KM_S = 299792.458


def read_table(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(z, value, error) from a CSV with a header (first three columns) or a CosmoMC lcparam file."""
    text = path.read_text().splitlines()
    if text[0].startswith("#name"):
        rows = [line.split() for line in text[1:] if line.strip()]
        z = np.array([float(r[1]) for r in rows])
        return z, np.array([float(r[4]) for r in rows]), np.array([float(r[5]) for r in rows])
    data = np.loadtxt(path, delimiter=",", skiprows=1)
    return data[:, 0], data[:, 1], data[:, 2]


def read_covariance(path: Path) -> np.ndarray:
    values = np.loadtxt(path)
    n = int(values[0])
    return values[1:].reshape(n, n)


def comoving(z: np.ndarray, om: np.ndarray, ode: np.ndarray, w0: np.ndarray, wa: np.ndarray) -> np.ndarray:
    """D_M / (c/H0) for parameter arrays of shape (P,) at redshifts (N,): shape (P, N); NaN where E^2 <= 0.

    1/E is integrated with the trapezoid rule on a grid of step 0.004 in z (relative error ~1e-6, i.e. 1e-5 mag)
    and read off at the data's redshifts by linear interpolation between grid points.
    """
    om, ode, w0, wa = (np.asarray(a, float)[:, None] for a in (om, ode, w0, wa))
    grid = np.linspace(0.0, z.max(), int(np.ceil(z.max() / 0.004)) + 1)
    x = 1 + grid[None, :]
    ok = 1 - om - ode
    if np.all(w0 == -1) and np.all(wa == 0):
        de = ode + 0 * x  # a cosmological constant: skip the powers
    else:
        de = ode * x ** (3 * (1 + w0 + wa)) * np.exp(-3 * wa * (x - 1) / x)
    e2 = om * x**3 + ok * x**2 + de
    with np.errstate(invalid="ignore", divide="ignore"):
        inv = 1 / np.sqrt(np.where(e2 > 0, e2, np.nan))
    step = grid[1] - grid[0]
    cum = np.concatenate([np.zeros((inv.shape[0], 1)), np.cumsum((inv[:, 1:] + inv[:, :-1]) * step / 2, axis=1)], 1)
    i = np.clip(np.searchsorted(grid, z) - 1, 0, grid.size - 2)
    f = (z - grid[i]) / step
    dc = cum[:, i] * (1 - f) + cum[:, i + 1] * f
    sq = np.sqrt(np.abs(ok))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        open_ = np.sinh(sq * dc) / sq
        closed = np.sin(sq * dc) / sq
    return np.where(ok > 1e-12, open_, np.where(ok < -1e-12, closed, dc))


def chi2_marginal(resid: np.ndarray, icov: np.ndarray) -> np.ndarray:
    """chi2 with an additive offset integrated out (flat prior): r'C^-1 r - (1'C^-1 r)^2 / 1'C^-1 1."""
    one = icov.sum(axis=0)
    return np.einsum("pi,ij,pj->p", resid, icov, resid) - (resid @ one) ** 2 / one.sum()


def grid_chi2(z: np.ndarray, mu: np.ndarray, icov: np.ndarray, om, ode, w0, wa, chunk: int = 4000) -> np.ndarray:
    out = np.empty(len(om))
    for s in range(0, len(om), chunk):
        sl = slice(s, s + chunk)
        dm = comoving(z, om[sl], ode[sl], w0[sl], wa[sl])
        with np.errstate(invalid="ignore", divide="ignore"):
            model = 5 * np.log10((1 + z) * dm * C_KM_S / 70.0) + 25
        chi2 = chi2_marginal(mu - model, icov)
        out[sl] = np.where(np.isfinite(chi2), chi2, np.inf)
    return out


def moments(weights: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    w = weights / weights.sum()
    mean = float(np.sum(w * values))
    return mean, float(np.sqrt(np.sum(w * (values - mean) ** 2)))


def posterior(chi2: np.ndarray, log_prior: np.ndarray | float = 0.0) -> np.ndarray:
    lp = -0.5 * chi2 + log_prior
    return np.exp(lp - lp[np.isfinite(lp)].max())


def binned_wcdm(data: Path, covariance: Path | None) -> dict[str, tuple[float, float]]:
    """Issue case 3: flat wCDM to binned magnitudes, with (or, for comparison, without) the systematics."""
    z, mb, dmb = read_table(data)
    cov = np.diag(dmb**2) + (read_covariance(covariance) if covariance else 0)
    om, w0 = (a.ravel() for a in np.meshgrid(np.arange(0.01, 0.99 + 1e-9, 0.01), np.arange(-3, 1 + 1e-9, 0.02)))
    p = posterior(grid_chi2(z, mb, np.linalg.inv(cov), om, 1 - om, w0, 0 * om))
    return {"Omega_m": moments(p, om), "w0": moments(p, w0)}


def flat_lcdm(data: Path, gaussian: tuple[float, float] | None = None) -> dict[str, tuple[float, float]]:
    """Omega_m of flat LCDM, optionally with a Gaussian prior (truncated to the flat range)."""
    z, mu, err = read_table(data)
    om = np.arange(0.01, 0.99 + 1e-9, 0.0005)
    chi2 = grid_chi2(z, mu, np.diag(1 / err**2), om, 1 - om, -np.ones_like(om), 0 * om)
    log_prior = 0.0 if gaussian is None else -0.5 * ((om - gaussian[0]) / gaussian[1]) ** 2
    return {"Omega_m": moments(posterior(chi2, log_prior), om)}


def w0wa(data: Path) -> dict[str, tuple[float, float]]:
    """Issue case 5: flat w0waCDM on a small binned set (3-d grid)."""
    z, mu, err = read_table(data)
    grids = np.meshgrid(np.arange(0.01, 0.99 + 1e-9, 0.02), np.arange(-3, 1 + 1e-9, 0.05),
                        np.arange(-3, 2 + 1e-9, 0.1), indexing="ij")
    om, w0, wa = (g.ravel() for g in grids)
    p = posterior(grid_chi2(z, mu, np.diag(1 / err**2), om, 1 - om, w0, wa))
    return {"Omega_m": moments(p, om), "w0": moments(p, w0), "wa": moments(p, wa)}


def curved_lcdm(data: Path) -> dict[str, tuple[float, float]]:
    z, mu, err = read_table(data)
    om, ode = (a.ravel() for a in np.meshgrid(np.arange(0.01, 0.99 + 1e-9, 0.01), np.arange(0, 1.5 + 1e-9, 0.01)))
    p = posterior(grid_chi2(z, mu, np.diag(1 / err**2), om, ode, -np.ones_like(om), 0 * om))
    return {"Omega_m": moments(p, om), "Omega_de": moments(p, ode)}


def flat_lcdm_free_h0(data: Path) -> dict[str, tuple[float, float]]:
    """Distance moduli with H0 sampled (flat prior on H0 in [50, 100], not on the offset)."""
    z, mu, err = read_table(data)
    om = np.arange(0.01, 0.99 + 1e-9, 0.001)
    h0 = np.arange(50, 100 + 1e-9, 0.005)
    dm = comoving(z, om, 1 - om, -np.ones_like(om), 0 * om)
    model70 = 5 * np.log10((1 + z) * dm * C_KM_S / 70.0) + 25  # (P, N)
    ivar = 1 / err**2
    r = mu - model70  # mu - model(H0) = r + 5 log10(H0 / 70)
    a = 5 * np.log10(h0 / 70.0)
    chi2 = (np.sum(r**2 * ivar, axis=1)[:, None] + 2 * a[None, :] * np.sum(r * ivar, axis=1)[:, None]
            + a[None, :] ** 2 * ivar.sum())
    p = posterior(chi2.ravel()).reshape(chi2.shape)
    return {"Omega_m": moments(p.sum(axis=1), om), "H0": moments(p.sum(axis=0), h0)}
