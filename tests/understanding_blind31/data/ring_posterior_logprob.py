"""Log density of a ring-shaped posterior: radius 2, radial width 0.25, heavier on the right-hand side."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    r = torch.sqrt((z ** 2).sum(dim=1) + 1e-12)
    return -0.5 * ((r - 2.0) / 0.25) ** 2 + 0.6 * z[:, 0] / 2.0
