"""Input checks, table readers, a cache of trained networks and the figure helper of the Bayesian tools.

Every check raises :class:`~cmbagent.exceptions.UserError` (a caller's mistake in an argument) or
:class:`~cmbagent.exceptions.DataError` (the contents of a file) whose message names the argument and says
how to fix it, so a model calling the tool can correct itself.

Trained networks are cached by their settings: a file ``<kind>-<hash>.pt`` holding the state dict (read back
with ``weights_only=True``, so a cache file can never run code) and a ``.json`` beside it with the settings and
the training time.  Asking again with the same settings loads the network instead of training it.  The package
ships the networks of the tools' default settings for the common model families in the same form (``trained/``,
written by ``scripts/train_networks.py``): a first call with those settings loads one instead of training for
minutes.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.exceptions import DataError, UserError

__all__ = [
    "TrainedNet",
    "check_finite",
    "check_positive",
    "check_range",
    "file_digest",
    "load_or_train",
    "output_path",
    "pyplot",
    "read_table",
    "read_xy",
    "savefig",
    "set_threads",
    "warmup_cosine_adamw",
]


def output_path(output_dir: str, name: str) -> Path:
    """``output_dir/name``, creating the folder (relative paths resolve against the run folder)."""
    folder = Path(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def check_positive(value: float, *, argument: str, integer: bool = False) -> None:
    if not math.isfinite(value) or value <= 0 or (integer and int(value) != value):
        kind = "a positive integer" if integer else "a positive finite number"
        raise UserError(f"{argument}: must be {kind}, got {value}")


def check_range(value: float, low: float, high: float, *, argument: str) -> None:
    if not (math.isfinite(value) and low <= value <= high):
        raise UserError(f"{argument}: must lie in [{low}, {high}], got {value}")


def check_finite(values: np.ndarray, *, argument: str) -> None:
    """Refuse NaN/inf with the first bad row, so the caller can find it in the file."""
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.argwhere(bad)[0][0])
        raise DataError(f"{argument}: holds non-finite values (NaN or inf), first in row {row + 1}; "
                        "drop or impute those rows")


def set_threads(n: int | None = None) -> None:
    """One torch thread unless ``CMBAGENT_TORCH_THREADS`` says otherwise.

    The networks here are small (matrices of a few hundred numbers): on a shared two-core machine extra
    threads add synchronisation that costs more than the work.
    """
    import torch

    wanted = n or int(os.environ.get("CMBAGENT_TORCH_THREADS", "0") or 0)
    torch.set_num_threads(wanted if wanted > 0 else 1)


def read_table(path: str, *, argument: str, columns: Sequence[str] | None = None,
               target: str | None = None) -> tuple[np.ndarray, np.ndarray | None, list[str]]:
    """Numeric features (and the ``target`` column, when named) of a CSV/TSV file.

    ``columns`` picks the feature columns (default: every column except ``target``).  Returns the features
    ``(n, d)``, the target ``(n,)`` or ``None``, and the feature names.
    """
    import pandas as pd

    file = Path(path)
    if not file.is_file():
        raise UserError(f"{argument}: file {path!r} not found; pass the path of an existing .csv or .tsv file")
    if file.suffix.lower() not in {".csv", ".tsv", ".txt"}:
        raise UserError(f"{argument}: unsupported file type {file.suffix!r}; use a .csv or .tsv table")
    try:
        frame = pd.read_csv(file, sep="\t" if file.suffix.lower() == ".tsv" else ",")
    except Exception as exc:  # parser failures become a data error naming the argument
        raise DataError(f"{argument}: could not read {path!r} as a table ({exc}); check the file format") from exc
    if frame.empty:
        raise DataError(f"{argument}: {path!r} holds no rows")
    names = [str(c) for c in frame.columns]
    if target is not None and target not in names:
        raise DataError(f"{argument}: {path!r} has no column {target!r}; its columns are {names}")
    features = list(columns) if columns else [c for c in names if c != target]
    missing = [c for c in features if c not in names]
    if missing:
        raise DataError(f"{argument}: {path!r} lacks the column(s) {missing}; its columns are {names}")
    if not features:
        raise DataError(f"{argument}: {path!r} has no feature columns besides {target!r}")
    try:
        x = frame[features].to_numpy(dtype=float)
        y = frame[target].to_numpy(dtype=float) if target is not None else None
    except ValueError as exc:
        raise DataError(f"{argument}: {path!r} has non-numeric values ({exc}); every used column must be a "
                        "number") from None
    check_finite(x, argument=argument)
    if y is not None:
        check_finite(y[:, None], argument=argument)
    return x, y, features


def read_xy(path: str, *, argument: str, target: str,
            columns: Sequence[str] | None = None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Features and the ``target`` column of a table (see :func:`read_table`)."""
    x, y, names = read_table(path, argument=argument, columns=columns, target=target)
    if y is None:  # read_table returns the target whenever one is named
        raise DataError(f"{argument}: {path!r} has no column {target!r}")
    return x, y, names


def file_digest(path: str) -> str:
    """SHA-256 of a file's bytes (part of a cache key when a network depends on a user's file)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class TrainedNet:
    """A network loaded from the cache or just trained, with how long its training took, its training-loss
    history and what its trainer measured on held-out data (``validation``; kept in the cache beside it)."""

    def __init__(self, net: Any, *, seconds: float, cached: bool, path: Path | None, history: list[float],
                 validation: dict[str, Any] | None = None):
        self.net = net
        self.seconds = seconds
        self.cached = cached
        self.path = path
        self.history = history
        self.validation = validation or {}
        self.settings: dict[str, Any] = {}

    def describe(self) -> dict[str, Any]:
        return {"training_seconds": round(self.seconds, 2), "loaded_from_cache": self.cached,
                "cache_file": str(self.path) if self.path else None,
                "final_loss": self.history[-1] if self.history else None}


#: the networks the package ships (the tools' default settings; ``scripts/train_networks.py`` writes them)
SHIPPED = Path(__file__).resolve().parent / "trained"


def network_file(kind: str, settings: dict[str, Any], folder: Path) -> Path:
    """Where the network of ``kind`` with ``settings`` is kept in ``folder`` (its ``.json`` beside it)."""
    key = hashlib.sha256(json.dumps({"kind": kind, **settings}, sort_keys=True, default=str).encode()).hexdigest()
    return folder / f"{kind}-{key[:16]}.pt"


def _load(path: Path, settings: dict[str, Any], net: Any) -> TrainedNet | None:
    """The network kept at ``path`` when its ``.json`` records exactly ``settings``; None otherwise."""
    import torch

    meta = path.with_suffix(".json")
    if not (path.is_file() and meta.is_file()):
        return None
    try:
        info = json.loads(meta.read_text(encoding="utf-8"))
        if info.get("settings") != json.loads(json.dumps(settings, default=str)):
            return None
        net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    except (OSError, ValueError, RuntimeError, KeyError):
        return None  # an unreadable or stale entry is retrained (and, in a cache folder, overwritten)
    net.eval()
    return TrainedNet(net, seconds=float(info.get("training_seconds", 0.0)), cached=True, path=path,
                      history=list(info.get("history", [])), validation=info.get("validation"))


def load_or_train(kind: str, settings: dict[str, Any], build: Callable[[], Any],
                  train: Callable[[Any], list[float] | dict[str, Any]], *, cache_dir: str | None) -> TrainedNet:
    """The network for ``settings``: loaded from ``cache_dir`` when it was trained before, or from the networks
    the package ships (:data:`SHIPPED`), else trained.

    ``build()`` makes an untrained network (a ``torch.nn.Module``); ``train(net)`` trains it in place and
    returns its loss history, or a dict ``{"history": [...], "validation": {...}}`` whose JSON-able
    ``validation`` record (held-out losses along training) is stored with the network and read back with it.
    ``cache_dir=None`` always trains and stores nothing (a shipped network is not used either).
    """
    import torch

    path = network_file(kind, settings, Path(cache_dir)) if cache_dir else None
    meta = path.with_suffix(".json") if path else None
    net = build()
    for kept in (path, network_file(kind, settings, SHIPPED)) if path is not None else ():
        loaded = _load(kept, settings, net)
        if loaded is not None:
            return loaded
    start = time.perf_counter()
    out = train(net)
    history, validation = (list(out["history"]), out.get("validation")) if isinstance(out, dict) else (out, None)
    seconds = time.perf_counter() - start
    net.eval()
    if path is not None and meta is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(net.state_dict(), path)
        meta.write_text(json.dumps({"kind": kind, "settings": settings, "training_seconds": seconds,
                                    "history": history[-200:], "validation": validation}, default=str, indent=1),
                        encoding="utf-8")
    return TrainedNet(net, seconds=seconds, cached=False, path=path, history=history, validation=validation)


def savefig(fig: Any, path: Path) -> str:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display in a sandbox)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def warmup_cosine_adamw(net: Any, *, steps: int, lr: float) -> tuple[Any, Any]:
    """AdamW (no weight decay) with a linear warm-up over the first 5% of ``steps`` and a cosine decay after:
    the schedule both of the family's amortised trainers (PFN, in-context posterior) use."""
    import torch

    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=0.0)
    warm = max(1, steps // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * 0.5 * (1 + math.cos(math.pi * min(s, steps) / steps)))
    return opt, sched
