"""The pieces of ``cosmology.fit_cmb``: the posterior over emulator parameters, the best fit, the Cobaya run,
and the check of the emulator against CAMB at the best fit.

Posterior: plik_lite band powers (:mod:`._plik`) with the theory from the CAMB emulator (:mod:`._emulator`),
times a Gaussian prior on τ (standing in for the low-ℓ polarisation likelihood) and on the calibration
``A_planck``, flat priors over the emulator's box for the other parameters, and, when supernovae are given,
the supernova likelihood of :mod:`._likelihood` (absolute magnitude marginalised analytically) at the
Ω_m (and w) of each point.

Sampling is Cobaya's Metropolis sampler (Lewis 2013, arXiv:1304.4473): it learns the proposal covariance as
it goes and stops on its own Gelman-Rubin test between chunks of the chain (R-1 of the means below
``Rminus1_stop``, of the 95% bounds below ``Rminus1_cl_stop``).  It starts from our best fit with the Laplace
covariance as the first proposal, so it spends its samples on the posterior rather than on finding it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cmbagent.tools.methods.cosmology._emulator import LMAX, CMBEmulator
from cmbagent.tools.methods.cosmology._likelihood import SNLikelihood
from cmbagent.tools.methods.cosmology._plik import BandPowers

__all__ = ["CMBPosterior", "EmulatorCheck", "check_emulator", "run_cobaya"]

Array = NDArray[np.float64]


@dataclass
class CMBPosterior:
    """Log posterior over ``names`` (the emulator's cosmological parameters in use, then ``A_planck``)."""

    emulator: CMBEmulator
    bands: BandPowers
    names: tuple[str, ...]
    bounds: Array
    gaussian: dict[str, tuple[float, float]]
    fixed: dict[str, float]
    sn: SNLikelihood | None = None

    def full_inputs(self, x: Array) -> Array:
        """Emulator inputs (n, d) from sampled points (n, k): fixed parameters filled in."""
        x = np.atleast_2d(x)
        cols = []
        for name in self.emulator.names:
            cols.append(x[:, self.names.index(name)] if name in self.names else np.full(x.shape[0], self.fixed[name]))
        return np.column_stack(cols)

    def binned(self, x: Array) -> Array:
        x = np.atleast_2d(x)
        spectra, _ = self.emulator.predict(self.full_inputs(x))
        return self.bands.bin_theory(spectra, x[:, self.names.index("A_planck")])

    def derived(self, x: Array) -> dict[str, Array]:
        _, derived = self.emulator.predict(self.full_inputs(x))
        return derived

    def sn_theta(self, x: Array, omega_m: Array) -> Array:
        x = np.atleast_2d(x)
        if "w" in self.names:
            return np.column_stack([omega_m, x[:, self.names.index("w")]])
        return omega_m[:, None]

    def chi2_parts(self, x: Array) -> dict[str, Array]:
        x = np.atleast_2d(x)
        spectra, derived = self.emulator.predict(self.full_inputs(x))
        out = {"cmb": self.bands.chi2(self.bands.bin_theory(spectra, x[:, self.names.index("A_planck")]))}
        if self.sn is not None:
            out["sn"] = self.sn.chi2(self.sn_theta(x, derived["Omega_m"]))
        return out

    def log_prior(self, x: Array) -> Array:
        x = np.atleast_2d(x)
        inside = np.all((x >= self.bounds[:, 0]) & (x <= self.bounds[:, 1]), axis=1)
        out = np.where(inside, 0.0, -np.inf)
        for name, (mean, std) in self.gaussian.items():
            out = out - 0.5 * ((x[:, self.names.index(name)] - mean) / std) ** 2
        return out

    def log_posterior(self, x: Array) -> Array:
        x = np.atleast_2d(np.asarray(x, dtype=float))
        out = self.log_prior(x)
        ok = np.isfinite(out)
        if np.any(ok):
            parts = self.chi2_parts(x[ok])
            out[ok] = out[ok] - 0.5 * sum(parts.values())
        return out


def best_fit(post: CMBPosterior, start: Array) -> tuple[Array, float]:
    """Maximise the posterior from ``start`` (L-BFGS-B in unit-box coordinates, then a Nelder-Mead polish)."""
    from scipy.optimize import minimize

    lo, hi = post.bounds[:, 0], post.bounds[:, 1]

    def neg(u: Array) -> float:
        value = float(post.log_posterior(lo + (hi - lo) * np.asarray(u))[0])
        return -value if np.isfinite(value) else 1e30

    u0 = (np.asarray(start) - lo) / (hi - lo)
    res = minimize(neg, u0, method="L-BFGS-B", bounds=[(0.0, 1.0)] * u0.size,
                   options={"maxiter": 2000, "ftol": 1e-12, "gtol": 1e-8, "eps": 1e-7})
    res2 = minimize(neg, res.x, method="Nelder-Mead", bounds=[(0.0, 1.0)] * u0.size,
                    options={"xatol": 1e-8, "fatol": 1e-8, "maxiter": 20000})
    best = res2 if res2.fun <= res.fun else res
    return lo + (hi - lo) * np.asarray(best.x), -float(best.fun)


def run_cobaya(post: CMBPosterior, best: Array, proposal_cov: Array, *, seed: int, rminus1_stop: float,
               rminus1_cl_stop: float, max_samples: int) -> tuple[Array, Array, Array, dict[str, Any]]:
    """Cobaya MCMC from ``best`` with ``proposal_cov``; returns (samples, weights, -log posterior, info)."""
    import logging
    import warnings

    import pandas.errors
    from cobaya.run import run

    names = post.names

    def loglike(**kwargs: float) -> float:
        x = np.array([[kwargs[n] for n in names]])
        inside = np.all((x >= post.bounds[:, 0]) & (x <= post.bounds[:, 1]))
        if not inside:
            return -np.inf
        return float(-0.5 * sum(float(v[0]) for v in post.chi2_parts(x).values()))

    # a **kwargs external likelihood receives the parameters named in input_params
    params: dict[str, Any] = {}
    sd = np.sqrt(np.diag(proposal_cov))
    for j, n in enumerate(names):
        lo, hi = post.bounds[j]
        prior: dict[str, Any] = {"min": float(lo), "max": float(hi)}
        if n in post.gaussian:
            mean, std = post.gaussian[n]
            prior = {"dist": "norm", "loc": mean, "scale": std}
        params[n] = {"prior": prior, "ref": {"dist": "norm", "loc": float(best[j]), "scale": float(0.1 * sd[j])},
                     "proposal": float(sd[j])}
    info = {
        "likelihood": {"cmb": {"external": loglike, "input_params": list(names)}},
        "params": params,
        "sampler": {"mcmc": {"covmat": proposal_cov.tolist(), "covmat_params": list(names),
                             "Rminus1_stop": rminus1_stop, "Rminus1_cl_stop": rminus1_cl_stop,
                             "max_samples": max_samples, "seed": seed, "learn_proposal": True,
                             "max_tries": 10000, "measure_speeds": False}},
        "stop_at_error": True,
    }
    previous, disabled = logging.getLogger().level, logging.root.manager.disable
    with warnings.catch_warnings():
        # Cobaya 3.6 writes its sample table with pandas' DataFrame.at on new rows, which pandas 3 deprecates
        # (PandasChangeWarning): their noise, not a problem of this run
        warnings.simplefilter("ignore", getattr(pandas.errors, "PandasChangeWarning", FutureWarning))
        # Cobaya's INFO lines carry wall-clock timestamps ("Progress @ <time>"): a cell's output would then differ
        # between a run and its replay. Its warnings still show; R-1 and acceptance are in the result.
        logging.disable(logging.INFO)
        try:
            _, sampler = run(info)
        finally:
            logging.disable(disabled)
            logging.getLogger().setLevel(previous)
        sample = sampler.products()["sample"]
    table = np.column_stack([sample[n].to_numpy(dtype=float) for n in names])
    weights = sample["weight"].to_numpy(dtype=float)
    mlp = sample["minuslogpost"].to_numpy(dtype=float)
    # the Gaussian priors are Cobaya's: -log posterior includes them; the box bounds are both ours and its
    state = {"converged": bool(getattr(sampler, "converged", False)),
             "n_accepted": int(table.shape[0]), "n_total": int(weights.sum()),
             "acceptance_rate": float(table.shape[0] / max(weights.sum(), 1.0)),
             "rminus1_last": _last_rminus1(sampler)}
    return table, weights, mlp, state


def _last_rminus1(sampler: Any) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for attr, key in (("Rminus1_last", "means"), ("Rminus1_cl_last", "bounds")):
        v = getattr(sampler, attr, None)
        out[key] = float(v) if isinstance(v, (int, float)) and np.isfinite(v) else None
    return out


@dataclass
class EmulatorCheck:
    """The emulator against CAMB at one point: its error in the data's units and the bias it induces."""

    chi2_emulator: float
    chi2_camb: float
    error_norm: float  # |L^-1 (emulator - CAMB)|: the emulator error in whitened data units
    max_error_sigma: float  # largest |emulator - CAMB| / sigma_bin
    bias_sigma: dict[str, float]  # linear-response parameter shift / posterior std
    h0_error: float  # emulator H0 - CAMB H0 (km/s/Mpc)
    camb_seconds: float


def check_emulator(post: CMBPosterior, x: Array, posterior_std: dict[str, float],
                   camb: Callable[[dict[str, float]], Any]) -> EmulatorCheck:
    """Compare the emulator with CAMB at ``x`` and propagate the difference to the parameters.

    The shift a band-power error Δ induces in a Gaussian fit is δθ = (JᵀC⁻¹J + P)⁻¹ JᵀC⁻¹ Δ (J the model's
    Jacobian at ``x``, P the Gaussian priors' precision); it is divided by each parameter's posterior
    standard deviation.  H0 is emulated too: its own error adds to the shift of H0 (and through Ω_m to the
    supernova term, which the linear response includes when supernovae are fitted).
    """
    import time

    x = np.asarray(x, dtype=float)
    inputs = post.full_inputs(x[None, :])[0]
    params = dict(zip(post.emulator.names, inputs.tolist(), strict=True))
    if params.get("w", -1.0) == -1.0:
        params.pop("w", None)
    started = time.perf_counter()
    s = camb(params)
    seconds = time.perf_counter() - started
    a_planck = x[post.names.index("A_planck")]
    camb_binned = post.bands.bin_theory({"TT": s.tt[None, : LMAX + 1], "TE": s.te[None, : LMAX + 1],
                                         "EE": s.ee[None, : LMAX + 1]}, a_planck)[0]
    emu_binned = post.binned(x[None, :])[0]
    delta = emu_binned - camb_binned
    white = delta @ post.bands.inv_chol_t
    chi2_emu = float(post.bands.chi2(emu_binned[None, :])[0])
    chi2_camb = float(post.bands.chi2(camb_binned[None, :])[0])
    # Jacobian of the whitened residual vector (band powers, then supernova residuals) by central differences
    k = x.size
    width = post.bounds[:, 1] - post.bounds[:, 0]
    eps = 1e-3 * width

    def whitened_model(p: Array) -> Array:
        parts = [post.binned(p[None, :])[0] @ post.bands.inv_chol_t]
        if post.sn is not None:
            om = post.derived(p[None, :])["Omega_m"]
            sn = post.sn
            shape = sn.distance_shape(post.sn_theta(p[None, :], om))
            r = sn.whiten(np.nan_to_num(shape, nan=0.0))[0]
            parts.append(r - (r @ sn._u) / sn._uu * sn._u)  # offset profiled out, as in the likelihood
        return np.concatenate(parts)

    jac = np.empty((whitened_model(x).size, k))
    for j in range(k):
        up, down = x.copy(), x.copy()
        up[j] += eps[j]
        down[j] -= eps[j]
        jac[:, j] = (whitened_model(up) - whitened_model(down)) / (2 * eps[j])
    err = white
    if post.sn is not None:
        # the emulator's H0 error moves Ω_m at fixed ω's; its effect on the supernova residuals
        h0_emu = float(post.derived(x[None, :])["H0"][0])
        om_camb = s.derived["Omega_m"]
        om_emu = float(post.derived(x[None, :])["Omega_m"][0])
        sn = post.sn
        r_emu = sn.whiten(np.nan_to_num(sn.distance_shape(post.sn_theta(x[None, :], np.array([om_emu]))), nan=0.0))[0]
        r_camb = sn.whiten(np.nan_to_num(sn.distance_shape(post.sn_theta(x[None, :], np.array([om_camb]))), nan=0.0))[0]
        d = r_emu - r_camb
        err = np.concatenate([white, d - (d @ sn._u) / sn._uu * sn._u])
    precision = jac.T @ jac
    for name, (_, std) in post.gaussian.items():
        j = post.names.index(name)
        precision[j, j] += 1.0 / std**2
    shift = np.linalg.solve(precision, jac.T @ err)
    bias = {n: float(shift[j] / posterior_std[n]) for j, n in enumerate(post.names) if n in posterior_std}
    h0_emu = float(post.derived(x[None, :])["H0"][0])
    h0_err = h0_emu - s.derived["H0"]
    if "H0" in posterior_std:
        # H0's shift: its own emulator error plus the response to the parameter shifts
        step = 1e-6 * width
        grad = np.array([(float(post.derived((x + np.eye(k)[j] * step)[None, :])["H0"][0]) - h0_emu) / step[j]
                         for j in range(k)])
        bias["H0"] = float((h0_err + grad @ shift) / posterior_std["H0"])
    return EmulatorCheck(chi2_emulator=chi2_emu, chi2_camb=chi2_camb, error_norm=float(np.linalg.norm(white)),
                         max_error_sigma=float(np.max(np.abs(delta) / post.bands.sigma)), bias_sigma=bias,
                         h0_error=h0_err, camb_seconds=seconds)
