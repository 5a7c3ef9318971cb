"""``cosmology.cmb_spectra``: lensed CMB spectra from CAMB, with an optional cross-check against CLASS."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.paths import OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods.cosmology._camb import (
    ACCURACY,
    CAMB_DEFAULTS,
    CAMBSpectra,
    camb_spectra,
    camb_version,
)

__all__ = ["CLASS_TOLERANCE", "cmb_spectra"]

CAMB_PAPER = Paper(
    title="Efficient computation of CMB anisotropies in closed FRW models",
    arxiv="astro-ph/9911177",
    authors="Lewis, Challinor, Lasenby",
    year=2000,
    code="https://github.com/cmbant/CAMB",
)

#: largest relative CAMB-CLASS difference the cross-check accepts per spectrum over 2 <= ℓ <= 2000 (TE relative
#: to sqrt(TT·EE), since TE crosses zero).  TT at 0.3% is the level the codes' papers document for their
#: default precision; EE and TE get 0.5%.  BB (lensing B modes) and φφ depend on the non-linear model and are
#: reported without a threshold.
CLASS_TOLERANCE: dict[str, float] = {"TT": 3e-3, "EE": 5e-3, "TE": 5e-3}
_CHECK_LMAX = 2000

_LABELS = {"TT": r"$\mathcal{D}_\ell^{TT}$ [$\mu$K$^2$]", "EE": r"$\mathcal{D}_\ell^{EE}$ [$\mu$K$^2$]",
           "TE": r"$\mathcal{D}_\ell^{TE}$ [$\mu$K$^2$]", "BB": r"$\mathcal{D}_\ell^{BB}$ [$\mu$K$^2$]",
           "PP": r"$[\ell(\ell+1)]^2 C_\ell^{\phi\phi}/2\pi$"}


def _arrays(s: CAMBSpectra) -> dict[str, np.ndarray]:
    return {"TT": s.tt, "EE": s.ee, "BB": s.bb, "TE": s.te, "PP": s.pp}


def _differences(camb: dict[str, np.ndarray], other: dict[str, np.ndarray], lmax: int) -> dict[str, dict[str, Any]]:
    """Relative CLASS - CAMB difference per spectrum over 2 <= ℓ <= min(lmax, 2000): largest, where, RMS."""
    top = min(lmax, _CHECK_LMAX)
    ell = np.arange(2, top + 1)
    out: dict[str, dict[str, Any]] = {}
    for name in ("TT", "EE", "TE", "BB", "PP"):
        a, b = camb[name][2:top + 1], other[name][2:top + 1]
        if name == "BB" and not np.any(a):
            continue
        scale = np.sqrt(camb["TT"][2:top + 1] * camb["EE"][2:top + 1]) if name == "TE" else np.abs(a)
        rel = (b - a) / np.where(scale > 0, scale, np.nan)
        j = int(np.nanargmax(np.abs(rel)))
        out[name] = {"max_rel_diff": float(np.abs(rel[j])), "at_ell": int(ell[j]),
                     "rms_rel_diff": float(np.sqrt(np.nanmean(rel**2))), "ell_range": [2, top]}
    return out


def _first_peak(tt: np.ndarray) -> tuple[int, float]:
    lo, hi = 100, 400
    j = int(np.argmax(tt[lo:hi])) + lo
    return j, float(tt[j])


def _figure(s: CAMBSpectra, other: dict[str, np.ndarray] | None, path: Path) -> Path:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ell = s.ell[2:]
    camb = _arrays(s)
    fig = Figure(figsize=(13.0, 7.5))
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 3).ravel()
    for ax, name in zip(axes, ("TT", "TE", "EE", "BB", "PP"), strict=False):
        ax.plot(ell, camb[name][2:], color="tab:blue", lw=1.2, label="CAMB")
        if other is not None:
            ax.plot(ell, other[name][2:], color="tab:orange", lw=1.0, ls="--", label="CLASS")
        ax.set_xscale("log")
        if name in ("BB", "PP"):
            if np.any(camb[name][2:] > 0):
                ax.set_yscale("log")
        ax.set_xlabel(r"multipole $\ell$")
        ax.set_ylabel(_LABELS[name])
        ax.set_title(f"lensed {name}" if name != "PP" else "lensing potential")
        ax.legend(fontsize=8)
    last = axes[5]
    if other is not None:
        top = min(int(s.ell[-1]), _CHECK_LMAX)
        el = np.arange(2, top + 1)
        for name, color in (("TT", "tab:blue"), ("EE", "tab:green"), ("TE", "tab:red")):
            scale = np.sqrt(s.tt[2:top + 1] * s.ee[2:top + 1]) if name == "TE" else camb[name][2:top + 1]
            last.plot(el, 100 * (other[name][2:top + 1] - camb[name][2:top + 1]) / scale, color=color, lw=0.8,
                      label=name + (r" (rel. to $\sqrt{TT\,EE}$)" if name == "TE" else ""))
        last.axhline(0, color="0.5", lw=0.6)
        last.set_xlabel(r"multipole $\ell$")
        last.set_ylabel("(CLASS − CAMB) / CAMB [%]")
        last.set_title("CLASS vs CAMB")
        last.legend(fontsize=8)
    else:
        last.plot(ell, camb["TT"][2:], color="tab:blue", lw=1.2, label="TT")
        last.plot(ell, camb["EE"][2:], color="tab:green", lw=1.2, label="EE")
        last.plot(ell, np.abs(camb["TE"][2:]), color="tab:red", lw=1.0, label="|TE|")
        last.set_xscale("log")
        last.set_yscale("log")
        last.set_xlabel(r"multipole $\ell$")
        last.set_ylabel(r"$\mathcal{D}_\ell$ [$\mu$K$^2$]")
        last.set_title("TT, EE, |TE| together")
        last.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    return path


@method(
    "cosmology.cmb_spectra",
    paper=CAMB_PAPER,
    keywords=["CMB power spectrum", "CMB spectra", "angular power spectrum", "CAMB", "CLASS", "Boltzmann code",
              "TT", "TE", "EE", "BB", "lensing potential", "D_ell", "acoustic peaks", "theory spectrum"],
    example='cmb_spectra(params={"H0": 67.3, "mnu": 0.06}, cross_check="class")',
    phrases={
        "cross_check": {"class": [r"\bCLASS\s+(?:cross|comparison|code|Boltzmann|spectr)", r"\bclassy\b",
                                  r"\bCAMB\s*(?:/|and|vs\.?|versus|against|with)\s*CLASS\b",
                                  r"\bCLASS\s*(?:/|and|vs\.?|versus|against)\s*CAMB\b"]},
    },
)
def cmb_spectra(
    params: dict[str, float] | None = None,
    lmax: int = 2500,
    cross_check: Literal["none", "class"] = "none",
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Lensed CMB TT, TE, EE, BB and lensing-potential spectra from CAMB, optionally checked against CLASS.

    Computes the spectra for LCDM and its common extensions with CAMB at stated accuracy settings
    (AccuracyBoost 1, lens_potential_accuracy 1, HMcode lensing), writes them as a table (D_ell in muK^2) and a
    figure, and reports derived numbers (H0 or 100 theta_MC, Omega_m, theta_*, r_drag, the first peak).  With
    cross_check="class" CLASS computes the same cosmology (CAMB's H0 and helium fraction, matched neutrinos) and
    the result gives the largest relative difference per spectrum over 2 <= ell <= 2000.

    Args:
        params: Cosmological parameters by Cobaya's names; missing ones take the Planck 2018 baseline: ombh2
            0.02236, omch2 0.1202, theta_MC_100 1.04090 (or give H0 instead), tau 0.0544, logA 3.045
            (ln 10^10 A_s), ns 0.9649, mnu 0.06 (sum of neutrino masses, eV), nnu 3.046 (N_eff), w -1, wa 0
            (CPL dark energy), omk 0 (curvature), r 0 (tensor-to-scalar ratio).
        lmax: Highest multipole of the spectra (30 to 6000).
        cross_check: "class" to recompute with CLASS and report the differences, "none" for CAMB only.
        output_dir: Folder for the figure and the spectra table.
    """
    started = time.perf_counter()
    given = dict(params or {})
    s = camb_spectra(given, lmax=lmax)
    camb_done = time.perf_counter()
    camb = _arrays(s)
    other: dict[str, np.ndarray] | None = None
    checks: list[Check] = []
    values: dict[str, Any] = {}
    diagnostics: dict[str, Any] = {"camb_version": camb_version(), "camb_accuracy": ACCURACY,
                                   "parameters_used": s.params, "parameters_given": given, "lmax": lmax,
                                   "units": "D_ell = ell(ell+1) C_ell / 2pi in muK^2; PP = [ell(ell+1)]^2 C_ell^phiphi / 2pi"}
    if cross_check == "class":
        from cmbagent.tools.methods.cosmology._class import (
            CLASS_SETTINGS,
            class_available,
            class_spectra,
            class_version,
        )

        why = class_available()
        if why is not None:
            raise UserError(f"cross_check='class' needs CLASS: {why}")
        other = class_spectra(s)
        diff = _differences(camb, other, lmax)
        values["class_max_rel_diff"] = {k: v["max_rel_diff"] for k, v in diff.items()}
        diagnostics |= {"class_version": class_version(), "class_settings": CLASS_SETTINGS, "class_comparison": diff,
                        "timing_s": {"camb": camb_done - started, "class": time.perf_counter() - camb_done}}
        for name, tol in CLASS_TOLERANCE.items():
            d = diff[name]
            checks.append(Check(
                name=f"class_agreement_{name}", passed=d["max_rel_diff"] <= tol,
                message=f"{name}: largest |CLASS - CAMB| / {'sqrt(TT EE)' if name == 'TE' else 'CAMB'} = "
                        f"{100 * d['max_rel_diff']:.3f}% at ell = {d['at_ell']} (RMS {100 * d['rms_rel_diff']:.3f}%) "
                        f"over 2 <= ell <= {d['ell_range'][1]}; tolerance {100 * tol:.1f}%"))
    elif cross_check != "none":
        raise UserError(f"cross_check must be 'none' or 'class' (got {cross_check!r})")
    else:
        diagnostics["timing_s"] = {"camb": camb_done - started}

    peak_ell, peak = _first_peak(s.tt)
    derived_keys = ("H0", "theta_MC_100", "Omega_m", "thetastar", "rdrag", "zstar", "age", "YHe")
    values |= {k: s.derived[k] for k in derived_keys if k in s.derived}
    values |= {"first_peak_ell": peak_ell, "first_peak_Dl_TT": peak}
    for ell_q in (220, 1000, 2000):
        if ell_q <= lmax:
            values[f"Dl_TT_{ell_q}"] = float(s.tt[ell_q])
    finite = all(np.all(np.isfinite(a)) for a in camb.values())
    checks.insert(0, Check(name="finite_spectra", passed=finite,
                           message="all spectra finite" if finite else "CAMB returned non-finite values"))

    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    table = out / "cmb_spectra.csv"
    cols = [s.ell, s.tt, s.ee, s.bb, s.te, s.pp]
    header = "ell,TT,EE,BB,TE,PP"
    if other is not None:
        cols += [other[k] for k in ("TT", "EE", "BB", "TE", "PP")]
        header += ",TT_class,EE_class,BB_class,TE_class,PP_class"
    np.savetxt(table, np.column_stack(cols)[2:], delimiter=",", header=header, comments="", fmt="%.8g")
    figure = _figure(s, other, out / ("cmb_spectra_camb_class.png" if other is not None else "cmb_spectra.png"))

    changed = {k: v for k, v in s.params.items() if k in CAMB_DEFAULTS and k in given}
    summary = (f"CAMB {camb_version()} lensed CMB spectra to ell = {lmax} for "
               + (", ".join(f"{k} = {v:g}" for k, v in changed.items()) or "the Planck 2018 baseline")
               + f" (other parameters at the Planck 2018 baseline; H0 = {s.derived['H0']:.2f} km/s/Mpc, "
               f"100 theta_MC = {s.derived['theta_MC_100']:.5f}, Omega_m = {s.derived['Omega_m']:.4f}). "
               f"First TT peak at ell = {peak_ell} with D_ell = {peak:.1f} muK^2. Accuracy: AccuracyBoost 1, "
               "lens_potential_accuracy 1, HMcode non-linear lensing.")
    if other is not None:
        d = values["class_max_rel_diff"]
        summary += (" CLASS cross-check over 2 <= ell <= " + str(min(lmax, _CHECK_LMAX)) + ": largest relative "
                    "difference " + ", ".join(f"{k} {100 * v:.3f}%" for k, v in d.items())
                    + " (TE relative to sqrt(TT EE)); "
                    + ("within" if all(c.passed for c in checks) else "NOT within")
                    + " the tolerances TT 0.3%, EE 0.5%, TE 0.5%.")
    return MethodResult(summary=summary, values=values, diagnostics=diagnostics, checks=checks,
                        artifacts=[str(figure), str(table)])
