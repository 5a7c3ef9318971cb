"""Benchmark: PFN prediction against the exact GP, and AISIVI's score estimate against UIVI's MCMC inner loop.

1. PFN vs exact GP at n = 1,000 context points and 1,000 query points (1-D inputs, RBF kernel).  The PFN is the
   tool's default architecture (width 32, 2 layers, 64 bars) trained briefly here; its prediction time does not
   depend on its weights (its *accuracy* at n = 1,000, far beyond the 50 context points it is trained on, is not
   what this measures).  Baselines, both scikit-learn ``GaussianProcessRegressor`` fit + predict with standard
   deviations: (a) the kernel fixed at the prior's hyperparameters (``optimizer=None``, the exact GP the PFN
   approximates) and (b) hyperparameters fitted by marginal likelihood (how a GP is used in practice).
   Target: PFN ≥ 10× faster than (a).
2. AISIVI vs UIVI on a 5-d linear-Gaussian semi-implicit q (z = Aε + b + 0.2·η), whose score is exact.
   AISIVI: K draws from the learned proposal τ(ε | z) and self-normalised weights, plus one forward-KL update of
   τ per iteration (the cost it adds to training).  UIVI: an HMC chain (5 leapfrog steps, the step size with
   the lowest score error in a pilot) on q(ε | z) started at the ε that generated z, averaging ∇ log q(z | ε)
   over T states.
   Score errors E‖ŝ − ∇log q‖² over a batch of 512 z; the MCMC chain length needed to reach AISIVI's error at
   K = 32 gives the wall-time ratio at equal score error.  Target: AISIVI ≥ 3× faster.

Run:  .venv/bin/python bench/bayes.py [pfn] [aisivi]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import torch


def _best_time(fn: Callable[[], object], repeats: int = 5) -> float:
    fn()
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def pfn_vs_gp(n: int = 1000, m: int = 1000) -> None:
    from sklearn.gaussian_process import GaussianProcessRegressor
    from sklearn.gaussian_process.kernels import RBF, ConstantKernel, WhiteKernel

    from cmbagent.tools.methods.bayes import PFN, GPPrior, train_pfn

    prior = GPPrior(length_scale=0.2, output_scale=1.0, noise=0.1, dim=1)
    torch.manual_seed(0)
    net = PFN(1, y_scale=prior.marginal_std)
    train_pfn(net, prior, steps=100, batch=16, max_context=50, n_query=20, seed=0)
    net.eval()
    gen = torch.Generator().manual_seed(1)
    x, y = prior.sample(1, n + m, gen)
    xc, yc, xq = x[:, :n], y[:, :n], x[:, n:]

    def pfn() -> object:
        with torch.no_grad():
            logits = net(xc, yc, xq)[0]
            return net.bar.mean(logits), net.bar.quantile(logits, 0.05), net.bar.quantile(logits, 0.95)

    kernel = ConstantKernel(1.0) * RBF(0.2) + WhiteKernel(0.01)
    xn, yn, xqn = xc[0].numpy().astype(float), yc[0].numpy().astype(float), xq[0].numpy().astype(float)

    def gp_fixed() -> object:
        return GaussianProcessRegressor(kernel, optimizer=None).fit(xn, yn).predict(xqn, return_std=True)

    def gp_fitted() -> object:
        return GaussianProcessRegressor(kernel, random_state=0).fit(xn, yn).predict(xqn, return_std=True)

    t_pfn, t_fixed = _best_time(pfn), _best_time(gp_fixed)
    t_fitted = _best_time(gp_fitted, repeats=2)
    print(f"PFN vs exact GP, n = {n} context points, {m} queries (best of repeats, one thread)")
    print(f"  PFN forward pass (mean + 90% band)   {t_pfn * 1e3:8.1f} ms")
    print(f"  GP, prior hyperparameters (exact)    {t_fixed * 1e3:8.1f} ms   ratio {t_fixed / t_pfn:6.1f}x "
          "(target >= 10x)")
    print(f"  GP, hyperparameters fitted           {t_fitted * 1e3:8.1f} ms   ratio {t_fitted / t_pfn:6.1f}x")


def _linear_q() -> object:
    from cmbagent.tools.methods.bayes._flows import SemiImplicit

    torch.manual_seed(0)
    q = SemiImplicit(5, 5, kernel="linear")
    with torch.no_grad():
        q.net.weight.copy_(torch.randn(5, 5) / 5**0.5 + torch.eye(5))
        q.net.bias.copy_(torch.randn(5))
        q.log_sigma.fill_(math.log(0.2))
    return q


def _hmc_score(q: object, z: torch.Tensor, eps0: torch.Tensor, steps: int, step_size: float,
               gen: torch.Generator, leapfrog: int = 5) -> tuple[torch.Tensor, float]:
    """UIVI's inner loop: HMC on q(ε | z) from ε₀, the score averaged over the chain's states."""

    def log_target(e: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        e = e.detach().requires_grad_(True)
        logq, _ = q.log_conditional(z, e.unsqueeze(1))  # type: ignore[attr-defined]
        value = logq[:, 0] - 0.5 * (e**2).sum(-1)
        (grad,) = torch.autograd.grad(value.sum(), e)
        return value.detach(), grad

    eps = eps0.clone()
    value, grad = log_target(eps)
    total = torch.zeros_like(z)
    accepted = 0.0
    for _ in range(steps):
        p0 = torch.randn(eps.shape, generator=gen)
        e, p, g = eps, p0 + 0.5 * step_size * grad, grad
        for i in range(leapfrog):
            e = e + step_size * p
            v_new, g = log_target(e)
            if i < leapfrog - 1:
                p = p + step_size * g
        p = p + 0.5 * step_size * g
        log_accept = v_new - value - 0.5 * (p**2).sum(-1) + 0.5 * (p0**2).sum(-1)
        accept = torch.log(torch.rand(len(z), generator=gen)) < log_accept
        eps = torch.where(accept[:, None], e, eps)
        value = torch.where(accept, v_new, value)
        grad = torch.where(accept[:, None], g, grad)
        accepted += float(accept.float().mean())
        with torch.no_grad():
            _, score_states = q.log_conditional(z, eps.unsqueeze(1))  # type: ignore[attr-defined]
            total += score_states[:, 0]
    return total / steps, accepted / steps


def aisivi_vs_uivi(batch: int = 512) -> None:
    from cmbagent.tools.methods.bayes.aisivi import exact_score, fit_proposal, score

    q = _linear_q()
    start = time.perf_counter()
    tau = fit_proposal(q, steps=600, seed=0)
    tau_seconds = time.perf_counter() - start
    gen = torch.Generator().manual_seed(3)
    with torch.no_grad():
        z, eps0 = q.sample(batch, gen)  # type: ignore[attr-defined]
        truth = exact_score(q, z)  # type: ignore[arg-type]
    opt = torch.optim.Adam(tau.parameters(), lr=1e-5)

    def aisivi_iteration(k: int) -> torch.Tensor:
        with torch.no_grad():
            estimate, _ = score(q, tau, z, k, gen)  # type: ignore[arg-type]
        loss = -tau.log_prob(eps0, z).mean()  # the forward-KL step AISIVI adds per iteration
        opt.zero_grad()
        loss.backward()
        opt.step()
        return estimate

    print(f"\nAISIVI vs UIVI inner-loop MCMC, 5-d linear-Gaussian q, batch of {batch} z "
          f"(τ trained once in {tau_seconds:.1f} s, not counted per iteration)")
    aisivi: dict[int, tuple[float, float]] = {}
    for k in (8, 16, 32, 64):
        err = float(((aisivi_iteration(k) - truth) ** 2).sum(-1).mean())
        aisivi[k] = (err, _best_time(lambda k=k: aisivi_iteration(k)))
        print(f"  AISIVI K = {k:3d}: score error {err:8.3f}   {aisivi[k][1] * 1e3:7.1f} ms per iteration")
    pilot = {}
    for step_size in (0.02, 0.04, 0.06, 0.1, 0.2):  # pilot: the step size with the lowest score error at T = 20
        estimate, _ = _hmc_score(q, z, eps0, 20, step_size, gen)
        pilot[step_size] = float(((estimate - truth) ** 2).sum(-1).mean())
    best_step = min(pilot, key=lambda k: pilot[k])
    print("  UIVI pilot, score error at T = 20 by HMC step size: "
          + ", ".join(f"{k}: {v:.2f}" for k, v in pilot.items()))
    uivi: dict[int, tuple[float, float]] = {}
    for steps in (5, 10, 20, 40, 80, 160):
        estimate, rate = _hmc_score(q, z, eps0, steps, best_step, gen)
        err = float(((estimate - truth) ** 2).sum(-1).mean())
        uivi[steps] = (err, _best_time(lambda s=steps: _hmc_score(q, z, eps0, s, best_step, gen), repeats=2))
        print(f"  UIVI HMC T = {steps:3d} (step {best_step}, acceptance {rate:.2f}): score error {err:8.3f}   "
              f"{uivi[steps][1] * 1e3:7.1f} ms")
    def score_only() -> torch.Tensor:
        with torch.no_grad():
            return score(q, tau, z, 32, gen)[0]  # type: ignore[arg-type]

    print(f"  AISIVI K =  32, the score estimate alone (no τ update): {_best_time(score_only) * 1e3:7.1f} ms")
    target_err, target_time = aisivi[32]
    reached = [(t, s) for s, (e, t) in sorted(uivi.items()) if e <= target_err]
    if reached:
        t_uivi, steps = reached[0]
        print(f"  equal score error ({target_err:.3f}, AISIVI K = 32): UIVI needs T = {steps}; wall-time ratio "
              f"{t_uivi / target_time:.1f}x (target >= 3x)")
    else:
        longest = max(uivi)
        print(f"  UIVI did not reach AISIVI's error {target_err:.3f} within T = {longest} "
              f"(error {uivi[longest][0]:.3f}); ratio > {uivi[longest][1] / target_time:.1f}x (target >= 3x)")


if __name__ == "__main__":
    import sys

    torch.set_num_threads(1)
    np.random.seed(0)
    parts = set(sys.argv[1:]) or {"pfn", "aisivi"}
    if "pfn" in parts:
        pfn_vs_gp()
    if "aisivi" in parts:
        aisivi_vs_uivi()
