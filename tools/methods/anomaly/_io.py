"""Feature checks the anomaly tools share (a 2-D finite numeric table, with the data's name in the error)."""

from __future__ import annotations

from typing import Any

import numpy as np

from cmbagent.exceptions import DataError

__all__ = ["check_features"]


def check_features(X: Any, *, name: str = "X") -> np.ndarray:
    """Validate a feature matrix: 2-D, numeric, finite. Returns it as float64."""
    arr = np.asarray(X)
    if arr.ndim != 2:
        raise DataError(f"{name} must be a 2-D array (rows x features); got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise DataError(f"{name} is empty (shape {arr.shape}); pass at least one row and one feature")
    if not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise DataError(
            f"{name} has non-numeric features (dtype {arr.dtype}); encode categorical columns as numbers first"
        )
    arr = arr.astype(np.float64)
    bad = ~np.isfinite(arr)
    if bad.any():
        cols = sorted(set(np.where(bad)[1].tolist()))[:10]
        raise DataError(
            f"{name} contains {int(bad.sum())} NaN/inf values (feature columns {cols}); impute or drop them first"
        )
    return arr
