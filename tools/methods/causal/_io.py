"""Input checks and small helpers shared by the causal method tools.

Every check raises :class:`~cmbagent.exceptions.UserError` (or :class:`DataError` for file contents) whose
message names the offending argument and says how to fix it, so a model calling the tool can correct itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from cmbagent.exceptions import DataError, UserError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "as_binary",
    "check_columns",
    "check_finite",
    "check_fraction",
    "check_not_constant",
    "check_same_length",
    "load_array",
    "load_table",
    "normal_quantity",
]


def load_table(path: str, *, argument: str = "data", column_names: Sequence[str] | None = None) -> pd.DataFrame:
    """Read a CSV/TSV/Parquet/Stata/Excel table; an unreadable file is a :class:`DataError` naming ``argument``.

    ``column_names`` names the columns of a text or Excel table that has no header row (its first line is then
    data); a file whose first line already names its columns is refused with it, so no data row is lost or a
    header read as data.
    """
    import pandas as pd

    file = Path(path)
    if not file.is_file():
        raise UserError(f"{argument}: file {path!r} not found; pass the path of an existing data file")
    suffix = "".join(file.suffixes[-2:]).lower() if file.suffix == ".gz" else file.suffix.lower()
    header = None if column_names is not None else "infer"
    if column_names is not None and suffix in {".parquet", ".dta"}:
        raise UserError(f"column_names: a {suffix} file names its own columns; omit column_names")
    try:
        if suffix in {".csv", ".csv.gz", ".txt"}:
            frame = pd.read_csv(file, header=header)
        elif suffix in {".tsv", ".tab"}:
            frame = pd.read_csv(file, sep="\t", header=header)
        elif suffix == ".parquet":
            frame = pd.read_parquet(file)
        elif suffix == ".dta":
            frame = pd.read_stata(file)
        elif suffix in {".xlsx", ".xls"}:
            frame = pd.read_excel(file, header=0 if column_names is None else None)
        else:
            raise UserError(
                f"{argument}: unsupported file type {file.suffix!r}; use .csv, .tsv, .parquet, .dta or .xlsx"
            )
    except UserError:
        raise
    except Exception as exc:  # translate any parser failure at the boundary
        raise DataError(
            f"{argument}: could not read {path!r} as a table ({exc}); check the file format"
        ) from exc
    if column_names is not None:
        _name_columns(frame, list(column_names), path=path)
    return frame


def _looks_numeric(value: object) -> bool:
    """Whether a header cell is a number (a data value that pandas took for a column name)."""
    try:
        float(str(value).strip())
    except ValueError:
        return False
    return True


def _name_columns(frame: pd.DataFrame, names: list[str], *, path: str) -> None:
    """Give a header-less table its ``names`` in place, refusing a wrong count or a file that has a header."""
    if len(names) != frame.shape[1]:
        raise UserError(f"column_names: {len(names)} name(s) for a table of {frame.shape[1]} columns in {path!r}; "
                        "give one name per column, in file order")
    if len(set(names)) != len(names):
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise UserError(f"column_names: {repeated} given more than once; every column needs its own name")
    if len(frame) > 1 and not any(_looks_numeric(v) for v in frame.iloc[0]):
        import pandas as pd

        numeric_below = any(pd.to_numeric(frame.iloc[1:, i], errors="coerce").notna().all()
                            for i in range(frame.shape[1]))
        if numeric_below:
            shown = ", ".join(map(str, list(frame.iloc[0])[:8]))
            raise UserError(f"column_names: the first line of {path!r} ({shown}, ...) already names the columns; "
                            "omit column_names to use it (or remove that line from the file)")
    frame.columns = names


def check_columns(frame: pd.DataFrame, columns: list[str], *, argument: str,
                  names_argument: str | None = None) -> None:
    """Every name in ``columns`` must be a column of ``frame``.

    When the table's column names are numbers, its file most likely has no header row and pandas read the first
    data row as names; the error says so, and how to name the columns (``names_argument`` when the method has one).
    """
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        names = list(frame.columns)
        shown = ", ".join(map(str, names[:30]))
        numeric = sum(_looks_numeric(c) for c in names)
        if names and numeric * 2 >= len(names):
            how = (f"pass {names_argument}=[...] with one name per column ({len(names)} columns, in file order) "
                   "or add a first line with the names" if names_argument else
                   f"add a first line naming the {len(names)} columns (comma-separated, in file order)")
            raise UserError(f"{argument}: column(s) {missing} not in the data; the file appears to have no header "
                            f"row: its first line ({', '.join(map(str, names[:8]))}{', ...' if len(names) > 8 else ''})"
                            f" holds numbers, which were read as column names; {how}")
        raise UserError(f"{argument}: column(s) {missing} not in the data; available columns: {shown}")


def load_array(path: str, *, argument: str) -> np.ndarray:
    """Read a 2-D float array from ``.npy``, ``.npz`` (first array) or a header-less ``.csv``."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"{argument}: file {path!r} not found; pass the path of an existing array file")
    try:
        if file.suffix == ".npy":
            array = np.load(file, allow_pickle=False)
        elif file.suffix == ".npz":
            with np.load(file, allow_pickle=False) as archive:
                array = archive[archive.files[0]]
        else:
            array = np.loadtxt(file, delimiter=",", ndmin=2)
    except Exception as exc:
        raise DataError(f"{argument}: could not read {path!r} as a numeric array ({exc})") from exc
    array = np.asarray(array, dtype=float)
    if array.ndim == 1:
        array = array[:, None]
    if array.ndim != 2:
        raise DataError(f"{argument}: expected a 2-D array (units x features), got shape {array.shape}")
    return array


def check_finite(values: np.ndarray, *, argument: str) -> np.ndarray:
    """Return ``values`` as floats; NaN or infinite entries are an error naming ``argument``."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise DataError(
            f"{argument}: values must be numeric ({exc}); encode categories as numbers first"
        ) from exc
    bad = ~np.isfinite(array)
    if bad.any():
        rows = np.unique(np.nonzero(bad)[0])[:5].tolist()
        raise DataError(
            f"{argument}: {int(bad.sum())} missing or infinite value(s) (first rows {rows}); "
            "drop or impute them before calling the method"
        )
    return array


def check_not_constant(values: np.ndarray, *, argument: str, names: list[str] | None = None) -> None:
    """Columns with a single value carry no information and break scaling: refuse them by name."""
    array = np.asarray(values, dtype=float)
    if array.ndim == 1:
        array = array[:, None]
    constant = np.nonzero(np.ptp(array, axis=0) == 0)[0]
    if constant.size:
        labels = [names[i] for i in constant] if names else constant.tolist()
        raise DataError(
            f"{argument}: constant column(s) {labels[:10]}; remove them (they carry no information)"
        )


def check_same_length(**arrays: np.ndarray) -> int:
    """All arrays must have the same number of rows; returns it."""
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{k}={v}" for k, v in lengths.items())
        raise DataError(f"mismatched lengths ({shown}); every input must have one row per unit")
    return next(iter(lengths.values()))


def as_binary(values: np.ndarray, *, argument: str) -> np.ndarray:
    """Map a two-valued column to {0, 1}; anything else is an error that says which argument must be binary."""
    array = check_finite(values, argument=argument).ravel()
    levels = np.unique(array)
    if levels.size != 2:
        raise DataError(
            f"{argument}: must be binary (two values, e.g. 0/1), found {levels.size} distinct value(s) "
            f"{levels[:6].tolist()}; recode it or choose a method that allows a continuous {argument}"
        )
    if not np.array_equal(levels, [0.0, 1.0]):
        return (array == levels[1]).astype(float)
    return array


def check_fraction(value: float, *, argument: str) -> float:
    """A probability-like level that must lie strictly inside (0, 1)."""
    if not (0.0 < float(value) < 1.0):
        raise UserError(f"{argument}: must lie strictly between 0 and 1, got {value}")
    return float(value)


def normal_quantity(mean: float, std: float) -> dict[str, float]:
    """A number with a Gaussian standard error, in the result format of docs/architecture.md, "Method tool"
    (68% and 95% intervals)."""
    return {
        "mean": float(mean),
        "std": float(std),
        "lower_68": float(mean - std),
        "upper_68": float(mean + std),
        "lower_95": float(mean - 1.959963984540054 * std),
        "upper_95": float(mean + 1.959963984540054 * std),
    }
