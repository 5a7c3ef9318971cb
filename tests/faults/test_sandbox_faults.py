"""The sandbox kernel killed (SIGKILL) in the middle of a cell, and a cell running into its own memory limit,
during full runs: the debug loop sees what happened, the next attempt runs in a fresh kernel, the run ends done.

The memory-limit cell is destructive, so it runs only under bwrap after the isolation self-check of the hostile
tests (tests/sandbox/test_hostile.py), never under the ``process`` backend.  The sandbox's memory limit is
RLIMIT_AS: an allocation past it fails inside the kernel with ``MemoryError`` (the kernel survives), which is
what the run must see and recover from.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import psutil
import pytest

from cmbagent.api import solve
from cmbagent.sandbox import GiB, MiB, SandboxLimits, open_sandbox
from tests.faults._scripted import CELL, scripted
from tests.faults._support import events, finished
from tests.planner.test_realistic_run import sandbox_backend
from tests.sandbox.test_hostile import assert_isolated

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SLOW_CELL = "import time\nopen('cell-started', 'w').close()\ntime.sleep(20)\n" + CELL


def kernels_of_this_process() -> list[psutil.Process]:
    """The python kernels below this test process (their command line names the connection file)."""
    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            cmdline = " ".join(child.cmdline())
        except psutil.Error:
            continue
        if "kernel.json" in cmdline and "python" in child.name().lower():
            found.append(child)
    return found


def test_the_kernel_killed_mid_cell_is_restarted_and_the_run_ends_done(tmp_path: Path) -> None:
    run = tmp_path / "run"
    killed: list[int] = []

    def killer() -> None:
        deadline = time.monotonic() + 120
        while not (run / "cell-started").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        for kernel in kernels_of_this_process():
            kernel.send_signal(signal.SIGKILL)
            killed.append(kernel.pid)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    result = solve("Compute the answer and interpret it.", run_dir=run, model="scripted",
                   models={"scripted": scripted([SLOW_CELL, CELL])}, sandbox=sandbox_backend())
    thread.join(timeout=5)
    assert killed, "no kernel was found to kill"
    assert result.status == "done", result.error
    cells = [e.data for e in events(run) if e.type == "cell_executed"]
    assert [c["status"] for c in cells] == ["restarted", "ok"]
    assert "SIGKILL" in (cells[0]["error"] or "") or "died" in str(cells[0])
    assert finished(events(run)) == {"s1": "done", "s2": "done"} and result.values["answer"] == 42.0
    assert len(list(run.glob("steps/01-*/cells/attempt-*.py"))) == 2  # both attempts kept


MEMORY_BOMB = "blocks = []\nwhile True:\n    blocks.append(bytearray(64 * 1024 * 1024))\n"


@pytest.mark.hostile
def test_a_cell_past_its_memory_limit_fails_alone_and_the_run_ends_done(tmp_path: Path) -> None:
    limits = SandboxLimits(address_space=1 * GiB, min_free_disk=64 * MiB, interrupt_grace=2.0)
    probe = open_sandbox(tmp_path / "probe", "bwrap", limits=limits) if sandbox_backend() == "bwrap" else None
    if probe is None:
        pytest.skip("REFUSING to run a memory bomb: bwrap is not available here")
    try:
        assert_isolated(probe)  # skips loudly unless the kernel is demonstrably isolated
    finally:
        probe.close()
    run = tmp_path / "run"
    result = solve("Compute the answer and interpret it.", run_dir=run, model="scripted",
                   models={"scripted": scripted([MEMORY_BOMB, CELL])},
                   executor=lambda folder: open_sandbox(folder, "bwrap", limits=limits))
    assert result.status == "done", result.error
    cells = [e.data for e in events(run) if e.type == "cell_executed"]
    assert cells[0]["status"] == "error" and "MemoryError" in (cells[0]["error"] or "")
    assert cells[-1]["status"] == "ok" and result.values["answer"] == 42.0
