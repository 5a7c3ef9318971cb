"""Unnormalised log density of a ring of radius 2 in the plane (radial width 0.15)."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    radius = torch.sqrt((z ** 2).sum(dim=1) + 1e-12)
    return -0.5 * ((radius - 2.0) / 0.15) ** 2
