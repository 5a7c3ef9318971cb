"""Unnormalised log posterior of (depth, magnitude) for one aftershock, both standardised.

The magnitude estimate trades off with depth: deeper sources need larger magnitudes for the same
amplitudes, bending the posterior into an arc.
"""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    depth, mag = z[:, 0], z[:, 1]
    return -0.5 * (depth / 1.2) ** 2 - 0.5 * ((mag - 0.5 * depth ** 2 + 0.8) / 0.4) ** 2
