"""Code execution: a persistent Jupyter kernel inside an isolation backend.

::

    ex = open_sandbox(run_dir)                     # bwrap where it works, else docker, else a clear error
    res = ex.execute("import numpy as np\\nprint(np.pi)", timeout=60)
    res.status, res.stdout.text, res.images        # typed CellResult; figures land in run_dir/figures/
    ex.close()                                     # kills the kernel and everything it started

Backends: ``bwrap`` (default), ``docker``, and ``process`` (rlimits and a cleared environment only; never
chosen by ``auto``; warns). ``probe_backends()`` says which work here and why the others do not.
"""

from __future__ import annotations

from pathlib import Path

from cmbagent.sandbox._backend import (
    Backend,
    BackendStatus,
    KernelLaunch,
    LaunchPlan,
    ProcessBackend,
    UnisolatedSandboxWarning,
)
from cmbagent.sandbox._figprobe import FIGURE_LOG, describe_figure
from cmbagent.sandbox._limits import GiB, MiB, SandboxLimits
from cmbagent.sandbox._memory import InMemoryExecutor
from cmbagent.sandbox._types import CellResult, Executor, Heartbeat, StreamText

__all__ = [
    "BACKENDS",
    "FIGURE_LOG",
    "Backend",
    "BackendStatus",
    "CellResult",
    "Executor",
    "GiB",
    "Heartbeat",
    "InMemoryExecutor",
    "KernelLaunch",
    "LaunchPlan",
    "MiB",
    "SandboxLimits",
    "StreamText",
    "UnisolatedSandboxWarning",
    "available_backends",
    "describe_figure",
    "get_backend",
    "open_sandbox",
    "probe_backends",
]

BACKENDS = ("bwrap", "docker", "process")
_AUTO_ORDER = ("bwrap", "docker")  # never process: it does not isolate


def _backend_class(name: str) -> type[Backend]:
    if name == "bwrap":
        from cmbagent.sandbox._bwrap import BwrapBackend

        return BwrapBackend
    if name == "docker":
        from cmbagent.sandbox._docker import DockerBackend

        return DockerBackend
    if name == "process":
        return ProcessBackend
    from cmbagent.exceptions import ConfigError

    raise ConfigError(f"unknown sandbox backend {name!r}; choose one of auto, {', '.join(BACKENDS)}")


_working: set[str] = set()  # backends that probed fine in this process: not probed again per executor


def _probe(name: str) -> BackendStatus:
    if name in _working:
        return BackendStatus(True, "probed earlier in this process")
    status = _backend_class(name).probe()
    if status.available:
        _working.add(name)
    return status


def probe_backends() -> dict[str, BackendStatus]:
    """Which backends can run here, each with the reason (used by ``cmbagent doctor``)."""
    return {name: _backend_class(name).probe() for name in BACKENDS}


def available_backends() -> list[str]:
    """Names of the backends that work here, in ``auto``'s order of preference (``process`` last)."""
    return [name for name, status in probe_backends().items() if status.available]


def get_backend(name: str = "auto") -> Backend:
    """A backend instance by name; ``auto`` picks bwrap, else docker, else raises SandboxUnavailable."""
    from cmbagent.exceptions import SandboxUnavailable

    if name == "auto":
        reasons = []
        for candidate in _AUTO_ORDER:
            status = _probe(candidate)
            if status.available:
                return _backend_class(candidate)()
            reasons.append(f"{candidate}: {status.reason}")
        raise SandboxUnavailable(
            "no isolating sandbox backend works here (" + "; ".join(reasons) + "). Install bubblewrap "
            "(apt install bubblewrap), or start Docker and build the image (docker build -f "
            "docker/sandbox.Dockerfile -t cmbagent-sandbox .), or choose sandbox='process' explicitly to run "
            "without file-system and network isolation."
        )
    status = _probe(name)
    if not status.available:
        raise SandboxUnavailable(f"sandbox backend {name!r} cannot run here: {status.reason}")
    return _backend_class(name)()


def open_sandbox(
    run_dir: str | Path,
    backend: str | Backend = "auto",
    *,
    limits: SandboxLimits | None = None,
    allow_env: tuple[str, ...] | list[str] = (),
) -> Executor:
    """Start a kernel for ``run_dir`` and return its executor.

    Args:
        run_dir: the run folder: the kernel's cwd, its only writable place; figures/ and notebook.ipynb go here.
        backend: ``auto``, ``bwrap``, ``docker``, ``process`` or a Backend instance.
        limits: resource and output limits (safe defaults: see SandboxLimits).
        allow_env: names of environment variables to pass into the kernel (credentials are refused).

    Raises:
        SandboxUnavailable: the backend cannot run here (the message names the alternatives).
        ConfigError: an unknown backend name or a credential in allow_env.
        KernelDied: the kernel could not be started (the message quotes its log).
    """
    from cmbagent.sandbox._kernel import KernelExecutor

    chosen = backend if isinstance(backend, Backend) else get_backend(backend)
    return KernelExecutor(Path(run_dir), chosen, limits=limits, allow_env=tuple(allow_env))
