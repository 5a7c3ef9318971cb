"""Build the CAMB emulator of :mod:`._emulator`: a training set of CAMB spectra, then the fit.

Run from the repository root (each step writes files and can be resumed; the shipped emulator was built this
way, with the seed and sizes below)::

    python -m cmbagent.tools.methods.cosmology._emulator_build generate --out build/cmb_train --workers 2
    python -m cmbagent.tools.methods.cosmology._emulator_build generate --out build/cmb_train_wide --box wide --n 28
    python -m cmbagent.tools.methods.cosmology._emulator_build fit --train build/cmb_train --extra build/cmb_train_wide --degree 2

``generate`` evaluates CAMB (:func:`._camb.camb_spectra`, the accuracy settings stated there) at the points of a
scrambled Sobol sequence over the emulator's box (:data:`._emulator.BOX`), in order, one ``.npz`` per point, so
that any prefix of the sequence is space-filling and an interrupted run keeps what it made.  ``fit`` keeps
every ``holdout``-th point apart, fits the emulator on the rest, reports its error on the held-out points
and writes ``tools/methods/cosmology/data/camb_emulator.npz``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from cmbagent.tools.methods.cosmology._emulator import BOX, LMAX

SEED = 20240601
#: the shipped emulator: the first 160 points over BOX, plus the first 28 points over WIDE_BOX
N_POINTS = 160
#: a wider box whose first points were computed first and are kept as extra training points
WIDE_BOX: dict[str, tuple[float, float]] = {
    "ombh2": (0.0212, 0.0236), "omch2": (0.1090, 0.1315), "theta_MC_100": (1.0384, 1.0434), "tau": (0.01, 0.11),
    "logA": (2.94, 3.16), "ns": (0.930, 1.000), "w": (-1.5, -0.6),
}


def sobol_points(n: int, box: dict[str, tuple[float, float]] = BOX, seed: int = SEED) -> np.ndarray:
    """The first ``n`` points of the scrambled Sobol sequence over ``box`` (parameter units)."""
    import warnings

    from scipy.stats import qmc

    with warnings.catch_warnings():  # a prefix that is not a power of 2 is still the sequence we want
        warnings.simplefilter("ignore", UserWarning)
        unit = qmc.Sobol(d=len(box), scramble=True, seed=seed).random(n)
    lo = np.array([b[0] for b in box.values()])
    hi = np.array([b[1] for b in box.values()])
    return lo + unit * (hi - lo)


def generate(out: Path, n: int, worker: int, workers: int, box: str = "main") -> None:
    from cmbagent.tools.methods.cosmology._camb import camb_spectra

    out.mkdir(parents=True, exist_ok=True)
    points = sobol_points(n, WIDE_BOX if box == "wide" else BOX)
    for i in range(worker, n, workers):
        path = out / f"point_{i:05d}.npz"
        if path.exists():
            continue
        params = dict(zip(BOX, points[i].tolist(), strict=True))
        started = time.perf_counter()
        s = camb_spectra(params, lmax=LMAX)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, x=points[i], tt=s.tt[2:], ee=s.ee[2:], te=s.te[2:], pp=s.pp[2:],
                 derived_names=np.array(sorted(s.derived)), derived=np.array([s.derived[k] for k in sorted(s.derived)]))
        os.replace(tmp, path)
        print(f"point {i}: {time.perf_counter() - started:.1f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="CAMB spectra at the Sobol points")
    gen.add_argument("--out", type=Path, required=True)
    gen.add_argument("--n", type=int, default=N_POINTS)
    gen.add_argument("--workers", type=int, default=1)
    gen.add_argument("--worker", type=int, default=None, help="run only this worker (0-based)")
    gen.add_argument("--box", choices=("main", "wide"), default="main")
    fit = sub.add_parser("fit", help="fit the emulator and write it into the package")
    fit.add_argument("--train", type=Path, required=True)
    fit.add_argument("--extra", type=Path, nargs="*", default=[], help="more training folders (training only)")
    fit.add_argument("--degree", type=int, default=2)
    fit.add_argument("--holdout", type=int, default=8, help="every n-th point is held out for validation")
    fit.add_argument("--output", type=Path, default=Path(__file__).parent / "data" / "camb_emulator.npz")
    args = parser.parse_args(argv)
    if args.command == "generate":
        if args.worker is not None:
            generate(args.out, args.n, args.worker, args.workers, args.box)
            return 0
        import subprocess

        procs = [subprocess.Popen([sys.executable, "-m", __spec__.name if __spec__ else __name__, "generate",
                                   "--out", str(args.out), "--n", str(args.n), "--workers", str(args.workers),
                                   "--worker", str(w), "--box", args.box]) for w in range(args.workers)]
        return max(p.wait() for p in procs)
    from cmbagent.tools.methods.cosmology._emulator import fit_emulator, load_training_set

    x, y = load_training_set(args.train)
    extra = None
    for folder in args.extra:
        xe, ye = load_training_set(folder)
        extra = (xe, ye) if extra is None else (np.concatenate([extra[0], xe]),
                                                {k: np.concatenate([v, ye[k]]) for k, v in extra[1].items()})
    report = fit_emulator(x, y, holdout=args.holdout, output=args.output, degree=args.degree, extra=extra)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
