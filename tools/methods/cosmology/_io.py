"""Readers for Type Ia supernova distance files.

Every reader returns one :class:`SNData`: observed magnitudes or distance moduli at CMB-frame and
heliocentric redshifts, with either per-object errors or a full covariance.  Anything that would make a
likelihood silently wrong (a missing column, a NaN, a non-positive error, z <= 0, a covariance of the
wrong size or not positive definite) raises :class:`cmbagent.exceptions.DataError` naming the row,
column or problem, because a fit on a broken table returns numbers that look fine and are not.

Supported formats (``format=`` names):

``pantheon_plus``
    ``Pantheon+SH0ES.dat``: whitespace table with a header; uses ``m_b_corr`` (magnitudes, offset M
    free), ``zHD`` as the CMB-frame redshift and ``zHEL``; keeps rows with ``zHD > 0.01`` (1590 of 1701);
    diagonal errors ``m_b_corr_err_DIAG`` unless a covariance file is given (first line N = rows of the
    file, then N*N values; restricted to the kept rows).
``union21``
    ``SCPUnion2.1_mu_vs_z.txt``: ``#`` comment lines, then ``name z mu sigma_mu [p_lowmass]``.
``jla_binned``
    Binned/compressed distances: rows ``z mu`` (no errors); a covariance file is required (N*N values,
    with or without a leading N).
``lcparam``
    CosmoMC ``lcparam`` file (header ``#name zcmb zhel dz mb dmb ...``), standardised magnitudes ``mb``
    with errors ``dmb``; an optional systematic covariance (first line N) is added to ``diag(dmb**2)``.
    Read as CosmoMC and Cobaya read it, by position: the official binned releases (Pantheon
    ``lcparam_DS17f.txt``, Union3 ``lcparam_full.txt``) name 19 columns and carry 18 values per row (the
    trailing ``biascor`` is absent), which is accepted.  A file whose ``mb`` column holds distance moduli
    (Union3: ``mb`` ≈ μ, ``dmb`` zero or negligible, every error in the covariance) is recognised by comparing
    ``mb`` with a fiducial distance modulus and read as ``mu``; zero ``dmb`` needs the covariance.
``csv``
    A table with named columns (comma, tab or whitespace separated), see :data:`CSV_COLUMNS`.
"""

from __future__ import annotations

import gzip
import math
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from cmbagent.exceptions import DataError

__all__ = [
    "CSV_COLUMNS",
    "FORMATS",
    "SNData",
    "detect_format",
    "fiducial_mu",
    "load_sn_data",
    "read_covariance",
]

Kind = Literal["mu", "mb"]
FORMATS = ("pantheon_plus", "union21", "jla_binned", "lcparam", "csv")

#: Accepted column names of the ``csv`` format (case-insensitive), in order of preference.
CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "z": ("zcmb", "z_cmb", "zhd", "z", "redshift"),
    "zhel": ("zhel", "z_hel", "z_helio"),
    "mu": ("mu", "distmod", "distance_modulus", "mu_obs"),
    "mb": ("m_b_corr", "mb", "m_b", "mb_corr"),
    "err": (
        "sigma_mu", "mu_err", "dmu", "mu_error", "err_mu", "muerr", "muerr_final", "mu_err_final",
        "m_b_corr_err_diag", "dmb", "mb_err", "sigma_mb", "err_mb",
        "sigma", "err", "error",
    ),
}

PANTHEON_Z_MIN = 0.01


@dataclass(frozen=True)
class SNData:
    """Supernova distances ready for a likelihood.

    Attributes:
        z_cmb: redshift used for the distance (CMB frame / Hubble-diagram redshift).
        z_hel: heliocentric redshift for the (1 + z_hel) luminosity-distance factor.
        obs: observed distance moduli (``kind == "mu"``) or standardised magnitudes (``"mb"``).
        kind: ``"mu"`` or ``"mb"``; magnitudes carry an unknown absolute magnitude M.
        sigma: per-object errors (sqrt of the covariance diagonal).
        covariance: full covariance, or None when errors are diagonal.
        names: object names (row labels for messages and plots).
        format: the reader that produced it.
        source: the file read.
        notes: what the reader did (cuts, dropped rows), for the report.
    """

    z_cmb: NDArray[np.float64]
    z_hel: NDArray[np.float64]
    obs: NDArray[np.float64]
    kind: Kind
    sigma: NDArray[np.float64]
    covariance: NDArray[np.float64] | None
    names: tuple[str, ...]
    format: str
    source: str
    notes: tuple[str, ...] = field(default_factory=tuple)
    n_read: int | None = None  # data rows in the file, before any cut (None: all were kept)
    dropped: tuple[tuple[str, int], ...] = ()  # (why, how many) for the rows not kept

    @property
    def n(self) -> int:
        return int(self.obs.size)

    @property
    def rows(self) -> dict[str, object]:
        """Rows read and used, and why the others were dropped (what the ``data.rows_dropped`` audit reads)."""
        read = self.n if self.n_read is None else self.n_read
        return {"read": read, "used": self.n, "reasons": dict(self.dropped)}

    def with_covariance(self, cov: NDArray[np.float64], note: str) -> SNData:
        return replace(self, covariance=cov, sigma=np.sqrt(np.diag(cov)), notes=(*self.notes, note))


# --------------------------------------------------------------------------------------------- helpers
def _open_text(path: Path) -> str:
    if not path.is_file():
        raise DataError(f"data file not found: {path}; pass the path of an existing file")
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _split(line: str) -> list[str]:
    if "," in line:
        return [tok.strip() for tok in line.split(",")]
    return line.split()


def _number(token: str, *, where: str) -> float:
    try:
        value = float(token)
    except ValueError:
        raise DataError(f"{where}: {token!r} is not a number; fix or remove that row") from None
    if not math.isfinite(value):
        raise DataError(f"{where}: value is {token!r} (NaN or infinite); fix or remove that row")
    return value


@dataclass
class _Table:
    columns: list[str]
    rows: list[list[str]]
    line_numbers: list[int]
    path: Path

    def column(self, name: str) -> NDArray[np.float64]:
        index = self.columns.index(name)
        out = np.empty(len(self.rows))
        for i, (row, lineno) in enumerate(zip(self.rows, self.line_numbers, strict=True)):
            out[i] = _number(row[index], where=f"{self.path.name} line {lineno}, column {name!r}")
        return out

    def text(self, name: str) -> tuple[str, ...]:
        index = self.columns.index(name)
        return tuple(row[index] for row in self.rows)


def _read_table(path: Path, text: str, *, header_comment: bool = False, optional_trailing: int = 0) -> _Table:
    """A delimited table whose first (optionally ``#``-prefixed) line names the columns.

    ``optional_trailing``: rows may lack up to this many trailing columns (read positionally, as CosmoMC does);
    the missing values are read as ``0``.
    """
    columns: list[str] | None = None
    rows: list[list[str]] = []
    numbers: list[int] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if columns is None:
            if stripped.startswith("#"):
                if not header_comment:
                    continue
                stripped = stripped.lstrip("#").strip()
            columns = _split(stripped)
            continue
        if stripped.startswith("#"):
            continue
        tokens = _split(stripped)
        if len(columns) - optional_trailing <= len(tokens) < len(columns):
            tokens = tokens + ["0"] * (len(columns) - len(tokens))
        if len(tokens) != len(columns):
            short = f" (up to {optional_trailing} trailing column(s) may be absent)" if optional_trailing else ""
            raise DataError(
                f"{path.name} line {lineno}: {len(tokens)} fields but the header names {len(columns)} columns; "
                f"every row needs one value per column{short}"
            )
        rows.append(tokens)
        numbers.append(lineno)
    if columns is None or not rows:
        raise DataError(f"{path.name}: no header line and data rows found; the file is empty or not a table")
    return _Table(columns, rows, numbers, path)


def _require(table: _Table, names: tuple[str, ...], fmt: str) -> None:
    missing = [name for name in names if name not in table.columns]
    if missing:
        raise DataError(
            f"{table.path.name}: missing column(s) {', '.join(missing)} required by the {fmt} format "
            f"(columns found: {', '.join(table.columns[:12])}{' ...' if len(table.columns) > 12 else ''})"
        )


def _check_values(
    path: Path, z: NDArray[np.float64], err: NDArray[np.float64] | None, lines: list[int], *, zname: str, ename: str
) -> None:
    bad_z = np.flatnonzero(~(z > 0))
    if bad_z.size:
        i = int(bad_z[0])
        raise DataError(
            f"{path.name} line {lines[i]}, column {zname!r}: redshift {z[i]:g} <= 0 ({bad_z.size} such rows); "
            "distances need z > 0, remove those rows"
        )
    if err is not None:
        bad = np.flatnonzero(~(err > 0))
        if bad.size:
            i = int(bad[0])
            raise DataError(
                f"{path.name} line {lines[i]}, column {ename!r}: error {err[i]:g} is not positive "
                f"({bad.size} such rows); errors must be > 0"
            )


# --------------------------------------------------------------------------------------------- covariance
def read_covariance(path: str | Path, n: int, *, keep: NDArray[np.intp] | None = None) -> NDArray[np.float64]:
    """Read an ``n x n`` covariance stored as N*N numbers, with or without a leading ``N``.

    Args:
        path: the covariance file (text or gzip).
        n: number of rows of the data file the matrix belongs to (before any cut).
        keep: indices of the rows kept by the data reader; the matrix is restricted to them.

    Raises:
        DataError: wrong number of values, a leading count that disagrees with the data, non-finite
            values, an asymmetric matrix or one that is not positive definite.
    """
    path = Path(path)
    text = _open_text(path)
    tokens = text.split()
    try:
        values = np.array(tokens, dtype=float)
    except ValueError:
        bad = next(t for t in tokens if not _is_float(t))
        raise DataError(f"covariance {path.name}: {bad!r} is not a number") from None
    if values.size == n * n + 1:
        if int(values[0]) != n or values[0] != int(values[0]):
            raise DataError(f"covariance {path.name}: first line says N = {values[0]:g}, but the data have {n} rows")
        values = values[1:]
    elif values.size != n * n:
        side = math.isqrt(values.size)
        hint = f" (looks like a {side}x{side} matrix)" if side * side in (values.size, values.size - 1) else ""
        raise DataError(
            f"covariance {path.name} has {values.size} values{hint}, but the data have {n} rows: expected "
            f"{n * n} values, optionally preceded by a line '{n}'; pass the covariance that belongs to this file"
        )
    if not np.all(np.isfinite(values)):
        raise DataError(f"covariance {path.name}: contains NaN or infinite values")
    cov = values.reshape(n, n)
    if keep is not None:
        cov = cov[np.ix_(keep, keep)]
    scale = float(np.max(np.abs(cov))) or 1.0
    if not np.allclose(cov, cov.T, rtol=1e-6, atol=1e-10 * scale):
        raise DataError(f"covariance {path.name} is not symmetric; check that it is stored row-major as N*N values")
    cov = 0.5 * (cov + cov.T)
    try:
        np.linalg.cholesky(cov)
    except np.linalg.LinAlgError:
        eig = float(np.linalg.eigvalsh(cov)[0])
        raise DataError(
            f"covariance {path.name} is not positive definite (smallest eigenvalue {eig:.3g}); "
            "it cannot be a covariance of these data"
        ) from None
    return cov


def _is_float(token: str) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return True


# --------------------------------------------------------------------------------------------- readers
def _read_pantheon_plus(path: Path, text: str, covariance: Path | None) -> SNData:
    table = _read_table(path, text)
    _require(table, ("zHD", "zHEL", "m_b_corr", "m_b_corr_err_DIAG"), "Pantheon+")
    zhd = table.column("zHD")
    keep = np.flatnonzero(zhd > PANTHEON_Z_MIN)
    if keep.size == 0:
        raise DataError(f"{path.name}: no rows with zHD > {PANTHEON_Z_MIN}")
    lines = [table.line_numbers[i] for i in keep]
    zhel = table.column("zHEL")[keep]
    mb = table.column("m_b_corr")[keep]
    err = table.column("m_b_corr_err_DIAG")[keep]
    _check_values(path, zhd[keep], err, lines, zname="zHD", ename="m_b_corr_err_DIAG")
    _check_values(path, zhel, None, lines, zname="zHEL", ename="")
    names = table.text("CID") if "CID" in table.columns else tuple(str(i) for i in range(len(table.rows)))
    data = SNData(
        z_cmb=zhd[keep], z_hel=zhel, obs=mb, kind="mb", sigma=err, covariance=None,
        names=tuple(names[i] for i in keep), format="pantheon_plus", source=str(path),
        notes=(f"kept {keep.size} of {len(table.rows)} rows with zHD > {PANTHEON_Z_MIN}",),
        n_read=len(table.rows), dropped=((f"with zHD <= {PANTHEON_Z_MIN}", len(table.rows) - keep.size),),
    )
    if covariance is None:
        return replace(data, notes=(*data.notes, "diagonal errors m_b_corr_err_DIAG (no covariance given)"))
    cov = read_covariance(covariance, len(table.rows), keep=keep)
    return data.with_covariance(cov, f"covariance {covariance.name} restricted to the kept rows")


def _read_union21(path: Path, text: str) -> SNData:
    names: list[str] = []
    values: list[tuple[float, float, float]] = []
    lines: list[int] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        tokens = stripped.split()
        if len(tokens) < 4:
            raise DataError(
                f"{path.name} line {lineno}: {len(tokens)} fields; Union2.1 rows are 'name z mu sigma_mu [p_low]'"
            )
        where = f"{path.name} line {lineno}"
        z, mu, sigma = (_number(tok, where=f"{where}, column {col}")
                        for tok, col in zip(tokens[1:4], ("z", "mu", "sigma_mu"), strict=True))
        values.append((z, mu, sigma))
        names.append(tokens[0])
        lines.append(lineno)
    if not values:
        raise DataError(f"{path.name}: no data rows")
    arr = np.array(values)
    _check_values(path, arr[:, 0], arr[:, 2], lines, zname="z", ename="sigma_mu")
    return SNData(
        z_cmb=arr[:, 0], z_hel=arr[:, 0].copy(), obs=arr[:, 1], kind="mu", sigma=arr[:, 2], covariance=None,
        names=tuple(names), format="union21", source=str(path),
        notes=("diagonal errors sigma_mu; z used for both the CMB-frame and heliocentric redshift",),
    )


def _read_binned(path: Path, text: str, covariance: Path | None) -> SNData:
    values: list[tuple[float, float]] = []
    lines: list[int] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        tokens = stripped.split()
        if len(tokens) != 2:
            raise DataError(f"{path.name} line {lineno}: {len(tokens)} fields; binned rows are 'z mu'")
        where = f"{path.name} line {lineno}"
        values.append((_number(tokens[0], where=f"{where}, column z"), _number(tokens[1], where=f"{where}, column mu")))
        lines.append(lineno)
    if not values:
        raise DataError(f"{path.name}: no data rows")
    arr = np.array(values)
    _check_values(path, arr[:, 0], None, lines, zname="z", ename="")
    if covariance is None:
        raise DataError(
            f"{path.name} is a binned 'z mu' file without errors: pass its covariance file "
            "(e.g. covariance='jla_mub_covmatrix.txt')"
        )
    cov = read_covariance(covariance, arr.shape[0])
    return SNData(
        z_cmb=arr[:, 0], z_hel=arr[:, 0].copy(), obs=arr[:, 1], kind="mu", sigma=np.sqrt(np.diag(cov)),
        covariance=cov, names=tuple(f"bin{i}" for i in range(arr.shape[0])), format="jla_binned",
        source=str(path), notes=(f"full covariance {covariance.name}", "z used for both redshifts"),
    )


#: fiducial background that tells distance moduli from magnitudes (flat, Omega_m = 0.3, H0 = 70 km/s/Mpc)
_FIDUCIAL_OMEGA_M, _FIDUCIAL_H0, _C_KM_S = 0.3, 70.0, 299792.458


def fiducial_mu(z_cmb: NDArray[np.float64], z_hel: NDArray[np.float64]) -> NDArray[np.float64]:
    """Distance moduli of the fiducial flat ΛCDM (only to tell what a column holds, never to fit)."""
    from cmbagent.tools.methods.cosmology._background import DistanceGrid

    dc = DistanceGrid.build(z_cmb).comoving(_FIDUCIAL_OMEGA_M, 1 - _FIDUCIAL_OMEGA_M)[0]
    return np.asarray(5 * np.log10((1 + z_hel) * dc * _C_KM_S / _FIDUCIAL_H0) + 25)


def _read_lcparam(path: Path, text: str, covariance: Path | None) -> SNData:
    table = _read_table(path, text, header_comment=True, optional_trailing=1)
    _require(table, ("zcmb", "zhel", "mb", "dmb"), "CosmoMC lcparam")
    z, zhel, mb, dmb = (table.column(c) for c in ("zcmb", "zhel", "mb", "dmb"))
    _check_values(path, z, None, table.line_numbers, zname="zcmb", ename="dmb")
    _check_values(path, zhel, None, table.line_numbers, zname="zhel", ename="")
    negative = np.flatnonzero(dmb < 0)
    if negative.size:
        i = int(negative[0])
        raise DataError(f"{path.name} line {table.line_numbers[i]}, column 'dmb': error {dmb[i]:g} is negative")
    zero = np.flatnonzero(dmb == 0)
    if zero.size and covariance is None:
        raise DataError(
            f"{path.name}: dmb is zero on {zero.size} of {z.size} rows, so the errors of this file are in its "
            "covariance; pass covariance= (the release's sys/stat covariance file)"
        )
    offset = float(np.median(mb - fiducial_mu(z, zhel)))
    kind: Kind = "mu" if abs(offset) < 2.5 else "mb"
    names = table.text("name") if "name" in table.columns else tuple(str(i) for i in range(z.size))
    notes = ["standardised magnitudes mb with statistical errors dmb" if kind == "mb" else
             f"column mb holds distance moduli (median mb - fiducial mu = {offset:+.2f} mag); read as mu"]
    data = SNData(
        z_cmb=z, z_hel=zhel, obs=mb, kind=kind, sigma=dmb, covariance=None, names=names, format="lcparam",
        source=str(path), notes=tuple(notes),
    )
    if covariance is None:
        return data
    sys_cov = read_covariance(covariance, z.size)
    total = sys_cov + np.diag(dmb**2)
    return data.with_covariance(total, f"covariance {covariance.name} + diag(dmb^2)")


def _pick(columns: list[str], role: str) -> str | None:
    lower = {c.lower(): c for c in columns}
    for candidate in CSV_COLUMNS[role]:
        if candidate in lower:
            return lower[candidate]
    return None


def _read_csv(path: Path, text: str, covariance: Path | None) -> SNData:
    table = _read_table(path, text, header_comment=True)
    zcol = _pick(table.columns, "z")
    mucol = _pick(table.columns, "mu")
    mbcol = _pick(table.columns, "mb")
    errcol = _pick(table.columns, "err")
    if zcol is None:
        raise DataError(f"{path.name}: missing redshift column; name it one of {', '.join(CSV_COLUMNS['z'])}")
    obscol, kind = (mucol, "mu") if mucol is not None else (mbcol, "mb")
    if obscol is None:
        raise DataError(
            f"{path.name}: missing distance column; name it one of {', '.join(CSV_COLUMNS['mu'])} "
            f"(distance moduli) or {', '.join(CSV_COLUMNS['mb'])} (magnitudes)"
        )
    if errcol is None and covariance is None:
        raise DataError(
            f"{path.name}: missing error column; name it one of {', '.join(CSV_COLUMNS['err'])}, "
            "or pass a covariance file"
        )
    z = table.column(zcol)
    obs = table.column(obscol)
    err = table.column(errcol) if errcol is not None else None
    _check_values(path, z, err, table.line_numbers, zname=zcol, ename=errcol or "")
    hcol = _pick(table.columns, "zhel")
    zhel = table.column(hcol) if hcol is not None else z.copy()
    if hcol is not None:
        _check_values(path, zhel, None, table.line_numbers, zname=hcol, ename="")
    namecol = next((c for c in table.columns if c.lower() in ("name", "cid", "sn")), None)
    names = table.text(namecol) if namecol else tuple(str(i) for i in range(z.size))
    notes = [f"columns z={zcol}, {kind}={obscol}" + (f", error={errcol}" if errcol else "")]
    if covariance is None:
        sigma = err if err is not None else np.full(z.size, np.nan)  # err is present: checked above
        return SNData(z, zhel, obs, kind, sigma, None, names, "csv", str(path), tuple(notes))  # type: ignore[arg-type]
    cov = read_covariance(covariance, z.size)
    return SNData(
        z, zhel, obs, kind, np.sqrt(np.diag(cov)), cov, names, "csv", str(path),  # type: ignore[arg-type]
        (*notes, f"full covariance {covariance.name}"),
    )


# --------------------------------------------------------------------------------------------- entry point
_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def detect_format(path: str | Path, text: str | None = None) -> str:
    """Guess the format of a supernova file from its header and first rows."""
    path = Path(path)
    text = _open_text(path) if text is None else text
    first_data: list[str] | None = None
    header = ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not header:
            header = stripped
        if stripped.startswith("#"):
            continue
        first_data = _split(stripped)
        break
    head = _split(header.lstrip("#").strip())
    lower = [h.lower() for h in head]
    if "m_b_corr" in head and "zHD" in head:
        return "pantheon_plus"
    if header.startswith("#") and {"zcmb", "zhel", "mb", "dmb"} <= set(lower):
        return "lcparam"
    if first_data is not None and all(_NUMBER.match(t) for t in first_data):
        if len(first_data) == 2:
            return "jla_binned"
    if first_data is not None and len(first_data) in (4, 5) and not _NUMBER.match(first_data[0]) and all(
        _NUMBER.match(t) for t in first_data[1:]
    ):
        if header.startswith("#") or first_data == _split(header):
            return "union21"
    if _pick(head, "z") is not None:
        return "csv"
    raise DataError(
        f"{path.name}: format not recognised; pass format= one of {', '.join(FORMATS)} "
        "(a CSV needs a header naming its z, mu/mb and error columns)"
    )


def load_sn_data(data: str | Path, covariance: str | Path | None = None, format: str = "auto") -> SNData:
    """Read a supernova distance file in any supported format.

    Args:
        data: path of the data file (text or gzip).
        covariance: path of a covariance file, or None for diagonal errors.
        format: ``"auto"`` or one of :data:`FORMATS` (``"jla"``/``"binned"`` and ``"union2.1"`` are aliases).
    """
    path = Path(data)
    text = _open_text(path)
    cov_path = Path(covariance) if covariance else None
    if cov_path is not None and not cov_path.is_file():
        raise DataError(f"covariance file not found: {cov_path}; pass an existing path or null")
    aliases = {"jla": "jla_binned", "binned": "jla_binned", "union2.1": "union21", "pantheon+": "pantheon_plus"}
    fmt = aliases.get(format.lower(), format.lower())
    if fmt == "auto":
        fmt = detect_format(path, text)
    if fmt == "pantheon_plus":
        return _read_pantheon_plus(path, text, cov_path)
    if fmt == "union21":
        if cov_path is not None:
            data_ = _read_union21(path, text)
            return data_.with_covariance(read_covariance(cov_path, data_.n), f"full covariance {cov_path.name}")
        return _read_union21(path, text)
    if fmt == "jla_binned":
        return _read_binned(path, text, cov_path)
    if fmt == "lcparam":
        return _read_lcparam(path, text, cov_path)
    if fmt == "csv":
        return _read_csv(path, text, cov_path)
    raise DataError(f"unknown format {format!r}; use 'auto' or one of {', '.join(FORMATS)}")
