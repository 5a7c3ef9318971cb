"""In-context learning of full Bayesian posteriors (Reuter et al., arXiv 2501.16825).

A transformer encoder reads a whole data set (one token per observation, no positions: the data are
exchangeable) and summarises it; a conditional flow-matching decoder turns Gaussian noise into samples of
the latent parameters θ given that summary.  Both are trained together on simulated (θ, data) pairs from a
model family's prior and simulator, by conditional flow matching: for θ₀ ~ N(0, I), t ~ U(0, 1) and
θ_t = (1 − t)θ₀ + tθ₁ the velocity field v(θ_t, t, summary) regresses θ₁ − θ₀.  Integrating dθ/dt = v from
t = 0 to 1 then samples the posterior p(θ | data) of the *trained family*: the network is amortised, one
forward pass per data set.

The tool trains (or loads from ``cache_dir``) the network for a named family, applies it to a user's data and
compares its marginals with the exact posterior (conjugate linear regression) or an MCMC reference (emcee).
"""

from __future__ import annotations

import math
import time
from typing import Any, Literal

import numpy as np
import torch
from torch import nn

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods.bayes._io import (
    check_positive,
    load_or_train,
    output_path,
    pyplot,
    read_xy,
    savefig,
    set_threads,
    warmup_cosine_adamw,
)
from cmbagent.tools.methods.bayes._simulators import FAMILIES, ModelFamily, mcmc_posterior

__all__ = ["InContextPosterior", "icl_posterior", "train_icl"]

PAPER = Paper(
    title="Can Transformers Learn Full Bayesian Inference in Context?",
    arxiv="2501.16825",
    authors="Arik Reuter, Tim G. J. Rudner, Vincent Fortuin, David Rügamer",
    year=2025,
    code="ArikReuter/ICL_for_Full_Bayesian_Inference",
)
Family = Literal["linear_regression", "logistic_regression", "gaussian_mixture_1d"]


class InContextPosterior(nn.Module):
    """Transformer summary of a data set + a flow-matching velocity field for the parameters."""

    def __init__(self, columns: int, n_params: int, *, width: int = 32, layers: int = 1, heads: int = 2):
        super().__init__()
        self.n_params = n_params
        self.embed = nn.Linear(columns, width)
        layer = nn.TransformerEncoderLayer(width, heads, 2 * width, dropout=0.0, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.pool = nn.Sequential(nn.LayerNorm(width + 1), nn.Linear(width + 1, width), nn.GELU(),
                                  nn.Linear(width, width))
        self.velocity = nn.Sequential(nn.Linear(n_params + 8 + width, 2 * width), nn.GELU(),
                                      nn.Linear(2 * width, 2 * width), nn.GELU(),
                                      nn.Linear(2 * width, 2 * width), nn.GELU(), nn.Linear(2 * width, n_params))

    def summarise(self, data: torch.Tensor) -> torch.Tensor:
        """(batch, n, columns) → (batch, width): mean over the encoded observations, with log n."""
        h = self.encoder(self.embed(data)).mean(dim=1)
        log_n = torch.full_like(h[:, :1], math.log(data.shape[1]))
        return self.pool(torch.cat([h, log_n / 4], dim=-1))

    def field(self, theta: torch.Tensor, t: torch.Tensor, summary: torch.Tensor) -> torch.Tensor:
        freqs = torch.arange(1, 5, dtype=theta.dtype) * math.pi
        t_embed = torch.cat([torch.sin(t[:, None] * freqs), torch.cos(t[:, None] * freqs)], dim=-1)
        return self.velocity(torch.cat([theta, t_embed, summary], dim=-1))

    @torch.no_grad()
    def sample(self, data: torch.Tensor, n_samples: int, *, steps: int = 40,
               generator: torch.Generator | None = None) -> torch.Tensor:
        """Posterior samples (n_samples, n_params) for one data set (1, n, columns), by the midpoint rule."""
        summary = self.summarise(data).expand(n_samples, -1)
        theta = torch.randn(n_samples, self.n_params, generator=generator)
        dt = 1.0 / steps
        for k in range(steps):
            t = torch.full((n_samples,), k * dt)
            half = theta + 0.5 * dt * self.field(theta, t, summary)
            theta = theta + dt * self.field(half, t + 0.5 * dt, summary)
        return theta


def train_icl(net: InContextPosterior, family: ModelFamily, *, steps: int, batch: int, n_min: int, n_max: int,
              seed: int, repeats: int = 32, lr: float = 3e-3) -> list[float]:
    """Conditional flow matching on simulated (θ, data) pairs; each encoded data set is reused for ``repeats``
    (θ₀, t) draws, since decoding is far cheaper than encoding."""
    gen = torch.Generator().manual_seed(seed)
    opt, sched = warmup_cosine_adamw(net, steps=steps, lr=lr)
    history: list[float] = []
    net.train()
    for _ in range(steps):
        n = int(torch.randint(n_min, n_max + 1, (1,), generator=gen))
        theta = family.sample_parameters(batch, gen)
        data = family.simulate(theta, n, gen)
        summary = net.summarise(data).repeat(repeats, 1)
        target = (theta / family.prior_std).repeat(repeats, 1)
        noise = torch.randn(target.shape, generator=gen)
        t = torch.rand(len(target), generator=gen)
        theta_t = (1 - t[:, None]) * noise + t[:, None] * target
        loss = ((net.field(theta_t, t, summary) - (target - noise)) ** 2).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        sched.step()
        history.append(float(loss.detach()))
    return history


def trained_network(family: ModelFamily, *, n_min: int, n_max: int, train_steps: int, batch_size: int,
                    width: int, seed: int, cache_dir: str | None) -> Any:
    settings = {"family": family.name, "n_features": family.n_features, "prior_std": family.prior_std,
                "noise_std": family.noise_std, "n_min": n_min, "n_max": n_max, "steps": train_steps,
                "batch": batch_size, "width": width, "seed": seed, "layers": 1, "heads": 2, "repeats": 32,
                "version": 1}
    torch.manual_seed(seed)
    return load_or_train(
        "icl", settings, lambda: InContextPosterior(family.columns, family.n_params, width=width),
        lambda net: train_icl(net, family, steps=train_steps, batch=batch_size, n_min=n_min, n_max=n_max,
                              seed=seed),
        cache_dir=cache_dir)


def posterior_samples(net: InContextPosterior, family: ModelFamily, data: np.ndarray, n_samples: int,
                      seed: int) -> np.ndarray:
    gen = torch.Generator().manual_seed(seed)
    tensor = torch.as_tensor(data, dtype=torch.float32)[None]
    return net.sample(tensor, n_samples, generator=gen).numpy().astype(float) * family.prior_std


def _summaries(samples: np.ndarray, names: list[str]) -> dict[str, dict[str, float]]:
    out = {}
    for i, name in enumerate(names):
        col = samples[:, i]
        lo, hi = np.quantile(col, [0.16, 0.84])
        lo90, hi90 = np.quantile(col, [0.05, 0.95])
        out[name] = {"mean": float(col.mean()), "std": float(col.std(ddof=1)), "lower_68": float(lo),
                     "upper_68": float(hi), "lower_90": float(lo90), "upper_90": float(hi90)}
    return out


def _load_data(family: ModelFamily, data: str, target: str, columns: list[str] | None) -> tuple[np.ndarray,
                                                                                              dict[str, Any]]:
    if family.name == "gaussian_mixture_1d":
        x, y, _ = read_xy(data, argument="data", columns=[target], target=target)
        return y[:, None], {"columns": [target]}
    x, y, names = read_xy(data, argument="data", columns=columns, target=target)
    if x.shape[1] != family.n_features:
        raise UserError(f"n_features: the data have {x.shape[1]} input column(s) {names} but n_features is "
                        f"{family.n_features}; set n_features to {x.shape[1]} or pick columns")
    if family.name == "logistic_regression" and not np.isin(y, (0.0, 1.0)).all():
        raise DataError(f"data: the target {target!r} of a logistic regression must be 0 or 1")
    mean, std = x.mean(0), x.std(0)
    if (std == 0).any():
        raise DataError(f"data: input column(s) {[n for n, s in zip(names, std, strict=True) if s == 0]} are constant")
    return np.hstack([(x - mean) / std, y[:, None]]), {"columns": names, "x_mean": mean.tolist(),
                                                       "x_std": std.tolist()}


@method(
    "bayes.icl_posterior",
    paper=PAPER,
    keywords=["in-context learning", "full Bayesian inference", "amortized posterior", "flow matching",
              "transformer", "simulation-based inference", "posterior sampling", "Bayesian linear regression",
              "logistic regression", "Gaussian mixture", "credible intervals"],
    example="icl_posterior(family='linear_regression', data='data/regression.csv', target='y', seed=0)",
)
def icl_posterior(
    family: Family = "linear_regression",
    data: InputFile | None = None,
    target: str = "y",
    columns: list[str] | None = None,
    n_features: int = 1,
    prior_std: float = 1.0,
    noise_std: float = 1.0,
    n_min: int = 10,
    n_max: int = 60,
    train_steps: int = 1500,
    batch_size: int = 64,
    width: int = 32,
    n_samples: int = 2000,
    seed: int = 0,
    cache_dir: OutputDir | None = "models",
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Posterior of a model family's parameters from a transformer + flow-matching network trained in context.

    Families (inputs are standardised to mean 0, sd 1 column by column; parameters refer to them):
    ``linear_regression`` y = b + x·w + N(0, noise_std²) with b, w ~ N(0, prior_std²) (conjugate: compared with
    the exact posterior); ``logistic_regression`` y ~ Bernoulli(σ(b + x·w)); ``gaussian_mixture_1d``
    y ~ ½N(μ₁, 1) + ½N(μ₂, 1), μ ~ N(0, prior_std²), μ₁ ≤ μ₂ (both compared with MCMC). Without data, one
    data set of 30 observations is simulated from the family with known parameters.

    Args:
        family: The model family.
        data: CSV/TSV with the input columns and the response (for the mixture, just the response column).
        target: The response column.
        columns: Input columns (default: every column except the target).
        n_features: Number of inputs of a regression family.
        prior_std: Prior standard deviation of every parameter.
        noise_std: Noise standard deviation of linear regression (in the response's units).
        n_min: Smallest data-set size seen in training.
        n_max: Largest data-set size seen in training (the data may not have more rows).
        train_steps: Optimiser steps of training.
        batch_size: Simulated data sets per step.
        width: Network width.
        n_samples: Posterior samples drawn.
        seed: Random seed (training, sampling, the simulated data set).
        cache_dir: Folder of trained networks (reused when the settings match); None to always train.
        output_dir: Folder for the figure and the samples (.npz).
    """
    set_threads()
    if family not in FAMILIES:
        raise UserError(f"family: unknown model family {family!r}; choose from {', '.join(FAMILIES)}")
    for value, name in ((prior_std, "prior_std"), (noise_std, "noise_std")):
        check_positive(value, argument=name)
    for value, name in ((n_features, "n_features"), (n_min, "n_min"), (n_max, "n_max"),
                        (train_steps, "train_steps"), (batch_size, "batch_size"), (width, "width"),
                        (n_samples, "n_samples")):
        check_positive(value, argument=name, integer=True)
    if n_features > 8:
        raise UserError(f"n_features: at most 8 inputs are supported, got {n_features}")
    if n_min > n_max:
        raise UserError(f"n_min: must not exceed n_max ({n_min} > {n_max})")
    fam = ModelFamily(family, n_features=n_features, prior_std=prior_std, noise_std=noise_std)
    truth: np.ndarray | None = None
    if data is not None:
        values_data, meta = _load_data(fam, data, target, columns)
        source = f"{data} ({len(values_data)} rows)"
    else:
        gen = torch.Generator().manual_seed(seed + 7)
        theta = fam.sample_parameters(1, gen)
        values_data = fam.simulate(theta, 30, gen)[0].numpy().astype(float)
        truth, meta = theta[0].numpy().astype(float), {"columns": "simulated"}
        source = "a data set of 30 observations simulated from the family"
    if not n_min <= len(values_data) <= n_max:
        raise UserError(f"n_max: the data have {len(values_data)} rows but the network is trained on data sets of "
                        f"{n_min}–{n_max}; set n_min/n_max to include {len(values_data)} (or subsample the rows)")
    trained = trained_network(fam, n_min=n_min, n_max=n_max, train_steps=train_steps, batch_size=batch_size,
                              width=width, seed=seed, cache_dir=cache_dir)
    start = time.perf_counter()
    samples = posterior_samples(trained.net, fam, values_data, n_samples, seed)
    sample_seconds = time.perf_counter() - start
    names = fam.parameter_names
    exact = fam.exact_posterior(values_data)
    if exact is not None:
        ref_kind = "exact posterior"
        mean, cov = exact
        reference = np.random.default_rng(seed).multivariate_normal(mean, cov, size=n_samples)
    else:
        ref_kind = "MCMC (emcee)"
        ref_start = time.perf_counter()
        reference = mcmc_posterior(fam, values_data, n_samples=n_samples, seed=seed)
        meta["mcmc_seconds"] = time.perf_counter() - ref_start
    icl = _summaries(samples, names)
    ref = _summaries(reference, names)
    sd_ratio = {n: icl[n]["std"] / ref[n]["std"] for n in names}
    shift = {n: abs(icl[n]["mean"] - ref[n]["mean"]) / ref[n]["std"] for n in names}
    npz = output_path(output_dir, "icl_posterior_samples.npz")
    np.savez(npz, samples=samples, reference=reference, names=np.array(names))
    figure = _plot(output_path(output_dir, "icl_posterior.png"), samples, reference, names, ref_kind, truth)
    values: dict[str, Any] = {"posterior": icl, "reference": ref, "sd_ratio": sd_ratio,
                              "mean_shift_in_sd": shift}
    if truth is not None:
        values["true_parameters"] = dict(zip(names, truth.tolist(), strict=True))
    checks = [
        Check(name="posterior width matches the reference", passed=all(0.8 <= r <= 1.2 for r in sd_ratio.values()),
              message="sd ratio ICL / " + ref_kind + ": " + ", ".join(f"{n} {r:.2f}" for n, r in sd_ratio.items())),
        Check(name="posterior location matches the reference", passed=all(s <= 0.5 for s in shift.values()),
              message="|mean difference| in reference sd: " + ", ".join(f"{n} {s:.2f}" for n, s in shift.items())),
        Check(name="samples finite", passed=bool(np.isfinite(samples).all()), message=f"{len(samples)} samples"),
    ]
    summary = (f"In-context posterior for the {family.replace('_', ' ')} family on {source}: "
               + "; ".join(f"{n} = {icl[n]['mean']:.3f} ± {icl[n]['std']:.3f} (68% [{icl[n]['lower_68']:.3f}, "
                           f"{icl[n]['upper_68']:.3f}])" for n in names)
               + f". Against the {ref_kind}: sd ratios " + ", ".join(f"{r:.2f}" for r in sd_ratio.values())
               + (". The network was loaded from cache." if trained.cached else "."))
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[figure, str(npz)],
                        diagnostics={**trained.describe(), "sample_seconds": sample_seconds, "data": meta,
                                     "reference": ref_kind})


def _plot(path: Any, samples: np.ndarray, reference: np.ndarray, names: list[str], ref_kind: str,
          truth: np.ndarray | None) -> str:
    plt = pyplot()
    k = len(names)
    fig, axes = plt.subplots(1, k, figsize=(3.2 * k, 3), squeeze=False)
    for i, ax in enumerate(axes[0]):
        lo = min(samples[:, i].min(), reference[:, i].min())
        hi = max(samples[:, i].max(), reference[:, i].max())
        bins = np.linspace(lo, hi, 50)
        ax.hist(reference[:, i], bins=bins, density=True, alpha=0.5, label=ref_kind)
        ax.hist(samples[:, i], bins=bins, density=True, histtype="step", lw=1.5, label="in-context (ICL)")
        if truth is not None:
            ax.axvline(truth[i], color="k", ls="--", lw=1, label="true value")
        ax.set_xlabel(names[i])
        ax.set_ylabel("posterior density")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("In-context posterior vs reference", fontsize=10)
    return savefig(fig, path)
