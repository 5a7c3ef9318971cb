"""The premises of the tasks that cannot be done as asked, checked on the data (pandas and numpy only).

Each of those tasks is graded on the run saying that it cannot be done and why; this script shows that the
reason is real: the column is absent, no unit is untreated, no supernova lies beyond the asked redshift,
the file cannot fix the Hubble constant, the sample is smaller than the task claims.

Prints one JSON object: ``{task: {fact: number}}`` (1 = true, 0 = false for yes/no facts).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(__file__).resolve().parent.parent / "data"


def main() -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    sipp = pd.read_csv(DATA / "sipp1991.csv")
    out["i01-missing-debt-column"] = {"has_debt_column": float(any("debt" in c.lower() for c in sipp.columns))}
    tutoring = pd.read_csv(DATA / "tutoring.csv")
    out["i02-no-comparison-group"] = {"n_untutored": float((tutoring["tutored"] == 0).sum()), "n": float(len(tutoring))}
    z = np.array([float(line.split("\t")[1]) for line in
                  (DATA / "SCPUnion2.1_mu_vs_z.txt").read_text().splitlines() if line and not line.startswith("#")])
    out["i03-no-high-redshift"] = {"n_beyond_2": float((z > 2).sum()), "max_redshift": float(z.max())}
    # the binned JLA moduli carry an arbitrary additive offset (Betoule et al. 2014, Appendix E): a constant added
    # to every μ is exactly degenerate with 5 log10 H0, so the file cannot fix H0 (shown: same χ² after a shift)
    mu = np.loadtxt(DATA / "jla_mub.txt")[:, 1]
    cov = np.loadtxt(DATA / "jla_mub_covmatrix.txt").reshape(mu.size, mu.size)
    inv = np.linalg.inv(cov)
    ones = np.ones(mu.size)
    shift = 5 * np.log10(73.0 / 67.0)

    def profiled(residual: np.ndarray) -> float:
        return float(residual @ inv @ residual - (residual @ inv @ ones) ** 2 / (ones @ inv @ ones))

    out["i04-hubble-constant-from-offsets"] = {"chi2_change_h0_67_to_73": abs(profiled(mu) - profiled(mu + shift))}
    sn = pd.read_csv(DATA / "Pantheon+SH0ES.dat", sep=r"\s+")
    kept = float((sn["zHD"] > 0.01).sum())
    out["i05-contradictory-sample-size"] = {"n_rows_zhd_above_001": kept, "n_used": kept}
    cancer = pd.read_csv(DATA / "breast_cancer.csv")
    kept = cancer[cancer["benign"] == 1]
    out["i06-single-class-classifier"] = {"n_malignant_after_filter": float((kept["benign"] == 0).sum()),
                                          "n_rows_after_filter": float(len(kept))}
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
