"""Argument checks, output paths and summary statistics shared by the learning-theory method tools.

Every check raises :class:`~cmbagent.exceptions.UserError` naming the argument and the fix, so a model that
called the tool with a bad value can correct the call.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.exceptions import UserError

__all__ = ["blas_threads", "check_list", "check_positive", "output_path", "spread"]


def output_path(output_dir: str, name: str) -> Path:
    """``output_dir/name``, creating the folder (relative paths resolve against the run folder)."""
    folder = Path(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def check_positive(value: float, *, argument: str, integer: bool = False, minimum: float | None = None) -> None:
    if not np.isfinite(value) or value <= 0 or (integer and int(value) != value):
        kind = "a positive integer" if integer else "a positive number"
        raise UserError(f"{argument}: must be {kind}, got {value}")
    if minimum is not None and value < minimum:
        raise UserError(f"{argument}: must be at least {minimum}, got {value}")


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


@contextmanager
def blas_threads() -> Iterator[None]:
    """numpy's BLAS limited to one thread (``CMBAGENT_TORCH_THREADS`` sets another count) while inside.

    The matrices here are small (tens to hundreds of rows): a second BLAS thread only adds synchronisation, and
    on a loaded machine (or in the sandbox, whose cleared environment drops OMP_NUM_THREADS) that costs ten
    times the work itself.
    """
    from threadpoolctl import threadpool_limits

    wanted = int(os.environ.get("CMBAGENT_TORCH_THREADS", "0") or 0)
    with threadpool_limits(limits=wanted if wanted > 0 else 1):
        yield
