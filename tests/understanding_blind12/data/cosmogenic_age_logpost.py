"""Unnormalised log posterior of three parameters of a cosmogenic exposure-age fit (standardised units).

z[:, 0] is the mean exposure age, z[:, 1] the log scatter between boulders and z[:, 2] the slope of the age on
boulder height; eight boulders, standard normal priors on all three.
"""

import torch

AGES = torch.tensor([1.21, 0.64, 1.87, 1.02, 0.35, 1.48, 0.91, 1.66])
HEIGHTS = torch.tensor([-1.2, -0.8, 1.4, 0.1, -1.5, 0.9, -0.3, 1.1])


def log_prob(z: torch.Tensor) -> torch.Tensor:
    mean, log_scatter, slope = z[:, 0:1], z[:, 1:2], z[:, 2:3]
    resid = (AGES - mean - slope * HEIGHTS) / torch.exp(log_scatter)
    like = -0.5 * resid.pow(2).sum(dim=1) - AGES.numel() * log_scatter[:, 0]
    prior = -0.5 * (z ** 2).sum(dim=1)
    return like + prior
