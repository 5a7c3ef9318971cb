"""AISIVI — "Revisiting Unbiased Implicit Variational Inference" (Pielok, Bischl, Rügamer, ICML 2025,
arXiv 2506.03839): UIVI with its inner MCMC loop replaced by importance sampling.

A semi-implicit family q(z) = E_ε N(z; μ(ε), diag σ(ε)²) is expressive but has no closed-form density, so
the reverse KL cannot be evaluated directly.  Its *path gradient* only needs the score:
∇_θ KL(q‖p) = E[(∇_z log q(z) − ∇_z log p(z))ᵀ ∂z/∂θ].  The score of q is an expectation over the posterior of
the mixing variable, ∇ log q(z) = E_{q(ε|z)}[∇_z log q(z | ε)], which AISIVI estimates by self-normalised
importance sampling with a learned proposal τ(ε | z) — a conditional normalising flow trained by forward
KL on the (ε, z) pairs that q itself generates (they are exact samples of q(ε | z) q(z)).  Where UIVI runs an
inner MCMC chain per z, one batch of proposal draws suffices.

The tool fits q to a named target (or a logistic-regression posterior on a table, or a user's log density),
and reports an ELBO estimate, a standard-error estimate of the importance-sampled score, sample moments, and
where exact samples exist the MMD to them against a permutation null.  It writes samples (.npz) and a pair
plot.

Speed (issue 34): against UIVI's inner loop (HMC on q(ε | z)) at equal score error, AISIVI falls short of the
3x target at the sizes of the paper's experiments; ``SPEED_RATIOS`` holds the ratios measured with
``bench/bayes.py aisivi``, and every result states them as a ``method.known_shortfall`` finding.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import torch

from cmbagent.exceptions import UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodFinding, MethodResult, Paper, method
from cmbagent.tools.methods.bayes._flows import ConditionalFlow, SemiImplicit
from cmbagent.tools.methods.bayes._io import (
    check_positive,
    file_digest,
    load_or_train,
    output_path,
    pyplot,
    read_xy,
    savefig,
    set_threads,
)
from cmbagent.tools.methods.bayes._quality import K_BAD, importance_diagnostics, mcmc_comparison
from cmbagent.tools.methods.bayes._targets import (
    Target,
    builtin_target,
    check_design,
    evaluate,
    logreg_target,
    user_target,
)

__all__ = ["AISIVI", "aisivi", "exact_score", "fit_proposal", "mmd_test", "score"]

PAPER = Paper(
    title="Revisiting Unbiased Implicit Variational Inference",
    arxiv="2506.03839",
    authors="Tobias Pielok, Bernd Bischl, David Rügamer",
    year=2025,
    code="tpielok/AISIVI",
)


#: issue 34's decision: AISIVI's speed is measured against UIVI's inner loop (HMC on q(ε | z)) at equal score
#: error in the paper's own settings, and where it does not win every result says so.  CPU-time ratios UIVI /
#: AISIVI (K = 32, with its τ update) from two runs of ``bench/bayes.py aisivi`` (linear-Gaussian q, whose score
#: is exact; one thread), by the steps τ was trained for: the paper's pre-training (num_epochs_flow) and its
#: total (pre-training + one step per iteration of q).  "exact proposal": importance sampling from the exact
#: q(ε | z), the most any τ can give at K = 32 (one run).
SPEED_RATIOS: dict[str, dict[str, tuple[float, float]]] = {
    "Bayesian logistic regression size (z 22-d, ε 10-d)": {
        "τ 500 steps": (1.8, 1.9), "τ 10,500 steps": (2.7, 2.8), "exact proposal": (2.7, 2.7)},
    "conditioned diffusion process size (z and ε 100-d)": {
        "τ 2,000 steps": (0.8, 0.9), "τ 12,000 steps": (2.0, 2.2), "exact proposal": (3.8, 3.8)},
    "5-d toy (not from the paper)": {
        "τ 600 steps": (1.1, 1.2), "τ 6,000 steps": (1.3, 1.6), "exact proposal": (1.3, 1.3)},
}


def _ratios_text() -> str:
    def one(low: float, high: float) -> str:
        return f"{low:.1f}x" if low == high else f"{low:.1f}-{high:.1f}x"

    return "; ".join(f"{setting}: " + ", ".join(f"{one(*r)} ({budget})" for budget, r in by.items())
                     for setting, by in SPEED_RATIOS.items())


SPEED_SHORTFALL = MethodFinding(
    code="method.known_shortfall",
    message="against UIVI's inner-loop MCMC at equal score error AISIVI (K = 32, with its τ update) was short of the "
            "3x speed target in every setting measured (at 22-d even with the exact proposal), and slower than "
            "UIVI at 100-d after the paper's 2,000 τ pre-training steps. CPU-time ratios UIVI/AISIVI: "
            f"{_ratios_text()}",
    evidence={"bench": "bench/bayes.py aisivi", "target_ratio": 3.0, "n_proposal": 32,
              "ratios": {setting: {budget: list(r) for budget, r in by.items()} for setting, by in SPEED_RATIOS.items()}},
    settle="AISIVI's speed rests on how well τ has learned q(ε | z): at 100-d its score error at K = 32 was 3.6x "
           "the exact-proposal floor after 2,000 τ steps and 1.8x after 12,000. Where score error matters in high "
           "dimension, train longer or raise n_proposal; where q(ε | z) is near-Gaussian and low-dimensional, "
           "UIVI's HMC loop is about as fast.",
)


class _Model(torch.nn.Module):
    def __init__(self, dim: int, noise_dim: int, hidden: int, kernel: str):
        super().__init__()
        self.q = SemiImplicit(dim, noise_dim, hidden=hidden, kernel=kernel)
        self.tau = ConditionalFlow(noise_dim, dim, hidden=hidden)


class AISIVI:
    """The estimator (scikit-learn contract: parameters stored as given, fitted attributes end in ``_``).

    Args:
        noise_dim: dimension of the mixing variable ε (default: the target's dimension).
        hidden: width of the MLPs of q and τ.
        kernel: ``mlp`` (μ(ε), σ(ε) from an MLP) or ``linear`` (μ = Aε + b, constant σ: q is Gaussian).
        n_proposal: importance samples K per z for the score.
        steps, batch, lr: optimisation of q (and of τ, one step each per iteration).
        random_state: seed of every draw.
    """

    def __init__(self, *, noise_dim: int | None = None, hidden: int = 64, kernel: str = "mlp",
                 n_proposal: int = 16, steps: int = 800, batch: int = 64, lr: float = 5e-3,
                 random_state: int = 0):
        self.noise_dim = noise_dim
        self.hidden = hidden
        self.kernel = kernel
        self.n_proposal = n_proposal
        self.steps = steps
        self.batch = batch
        self.lr = lr
        self.random_state = random_state

    def build(self, dim: int) -> _Model:
        if self.kernel not in ("mlp", "linear"):
            raise UserError(f"kernel: must be 'mlp' or 'linear', got {self.kernel!r}")
        torch.manual_seed(self.random_state)
        return _Model(dim, self.noise_dim or dim, self.hidden, self.kernel)

    def train(self, model: _Model, target: Target) -> list[float]:
        """Alternate a forward-KL step of τ and a path-gradient reverse-KL step of q; returns the surrogate
        loss history (E[(ŝ − ∇log p)·z], whose gradient is the KL's)."""
        gen = torch.Generator().manual_seed(self.random_state)
        opt_q = torch.optim.Adam(model.q.parameters(), lr=self.lr)
        opt_tau = torch.optim.Adam(model.tau.parameters(), lr=self.lr)
        decay = torch.optim.lr_scheduler.CosineAnnealingLR(opt_q, self.steps, eta_min=self.lr / 20)
        history: list[float] = []
        for _ in range(self.steps):
            z, eps = model.q.sample(self.batch, gen)
            tau_loss = -model.tau.log_prob(eps, z.detach()).mean()
            opt_tau.zero_grad(set_to_none=True)
            tau_loss.backward()
            opt_tau.step()
            with torch.no_grad():
                score_q = score(model.q, model.tau, z.detach(), self.n_proposal, gen)[0]
            score_p = target_score(target, z.detach())
            surrogate = ((score_q - score_p) * z).sum(-1).mean()
            opt_q.zero_grad(set_to_none=True)
            surrogate.backward()
            torch.nn.utils.clip_grad_norm_(model.q.parameters(), 10.0)
            opt_q.step()
            decay.step()
            history.append(float(tau_loss.detach()))
        return history


def fit_proposal(q: SemiImplicit, *, steps: int = 1500, batch: int = 256, hidden: int = 64, lr: float = 3e-3,
                 seed: int = 0) -> ConditionalFlow:
    """Train τ(ε | z) for a fixed q by forward KL: maximum likelihood on (ε, z) pairs drawn from q."""
    gen = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    tau = ConditionalFlow(q.noise_dim, q.dim, hidden=hidden)
    opt = torch.optim.Adam(tau.parameters(), lr=lr)
    decay = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps, eta_min=lr / 30)
    for _ in range(steps):
        with torch.no_grad():
            z, eps = q.sample(batch, gen)
        loss = -tau.log_prob(eps, z).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        decay.step()
    return tau.eval()


def target_score(target: Target, z: torch.Tensor) -> torch.Tensor:
    """∇_z log p(z), refusing non-finite values with the argument's name."""
    z = z.detach().requires_grad_(True)
    with torch.enable_grad():
        logp = evaluate(target, z)
        (grad,) = torch.autograd.grad(logp.sum(), z)
    if not bool(torch.isfinite(grad).all()):
        raise UserError(f"{target.argument}: the gradient of log_prob is not finite at some z; the density must "
                        "be differentiable where it is positive")
    return grad


def score(q: SemiImplicit, tau: ConditionalFlow | None, z: torch.Tensor, k: int,
          gen: torch.Generator | None = None, proposal: str = "learned") -> tuple[torch.Tensor, torch.Tensor]:
    """Self-normalised importance-sampling estimate of ∇ log q(z) with K draws per z, and its per-z
    delta-method variance Σ_k w̄_k² ‖f_k − ŝ‖².

    ``proposal``: ``learned`` (τ), ``prior`` (N(0, I): the naive choice) or ``exact`` (q(ε | z), only for the
    linear kernel, where it is Gaussian).
    """
    if proposal == "learned":
        if tau is None:
            raise UserError("proposal: the learned proposal needs a trained τ")
        eps, log_tau = tau.sample(z, k, gen)
    elif proposal == "prior":
        eps = torch.randn(z.shape[0], k, q.noise_dim, generator=gen)
        log_tau = _std_normal(eps)
    elif proposal == "exact":
        mean, chol = exact_conditional(q, z)
        eps = mean.unsqueeze(1) + torch.randn(z.shape[0], k, q.noise_dim, generator=gen) @ chol.T
        log_tau = torch.distributions.MultivariateNormal(mean.unsqueeze(1), scale_tril=chol).log_prob(eps)
    else:
        raise UserError(f"proposal: must be 'learned', 'prior' or 'exact', got {proposal!r}")
    logq, grad = q.log_conditional(z, eps)
    w = torch.softmax(logq + _std_normal(eps) - log_tau, dim=1)
    estimate = (w.unsqueeze(-1) * grad).sum(1)
    variance = (w**2 * ((grad - estimate.unsqueeze(1)) ** 2).sum(-1)).sum(1)
    return estimate, variance


def _std_normal(eps: torch.Tensor) -> torch.Tensor:
    return -0.5 * (eps**2).sum(-1) - 0.5 * eps.shape[-1] * math.log(2 * math.pi)


def exact_conditional(q: SemiImplicit, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean (batch, noise_dim) and Cholesky factor of q(ε | z) for the linear kernel."""
    a, b, s2 = q.exact()
    precision = torch.eye(q.noise_dim) + a.T @ (a / s2[:, None])
    cov = torch.linalg.inv(precision)
    mean = ((z - b) / s2) @ a @ cov
    return mean, torch.linalg.cholesky(cov)


def exact_score(q: SemiImplicit, z: torch.Tensor) -> torch.Tensor:
    """∇ log q(z) = −(AAᵀ + diag σ²)⁻¹ (z − b) for the linear kernel."""
    a, b, s2 = q.exact()
    return -torch.linalg.solve(a @ a.T + torch.diag(s2), (z - b).T).T


def log_q_estimate(model: _Model, z: torch.Tensor, k: int, gen: torch.Generator) -> torch.Tensor:
    """log q(z) ≈ log (1/K) Σ q(z | ε_k) N(ε_k) / τ(ε_k | z) (unbiased inside the log; slightly low)."""
    eps, log_tau = model.tau.sample(z, k, gen)
    logq, _ = model.q.log_conditional(z, eps)
    return torch.logsumexp(logq + _std_normal(eps) - log_tau, dim=1) - math.log(k)


def mmd_test(a: np.ndarray, b: np.ndarray, *, permutations: int = 200, seed: int = 0) -> dict[str, float]:
    """Unbiased MMD² (Gaussian kernel, median-heuristic bandwidth on the pooled sample) with its permutation null:
    the 95% quantile of MMD² under "same distribution" and the permutation p-value."""
    rng = np.random.default_rng(seed)
    pooled = np.vstack([a, b])
    d2 = ((pooled[:, None, :] - pooled[None, :, :]) ** 2).sum(-1)
    bandwidth = float(np.median(d2[np.triu_indices(len(pooled), 1)]))
    kern = np.exp(-d2 / bandwidth)
    n = len(a)

    def stat(idx: np.ndarray) -> float:
        x, y = idx[:n], idx[n:]
        kxx, kyy, kxy = kern[np.ix_(x, x)], kern[np.ix_(y, y)], kern[np.ix_(x, y)]
        m, k = len(x), len(y)
        return float((kxx.sum() - np.trace(kxx)) / (m * (m - 1)) + (kyy.sum() - np.trace(kyy)) / (k * (k - 1))
                     - 2 * kxy.mean())

    observed = stat(np.arange(len(pooled)))
    null = np.array([stat(rng.permutation(len(pooled))) for _ in range(permutations)])
    return {"mmd2": observed, "null_q95": float(np.quantile(null, 0.95)),
            "p_value": float((1 + (null >= observed).sum()) / (1 + permutations))}


@method(
    "bayes.aisivi",
    paper=PAPER,
    keywords=["AISIVI", "semi-implicit variational inference", "SIVI", "UIVI", "importance sampling",
              "score estimation", "path gradient", "normalizing flow", "variational inference", "banana",
              "funnel", "Bayesian logistic regression", "implicit variational family"],
    example="aisivi(target='banana2d', steps=800, seed=0)",
)
def aisivi(
    target: str = "banana2d",
    dim: int = 2,
    log_density: InputFile | None = None,
    data: InputFile | None = None,
    label: str = "y",
    columns: list[str] | None = None,
    prior_std: float = 1.0,
    kernel: Literal["mlp", "linear"] = "mlp",
    noise_dim: int | None = None,
    n_proposal: int = 16,
    steps: int = 800,
    batch_size: int = 64,
    hidden: int = 64,
    n_samples: int = 2000,
    seed: int = 0,
    cache_dir: OutputDir | None = "models",
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Fit a semi-implicit variational approximation with importance-sampled scores (AISIVI).

    Targets: ``banana2d``, ``funnel`` (Neal's, scale 1.5, ``dim`` dimensions) and ``linear_gaussian``
    (correlated Gaussian in ``dim`` dimensions) have exact samples and moments; ``bayes_logreg`` is the
    posterior of a logistic regression on ``data`` (inputs standardised, N(0, prior_std²) prior; compared with
    MCMC); ``log_density`` names a Python file defining ``log_prob(z: torch.Tensor) -> torch.Tensor`` (a batch
    (n, dim) to n log densities, unnormalised is fine), which then replaces ``target``.

    Args:
        target: Built-in target name, or ``bayes_logreg``.
        dim: Dimension of ``funnel``, ``linear_gaussian`` or of the user's density.
        log_density: Python file with ``log_prob(z)``; overrides target.
        data: Table for ``bayes_logreg`` (inputs and a 0/1 label column).
        label: Label column of ``data``.
        columns: Input columns of ``data`` (default: all but the label).
        prior_std: Prior standard deviation of the logistic-regression weights.
        kernel: ``mlp`` (flexible q) or ``linear`` (Gaussian q, whose exact score is then checked).
        noise_dim: Dimension of the mixing variable ε (default: dim).
        n_proposal: Importance samples per z for the score.
        steps: Optimisation steps.
        batch_size: z samples per step.
        hidden: Width of the networks.
        n_samples: Samples of q written and summarised.
        seed: Random seed.
        cache_dir: Folder of fitted models (reused when target and settings match); None to always fit.
        output_dir: Folder for the samples (.npz) and the pair plot.
    """
    set_threads()
    for value, name in ((dim, "dim"), (n_proposal, "n_proposal"), (steps, "steps"), (batch_size, "batch_size"),
                        (hidden, "hidden"), (n_samples, "n_samples")):
        check_positive(value, argument=name, integer=True)
    if noise_dim is not None:
        check_positive(noise_dim, argument="noise_dim", integer=True)
    check_positive(prior_std, argument="prior_std")
    key: dict[str, Any] = {"target": target, "dim": dim}
    reference: np.ndarray | None = None
    if log_density is not None:
        tgt = user_target(log_density, dim)
        key = {"target": "user", "dim": dim, "file": file_digest(log_density)}
    elif target == "bayes_logreg":
        if data is None:
            raise UserError("data: the bayes_logreg target needs a table with inputs and a 0/1 label column")
        x, y, names = read_xy(data, argument="data", columns=columns, target=label)
        xs, _, _ = check_design(x, y, "data")
        tgt = logreg_target(xs, y, prior_std, names)
        key = {"target": target, "file": file_digest(data), "columns": names, "label": label,
               "prior_std": prior_std}
    else:
        if target == "banana2d" and dim != 2:
            dim = 2
        if target == "funnel" and dim < 2:
            raise UserError("dim: the funnel needs at least 2 dimensions")
        tgt = builtin_target(target, dim)
        key["dim"] = tgt.dim
    estimator = AISIVI(noise_dim=noise_dim, hidden=hidden, kernel=kernel, n_proposal=n_proposal, steps=steps,
                       batch=batch_size, random_state=seed)
    settings = {**key, "kernel": kernel, "noise_dim": noise_dim, "n_proposal": n_proposal, "steps": steps,
                "batch": batch_size, "hidden": hidden, "seed": seed, "version": 1}
    trained = load_or_train("aisivi", settings, lambda: estimator.build(tgt.dim),
                            lambda model: estimator.train(model, tgt), cache_dir=cache_dir)
    model: _Model = trained.net
    gen = torch.Generator().manual_seed(seed + 1)
    with torch.no_grad():
        z, _ = model.q.sample(n_samples, gen)
        s_hat, s_var = score(model.q, model.tau, z, n_proposal, gen)
        ess = _ess(model, z[:500], n_proposal, gen)
        z_tail, _ = model.q.sample(TAIL_DRAWS, gen)
        log_q = log_q_estimate(model, z_tail, 256, gen)
    logp = evaluate(tgt, z_tail).detach()
    elbo_terms = (logp - log_q).numpy()
    samples = z.numpy().astype(float)
    values: dict[str, Any] = {
        "elbo": {"mean": float(elbo_terms.mean()), "std": float(elbo_terms.std(ddof=1) / math.sqrt(len(elbo_terms)))},
        "score_error_estimate": float(s_var.mean()),
        "effective_sample_fraction": ess,
        "posterior": {name: _summary(samples[:, i]) for i, name in enumerate(tgt.parameter_names())},
        "sample_mean": samples.mean(0).tolist(), "sample_std": samples.std(0, ddof=1).tolist(),
        "sample_corr": np.corrcoef(samples.T).tolist() if tgt.dim > 1 else [[1.0]],
    }
    checks = [Check(name="samples finite", passed=bool(np.isfinite(samples).all()), message=f"{len(samples)} samples")]
    if kernel == "linear":
        exact = exact_score(model.q, z)
        values["score_error_exact"] = float(((s_hat - exact) ** 2).sum(-1).mean())
        values["score_norm"] = float((exact**2).sum(-1).mean())
    if tgt.sampler is not None:
        reference = tgt.sampler(n_samples, np.random.default_rng(seed + 2))
    elif target == "bayes_logreg" and log_density is None:
        from cmbagent.tools.methods.bayes._simulators import ModelFamily, mcmc_posterior

        fam = ModelFamily("logistic_regression", n_features=tgt.dim - 1, prior_std=prior_std)
        reference = mcmc_posterior(fam, np.column_stack([xs, y]), n_samples=n_samples, seed=seed)
    if reference is not None:
        test = mmd_test(samples[:500], reference[:500], seed=seed)
        values["mmd"] = test
        values["reference_mean"] = reference.mean(0).tolist()
        values["reference_std"] = reference.std(0, ddof=1).tolist()
        checks.append(Check(name="q matches the reference samples", passed=test["mmd2"] <= test["null_q95"],
                            message=f"MMD² {test['mmd2']:.4f} vs the 95% permutation-null quantile "
                                    f"{test['null_q95']:.4f} (p = {test['p_value']:.3f}, 500 vs 500 samples)"))
    weights = importance_diagnostics(logp.numpy(), log_q.numpy())
    values["importance"] = weights
    checks.append(Check(
        name="importance weights p/q have a light tail", passed=bool(weights["pareto_k"] < K_BAD),
        message=f"Pareto-k̂ {weights['pareto_k']:.2f} of log p − log q over {weights['n']} draws of q (< 0.5 good, "
                f"0.5–{K_BAD} usable, > {K_BAD}: q misses mass of the target); effective sample fraction "
                f"{weights['ess_fraction']:.2f}"))
    if log_density is not None:  # no exact answer: compare with a short MCMC run on the user's density
        values["mcmc"] = _mcmc_check(tgt, samples, seed, checks)
    if tgt.mean is not None and tgt.cov is not None:
        err = np.abs(samples.mean(0) - tgt.mean) / np.sqrt(np.diag(tgt.cov))
        values["mean_error_in_sd"] = err.tolist()
    npz = output_path(output_dir, "aisivi_samples.npz")
    arrays: dict[str, Any] = {"samples": samples, "names": np.array(tgt.parameter_names())}
    if reference is not None:
        arrays["reference"] = reference
    np.savez(npz, **arrays)
    figure = _pair_plot(output_path(output_dir, "aisivi_pairs.png"), samples, reference, tgt.name,
                        tgt.parameter_names())
    summary = (f"AISIVI fitted a semi-implicit q ({kernel} kernel, ε of dimension {noise_dim or tgt.dim}, "
               f"{n_proposal} importance samples per score) to {tgt.name} in {tgt.dim} dimensions"
               f"{' (loaded from cache)' if trained.cached else ''}. ELBO {values['elbo']['mean']:.3f} ± {values['elbo']['std']:.3f}"
               f"{'' if tgt.normalised else ' (unnormalised target: up to its log normaliser)'}; estimated "
               f"score error (SNIS variance) {values['score_error_estimate']:.3g}; sample mean "
               f"{np.round(samples.mean(0), 3).tolist()}, sd {np.round(samples.std(0, ddof=1), 3).tolist()}"
               + (f"; MMD² to exact samples {values['mmd']['mmd2']:.4f} (null 95% {values['mmd']['null_q95']:.4f})"
                  if reference is not None else "")
               + f"; Pareto-k̂ of the importance weights p/q {weights['pareto_k']:.2f}"
               + (f"; against a short MCMC run, largest |Δmean| {max(values['mcmc']['mean_shift_in_sd']):.2f} sd, sd "
                  f"ratios {np.round(values['mcmc']['sd_ratio'], 2).tolist()}" if "mcmc" in values else "") + ".")
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[figure, str(npz)],
                        diagnostics={**trained.describe(), "settings": settings}, findings=[SPEED_SHORTFALL])


MCMC_STEPS = 3000
#: draws of q for the ELBO and the importance-weight diagnostics.  k̂ comes from the largest 3√n ratios; on
#: 1,000 draws of the seed-0 banana fit it ranged 0.97-1.40 between draw streams, on 4,000 0.85-1.13.  PSIS
#: (Vehtari et al. 2024) asks for n > 10^(1/(1-k)) ≈ 2,200 draws to judge k = 0.7; 4,000 cost about a second.
TAIL_DRAWS = 4000
MEAN_TOLERANCE, SD_RANGE = 0.2, (0.8, 1.25)  # in MCMC sd (plus 3 Monte Carlo errors); sd of q / sd of MCMC


def _mcmc_check(tgt: Target, samples: np.ndarray, seed: int, checks: list[Check]) -> dict[str, Any]:
    """emcee on the target from draws of q; q's means and sds against the chain's, with failing thresholds."""

    def log_prob(z: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out = tgt.log_prob(torch.as_tensor(z, dtype=torch.float32)).double().numpy()
        return np.where(np.isfinite(out), out, -np.inf)

    ref = mcmc_comparison(log_prob, samples, steps=MCMC_STEPS, seed=seed)
    q_mean, q_sd = samples.mean(0), samples.std(0, ddof=1)
    shift = np.abs(q_mean - ref["mean"]) / ref["sd"]
    allowed = MEAN_TOLERANCE + 3 * ref["mcse_mean"] / ref["sd"]
    ratio = q_sd / ref["sd"]
    names = tgt.parameter_names()
    bad = [n for n, s_, a, r in zip(names, shift, allowed, ratio, strict=True)
           if s_ > a or not SD_RANGE[0] <= r <= SD_RANGE[1]]
    checks.append(Check(
        name="q agrees with a short MCMC run", passed=not bad,
        message=f"emcee, {ref['walkers']} walkers × {MCMC_STEPS} steps from draws of q (τ up to {ref['tau'].max():.0f} "
                f"steps{'' if ref['long_enough'] else ', shorter than 50 τ: the MCMC side is itself uncertain'}): "
                "|Δmean|/sd " + ", ".join(f"{v:.2f}" for v in shift) + f" (≤ {MEAN_TOLERANCE} + 3 MC errors), sd ratio "
                + ", ".join(f"{v:.2f}" for v in ratio) + f" (in {SD_RANGE[0]}–{SD_RANGE[1]})"
                + (f"; off for {', '.join(bad)}" if bad else "")))
    return {"mean": ref["mean"].tolist(), "sd": ref["sd"].tolist(), "tau": ref["tau"].tolist(),
            "long_enough": ref["long_enough"], "mean_shift_in_sd": shift.tolist(), "sd_ratio": ratio.tolist()}


def _summary(column: np.ndarray) -> dict[str, float]:
    low, high = np.quantile(column, [0.16, 0.84])
    return {"mean": float(column.mean()), "std": float(column.std(ddof=1)), "lower_68": float(low),
            "upper_68": float(high)}


def _ess(model: _Model, z: torch.Tensor, k: int, gen: torch.Generator) -> float:
    """Mean effective sample size of the importance weights, as a fraction of K."""
    eps, log_tau = model.tau.sample(z, k, gen)
    logq, _ = model.q.log_conditional(z, eps)
    w = torch.softmax(logq + _std_normal(eps) - log_tau, dim=1)
    return float((1.0 / (w**2).sum(1)).mean() / k)


def _pair_plot(path: Any, samples: np.ndarray, reference: np.ndarray | None, name: str, labels: list[str]) -> str:
    plt = pyplot()
    d = min(samples.shape[1], 4)
    fig, axes = plt.subplots(d, d, figsize=(2.4 * d + 1, 2.4 * d + 1), squeeze=False)
    for i in range(d):
        for j in range(d):
            ax = axes[i][j]
            if i == j:
                ax.hist(samples[:, i], bins=40, density=True, alpha=0.6, label="q (AISIVI)")
                if reference is not None:
                    ax.hist(reference[:, i], bins=40, density=True, histtype="step", color="k", label="reference")
            elif i > j:
                if reference is not None:
                    ax.scatter(reference[:800, j], reference[:800, i], s=2, c="k", alpha=0.3)
                ax.scatter(samples[:800, j], samples[:800, i], s=2, alpha=0.4)
            else:
                ax.axis("off")
                continue
            ax.set_xlabel(labels[j], fontsize=7)  # every visible panel says what it shows
            ax.set_ylabel("density" if i == j else labels[i], fontsize=7)
    axes[0][0].legend(fontsize=6)
    fig.suptitle(f"AISIVI samples vs reference: {name}", fontsize=10)
    return savefig(fig, path)
