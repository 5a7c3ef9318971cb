"""File writers shared by the prose sets' ``make_data.py`` scripts (numpy and the standard library only).

Every writer fixes its bytes: floats go out in a stated format, arrays with a hand-written header, archives with
stored members and a fixed date, gzip with no name or time stamp, so that a set's ``make_data.py`` regenerates its
``data/`` byte for byte on any platform (each set's ``test_set.py`` checks it).

A set's script registers its file writers with a ``Writers`` list and runs them from ``generate``.
``python tests/<set>/make_data.py`` rewrites the set's ``data/`` and ``--out DIR`` writes elsewhere; the set's
``test_set.py`` runs ``generate`` into a temporary folder and compares checksums with the committed files. Each
file is simulated with numpy alone from its own seed; nothing uses cmbagent's code, so that the data do not depend
on the code they measure.

The last part holds what several sets simulate with (a distance modulus, a settling chain, ordered survey answers,
a correlated covariance), written once instead of once a set. The sets' bytes depend on their arithmetic, so it does
not change (every set's byte-for-byte check would fail); a variant that a set needs (another integrator) stays in
that set's script.
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


def write_covariance(path: Path, cov: np.ndarray) -> None:
    """A square covariance as text, the layout the supernova fits read: N on the first line, then the N*N values
    one per line (``.6e``)."""
    path.write_text(f"{cov.shape[0]}\n" + "".join(f"{v:.6e}\n" for v in cov.ravel()))


# ---------------------------------------------------------------------------------- what the sets simulate with

C_KM_S = 299792.458  # the speed of light in km/s


def distance_modulus(z: np.ndarray, om: float, ode: float | None = None, w0: float = -1.0, wa: float = 0.0,
                     h0: float = 70.0) -> np.ndarray:
    """mu = 5 log10(D_L / 10 pc) with matter, CPL dark energy and curvature (flat when ``ode`` is None); a
    trapezoid on 8001 redshifts, no radiation."""
    ode = 1.0 - om if ode is None else ode
    ok = 1.0 - om - ode
    grid = np.linspace(0.0, float(np.max(z)) * 1.001, 8001)
    a = 1 / (1 + grid)
    de = a ** (-3 * (1 + w0 + wa)) * np.exp(-3 * wa * (1 - a))
    inv = 1.0 / np.sqrt(om * (1 + grid) ** 3 + ode * de + ok * (1 + grid) ** 2)
    dc = np.concatenate([[0.0], np.cumsum((inv[1:] + inv[:-1]) / 2 * np.diff(grid))])
    if abs(ok) > 1e-9:
        s = np.sqrt(abs(ok))
        dc = np.sinh(s * dc) / s if ok > 0 else np.sin(s * dc) / s
    return np.asarray(5 * np.log10((1 + z) * np.interp(z, grid, dc) * C_KM_S / h0) + 25)


def correlated_cov(z: np.ndarray, err: np.ndarray, floor: float, scale: float) -> np.ndarray:
    """Diagonal errors plus a smooth correlated floor that decays over ``scale`` in redshift (positive definite):
    the redshift-correlated systematic a supernova covariance carries."""
    return np.diag(err ** 2) + floor ** 2 * np.exp(-np.abs(z[:, None] - z[None, :]) / scale)


def ar_chain(rng: np.random.Generator, n: int, centre: np.ndarray, sd: np.ndarray, start: np.ndarray,
             settle: float, rho: float = 0.6) -> np.ndarray:
    """An autocorrelated chain that starts at ``start`` and settles on ``centre`` over about ``settle`` rows: an
    MCMC chain with a burn-in and lag-1 autocorrelation ``rho``. The default is the eleventh to fifteenth sets'
    value; the earlier sets pass their own."""
    x = np.empty((n, centre.size))
    state = np.zeros(centre.size)
    for i in range(n):
        state = rho * state + np.sqrt(1 - rho ** 2) * rng.normal(size=centre.size)
        x[i] = centre + np.exp(-i / settle) * (start - centre) + sd * state
    return x


def ordered(rng: np.random.Generator, score: np.ndarray, levels: Sequence[str],
            cuts: tuple[float, float]) -> list[str]:
    """Three ordered answers (``levels[0]`` highest) from a latent score plus logistic noise: an ordered-logit
    survey item, cut at ``cuts``."""
    noisy = score + rng.logistic(size=score.size)
    return [levels[0] if s > cuts[1] else levels[1] if s > cuts[0] else levels[2] for s in noisy]
