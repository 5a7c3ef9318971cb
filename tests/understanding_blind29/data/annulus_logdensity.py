"""Unnormalised log density of a ring of radius 2 and width 0.3 in the plane."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    r = torch.sqrt((z ** 2).sum(dim=-1) + 1e-12)
    return -0.5 * ((r - 2.0) / 0.3) ** 2
