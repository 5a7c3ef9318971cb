"""Every output of a cell reaches that cell, however late the host listens or reads (issue 22).

Each test makes one timing of a busy machine happen on purpose, so the loss it guards against is
deterministic instead of a one-in-a-hundred flake:

* the iopub subscription reaches the kernel late (ZeroMQ's slow joiner);
* the kernel's thread that reads the file descriptors (subprocesses, C libraries) lags behind the cell;
* the host stops reading iopub while the cell publishes thousands of messages.
"""

from __future__ import annotations

import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import zmq
from jupyter_client.blocking import BlockingKernelClient

from cmbagent.sandbox import SandboxLimits, UnisolatedSandboxWarning, get_backend
from cmbagent.sandbox._kernel import KernelExecutor

from .conftest import require_backend

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

LOCAL_BACKENDS = ("bwrap", "process")


def _open(cls: type[KernelExecutor], run_dir: Path, backend: str, **kwargs: Any) -> KernelExecutor:
    require_backend(backend)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnisolatedSandboxWarning)
        return cls(run_dir, get_backend(backend), **kwargs)


class _LateSubscriber(BlockingKernelClient):
    """A client whose iopub subscription reaches the kernel ``DELAY`` s after it first listens.

    That is what ZeroMQ's slow joiner looks like from the kernel: until the subscription arrives, the
    publisher has nobody to send to and drops every message.
    """

    DELAY = 1.5

    def connect_iopub(self, identity: bytes | None = None) -> zmq.Socket[Any]:
        sock = self._create_connected_socket("iopub", identity=identity)  # not subscribed yet
        self._pending: zmq.Socket[Any] | None = sock
        self._first_read: float | None = None
        return sock

    def get_iopub_msg(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        now = time.monotonic()
        if self._first_read is None:
            self._first_read = now
        if self._pending is not None and now - self._first_read >= self.DELAY:
            self._pending.setsockopt(zmq.SUBSCRIBE, b"")  # from the reading thread: sockets are not thread-safe
            self._pending = None
        return super().get_iopub_msg(*args, **kwargs)  # type: ignore[no-any-return]


class _SlowJoinerExecutor(KernelExecutor):
    def _new_client(self) -> Any:
        return _LateSubscriber()


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_first_cell_keeps_its_output_when_the_subscription_is_late(backend: str, tmp_path: Path) -> None:
    ex = _open(_SlowJoinerExecutor, tmp_path / "run", backend, limits=SandboxLimits(interrupt_grace=2.0))
    try:
        first = ex.execute("x = 41\nprint('first cell')", timeout=15)
        died = ex.execute("import os\nos._exit(1)", timeout=15)
        after = ex.execute("print('first cell after the restart')", timeout=15)
    finally:
        ex.close()
    assert (first.status, first.stdout.text) == ("ok", "first cell\n"), first
    assert died.status == "restarted", died
    assert (after.status, after.stdout.text) == ("ok", "first cell after the restart\n"), after


# Within this cell only (IPython puts each stream's write back when a cell ends), the kernel's thread
# that reads the file descriptors passes text on a second late, as on a machine too busy to run it.
_LAGGING_FD_READER = """\
import ctypes, os, sys, threading, time
def lag(stream):
    write = stream.write
    def late(text):
        if threading.current_thread() is not threading.main_thread():
            time.sleep(1.0)
        return write(text)
    stream.write = late
lag(sys.stdout)
lag(sys.stderr)
"""


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_output_written_to_file_descriptors_stays_in_its_cell(backend: str, tmp_path: Path) -> None:
    ex = _open(KernelExecutor, tmp_path / "run", backend)
    try:
        res = ex.execute(_LAGGING_FD_READER + "os.system('echo from a subprocess; echo to stderr >&2')\n"
                         "written = ctypes.CDLL(None).printf(b'from C stdio\\n')", timeout=30)
        after = ex.execute("print('next cell')", timeout=30)
    finally:
        ex.close()
    assert res.status == "ok", res
    assert res.stdout.text == "from a subprocess\nfrom C stdio\n"
    assert res.stderr.text == "to stderr\n"
    assert (after.stdout.text, after.stderr.text) == ("next cell\n", "")  # nothing spills into a later cell


class _PausingClient(BlockingKernelClient):
    """A client that stops reading iopub until a file appears: the host descheduled while a cell prints."""

    pause_until: Path | None = None

    def get_iopub_msg(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if self.pause_until is not None:
            deadline = time.monotonic() + 120
            while not self.pause_until.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            self.pause_until = None
        return super().get_iopub_msg(*args, **kwargs)  # type: ignore[no-any-return]


class _PausingExecutor(KernelExecutor):
    def _new_client(self) -> Any:
        return _PausingClient()


@pytest.mark.slow
@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_no_message_is_dropped_while_the_host_is_not_reading(backend: str, tmp_path: Path) -> None:
    # each flush is one iopub message: more than ZeroMQ's default high-water marks (1000 messages on each
    # side) and the socket buffers between them hold
    n, line = 3000, "x" * 993
    run_dir = tmp_path / "run"
    ex = _open(_PausingExecutor, run_dir, backend, limits=SandboxLimits(output_head=10**7, output_tail=10**7))
    try:
        ex._client.pause_until = run_dir / "printed"
        res = ex.execute(f"for i in range({n}):\n    print(f'{{i:06d}} {line}', flush=True)\n"
                         "open('printed', 'w').close()", timeout=120)
    finally:
        ex.close()
    assert res.status == "ok", res.message
    assert res.stdout.text.splitlines() == [f"{i:06d} {line}" for i in range(n)]
