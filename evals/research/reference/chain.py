"""Reference answers of the chain tasks: the released Pantheon+ flat ΛCDM emcee chain (thinned), summarised
with numpy only (no cmbagent code).

The task says to drop the first quarter of the rows as burn-in and to weight every remaining row equally
(the chain's ``prior``/``post`` columns are log densities, not weights).  Intervals are the equal-tailed
percentiles of the kept samples (numpy's default linear interpolation).

Prints one JSON object: ``{task: {value name: number}}``.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import numpy as np

CHAIN = Path(__file__).resolve().parent.parent / "data" / "pantheon_flat_lcdm_chain.txt.gz"


def main() -> dict[str, dict[str, float]]:
    with gzip.open(CHAIN, "rt") as handle:
        header = handle.readline().lstrip("#").split()
        rows = np.loadtxt(handle, comments="#")
    kept = rows[rows.shape[0] // 4:]
    om = kept[:, header.index("cosmological_parameters--omega_m")]
    lo68, hi68 = np.percentile(om, [15.865525393145708, 84.13447460685429])
    lo95, hi95 = np.percentile(om, [2.5, 97.5])
    return {
        "m09-chain-summary": {"omega_m": float(om.mean()), "omega_m_std": float(om.std(ddof=1)),
                              "n_samples": int(om.size)},
        "m10-chain-interval": {"omega_m_lower_95": float(lo95), "omega_m_upper_95": float(hi95),
                               "omega_m_lower_68": float(lo68), "omega_m_upper_68": float(hi68)},
    }


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
