"""A memory cgroup around one kernel: its resident memory is capped, and past the cap the kernel's own OOM
killer ends it (SIGKILL), which the executor then reports as the cell's memory limit.

RLIMIT_AS (``SandboxLimits.address_space``) bounds the *virtual* memory of each process: a single runaway
allocation fails with ``MemoryError``.  It does not bound the sum over processes (a joblib pool, a forked
worker), nor memory that a C library touches page by page after reserving it.  The cgroup bounds what the
kernel and everything it starts actually hold, together.

Two layouts are supported, whichever the host gives this process a writable place in:

* cgroup v2: a child of this process's own cgroup, when that cgroup delegates the ``memory`` controller
  (``cgroup.subtree_control`` names it); limit ``memory.max``, kills counted in ``memory.events``;
* cgroup v1: a child of this process's cgroup in the ``memory`` hierarchy; limit ``memory.limit_in_bytes``
  (and ``memory.memsw.limit_in_bytes`` where swap accounting exists), kills counted in ``memory.oom_control``.

Where neither is writable (an unprivileged user without delegation, most containers) :func:`memory_cgroup_root`
says why and the limit is RLIMIT_AS alone.  The kernel joins the cgroup before anything of it runs: its command
line starts with ``/bin/sh -c 'echo $$ > cgroup.procs && exec ...'``, so there is no moment in which it or a
child it forks is outside.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from pathlib import Path

__all__ = ["MemoryCgroup", "memory_cgroup_root", "sweep_stale_cgroups"]

_JOIN = 'echo $$ > "$0" && exec "$@"'


def _own_paths() -> dict[str, str]:
    """This process's cgroup path per hierarchy: ``{"": v2 path, "memory": v1 memory path}``."""
    paths: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/cgroup").read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            if controllers == "":
                paths[""] = path
            elif "memory" in controllers.split(","):
                paths["memory"] = path
    return paths


def _mounts() -> dict[str, str]:
    """Mount points: ``{"cgroup2": path, "memory": v1 memory path}``."""
    found: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/mounts").read_text().splitlines():
            fields = line.split()
            if len(fields) < 4:
                continue
            where, kind, options = fields[1], fields[2], fields[3].split(",")
            if kind == "cgroup2":
                found.setdefault("cgroup2", where)
            elif kind == "cgroup" and "memory" in options:
                found.setdefault("memory", where)
    return found


def _inside(mount: str, path: str) -> Path:
    """The folder of cgroup ``path`` under ``mount``; a cgroup namespace shows our own cgroup as the root."""
    full = Path(mount) / path.lstrip("/")
    return full if full.is_dir() else Path(mount)


@functools.lru_cache(maxsize=1)
def memory_cgroup_root() -> tuple[Path | None, str, str]:
    """Where kernels' memory cgroups are made: ``(folder, version, why)``; folder is None when nowhere, and
    ``why`` says so (cached: the host does not change under a running process)."""
    own, mounts = _own_paths(), _mounts()
    reasons = []
    if "cgroup2" in mounts and "" in own:
        base = _inside(mounts["cgroup2"], own[""])
        try:
            delegated = "memory" in (base / "cgroup.subtree_control").read_text().split()
        except OSError:
            delegated = False
        if delegated and os.access(base, os.W_OK):
            return base, "v2", f"cgroup v2 below {base}"
        reasons.append(f"cgroup v2 at {base} does not delegate the memory controller to this user")
    if "memory" in mounts and "memory" in own:
        base = _inside(mounts["memory"], own["memory"])
        if (base / "memory.limit_in_bytes").is_file() and os.access(base, os.W_OK):
            return base, "v1", f"cgroup v1 memory controller below {base}"
        reasons.append(f"the cgroup v1 memory hierarchy at {base} is not writable")
    if not reasons:
        reasons.append("no cgroup file system is mounted")
    return None, "", "; ".join(reasons)


class MemoryCgroup:
    """One kernel's memory cgroup: made with its limit, joined by the kernel's command, removed after it."""

    def __init__(self, path: Path, version: str, limit: int):
        self.path, self.version, self.limit = path, version, limit
        self._kills_before = self.oom_kills()

    @classmethod
    def create(cls, name: str, limit: int) -> MemoryCgroup | None:
        """A new cgroup ``name`` capped at ``limit`` bytes, or None where the host has no place for one."""
        base, version, _ = memory_cgroup_root()
        if base is None:
            return None
        path = base / name
        try:
            path.mkdir()
            if version == "v2":
                (path / "memory.max").write_text(str(limit))
                with contextlib.suppress(OSError):  # no swapping around the limit
                    (path / "memory.swap.max").write_text("0")
            else:
                (path / "memory.limit_in_bytes").write_text(str(limit))
                with contextlib.suppress(OSError):  # only where swap accounting is compiled in
                    (path / "memory.memsw.limit_in_bytes").write_text(str(limit))
        except OSError:
            with contextlib.suppress(OSError):
                path.rmdir()
            return None
        return cls(path, version, limit)

    def join(self, argv: list[str]) -> list[str]:
        """``argv`` made to join this cgroup before it starts (the shell execs it in the same process)."""
        return ["/bin/sh", "-c", _JOIN, str(self.path / "cgroup.procs"), *argv]

    def oom_kills(self) -> int:
        """Processes of this cgroup its OOM killer has killed so far."""
        name = "memory.events" if self.version == "v2" else "memory.oom_control"
        try:
            for line in (self.path / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def killed_since_start(self) -> bool:
        return self.oom_kills() > self._kills_before

    def peak(self) -> int | None:
        """The most memory the cgroup held, in bytes (where the kernel reports it)."""
        name = "memory.peak" if self.version == "v2" else "memory.max_usage_in_bytes"
        try:
            return int((self.path / name).read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def remove(self) -> None:
        """Remove the cgroup once its processes are gone (the executor killed them); a few tries, as the kernel
        takes a moment to let go of a killed process."""
        for _ in range(50):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                with contextlib.suppress(OSError, ValueError):
                    for pid in (self.path / "cgroup.procs").read_text().split():
                        os.kill(int(pid), 9)
                time.sleep(0.02)


def sweep_stale_cgroups() -> None:
    """Remove the empty cgroups of cmbagent processes that are gone (killed with SIGKILL, say): their names
    carry the owner's pid, so a live executor's cgroup is never touched."""
    base, _, _ = memory_cgroup_root()
    if base is None:
        return
    for path in base.glob("cmbagent-*-*"):
        try:
            owner = int(path.name.split("-")[1])
        except (IndexError, ValueError):
            continue
        if owner == os.getpid() or Path(f"/proc/{owner}").exists():
            continue
        with contextlib.suppress(OSError):
            path.rmdir()
