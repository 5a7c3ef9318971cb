"""Input checks and small helpers shared by the causal method tools.

Every check raises :class:`~cmbagent.exceptions.UserError` (or :class:`DataError` for file contents) whose
message names the offending argument and says how to fix it, so a model calling the tool can correct itself.
"""

from __future__ import annotations

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
    "output_path",
]


def load_table(path: str, *, argument: str = "data") -> pd.DataFrame:
    """Read a CSV/TSV/Parquet/Stata/Excel table; an unreadable file is a :class:`DataError` naming ``argument``."""
    import pandas as pd

    file = Path(path)
    if not file.is_file():
        raise UserError(f"{argument}: file {path!r} not found; pass the path of an existing data file")
    suffix = "".join(file.suffixes[-2:]).lower() if file.suffix == ".gz" else file.suffix.lower()
    try:
        if suffix in {".csv", ".csv.gz", ".txt"}:
            return pd.read_csv(file)
        if suffix in {".tsv", ".tab"}:
            return pd.read_csv(file, sep="\t")
        if suffix == ".parquet":
            return pd.read_parquet(file)
        if suffix == ".dta":
            return pd.read_stata(file)
        if suffix in {".xlsx", ".xls"}:
            return pd.read_excel(file)
    except Exception as exc:  # translate any parser failure at the boundary
        raise DataError(
            f"{argument}: could not read {path!r} as a table ({exc}); check the file format"
        ) from exc
    raise UserError(
        f"{argument}: unsupported file type {file.suffix!r}; use .csv, .tsv, .parquet, .dta or .xlsx"
    )


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


def check_columns(frame: pd.DataFrame, columns: list[str], *, argument: str) -> None:
    """Every name in ``columns`` must be a column of ``frame``."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        shown = ", ".join(map(str, list(frame.columns)[:30]))
        raise UserError(f"{argument}: column(s) {missing} not in the data; available columns: {shown}")


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


def output_path(output_dir: str, name: str) -> Path:
    """``output_dir/name``, creating the folder (relative paths resolve against the run folder)."""
    folder = Path(output_dir)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name
