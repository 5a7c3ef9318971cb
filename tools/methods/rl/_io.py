"""Argument checks, output paths, torch threads and summary statistics shared by the RL method tools.

Every check raises :class:`~cmbagent.exceptions.UserError` naming the argument and the fix, so a model that
called the tool with a bad value can correct the call.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from cmbagent.exceptions import UserError

__all__ = ["blas_threads", "check_positive", "check_range", "output_path", "set_threads", "spread"]


def output_path(output_dir: str, name: str) -> Path:
    """``output_dir/name``, creating the folder (relative paths resolve against the run folder)."""
    folder = Path(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def check_positive(value: float, *, argument: str, integer: bool = False) -> None:
    if not np.isfinite(value) or value <= 0 or (integer and int(value) != value):
        kind = "a positive integer" if integer else "a positive number"
        raise UserError(f"{argument}: must be {kind}, got {value}")


def check_range(value: float, low: float, high: float, *, argument: str) -> None:
    if not low <= value <= high:
        raise UserError(f"{argument}: must lie in [{low}, {high}], got {value}")


def set_threads(n: int | None = None) -> None:
    """One torch thread unless ``CMBAGENT_TORCH_THREADS`` says otherwise.

    The networks here are small MLPs on batches of a few hundred rows: extra threads only add
    synchronisation, which on a loaded machine costs more than the work itself.
    """
    import torch

    wanted = n or int(os.environ.get("CMBAGENT_TORCH_THREADS", "0") or 0)
    torch.set_num_threads(wanted if wanted > 0 else 1)


def spread(samples: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation, median and range of per-seed numbers (the uncertainty a reader needs)."""
    x = np.asarray(samples, dtype=float)
    return {"mean": float(x.mean()), "std": float(x.std(ddof=1)) if x.size > 1 else 0.0,
            "median": float(np.median(x)), "min": float(x.min()), "max": float(x.max()), "n": int(x.size)}


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
