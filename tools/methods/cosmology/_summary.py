"""Posterior summaries, shared by our own fits and by chains loaded from files.

One function (:func:`summarize_samples`) turns (optionally weighted) samples into the numbers every
report quotes, so a published chain and our sampler are summarised identically: mean, standard
deviation, median and the equal-tailed 68% and 95% intervals (weighted quantiles with mid-point
cumulative weights).  :func:`load_chain` reads a text chain (plain or gzip) whose column names are in a
header line: CosmoSIS (``#section--name ...``), GetDist/CosmoMC-style (``weight like p1 p2 ...``) or a
plain header.  A column named ``weight``/``weights`` weights the samples; ``log_weight`` is exponentiated;
bookkeeping columns (``prior``, ``post``, ``like``, ``loglike``, ``chi2``) are not parameters.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from cmbagent.exceptions import DataError

__all__ = ["Chain", "load_chain", "parameter_name", "summarize_samples", "weighted_quantile"]

Array = NDArray[np.float64]

_BOOKKEEPING = {"prior", "post", "like", "loglike", "log_like", "chi2", "minuslogpost", "minuslogprior", "lnprob"}
_WEIGHT = {"weight", "weights", "mult", "multiplicity"}
_ALIASES = {
    "omega_m": "Omega_m", "omegam": "Omega_m", "om": "Omega_m",
    "omega_lambda": "Omega_de", "omega_de": "Omega_de", "omegal": "Omega_de", "omega_l": "Omega_de",
    "omega_k": "Omega_k", "omegak": "Omega_k",
    "h0": "h", "h": "h", "hubble": "H0", "h_0": "H0",
    "w": "w0", "w0": "w0", "wa": "wa",
    "m": "M",
}


def weighted_quantile(x: ArrayLike, q: ArrayLike, weights: ArrayLike | None = None) -> Array:
    """Quantiles ``q`` (in [0, 1]) of samples ``x`` with optional non-negative weights."""
    xs = np.asarray(x, dtype=float)
    w = np.ones_like(xs) if weights is None else np.asarray(weights, dtype=float)
    order = np.argsort(xs)
    xs, w = xs[order], w[order]
    cdf = (np.cumsum(w) - 0.5 * w) / np.sum(w)
    return np.asarray(np.interp(np.asarray(q, dtype=float), cdf, xs))


def summarize_samples(
    samples: ArrayLike, names: Sequence[str], weights: ArrayLike | None = None
) -> dict[str, dict[str, float]]:
    """Mean, std, median, 68% and 95% equal-tailed intervals per parameter.

    Args:
        samples: shape (n_samples, n_params).
        names: one name per column.
        weights: optional per-sample weights.
    """
    s = np.atleast_2d(np.asarray(samples, dtype=float))
    if s.ndim != 2 or s.shape[1] != len(names):
        raise ValueError(f"samples of shape {s.shape} do not match {len(names)} names")
    w = np.ones(s.shape[0]) if weights is None else np.asarray(weights, dtype=float)
    total = float(np.sum(w))
    out: dict[str, dict[str, float]] = {}
    for j, name in enumerate(names):
        x = s[:, j]
        mean = float(np.sum(w * x) / total)
        std = float(np.sqrt(np.sum(w * (x - mean) ** 2) / total))
        q = weighted_quantile(x, [0.02275, 0.158655, 0.5, 0.841345, 0.97725], w)
        out[name] = {
            "mean": mean, "std": std, "median": float(q[2]),
            "lower_68": float(q[1]), "upper_68": float(q[3]), "lower_95": float(q[0]), "upper_95": float(q[4]),
        }
    return out


@dataclass(frozen=True)
class Chain:
    """Samples read from a chain file (after the burn-in cut)."""

    names: tuple[str, ...]
    samples: Array
    weights: Array | None
    n_total: int
    n_dropped: int
    raw_names: tuple[str, ...]
    extra: dict[str, Array]
    walkers: int | None = None  # an ensemble sampler's walkers, interleaved row by row (CosmoSIS '#walkers=16')


def parameter_name(column: str) -> str:
    """The name a chain's column goes by in the summary ("cosmological_parameters--w" and "w" are ``w0``,
    "omega_m" is ``Omega_m``); CosmoSIS's "h0" is ``h`` here (:func:`load_chain` makes it ``H0`` when its values
    are in km/s/Mpc)."""
    short = column.split("--")[-1].strip()
    return "H0" if short == "H0" else _ALIASES.get(short.lower(), short)


def _canonical(name: str, values: Array) -> str:
    canonical = parameter_name(name)
    if canonical == "H0":
        return "H0"
    # CosmoSIS calls little h "h0"; a column of values in km/s/Mpc is the Hubble constant itself
    if canonical == "h" and float(np.median(values)) > 5.0:
        return "H0"
    return canonical


def _read_text(path: Path) -> str:
    if not path.is_file():
        raise DataError(f"chain file not found: {path}")
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="replace")


def _is_number(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


def load_chain(path: str | Path, burn_in_fraction: float = 0.25) -> Chain:
    """Read a chain file and drop the first ``burn_in_fraction`` of its rows.

    Raises:
        DataError: no header naming the columns, rows of the wrong length, non-numeric values.
    """
    if not 0.0 <= burn_in_fraction < 1.0:
        raise DataError(f"burn_in_fraction must be in [0, 1), got {burn_in_fraction}")
    path = Path(path)
    lines = _read_text(path).splitlines()
    header: list[str] | None = None
    body_start = 0
    walkers: int | None = None
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        meta = re.fullmatch(r"#\s*walkers\s*=\s*(\d+)", stripped)
        if meta:
            walkers = int(meta.group(1))
        if stripped.startswith("#"):
            tokens = stripped.lstrip("#").replace(",", " ").split()
            if header is None and tokens and not any(_is_number(t) for t in tokens) and "=" not in stripped:
                header = tokens
            continue
        tokens = stripped.replace(",", " ").split()
        if not all(_is_number(t) for t in tokens):
            if header is None:
                header = tokens
                continue
            raise DataError(f"{path.name} line {i + 1}: non-numeric value in a chain row")
        body_start = i
        break
    if header is None:
        raise DataError(f"{path.name}: no header line naming the columns (e.g. '# Omega_m H0 weight')")
    rows = [ln.replace(",", " ").split() for ln in lines[body_start:] if ln.strip() and not ln.lstrip().startswith("#")]
    bad = next((j for j, r in enumerate(rows) if len(r) != len(header)), None)
    if bad is not None:
        raise DataError(
            f"{path.name}: a row has {len(rows[bad])} values but the header names {len(header)} columns"
        )
    try:
        table = np.array(rows, dtype=float)
    except ValueError as exc:
        raise DataError(f"{path.name}: non-numeric value in the chain ({exc})") from None
    if table.size == 0:
        raise DataError(f"{path.name}: the chain has no samples")
    n_total = table.shape[0]
    n_drop = int(np.floor(burn_in_fraction * n_total))
    if walkers and n_total % walkers == 0:
        n_drop -= n_drop % walkers  # drop whole ensemble steps
    else:
        walkers = None
    table = table[n_drop:]
    weights: Array | None = None
    names: list[str] = []
    columns: list[int] = []
    extra: dict[str, Array] = {}
    for j, raw in enumerate(header):
        low = raw.split("--")[-1].lower()
        if low in _WEIGHT:
            weights = table[:, j]
        elif low == "log_weight":
            weights = np.exp(table[:, j] - np.max(table[:, j]))
        elif low in _BOOKKEEPING:
            extra[low] = table[:, j]
        else:
            names.append(_canonical(raw, table[:, j]))
            columns.append(j)
    if weights is not None and (np.any(weights < 0) or not np.any(weights > 0)):
        raise DataError(f"{path.name}: the weight column has negative or all-zero values")
    return Chain(tuple(names), table[:, columns], weights, n_total, n_drop, tuple(header), extra, walkers)
