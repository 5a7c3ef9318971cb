"""Reading the tables the robustness tools take: an .npz (X, y[, feature_names]) or a CSV with a label column."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.exceptions import DataError

__all__ = ["LABEL_NAMES", "load_table"]

LABEL_NAMES = ("y", "label", "labels", "class", "target", "outcome")


def load_table(path: str, label_column: str | None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``(X, y, feature names)`` from an .npz (X, y[, feature_names]) or a CSV with a label column."""
    p = Path(path)
    if not p.is_file():
        raise DataError(f"data file {path!r} does not exist; pass the path of an .npz or .csv file")
    if p.suffix == ".npz":
        with np.load(p, allow_pickle=False) as d:
            if "X" not in d or "y" not in d:
                raise DataError(f"{p.name} needs arrays X and y; it has {list(d.keys())}")
            X, y = np.asarray(d["X"]), np.asarray(d["y"]).ravel()
            names = (
                [str(n) for n in d["feature_names"]]
                if "feature_names" in d
                else [f"x{i}" for i in range(X.shape[1])]
            )
    elif p.suffix in {".csv", ".tsv"}:
        import pandas as pd

        frame = pd.read_csv(p, sep="\t" if p.suffix == ".tsv" else ",")
        if label_column is None:
            label_column = next((c for c in frame.columns if str(c).strip().lower() in LABEL_NAMES), None)
            if label_column is None:
                raise DataError(
                    f"no label column in {p.name} (columns {list(frame.columns)[:12]}...); pass label_column"
                )
        elif label_column not in frame.columns:
            raise DataError(
                f"label column {label_column!r} not in {p.name}; columns are {list(frame.columns)}"
            )
        y = frame[label_column].to_numpy()
        feats = frame.drop(columns=[label_column])
        # one text column whose every value differs ("T001", "T002", …; 20 rows or more) names the rows: no feature
        text = [c for c in feats.columns if not pd.api.types.is_numeric_dtype(feats[c])]
        named = [c for c in text if len(feats) >= 20 and feats[c].notna().all() and feats[c].nunique() == len(feats)]
        if len(named) == 1:
            feats = feats.drop(columns=named)
        bad = [str(c) for c in feats.columns if not pd.api.types.is_numeric_dtype(feats[c])]
        if bad:
            raise DataError(
                f"non-numeric feature columns {bad} in {p.name}; encode them as numbers or drop them"
            )
        X, names = feats.to_numpy(), [str(c) for c in feats.columns]
    else:
        raise DataError(f"unsupported file type {p.suffix!r}; use .npz (X, y) or .csv with a label column")
    if X.ndim != 2 or not np.issubdtype(X.dtype, np.number):
        raise DataError(
            f"{p.name}: features must be a numeric 2-D table; got dtype {X.dtype}, shape {X.shape}"
        )
    X = X.astype(float)
    if not np.isfinite(X).all():
        cols = sorted({names[j] for j in np.where(~np.isfinite(X))[1]})[:10]
        raise DataError(
            f"{p.name}: {int((~np.isfinite(X)).sum())} NaN/inf feature values (columns {cols}); impute or drop them"
        )
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise DataError(f"{p.name}: {int(np.isnan(y).sum())} labels are missing; drop those rows")
    return X, y, names
