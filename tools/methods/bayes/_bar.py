"""The Riemann ("bar") distribution head of prior-data fitted networks, with half-normal tails.

A network outputs B logits; the real line is cut at B+1 borders into B-2 inner bars of constant density and
two outer bars that are half-normal tails (the "full support" variant of Müller et al. 2022), so the
negative log-likelihood is finite for any target.  Borders are quantiles of the prior predictive of y, so
every bar carries about the same prior mass.
"""

from __future__ import annotations

import math

import torch

__all__ = ["BarDistribution"]


class BarDistribution:
    """Densities, means and quantiles of a bar distribution given its logits ``(..., B)``."""

    def __init__(self, borders: torch.Tensor):
        if borders.ndim != 1 or len(borders) < 4 or not bool((borders[1:] > borders[:-1]).all()):
            raise ValueError("borders must be an increasing 1-D tensor with at least 4 entries")
        self.borders = borders
        self.widths = borders[1:] - borders[:-1]
        self.n_bars = len(borders) - 1

    @classmethod
    def gaussian(cls, n_bars: int, scale: float) -> BarDistribution:
        """Borders at equal-mass quantiles of N(0, scale²) (outer borders at the 1/(2B) tails)."""
        p = torch.linspace(0.5 / n_bars, 1 - 0.5 / n_bars, n_bars - 1, dtype=torch.float64)
        inner = math.sqrt(2) * scale * torch.erfinv(2 * p - 1)
        step_lo, step_hi = inner[1] - inner[0], inner[-1] - inner[-2]
        return cls(torch.cat([inner[:1] - step_lo, inner, inner[-1:] + step_hi]).float())

    def log_prob(self, logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """log p(y) for targets ``y`` shaped like ``logits[..., 0]``."""
        b = self.borders.to(logits)
        w = self.widths.to(logits)
        logp = torch.log_softmax(logits, dim=-1)
        idx = torch.bucketize(y.contiguous(), b[1:-1], right=False).clamp(0, self.n_bars - 1)
        chosen = logp.gather(-1, idx.unsqueeze(-1)).squeeze(-1)
        inner = chosen - torch.log(w[idx])
        # half-normal tails beyond borders[1] (left) and borders[-2] (right), scale = the outer bar's width
        left_scale, right_scale = w[0], w[-1]
        left = chosen + _half_normal_logpdf(b[1] - y, left_scale)
        right = chosen + _half_normal_logpdf(y - b[-2], right_scale)
        return torch.where(idx == 0, left, torch.where(idx == self.n_bars - 1, right, inner))

    def mean(self, logits: torch.Tensor) -> torch.Tensor:
        b = self.borders.to(logits)
        w = self.widths.to(logits)
        centres = (b[:-1] + b[1:]) / 2
        centres = centres.clone()
        centres[0] = b[1] - w[0] * math.sqrt(2 / math.pi)
        centres[-1] = b[-2] + w[-1] * math.sqrt(2 / math.pi)
        return (torch.softmax(logits, dim=-1) * centres).sum(-1)

    def quantile(self, logits: torch.Tensor, q: float) -> torch.Tensor:
        """The q-quantile: linear inside an inner bar, the half-normal's inverse CDF in a tail."""
        b = self.borders.to(logits)
        w = self.widths.to(logits)
        p = torch.softmax(logits, dim=-1)
        cdf = torch.cumsum(p, dim=-1)
        idx = torch.searchsorted(cdf.contiguous(), torch.full_like(cdf[..., :1], q)).squeeze(-1)
        idx = idx.clamp(0, self.n_bars - 1)
        below = torch.where(idx > 0, cdf.gather(-1, (idx - 1).clamp(min=0).unsqueeze(-1)).squeeze(-1),
                            torch.zeros_like(idx, dtype=logits.dtype))
        mass = p.gather(-1, idx.unsqueeze(-1)).squeeze(-1).clamp_min(1e-12)
        frac = ((q - below) / mass).clamp(1e-6, 1 - 1e-6)
        inner = b[idx] + frac * w[idx]
        # left tail: P(Y ≤ y) = mass·(1 − F_hn(b1 − y)) → b1 − y = F_hn⁻¹(1 − frac); right: F_hn(y − b_{-2}) = frac
        left = b[1] - w[0] * math.sqrt(2) * torch.erfinv(1 - frac)
        right = b[-2] + w[-1] * math.sqrt(2) * torch.erfinv(frac)
        return torch.where(idx == 0, left, torch.where(idx == self.n_bars - 1, right, inner))


def _half_normal_logpdf(distance: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    d = distance.clamp(min=0)
    return math.log(math.sqrt(2 / math.pi)) - torch.log(scale) - 0.5 * (d / scale) ** 2
