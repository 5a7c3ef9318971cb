"""The sandbox kernel killed (SIGKILL) in the middle of a cell, and a cell running into its own memory limit,
during full runs: the debug loop sees what happened, the next attempt runs in a fresh kernel, the run ends done.

The memory-limit cells are destructive, so they run only under bwrap after the isolation self-check of the
hostile tests (tests/sandbox/test_hostile.py), never under the ``process`` backend.  The sandbox has two memory
limits: RLIMIT_AS (one allocation past it fails inside the kernel with ``MemoryError``; the kernel survives) and
a memory cgroup for the kernel and its children together (past it the OOM killer ends the kernel; the executor
says so and starts a fresh one).  The run must see either and recover.
"""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from cmbagent.api import solve
from cmbagent.sandbox import GiB, MiB, SandboxLimits, open_sandbox
from cmbagent.sandbox._cgroup import memory_cgroup_root
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


def isolated_probe(limits: SandboxLimits, folder: Path) -> None:
    """Skip loudly unless bwrap runs here and its kernel is demonstrably isolated."""
    probe = open_sandbox(folder, "bwrap", limits=limits) if sandbox_backend() == "bwrap" else None
    if probe is None:
        pytest.skip("REFUSING to run a memory bomb: bwrap is not available here")
    try:
        assert_isolated(probe)
    finally:
        probe.close()


MEMORY_BOMB = "blocks = []\nwhile True:\n    blocks.append(bytearray(64 * 1024 * 1024))\n"


@pytest.mark.hostile
def test_a_cell_past_its_memory_limit_fails_alone_and_the_run_ends_done(tmp_path: Path) -> None:
    limits = SandboxLimits(address_space=1 * GiB, memory=None, min_free_disk=64 * MiB, interrupt_grace=2.0)
    isolated_probe(limits, tmp_path / "probe")
    run = tmp_path / "run"
    result = solve("Compute the answer and interpret it.", run_dir=run, model="scripted",
                   models={"scripted": scripted([MEMORY_BOMB, CELL])},
                   executor=lambda folder: open_sandbox(folder, "bwrap", limits=limits))
    assert result.status == "done", result.error
    cells = [e.data for e in events(run) if e.type == "cell_executed"]
    assert cells[0]["status"] == "error" and "MemoryError" in (cells[0]["error"] or "")
    assert cells[-1]["status"] == "ok" and result.values["answer"] == 42.0


#: every page touched (``bytes * n`` writes them), so resident memory grows, not only address space
RESIDENT_BOMB = "blocks = []\nwhile True:\n    blocks.append(b'\\1' * (32 * 1024 * 1024))\n"


@pytest.mark.hostile
def test_a_kernel_oom_killed_by_its_memory_cgroup_is_reported_and_the_run_ends_done(tmp_path: Path) -> None:
    # RLIMIT_AS stays a backstop (2 GiB) in case the cgroup did not hold; the cgroup cap is 256 MiB
    limits = SandboxLimits(address_space=2 * GiB, memory=256 * MiB, min_free_disk=64 * MiB, interrupt_grace=2.0)
    where, _, why = memory_cgroup_root()
    if where is None:
        pytest.skip(f"REFUSING to run a resident-memory bomb without a memory cgroup: {why}")
    isolated_probe(limits, tmp_path / "probe")
    run = tmp_path / "run"
    seen: list[Path] = []

    def kernel(folder: Path) -> Any:
        executor = open_sandbox(folder, "bwrap", limits=limits)
        cgroup = executor.memory_cgroup  # type: ignore[attr-defined]
        assert cgroup is not None and cgroup.limit == 256 * MiB
        seen.append(cgroup.path)
        return executor

    result = solve("Compute the answer and interpret it.", run_dir=run, model="scripted",
                   models={"scripted": scripted([RESIDENT_BOMB, CELL])}, executor=kernel)
    assert result.status == "done", result.error
    cells = [e.data for e in events(run) if e.type == "cell_executed"]
    assert cells[0]["status"] == "restarted", cells[0]
    assert "out-of-memory killer" in cells[0]["error"] and "256 MiB (SandboxLimits.memory)" in cells[0]["error"]
    assert "SIGKILL" in cells[0]["error"]
    assert cells[-1]["status"] == "ok" and result.values["answer"] == 42.0
    assert seen and not any(path.exists() for path in seen)  # no cgroup is left behind
