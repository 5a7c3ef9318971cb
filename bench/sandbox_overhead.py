"""How much a persistent sandboxed kernel saves over a fresh ``python step.py`` per step.

Baseline (b): the reference cmbagent runs each step as a new Python process, so every step pays the
interpreter start-up and the imports again. Ours (a): one bwrap-sandboxed Jupyter kernel per run, where
imports stay loaded across steps. Each of the 20 steps imports numpy, scipy and astropy and does a trivial
computation. Also measures the round trip of a trivial cell through the kernel.

Run: .venv/bin/python bench/sandbox_overhead.py [--steps 20] [--backend bwrap]
Targets: ratio (b)/(a) >= 20; trivial-cell round trip <= 20 ms (median).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STEP = """\
import numpy as np
import scipy.integrate
import astropy.units as u
x = np.linspace(0.0, 1.0, 101)
area = scipy.integrate.trapezoid(x ** 2, x)
distance = (area * u.Mpc).to(u.km)
print(f"{{area:.6f}} {{distance.value:.3e}} step {step}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--trivial", type=int, default=200, help="trivial cells for the round-trip median")
    parser.add_argument("--backend", default="bwrap")
    args = parser.parse_args()

    from cmbagent.sandbox import open_sandbox

    with tempfile.TemporaryDirectory(prefix="cmbagent-bench-") as tmp:
        run_dir = Path(tmp) / "run"
        started = time.perf_counter()
        ex = open_sandbox(run_dir, args.backend)
        startup = time.perf_counter() - started
        kernel_times = []
        try:
            for step in range(args.steps):
                t0 = time.perf_counter()
                res = ex.execute(STEP.format(step=step), timeout=120)
                kernel_times.append(time.perf_counter() - t0)
                if not res.ok:
                    sys.exit(f"step {step} failed in the kernel: {res.message}")
            ex.execute("1", timeout=30)
            trivial = []
            for _ in range(args.trivial):
                t0 = time.perf_counter()
                ex.execute("1", timeout=30)
                trivial.append(time.perf_counter() - t0)
        finally:
            ex.close()

        fresh_times = []
        for step in range(args.steps):
            script = Path(tmp) / f"step_{step:02d}.py"
            script.write_text(STEP.format(step=step))
            t0 = time.perf_counter()
            subprocess.run([sys.executable, str(script)], check=True, capture_output=True, cwd=tmp)
            fresh_times.append(time.perf_counter() - t0)

    a = statistics.median(kernel_times)
    b = statistics.median(fresh_times)
    rt = statistics.median(trivial)
    print(f"backend: {args.backend}; kernel start-up (once per run): {startup:.2f} s")
    print(f"(a) persistent sandboxed kernel, median per step: {a * 1000:8.1f} ms "
          f"(first step, imports included: {kernel_times[0] * 1000:.0f} ms)")
    print(f"(b) fresh `python step.py` per step, median:      {b * 1000:8.1f} ms")
    print(f"ratio (b)/(a): {b / a:.1f}   (target >= 20)")
    print(f"trivial cell round trip, median of {args.trivial}: {rt * 1000:.1f} ms   (target <= 20 ms)")
    print(f"whole run of {args.steps} steps: kernel {sum(kernel_times) + startup:.2f} s (start-up included) "
          f"vs fresh processes {sum(fresh_times):.2f} s")


if __name__ == "__main__":
    main()
