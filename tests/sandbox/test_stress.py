"""Kernels started together on a busy machine: every byte of every cell arrives, nothing stalls (issue 22).

Four executors start at once on a machine with a CPU-burning neighbour process, then each
runs cells that print known payloads (small, multi-line, 1 MiB, through a subprocess, a burst of
flushed lines, stderr), has its kernel killed half-way, and goes on. Each output is compared byte for
byte with what the cell printed (kept head and tail, and the count of what the bound dropped); each
status must be the expected one: no spurious timeout, no spurious restart.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import pytest

from cmbagent.sandbox import CellResult, Executor, SandboxLimits, UnisolatedSandboxWarning, open_sandbox

from .conftest import BACKENDS, require_backend

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

N_EXECUTORS = 4
HEAD = TAIL = 256 * 1024
CELL_TIMEOUT = 120.0  # far above what any cell needs: reaching it is a failure, not a slow machine
BIG_LINES = 16384  # 64-byte lines: 1 MiB


def _big_line(k: int, i: int) -> str:
    return f"{k}:{i:08d}:".ljust(63, "y") + "\n"


def _cells(k: int) -> list[tuple[str, str, str, str]]:
    """(code, expected status, expected stdout, expected stderr) for executor ``k``."""
    lines = "".join(f"line {i:04d} of executor {k}\n" for i in range(500))
    big = "".join(_big_line(k, i) for i in range(BIG_LINES))
    dropped = len(big) - HEAD - TAIL
    big_kept = big[:HEAD] + f"\n[... {dropped} bytes of output dropped ...]\n" + big[-TAIL:]
    burst = "".join(f"burst {k} {i:05d}\n" for i in range(2000))
    return [
        (f"state = {k}\nprint('small {k}')", "ok", f"small {k}\n", ""),
        (f"for i in range(500):\n    print(f'line {{i:04d}} of executor {k}')\n"
         f"import sys\nprint('to stderr {k}', file=sys.stderr)", "ok", lines, f"to stderr {k}\n"),
        (f"for i in range({BIG_LINES}):\n    print(f'{k}:{{i:08d}}:'.ljust(63, 'y'))", "ok", big_kept, ""),
        (f"import subprocess\nsubprocess.run(['sh', '-c', 'for i in 1 2 3; do echo sub {k} $i; done'])\n"
         "None", "ok", "".join(f"sub {k} {i}\n" for i in (1, 2, 3)), ""),
        (f"for i in range(2000):\n    print(f'burst {k} {{i:05d}}', flush=True)", "ok", burst, ""),
        ("import os\nos._exit(7)", "restarted", "", ""),
        ("print('state' in globals())", "ok", "False\n", ""),
        (f"state = {k + 100}\nprint(state)", "ok", f"{k + 100}\n", ""),
        (f"for i in range({BIG_LINES}):\n    print(f'{k}:{{i:08d}}:'.ljust(63, 'y'))", "ok", big_kept, ""),
        ("print(state)", "ok", f"{k + 100}\n", ""),
    ]


def _check(k: int, j: int, res: CellResult, status: str, stdout: str, stderr: str) -> list[str]:
    where = f"executor {k} cell {j}"
    problems = []
    if res.status != status:
        problems.append(f"{where}: status {res.status!r}, expected {status!r} ({res.message})")
    if res.stdout.text != stdout:
        problems.append(f"{where}: stdout differs ({len(res.stdout.text)} characters, expected {len(stdout)}; "
                        f"dropped {res.stdout.dropped_bytes}): {res.stdout.text[:120]!r}")
    if res.stderr.text != stderr:
        problems.append(f"{where}: stderr {res.stderr.text[:120]!r}, expected {stderr!r}")
    return problems


def _burner() -> subprocess.Popen[bytes]:
    # one busy core's worth: with four kernels and the host on two cores the machine is oversubscribed,
    # and the other test worker's time-sensitive tests are not starved outright
    return subprocess.Popen([sys.executable, "-c", "while True: pass"])


@pytest.mark.parametrize("backend", BACKENDS)
def test_kernels_started_together_under_load_deliver_every_byte(backend: str, tmp_path: Path) -> None:
    require_backend(backend)
    limits = SandboxLimits(output_head=HEAD, output_tail=TAIL, interrupt_grace=5.0)
    problems: list[str] = []
    timings: dict[int, float] = {}
    lock = threading.Lock()
    go = threading.Barrier(N_EXECUTORS)

    def one(k: int) -> None:
        go.wait()  # all four start their kernels at the same moment
        started = time.monotonic()
        ex: Executor | None = None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UnisolatedSandboxWarning)
                ex = open_sandbox(tmp_path / f"run-{k}", backend, limits=limits)
            found = []
            for j, (code, status, stdout, stderr) in enumerate(_cells(k)):
                found += _check(k, j, ex.execute(code, timeout=CELL_TIMEOUT), status, stdout, stderr)
        except Exception as exc:  # a start-up failure is a finding too, reported with the others
            found = [f"executor {k}: {type(exc).__name__}: {exc}"]
        finally:
            if ex is not None:
                ex.close()
        with lock:
            problems.extend(found)
            timings[k] = time.monotonic() - started

    burner = _burner()
    try:
        threads = [threading.Thread(target=one, args=(k,)) for k in range(N_EXECUTORS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        burner.kill()
        burner.wait()
    print(f"{backend}: seconds per executor (start, {len(_cells(0))} cells, one restart): "
          + ", ".join(f"{timings[k]:.1f}" for k in sorted(timings)))
    assert not problems, "\n".join(problems)
