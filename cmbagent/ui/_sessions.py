"""Browser sessions and the files each one may see.

A session is a random secret token held in an HttpOnly cookie (``cmbagent_session``); a person can carry it to
another browser with the session link ``/?session=<token>``.  The token is never used as a path: the session's
folder under the workspaces root is named by a hash of it, so a folder name reveals nothing and a token from
the client can only ever select the folder that belongs to it.  Every file request is resolved (symlinks
followed) and must land inside that folder, so neither ``..`` nor a link an agent wrote can reach further.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

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

    def resolve_file(self, run_id: str, relative: str) -> Path | None:
        """The real path of a file inside one of this session's runs, or None if it is not such a file.

        ``relative`` comes from a URL; it is resolved with symlinks followed and must stay inside the run
        folder, which itself must stay inside the session folder.
        """
        run_dir = self.run_dir(run_id)
        if run_dir is None or not relative or "\x00" in relative:
            return None
        try:
            base = run_dir.resolve(strict=True)
            target = (base / relative).resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        root = self.root.resolve()
        if not base.is_relative_to(root) or not target.is_relative_to(base) or not target.is_file():
            return None
        return target


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
