"""Run folders for a large input: linked (reflink, or hard link into the workspace's input cache) vs a copy
per run, the baseline being the copy that every run made before.

    python bench/large_inputs.py [--mb 200] [--runs 5]

Prints the time to create each run folder and the disk space the inputs take, and the ratios against the
copy-per-run baseline measured in the same process on the same file system.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from cmbagent.paths import copy_file
from cmbagent.run import RunFolder
from cmbagent.task import parse_task


def _blocks(folder: Path) -> int:
    """Bytes allocated under ``folder``, each inode once (hard links are one file on disk)."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for path in folder.rglob("*"):
        info = path.lstat()
        if path.is_file() and (info.st_dev, info.st_ino) not in seen:
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cmbagent-bench-", dir=os.environ.get("TMPDIR")) as tmp:
        root = Path(tmp)
        source = root / "task" / "big.dat"
        source.parent.mkdir()
        with open(source, "wb") as handle:
            for _ in range(args.mb):
                handle.write(os.urandom(1 << 20))
        task = parse_task("Summarise `big.dat`.", base=source.parent)
        linked, copied = [], []
        for n in range(args.runs):
            started = time.perf_counter()
            folder = RunFolder.create(task, workspace=root / "ws", run_dir=None, config={})
            linked.append(time.perf_counter() - started)
            how = folder.record().inputs["data/big.dat"]["linked"]
            started = time.perf_counter()
            copy_file(source, root / "copies" / f"run-{n}" / "data" / "big.dat")
            copied.append(time.perf_counter() - started)
        used_linked, used_copied = _blocks(root / "ws"), _blocks(root / "copies")
        print(f"input: {args.mb} MB, {args.runs} runs; linked as {how!r}")
        print(f"copy per run (baseline): first {copied[0]:.3f} s, then {sum(copied[1:]) / max(1, len(copied) - 1):.3f}"
              f" s per run; {used_copied / 2**20:.0f} MB on disk")
        print(f"linked:                  first {linked[0]:.3f} s, then {sum(linked[1:]) / max(1, len(linked) - 1):.3f}"
              f" s per run; {used_linked / 2**20:.0f} MB on disk")
        later = sum(copied[1:]) / max(1e-9, sum(linked[1:]))
        print(f"ratio (copy / linked): {later:.1f}x faster per later run, {used_copied / max(1, used_linked):.1f}x "
              "less disk")
        shutil.rmtree(root / "copies", ignore_errors=True)


if __name__ == "__main__":
    main()
