"""A method author's kit: the small helpers every family needs, written once.

A method writes its files under the ``output_dir`` it is given (:func:`output_path`), rejects a bad number
with a message that names the argument and the rule (:func:`check_positive`, :func:`check_range`), and runs
its small matrices and networks on one thread unless ``CMBAGENT_TORCH_THREADS`` says otherwise
(:func:`set_threads` for torch, :func:`blas_threads` for numpy's BLAS): on a shared machine, or in the sandbox
whose cleared environment drops ``OMP_NUM_THREADS``, a second thread on work this small only adds
synchronisation that costs more than the work itself.

Family-specific readers and checks stay in each family's ``_io.py``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cmbagent.exceptions import UserError

__all__ = ["blas_threads", "check_positive", "check_range", "output_path", "set_threads"]

#: the environment variable that sets the thread count of torch and of numpy's BLAS inside a method
THREADS_ENV = "CMBAGENT_TORCH_THREADS"


def output_path(output_dir: str, name: str) -> Path:
    """``output_dir/name``, creating the folder (relative paths resolve against the run folder)."""
    folder = Path(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def check_positive(value: float, *, argument: str, integer: bool = False, minimum: float | None = None) -> None:
    """Refuse a value that is not a finite positive number (a whole one with ``integer``), or is below
    ``minimum``."""
    if not math.isfinite(value) or value <= 0 or (integer and int(value) != value):
        kind = "a positive integer" if integer else "a positive number"
        raise UserError(f"{argument}: must be {kind}, got {value}")
    if minimum is not None and value < minimum:
        raise UserError(f"{argument}: must be at least {minimum}, got {value}")


def check_range(value: float, low: float, high: float, *, argument: str) -> None:
    """Refuse a value outside ``[low, high]``."""
    if not low <= value <= high:
        raise UserError(f"{argument}: must lie in [{low}, {high}], got {value}")


def _threads(n: int | None = None) -> int:
    wanted = n or int(os.environ.get(THREADS_ENV, "0") or 0)
    return wanted if wanted > 0 else 1


def set_threads(n: int | None = None) -> None:
    """One torch thread, unless ``n`` or ``CMBAGENT_TORCH_THREADS`` gives another count."""
    import torch

    torch.set_num_threads(_threads(n))


@contextmanager
def blas_threads() -> Iterator[None]:
    """numpy's BLAS limited to one thread (``CMBAGENT_TORCH_THREADS`` sets another count) while inside."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=_threads()):
        yield
