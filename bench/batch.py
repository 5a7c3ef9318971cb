"""Throughput of a batch of runs on Ray against a sequential loop, and the overhead Ray adds per run.

Baseline (b): the 20 runs one after another in this process (``cmbagent.solve`` in a loop — what a script
without ``cmbagent batch`` does).  Ours (a): the same 20 runs as one ``cmbagent batch`` on a local Ray
cluster of ``--workers`` CPUs, each run a normal run folder with its own sandboxed kernel.  The runs are the
offline supernova example (``examples/supernova.md``: Pantheon+, flat ΛCDM, an emcee fit) with seeds 0..19.

Reported: wall times, the throughput ratio (b)/(a), Ray's overhead per run (submission to result as the driver
sees it, minus the time inside the Ray worker: scheduling, argument and result transfer), the worker's own
start-up share (time in the worker outside the run: imports on a fresh worker), and ``ray.init``'s time (paid
once per batch, reported apart).

Run: .venv/bin/python bench/batch.py [--runs 20] [--workers 2] [--sandbox auto]
Targets: ratio (b)/(a) >= 1.8 on 2 cores; Ray overhead per run < 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2, help="CPUs of the local Ray cluster")
    parser.add_argument("--sandbox", default="auto")
    parser.add_argument("--task", default=str(ROOT / "examples" / "supernova.md"))
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    import cmbagent.api
    from cmbagent.batch import BatchSettings, connect_ray, item_task, load_sweep, run_batch

    work = Path(tempfile.mkdtemp(prefix="cmbagent-bench-batch-"))
    sweep = work / "sweep.yaml"
    sweep.write_text(f"task: {args.task}\ngrid:\n  seed: {list(range(args.runs))}\n")
    items = load_sweep(sweep)

    started = time.perf_counter()
    sequential = []
    for item in items:
        result = cmbagent.api.solve(item_task(item), run_dir=work / "sequential" / item.run_dir, sandbox=args.sandbox)
        if result.status != "done":
            raise SystemExit(f"sequential run {item.name} ended {result.status}: {result.error}")
        sequential.append(result.duration_s)
    t_seq = time.perf_counter() - started

    started = time.perf_counter()
    connect_ray(num_cpus=args.workers)
    t_init = time.perf_counter() - started
    started = time.perf_counter()
    record = run_batch(items, batch_dir=work / "ray", settings=BatchSettings(sandbox=args.sandbox))
    t_ray = time.perf_counter() - started
    bad = [row for row in record.items if row.status != "done"]
    if bad:
        raise SystemExit(f"{len(bad)} Ray runs did not end done: {bad[0].error}")
    rows = sorted(record.items, key=lambda row: row.item.index)
    firsts, seen = set(), set()  # the first run of each Ray worker pays its imports (once per worker)
    for row in rows:
        if row.worker_pid not in seen:
            seen.add(row.worker_pid)
            firsts.add(row.item.index)
    overhead = [row.latency_s - row.worker_s for row in rows if row.latency_s and row.worker_s]
    steady = [row.latency_s - row.worker_s for row in rows
              if row.latency_s and row.worker_s and row.item.index not in firsts]
    startup = [row.worker_s - row.duration_s for row in rows if row.worker_s and row.duration_s]

    print(f"{args.runs} offline supernova runs, {args.workers} Ray CPUs, sandbox {args.sandbox}")
    print(f"(b) sequential loop : {t_seq:8.1f} s  ({statistics.mean(sequential):.2f} s per run)")
    print(f"(a) Ray batch       : {t_ray:8.1f} s  (+ ray.init {t_init:.1f} s, once per batch)")
    print(f"throughput ratio (b)/(a): {t_seq / t_ray:.2f}x   (with ray.init: {t_seq / (t_ray + t_init):.2f}x; "
          "target >= 1.8x)")
    print(f"Ray overhead per run (driver latency - time in worker): median {statistics.median(overhead):.3f} s, "
          f"mean {statistics.mean(overhead):.3f} s, max {max(overhead):.3f} s (target < 0.5 s); runs after each "
          f"worker's first: mean {statistics.mean(steady) if steady else float('nan'):.3f} s over {len(steady)}")
    print(f"time in the worker outside the run (solve's set-up; imports on a worker's first run): median "
          f"{statistics.median(startup):.3f} s, max {max(startup):.3f} s; {len(seen)} workers used")
    import subprocess

    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    print(f"machine: {os.cpu_count()} CPUs; {load}")
    print(f"run folders under {work}")


if __name__ == "__main__":
    main()
