"""An in-memory :class:`Executor` for graph tests and benchmarks: ``exec`` in this process, no kernel.

It isolates nothing and enforces no timeout (``timeout`` is accepted and ignored), so it must never run code a
model wrote for a real task; it exists so the graph can be tested and timed without starting a kernel
(docs/architecture.md, Rules 7: every interface ships an in-memory reference implementation).  Cells share one
namespace, run with the run folder as working directory, and report stdout, stderr and errors as a kernel
would.
"""

from __future__ import annotations

import contextlib
import io
import linecache
import os
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from cmbagent.sandbox import _figprobe
from cmbagent.sandbox._types import CellResult, CellStatus, Executor, Heartbeat, StreamText

__all__ = ["InMemoryExecutor"]

_CWD_LOCK = threading.Lock()  # the working directory is process-wide


class InMemoryExecutor(Executor):
    """Runs cells with ``exec`` in one namespace (see the module docstring).

    Args:
        run_dir: Working directory of the cells (the run folder); ``None`` keeps the current one.  Passing the
            class itself as ``solve(executor=InMemoryExecutor)`` gives each run its own folder.
    """

    def __init__(self, run_dir: str | os.PathLike[str] | None = None):
        self.run_dir = Path(run_dir) if run_dir is not None else None
        if self.run_dir is not None:
            (self.run_dir / _figprobe.FIGURE_LOG).parent.mkdir(parents=True, exist_ok=True)
        _figprobe.install()  # process-wide, but it writes only inside run folders (see the probe's docstring)
        self.namespace: dict[str, Any] = {"__name__": "__main__"}
        self.seconds = 0.0  # time spent running cells (benchmarks subtract it)
        self.cells = 0

    def execute(self, code: str, *, timeout: float | None = None, heartbeat: Heartbeat | None = None) -> CellResult:
        out, err = io.StringIO(), io.StringIO()
        started = time.perf_counter()
        done = threading.Event()
        if heartbeat is not None:  # beats from a side thread while the cell runs in this one
            def beat() -> None:
                while not done.wait(heartbeat.every_s):
                    lines = [x for x in out.getvalue()[-4096:].splitlines() if x.strip()]
                    heartbeat.send(time.perf_counter() - started, lines[-1].strip()[-300:] if lines else "")

            threading.Thread(target=beat, name="cmbagent-heartbeat", daemon=True).start()
        self.cells += 1
        filename = f"<cell {self.cells}>"
        # tracebacks quote the cell's lines, as a kernel's do
        linecache.cache[filename] = (len(code), None, code.splitlines(keepends=True), filename)
        status: CellStatus = "ok"
        name = value = trace = None
        with _CWD_LOCK:
            previous = os.getcwd()
            if self.run_dir is not None:
                os.chdir(self.run_dir)
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    exec(compile(code, filename, "exec"), self.namespace)
            except Exception as exc:  # an error in the cell is its result, never ours
                status, name, value = "error", type(exc).__name__, str(exc)
                cell_frames = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
                trace = "".join(traceback.format_exception(type(exc), exc, cell_frames))
            finally:
                os.chdir(previous)
                done.set()
        duration = time.perf_counter() - started
        self.seconds += duration
        return CellResult(status=status, stdout=StreamText(text=out.getvalue()), stderr=StreamText(text=err.getvalue()),
                          error_name=name, error_value=value, traceback=trace, duration_s=duration,
                          execution_count=self.cells)

    def close(self) -> None:
        self.namespace.clear()
