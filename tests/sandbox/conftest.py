"""Fixtures for the sandbox tests: one kernel per backend per module, skipping loudly where a backend cannot run."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from cmbagent.sandbox import Executor, SandboxLimits, UnisolatedSandboxWarning, open_sandbox, probe_backends

BACKENDS = ("bwrap", "process", "docker")
ISOLATING = ("bwrap", "docker")

_probed: dict[str, tuple[bool, str]] = {}


def require_backend(name: str) -> None:
    """Skip (with the backend's own reason) when ``name`` cannot run here."""
    if not _probed:
        _probed.update({k: (v.available, v.reason) for k, v in probe_backends().items()})
    available, reason = _probed[name]
    if not available:
        pytest.skip(f"sandbox backend {name!r} is not available here: {reason}")


def start(run_dir: Path, backend: str, **kwargs: object) -> Executor:
    """open_sandbox, with the process backend's warning expected rather than turned into an error."""
    require_backend(backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnisolatedSandboxWarning)
        return open_sandbox(run_dir, backend, **kwargs)  # type: ignore[arg-type]


@pytest.fixture(scope="module", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def executor(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Executor]:
    """A kernel shared by the tests of one module, per backend (kernel start-up is the slow part)."""
    ex = start(tmp_path_factory.mktemp(f"run-{backend}"), backend,
               limits=SandboxLimits(interrupt_grace=3.0))
    yield ex
    ex.close()
