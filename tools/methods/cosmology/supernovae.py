"""Registered method tools: ``cosmology.fit_supernovae`` and ``cosmology.summarize_chain``."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
from typing_extensions import TypedDict

from cmbagent.exceptions import UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods.cosmology._io import load_sn_data
from cmbagent.tools.methods.cosmology._likelihood import SNLikelihood
from cmbagent.tools.methods.cosmology._sampler import MCMCResult, SamplerSettings, run_emcee
from cmbagent.tools.methods.cosmology._summary import load_chain, summarize_samples

__all__ = ["fit_supernovae", "summarize_chain"]

PANTHEON_PLUS = Paper(
    title="The Pantheon+ Analysis: Cosmological Constraints",
    arxiv="2202.04077",
    authors="Brout, Scolnic, Popovic, Riess, et al.",
    year=2022,
    code="https://github.com/PantheonPlusSH0ES/DataRelease",
)

ModelName = Literal["flat_lcdm", "lcdm", "wcdm", "w0wacdm"]
#: the parameters a prior may be set on (the keys of DEFAULT_PRIORS): named in the signature, so the schema a model
#: writes ``priors`` under has exactly these keys (an open mapping let SmolLM2 loop on invented keys)
PriorParameter = Literal["Omega_m", "Omega_de", "w0", "wa", "H0", "M"]


class GaussianPrior(TypedDict):
    """A Gaussian prior N(mean, std) on one parameter (an external measurement)."""

    mean: float
    std: float


FormatName = Literal["auto", "pantheon_plus", "union21", "jla_binned", "lcparam", "csv"]


def _prior(spec: list[float] | GaussianPrior) -> tuple[float, ...] | dict[str, float]:
    if isinstance(spec, dict):
        return {"mean": float(spec["mean"]), "std": float(spec["std"])}
    return tuple(spec)


def _fmt(value: float, std: float) -> str:
    digits = max(2, int(-np.floor(np.log10(std))) + 1) if std > 0 and np.isfinite(std) else 4
    return f"{value:.{digits}f} ± {std:.{digits}f}"


def _checks(like: SNLikelihood, mcmc: MCMCResult, settings: SamplerSettings, chi2: float, dof: int) -> list[Check]:
    from scipy.stats import chi2 as chi2_dist

    tau_text = ", ".join(f"{n} {t:.1f}" for n, t in zip(mcmc.names, mcmc.tau, strict=True))
    checks = [
        Check(
            name="convergence_autocorr",
            passed=mcmc.converged,
            message=(
                f"{mcmc.n_steps} steps x {mcmc.n_walkers} walkers; tau = {tau_text}; "
                + (f"stopped after N > {settings.tau_factor:g} tau with tau stable to {100 * settings.tau_rtol:g}%"
                   if mcmc.converged else f"hit max_steps={settings.max_steps} before the autocorrelation rule held")
            ),
        ),
        Check(
            name="convergence_rhat",
            passed=bool(np.all(mcmc.rhat < settings.rhat_max)),
            message=f"split R-hat over {settings.rhat_groups} walker groups " + ", ".join(f"{n} {r:.4f}" for n, r in zip(mcmc.names, mcmc.rhat, strict=True))
            + f" (threshold {settings.rhat_max})",
        ),
    ]
    acc = float(np.mean(mcmc.acceptance))
    checks.append(Check(name="acceptance_fraction", passed=0.15 <= acc <= 0.8,
                        message=f"mean acceptance {acc:.3f} (healthy range 0.15-0.8)"))
    ratios = []
    prior_std = like.prior_std()
    for j, name in enumerate(mcmc.names):
        ratios.append((name, float(np.std(mcmc.samples[:, j]) / prior_std[j])))
    # a Gaussian prior is information the task brought: a posterior close to it is expected, not a failure
    flat = [(n, r) for n, r in ratios if n not in like.gaussian]
    checks.append(Check(
        name="posterior_narrower_than_prior",
        passed=all(r < 0.5 for _, r in flat),
        message="posterior std / prior std: " + ", ".join(f"{n} {r:.3f}" for n, r in ratios)
        + " (a ratio near 1 means the data do not constrain that parameter"
        + ("; parameters with a Gaussian prior are not held to it" if like.gaussian else "") + ")",
    ))
    edges = []
    for j, name in enumerate(mcmc.names):
        lo, hi = like.bounds[j]
        frac = float(np.mean((mcmc.samples[:, j] - lo < 0.01 * (hi - lo)) | (hi - mcmc.samples[:, j] < 0.01 * (hi - lo))))
        if frac > 0.01:
            edges.append(f"{name} ({100 * frac:.1f}% of samples)")
    checks.append(Check(name="prior_edges", passed=not edges,
                        message="posterior piles up at a prior edge: " + ", ".join(edges) if edges
                        else "posterior is away from the prior edges"))
    p_value = float(chi2_dist.sf(chi2, dof)) if dof > 0 else float("nan")
    # two-sided: a chi2 far below its dof (p ~ 1) means overestimated errors or ignored correlations
    verdict = "" if 1e-3 <= p_value <= 1 - 1e-3 else (" (too low: errors overestimated or correlations ignored)"
                                                        if p_value > 0.5 else " (too high: tension or errors underestimated)")
    checks.append(Check(name="goodness_of_fit", passed=bool(1e-3 <= p_value <= 1 - 1e-3),
                        message=f"chi2 = {chi2:.2f} for {dof} dof (chi2/dof = {chi2 / max(dof, 1):.3f}, "
                                f"p = {p_value:.3g}){verdict}"))
    return checks


#: the covariance each release ships for its cosmology fits (named when a fit goes without it)
_RELEASE_COVARIANCE = {"pantheon_plus": "Pantheon+SH0ES_STAT+SYS.cov", "lcparam": "the release's sys_*.txt covariance"}


def _degeneracies(kind: str, fmt: str, offset: str | None) -> dict[str, Any]:
    """What these data cannot constrain by construction, and which sampled parameter is a nuisance.

    Magnitudes (``mb``) carry M + 5 log10(c/H0) as one additive constant: H0 cannot be told from M without a
    calibrator. Distance moduli (``mu``) were computed by the compilation with an assumed absolute magnitude,
    so a fitted H0 returns the normalisation it assumed (Union2.1: H0 = 70 km/s/Mpc; Suzuki et al. 2012).
    """
    if kind == "mb":
        out: dict[str, Any] = {"not_constrained": {"H0": {
            "reason": "supernova magnitudes with a free absolute magnitude M constrain only M - 5 log10 H0; H0 "
                      "needs a distance calibrator (Cepheid or TRGB hosts) or an external prior on M",
            "severity": "error"}}}
        if offset == "M":
            out["nuisance"] = {"M": "the absolute magnitude is degenerate with H0; the value sampled here assumes "
                                    "H0 = 70 km/s/Mpc"}
        return out
    normalisation = " (Union2.1 assumed H0 = 70 km/s/Mpc; Suzuki et al. 2012)" if fmt == "union21" else ""
    return {"not_constrained": {"H0": {
        "reason": "distance moduli were computed by the compilation with an assumed absolute magnitude"
                  f"{normalisation}, so a fitted H0 returns that normalisation, not a measurement",
        "severity": "warning"}}}


@method(
    "cosmology.fit_supernovae",
    paper=PANTHEON_PLUS,
    keywords=["supernova", "supernovae", "SN Ia", "Pantheon+", "Union2.1", "JLA", "Hubble diagram",
              "distance modulus", "Omega_m", "dark energy", "Hubble constant", "H0", "LCDM", "wCDM",
              "cosmological parameters", "MCMC", "emcee"],
    example='fit_supernovae(data="data/sn/Pantheon+SH0ES.dat", model="flat_lcdm")',
    phrases={
        # the first value whose phrase matches wins: the specific models before plain (flat) ΛCDM
        "model": {
            "w0wacdm": [r"\bw0\s*-?\s*wa\b", r"\bw_?0\s*(?:and|,)\s*w_?a\b", r"\bCPL\b", r"Chevallier",
                        r"evolving dark energy", r"\bw\((?:a|z)\)"],
            "wcdm": [r"\bw\s*CDM\b", r"\bw\s+(?:is\s+)?free\b", r"\bfree\s+w\b",
                     r"constant (?:dark[- ]energy )?equation[- ]of[- ]state",
                     # "a fixed w that is allowed to differ from −1"
                     r"\bw\b[^.;]{0,40}?\b(?:allowed|free|left\s+free|permitted)\s+to\s+(?:differ|deviate|depart|vary|move)\s+"
                     r"(?:away\s+)?from\s+[-−–]\s*1\b"],
            "lcdm": [r"\bcurved\b", r"\bcurvature\b", r"\bnon-?flat\b", r"\bnot\s+flat\b",
                     r"\b(?:open|closed) (?:universe|model)", r"(?:Ω|Omega)_?k\b"],
            "flat_lcdm": [r"\bflat[\s_-]*(?:Λ|L|lambda[\s-]?)CDM\b", r"\bflat (?:universe|cosmology)\b",
                          r"(?<![\w-])(?<!curved )(?<!non-flat )(?:Λ|L|lambda[\s-]?)CDM\b"],
        },
        "priors": {
            "Omega_m": [r"(?:Ω|Omega|omega)_?\{?m\}?", r"\bO_?m\b", r"\b(?:the\s+)?matter\s+density(?:\s+parameter)?"],
            "Omega_de": [r"(?:Ω|Omega|omega)_?\{?(?:Λ|Lambda|de|DE)\}?", r"\bdark[\s-]energy\s+density(?:\s+parameter)?"],
            "H0": [r"\bH_?\{?0\}?", r"\bHubble\s+constant"],
            # "give w a flat prior between −2 and −0.3": w before its prior
            # (or "let w range uniformly from −2.5 to 0")
            "w0": [r"\bw_?\{?0\}?", r"\bw(?=\s*[=∈~])", r"\bw(?=\s+an?\s+(?:[\w-]+\s+)?prior\b)",
                   r"\bw(?=\s+(?:range|ranges|vary|varies|run|runs)\s+(?:uniformly|flat(?:ly)?|freely)\b)"],
            "wa": [r"\bw_?\{?a\}?"],
            "M": [r"\bM(?:_B)?(?=\s*[=∈~(\[]|\s+(?:in|between)\b)", r"\babsolute\s+magnitude(?:\s+M)?"],
        },
    },
)
def fit_supernovae(
    data: InputFile,
    covariance: InputFile | None = None,
    model: ModelName = "flat_lcdm",
    format: FormatName = "auto",
    free_h0: bool = False,
    priors: dict[PriorParameter, list[float] | GaussianPrior] | None = None,
    n_walkers: int = 32,
    max_steps: int = 20000,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Measure cosmological parameters from Type Ia supernova distances with an MCMC fit.

    Reads Pantheon+, Union2.1, JLA-style binned, CosmoMC lcparam or CSV supernova tables, fits a flat or
    curved LCDM, wCDM or w0waCDM background with a Gaussian likelihood (full covariance when given,
    additive offset M/H0 marginalised analytically unless ``free_h0``), samples with emcee from a
    maximum-likelihood start until the autocorrelation-time stopping rule holds, and reports posterior
    means, standard deviations, 68%/95% intervals, the best fit and chi2/dof, with a corner plot and a
    Hubble diagram.  Model: mu = 5 log10[(1 + z_hel) D_M(z_cmb) c/H0/Mpc] + 25, no radiation.

    Args:
        data: Path of the supernova data file (Pantheon+SH0ES.dat, SCPUnion2.1_mu_vs_z.txt, jla_mub.txt, an
            lcparam file or a CSV with columns z, mu or mb, and an error column).
        covariance: Path of a covariance file (N*N values, optionally preceded by N), or null for the
            diagonal errors in the data file. Pantheon+ covariances are restricted to the kept zHD > 0.01 rows;
            an lcparam covariance is systematic and is added to the statistical errors.
        model: Background model: flat_lcdm (Omega_m), lcdm (Omega_m, Omega_de with curvature), wcdm (flat,
            Omega_m and w0) or w0wacdm (flat, Omega_m, w0, wa).
        format: File format, or auto to detect it from the header and first rows.
        free_h0: Sample the offset instead of marginalising it: H0 for distance moduli (mu), the absolute
            magnitude M at H0 = 70 for magnitudes (mb), which cannot constrain H0 on their own.
        priors: Priors overriding the defaults, per parameter: flat bounds [lower, upper], e.g.
            {"Omega_m": [0.1, 0.9]}, or a Gaussian {"mean": m, "std": s}, e.g. {"Omega_m": {"mean": 0.3,
            "std": 0.02}} (truncated to the default range). Defaults (flat): Omega_m [0.01, 0.99],
            Omega_de [0, 1.5], w0 [-3, 1], wa [-3, 2], H0 [50, 100], M [-21, -17].
        n_walkers: Number of emcee walkers.
        max_steps: Upper limit on the chain length; a chain stopped here fails the convergence check.
        seed: Seed of every random choice (optimiser restarts, walker start, emcee moves).
        output_dir: Folder for the corner plot, Hubble diagram and the posterior samples.
    """
    started = time.perf_counter()
    sn = load_sn_data(data, covariance, format)
    like = SNLikelihood(sn, model, sample_offset=free_h0,
                        priors={k: _prior(v) for k, v in (priors or {}).items()})
    if n_walkers < 4:
        raise UserError(f"n_walkers must be at least 4 (got {n_walkers}); 32 is a good default")
    settings = SamplerSettings(n_walkers=n_walkers, max_steps=max_steps)
    mcmc = run_emcee(like.log_posterior, like.names, like.start, like.bounds, seed=seed, settings=settings)
    sampled_at = time.perf_counter()

    derived = like.model.derive(mcmc.samples)
    names = list(like.names) + list(derived)
    table = np.column_stack([mcmc.samples, *derived.values()]) if derived else mcmc.samples
    best_derived = like.model.derive(mcmc.best_fit[None, :])
    best = dict(zip(like.names, mcmc.best_fit.tolist(), strict=True)) | {k: float(v[0]) for k, v in best_derived.items()}
    values: dict[str, Any] = {}
    for name, posterior in summarize_samples(table, names).items():
        values[name] = posterior | {"best_fit": best[name]}
    chi2 = float(like.chi2(mcmc.best_fit)[0])
    dof = sn.n - like.n_constant
    values |= {"chi2": chi2, "dof": dof, "chi2_per_dof": chi2 / dof if dof > 0 else float("nan"), "n_sne": sn.n}

    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    stem = f"sn_{sn.format}_{model}" + ("_freeH0" if free_h0 else "")
    from cmbagent.tools.methods.cosmology._plots import corner_plot, hubble_diagram

    artifacts = [
        # derived parameters are deterministic functions of the sampled ones: a corner panel adds nothing
        str(corner_plot(mcmc.samples, like.names, out / f"{stem}_corner.png", truths=mcmc.best_fit.tolist())),
        str(hubble_diagram(like, mcmc.best_fit, out / f"{stem}_hubble.png",
                           title=f"{Path(sn.source).name}: {like.model.description}")),
    ]
    chain_path = out / f"{stem}_samples.txt.gz"
    np.savetxt(chain_path, np.column_stack([table, mcmc.log_prob]), header=" ".join([*names, "log_post"]), fmt="%.8g")
    artifacts.append(str(chain_path))

    checks = _checks(like, mcmc, settings, chi2, dof)
    offset = "sampled" if free_h0 else "marginalised analytically"
    quoted = "; ".join(f"{n} = {_fmt(values[n]['mean'], values[n]['std'])} "
                       f"(68%: {values[n]['lower_68']:.4g} to {values[n]['upper_68']:.4g})" for n in names)
    kept = f" ({sn.n} of {sn.n_read} rows kept: " + ", ".join(f"{n} {why} dropped" for why, n in sn.dropped) + ")" \
        if sn.n_read is not None and sn.n_read != sn.n else ""
    summary = (
        f"{like.model.description} fit to {sn.n} supernovae from {Path(sn.source).name}{kept} ({sn.format}, "
        f"{'full covariance' if sn.covariance is not None else 'diagonal errors'}; offset {offset}; priors "
        f"{like.describe_priors()}): {quoted}. "
        f"Best fit chi2 = {chi2:.2f} for {dof} dof. emcee: {mcmc.n_walkers} walkers x {mcmc.n_steps} steps, "
        f"{'converged' if mcmc.converged else 'NOT converged'} (max tau {np.max(mcmc.tau):.1f}, "
        f"max R-hat {np.max(mcmc.rhat):.4f}, min ESS {np.min(mcmc.ess):.0f})."
    )
    if sn.format == "pantheon_plus" and sn.covariance is None:
        summary += (
            " Note: with diagonal errors the Pantheon+ release notes warn against cosmology fits; the published "
            "Omega_m = 0.334 ± 0.018 (Brout et al. 2022) needs the full STAT+SYS covariance "
            "(Pantheon+SH0ES_STAT+SYS.cov); diagonal errors give about 0.351 ± 0.019."
        )
    diagnostics = {
        "model": model, "format": sn.format, "kind": sn.kind, "parameters": list(like.names),
        "priors": {n: like.bounds[j].tolist() for j, n in enumerate(like.names)},
        "gaussian_priors": {n: {"mean": m, "std": sd} for n, (m, sd) in like.gaussian.items()},
        "offset": offset, "data_notes": list(sn.notes), "n_walkers": mcmc.n_walkers, "n_steps": mcmc.n_steps,
        "burn_in": mcmc.burn, "thin": mcmc.thin, "n_samples": int(mcmc.samples.shape[0]),
        "tau": dict(zip(like.names, mcmc.tau.tolist(), strict=True)),
        "rhat": dict(zip(like.names, mcmc.rhat.tolist(), strict=True)),
        "ess": dict(zip(like.names, mcmc.ess.tolist(), strict=True)),
        "acceptance_fraction": float(np.mean(mcmc.acceptance)), "tau_history": mcmc.history,
        "best_fit": best, "seed": seed, "max_steps": max_steps, "converged": bool(mcmc.converged),
        "timing_s": {"sampling": sampled_at - started, "total": time.perf_counter() - started},
        "rows": sn.rows, "error_model": "covariance" if sn.covariance is not None else "diagonal",
        **_degeneracies(sn.kind, sn.format, like.offset_name),
    }
    if sn.covariance is None and sn.format in _RELEASE_COVARIANCE:
        diagnostics["missing_covariance"] = _RELEASE_COVARIANCE[sn.format]
    h0 = like.implied_h0(mcmc.best_fit)
    if h0 is not None and not free_h0:
        diagnostics["implied_H0_at_best_fit"] = h0
    return MethodResult(summary=summary, values=values, diagnostics=diagnostics, checks=checks, artifacts=artifacts)


def chain_convergence(samples: np.ndarray, names: list[str], weights: np.ndarray | None, n_eff: float,
                       walkers: int | None = None) -> dict[str, Any]:
    """Autocorrelation time, effective sample size and split R-hat, as the convergence audit reads them.

    An ensemble chain whose walkers are interleaved row by row (CosmoSIS writes ``#walkers=N``) is reshaped to
    (steps, walkers): τ is emcee's estimate over the walkers and R-hat splits four walker groups, as in our own
    fits; any other chain is one chain in file order (R-hat over four consecutive segments).  A chain with
    unequal weights (importance or nested samples) has no order to correlate: only its Kish size is given.
    """
    n = samples.shape[0]
    if weights is not None and np.ptp(weights) > 0:
        return {"ess": {p: n_eff for p in names}, "n_steps": n}
    from emcee.autocorr import integrated_time

    from cmbagent.tools.methods.cosmology._sampler import split_rhat

    if walkers and n % walkers == 0 and n // walkers >= 20:
        chain = samples.reshape(n // walkers, walkers, -1)
        steps, groups = chain.shape[0], min(4, walkers)
        tau = np.asarray(integrated_time(chain, tol=0, quiet=True), dtype=float)
        rhat = split_rhat(chain, groups)
    elif n >= 20:
        m = n // 4
        steps = n
        tau = np.asarray(integrated_time(samples[:, None, :], tol=0, quiet=True), dtype=float)
        rhat = split_rhat(samples[: 4 * m].reshape(4, m, -1).transpose(1, 0, 2)) if m >= 4 else np.full(len(names), np.nan)
    else:
        return {"n_steps": n}
    tau = np.where(tau > 0, tau, np.nan)
    return {"tau": dict(zip(names, tau.tolist(), strict=True)),
            "ess": {p: n / t for p, t in zip(names, tau.tolist(), strict=True)},
            "rhat": dict(zip(names, rhat.tolist(), strict=True)), "n_steps": steps, "walkers": walkers}


#: R-1 between chains below which they count as converged (Cobaya's usual stopping value is 0.01; 0.02 is
#: the common reading threshold for chains already run)
RMINUS1_MAX = 0.02


def _gelman_rubin(chains: list[np.ndarray], weights: list[np.ndarray], names: list[str]) -> dict[str, Any]:
    """GetDist's R-1 between several chains: all parameters together and each alone."""
    from cmbagent.tools.methods.cosmology._plots import getdist_samples

    pooled = getdist_samples(chains, names, weights=weights)
    per = {}
    for j, name in enumerate(names):
        single = getdist_samples([c[:, [j]] for c in chains], [name], weights=weights)
        per[name] = float(single.getGelmanRubin())
    return {"rminus1": float(pooled.getGelmanRubin()), "per_parameter": per, "n_chains": len(chains),
            "method": "GetDist MCSamples.getGelmanRubin"}


@method(
    "cosmology.summarize_chain",
    paper=PANTHEON_PLUS,
    keywords=["chain", "MCMC chain", "posterior summary", "CosmoSIS", "GetDist", "published chain"],
    example='summarize_chain(chain="Pantheon+only_FlatLambdaCDM_chain.txt.gz", burn_in_fraction=0.25)',
)
def summarize_chain(
    chain: InputFile,
    burn_in_fraction: float = 0.25,
    parameters: list[str] | None = None,
    more_chains: list[InputFile] | None = None,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Summarise an MCMC chain file (mean, std, 68%/95% intervals) with the same code as our own fits.

    Reads a text or gzip chain whose columns are named in a header line (CosmoSIS '#section--name',
    GetDist-style or plain), drops the first burn_in_fraction of the rows, uses a weight column when
    present, and writes a GetDist triangle plot.  Parameter names are normalised (omega_m -> Omega_m, h0 -> h,
    supernova M -> M).  With more_chains (independent chains of the same run), the summary pools every
    chain and GetDist's Gelman-Rubin R-1 between them (the largest eigenvalue of the between-chain variance
    of the means over the within-chain covariance) says whether they agree.

    Args:
        chain: Path of the chain file (text or .gz).
        burn_in_fraction: Fraction of rows dropped from the start as burn-in (of every chain).
        parameters: Parameters to summarise (default: every non-bookkeeping column).
        more_chains: Paths of further chains of the same parameters, for R-1 between chains.
        output_dir: Folder for the triangle plot.
    """
    loaded = load_chain(chain, burn_in_fraction)
    names = list(loaded.names)
    wanted = parameters or names
    missing = [p for p in wanted if p not in names]
    if missing:
        raise UserError(f"parameter(s) {', '.join(missing)} not in the chain; it has {', '.join(names)}")
    cols = [names.index(p) for p in wanted]
    samples = loaded.samples[:, cols]
    rminus1: dict[str, Any] = {}
    if more_chains:
        parts, weights = [samples], [loaded.weights if loaded.weights is not None else np.ones(samples.shape[0])]
        for other in more_chains:
            extra = load_chain(other, burn_in_fraction)
            absent = [p for p in wanted if p not in extra.names]
            if absent:
                raise UserError(f"chain {Path(other).name} lacks {', '.join(absent)}; every chain must have the "
                                "summarised parameters")
            parts.append(extra.samples[:, [list(extra.names).index(p) for p in wanted]])
            weights.append(extra.weights if extra.weights is not None else np.ones(parts[-1].shape[0]))
        rminus1 = _gelman_rubin(parts, weights, wanted)
        samples = np.concatenate(parts)
        pooled_weights: np.ndarray | None = np.concatenate(weights)
        loaded = replace(loaded, weights=pooled_weights if pooled_weights is not None and np.ptp(pooled_weights) > 0
                         else None)
    values: dict[str, Any] = dict(summarize_samples(samples, wanted, loaded.weights))
    n = samples.shape[0]
    n_eff = n if loaded.weights is None else float(loaded.weights.sum() ** 2 / np.sum(loaded.weights**2))
    values["n_samples"] = n
    from cmbagent.tools.methods.cosmology._plots import corner_plot

    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    artifacts: list[str] = []
    if n > len(wanted):
        stem = Path(chain).name.split(".")[0]
        artifacts.append(str(corner_plot(samples, wanted, out / f"{stem}_corner.png", weights=loaded.weights)))
    checks = [
        Check(name="enough_samples", passed=n_eff >= 1000,
              message=f"{n} samples after dropping {loaded.n_dropped} of {loaded.n_total} rows as burn-in "
                      f"(weighted sample size {n_eff:.0f})"),
        Check(name="finite_values", passed=bool(np.all(np.isfinite(samples))),
              message="all sample values finite" if np.all(np.isfinite(samples)) else "chain contains NaN/inf"),
    ]
    if rminus1:
        checks.append(Check(name="convergence_rminus1_between_chains", passed=rminus1["rminus1"] < RMINUS1_MAX,
                            message=f"GetDist R-1 between {rminus1['n_chains']} chains = {rminus1['rminus1']:.4f} "
                                    f"(threshold {RMINUS1_MAX}; per-parameter " + ", ".join(
                                        f"{p} {v:.4f}" for p, v in rminus1["per_parameter"].items()) + ")"))
    quoted = "; ".join(f"{p} = {_fmt(values[p]['mean'], values[p]['std'])}" for p in wanted)
    summary = (f"Chain {Path(chain).name}: {n} samples after dropping the first {100 * burn_in_fraction:.0f}% "
               f"({loaded.n_dropped} rows); {quoted}.")
    if rminus1:
        summary += f" {rminus1['n_chains']} chains pooled; GetDist R-1 between them {rminus1['rminus1']:.4f}."
    diagnostics = {"columns": list(loaded.raw_names), "parameters": names, "weighted": loaded.weights is not None,
                   "n_total": loaded.n_total, "n_dropped": loaded.n_dropped, "chain_source": "file",
                   **chain_convergence(samples, wanted, loaded.weights, n_eff, loaded.walkers)}
    if rminus1:
        diagnostics["between_chains"] = rminus1
    return MethodResult(summary=summary, values=values, diagnostics=diagnostics, checks=checks, artifacts=artifacts)
