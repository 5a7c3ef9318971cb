"""Browser sessions and the files each one may see.

A session is a random secret token held in an HttpOnly cookie (``cmbagent_session``); a person can carry it to
another browser with the session link ``/?session=<token>``.  The token is never used as a path: the session's
folder under the workspaces root is named by a hash of it, so a folder name reveals nothing and a token from
the client can only ever select the folder that belongs to it.  Every file request is opened beneath the run
folder one component at a time without following any symlink, so neither ``..`` nor a link an agent wrote (or
swapped in mid-request) can reach further.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from cmbagent.exceptions import PathError
from cmbagent.paths import open_beneath

__all__ = ["COOKIE_NAME", "Session", "SessionStore", "new_token", "valid_token"]

COOKIE_NAME = "cmbagent_session"
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{32,64}")
_RUN_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def new_token() -> str:
    """A fresh session token: 32 random bytes, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def valid_token(token: object) -> bool:
    """Whether a client-supplied value has the shape of a token (it may still be unknown; that is fine)."""
    return isinstance(token, str) and _TOKEN_RE.fullmatch(token) is not None


def valid_run_id(run_id: object) -> bool:
    """Whether a client-supplied run id is a plain folder name (no separators, no leading dot)."""
    return isinstance(run_id, str) and _RUN_ID_RE.fullmatch(run_id) is not None and ".." not in run_id


@dataclass(frozen=True)
class Session:
    """One browser session: its token (secret) and its folder of run folders."""

    token: str
    key: str
    root: Path

    def run_dir(self, run_id: str) -> Path | None:
        """The folder of one of this session's runs, or None for a malformed id (never another session's)."""
        if not valid_run_id(run_id):
            return None
        return self.root / run_id

    def run_base(self, run_id: str) -> Path | None:
        """The real path of one of this session's run folders (None if malformed, missing or elsewhere)."""
        run_dir = self.run_dir(run_id)
        if run_dir is None:
            return None
        try:
            base = run_dir.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        if not base.is_dir() or not base.is_relative_to(self.root.resolve()):
            return None
        return base

    def open_file(self, run_id: str, relative: str) -> BinaryIO | None:
        """A regular file inside one of this session's runs, opened for reading, or None.

        ``relative`` comes from a URL.  It is opened one component at a time without following any symlink
        (:func:`cmbagent.paths.open_beneath`): the run folder is writable by the run's sandboxed code, which
        could plant a link, or swap one in between a check and the read, to a file of the server.
        """
        base = self.run_base(run_id)
        if base is None or not relative:
            return None
        try:
            return os.fdopen(open_beneath(base, relative), "rb")
        except (OSError, PathError):
            return None

    def resolve_file(self, run_id: str, relative: str) -> Path | None:
        """The path of a regular file inside one of this session's runs, reached through no symlink, or None.

        For listing and tests; serving goes through :meth:`open_file`, which holds the file it checked.
        """
        handle = self.open_file(run_id, relative)
        if handle is None:
            return None
        handle.close()
        base = self.run_base(run_id)
        return None if base is None else base / PurePosixPath(relative)


class SessionStore:
    """Maps tokens to session folders under one workspaces root."""

    def __init__(self, workspaces: str | Path):
        self.workspaces = Path(workspaces).expanduser().resolve()

    def session(self, token: str) -> Session:
        """The session of a token (its folder is created on first use)."""
        if not valid_token(token):
            raise ValueError("malformed session token")
        key = hashlib.sha256(f"cmbagent-ui:{token}".encode()).hexdigest()[:32]
        root = self.workspaces / "ui" / key
        return Session(token=token, key=key, root=root)

    def ensure(self, session: Session) -> Path:
        session.root.mkdir(parents=True, exist_ok=True)
        return session.root
