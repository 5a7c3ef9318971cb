"""Audits that read the step's input data: rows used against rows read, and features that give the label away.

Tables are read with bounded effort (files up to 64 MB; at most 20,000 rows and 300 columns are scored for
leakage), because an audit must cost milliseconds next to the step it audits.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import finding, step_audit
from cmbagent.state import Finding

__all__ = ["Table", "count_rows", "duplicate_rows", "read_table", "single_feature_auc"]

MAX_BYTES = 64 * 1024 * 1024
LEAK_AUC = 0.999
_LABELS = ("y", "label", "labels", "target", "class", "anomaly", "is_anomaly", "outlier")
_USED = ("n_rows_used", "n_used", "n_rows", "n_obs", "n_observations", "n_sne", "n_units", "n_points", "n")



@dataclass
class Table:
    """A data file as the audits see it: its numeric columns, row count and rows with missing values."""

    n_rows: int
    columns: list[str] = field(default_factory=list)
    data: np.ndarray | None = None  # numeric matrix (rows x columns), NaN where not numeric
    label: np.ndarray | None = None  # an .npz 'y'
    n_missing_rows: int = 0


def read_table(raw: bytes, name: str) -> Table | None:
    """A table from a CSV/TSV/whitespace text or .npz/.npy file's bytes; None when it is not a table."""
    lower = name.lower()
    if lower.endswith((".npz", ".npy")):
        loaded = np.load(io.BytesIO(raw), allow_pickle=False)
        if lower.endswith(".npy"):
            arr = np.atleast_2d(np.asarray(loaded, dtype=float))
            return _table(arr, [f"x{j}" for j in range(arr.shape[1])])
        arrays = {k: loaded[k] for k in loaded.files}
        X = arrays.get("X", arrays.get("x", next(iter(arrays.values()), None)))
        if X is None:
            return None
        X = np.asarray(X, dtype=float).reshape(len(X), -1)
        out = _table(X, [f"x{j}" for j in range(X.shape[1])])
        y = arrays.get("y")
        if y is not None and len(y) == len(X):
            out.label = np.asarray(y, dtype=float).ravel()
        return out
    import pandas as pd

    text = raw.decode("utf-8", errors="replace")
    if lower.endswith(".gz"):
        return None
    sep = "," if lower.endswith(".csv") else ("\t" if lower.endswith(".tsv") else r"\s+")
    first = next((ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")), "")
    header: int | None = 0
    if sep == r"\s+":  # a header line may be commented (#name z mu ...) or absent
        comment = next((ln for ln in text.splitlines() if ln.strip()), "")
        if comment.startswith("#") and not any(c.isdigit() for c in comment.split()[0]):
            text = comment.lstrip("#") + "\n" + text
        elif all(re.fullmatch(r"[-+.\deE]+", tok) for tok in first.split()):
            header = None
    frame = pd.read_csv(io.StringIO(text), sep=sep, comment="#" if sep == r"\s+" else None, header=header,
                        engine="python" if sep == r"\s+" else "c", on_bad_lines="skip")
    words = [c for c, kind in frame.dtypes.items() if kind == np.dtype("O")]  # only text columns need coercion
    numeric = frame.copy() if words else frame
    for column in words:
        numeric[column] = pd.to_numeric(frame[column], errors="coerce")
    out = _table(numeric.to_numpy(dtype=float), [str(c) for c in frame.columns])
    out.n_missing_rows = int(frame.isna().any(axis=1).sum())
    return out


def _table(arr: np.ndarray, columns: list[str]) -> Table:
    finite = np.isfinite(arr)
    return Table(n_rows=int(arr.shape[0]), columns=columns, data=arr, n_missing_rows=int((~finite).any(axis=1).sum()))


def duplicate_rows(table: Table) -> int:
    """Rows equal to an earlier row (computed only when a reason for dropped rows is wanted: it sorts)."""
    if table.data is None or not table.data.size or len(table.data) > 200_000:
        return 0
    return int(len(table.data) - len(np.unique(np.nan_to_num(table.data, nan=np.inf), axis=0)))


def count_rows(raw: bytes, name: str) -> int | None:
    """Data rows of a table without parsing it (lines that are neither blank, comments nor the header)."""
    lower = name.lower()
    if lower.endswith((".npz", ".npy", ".gz")):
        table = read_table(raw, name)
        return None if table is None else table.n_rows
    lines = [ln for ln in raw.decode("utf-8", errors="replace").splitlines()
             if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return 0
    first = re.split(r"[,\t ]+", lines[0].strip())
    numeric = all(re.fullmatch(r"[-+.\deE]+|nan|NaN|", tok) for tok in first)
    return len(lines) - (0 if numeric else 1)


def _load(ev: StepEvidence, rel: str) -> Table | None:
    return read_table(ev.read(rel, limit=MAX_BYTES), rel)


def _primary_input(ev: StepEvidence) -> str | None:
    """The step's main data file: a method's ``data``-like argument, else its only input (covariances aside)."""
    for key in ("data", "table", "path", "file", "chain", "csv"):
        value = ev.arguments.get(key)
        if isinstance(value, str) and value in ev.inputs:
            return value
    candidates = [p for p in ev.inputs if "cov" not in p.lower()]
    return candidates[0] if len(candidates) == 1 else None


def _used_rows(ev: StepEvidence) -> int | None:
    declared = ev.section("rows")
    if isinstance(declared.get("used"), int):
        return int(declared["used"])
    for source in (ev.values, ev.diagnostics):
        for key in _USED:
            value = source.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
    train, test = ev.values.get("n_train"), ev.values.get("n_test")
    if isinstance(train, int) and isinstance(test, int):
        return train + test
    return None


def _mentions(text: str, number: int) -> bool:
    return re.search(rf"(?<![\d.]){number}(?![\d]|\.\d)", text.replace(",", "")) is not None


@step_audit("data.rows_dropped")
def rows_dropped(ev: StepEvidence) -> Iterator[Finding]:
    rel = _primary_input(ev)
    used = _used_rows(ev)
    if rel is None or used is None or ev.status != "ok":
        return
    declared = ev.section("rows")
    read = declared.get("read") if isinstance(declared.get("read"), int) else None
    if read is None:
        read = count_rows(ev.read(rel, limit=MAX_BYTES), rel)
        if read is None:
            return
    if used == read:
        return
    stated = ev.stated
    if _mentions(stated, read) or _mentions(stated, abs(read - used)):
        return  # the step (or its task) says how many rows it kept or dropped
    reasons: list[str] = []
    given = declared.get("reasons")
    if isinstance(given, dict):
        reasons = [f"{n} {why}" for why, n in given.items()]
    elif (table := _load(ev, rel)) is not None:
        if table.n_missing_rows:
            reasons.append(f"{table.n_missing_rows} row(s) with missing values")
        if duplicate_rows(table):
            reasons.append(f"{duplicate_rows(table)} duplicated row(s)")
    change = f"{read - used} dropped" if used < read else f"{used - read} added (duplicated or resampled)"
    yield finding("data.rows_dropped",
                  f"{rel} has {read} data rows but the step used {used} ({change}"
                  + (f"; the file has {', '.join(reasons)}" if reasons else "") + "), and it does not say so",
                  file=rel, rows_read=read, rows_used=used)


def _ranks(x: np.ndarray) -> np.ndarray:
    """1-based ranks with ties averaged (scipy's rankdata, without importing scipy.stats)."""
    _, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    upper = np.cumsum(counts)
    return np.asarray((upper - (counts - 1) / 2.0)[inverse], dtype=float)


def single_feature_auc(X: np.ndarray, y: np.ndarray, max_rows: int = 20_000, max_columns: int = 300) -> np.ndarray:
    """AUC-ROC of each column alone as a score for binary ``y`` (NaN for constant or non-finite columns)."""
    if len(y) > max_rows:
        pick = np.random.default_rng(0).choice(len(y), max_rows, replace=False)
        X, y = X[pick], y[pick]
    positive = y == 1
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    out = np.full(min(X.shape[1], max_columns), np.nan)
    if n_pos == 0 or n_neg == 0:
        return out
    for j in range(out.size):
        column = X[:, j]
        if not np.isfinite(column).all() or np.ptp(column) == 0:
            continue
        ranks = _ranks(column)
        out[j] = (ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    return out


_SCORES = re.compile(r"(^|[._])(auc\w*|roc\w*|accuracy|acc|f1\w*|precision|recall|average_precision|ap|score)$")


def _reports_a_score(values: dict[str, Any]) -> bool:
    """Whether a step's values hold a classification score (only a score can be inflated by leakage)."""
    from cmbagent.audits._values import leaves

    return any(_SCORES.search(name.lower()) for name, _ in leaves(values, limit=50))


def _label(ev: StepEvidence, table: Table) -> tuple[str, np.ndarray] | None:
    if table.label is not None:
        return "y", table.label
    named = ev.arguments.get("label_column") or ev.arguments.get("label") or ev.arguments.get("target")
    names = [str(named)] if isinstance(named, str) else [c for c in table.columns if c.lower() in _LABELS]
    for name in names:
        if name in table.columns and table.data is not None:
            column = table.data[:, table.columns.index(name)]
            if np.isfinite(column).all() and set(np.unique(column)) <= {0.0, 1.0}:
                return name, column
    return None


@step_audit("eval.leakage")
def label_in_features(ev: StepEvidence) -> Iterator[Finding]:
    """A feature whose AUC alone is ≥ 0.999 (or ≤ 0.001) is the label in disguise; every score built on it lies."""
    if ev.method is not None and ev.method.split(".")[0] == "causal":
        return  # a covariate that separates the treatment is an overlap problem (causal.no_overlap)
    rel = _primary_input(ev)
    if rel is None or not _reports_a_score(ev.values):
        return
    table = _load(ev, rel)
    if table is None or table.data is None:
        return
    found = _label(ev, table)
    if found is None:
        return
    name, y = found
    columns = [j for j, c in enumerate(table.columns) if c != name]
    auc = single_feature_auc(table.data[:, columns], y)
    strength = np.fmax(auc, 1 - auc)
    if not np.isfinite(strength).any():
        return
    j = int(np.nanargmax(strength))
    if strength[j] >= LEAK_AUC:
        feature = table.columns[columns[j]]
        yield finding("eval.leakage",
                      f"feature {feature!r} of {rel} alone separates the label {name!r} (AUC {auc[j]:.4f}): it "
                      "(almost) equals the label, so every score that uses it is inflated",
                      file=rel, feature=feature, auc=round(float(auc[j]), 5))
