"""File writers shared by the prose sets' ``make_data.py`` scripts (numpy and the standard library only).

Every writer fixes its bytes: floats go out in a stated format, arrays with a hand-written header, so that a set's
``make_data.py`` regenerates its ``data/`` byte for byte on any platform (each set's ``test_set.py`` checks it).
A set's script registers its file writers with a ``Writers`` list and runs them from ``generate``.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

W = TypeVar("W", bound=Callable[[Path], Any])


class Writers:
    """The writers of one set's data files, in the order they were registered (``@writers`` on each)."""

    def __init__(self) -> None:
        self.all: list[Callable[[Path], Any]] = []

    def __call__(self, fn: W) -> W:
        self.all.append(fn)
        return fn

    def run(self, out: Path) -> dict[str, Any]:
        """Write every file into ``out`` (created if needed); what each writer returns, by its name."""
        out.mkdir(parents=True, exist_ok=True)
        return {fn.__name__: fn(out) for fn in self.all}


def main(doc: str, generate: Callable[[Path], object], default: Path) -> None:
    """The command line of a ``make_data.py``: ``--out DIR`` (default the set's ``data/``)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--out", type=Path, default=default)
    generate(parser.parse_args().out)


def table(path: Path, columns: Mapping[str, Sequence[object] | np.ndarray], formats: Mapping[str, str] | None = None,
          *, sep: str = ",", header: bool = True) -> None:
    """Columns to a delimited file (a header row unless ``header`` is false); floats use the column's format
    (default ``.5g``), booleans and integers are written as integers, strings as they are."""
    formats = formats or {}
    names = list(columns)
    with path.open("w", newline="") as fh:
        out = csv.writer(fh, delimiter=sep, lineterminator="\n")
        if header:
            out.writerow(names)
        for row in zip(*(columns[n] for n in names), strict=True):
            cells = []
            for name, v in zip(names, row, strict=True):
                if isinstance(v, str):
                    cells.append(v)
                elif isinstance(v, (bool, np.bool_, int, np.integer)):
                    cells.append(str(int(v)))
                else:
                    cells.append(format(float(v), formats.get(name, ".5g")))
            out.writerow(cells)


def json_lines(path: Path, records: Sequence[Mapping[str, object]]) -> None:
    """One JSON object per line (UTF-8 kept as it is)."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))


def array(path: Path, values: np.ndarray) -> None:
    """A 2-D float32 ``.npy`` written by hand (format 1.0), so the header does not depend on numpy's version."""
    values = np.ascontiguousarray(values, dtype="<f4")
    rows, cols = values.shape
    header = f"{{'descr': '<f4', 'fortran_order': False, 'shape': ({rows}, {cols}), }}"
    pad = 64 - (10 + len(header) + 1) % 64
    header += " " * pad + "\n"
    path.write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1")
                     + values.tobytes())


def expit(x: np.ndarray) -> np.ndarray:
    """The logistic function."""
    return 1.0 / (1.0 + np.exp(-x))


def npy_bytes(values: np.ndarray, descr: str = "<f4") -> bytes:
    """A 2-D float32 array (or a 1-D one with ``descr='<i8'``) in ``.npy`` format 1.0, to memory, with a header
    written by hand (as ``array`` writes it)."""
    values = np.ascontiguousarray(values, dtype=descr)
    shape = f"({values.shape[0]}, {values.shape[1]})" if values.ndim == 2 else f"({values.shape[0]},)"
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}"
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1") + values.tobytes()


def npz(path: Path, arrays: Mapping[str, bytes]) -> None:
    """An ``.npz`` archive of ready ``.npy`` members (``npy_bytes``): stored, uncompressed, with a fixed date, so
    that its bytes depend on the arrays alone."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as zf:
        for name, payload in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, payload)
    path.write_bytes(buf.getvalue())


def gzip_text(path: Path, text: str) -> None:
    """Text gzip-compressed with no file name and a zero timestamp in the header (the bytes depend on the text)."""
    import gzip

    path.write_bytes(gzip.compress(text.encode(), compresslevel=9, mtime=0))
