"""Argument checks and summary statistics shared by the learning-theory method tools (output paths, number
checks and threads are in :mod:`cmbagent.tools.methods._kit`).

Every check raises :class:`~cmbagent.exceptions.UserError` naming the argument and the fix, so a model that
called the tool with a bad value can correct the call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from cmbagent.exceptions import UserError

__all__ = ["check_list", "spread"]


def check_list(values: Sequence[Any], *, argument: str) -> None:
    if len(values) == 0:
        raise UserError(f"{argument}: give at least one value")


def spread(samples: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation, median, range (and geometric mean of positive numbers) over seeds."""
    x = np.asarray(samples, dtype=float)
    out = {"mean": float(x.mean()), "std": float(x.std(ddof=1)) if x.size > 1 else 0.0,
           "median": float(np.median(x)), "min": float(x.min()), "max": float(x.max()), "n": int(x.size)}
    if np.all(x > 0):  # errors spread over orders of magnitude across seeds: the geometric mean summarises them
        out["geomean"] = float(np.exp(np.log(x).mean()))
    return out
