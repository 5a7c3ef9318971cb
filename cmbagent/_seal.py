"""A seal over a run's settings, so a resume can tell settings the host wrote from settings the run rewrote.

``run.json`` lives in the run folder, which the run's sandboxed code can write.  Its ``config`` (the sandbox
backend, the model routing, budgets, ``allow_install``) decides how a resume runs the next cells; code that
rewrote ``"sandbox": "process"`` there would run its successors with the host's uid.  The host seals the
config when it creates the run: an HMAC-SHA256 with a key of this user's (``~/.cmbagent/run-seal.key``, made
on first use, mode 0600), which the ``bwrap`` and ``docker`` sandboxes cannot see.  (Code under the ``process``
backend can read it, as it can read everything else of the user: that backend isolates nothing.)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cmbagent.exceptions import ConfigError

__all__ = ["seal", "seal_matches"]

_KEY_BYTES = 32


def _key_file() -> Path:
    return Path.home() / ".cmbagent" / "run-seal.key"


def _key() -> bytes:
    path = _key_file()
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(secrets.token_bytes(_KEY_BYTES))
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise OSError(f"{path} is not a regular file")
        key = handle.read(4096)
    if len(key) < _KEY_BYTES:  # a key file being written by another process at this moment
        raise OSError(f"{path} holds no key; delete it and run again")
    return key


def seal(config: Mapping[str, Any]) -> str:
    """The seal of a run's ``config`` (as stored in ``run.json``)."""
    canonical = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str).encode("utf-8")
    try:
        key = _key()
    except OSError as exc:
        raise ConfigError(f"cannot keep the key that seals run settings in {_key_file()} ({exc}); make that "
                          "folder writable for this user") from None
    return hmac.new(key, canonical, hashlib.sha256).hexdigest()


def seal_matches(config: Mapping[str, Any], stored: object) -> bool:
    """Whether ``stored`` is this user's seal of ``config``."""
    return isinstance(stored, str) and hmac.compare_digest(stored, seal(config))
