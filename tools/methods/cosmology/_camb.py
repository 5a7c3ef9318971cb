"""CAMB with one set of accuracy settings, shared by ``cmb_spectra``, the emulator's training set and the
emulator's check against CAMB at a fit's best point.

Parameter names are Cobaya's (and Planck's chains'): ``ombh2``, ``omch2``, ``H0`` or ``theta_MC_100``
(100 θ_MC, CosmoMC's approximate acoustic angle; CAMB solves for H0), ``tau``, ``logA`` = ln(10¹⁰ A_s),
``ns``, ``mnu`` (Σmν in eV, one massive eigenstate as in the Planck baseline), ``nnu`` (N_eff), ``w``,
``wa`` (CPL dark energy, CAMB's PPF model so that w may cross -1), ``omk`` and ``r`` (tensor-to-scalar
ratio at k = 0.05 Mpc⁻¹).  Defaults are the Planck 2018 baseline: Σmν = 0.06 eV, N_eff = 3.046,
Y_He from BBN consistency.

Accuracy (:data:`ACCURACY`): CAMB's default ``AccuracyBoost = lAccuracyBoost = 1``, ``lens_potential_accuracy
= 1`` (the setting the Planck likelihood papers and Cobaya's Planck examples use; CAMB then computes the
lensing potential to the k needed for ℓ ≤ 2500 at better than 0.1%), non-linear (HMcode) corrections to the
lensing potential only, and ``lmax`` plus a lensing margin of 200, so the lensed spectra are accurate up to
the requested ``lmax``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from cmbagent.exceptions import UserError

__all__ = ["ACCURACY", "CAMB_DEFAULTS", "CMB_PARAMETERS", "CAMBSpectra", "camb_spectra", "camb_version"]

Array = NDArray[np.float64]

#: the parameters a spectrum may be asked for, with their Planck 2018 baseline values (TT,TE,EE+lowE means)
CAMB_DEFAULTS: dict[str, float] = {
    "ombh2": 0.02236, "omch2": 0.1202, "theta_MC_100": 1.04090, "tau": 0.0544, "logA": 3.045, "ns": 0.9649,
    "mnu": 0.06, "nnu": 3.046, "w": -1.0, "wa": 0.0, "omk": 0.0, "r": 0.0,
}
CMB_PARAMETERS = (*CAMB_DEFAULTS, "H0")

#: the accuracy settings, stated in every result that used CAMB
ACCURACY: dict[str, Any] = {"AccuracyBoost": 1.0, "lAccuracyBoost": 1.0, "lens_potential_accuracy": 1,
                            "NonLinear": "lens (HMcode)", "lens_output_margin": 200}


def camb_version() -> str:
    import camb

    return str(camb.__version__)


@dataclass(frozen=True)
class CAMBSpectra:
    """Lensed CMB spectra D_ℓ = ℓ(ℓ+1)C_ℓ/2π in μK² for ℓ = 0..lmax, the lensing potential
    [ℓ(ℓ+1)]² C_ℓ^φφ / 2π (dimensionless), and the derived numbers CAMB reports."""

    ell: NDArray[np.int64]
    tt: Array
    ee: Array
    bb: Array
    te: Array
    pp: Array
    derived: dict[str, float]
    params: dict[str, float]


def _check(params: Mapping[str, float]) -> dict[str, float]:
    unknown = sorted(set(params) - set(CMB_PARAMETERS))
    if unknown:
        raise UserError(f"unknown cosmological parameter(s) {', '.join(unknown)}; use "
                        f"{', '.join(CMB_PARAMETERS)} (Cobaya's names)")
    out = {k: float(v) for k, v in params.items()}
    if "H0" in out and "theta_MC_100" in out:
        raise UserError("give either H0 or theta_MC_100 (CAMB derives one from the other), not both")
    bad = [k for k, v in out.items() if not np.isfinite(v)]
    if bad:
        raise UserError(f"parameter(s) {', '.join(bad)} are not finite numbers")
    return out


def camb_spectra(params: Mapping[str, float], lmax: int = 2508, *, accuracy_boost: float = 1.0) -> CAMBSpectra:
    """Run CAMB once at ``params`` (missing ones take :data:`CAMB_DEFAULTS`) and return lensed spectra.

    Raises:
        UserError: an unknown or non-finite parameter, or a point CAMB cannot compute (its message says why).
    """
    import camb
    from camb import CAMBError

    given = _check(params)
    p = {k: v for k, v in CAMB_DEFAULTS.items() if not ("H0" in given and k == "theta_MC_100")} | given
    if lmax < 30 or lmax > 6000:
        raise UserError(f"lmax must lie in [30, 6000] (got {lmax})")
    cp = camb.CAMBparams()
    try:
        if p["w"] != -1.0 or p["wa"] != 0.0:
            cp.set_dark_energy(w=p["w"], wa=p["wa"], dark_energy_model="ppf")
        cp.set_cosmology(
            H0=p.get("H0"), cosmomc_theta=p["theta_MC_100"] / 100.0 if "H0" not in p else None,
            ombh2=p["ombh2"], omch2=p["omch2"], omk=p["omk"], mnu=p["mnu"], nnu=p["nnu"],
            standard_neutrino_neff=3.046, tau=p["tau"], num_massive_neutrinos=1 if p["mnu"] > 0 else 0,
        )
        cp.InitPower.set_params(As=float(np.exp(p["logA"])) * 1e-10, ns=p["ns"], r=p["r"])
        cp.WantTensors = p["r"] > 0
        cp.set_for_lmax(lmax, lens_potential_accuracy=ACCURACY["lens_potential_accuracy"],
                        lens_output_margin=ACCURACY["lens_output_margin"])
        cp.set_accuracy(AccuracyBoost=accuracy_boost, lAccuracyBoost=accuracy_boost)
        cp.NonLinear = camb.model.NonLinear_lens
        results = camb.get_results(cp)
    except CAMBError as exc:
        raise UserError(f"CAMB cannot compute these parameters ({exc}); move them into a physical range") from exc
    cls = results.get_cmb_power_spectra(cp, lmax=lmax, CMB_unit="muK", raw_cl=False, spectra=("total",))["total"]
    pp = results.get_lens_potential_cls(lmax=lmax)[:, 0]
    derived = {k: float(v) for k, v in results.get_derived_params().items()}
    derived |= {"H0": float(cp.H0), "theta_MC_100": 100.0 * float(results.cosmomc_theta()),
                "omnuh2": float(cp.omnuh2), "YHe": float(cp.YHe),
                "Omega_m": float((cp.ombh2 + cp.omch2 + cp.omnuh2) / (cp.H0 / 100.0) ** 2)}
    used = dict(p) | {"H0": float(cp.H0), "theta_MC_100": derived["theta_MC_100"]}
    ell = np.arange(lmax + 1)
    return CAMBSpectra(ell=ell, tt=cls[:, 0].copy(), ee=cls[:, 1].copy(), bb=cls[:, 2].copy(),
                       te=cls[:, 3].copy(), pp=np.asarray(pp, dtype=float), derived=derived, params=used)
