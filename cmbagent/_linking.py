"""Input files into run folders without a copy per run: reflinks, and a content-addressed cache of
read-only entries hard-linked into each run's ``data/`` (see :func:`link_file`).

Part of the path policy (:mod:`cmbagent.paths` exports these names); kept apart only for the module's size.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

from cmbagent._files import _open_source, write_atomic
from cmbagent.exceptions import DataError

__all__ = ["INPUT_CACHE", "link_file", "prune_input_cache"]

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


_FICLONE = 0x40049409  # ioctl(dest, FICLONE, src): a copy-on-write clone (btrfs, XFS, bcachefs, ...)
#: the cache of input files shared by the runs of a workspace (hard-linked into each run's data/)
INPUT_CACHE = ".inputs"


def _reflink(src: int, target: Path) -> bool:
    import fcntl

    dst = os.open(os.fspath(target), os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_CLOEXEC, 0o444)
    try:
        fcntl.ioctl(dst, _FICLONE, src)
    except OSError:
        os.close(dst)
        os.unlink(target)
        return False
    os.close(dst)
    return True


def _sha256(fd: int) -> str:
    import hashlib

    digest = hashlib.sha256()
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        digest.update(chunk)
    os.lseek(fd, 0, os.SEEK_SET)
    return digest.hexdigest()


def _known(cache: Path, key: str, size: int) -> Path | None:
    """The entry the cache's index names for a source file (its device, inode, size and modification time,
    as git and rsync recognise an unchanged file), so a later run links it without hashing it again."""
    import json

    try:
        name = json.loads((cache / ".index.json").read_text(encoding="utf-8")).get(key)
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(name, str) or "/" in name or not name.startswith("sha256-"):
        return None
    try:
        found = os.lstat(cache / name)
    except OSError:
        return None
    return cache / name if stat.S_ISREG(found.st_mode) and found.st_size == size else None


def _remember(cache: Path, key: str, entry: Path) -> None:
    import json

    index = cache / ".index.json"
    try:
        known = json.loads(index.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    known[key] = entry.name
    write_atomic(index, json.dumps(dict(list(known.items())[-10_000:])).encode())


def _cached(src: int, info: os.stat_result, cache: Path, suffix: str) -> Path:
    """The cache entry holding the content of ``src`` (copied in, read-only, the first time it is needed)."""
    cache.mkdir(mode=0o755, exist_ok=True)
    key = f"{info.st_dev}:{info.st_ino}:{info.st_size}:{info.st_mtime_ns}"
    known = _known(cache, key, info.st_size)
    if known is not None:
        return known
    entry = cache / f"sha256-{_sha256(src)}{suffix}"
    try:
        existing = os.lstat(entry)
    except FileNotFoundError:
        existing = None
    if existing is not None and stat.S_ISREG(existing.st_mode) and existing.st_size == info.st_size:
        _remember(cache, key, entry)
        return entry
    fd, tmp = tempfile.mkstemp(prefix=".partial-", dir=cache)
    try:
        with os.fdopen(fd, "wb") as dst, os.fdopen(os.dup(src), "rb") as handle:
            shutil.copyfileobj(handle, dst, 1 << 20)
        os.chmod(tmp, 0o444)
        os.utime(tmp, ns=(info.st_atime_ns, info.st_mtime_ns))
        os.replace(tmp, entry)  # replaces anything (a link) planted under the entry's name
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _remember(cache, key, entry)
    return entry


def link_file(source: Path, target: Path, *, cache: Path | None = None) -> str:
    """Put a file a policy resolved (a real path) at ``target`` without a copy per run where the file system
    allows; returns how: ``"reflink"``, ``"cache"`` or ``"copy"``.

    1. a reflink (copy-on-write clone of ``source``: instant, no space, and a separate file: nothing written
       to it reaches the original);
    2. else a hard link to the file's entry in the content-addressed ``cache`` (``sha256-<hex><suffix>``,
       read-only), which is copied in once and shared by every run of the workspace;
    3. else (no cache, or a file system without hard links) a plain copy.

    ``source`` is opened without following a link swapped in since it was resolved.  The result is read-only
    (mode 0444) whichever way; sandboxes also mount ``data/`` read-only, so a run cannot change a shared
    entry.  The original is never linked itself: editing it later must not change a recorded run's input.
    """
    fd, info = _open_source(source)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if _reflink(fd, target):
            os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
            return "reflink"
        # a copy (into the cache or the run) needs the room: a task's sparse file of a terabyte takes none where
        # it is and all of it in a copy, so it is refused before a byte is read or written
        free = shutil.disk_usage(cache if cache is not None and cache.is_dir() else target.parent).free
        if info.st_size > free:
            raise DataError(f"{source.name} holds {info.st_size / 1e9:.1f} GB, more than the {free / 1e9:.1f} GB "
                            "free where the run folder is; free some space or name a smaller file")
        if cache is not None:
            try:
                os.link(_cached(fd, info, cache, source.suffix.lower()[:16]), target, follow_symlinks=False)
                return "cache"
            except OSError:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(target)
        with os.fdopen(os.dup(fd), "rb") as src, open(target, "xb") as dst:
            os.lseek(fd, 0, os.SEEK_SET)
            shutil.copyfileobj(src, dst, 1 << 20)
        os.chmod(target, 0o444)
        os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
        return "copy"
    finally:
        os.close(fd)


def prune_input_cache(cache: Path, *, older_than_s: float = 3600.0) -> int:
    """Remove cache entries no run links any more (link count 1, untouched — ctime — for ``older_than_s``, so
    an entry another run is about to link stays); returns how many.  Deleting a run frees its inputs later."""
    import time

    removed = 0
    if not cache.is_dir():
        return 0
    now = time.time()
    for entry in cache.glob("sha256-*"):
        try:
            info = os.lstat(entry)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_nlink == 1 and now - info.st_ctime > older_than_s:
            with contextlib.suppress(OSError):
                entry.unlink()
                removed += 1
    return removed
