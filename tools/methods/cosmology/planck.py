"""``cosmology.fit_cmb``: cosmological parameters from CMB band powers (Planck 2018 plik_lite by default),
alone or jointly with supernovae, sampled with Cobaya over a CAMB emulator that is checked against CAMB."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods.cosmology._emulator import LMAX, CMBEmulator
from cmbagent.tools.methods.cosmology._plik import A_PLANCK_PRIOR, LOWE_TAU_PRIOR, load_plik_lite
from cmbagent.tools.methods.cosmology.supernovae import FormatName, GaussianPrior

__all__ = ["PLANCK_2018_TTTEEE_LOWE", "fit_cmb"]

PLANCK_2018 = Paper(
    title="Planck 2018 results. VI. Cosmological parameters",
    arxiv="1807.06209",
    authors="Planck Collaboration (Aghanim et al.)",
    year=2020,
    code="https://github.com/CobayaSampler/cobaya",
)

#: Planck 2018 VI, Table 2, TT,TE,EE+lowE column (mean, std): the published values the fit is validated against
PLANCK_2018_TTTEEE_LOWE: dict[str, tuple[float, float]] = {
    "ombh2": (0.02236, 0.00015), "omch2": (0.1202, 0.0014), "theta_MC_100": (1.04090, 0.00031),
    "tau": (0.0544, 0.0073), "logA": (3.045, 0.016), "ns": (0.9649, 0.0044), "H0": (67.27, 0.60),
    "Omega_m": (0.3166, 0.0084),
}
#: the agreement the validation asks for: |mean - published| < 0.3 published σ and σ within 20% of published
VALIDATION = {"shift_sigma": 0.3, "sigma_ratio": 0.2}
#: the largest emulator-induced parameter bias accepted, in posterior standard deviations
EMULATOR_BIAS_MAX = 0.1
_LCDM = ("ombh2", "omch2", "theta_MC_100", "tau", "logA", "ns")
_LABELS = {"ombh2": r"\Omega_b h^2", "omch2": r"\Omega_c h^2", "theta_MC_100": r"100\theta_{MC}", "tau": r"\tau",
           "logA": r"\ln(10^{10} A_s)", "ns": r"n_s", "w": r"w", "H0": r"H_0", "Omega_m": r"\Omega_m",
           "A_planck": r"A_{\rm planck}"}


def _fmt(mean: float, std: float) -> str:
    digits = max(2, int(-np.floor(np.log10(std))) + 1) if std > 0 and np.isfinite(std) else 4
    return f"{mean:.{digits}f} ± {std:.{digits}f}"


def _convergence(samples: np.ndarray, weights: np.ndarray, names: list[str]) -> dict[str, Any]:
    """τ, ESS and split R-hat of the Metropolis chain, on the chain with each sample repeated by its weight
    (a Metropolis chain's weights are repeat counts, so this restores the chain step by step)."""
    from cmbagent.tools.methods.cosmology.supernovae import chain_convergence

    counts = np.rint(weights).astype(int)
    if np.allclose(counts, weights) and counts.min() >= 1:
        expanded = np.repeat(samples, counts, axis=0)
        out = chain_convergence(expanded, names, None, float(expanded.shape[0]))
        out["n_steps"] = int(expanded.shape[0])
        return out
    return {}


def _band_figure(bands: Any, binned_best: np.ndarray, path: Path, title: str) -> Path:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = np.array(bands.names)
    fig = Figure(figsize=(13.0, 7.0))
    FigureCanvasAgg(fig)
    specs = [s for s in ("TT", "TE", "EE") if s in names]
    axes = fig.subplots(2, len(specs), squeeze=False,
                        gridspec_kw={"height_ratios": (3, 1.3), "hspace": 0.08, "wspace": 0.3})
    for j, spec in enumerate(specs):
        sel = names == spec
        ell = bands.ell_eff[sel]
        to_dl = ell * (ell + 1) / (2 * np.pi)
        top, bottom = axes[0, j], axes[1, j]
        top.errorbar(ell, bands.cl[sel] * to_dl, yerr=bands.sigma[sel] * to_dl, fmt=".", ms=2.5, color="0.3",
                     ecolor="0.7", elinewidth=0.6, label="band powers")
        top.plot(ell, binned_best[sel] * to_dl, color="tab:red", lw=1.0, label="best fit (binned)")
        top.set_ylabel(rf"$\mathcal{{D}}_\ell^{{{spec}}}$ [$\mu$K$^2$]")
        top.set_title(spec)
        top.legend(fontsize=8)
        top.tick_params(labelbottom=False)
        bottom.plot(ell, (bands.cl[sel] - binned_best[sel]) / bands.sigma[sel], ".", ms=2.5, color="0.3")
        bottom.axhline(0.0, color="tab:red", lw=0.8)
        bottom.set_xlabel(r"multipole $\ell$")
        bottom.set_ylabel(r"(data $-$ fit) / $\sigma$")
        bottom.set_ylim(-4.5, 4.5)
        for ax in (top, bottom):
            ax.set_xscale("log")
    fig.suptitle(title, fontsize=10)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, bbox_inches="tight")
    return path


@method(
    "cosmology.fit_cmb",
    paper=PLANCK_2018,
    keywords=["CMB", "cosmic microwave background", "Planck", "Planck 2018", "plik_lite", "band powers",
              "LCDM parameters", "cosmological parameters", "CMB parameters", "Cobaya", "H0", "Omega_b h^2",
              "optical depth", "spectral index", "joint fit", "CMB and supernovae", "dark energy equation of state"],
    example='fit_cmb(model="lcdm", seed=0)',
    phrases={
        "model": {"wcdm": [r"\bw\s*CDM\b", r"\bw\s+(?:is\s+)?free\b", r"\bfree\s+w\b", r"\bw\s+varies\b",
                           r"constant (?:dark[- ]energy )?equation[- ]of[- ]state"],
                  "lcdm": [r"(?:Λ|L|lambda[\s-]?)CDM\b"]},
        "spectra": {"TT": [r"\bTT[- ]only\b", r"\btemperature only\b"], "TTTEEE": [r"\bTT\s*,?\s*TE\s*,?\s*EE\b"]},
    },
)
def fit_cmb(
    data: InputFile | None = None,
    spectra: Literal["TTTEEE", "TT", "TE", "EE"] = "TTTEEE",
    model: Literal["lcdm", "wcdm"] = "lcdm",
    low_ell_tt: bool = True,
    tau_prior: GaussianPrior | None = None,
    supernovae: InputFile | None = None,
    sn_format: FormatName = "auto",
    sn_covariance: InputFile | None = None,
    rminus1_stop: float = 0.01,
    max_samples: int = 200000,
    check_camb: bool = True,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Fit LCDM (or wCDM) parameters to CMB band powers, optionally jointly with supernovae, with Cobaya.

    The likelihood is the Planck 2018 high-ell plik_lite TT/TE/EE band powers (shipped; 613 bins, its
    covariance and calibration prior) plus two binned low-ell TT points, with a Gaussian prior on tau in
    place of the low-ell polarisation likelihood.  Theory spectra come from an emulator of CAMB (trained here,
    valid in a box of about 6 sigma around Planck 2018), checked against CAMB at the best fit: the check gives
    the emulator's error in units of the data errors and the parameter bias it induces.  Cobaya's Metropolis
    sampler runs from the best fit until its R-1 convergence test passes.  With a supernova file the
    supernova likelihood (absolute magnitude marginalised) is added at each point's Omega_m and w, so
    "Pantheon+ plus CMB, w free" is one call.

    Args:
        data: Folder with band powers in the Planck plik_lite layout (cl_cmb_plik_v*.dat, c_matrix_plik_v*.dat,
            blmin.dat, blmax.dat, bweight.dat), or null for the shipped Planck 2018 plik_lite v22 release.
        spectra: Band powers to use: TTTEEE (all), TT, TE or EE.
        model: lcdm (6 parameters: ombh2, omch2, theta_MC_100, tau, logA, ns) or wcdm (plus a constant w).
        low_ell_tt: Add the two binned low-ell TT points (2 <= ell <= 29) of Prince & Dunkley 2019 (shipped
            Planck data only).
        tau_prior: Gaussian prior on the optical depth {"mean": m, "std": s}; default the Planck 2018 low-ell
            EE constraint tau = 0.0506 ± 0.0086.
        supernovae: Optional supernova data file (as for fit_supernovae: Pantheon+SH0ES.dat, Union2.1, JLA
            binned, lcparam or CSV) for a joint fit.
        sn_format: Format of the supernova file, or auto.
        sn_covariance: Optional covariance of the supernova file.
        rminus1_stop: Cobaya's stopping threshold on R-1 of the means between chain chunks.
        max_samples: Upper limit on accepted samples; a chain stopped here fails the convergence check.
        check_camb: Run CAMB once at the best fit to measure the emulator's error and bias (about 5-30 s).
        seed: Seed of the sampler (and of its starting point).
        output_dir: Folder for the triangle plot, the band-power figure and the chain.
    """
    started = time.perf_counter()
    if model not in ("lcdm", "wcdm"):
        raise UserError(f"model must be 'lcdm' or 'wcdm' (got {model!r})")
    if not 0 < rminus1_stop < 1:
        raise UserError(f"rminus1_stop must lie in (0, 1) (got {rminus1_stop}); 0.01 is Cobaya's usual choice")
    bands = load_plik_lite(data, spectra=spectra, low_ell_tt=low_ell_tt and data is None)
    emulator = CMBEmulator.load()
    sn_like = None
    if supernovae is not None:
        from cmbagent.tools.methods.cosmology._io import load_sn_data
        from cmbagent.tools.methods.cosmology._likelihood import SNLikelihood

        sn_like = SNLikelihood(load_sn_data(supernovae, sn_covariance, sn_format),
                               "wcdm" if model == "wcdm" else "flat_lcdm")
    elif model == "wcdm":
        pass  # CMB alone barely constrains w (the geometric degeneracy): the box edges will show it
    tau_mean, tau_std = (float(tau_prior["mean"]), float(tau_prior["std"])) if tau_prior else LOWE_TAU_PRIOR
    if tau_std <= 0:
        raise UserError(f"tau_prior std must be positive (got {tau_std})")
    from cmbagent.tools.methods.cosmology._cmbfit import CMBPosterior, best_fit, check_emulator, run_cobaya
    from cmbagent.tools.methods.cosmology._sampler import _hessian_covariance

    cosmo = list(_LCDM) + (["w"] if model == "wcdm" else [])
    names = (*cosmo, "A_planck")
    box = {n: (float(emulator.lo[i]), float(emulator.hi[i])) for i, n in enumerate(emulator.names)}
    bounds = np.array([box[n] for n in cosmo] + [(0.9, 1.1)])
    if not bounds[cosmo.index("tau")][0] < tau_mean < bounds[cosmo.index("tau")][1]:
        raise UserError(f"tau_prior mean {tau_mean} lies outside the emulator's range {box['tau']}")
    gaussian = {"tau": (tau_mean, tau_std), "A_planck": A_PLANCK_PRIOR}
    post = CMBPosterior(emulator=emulator, bands=bands, names=names, bounds=bounds, gaussian=gaussian,
                        fixed={"w": -1.0}, sn=sn_like)
    start = np.array([PLANCK_2018_TTTEEE_LOWE[n][0] if n in PLANCK_2018_TTTEEE_LOWE else
                      (-1.0 if n == "w" else 1.0) for n in names])
    start[names.index("tau")] = tau_mean
    best, best_lp = best_fit(post, start)
    cov = _hessian_covariance(post.log_posterior, best, bounds)
    fitted = time.perf_counter()
    samples_all, weights_all, mlp_all, state = run_cobaya(post, best, cov, seed=seed, rminus1_stop=rminus1_stop,
                                                          rminus1_cl_stop=0.2, max_samples=max_samples)
    sampled = time.perf_counter()
    # the first 30% of the accepted samples are burn-in, as GetDist's default analysis of Cobaya chains drops
    skip = int(0.3 * samples_all.shape[0])
    samples, weights = samples_all[skip:], weights_all[skip:]
    derived = post.derived(samples)
    table_names = [*names, "H0", "Omega_m"]
    table = np.column_stack([samples, derived["H0"], derived["Omega_m"]])
    from cmbagent.tools.methods.cosmology._summary import summarize_samples

    best_derived = post.derived(best[None, :])
    best_all = dict(zip(names, best.tolist(), strict=True)) | {"H0": float(best_derived["H0"][0]),
                                                               "Omega_m": float(best_derived["Omega_m"][0])}
    stats = summarize_samples(table, table_names, weights)
    # τ is set by its Gaussian prior (which stands in for the low-ell EE likelihood: the high-ell band powers
    # measure A_s e^-2τ, not τ), and A_planck by its calibration prior: both are nuisances here, summarised in
    # the diagnostics, not reported as measurements
    reported = [n for n in table_names if n not in ("A_planck", "tau")]
    values: dict[str, Any] = {n: stats[n] | {"best_fit": best_all[n]} for n in reported}
    parts = post.chi2_parts(best[None, :])
    chi2_cmb = float(parts["cmb"][0])
    n_free = len(names) - 1  # A_planck is held by its prior
    values |= {"chi2_cmb": chi2_cmb, "n_bins": bands.n}
    chi2_total, n_data = chi2_cmb, bands.n
    if sn_like is not None:
        chi2_sn = float(parts["sn"][0])
        values |= {"chi2_sn": chi2_sn, "n_sne": sn_like.data.n}
        sn_rows = sn_like.data.rows  # read/used/why, as fit_supernovae states them (the data audit reads it)
        chi2_total += chi2_sn
        n_data += sn_like.data.n - 1  # the marginalised absolute magnitude
    values |= {"chi2": chi2_total, "dof": n_data - n_free}
    posterior_std = {n: stats[n]["std"] for n in table_names}

    checks: list[Check] = []
    diagnostics: dict[str, Any] = {
        "data": bands.description, "model": model, "parameters": list(names), "n_bins": bands.n,
        "priors": {n: bounds[j].tolist() for j, n in enumerate(names)},
        "gaussian_priors": {n: {"mean": m, "std": s} for n, (m, s) in gaussian.items()},
        "nuisance": {"A_planck": "Planck's overall calibration, sampled with its prior 1 ± 0.0025 and marginalised",
                     "tau": f"the optical depth follows its Gaussian prior {tau_mean} ± {tau_std}, which stands in "
                            "for the low-ell EE likelihood (the high-ell band powers constrain A_s e^-2tau, not tau)"},
        "nuisance_summary": {"A_planck": stats["A_planck"], "tau": stats["tau"] | {"best_fit": best_all["tau"]}},
        "low_ell": ("2 binned low-ell TT points (Prince & Dunkley 2019) and " if low_ell_tt and data is None else "")
        + f"a Gaussian tau prior {tau_mean} ± {tau_std} in place of the low-ell EE likelihood (lowE)",
        "emulator": {"box": box, "training": emulator.meta.get("report", {}), "camb": emulator.meta.get("camb"),
                     "accuracy": emulator.meta.get("accuracy")},
        "sampler": "cobaya.mcmc", "rminus1_stop": rminus1_stop, "max_samples": max_samples, "seed": seed,
        "cobaya": state, "burn_in_fraction": 0.3, "n_samples": int(samples.shape[0]),
        "acceptance_rate": state["acceptance_rate"], "converged": state["converged"],
        "best_fit": best_all, "best_log_posterior": best_lp,
    }
    if sn_like is not None:
        diagnostics |= {"rows": sn_rows, "sn_format": sn_like.data.format,
                        "sn_error_model": "covariance" if sn_like.data.covariance is not None else "diagonal"}
    diagnostics |= _convergence(samples, weights, list(names))
    checks.append(Check(
        name="convergence_rminus1", passed=state["converged"],
        message=(f"Cobaya R-1 of the means {state['rminus1_last']['means']} (stop at {rminus1_stop}), of the 95% "
                 f"bounds {state['rminus1_last']['bounds']} (stop at 0.2) after {state['n_accepted']} accepted of "
                 f"{state['n_total']} steps" + ("" if state["converged"] else f"; stopped at max_samples={max_samples}"))))
    if "rhat" in diagnostics:
        worst = max(diagnostics["rhat"].values())
        checks.append(Check(name="convergence_rhat", passed=bool(worst < 1.01),
                            message="split R-hat (4 segments of the chain after burn-in) max " + f"{worst:.4f}"
                            + " (threshold 1.01)"))
        tau_max = max(diagnostics["tau"].values())
        checks.append(Check(name="convergence_autocorr", passed=bool(diagnostics["n_steps"] >= 50 * tau_max),
                            message=f"chain of {diagnostics['n_steps']} steps after burn-in is "
                                    f"{diagnostics['n_steps'] / tau_max:.0f} autocorrelation times (max tau "
                                    f"{tau_max:.1f}; needs >= 50)"))
    acc = state["acceptance_rate"]
    checks.append(Check(name="acceptance_fraction", passed=0.1 <= acc <= 0.6, message=f"acceptance rate {acc:.3f}"))
    edges = []
    for j, n in enumerate(cosmo):
        lo, hi = bounds[j]
        frac = float(np.average((samples[:, j] - lo < 0.01 * (hi - lo)) | (hi - samples[:, j] < 0.01 * (hi - lo)),
                                weights=weights))
        if frac > 0.01:
            edges.append(f"{n} ({100 * frac:.1f}% of samples within 1% of the emulator box {lo:g}-{hi:g})")
    checks.append(Check(name="prior_edges", passed=not edges,
                        message="posterior reaches the edge of the emulator's box: " + "; ".join(edges)
                        + " (the box truncates it; the numbers there are bounds, not measurements)" if edges
                        else "posterior lies inside the emulator's box"))
    from scipy.stats import chi2 as chi2_dist

    p_value = float(chi2_dist.sf(chi2_total, n_data - n_free))
    checks.append(Check(name="goodness_of_fit", passed=bool(1e-3 <= p_value <= 1 - 1e-3),
                        message=f"chi2 = {chi2_total:.1f} for {n_data - n_free} dof (p = {p_value:.3g}); CMB part "
                                f"{chi2_cmb:.1f} for {bands.n} bins"))

    if check_camb:
        from cmbagent.tools.methods.cosmology._camb import camb_spectra

        ec = check_emulator(post, best, posterior_std, lambda p: camb_spectra(p, lmax=LMAX))
        worst_name = max(ec.bias_sigma, key=lambda k: abs(ec.bias_sigma[k]))
        diagnostics["emulator_check"] = {
            "at": "best fit", "chi2_emulator": ec.chi2_emulator, "chi2_camb": ec.chi2_camb,
            "error_norm_whitened": ec.error_norm, "max_error_over_sigma": ec.max_error_sigma,
            "bias_sigma": ec.bias_sigma, "H0_error": ec.h0_error, "camb_seconds": ec.camb_seconds}
        checks.append(Check(
            name="emulator_bias", passed=all(abs(b) < EMULATOR_BIAS_MAX for b in ec.bias_sigma.values()),
            message=(f"emulator vs CAMB at the best fit: chi2 {ec.chi2_emulator:.2f} vs {ec.chi2_camb:.2f}, error "
                     f"norm {ec.error_norm:.3f} (whitened data units), largest bin error {ec.max_error_sigma:.3f} "
                     f"sigma, H0 error {ec.h0_error:+.4f} km/s/Mpc; induced parameter bias (linear response) "
                     f"largest {ec.bias_sigma[worst_name]:+.3f} sigma ({worst_name}); threshold "
                     f"{EMULATOR_BIAS_MAX} sigma")))
    if data is None and spectra == "TTTEEE" and model == "lcdm" and sn_like is None:
        published: dict[str, Any] = {}
        for n, (m, s) in PLANCK_2018_TTTEEE_LOWE.items():
            published[n] = {"published_mean": m, "published_std": s, "shift_sigma": (stats[n]["mean"] - m) / s,
                            "std_ratio": stats[n]["std"] / s}
        diagnostics["planck2018_published"] = published
        ok = all(abs(v["shift_sigma"]) < VALIDATION["shift_sigma"] and abs(v["std_ratio"] - 1) < VALIDATION["sigma_ratio"]
                 for v in published.values())
        worst_shift = max(published, key=lambda k: abs(published[k]["shift_sigma"]))
        checks.append(Check(
            name="matches_planck2018", passed=ok,
            message="vs Planck 2018 TT,TE,EE+lowE (Table 2): " + ", ".join(
                f"{n} {v['shift_sigma']:+.2f} sigma (std x{v['std_ratio']:.2f})" for n, v in published.items())
            + f"; largest shift {worst_shift}; asked: |shift| < 0.3 sigma, std within 20%"))

    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    stem = "cmb_" + model + ("_sn" if sn_like is not None else "")
    from cmbagent.tools.methods.cosmology._plots import corner_plot

    plotted = [n for n in table_names if n != "A_planck"]
    cols = [table_names.index(n) for n in plotted]
    artifacts = [str(corner_plot(table[:, cols], plotted, out / f"{stem}_triangle.png", weights=weights,
                                 truths=[best_all[n] for n in plotted], labels={n: _LABELS[n] for n in plotted})),
                 str(_band_figure(bands, post.binned(best[None, :])[0], out / f"{stem}_bandpowers.png",
                                  f"{bands.description}: best fit {model}"))]
    if sn_like is not None:
        from cmbagent.tools.methods.cosmology._plots import hubble_diagram

        theta = post.sn_theta(best[None, :], best_derived["Omega_m"])[0]
        artifacts.append(str(hubble_diagram(sn_like, theta, out / f"{stem}_hubble.png",
                                            title=f"{Path(str(supernovae)).name} at the joint best fit")))
    chain = out / f"{stem}_chain.txt"
    np.savetxt(chain, np.column_stack([weights, mlp_all[skip:], table]), fmt="%.8g",
               header="weight minuslogpost " + " ".join(table_names))
    artifacts.append(str(chain))

    quoted = "; ".join(f"{n} = {_fmt(values[n]['mean'], values[n]['std'])}" for n in reported)
    quoted += f"; tau = {_fmt(stats['tau']['mean'], stats['tau']['std'])} (set by its prior)"
    what = "flat LCDM" if model == "lcdm" else "flat wCDM (constant w)"
    kept = ""
    if sn_like is not None and sn_like.data.n_read is not None and sn_like.data.n_read != sn_like.data.n:
        kept = f" ({sn_like.data.n} of {sn_like.data.n_read} rows kept: " + ", ".join(
            f"{n} {why} dropped" for why, n in sn_like.data.dropped) + ")"
    summary = (f"{what} fit to {bands.description}" + (f" and {sn_like.data.n} supernovae from "
                                                        f"{Path(str(supernovae)).name}{kept}" if sn_like is not None else "")
               + f"; {diagnostics['low_ell']}: {quoted}. Best fit chi2 = {chi2_total:.1f} for {n_data - n_free} dof. "
               f"Cobaya MCMC {'converged' if state['converged'] else 'NOT converged'} (R-1 "
               f"{state['rminus1_last']['means']}, {state['n_accepted']} accepted samples); theory from the CAMB "
               "emulator")
    if "emulator_check" in diagnostics:
        b = diagnostics["emulator_check"]["bias_sigma"]
        summary += f", whose bias against CAMB at the best fit is at most {max(abs(v) for v in b.values()):.3f} sigma"
    summary += "."
    if "planck2018_published" in diagnostics:
        pub = diagnostics["planck2018_published"]
        summary += (" Against Planck 2018 TT,TE,EE+lowE the means differ by "
                    + ", ".join(f"{n} {v['shift_sigma']:+.2f}" for n, v in pub.items()) + " published sigma.")
    diagnostics["timing_s"] = {"best_fit": fitted - started, "sampling": sampled - fitted,
                               "total": time.perf_counter() - started}
    return MethodResult(summary=summary, values=values, diagnostics=diagnostics, checks=checks, artifacts=artifacts)
