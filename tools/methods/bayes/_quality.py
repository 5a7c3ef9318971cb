"""Checks of a variational fit that need no exact answer: importance weights of the target against q
(effective sample size and the Pareto-k̂ of their tail) and a short MCMC run on the target started from q.

Pareto-k̂ (Vehtari, Simpson, Gelman, Yao, Gabry, "Pareto smoothed importance sampling", JMLR 2024; Yao et al.,
"Yes, but did it work?", ICML 2018): fit a generalised Pareto distribution to the largest importance ratios
p(z)/q(z), z ~ q.  k̂ < 0.5: q is good; 0.5–0.7: usable; > 0.7: the ratios have (near) infinite variance —
q misses mass of p, and importance-weighted or variational estimates are not to be trusted.  The GPD fit is
the profile empirical-Bayes estimator of Zhang & Stephens (Technometrics 2009) with the weak prior of the
PSIS paper; we write its few lines rather than add ArviZ (not installed here) for one function.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["importance_diagnostics", "mcmc_comparison", "pareto_k"]

K_GOOD, K_BAD = 0.5, 0.7


def pareto_k(log_ratios: np.ndarray) -> float:
    """k̂ of the largest M = min(n/5, 3√n) importance ratios (computed on log ratios, shifted by their max)."""
    lw = np.sort(np.asarray(log_ratios, dtype=float))
    n = len(lw)
    m = int(min(n / 5, 3 * math.sqrt(n)))
    if m < 5:
        return math.nan
    tail = np.exp(lw[-m:] - lw[-1])
    threshold = math.exp(lw[-m - 1] - lw[-1])
    excess = tail - threshold
    if not np.any(excess > 0):
        return math.nan
    k, _ = _gpd_fit(excess)
    return float(k)


def _gpd_fit(x: np.ndarray) -> tuple[float, float]:
    """Zhang–Stephens estimate of the generalised Pareto shape k and scale σ of exceedances x > 0."""
    x = np.sort(x)
    n = len(x)
    prior = 3
    m = 30 + int(math.sqrt(n))
    quartile = x[int(n / 4 + 0.5) - 1]
    b = 1 / x[-1] + (1 - np.sqrt(m / (np.arange(1, m + 1) - 0.5))) / prior / quartile
    k_b = np.log1p(-b[:, None] * x).mean(axis=1)
    log_lik = n * (np.log(-b / k_b) - k_b - 1)
    weights = 1 / np.exp(log_lik - log_lik[:, None]).sum(axis=1)
    b_post = float((b * weights).sum())
    k = float(np.log1p(-b_post * x).mean())
    sigma = -k / b_post
    k = (n * k + 10 * 0.5) / (n + 10)  # the PSIS paper's weak prior towards 0.5
    return k, sigma


def importance_diagnostics(log_p: np.ndarray, log_q: np.ndarray) -> dict[str, float]:
    """Pareto-k̂ and the relative effective sample size of the weights p/q for draws z ~ q."""
    lw = np.asarray(log_p, dtype=float) - np.asarray(log_q, dtype=float)
    w = np.exp(lw - lw.max())
    ess = float(w.sum() ** 2 / (w**2).sum())
    return {"pareto_k": pareto_k(lw), "ess_fraction": ess / len(lw), "n": len(lw)}


def mcmc_comparison(log_prob: Callable[[np.ndarray], np.ndarray], start: np.ndarray, *, steps: int, seed: int,
                    walkers: int | None = None) -> dict[str, Any]:
    """A short emcee run on the target from ``start`` (draws of q, one per walker): its means, sds, Monte
    Carlo standard errors (from the integrated autocorrelation time) and whether the chain is long enough
    (≥ 50 τ)."""
    import emcee

    dim = start.shape[1]
    walkers = walkers or max(32, 2 * dim + 2)
    rng = np.random.default_rng(seed)
    init = start[rng.choice(len(start), walkers, replace=False)]
    sampler = emcee.EnsembleSampler(walkers, dim, log_prob, vectorize=True)
    sampler.random_state = np.random.RandomState(seed).get_state()
    sampler.run_mcmc(init, steps, progress=False)
    burn = steps // 3
    chain = sampler.get_chain(discard=burn)
    tau = np.asarray(sampler.get_autocorr_time(discard=burn, quiet=True), dtype=float)
    flat = chain.reshape(-1, dim)
    ess = np.maximum(chain.shape[0] * walkers / np.maximum(tau, 1.0), 1.0)
    sd = flat.std(0, ddof=1)
    return {"mean": flat.mean(0), "sd": sd, "mcse_mean": sd / np.sqrt(ess), "ess": ess, "tau": tau,
            "long_enough": bool((chain.shape[0] >= 50 * tau).all()), "steps": steps, "walkers": walkers}
