"""CLASS (through ``classy``) at the same cosmology as a CAMB run, for a cross-check of the spectra.

The two codes are given the same physics wherever they could differ by default: the H0 and helium fraction
CAMB derived (CLASS would otherwise solve its own θ_s and call its own BBN table), one massive neutrino of
Σmν with ``N_ur`` set so that N_eff matches, CPL dark energy through CLASS's PPF option, HMcode non-linear
corrections to the lensing potential, and lensed spectra to ``lmax`` with CLASS's default margin of 500 extra
multipoles.  CLASS runs at its default precision (``classy`` defaults), CAMB at the settings of
:data:`._camb.ACCURACY`; Lesgourgues & Tram (2011, arXiv:1104.2935) show the two agree to ~0.1% in TT at
matched high precision, and the defaults of both keep TT, TE and EE within a few 0.1% for ℓ ≤ 2000.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from cmbagent.exceptions import UserError
from cmbagent.tools.methods.cosmology._camb import CAMBSpectra

__all__ = ["CLASS_SETTINGS", "class_available", "class_spectra", "class_version"]

Array = NDArray[np.float64]

#: N_eff carried by one massive neutrino at CLASS's default T_ncdm (CLASS's explanatory.ini: N_ur = 2.0328
#: with one massive species gives N_eff = 3.046)
_NEFF_ONE_NCDM = 3.046 - 2.0328
T_CMB_K = 2.7255

CLASS_SETTINGS: dict[str, Any] = {"precision": "classy defaults", "non_linear": "hmcode", "l_max_margin": 500}


def class_available() -> str | None:
    """Why CLASS cannot run here, or None when it can."""
    try:
        import classy  # noqa: F401
    except ImportError as exc:
        return f"classy is not installed ({exc}); install it with pip install 'cmbagent[cosmology]' (builds CLASS, ~2 min)"
    return None


def class_version() -> str:
    import classy

    return str(getattr(classy, "__version__", "unknown"))


def class_spectra(reference: CAMBSpectra) -> dict[str, Array]:
    """Lensed D_ℓ (μK²) and [ℓ(ℓ+1)]² C_ℓ^φφ/2π from CLASS at the cosmology of ``reference`` (a CAMB run)."""
    from classy import Class, CosmoSevereError

    p = reference.params
    lmax = int(reference.ell[-1])
    tensors = p.get("r", 0.0) > 0
    settings: dict[str, Any] = {
        "output": "tCl,pCl,lCl", "lensing": "yes", "l_max_scalars": lmax + CLASS_SETTINGS["l_max_margin"],
        "omega_b": p["ombh2"], "omega_cdm": p["omch2"], "h": p["H0"] / 100.0, "tau_reio": p["tau"],
        "ln10^{10}A_s": p["logA"], "n_s": p["ns"], "YHe": reference.derived["YHe"], "Omega_k": p.get("omk", 0.0),
        "non_linear": CLASS_SETTINGS["non_linear"],
    }
    if p.get("mnu", 0.0) > 0:
        settings |= {"N_ncdm": 1, "m_ncdm": p["mnu"], "N_ur": p["nnu"] - _NEFF_ONE_NCDM}
    else:
        settings |= {"N_ur": p["nnu"]}
    if p.get("w", -1.0) != -1.0 or p.get("wa", 0.0) != 0.0:
        settings |= {"Omega_Lambda": 0.0, "w0_fld": p["w"], "wa_fld": p.get("wa", 0.0), "use_ppf": "yes"}
    if tensors:
        settings |= {"modes": "s,t", "r": p["r"], "l_max_tensors": min(lmax, 1500)}
    cosmo = Class()
    try:
        cosmo.set(settings)
        cosmo.compute()
        cl = cosmo.lensed_cl(lmax)
    except CosmoSevereError as exc:
        raise UserError(f"CLASS cannot compute these parameters ({exc})") from exc
    ell = np.arange(lmax + 1, dtype=float)
    to_dl = ell * (ell + 1.0) / (2.0 * np.pi) * (T_CMB_K * 1e6) ** 2
    out = {k.upper(): np.asarray(cl[k], dtype=float) * to_dl for k in ("tt", "ee", "bb", "te")}
    out["PP"] = np.asarray(cl["pp"], dtype=float) * (ell * (ell + 1.0)) ** 2 / (2.0 * np.pi)
    cosmo.struct_cleanup()
    cosmo.empty()
    return out
