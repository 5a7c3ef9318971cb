"""A conditional normalising flow τ(ε | z) and the semi-implicit family q(z) = E_ε q(z | ε), in torch.

The flow maps base noise u ~ N(0, I) to ε through conditional affine couplings (RealNVP style, each coupling's
scale and shift are MLPs of the untouched half and of z) and a final conditional affine layer
ε = m(z) + diag(exp s(z))·L·u with a learned lower-triangular L.  The last layer alone represents every
Gaussian conditional with a mean linear in z and a constant covariance, i.e. the exact posterior q(ε | z) of a
linear-Gaussian semi-implicit family, and the couplings add non-Gaussian shape.  Every layer is inverted in
closed form, so the flow both samples (for importance sampling) and evaluates log τ (for forward-KL training).

We write the few dozen lines ourselves rather than add a flow library: the couplings need the conditioning
input z, and both directions and the log-determinant are needed in one place.
"""

from __future__ import annotations

import math
from typing import cast

import torch
from torch import nn

__all__ = ["ConditionalFlow", "SemiImplicit"]

_LOG_2PI = math.log(2 * math.pi)


def _mlp(n_in: int, n_out: int, hidden: int, *, zero: bool = True) -> nn.Sequential:
    net = nn.Sequential(nn.Linear(n_in, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
                        nn.Linear(hidden, n_out))
    if zero:  # start at the identity map
        last = cast(nn.Linear, net[-1])
        nn.init.zeros_(last.weight)
        nn.init.zeros_(last.bias)
    return net


class _Coupling(nn.Module):
    mask: torch.Tensor

    def __init__(self, dim: int, cond: int, hidden: int, mask: torch.Tensor):
        super().__init__()
        self.register_buffer("mask", mask)
        self.net = _mlp(dim + cond, 2 * dim, hidden)

    def _params(self, kept: torch.Tensor, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        scale, shift = self.net(torch.cat([kept, z], dim=-1)).chunk(2, dim=-1)
        scale = torch.tanh(scale) * (1 - self.mask)
        return scale, shift * (1 - self.mask)

    def forward(self, u: torch.Tensor, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        scale, shift = self._params(u * self.mask, z)
        return u * torch.exp(scale) + shift, scale.sum(-1)

    def inverse(self, e: torch.Tensor, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        scale, shift = self._params(e * self.mask, z)
        return (e - shift) * torch.exp(-scale), -scale.sum(-1)


class ConditionalFlow(nn.Module):
    """τ(ε | z): ``sample(z, k)`` draws k values per z with their log density; ``log_prob(ε, z)`` evaluates."""

    def __init__(self, dim: int, cond: int, *, hidden: int = 64, couplings: int = 2):
        super().__init__()
        self.dim = dim
        masks = [(torch.arange(dim) % 2 == i % 2).float() for i in range(couplings)] if dim > 1 else []
        self.couplings = nn.ModuleList(_Coupling(dim, cond, hidden, m) for m in masks)
        self.mean_linear = nn.Linear(cond, dim)
        self.mean_net = _mlp(cond, dim, hidden)
        self.log_scale_net = _mlp(cond, dim, hidden)
        self.lower = nn.Parameter(torch.zeros(dim, dim))
        self.log_diag = nn.Parameter(torch.zeros(dim))

    def _affine(self, z: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        mean = self.mean_linear(z) + self.mean_net(z)
        chol = torch.tril(self.lower, -1) + torch.diag(torch.exp(self.log_diag))
        return mean, chol, self.log_scale_net(z)

    def sample(self, z: torch.Tensor, k: int, generator: torch.Generator | None = None) -> tuple[torch.Tensor,
                                                                                                torch.Tensor]:
        """ε of shape (batch, k, dim) and log τ(ε | z) of shape (batch, k)."""
        zk = z.unsqueeze(1).expand(-1, k, -1)
        u = torch.randn(*zk.shape[:2], self.dim, generator=generator, dtype=z.dtype)
        log_det = torch.zeros(u.shape[:2], dtype=z.dtype)
        h = u
        for layer in self.couplings:
            h, ld = layer(h, zk)
            log_det = log_det + ld
        mean, chol, log_scale = self._affine(zk)
        e = mean + torch.exp(log_scale) * (h @ chol.T)
        log_det = log_det + log_scale.sum(-1) + self.log_diag.sum()
        log_base = -0.5 * (u**2).sum(-1) - 0.5 * self.dim * _LOG_2PI
        return e, log_base - log_det

    def log_prob(self, e: torch.Tensor, z: torch.Tensor) -> torch.Tensor:
        mean, chol, log_scale = self._affine(z)
        h = torch.linalg.solve_triangular(chol, ((e - mean) * torch.exp(-log_scale)).unsqueeze(-1),
                                          upper=False).squeeze(-1)
        log_det = -log_scale.sum(-1) - self.log_diag.sum()
        for layer in reversed(cast(list[_Coupling], list(self.couplings))):
            h, ld = layer.inverse(h, z)
            log_det = log_det + ld
        return -0.5 * (h**2).sum(-1) - 0.5 * self.dim * _LOG_2PI + log_det


class SemiImplicit(nn.Module):
    """q(z) = ∫ N(z; μ(ε), diag σ²) N(ε; 0, I) dε with μ(ε) = Aε + b + MLP(ε) (``kernel='mlp'``) or
    μ = Aε + b (``kernel='linear'``: q is Gaussian, its score and q(ε | z) are exact); σ is one learned vector.

    A σ that depended on ε could collapse for some ε, and the importance weights with it (the score
    estimator's variance grows like 1/σ²); the usual SIVI kernels keep it global, and so do we."""

    def __init__(self, dim: int, noise_dim: int, *, hidden: int = 64, kernel: str = "mlp"):
        super().__init__()
        self.dim, self.noise_dim, self.kernel = dim, noise_dim, kernel
        self.net = nn.Linear(noise_dim, dim)
        with torch.no_grad():  # start at q = N(0, (1 + σ²) I): spread carried by ε, which σ can then give up
            self.net.weight.copy_(torch.eye(dim, noise_dim))
            self.net.bias.zero_()
        self.residual = _mlp(noise_dim, dim, hidden) if kernel == "mlp" else None
        self.log_sigma = nn.Parameter(torch.full((dim,), -1.0))

    def conditional(self, eps: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """μ(ε) = Lε + MLP(ε) (the MLP starts at zero) and log σ."""
        mu = self.net(eps)
        if self.residual is not None:
            mu = mu + self.residual(eps)
        return mu, self.log_sigma.clamp(min=-7.0).expand_as(mu)

    def sample(self, n: int, generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """(z, ε) with z differentiable in the parameters (reparameterised)."""
        eps = torch.randn(n, self.noise_dim, generator=generator)
        mu, log_sigma = self.conditional(eps)
        return mu + torch.exp(log_sigma) * torch.randn(mu.shape, generator=generator), eps

    def log_conditional(self, z: torch.Tensor, eps: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """log q(z | ε) and its gradient in z, for z (batch, dim) and ε (batch, k, noise_dim)."""
        mu, log_sigma = self.conditional(eps)
        resid = (z.unsqueeze(1) - mu) * torch.exp(-log_sigma)
        logq = -0.5 * (resid**2).sum(-1) - log_sigma.sum(-1) - 0.5 * self.dim * _LOG_2PI
        return logq, -resid * torch.exp(-log_sigma)

    def exact(self) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """For the linear kernel: A, b and σ² (q(z) = N(b, AAᵀ + diag σ²))."""
        if self.residual is not None:
            raise TypeError("the exact marginal exists only for the linear kernel")
        return self.net.weight, self.net.bias, torch.exp(2 * self.log_sigma)
