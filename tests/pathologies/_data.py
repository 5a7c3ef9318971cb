"""The pathology suite's data, made from the data the examples ship and tests/data by the changes
a pathology names: errors scaled, rows turned NaN, bins dropped, a label copied into a feature, overlap broken.

Everything is small (hundreds of rows) so the whole suite runs in minutes; :func:`build` writes every file
once into a folder shared by the suite's tasks.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "data"
REFERENCE = ROOT / "tests" / "data"


def _pantheon(out: Path, name: str, *, every: int = 4, error_scale: float = 1.0) -> None:
    frame = pd.read_csv(EXAMPLES / "sn" / "Pantheon+SH0ES.dat", sep=r"\s+")
    frame = frame.iloc[::every].copy()
    frame["m_b_corr_err_DIAG"] *= error_scale
    frame.to_csv(out / name, sep=" ", index=False)


def _union(out: Path, name: str, *, error_scale: float = 1.0) -> None:
    lines = []
    for line in (EXAMPLES / "sn" / "SCPUnion2.1_mu_vs_z.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            lines.append(line)
            continue
        parts = line.split()
        parts[3] = f"{float(parts[3]) * error_scale:.6f}"
        lines.append("\t".join(parts))
    (out / name).write_text("\n".join(lines) + "\n")


def _jla_bins(out: Path, every: int) -> None:
    rows = np.loadtxt(EXAMPLES / "sn" / "jla_mub.txt")
    cov = np.loadtxt(EXAMPLES / "sn" / "jla_mub_covmatrix.txt").reshape(len(rows), len(rows))
    keep = np.arange(0, len(rows), every)
    np.savetxt(out / "jla_few_bins.txt", rows[keep], fmt="%.8f")
    np.savetxt(out / "jla_few_bins_cov.txt", cov[np.ix_(keep, keep)].ravel(), fmt="%.10g")


def _points_with_nan(out: Path) -> None:
    """Union2.1 as a CSV (z, mu, sigma) with the distance modulus of 20 rows lost (NaN)."""
    frame = pd.read_csv(EXAMPLES / "sn" / "SCPUnion2.1_mu_vs_z.txt", sep=r"\s+", comment="#", header=None,
                        names=["name", "z", "mu", "sigma", "p_low"])
    frame = frame[["z", "mu", "sigma"]].copy()
    frame.loc[frame.index[::29], "mu"] = np.nan
    frame.to_csv(out / "union_points_nan.csv", index=False)
    frame.dropna().to_csv(out / "union_points.csv", index=False)


def _cardio(out: Path) -> None:
    data = np.load(EXAMPLES / "anomaly" / "6_cardio.npz")
    X, y = data["X"], data["y"].astype(int)
    columns = [f"f{j}" for j in range(X.shape[1])]
    clean = pd.DataFrame(X, columns=columns).assign(y=y)
    clean.to_csv(out / "cardio.csv", index=False)
    leak = clean.copy()
    leak.insert(3, "review_flag", y + np.random.default_rng(0).normal(0, 0.01, len(y)))  # the label, barely hidden
    leak.to_csv(out / "cardio_leak.csv", index=False)
    shutil.copy(EXAMPLES / "anomaly" / "6_cardio.npz", out / "cardio.npz")


def _ihdp(out: Path) -> None:
    frame = pd.read_csv(EXAMPLES / "causal" / "ihdp_npci_1.csv")
    frame.drop(columns=["y_cfactual", "mu0", "mu1"]).to_csv(out / "ihdp.csv", index=False)
    cut = frame["x1"].median()
    broken = frame[((frame.treatment == 1) & (frame.x1 > cut)) | ((frame.treatment == 0) & (frame.x1 <= cut))]
    broken.drop(columns=["y_cfactual", "mu0", "mu1"]).to_csv(out / "ihdp_no_overlap.csv", index=False)


def _sipp(out: Path) -> None:
    frame = pd.read_csv(EXAMPLES / "causal" / "sipp1991.csv")
    frame.sample(n=1500, random_state=0).to_csv(out / "sipp_sample.csv", index=False)


def _chains(out: Path) -> None:
    rng = np.random.default_rng(3)
    iid = np.column_stack([rng.normal(0.30, 0.02, 4000), rng.normal(0.70, 0.01, 4000)])
    np.savetxt(out / "chain_iid.txt", iid, header="omega_m h0", fmt="%.6f")
    published = REFERENCE / "sn" / "Pantheon+only_FlatLambdaCDM_chain.txt.gz"
    # the released CosmoSIS chain cut to its first 120 ensemble steps (16 walkers)
    text = gzip.decompress(published.read_bytes()).decode().splitlines()
    head = [ln for ln in text if ln.startswith("#")]
    body = [ln for ln in text if ln.strip() and not ln.startswith("#")][: 120 * 16]
    (out / "pantheon_chain_cut.txt").write_text("\n".join(head + body) + "\n")


def build(out: Path) -> Path:
    """Write every data file of the suite into ``out`` (returned)."""
    out.mkdir(parents=True, exist_ok=True)
    _pantheon(out, "pantheon_subset.dat")
    _pantheon(out, "pantheon_errors_x3.dat", error_scale=3.0)
    _union(out, "union21.txt")
    _union(out, "union21_errors_div3.txt", error_scale=1 / 3)
    for name in ("jla_mub.txt", "jla_mub_covmatrix.txt"):
        shutil.copy(EXAMPLES / "sn" / name, out / name)
    _jla_bins(out, every=3)
    _points_with_nan(out)
    _cardio(out)
    _ihdp(out)
    _sipp(out)
    _chains(out)
    return out
