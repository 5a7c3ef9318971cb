"""Who works on a run, and asking it to stop: the run lock and cancellation, across processes.

**Lock.**  The process working on a run (``solve``, ``resume``, a UI worker, a batch worker) holds an
exclusive ``flock`` on the run folder itself — the directory's inode, which the run's sandboxed code can
write into but cannot replace — and notes who it is in ``.owner.json``.  A second ``resume`` of the same run
stops at once with a message naming the holder.  The kernel drops a flock with its process, kill -9
included, so a dead owner never blocks a resume.

**Cancel.**  ``cmbagent cancel RUN_DIR`` (or the UI's Cancel button) writes ``cancel.json`` into the run
folder.  The owner's :class:`CancelWatch` sees it within :data:`POLL_S`, stops the cell in flight and the
kernel, and the run ends ``cancelled`` with a partial report at its next model call.  Nothing completed is
lost: the graph state is the last checkpoint, and ``cmbagent resume`` (which clears the request) continues
from it.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cmbagent.exceptions import PathError, RunCancelled, RunInUse

__all__ = ["CANCEL_FILE", "POLL_S", "CancelWatch", "RunLock", "clear_cancel", "request_cancel", "run_owner"]

CANCEL_FILE = "cancel.json"
OWNER_FILE = ".owner.json"
#: how often a running run looks for a cancel request
POLL_S = 0.2


def _describe(owner: dict[str, Any]) -> str:
    if not owner:
        return "another process"
    since = time.strftime("%H:%M:%S", time.localtime(float(owner.get("since") or 0)))
    return f"process {owner.get('pid')} on {owner.get('host')} ({owner.get('what') or 'a run'}, since {since})"


def _read_owner(folder: Path) -> dict[str, Any]:
    from cmbagent.paths import read_beneath

    try:  # written by us, but in a folder the run's code can write: never through a link, bounded
        data = json.loads(read_beneath(folder, OWNER_FILE, limit=4096))
    except (OSError, ValueError, PathError):
        return {}
    return data if isinstance(data, dict) else {}


class RunLock:
    """The exclusive lock of one run folder (see the module docstring); a context manager."""

    def __init__(self, folder: str | os.PathLike[str]):
        self.folder = Path(folder)
        self._fd: int | None = None

    def acquire(self, what: str = "") -> RunLock:
        """Take the lock or raise :class:`RunInUse` naming the process that holds it."""
        fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunInUse(f"{self.folder} is being worked on by {_describe(_read_owner(self.folder))}; wait for it "
                           f"to finish, or stop it with `cmbagent cancel {self.folder}`") from None
        self._fd = fd
        owner = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time(),
                 "what": what or " ".join(os.path.basename(a) for a in sys.argv[:2])}
        with contextlib.suppress(OSError):  # a read-only or full disk: the lock holds all the same
            from cmbagent.run import write_json

            write_json(self.folder / OWNER_FILE, owner)
        return self

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.folder / OWNER_FILE)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None

    def __enter__(self) -> RunLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def run_owner(folder: str | os.PathLike[str]) -> dict[str, Any] | None:
    """Who works on the run now (``{pid, host, since, what}``; ``{}`` when unknown), or ``None`` if nobody."""
    path = Path(folder)
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read_owner(path)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def request_cancel(folder: str | os.PathLike[str], *, reason: str = "", by: str = "cli") -> None:
    """Ask the run in ``folder`` to stop (the process working on it sees the request within :data:`POLL_S`)."""
    from cmbagent.run import write_json

    write_json(Path(folder) / CANCEL_FILE, {"requested": time.time(), "by": by, "pid": os.getpid(),
                                            "reason": reason or f"cancelled by {by}"})


def clear_cancel(folder: str | os.PathLike[str]) -> None:
    """Drop an earlier cancel request (a resume continues the run it was made for)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(Path(folder) / CANCEL_FILE)


def _reason(folder: Path) -> str:
    from cmbagent.paths import read_beneath

    try:
        data = json.loads(read_beneath(folder, CANCEL_FILE, limit=4096))
    except (OSError, ValueError, PathError):
        return "cancelled"
    reason = data.get("reason") if isinstance(data, dict) else None
    return str(reason)[:300] if reason else "cancelled"


class CancelWatch:
    """Watches one run folder for a cancel request while a process works on the run.

    ``check()`` raises :class:`RunCancelled` once a request was seen (the model client calls it before and
    after every call); ``on_cancel`` callbacks run once, in the watcher thread, when it is seen (the runtime
    registers the kernel's stop there, so the cell in flight ends now rather than at its timeout).
    """

    def __init__(self, folder: str | os.PathLike[str], *, poll_s: float = POLL_S):
        self.folder = Path(folder)
        self.poll_s = poll_s
        self.reason = ""
        self._seen = threading.Event()
        self._stop = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @property
    def cancelled(self) -> bool:
        return self._seen.is_set()

    def on_cancel(self, callback: Callable[[], None]) -> None:
        with self._lock:
            self._callbacks.append(callback)
            fire = self._seen.is_set()
        if fire:
            callback()

    def check(self) -> None:
        if self._seen.is_set():
            raise RunCancelled(f"the run was cancelled ({self.reason}); resume it with `cmbagent resume "
                               f"{self.folder}`")

    def start(self) -> CancelWatch:
        self._thread = threading.Thread(target=self._watch, name=f"cmbagent-cancel-{self.folder.name}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2 * self.poll_s + 1)

    def _watch(self) -> None:
        while not self._stop.wait(self.poll_s):
            try:
                os.lstat(self.folder / CANCEL_FILE)
            except OSError:
                continue
            self.trigger(_reason(self.folder))
            return

    def trigger(self, reason: str) -> None:
        """Mark the run cancelled and run the callbacks (what a request seen by the watcher does)."""
        with self._lock:
            if self._seen.is_set():
                return
            self.reason = reason
            self._seen.set()
            callbacks = list(self._callbacks)
        for callback in callbacks:
            with contextlib.suppress(Exception):  # stopping a kernel that is already gone
                callback()
