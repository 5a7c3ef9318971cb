"""Log density (unnormalised) of a banana-shaped 2-D posterior from our growth-curve model.

x ~ N(1.5, 0.5^2) and y | x ~ N(x^2, 0.3^2): the mean of y is 1.5^2 + 0.5^2 = 2.5.
"""

import torch


def log_prob(z: torch.Tensor) -> torch.Tensor:
    x, y = z[:, 0], z[:, 1]
    return -0.5 * ((x - 1.5) / 0.5) ** 2 - 0.5 * ((y - x**2) / 0.3) ** 2
