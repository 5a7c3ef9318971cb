"""Reference numbers of the CMB-spectra tasks, computed with CAMB called directly (no cmbagent code).

The tasks leave every unstated parameter at the Planck 2018 baseline (Planck 2018 VI, TT,TE,EE+lowE+lensing:
Ω_b h² 0.02236, Ω_c h² 0.1202, 100 θ_MC 1.04090, τ 0.0544, ln 10¹⁰A_s 3.045, n_s 0.9649), with one massive
neutrino of 0.06 eV and N_eff = 3.046 — the convention CAMB's own defaults and the Planck baseline share.

- ``omega_m``: (ω_b + ω_c + ω_ν) / h² for a stated H0 and Σm_ν, from CAMB's parameter object (no spectra).
- ``h0_from_theta``: the H0 CAMB solves for at fixed 100 θ_MC with CPL dark energy (PPF, which lets w cross −1)
  and a stated N_eff.
- ``dl_tt``: lensed D_ℓ^TT in μK² at one multipole.  Linear lensing at lens_potential_accuracy 0 keeps one
  call to a few seconds; at ℓ = 1000 it differs from HMcode (mead2020) lensing at lens_potential_accuracy 1
  by 0.01% (1034.68 against 1034.76 μK² for the tensor task, CAMB 2.0.5), far inside the answer's 0.25%
  tolerance.  Tensors add nothing visible to TT at ℓ = 1000, so they are left out.
"""

from __future__ import annotations

import math
from typing import Any

PLANCK2018 = {"ombh2": 0.02236, "omch2": 0.1202, "theta_MC_100": 1.04090, "tau": 0.0544, "logA": 3.045,
              "ns": 0.9649, "mnu": 0.06, "nnu": 3.046}


def _camb_params(changes: dict[str, float], **settings: Any) -> Any:
    import camb

    p = {**PLANCK2018, **changes}
    kwargs: dict[str, Any] = {"ombh2": p["ombh2"], "omch2": p["omch2"], "tau": p["tau"], "ns": p["ns"],
                              "As": math.exp(p["logA"]) * 1e-10, "mnu": p["mnu"], "nnu": p["nnu"]}
    if "H0" in changes:
        kwargs["H0"] = p["H0"]
    else:
        kwargs["cosmomc_theta"] = p["theta_MC_100"] / 100
    if "w" in changes or "wa" in changes:
        kwargs.update(w=p.get("w", -1.0), wa=p.get("wa", 0.0), dark_energy_model="ppf")
    return camb.set_params(**kwargs, **settings)


def omega_m(changes: dict[str, float]) -> float:
    return float(_camb_params(changes).omegam)


def h0_from_theta(changes: dict[str, float]) -> float:
    return float(_camb_params(changes).H0)


def dl_tt(changes: dict[str, float], ell: int, lmax: int) -> float:
    import camb

    pars = _camb_params(changes, lmax=lmax + 200, lens_potential_accuracy=0)
    spectra = camb.get_results(pars).get_cmb_power_spectra(pars, CMB_unit="muK", lmax=lmax)
    return float(spectra["total"][ell, 0])


if __name__ == "__main__":
    print("Omega_m, sum m_nu 0.15 eV, H0 68:", omega_m({"mnu": 0.15, "H0": 68.0}),
          "| default 0.06 eV:", omega_m({"H0": 68.0}))
    print("H0, w0 -0.9, wa -0.3, N_eff 3.3:", h0_from_theta({"w": -0.9, "wa": -0.3, "nnu": 3.3}),
          "| LCDM:", h0_from_theta({}), "| N_eff alone:", h0_from_theta({"nnu": 3.3}),
          "| w0, wa alone:", h0_from_theta({"w": -0.9, "wa": -0.3}))
    print("D_1000^TT, tau 0.07, logA 3.05:", dl_tt({"tau": 0.07, "logA": 3.05}, 1000, 1500),
          "| tau alone:", dl_tt({"tau": 0.07}, 1000, 1500), "| baseline:", dl_tt({}, 1000, 1500))
