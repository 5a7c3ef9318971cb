"""Unnormalised log density of a source position on an Einstein ring (two dimensions)."""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    r = torch.sqrt((z ** 2).sum(-1) + 1e-12)
    return -0.5 * ((r - 2.0) / 0.3) ** 2 + 0.5 * z[:, 0] / (r + 1e-6)
