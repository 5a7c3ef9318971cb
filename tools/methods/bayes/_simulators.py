"""Model families the in-context posterior is trained on: a prior over parameters θ and a simulator of data
sets given θ, with the exact posterior where it exists and a log posterior for MCMC where it does not.

Every family works in standardised units: inputs x ~ N(0, I) (the tool standardises a user's inputs the same
way), θ ~ N(0, prior_std² I).  A data set is an array (n, columns) whose last column is the response.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

__all__ = ["FAMILIES", "ModelFamily", "mcmc_posterior"]

FAMILIES = ("linear_regression", "logistic_regression", "gaussian_mixture_1d")


@dataclass(frozen=True)
class ModelFamily:
    """One named family with its settings (``n_features`` regressors; mixture: two unit-variance components)."""

    name: str
    n_features: int = 1
    prior_std: float = 1.0
    noise_std: float = 1.0

    @property
    def parameter_names(self) -> list[str]:
        if self.name == "gaussian_mixture_1d":
            return ["mu_1", "mu_2"]
        return ["intercept", *[f"w_{i + 1}" for i in range(self.n_features)]]

    @property
    def n_params(self) -> int:
        return len(self.parameter_names)

    @property
    def columns(self) -> int:
        """Columns of a data set: the inputs and the response."""
        return 1 if self.name == "gaussian_mixture_1d" else self.n_features + 1

    def sample_parameters(self, batch: int, gen: torch.Generator) -> torch.Tensor:
        theta = self.prior_std * torch.randn(batch, self.n_params, generator=gen)
        if self.name == "gaussian_mixture_1d":  # ordered means: the label-switching symmetry is removed
            theta = theta.sort(dim=-1).values
        return theta

    def simulate(self, theta: torch.Tensor, n: int, gen: torch.Generator) -> torch.Tensor:
        """Data sets (batch, n, columns) given parameters (batch, n_params)."""
        batch = theta.shape[0]
        if self.name == "gaussian_mixture_1d":
            pick = torch.randint(0, 2, (batch, n), generator=gen)
            means = theta.gather(1, pick)
            return (means + torch.randn(batch, n, generator=gen)).unsqueeze(-1)
        x = torch.randn(batch, n, self.n_features, generator=gen)
        eta = theta[:, :1] + (x * theta[:, None, 1:]).sum(-1)
        if self.name == "linear_regression":
            y = eta + self.noise_std * torch.randn(batch, n, generator=gen)
        else:
            y = torch.bernoulli(torch.sigmoid(eta), generator=gen)
        return torch.cat([x, y.unsqueeze(-1)], dim=-1)

    def exact_posterior(self, data: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """Mean and covariance of the conjugate linear-regression posterior; ``None`` for the other families."""
        if self.name != "linear_regression":
            return None
        design = np.hstack([np.ones((len(data), 1)), data[:, :-1]])
        precision = np.eye(self.n_params) / self.prior_std**2 + design.T @ design / self.noise_std**2
        cov = np.linalg.inv(precision)
        return cov @ design.T @ data[:, -1] / self.noise_std**2, cov

    def log_posterior(self, theta: np.ndarray, data: np.ndarray) -> np.ndarray:
        """Unnormalised log posterior of parameters ``(walkers, n_params)`` (for MCMC)."""
        log_prior = -0.5 * (theta**2).sum(-1) / self.prior_std**2
        if self.name == "gaussian_mixture_1d":
            y = data[:, 0]
            ordered = theta[:, 0] <= theta[:, 1]
            comp = -0.5 * (y[None, :, None] - theta[:, None, :]) ** 2
            loglik = (np.logaddexp(comp[..., 0], comp[..., 1]) + np.log(0.5)).sum(-1)
            return np.where(ordered, log_prior + loglik, -np.inf)
        eta = theta[:, :1] + theta[:, 1:] @ data[:, :-1].T
        y = data[:, -1][None, :]
        if self.name == "linear_regression":
            loglik = -0.5 * ((y - eta) ** 2).sum(-1) / self.noise_std**2
        else:
            loglik = (y * eta - np.logaddexp(0.0, eta)).sum(-1)
        return log_prior + loglik


def mcmc_posterior(family: ModelFamily, data: np.ndarray, *, n_samples: int, seed: int) -> np.ndarray:
    """Reference posterior samples by emcee's affine-invariant ensemble (32 walkers, half burn-in, thinned)."""
    import emcee

    rng = np.random.default_rng(seed)
    walkers, dim = 32, family.n_params
    start = 0.1 * rng.normal(size=(walkers, dim))
    if family.name == "gaussian_mixture_1d":
        q = np.quantile(data[:, 0], [0.25, 0.75])
        start = np.sort(q[None, :] + 0.1 * rng.normal(size=(walkers, dim)), axis=1)
    sampler = emcee.EnsembleSampler(walkers, dim, lambda t: family.log_posterior(t, data), vectorize=True)
    sampler.random_state = np.random.RandomState(seed).get_state()
    steps = max(2000, 2 * n_samples // walkers * 4)
    sampler.run_mcmc(start, steps, progress=False)
    chain = sampler.get_chain(discard=steps // 2, flat=True, thin=4)
    return chain[rng.permutation(len(chain))[:n_samples]]
