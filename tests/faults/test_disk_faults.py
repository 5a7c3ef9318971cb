"""The run folder's disk full, and the folder made read-only, in the middle of a run: the run ends failed with
a message naming the place and the fix, no file written before is lost, and once space is freed (or the folder
writable again) it resumes to done without redoing its completed step.

The run folder lives on a small tmpfs mounted for the test (root only; the real disk is never filled); where
mounting is impossible the tests skip with the reason.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from cmbagent.api import resume, solve
from cmbagent.sandbox import MiB, SandboxLimits, open_sandbox
from tests.faults._scripted import CELL, scripted
from tests.faults._support import events, finished, started_steps, tree_digest
from tests.planner.test_realistic_run import sandbox_backend

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.filterwarnings("ignore::DeprecationWarning")]

#: cells may run with little space left (the default floor, 1 GiB, is larger than the whole tmpfs)
LIMITS = SandboxLimits(min_free_disk=1 * MiB)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m,mode=0755", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs for the disk-fault tests (needs root): {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(mount)], capture_output=True, check=False)
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, check=False)


def executor(folder: Path):  # type: ignore[no-untyped-def]
    return open_sandbox(folder, sandbox_backend(), limits=LIMITS)


def fill(disk: Path) -> Path:
    """Write a file until the tmpfs has no space left."""
    filler = disk / "filler.bin"
    with open(filler, "wb") as handle:
        try:
            while True:
                handle.write(b"\0" * (1 << 20))
                handle.flush()
        except OSError:
            pass
    return filler


def test_disk_full_mid_run_fails_cleanly_then_resumes_after_space_is_freed(small_disk: Path) -> None:
    run = small_disk / "run"
    filled: list[Path] = []
    model = scripted([CELL], after_summary=lambda sid: filled.append(fill(small_disk)) if sid == "s1" else None)
    failed = solve("Compute the answer and interpret it.", run_dir=run, model="scripted",
                   models={"scripted": model}, executor=executor)
    assert filled and failed.status == "failed"
    assert "StorageError" in (failed.error or "") and "is full" in (failed.error or "") and "cmbagent resume" in (failed.error or "")
    kept = tree_digest(run, skip=("checkpoints.sqlite", "events.jsonl", "transcript.jsonl", "run.json", ".owner"))
    assert any(name.endswith("cells/attempt-1.py") for name in kept)  # s1's cell is on disk

    filled[0].unlink()
    done = resume(run, models={"scripted": scripted([CELL])}, executor=executor)
    assert done.status == "done", done.error
    evs = events(run)
    assert started_steps(evs).count("s1") == 1  # not redone
    assert finished(evs) == {"s1": "done", "s2": "done"}
    after = tree_digest(run)
    assert not [name for name in kept if name not in after]  # no file written before was lost
    # and what s1 produced is what it was (its step.json is rewritten by its summary, as in any run)
    produced = [name for name in kept if "/cells/" in name or "/outputs/" in name or name.startswith("data/")]
    assert produced and all(after[name] == kept[name] for name in produced)


def test_the_run_folder_made_read_only_mid_run_fails_cleanly_then_resumes(small_disk: Path) -> None:
    run = small_disk / "run"

    def read_only(sid: str) -> None:
        # a read-only bind mount over the run folder: every file opened from now on is read-only (a remount of
        # the whole file system would be refused while the run holds files open for writing)
        if sid == "s1":
            subprocess.run(["mount", "--bind", str(run), str(run)], check=True, capture_output=True)
            subprocess.run(["mount", "-o", "remount,bind,ro", str(run)], check=True, capture_output=True)

    failed = solve("Compute the answer and interpret it.", run_dir=run, model="scripted",
                   models={"scripted": scripted([CELL], after_summary=read_only)}, executor=executor)
    assert failed.status == "failed"
    assert "StorageError" in (failed.error or "") and "read-only" in (failed.error or ""), failed.error
    kept = tree_digest(run)
    subprocess.run(["umount", str(run)], check=True, capture_output=True)
    done = resume(run, models={"scripted": scripted([CELL])}, executor=executor)
    assert done.status == "done", done.error
    evs = events(run)
    assert started_steps(evs).count("s1") == 1 and finished(evs) == {"s1": "done", "s2": "done"}
    after = tree_digest(run)
    lost = [name for name in kept if name not in after and not name.startswith((".owner", "checkpoints.sqlite-"))]
    assert not lost, lost
