"""Storage faults of a run, translated at the boundary: a full disk, a read-only file system, a lost
checkpoint database.

Every file of a run is written atomically (:func:`cmbagent.paths.write_atomic`) and every step's checkpoint
is committed before the next step starts, so a write that fails mid-run loses nothing already done.  What
the person needs is a message that names the place and says what to do, and a run that is resumable once
space is freed — not a traceback from deep inside SQLite.
"""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

from cmbagent.exceptions import StorageError

__all__ = ["storage_failure"]

_FULL = {errno.ENOSPC, errno.EDQUOT}
_READ_ONLY = {errno.EROFS}
# SQLite's primary result codes (the low byte of the extended code)
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOTADB = 8, 10, 11, 13, 14, 26


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def storage_failure(exc: BaseException, folder: Path) -> StorageError | None:
    """The :class:`StorageError` that ``exc`` (or an exception it was raised from) stands for, else ``None``."""
    resume = f"then continue it with `cmbagent resume {folder}` (nothing already done is lost)"
    for item in _chain(exc):
        if isinstance(item, OSError) and item.errno in _FULL | _READ_ONLY:
            where = item.filename or folder
            if item.errno in _FULL:
                return StorageError(f"the disk holding {where} is full ({item.strerror}); free space on it, {resume}")
            return StorageError(f"{where} is on a read-only file system; make it writable again, {resume}")
        code = getattr(item, "sqlite_errorcode", None)
        if isinstance(item, sqlite3.Error) and code is not None:
            primary = code & 0xFF
            target = folder / "checkpoints.sqlite"
            if primary == _SQLITE_FULL:
                return StorageError(f"the disk holding {target} is full; free space on it, {resume}")
            if primary in (_SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_IOERR):
                return StorageError(f"{target} cannot be written ({item}; a read-only or failing disk?); make the "
                                    f"run folder writable again, {resume}")
            if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
                return StorageError(f"{target} is damaged ({item}); the run folder's other files are intact; start "
                                    "the task again with `cmbagent solve` or `cmbagent replay` this run folder")
        if type(item).__module__.startswith("psycopg") and type(item).__name__ in {"OperationalError",
                                                                                  "InterfaceError"}:
            return StorageError(f"the checkpoint database connection broke ({str(item).strip()[:200]}); when the "
                                f"server is back, {resume}")
    return None
