"""Model families the in-context posterior is trained on: a prior over parameters θ and a simulator of data
sets given θ, with the exact posterior where it exists and a log posterior for MCMC where it does not.

Every family works in standardised units: each input column of a data set has mean 0 and sd 1 *in that data
set* (the tool standardises a user's inputs the same way), θ ~ N(0, prior_std² I).  A data set is an array
(n, columns) whose last column is the response.

The regression models are conditional on the inputs, so any distribution of inputs leaves the posterior the
network must learn unchanged; what it changes is which designs the network has seen.  Independent N(0, 1)
inputs — what the first version trained on — are nothing like real tables (correlated columns, skewed,
binary, discrete and heavy-tailed ones), so ``covariates(varied=True)`` draws them from a Gaussian copula with a
random correlation matrix (correlations up to ≈ 0.99, as between a tumour's radius and its area) and a random
marginal per column, then standardises them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

__all__ = ["FAMILIES", "ModelFamily", "covariates", "mcmc_posterior"]

FAMILIES = ("linear_regression", "logistic_regression", "gaussian_mixture_1d")


def covariates(batch: int, n: int, d: int, gen: torch.Generator, *, varied: bool = True) -> torch.Tensor:
    """Inputs (batch, n, d), each column standardised within its data set; ``varied``: correlated columns with
    normal, skewed (log-normal), binary, discrete, bounded or heavy-tailed marginals, else independent normals."""
    if varied:
        loading = torch.randn(batch, d, d, generator=gen) * 4.0 * torch.rand(batch, 1, 1, generator=gen) ** 2
        cov = loading @ loading.transpose(1, 2) + torch.eye(d)
        sd = cov.diagonal(dim1=1, dim2=2).sqrt()
        z = torch.randn(batch, n, d, generator=gen) @ torch.linalg.cholesky(cov / sd[:, :, None] / sd[:, None, :]).mT
        kind = torch.randint(0, 6, (batch, 1, d), generator=gen)
        a = 0.3 + 1.2 * torch.rand(batch, 1, d, generator=gen)
        cut = 0.8 * torch.randn(batch, 1, d, generator=gen)
        offset = 3 * torch.rand(batch, 1, d, generator=gen)
        heavy = z * torch.exp(0.5 * a * torch.randn(batch, n, d, generator=gen))
        x = torch.where(kind == 1, torch.exp(a * z), z)
        x = torch.where(kind == 2, (z > cut).to(z.dtype), x)
        x = torch.where(kind == 3, torch.floor(2 * a * z + offset), x)
        x = torch.where(kind == 4, torch.sigmoid(2 * z), x)
        x = torch.where(kind == 5, heavy, x)
    else:
        x = torch.randn(batch, n, d, generator=gen)
    std = x.std(dim=1, unbiased=False, keepdim=True)
    return (x - x.mean(dim=1, keepdim=True)) / torch.where(std > 1e-6, std, torch.ones_like(std))


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

    @property
    def n_predictors(self) -> int:
        """Per-observation predictions of a parameter value (see :meth:`predictor`)."""
        return 2 if self.name == "gaussian_mixture_1d" else 1

    def sample_parameters(self, batch: int, gen: torch.Generator, scale: torch.Tensor | None = None) -> torch.Tensor:
        """θ ~ N(0, (prior_std·scale)² I) per data set (``scale`` (batch,), default 1)."""
        theta = self.prior_std * torch.randn(batch, self.n_params, generator=gen)
        if scale is not None:
            theta = theta * scale[:, None]
        if self.name == "gaussian_mixture_1d":  # ordered means: the label-switching symmetry is removed
            theta = theta.sort(dim=-1).values
        return theta

    def predictor(self, data: torch.Tensor, theta: torch.Tensor) -> torch.Tensor:
        """What parameters (batch, n_params) predict for each observation of data sets (batch, n, columns):
        the linear predictor b + x·w of a regression, the distances y − μ₁, y − μ₂ of the mixture."""
        if self.name == "gaussian_mixture_1d":
            return data[..., -1:] - theta[:, None, :]
        return (theta[:, None, :1] + (data[..., :-1] * theta[:, None, 1:]).sum(-1, keepdim=True))

    def simulate(self, theta: torch.Tensor, n: int, gen: torch.Generator, *, varied: bool = False) -> torch.Tensor:
        """Data sets (batch, n, columns) given parameters (batch, n_params); inputs from :func:`covariates`."""
        batch = theta.shape[0]
        if self.name == "gaussian_mixture_1d":
            pick = torch.randint(0, 2, (batch, n), generator=gen)
            means = theta.gather(1, pick)
            return (means + torch.randn(batch, n, generator=gen)).unsqueeze(-1)
        x = covariates(batch, n, self.n_features, gen, varied=varied)
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
