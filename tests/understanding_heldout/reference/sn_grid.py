"""Grid posteriors of the held-out supernova tasks, written from the textbook model (numpy only).

mu(z) = 5 log10[(1 + z_hel) D_C(z_cmb) c/H0 / Mpc] + 25 in a flat universe, with
D_C = int_0^z dz' / E(z'), E² = Ωm (1+z)³ + (1 − Ωm)(1+z)^{3(1+w)}. An additive offset (the absolute
magnitude, or H0) is marginalised with a flat prior: for residuals r = obs − shape and inverse covariance W,
−2 ln L = rᵀWr − (1ᵀWr)² / (1ᵀW1) up to a constant. The posterior is then evaluated on a grid times the
prior the task states; the flat prior ranges are those a user reads in ``cmbagent methods show
cosmology.fit_supernovae`` (Ωm in [0.01, 0.99], w0 in [−3, 1]).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

C_KM_S = 299792.458


def read_columns(path: Path) -> dict[str, np.ndarray]:
    names = path.read_text().splitlines()[0].split(",")
    raw = np.genfromtxt(path, delimiter=",", skip_header=1, dtype=str)
    out = {}
    for j, name in enumerate(names):
        try:
            out[name] = raw[:, j].astype(float)
        except ValueError:
            continue
    return out


def comoving_shapes(z: np.ndarray, oms: np.ndarray, ws: np.ndarray, steps: int = 2000) -> np.ndarray:
    """D_C(z) in units of c/H0 for every (Ωm, w) pair: array (len(oms), len(ws), len(z))."""
    grid = np.union1d(np.linspace(0.0, float(z.max()), steps), z)
    at = np.searchsorted(grid, z)
    dz = np.diff(grid)
    out = np.empty((oms.size, ws.size, z.size))
    for i, om in enumerate(oms):
        zp = 1.0 + grid[None, :]
        inv_e = 1.0 / np.sqrt(om * zp**3 + (1.0 - om) * zp ** (3.0 * (1.0 + ws[:, None])))
        cum = np.concatenate([np.zeros((ws.size, 1)), np.cumsum(0.5 * (inv_e[:, 1:] + inv_e[:, :-1]) * dz, axis=1)],
                             axis=1)
        out[i] = cum[:, at]
    return out


def marginal_chi2(obs: np.ndarray, shape: np.ndarray, inv_cov: np.ndarray) -> np.ndarray:
    """−2 ln L with the additive offset integrated out; ``shape`` has the data axis last."""
    r = obs - shape
    wr = r @ inv_cov
    ones = np.ones(obs.size)
    return np.einsum("...i,...i->...", wr, r) - (wr @ ones) ** 2 / (ones @ inv_cov @ ones)


def posterior_mean(log_post: np.ndarray, values: np.ndarray, axis: int) -> tuple[float, float]:
    p = np.exp(log_post - log_post.max())
    other = tuple(a for a in range(p.ndim) if a != axis)
    marginal = p.sum(axis=other) if other else p
    marginal = marginal / marginal.sum()
    mean = float(np.sum(marginal * values))
    return mean, float(np.sqrt(np.sum(marginal * (values - mean) ** 2)))


def wcdm_with_planck_prior(data: Path, om_prior: tuple[float, float] | None = (0.315, 0.007)) -> dict[str, float]:
    """Flat wCDM from peak magnitudes (diagonal errors) with a Gaussian prior on Ωm (None: flat [0.01, 0.99])."""
    cols = read_columns(data)
    z, zhel, mb, err = cols["zcmb"], cols["zhel"], cols["mb"], cols["dmb"]
    if om_prior is None:
        oms, ws = np.linspace(0.01, 0.99, 197), np.linspace(-3.0, 1.0, 401)
    else:
        oms = np.linspace(om_prior[0] - 6 * om_prior[1], om_prior[0] + 6 * om_prior[1], 61)
        ws = np.linspace(-1.6, -0.2, 281)
    dc = comoving_shapes(z, oms, ws)
    shape = 5 * np.log10((1 + zhel) * dc * C_KM_S)
    chi2 = marginal_chi2(mb, shape, np.diag(1.0 / err**2))
    log_post = -0.5 * chi2
    if om_prior is not None:
        log_post = log_post - 0.5 * ((oms[:, None] - om_prior[0]) / om_prior[1]) ** 2
    w_mean, w_sd = posterior_mean(log_post, ws, axis=1)
    om_mean, om_sd = posterior_mean(log_post, oms, axis=0)
    return {"w0": w_mean, "w0_sd": w_sd, "Omega_m": om_mean, "Omega_m_sd": om_sd}


def read_covariance(path: Path) -> np.ndarray:
    values = np.array(path.read_text().split(), dtype=float)
    n = int(values[0])
    return values[1:].reshape(n, n)


def flat_lcdm_full_covariance(data: Path, cov_file: Path | None, bounds: tuple[float, float] = (0.2, 0.4)
                              ) -> dict[str, float]:
    """Flat ΛCDM from distance moduli with the full covariance (None: the diagonal of it), flat Ωm prior."""
    cols = read_columns(data)
    z, mu = cols["redshift"], cols["distance_modulus"]
    cov = read_covariance(cov_file) if cov_file is not None else None
    if cov is None:
        raise ValueError("this table has no error column: the covariance is its only error model")
    oms = np.linspace(bounds[0], bounds[1], 2001)
    dc = comoving_shapes(z, oms, np.array([-1.0]))[:, 0, :]
    shape = 5 * np.log10((1 + z) * dc * C_KM_S)
    log_post = -0.5 * marginal_chi2(mu, shape, np.linalg.inv(cov))
    mean, sd = posterior_mean(log_post, oms, axis=0)
    diag = -0.5 * marginal_chi2(mu, shape, np.diag(1.0 / np.diag(cov)))
    diag_mean, _ = posterior_mean(diag, oms, axis=0)
    return {"Omega_m": mean, "Omega_m_sd": sd, "Omega_m_diagonal_only": diag_mean}


if __name__ == "__main__":
    here = Path(__file__).resolve().parent.parent / "data"
    print("planck prior:", wcdm_with_planck_prior(here / "deep_survey_salt2_fits.csv"))
    print("no prior:    ", wcdm_with_planck_prior(here / "deep_survey_salt2_fits.csv", None))
    print("[0.2, 0.4]:  ", flat_lcdm_full_covariance(here / "hubble_flow_mu.csv", here / "hubble_flow_cov.txt"))
    print("[0.01, 0.99]:", flat_lcdm_full_covariance(here / "hubble_flow_mu.csv", here / "hubble_flow_cov.txt",
                                                     (0.01, 0.99)))
