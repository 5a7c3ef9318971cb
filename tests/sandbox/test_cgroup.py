"""The kernel's memory cgroup: it caps what the kernel and the processes it starts hold *together* (RLIMIT_AS
caps each process alone), the OOM kill is reported as the memory limit, and no cgroup outlives its kernel.

The cells that exceed the cap are destructive, so they run only under bwrap after the isolation self-check and
only where the host gives us a memory cgroup; otherwise the tests skip loudly, saying why.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cmbagent.sandbox import MiB, SandboxLimits, open_sandbox
from cmbagent.sandbox._cgroup import MemoryCgroup, memory_cgroup_root, sweep_stale_cgroups

from .test_hostile import assert_isolated

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning")]

LIMITS = SandboxLimits(memory=256 * MiB, min_free_disk=64 * MiB, interrupt_grace=2.0)

# two processes of 160 MiB each: each is far inside RLIMIT_AS (8 GiB), together they are past 256 MiB
TWO_PROCESSES = """\
import multiprocessing as mp, time

def hold(ready):
    block = b'\\1' * (160 * 1024 * 1024)
    ready.set()
    time.sleep(60)

ready = mp.get_context('fork').Event()
child = mp.get_context('fork').Process(target=hold, args=(ready,))
child.start()
ready.wait(30)
mine = b'\\1' * (160 * 1024 * 1024)
child.join(60)
print('child exit code', child.exitcode, flush=True)
"""


def cgroup_root() -> Path:
    where, _, why = memory_cgroup_root()
    if where is None:
        pytest.skip(f"no memory cgroup can be made here: {why}")
    return where


def test_a_cgroup_is_made_with_its_limit_joined_by_the_command_and_removed(tmp_path: Path) -> None:
    cgroup_root()
    cgroup = MemoryCgroup.create(f"cmbagent-{os.getpid()}-test-{tmp_path.name}", 300 * MiB)
    assert cgroup is not None
    limit_file = "memory.max" if cgroup.version == "v2" else "memory.limit_in_bytes"
    assert int((cgroup.path / limit_file).read_text()) == 300 * MiB
    shown = subprocess.run(cgroup.join(["cat", "/proc/self/cgroup"]), capture_output=True, text=True, timeout=30)
    assert shown.returncode == 0 and cgroup.path.name in shown.stdout  # the command ran inside it
    assert cgroup.oom_kills() == 0 and not cgroup.killed_since_start()
    cgroup.remove()
    assert not cgroup.path.exists()


def test_cgroups_of_dead_owners_are_swept_and_live_ones_kept(tmp_path: Path) -> None:
    root = cgroup_root()
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = root / f"cmbagent-{dead.pid}-stale-0"
    live = MemoryCgroup.create(f"cmbagent-{os.getpid()}-live-0", 300 * MiB)
    assert live is not None
    stale.mkdir()
    try:
        sweep_stale_cgroups()
        assert not stale.exists() and live.path.exists()
    finally:
        live.remove()
        if stale.exists():
            stale.rmdir()


@pytest.mark.hostile
def test_the_cap_holds_for_the_kernel_and_its_children_together(tmp_path: Path) -> None:
    cgroup_root()
    ex = open_sandbox(tmp_path / "run", "bwrap", limits=LIMITS) if "bwrap" in _backends() else None
    if ex is None:
        pytest.skip("REFUSING to run a memory bomb: bwrap is not available here")
    try:
        assert_isolated(ex)
        first = ex.memory_cgroup  # type: ignore[attr-defined]
        assert first is not None and first.limit == 256 * MiB
        res = ex.execute(TWO_PROCESSES, timeout=90)
        # the OOM killer ends one of the two: the child (the kernel survives and says so), or the kernel
        assert "out-of-memory killer" in (res.message or "") and "256 MiB" in (res.message or ""), res
        if res.status == "restarted":
            assert not first.path.exists()  # the killed kernel's cgroup is gone; the new kernel has its own
        else:
            assert "child exit code -9" in res.stdout.text, res
            assert "ended 1 process(es) the cell started" in (res.message or "")
            ex.execute("import os, signal; os.kill(os.getpid(), signal.SIGKILL)", timeout=30)  # a fresh kernel
        second = ex.memory_cgroup  # type: ignore[attr-defined]
        assert second is not None and second.path != first.path and second.path.exists()
        again = ex.execute("print(6 * 7)", timeout=60)
        assert again.status == "ok" and again.stdout.text.strip() == "42"
    finally:
        ex.close()
    assert not second.path.exists()


def _backends() -> set[str]:
    from cmbagent.sandbox import available_backends

    return set(available_backends())
