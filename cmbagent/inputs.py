"""What code can say about a run's input files before anything reads them in full: size and column names.

Both are shown at the start of a run (a 200 MB input should not be a surprise ten minutes in) and the
columns go into the task analyst's context, so a task that names its columns only in prose can be mapped
(and checked) against the columns the data really has.  Only the head of a file is read, and no file is
parsed by a library: a header is the first non-comment line whose fields are mostly not numbers.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from cmbagent.profiles import ColumnProfile, FileProfile, profile_file

__all__ = ["LARGE_INPUT_BYTES", "ColumnProfile", "FileProfile", "InputInfo", "column_names", "describe_inputs",
           "human_size", "profile_inputs"]

#: inputs at least this big are announced as large at the start of a run
LARGE_INPUT_BYTES = 100 * 2**20
_HEAD_BYTES = 64 * 1024
_TABLE_SUFFIXES = {".csv", ".tsv", ".txt", ".dat", ".tab", ".ssv"}
_NUMERIC = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^(nan|inf|-inf|na|null)$", re.I)


@dataclass(frozen=True)
class InputInfo:
    """One input file: its run-relative name, size and (for tables) column names."""

    name: str
    bytes: int
    columns: tuple[str, ...] = ()

    @property
    def large(self) -> bool:
        return self.bytes >= LARGE_INPUT_BYTES

    def line(self) -> str:
        cols = f", {len(self.columns)} columns" if self.columns else ""
        return f"{self.name} ({human_size(self.bytes)}{cols})"


def human_size(n: int) -> str:
    """``1.5 GB``, ``200.0 MB``, ``12.3 kB``, ``512 bytes``."""
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("kB", 2**10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


def column_names(path: Path) -> tuple[str, ...]:
    """The header of a delimited or whitespace table (``()`` for other files or a file without a header)."""
    if path.suffix.lower() not in _TABLE_SUFFIXES:
        return ()
    try:
        with open(path, "rb") as handle:
            head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return ()
    line = next((raw for raw in head.splitlines() if raw.strip() and not raw.lstrip().startswith("#")), "")
    if not line:
        return ()
    if path.suffix.lower() == ".tsv" or "\t" in line:
        fields = line.split("\t")
    elif "," in line:
        fields = next(csv.reader(io.StringIO(line)))
    else:
        fields = line.split()
    fields = [f.strip().strip('"').strip("'") for f in fields]
    named = [f for f in fields if f and not _NUMERIC.match(f)]
    if len(fields) < 2 or len(named) < 0.8 * len(fields):
        return ()
    return tuple(fields)


def describe_inputs(files: Mapping[str, Path]) -> list[InputInfo]:
    """Size and columns of each input (``files``: run-relative name -> path of the file to read)."""
    out = []
    for name, path in files.items():
        try:
            size = path.stat().st_size
        except OSError:
            continue
        out.append(InputInfo(name=name, bytes=size, columns=column_names(path)))
    return out


def profile_inputs(files: Mapping[str, Path]) -> list[FileProfile]:
    """What each input holds, read from its head (``files``: run-relative name -> path of the file to read):
    the kind of file, its shape and each column's content (see :mod:`cmbagent.profiles`)."""
    return [profile_file(name, path) for name, path in files.items() if path.is_file()]
