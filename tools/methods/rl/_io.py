"""Summary statistics shared by the RL method tools (output paths, argument checks and threads are in
:mod:`cmbagent.tools.methods._kit`, shared by every family)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["spread"]


def spread(samples: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation, median and range of per-seed numbers (the uncertainty a reader needs)."""
    x = np.asarray(samples, dtype=float)
    return {"mean": float(x.mean()), "std": float(x.std(ddof=1)) if x.size > 1 else 0.0,
            "median": float(np.median(x)), "min": float(x.min()), "max": float(x.max()), "n": int(x.size)}
