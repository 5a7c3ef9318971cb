"""What an input file holds, read from its head: the kind of file, its shape and each column's content.

The task reader maps prose onto method arguments by the data as well as by the words: a column that holds
only 0 and 1 can be a treatment or a label, a headerless square block of numbers is a covariance matrix, a
file that starts with ``31`` and then holds 961 numbers is one too.  :func:`profile_file` reads at most
:data:`HEAD_BYTES` of a file (and :data:`MAX_ROWS` rows), parses it with the standard library and numpy only,
and never raises for a file it does not understand: it says ``kind="other"``.
"""

from __future__ import annotations

import csv
import io
import math
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["HEAD_BYTES", "MAX_ROWS", "ColumnProfile", "FileProfile", "profile_file"]

HEAD_BYTES = 4 * 2**20
MAX_ROWS = 20_000
MAX_NAMES = 500  # the longest list of names an archive's profile keeps (feature names, not a text column)
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
_MISSING = {"", "nan", "na", "n/a", "null", "none", "-", "?", "inf", "-inf"}


@dataclass(frozen=True)
class ColumnProfile:
    """One column as read from the head of its file."""

    name: str
    numeric: bool  # every present value parses as a number
    count: int  # values present (not missing)
    missing: int
    unique: int  # distinct values (capped at 1000)
    binary: bool = False  # exactly two distinct values, numeric 0/1 or two labels
    positive_share: float | None = None  # share of the larger value of a binary column
    integer: bool = False
    minimum: float | None = None
    maximum: float | None = None
    mean: float | None = None
    examples: tuple[str, ...] = ()

    @property
    def constant(self) -> bool:
        return self.unique <= 1

    def describe(self) -> str:
        """``treat: binary 0/1 (31% ones)`` / ``re78: numeric 0 … 6.1e+04`` / ``name: text (e.g. SN1a, ...)``."""
        if self.binary:
            share = f" ({self.positive_share:.0%} {'ones' if self.numeric else 'of the second value'})" \
                if self.positive_share is not None else ""
            return f"{self.name}: binary{' 0/1' if self.numeric else ''}{share}"
        if self.numeric and self.minimum is not None:
            kind = "integer" if self.integer else "numeric"
            return f"{self.name}: {kind} {self.minimum:.4g} … {self.maximum:.4g}"
        return f"{self.name}: text (e.g. {', '.join(self.examples[:3])})"


@dataclass(frozen=True)
class FileProfile:
    """An input file: ``kind`` is ``table`` (named columns), ``headerless`` (columns without names, not all
    numeric), ``matrix`` (numbers without a header), ``arrays`` (``.npz``/``.npy``), ``code`` (``.py``), ``text`` or
    ``other``."""

    name: str
    kind: str
    rows: int = 0  # rows read (a lower bound when ``truncated``)
    columns: tuple[ColumnProfile, ...] = ()
    truncated: bool = False
    square: bool = False  # a matrix N x N, or N followed by N*N numbers
    size: int | None = None  # N of a square matrix
    symmetric: bool = False
    arrays: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: an archive's short lists of names (a 1-D array of text, such as ``feature_names``), as written
    names: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns] if self.kind == "table" else []

    def column(self, name: str) -> ColumnProfile | None:
        return next((c for c in self.columns if c.name == name), None)

    @property
    def covariance_like(self) -> bool:
        """A square, symmetric block of numbers with a positive diagonal: what a covariance file holds."""
        return self.square and self.symmetric


def _fields(line: str, delimiter: str | None) -> list[str]:
    if delimiter == ",":
        return [f.strip().strip('"').strip("'") for f in next(csv.reader(io.StringIO(line)), [])]
    return [f.strip() for f in (line.split(delimiter) if delimiter else line.split())]


def _delimiter(lines: Sequence[str]) -> str | None:
    sample = lines[:20]
    for delimiter in ("\t", ",", ";", "|"):
        # a comma inside a quoted field ("fever, cough") does not separate fields
        counts = {len(_fields(line, ",")) - 1 if delimiter == "," else line.count(delimiter) for line in sample}
        if len(counts) == 1 and counts != {0}:
            return delimiter
    return None


def _is_number(text: str) -> bool:
    return bool(_NUMBER.match(text))


def _column(name: str, raw: list[str]) -> ColumnProfile:
    present = [v for v in raw if v.strip().lower() not in _MISSING]
    missing = len(raw) - len(present)
    distinct = list(dict.fromkeys(present))[:1000]
    numeric = bool(present) and all(_is_number(v) for v in present)
    if not numeric:
        binary = len(set(distinct)) == 2 and len(present) > 2
        share = sum(1 for v in present if v == sorted(distinct)[1]) / len(present) if binary else None
        return ColumnProfile(name=name, numeric=False, count=len(present), missing=missing, unique=len(distinct),
                             binary=binary, positive_share=share, examples=tuple(distinct[:3]))
    values = [float(v) for v in present]
    finite = [v for v in values if math.isfinite(v)]
    levels = sorted(set(values))
    binary = len(levels) == 2 and levels[0] == 0.0 and levels[1] == 1.0
    return ColumnProfile(
        name=name, numeric=True, count=len(present), missing=missing, unique=len(levels),
        binary=binary, positive_share=(sum(values) / len(values)) if binary else None,
        integer=all(v == int(v) for v in finite) if finite else False,
        minimum=min(finite) if finite else None, maximum=max(finite) if finite else None,
        mean=(sum(finite) / len(finite)) if finite else None, examples=tuple(present[:3]))


def _square(numbers: list[float]) -> tuple[bool, int | None, list[float]]:
    """Whether ``numbers`` are an N x N matrix, optionally preceded by N (the JLA and lcparam convention)."""
    if numbers and numbers[0] == int(numbers[0]) and numbers[0] > 1 and len(numbers) == 1 + int(numbers[0]) ** 2:
        return True, int(numbers[0]), numbers[1:]
    root = math.isqrt(len(numbers))
    if root > 1 and root * root == len(numbers):
        return True, root, numbers
    return False, None, numbers


def _symmetric(values: list[float], n: int) -> bool:
    if n > 2000:
        return False
    scale = max((abs(v) for v in values), default=0.0) or 1.0
    for i in range(n):
        if not values[i * n + i] > 0:
            return False
        for j in range(i + 1, min(n, i + 50)):
            if abs(values[i * n + j] - values[j * n + i]) > 1e-6 * scale:
                return False
    return True


def _text_profile(name: str, text: str, truncated: bool) -> FileProfile:
    raw = [line for line in text.splitlines() if line.strip()]
    lines = [line for line in raw if not line.lstrip().startswith(("#", "%"))]
    commented = [line.lstrip("#% \t") for line in raw[:5] if line.lstrip().startswith(("#", "%"))]
    if lines and commented:  # a header written as a comment ("#name zcmb zhel ... mb dmb", CosmoMC lcparam)
        delimiter = _delimiter(lines)
        fields = _fields(commented[-1], delimiter)
        if len(fields) == len(_fields(lines[0], delimiter)) and all(f and not _is_number(f) for f in fields):
            lines = [commented[-1], *lines]
    if truncated and lines:
        lines = lines[:-1]  # the last line may be cut
    if not lines:
        return FileProfile(name=name, kind="text")
    delimiter = _delimiter(lines)
    first = _fields(lines[0], delimiter)
    named = [f for f in first if f and not _is_number(f)]
    header = len(first) >= 1 and len(named) >= 0.8 * len(first) and len(lines) > 1
    body = lines[1:] if header else lines
    rows = [_fields(line, delimiter) for line in body[:MAX_ROWS]]
    width = len(first)
    if not header:
        widths = {len(r) for r in rows}
        if all(_is_number(v) for row in rows for v in row if v):
            numbers = [float(v) for row in rows for v in row if v]
            square, n, values = _square(numbers)
            if square and n is not None and not truncated:
                return FileProfile(name=name, kind="matrix", rows=n, square=True, size=n,
                                   symmetric=_symmetric(values, n))
        if len(widths) != 1 or width > 200:
            return FileProfile(name=name, kind="text", rows=len(rows), truncated=truncated)
        cols = tuple(_column(f"column {i + 1}", [r[i] for r in rows]) for i in range(width))
        kind = "matrix" if all(c.numeric for c in cols) else "headerless"
        return FileProfile(name=name, kind=kind, rows=len(rows), columns=cols,
                           truncated=truncated or len(body) > MAX_ROWS)
    rows = [r for r in rows if len(r) == width]
    columns = tuple(_column(first[i], [r[i] for r in rows]) for i in range(width))
    return FileProfile(name=name, kind="table", rows=len(rows), columns=columns,
                       truncated=truncated or len(body) > MAX_ROWS)


def _arrays_profile(name: str, path: Path) -> FileProfile:
    import numpy as np

    shapes: dict[str, tuple[int, ...]] = {}
    columns: list[ColumnProfile] = []
    names: dict[str, tuple[str, ...]] = {}
    try:
        if path.suffix.lower() == ".npy":
            array = np.load(path, mmap_mode="r", allow_pickle=False)
            shapes["array"] = tuple(array.shape)
        else:
            with np.load(path, allow_pickle=False) as archive:
                for key in archive.files[:50]:
                    array = archive[key]
                    shapes[key] = tuple(array.shape)
                    if array.ndim == 1 and array.size and array.dtype.kind in "biuf":
                        columns.append(_column(key, [repr(float(v)) for v in array[:MAX_ROWS]]))
                    elif array.ndim == 1 and 0 < array.size <= MAX_NAMES and array.dtype.kind in "US":
                        # byte strings (``np.array([b"age"])``, dtype S) are names too, decoded, not "b'age'"
                        names[key] = tuple((v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v))[:80]
                                           for v in array.tolist())
    except (OSError, ValueError, zipfile.BadZipFile):
        return FileProfile(name=name, kind="other")
    return FileProfile(name=name, kind="arrays", arrays=shapes, columns=tuple(columns), names=names)


def _records_profile(name: str, text: str, truncated: bool) -> FileProfile | None:
    """JSON Lines (one object per line: ``{"query": "...", "dose_mg": 90}``) as a table whose columns are the
    objects' keys, in the order first seen; ``None`` when the lines are not all JSON objects.  A nested value
    (a list, an object) is kept as its JSON text."""
    import json

    lines = [line for line in text.splitlines() if line.strip()]
    if truncated and lines:
        lines = lines[:-1]  # the last line may be cut
    records = []
    for line in lines[:MAX_ROWS]:
        try:
            record = json.loads(line)
        except ValueError:
            return None
        if not isinstance(record, dict):
            return None
        records.append(record)
    if not records:
        return None
    keys = list(dict.fromkeys(k for record in records for k in record))

    def cell(value: object) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return str(int(value))
        return value if isinstance(value, str) else json.dumps(value)

    columns = tuple(_column(str(key), [cell(record.get(key)) for record in records]) for key in keys)
    return FileProfile(name=name, kind="table", rows=len(records), columns=columns,
                       truncated=truncated or len(lines) > MAX_ROWS)


def profile_file(name: str, path: Path) -> FileProfile:
    """The profile of the file at ``path`` (``name``: its run-relative name); never raises for its content."""
    suffix = path.suffix.lower()
    if suffix in {".npz", ".npy"}:
        return _arrays_profile(name, path)
    if suffix == ".py":  # a function the method imports (a log density), not data to profile
        return FileProfile(name=name, kind="code")
    if suffix in {".png", ".jpg", ".jpeg", ".pdf", ".zip", ".h5", ".hdf5", ".fits", ".fit", ".pkl", ".parquet",
                  ".xlsx"}:
        return FileProfile(name=name, kind="other")
    opener = open
    if suffix == ".gz":
        import gzip

        opener = gzip.open  # type: ignore[assignment]
    try:
        with opener(path, "rb") as handle:
            head = handle.read(HEAD_BYTES + 1)
    except OSError:
        return FileProfile(name=name, kind="other")
    truncated = len(head) > HEAD_BYTES
    if b"\x00" in head[:4096]:
        return FileProfile(name=name, kind="other")
    text = head[:HEAD_BYTES].decode("utf-8", errors="replace")
    if suffix in {".jsonl", ".ndjson"} or text.lstrip().startswith("{"):
        records = _records_profile(name, text, truncated)
        if records is not None:
            return records
    return _text_profile(name, text, truncated)
