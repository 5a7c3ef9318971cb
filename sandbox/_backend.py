"""The isolation-backend interface, and the ``process`` backend (rlimits and a cleared environment only).

A backend decides *how* the kernel command runs: what wraps it (bwrap, docker or nothing), with which
environment, uid and file descriptors. The executor decides *what* runs (the bootstrap that applies the
rlimits and becomes an ipykernel) and talks to the kernel; it never needs to know which backend it has.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, NamedTuple

from cmbagent.sandbox._limits import SandboxLimits

__all__ = ["Backend", "BackendStatus", "KernelLaunch", "LaunchPlan", "ProcessBackend", "UnisolatedSandboxWarning"]


class UnisolatedSandboxWarning(UserWarning):
    """Code runs with rlimits and a cleared environment only: the file system and network stay reachable."""


class BackendStatus(NamedTuple):
    """Whether a backend can run here, and why (or why not)."""

    available: bool
    reason: str


@dataclass(frozen=True)
class KernelLaunch:
    """What the executor wants started.

    Attributes:
        bootstrap: Python source for ``python -c`` that applies rlimits and execs the kernel.
        kernel_args: arguments after the bootstrap (``-f <connection file>`` ...).
        env: the complete environment the kernel must see (already allow-listed).
        run_dir: the run folder: the kernel's cwd and its only writable persistent place.
        runtime_dir: folder with the connection file and the ipc sockets (host and kernel share it).
        limits: resource limits.
        sandbox_id: unique id of this executor, used to find its processes.
    """

    bootstrap: str
    kernel_args: list[str]
    env: dict[str, str]
    run_dir: Path
    runtime_dir: Path
    limits: SandboxLimits
    sandbox_id: str


@dataclass
class LaunchPlan:
    """How to start it: the arguments to ``subprocess.Popen`` and what to undo afterwards."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path
    pass_fds: tuple[int, ...] = ()
    user: int | None = None
    group: int | None = None
    cleanup: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for fn in self.cleanup:
            try:
                fn()
            except OSError:
                pass
        self.cleanup.clear()


class Backend(ABC):
    """One way to run a kernel in isolation. Implement ``probe`` and ``wrap``; override ``stop`` if needed."""

    name: ClassVar[str]
    isolating: ClassVar[bool]  # file system and network are isolated (hostile code may run)
    #: the kernel's process is a child of ours, so the executor can put it in a memory cgroup
    #: (False for docker: the daemon starts the container, in a cgroup of its own sized by ``--memory``)
    local_process: ClassVar[bool] = True

    @classmethod
    @abstractmethod
    def probe(cls) -> BackendStatus:
        """Can this backend run here? Cheap, side-effect free, never raises."""

    @abstractmethod
    def wrap(self, launch: KernelLaunch) -> LaunchPlan:
        """Turn the kernel launch into a command line (and prepare files it needs)."""

    def python(self) -> str:
        """The interpreter that runs the bootstrap (inside the sandbox's view of the file system)."""
        return sys.executable

    def prepare_run_dir(self, run_dir: Path) -> None:  # noqa: B027 - optional hook
        """Called before each cell: make folders created since the last cell usable by the kernel."""

    def release_run_dir(self, run_dir: Path) -> None:  # noqa: B027 - optional hook
        """Called when the executor closes: hand what the kernel wrote back to the user who ran cmbagent."""

    def stop(self, proc: subprocess.Popen[bytes], launch: KernelLaunch) -> None:
        """Kill the kernel and everything it started (its whole session, then any leftovers)."""
        _kill_session(proc)
        _kill_marked(launch.sandbox_id)


def matplotlib_font_cache() -> Path | None:
    """The host's matplotlib font list, if it has one (never imports matplotlib).

    Seeding the kernel's fresh MPLCONFIGDIR with it saves the font scan (seconds) that the first
    ``import matplotlib.pyplot`` of every new kernel would otherwise do.
    """
    places = [os.environ.get("MPLCONFIGDIR", "")]
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    places += [os.path.join(xdg, "matplotlib"), os.path.join(os.path.expanduser("~"), ".matplotlib")]
    for place in places:
        if place and os.path.isdir(place):
            found = sorted(Path(place).glob("fontlist-v*.json"))
            if found:
                return found[-1]
    return None


def _kill_session(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # started with start_new_session: pgid == pid
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def _kill_marked(sandbox_id: str, *, rounds: int = 5) -> None:
    """Kill processes whose environment carries this sandbox's id (daemons that left the session)."""
    marker = f"CMBAGENT_SANDBOX_ID={sandbox_id}".encode()
    me = os.getpid()
    for _ in range(rounds):
        found = False
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or int(entry) == me:
                continue
            try:
                with open(f"/proc/{entry}/environ", "rb") as fh:
                    env = fh.read()
            except OSError:
                continue
            if marker in env.split(b"\0"):
                found = True
                try:
                    os.kill(int(entry), signal.SIGKILL)
                except OSError:
                    pass
        if not found:
            return
        time.sleep(0.05)


class ProcessBackend(Backend):
    """Rlimits and a cleared environment, nothing more. Only when asked for by name; it warns."""

    name = "process"
    isolating = False

    @classmethod
    def probe(cls) -> BackendStatus:
        return BackendStatus(True, "always available, but isolates neither the file system nor the network")

    def __init__(self) -> None:
        self._warned = False

    def wrap(self, launch: KernelLaunch) -> LaunchPlan:
        if not self._warned:  # once per executor, not again on every restart
            self._warned = True
            warnings.warn(
                "sandbox backend 'process' applies rlimits and a cleared environment only: the code can read and "
                "write your files and reach the network. Use 'bwrap' (apt install bubblewrap) or 'docker' to "
                "isolate.",
                UnisolatedSandboxWarning,
                stacklevel=4,
            )
        home = launch.runtime_dir / "home"
        (home / ".matplotlib").mkdir(parents=True, exist_ok=True)
        cache = matplotlib_font_cache()
        if cache is not None:
            shutil.copyfile(cache, home / ".matplotlib" / cache.name)
        env = dict(launch.env)
        env.update(HOME=str(home), TMPDIR=str(launch.runtime_dir), MPLCONFIGDIR=str(home / ".matplotlib"))
        argv = [self.python(), "-c", launch.bootstrap, *launch.kernel_args]
        return LaunchPlan(argv=argv, env=env, cwd=launch.run_dir)
