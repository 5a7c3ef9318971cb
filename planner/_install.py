"""Host-side package installs for ``--allow-install``: into the run's overlay, never the host environment.

The kernel has no network and a read-only venv, so a missing package can only be installed from the host.
It goes to ``<run>/.overlay/site-packages`` (``pip install --target``) with the interpreter that runs
cmbagent; the kernel then sees the overlay through ``sys.path``.  The run folder is bound into the sandbox
at the same absolute path, so the host path is also the kernel's path.

Package names come from a model and are untrusted: only plain PEP 508 names, optionally pinned with
``==version``, are accepted — no URLs, paths, extras, markers or pip options — and at most
:data:`MAX_PACKAGES` per step.  pip installs wheels only (``--only-binary=:all:``: a source distribution's
build code would run on the host, outside the sandbox) and sees none of the host's keys (its environment is
cut down to what it needs, :func:`pip_environment`).

``CMBAGENT_PIP_ARGS`` (shell-quoted) adds arguments to every install, for a private index or an offline
wheelhouse: ``CMBAGENT_PIP_ARGS="--no-index --find-links /srv/wheels"``.  It is set by the person running
cmbagent, never by a model.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from cmbagent.exceptions import PathNotAllowed
from cmbagent.paths import open_dir_beneath

__all__ = ["MAX_PACKAGES", "OVERLAY", "InstallOutcome", "overlay_dir", "overlay_setup_code", "pip_environment",
           "pip_install", "safe_packages"]

OVERLAY = Path(".overlay") / "site-packages"
MAX_PACKAGES = 3
INSTALL_TIMEOUT_S = 600.0
PIP_ARGS_ENV = "CMBAGENT_PIP_ARGS"

# PEP 508 distribution name (case-insensitive), optionally pinned to one PEP 440-shaped version
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,98}[A-Za-z0-9])?"
_VERSION = r"[0-9][A-Za-z0-9.!+_-]{0,62}"
_REQUIREMENT = re.compile(rf"(?P<name>{_NAME})(?:==(?P<version>{_VERSION}))?")


def safe_packages(names: list[str]) -> tuple[list[str], list[str]]:
    """Split model-proposed names into (accepted, refused); accepted ones are deduplicated and capped."""
    accepted: list[str] = []
    refused: list[str] = []
    for raw in names:
        name = str(raw).strip()
        if _REQUIREMENT.fullmatch(name) is None:
            refused.append(name)
        elif name.lower() not in {a.lower() for a in accepted}:
            if len(accepted) < MAX_PACKAGES:
                accepted.append(name)
            else:
                refused.append(name)
    return accepted, refused


def overlay_dir(run_dir: Path) -> Path:
    """The run's overlay site-packages (absolute: the same path inside the sandbox).  Only the run folder is
    resolved: the sandbox can replace ``.overlay`` with a link, which :func:`pip_install` then refuses."""
    return Path(run_dir).resolve() / OVERLAY


def overlay_setup_code(path: Path) -> str:
    """The kernel cell that makes the overlay importable.

    The overlay is appended, not prepended: ``pip install --target`` also copies dependencies the venv
    already has (numpy, ...), and the venv's tested versions must keep winning; the overlay only supplies
    what the venv lacks.
    """
    return (
        "import importlib as _il, sys as _sys\n"
        f"if {str(path)!r} not in _sys.path:\n"
        f"    _sys.path.append({str(path)!r})\n"
        "_il.invalidate_caches()\n"
    )


@dataclass
class InstallOutcome:
    """What one ``pip install --target`` did (recorded in the step's step.json)."""

    packages: list[str]
    ok: bool
    returncode: int | None
    command: list[str]
    duration_s: float
    output: str = ""
    refused: list[str] = field(default_factory=list)


#: what pip may see of the host's environment: its own settings, proxies and certificates, never API keys
_PIP_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "SSL_CERT_FILE", "SSL_CERT_DIR",
            "REQUESTS_CA_BUNDLE", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy")


def pip_environment(env: Mapping[str, str]) -> dict[str, str]:
    """pip's environment: the variables it needs (``PIP_*`` included) and nothing else, so no key of the host
    reaches a package index, a build backend or a post-install hook."""
    kept = {k: v for k, v in env.items() if k in _PIP_ENV or (k.startswith("PIP_") and "TOKEN" not in k)}
    return {**kept, "PIP_NO_INPUT": "1", "PYTHONNOUSERSITE": "1"}


def pip_install(packages: list[str], target: Path, *, root: Path | None = None,
                timeout: float = INSTALL_TIMEOUT_S) -> InstallOutcome:
    """Install ``packages`` (already checked by :func:`safe_packages`) into ``target`` with this interpreter.

    ``--`` ends pip's options, so even a name that slipped past the check could not become one.  ``target`` is
    made and opened beneath ``root`` (default: its parent) through no symlink, and pip writes through that open
    folder (``/proc/self/fd/N``): the run folder is the sandbox's, which could put a link to a folder of the
    host (a site-packages) in its place, before or during the install.  The recorded command shows ``target``.
    """
    base = Path(root) if root is not None else target.parent
    extra = shlex.split(os.environ.get(PIP_ARGS_ENV, ""))
    # wheels only: building a source distribution runs its setup code on the host, outside the sandbox
    options = ["--no-input", "--disable-pip-version-check", "--no-warn-script-location", "--only-binary=:all:",
               *extra, "--", *packages]
    shown = [sys.executable, "-m", "pip", "install", "--target", str(target), *options]
    start = time.monotonic()
    try:
        fd = open_dir_beneath(base, target.relative_to(base), create=True)
    except (OSError, PathNotAllowed, ValueError) as exc:
        return InstallOutcome(packages, False, None, shown, 0.0,
                              f"not installing: the overlay folder {target} cannot be used ({exc}); it was "
                              "probably replaced by a link from code in the run")
    command = [sys.executable, "-m", "pip", "install", "--target", f"/proc/self/fd/{fd}", *options]
    env = pip_environment(os.environ)
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL, check=False, pass_fds=(fd,))
    except subprocess.TimeoutExpired as exc:
        out = (exc.stdout or b"") if isinstance(exc.stdout, bytes) else (exc.stdout or "").encode()
        return InstallOutcome(packages, False, None, shown, time.monotonic() - start,
                              out.decode(errors="replace") + f"\n[pip timed out after {timeout:.0f} s]")
    finally:
        os.close(fd)
    output = proc.stdout + (("\n[stderr]\n" + proc.stderr) if proc.stderr.strip() else "")
    return InstallOutcome(packages, proc.returncode == 0, proc.returncode, shown,
                          round(time.monotonic() - start, 3), output)
