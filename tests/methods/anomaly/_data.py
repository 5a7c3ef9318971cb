"""Small synthetic anomaly data shared by the anomaly tests."""

from __future__ import annotations

import numpy as np


def blobs(
    n_normal: int = 600, n_anomaly: int = 40, d: int = 6, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Normal rows around the origin; anomalies shifted in a few coordinates (two anomaly clusters)."""
    rng = np.random.default_rng(seed)
    normal = rng.normal(0.0, 1.0, (n_normal, d))
    shift = np.zeros(d)
    shift[:2] = 3.0
    half = n_anomaly // 2
    anomalies = np.vstack(
        [rng.normal(0.0, 0.7, (half, d)) + shift, rng.normal(0.0, 0.7, (n_anomaly - half, d)) - shift]
    )
    X = np.vstack([normal, anomalies])
    y = np.r_[np.zeros(n_normal, int), np.ones(n_anomaly, int)]
    order = rng.permutation(len(y))
    return X[order], y[order]
