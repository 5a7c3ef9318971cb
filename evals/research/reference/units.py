"""Reference answers of the unit-conversion and goodness-of-fit tasks (numpy and scipy; constants written
out with their sources, no astropy, no cmbagent code).

Constants: 1 pc = 3.085677581491367e16 m (IAU 2015 B2), 1 light year = 9.4607304725808e15 m (Julian year
× c), 1 Gyr = 3.15576e16 s (Julian years), c = 299792.458 km/s (exact).

Prints one JSON object: ``{task: {value name: number}}``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent.parent / "data"
PC_M = 3.085677581491367e16
LY_M = 9.4607304725808e15
GYR_S = 3.15576e16
MPC_KM = PC_M * 1e6 / 1e3
C_KM_S = 299_792.458


def union21() -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    rows = [line.split("\t") for line in (DATA / "SCPUnion2.1_mu_vs_z.txt").read_text().splitlines()
            if line and not line.startswith("#")]
    return ([r[0] for r in rows], np.array([float(r[1]) for r in rows]), np.array([float(r[2]) for r in rows]),
            np.array([float(r[3]) for r in rows]))


def main() -> dict[str, dict[str, float]]:
    from scipy import integrate, stats

    out: dict[str, dict[str, float]] = {}
    _, z, mu, err = union21()
    far = int(np.argmax(z))
    d_mpc = 10 ** ((mu[far] - 25) / 5)
    out["c03-luminosity-distance"] = {"redshift": float(z[far]), "distance_gpc": d_mpc / 1e3,
                                      "distance_gly": d_mpc * 1e6 * PC_M / LY_M / 1e9}

    h0 = 70.0
    hubble_time = MPC_KM / h0 / GYR_S

    def age_integrand(a: float) -> float:
        return 1.0 / (a * np.sqrt(0.3 / a**3 + 0.7))

    age = hubble_time * integrate.quad(age_integrand, 0.0, 1.0, epsabs=1e-12, epsrel=1e-12)[0]
    out["c04-hubble-time"] = {"hubble_time_gyr": hubble_time, "age_gyr": age}

    def inv_e(x: float) -> float:
        return 1.0 / np.sqrt(0.3 * (1 + x) ** 3 + 0.7)

    dc = np.array([integrate.quad(inv_e, 0.0, zi, epsabs=1e-12, epsrel=1e-10)[0] for zi in z]) * C_KM_S / h0
    model = 5 * np.log10((1 + z) * dc) + 25
    chi2 = float((((mu - model) / err) ** 2).sum())
    out["c20-goodness-of-fit"] = {"chi2": chi2, "n": int(z.size), "p_value": float(stats.chi2.sf(chi2, z.size))}
    return out


if __name__ == "__main__":
    json.dump(main(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
