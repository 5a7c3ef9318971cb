"""Log density of a noisy ring of radius 2 in the plane (unnormalised)."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    r = torch.sqrt((z ** 2).sum(dim=1) + 1e-12)
    return -0.5 * ((r - 2.0) / 0.25) ** 2
