"""Unnormalised log posterior of a three-parameter dust emission model (temperature, index, log mass).

The parameters are standardised: a curved, correlated ridge with a heavier tail in the third one.
"""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    t, b, m = z[:, 0], z[:, 1], z[:, 2]
    ridge = -0.5 * ((b + 0.6 * t - 0.3 * t**2) / 0.4) ** 2
    return -0.5 * t**2 + ridge - 0.5 * (m - 0.5 * b) ** 2 / 1.5 - 0.1 * torch.abs(m)
