"""Reading, copying and writing files *beneath* a folder without following any symlink.

Part of the path policy (:mod:`cmbagent.paths` exports these names): ``openat`` one component at a time with
``O_NOFOLLOW``, for files that code in the sandbox could have replaced with a link between a check and a use
(run folders are writable by the sandbox).  A module of its own so that the policy (:mod:`cmbagent.paths`) and
the input cache (:mod:`cmbagent._linking`) both build on it without importing each other.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from cmbagent.exceptions import DataError, PathNotAllowed

__all__ = [
    "append_text",
    "copy_file",
    "iter_files_beneath",
    "open_beneath",
    "open_dir_beneath",
    "path_kind",
    "read_beneath",
    "write_atomic",
]

_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def path_kind(mode: int) -> str:
    """A file type in words, for messages (``a FIFO``, ``a device``...)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symlink"
    return "a regular file" if stat.S_ISREG(mode) else "not a regular file"


def _parts(relative: str | os.PathLike[str]) -> tuple[str, ...]:
    text = os.fspath(relative)
    if not text or "\x00" in text:
        raise PathNotAllowed("empty or invalid relative name")
    pure = PurePosixPath(text)
    if pure.is_absolute() or any(part in ("..", "") for part in pure.parts) or not pure.parts:
        raise PathNotAllowed(f"{text!r} is not a plain relative name")
    return pure.parts


def open_beneath(folder: str | os.PathLike[str], relative: str | os.PathLike[str]) -> int:
    """A read-only file descriptor of the regular file ``folder/relative``, reached without following any
    symlink (each component is opened with ``O_NOFOLLOW`` relative to its parent's descriptor, so a link
    planted or swapped in at any moment cannot lead out).  ``folder`` itself is trusted.

    Raises :class:`PathNotAllowed` for ``..``, absolute names, links and anything not a regular file, and
    ``FileNotFoundError`` for a missing one.
    """
    parts = _parts(relative)
    current = os.open(os.fspath(folder), os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
    try:
        for part in parts[:-1]:
            try:
                child = os.open(part, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=current)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise PathNotAllowed(f"{os.fspath(relative)!r} runs through a symlink or a file") from None
                raise
            os.close(current)
            current = child
        try:
            fd = os.open(parts[-1], os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC, dir_fd=current)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise PathNotAllowed(f"{os.fspath(relative)!r} is a symlink") from None
            raise
    finally:
        os.close(current)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise PathNotAllowed(f"{os.fspath(relative)!r} is {path_kind(mode)}, not a regular file")
    os.set_blocking(fd, True)
    return fd


def open_dir_beneath(folder: str | os.PathLike[str], relative: str | os.PathLike[str], *, create: bool = False) -> int:
    """A descriptor of the folder ``folder/relative``, reached (and, with ``create``, made) through no symlink.

    For a host process that writes into a folder the sandbox can change (pip's ``--target`` in a run's
    overlay): it writes through ``/proc/self/fd/N``, which stays that folder even if a link is swapped in
    at its name afterwards.  Raises :class:`PathNotAllowed` for a link, a file or anything else on the way.
    """
    current = os.open(os.fspath(folder), os.O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
    try:
        for part in _parts(relative):
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, 0o755, dir_fd=current)
            try:
                child = os.open(part, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC, dir_fd=current)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise PathNotAllowed(f"{os.fspath(relative)!r} runs through a symlink or a file") from None
                raise
            os.close(current)
            current = child
    except BaseException:
        os.close(current)
        raise
    return current


def read_beneath(folder: str | os.PathLike[str], relative: str | os.PathLike[str], *, limit: int | None = None) -> bytes:
    """The bytes of ``folder/relative`` (at most ``limit``), read through :func:`open_beneath`."""
    with os.fdopen(open_beneath(folder, relative), "rb") as handle:
        return handle.read() if limit is None else handle.read(limit)


def iter_files_beneath(folder: str | os.PathLike[str]) -> Iterator[tuple[str, IO[bytes]]]:
    """Every regular file under ``folder`` as ``(relative name, open file)``, never through a symlink.

    Walks with :func:`os.fwalk` (directory descriptors, links to folders not followed) and opens each file
    relative to its folder's descriptor with ``O_NOFOLLOW``; a file swapped for a link or a FIFO mid-walk is
    skipped.  Each file is closed when the caller moves on.
    """
    for dirpath, dirnames, filenames, dirfd in os.fwalk(os.fspath(folder), follow_symlinks=False):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, os.fspath(folder))
        for name in sorted(filenames):
            try:
                fd = os.open(name, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC, dir_fd=dirfd)
            except OSError:
                continue
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                continue
            os.set_blocking(fd, True)
            rel = name if rel_dir == "." else f"{rel_dir}/{name}"
            with os.fdopen(fd, "rb") as handle:
                yield rel, handle


def copy_file(source: Path, target: Path) -> None:
    """Copy a file that a policy resolved (a real path) without following a link swapped in since.

    The source is opened with ``O_NOFOLLOW`` and must still be a regular file; the copy keeps its
    modification time.  A file larger than the free space where it goes is refused before a byte is written
    (a task's sparse file of a terabyte takes no room where it is, and all of it in a copy).
    """
    fd, info = _open_source(source)
    with os.fdopen(fd, "rb") as src:
        target.parent.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(target.parent).free
        if info.st_size > free:
            raise DataError(f"{source.name} holds {info.st_size / 1e9:.1f} GB, more than the {free / 1e9:.1f} GB "
                            "free where the run folder is; free some space or name a smaller file")
        with open(target, "xb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))


def _open_source(source: Path) -> tuple[int, os.stat_result]:
    """A read-only descriptor of the policy-resolved ``source``, opened without following a link swapped in
    since, and its stat; it must still be a regular file."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | _O_CLOEXEC
    try:
        fd = os.open(os.fspath(source), flags)
    except OSError as exc:
        why = os.strerror(exc.errno).lower() if exc.errno is not None else type(exc).__name__
        raise PathNotAllowed(f"{source.name}: cannot be read any more ({why})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise PathNotAllowed(f"{source.name} is {path_kind(info.st_mode)}, not a regular file")
    os.set_blocking(fd, True)
    return fd, info


def append_text(path: str | os.PathLike[str], text: str) -> None:
    """Append ``text`` to the regular file ``path`` (created if missing), never through a symlink or into a
    FIFO or device: run folders are writable by sandboxed code, which could replace a log with a link to a
    file of the host (``~/.bashrc``) for the host to write into.
    """
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | _O_NOFOLLOW | _O_NONBLOCK | _O_CLOEXEC
    try:
        fd = os.open(os.fspath(path), flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):
            raise PathNotAllowed(f"{os.fspath(path)} was replaced by a link or a FIFO; refusing to write through it") from None
        raise
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise PathNotAllowed(f"{os.fspath(path)} is not a regular file; refusing to write into it")
        os.set_blocking(fd, True)
        handle.write(text)
        handle.flush()


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (a new temporary file, then a rename).

    The temporary file gets a random name and is created exclusively (``O_EXCL``, which never follows a
    link), so a link planted by code in the run folder under a predictable temporary name cannot make the
    host write through it; the rename replaces a link at ``path`` itself rather than writing into its target.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o644)  # readable by the sandbox's uid, as files written with the default umask are
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
