"""Benchmark: the CAMB emulator of ``cosmology.fit_cmb`` against CAMB, per evaluation of the Planck likelihood.

Baseline: CAMB (``camb_spectra`` at the emulator's accuracy settings: lmax 2508, lens_potential_accuracy 1,
HMcode lensing) at ``--points`` points drawn inside the emulator's box, then the plik_lite chi-square.  Ours:
the emulator's spectra at the same points, one point per call (as Cobaya's Metropolis sampler calls it) and
a batch of 64, then the same chi-square.  Before timing, each point's emulator and CAMB band powers are
compared in the data's units (|C^-1/2 Δ| and the chi-square difference), so the speed is quoted with the
error it costs.  The held-out errors of the emulator's own build are printed too.

Run:  .venv/bin/python bench/cmb.py [--points 3]        (target: ratio >= 1000x at |C^-1/2 Δ| < 0.3)
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=3, help="CAMB runs to time (each takes seconds)")
    args = parser.parse_args()

    from cmbagent.tools.methods.cosmology._camb import camb_spectra
    from cmbagent.tools.methods.cosmology._emulator import LMAX, CMBEmulator
    from cmbagent.tools.methods.cosmology._plik import load_plik_lite

    emulator = CMBEmulator.load()
    bands = load_plik_lite()
    rng = np.random.default_rng(1)
    # points in the inner half of the box (where a posterior lives), w fixed at -1 as in a ΛCDM fit
    u = rng.uniform(-0.5, 0.5, size=(args.points, len(emulator.names)))
    x = emulator.lo + (u + 1.0) / 2.0 * (emulator.hi - emulator.lo)
    x[:, emulator.names.index("w")] = -1.0

    camb_chi2, camb_s = [], []
    for point in x:
        params = dict(zip(emulator.names, point.tolist(), strict=True))
        params.pop("w")
        t0 = time.perf_counter()
        s = camb_spectra(params, lmax=LMAX)
        camb_chi2.append(float(bands.chi2(bands.bin_theory({"TT": s.tt, "TE": s.te, "EE": s.ee}))[0]))
        camb_s.append(time.perf_counter() - t0)
        camb_binned = bands.bin_theory({"TT": s.tt, "TE": s.te, "EE": s.ee})[0]
        emu_binned = bands.bin_theory(emulator.predict(point[None, :])[0])[0]
        norm = float(np.linalg.norm((emu_binned - camb_binned) @ bands.inv_chol_t))
        print(f"point {len(camb_s)}: CAMB {camb_s[-1]:.2f} s, |C^-1/2 (emulator - CAMB)| = {norm:.3f}, "
              f"chi2 CAMB {camb_chi2[-1]:.2f}")

    def one(point: np.ndarray) -> float:
        spectra, _ = emulator.predict(point[None, :])
        return float(bands.chi2(bands.bin_theory(spectra))[0])

    emu_chi2 = [one(p) for p in x]
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 2.0:
        one(x[n % len(x)])
        n += 1
    per_point = (time.perf_counter() - t0) / n
    batch = np.repeat(x, 64 // len(x) + 1, axis=0)[:64]
    m, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 2.0:
        spectra, _ = emulator.predict(batch)
        bands.chi2(bands.bin_theory(spectra))
        m += 64
    per_batched = (time.perf_counter() - t0) / m
    camb_mean = float(np.mean(camb_s))
    print(json.dumps({
        "camb_seconds_per_evaluation": round(camb_mean, 3),
        "emulator_seconds_per_evaluation": per_point,
        "emulator_seconds_per_evaluation_batched_64": per_batched,
        "ratio_single": round(camb_mean / per_point),
        "ratio_batched": round(camb_mean / per_batched),
        "max_abs_chi2_difference": float(np.max(np.abs(np.array(emu_chi2) - np.array(camb_chi2)))),
        "emulator_held_out": emulator.meta.get("report", {}).get("held_out"),
    }, indent=1))


if __name__ == "__main__":
    main()
