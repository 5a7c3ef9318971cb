"""Cells the offline backend writes: inspect the input files, plot the values of earlier steps.

They print their result between the markers of :mod:`cmbagent.cells`, like any agent-written cell.
"""

from __future__ import annotations

from cmbagent.cells import RESULT_BEGIN, RESULT_END

__all__ = ["inspect_code", "plot_code"]


def inspect_code(paths: list[str]) -> str:
    """A cell that loads each input file and prints its size, columns and missing or non-finite values."""
    return f'''import json, pathlib
import numpy as np
import pandas as pd

def _number(_text):
    try:
        float(_text)
    except ValueError:
        return False
    return True


_facts = {{}}
for _path in {paths!r}:
    _p = pathlib.Path(_path)
    _suffix = _p.suffix.lower()
    try:
        if _suffix in (".csv", ".tsv"):  # a first row of numbers only is data: the file has no header
            _sep = "\\t" if _suffix == ".tsv" else ","
            with _p.open(encoding="utf-8", errors="replace") as _f:
                _fields = [_t.strip().strip('"') for _t in _f.readline().split(_sep)]
            _bare = any(_fields) and all(_number(_t) for _t in _fields if _t)
            _df = pd.read_csv(_p, sep=_sep, header=None if _bare else "infer")
        elif _suffix == ".npy":
            _df = pd.DataFrame(np.atleast_2d(np.load(_p, allow_pickle=False)))
        elif _suffix == ".npz":  # arrays X (features) and y (labels) in ADBench files
            with np.load(_p, allow_pickle=False) as _z:
                _arrays = {{_k: _z[_k] for _k in _z.files}}
            print(f"{{_path}}: arrays " + ", ".join(f"{{_k}} {{_v.shape}}" for _k, _v in _arrays.items()))
            _main = _arrays.get("X", next((_v for _v in _arrays.values() if _v.ndim == 2), None))
            _df = pd.DataFrame(np.atleast_2d(_main)) if _main is not None else pd.DataFrame()
            if "y" in _arrays and len(_arrays["y"]) == len(_df):
                _df["y"] = _arrays["y"]
        elif _suffix == ".json":
            _df = pd.read_json(_p)
        elif _suffix in (".fits", ".fit"):
            from astropy.table import Table
            _df = Table.read(_p).to_pandas()
        else:  # whitespace text: a first row holding any number is data, not a header
            _raw = _p.read_bytes()
            if _raw[:2] == b"\\x1f\\x8b":
                import gzip
                _raw = gzip.decompress(_raw)
            _first = next((_l for _l in _raw.decode("utf-8", "replace").splitlines()
                           if _l.strip() and not _l.lstrip().startswith("#")), "")
            _numeric = any(_t.lstrip("+-").replace(".", "", 1).replace("e", "", 1).replace("E", "", 1)
                           .replace("-", "", 1).replace("+", "", 1).isdigit() for _t in _first.split())
            _df = pd.read_csv(_p, sep=r"\\s+", comment="#", header=None if _numeric else "infer")
    except Exception as _exc:  # report what can be said about an unreadable file
        _lines = _p.read_bytes().count(b"\\n")
        _facts[_path] = {{"bytes": _p.stat().st_size, "n_lines": _lines, "note": f"{{type(_exc).__name__}}: {{_exc}}"}}
        print(f"{{_path}}: {{_lines}} lines, not parsed as a table ({{type(_exc).__name__}})")
        continue
    _num = _df.select_dtypes("number")
    _missing = int(_df.isna().sum().sum())
    _nonfinite = int((~np.isfinite(_num.to_numpy(dtype=float))).sum()) if not _num.empty else 0
    print(f"{{_path}}: {{_df.shape[0]}} rows x {{_df.shape[1]}} columns")
    print("columns:", ", ".join(map(str, _df.columns[:30])))
    if not _num.empty:
        print(_num.iloc[:, :8].describe().T[["mean", "std", "min", "max"]].to_string())
    _facts[_path] = {{"n_rows": int(_df.shape[0]), "n_columns": int(_df.shape[1]), "n_missing": _missing,
                     "n_nonfinite": _nonfinite}}

print({RESULT_BEGIN!r})
print(json.dumps({{"n_files": len(_facts), "files": _facts}}))
print({RESULT_END!r})
'''


def plot_code(values: dict[str, tuple[float, float]], figure: str) -> str:
    """A cell that plots each ``name: (mean, std)`` as a point with its error bar into ``figure``."""
    return f'''import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

_values = {values!r}
fig, ax = plt.subplots(figsize=(5, 0.5 + 0.4 * max(1, len(_values))))
for _i, (_name, (_mean, _std)) in enumerate(sorted(_values.items())):
    ax.errorbar(_mean, _i, xerr=_std, fmt="o", capsize=3)
ax.set_yticks(range(len(_values)), sorted(_values))
ax.set_xlabel("value (mean ± 1σ)")
fig.savefig({figure!r}, dpi=120, bbox_inches="tight")
plt.close(fig)
print({RESULT_BEGIN!r})
print(json.dumps({{"figures": [{figure!r}], "n_values": len(_values)}}))
print({RESULT_END!r})
'''
