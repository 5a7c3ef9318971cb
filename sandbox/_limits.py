"""Resource limits of a sandboxed kernel, and the bootstrap that applies them inside the sandbox.

The limits are plain POSIX rlimits, set by a tiny bootstrap that runs as the first Python code inside
the sandbox and then ``exec``s the Jupyter kernel, so they hold for the kernel and everything it starts.

Why these defaults (measured on the project's machine; see bench/ and the issue notes):

* ``address_space`` 8 GiB: numpy/scipy/astropy need ~0.3 GiB of virtual memory, CPU torch plus a small
  network and a scikit-learn forest ~1 GiB; every extra BLAS/OpenMP thread reserves more (stacks, malloc
  arenas), so 8 GiB leaves room for a dozen threads while a runaway allocation still fails fast with
  ``MemoryError``. CUDA builds of torch reserve far more address space: pass ``address_space=None``.
* ``memory`` half the machine's memory, at most 8 GiB: resident memory of the kernel and every process it
  starts, together (a memory cgroup, where the host lets us make one: see ``_cgroup.py``); past it the
  kernel is OOM-killed, the executor says so and starts a fresh kernel.
* ``file_size`` 1 GiB: largest single file a cell may write (run folder or /tmp); writes past it fail
  with ``OSError: [Errno 27] File too large``.
* ``processes`` 256: processes *and threads* of the sandbox uid; a fork or thread bomb hits it and gets
  ``BlockingIOError``/``RuntimeError: can't start new thread``. Only enforced for a non-root uid, which is
  why the bwrap backend runs the kernel under an unprivileged uid.
* ``cpu_time`` 4 h: CPU seconds over the kernel's whole life (it lives across cells); past it the kernel
  is killed by SIGXCPU and the executor restarts it. Per-cell runaway loops are stopped by the wall-clock
  timeout long before that.
* ``tmp_size`` 512 MiB: size of the private /tmp (a tmpfs, i.e. memory); /dev/shm gets the same.
* ``min_free_disk`` 1 GiB: the file-size limit bounds one file, not many; so while a cell runs the executor
  watches the free space of the run folder's disk and stops the cell (``DiskSpaceExhausted``) below this.
* ``threads`` min(4, cores): exported as OMP/OPENBLAS/MKL/NUMEXPR thread counts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["DROPPED_MARK", "GiB", "MiB", "SandboxLimits", "bootstrap_code"]

MiB = 1024**2
GiB = 1024**3


def _default_threads() -> int:
    return max(1, min(4, os.cpu_count() or 1))


def _default_memory() -> int:
    """Half of this machine's memory, at most 8 GiB."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 8 * GiB
    return max(512 * MiB, min(8 * GiB, total // 2))


@dataclass(frozen=True, kw_only=True)
class SandboxLimits:
    """Limits for one sandboxed kernel; ``None`` means no limit for that resource.

    Attributes:
        address_space: RLIMIT_AS in bytes (virtual memory of each process).
        memory: resident memory in bytes of the kernel and its children together (a memory cgroup).
        file_size: RLIMIT_FSIZE in bytes (largest file a process may write).
        processes: RLIMIT_NPROC (processes and threads of the sandbox uid).
        cpu_time: RLIMIT_CPU in seconds (CPU time of each process over its life).
        open_files: RLIMIT_NOFILE.
        tmp_size: size in bytes of the private /tmp tmpfs (bwrap backend).
        min_free_disk: a cell is stopped when the disk holding the run folder has less free space than this.
        threads: value of OMP_NUM_THREADS and friends inside the kernel.
        output_head: bytes of each output stream kept from its start.
        output_tail: bytes of each output stream kept from its end.
        interrupt_grace: seconds an interrupted cell gets to stop before the kernel is restarted.
        startup_timeout: seconds a kernel gets to start and answer.
    """

    address_space: int | None = 8 * GiB
    memory: int | None = field(default_factory=_default_memory)
    file_size: int | None = 1 * GiB
    processes: int | None = 256
    cpu_time: int | None = 4 * 3600
    open_files: int | None = 1024
    tmp_size: int = 512 * MiB
    min_free_disk: int | None = 1 * GiB
    threads: int = field(default_factory=_default_threads)
    output_head: int = 20_000
    output_tail: int = 20_000
    interrupt_grace: float = 5.0
    startup_timeout: float = 60.0

    def __post_init__(self) -> None:
        from cmbagent.exceptions import ConfigError

        for name in ("address_space", "memory", "file_size", "processes", "cpu_time", "open_files"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value <= 0):
                raise ConfigError(f"SandboxLimits.{name} must be a positive integer or None, got {value!r}")
        if self.processes is not None and self.processes < 16:
            raise ConfigError("SandboxLimits.processes must be at least 16: the kernel itself runs ~10 threads")
        if self.threads < 1:
            raise ConfigError(f"SandboxLimits.threads must be >= 1, got {self.threads}")
        if self.output_head < 0 or self.output_tail < 0:
            raise ConfigError("SandboxLimits.output_head/output_tail must be >= 0")
        if self.min_free_disk is not None and self.min_free_disk < 0:
            raise ConfigError("SandboxLimits.min_free_disk must be >= 0 bytes or None")
        if self.interrupt_grace <= 0 or self.startup_timeout <= 0:
            raise ConfigError("SandboxLimits.interrupt_grace and startup_timeout must be positive seconds")

    def rlimits(self) -> dict[str, int]:
        """The rlimits to set, by ``resource`` constant name."""
        pairs = {
            "RLIMIT_AS": self.address_space,
            "RLIMIT_FSIZE": self.file_size,
            "RLIMIT_NPROC": self.processes,
            "RLIMIT_CPU": self.cpu_time,
            "RLIMIT_NOFILE": self.open_files,
        }
        return {name: value for name, value in pairs.items() if value is not None}

    def thread_env(self) -> dict[str, str]:
        """Environment that keeps numerical libraries to ``threads`` threads each."""
        n = str(self.threads)
        names = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
                 "VECLIB_MAXIMUM_THREADS", "NUMBA_NUM_THREADS")
        return dict.fromkeys(names, n)


# The first code that runs inside the sandbox: apply the rlimits (soft = hard, so the cell cannot raise
# them back), ignore SIGXFSZ so an oversized write raises OSError instead of killing the process, start
# the kernel in this process (set to die with its parent), and bound each cell's stdout/stderr at the
# source: without that, a 100 MB print piles messages up inside the kernel until it runs out of its
# address space. The kernel passes the first HEAD bytes of a cell's stream, keeps its last TAIL bytes,
# and reports what it dropped with DROPPED_MARK, which the host turns back into a count.
#
# Two more things keep every output of a cell in that cell, however busy the machine:
# * iopub never drops. A ZeroMQ publisher silently discards what exceeds its send high-water mark (1000
#   messages) while the host reads slower than the cell prints; the lost message may be the cell's
#   ``idle`` status, and the host then waits out the whole timeout. The kernel's iopub socket gets no
#   high-water mark (it buffers, within the kernel's address-space limit); the host's socket keeps its
#   own, so back-pressure lands in the kernel, never in the host.
# * output written to the file descriptors (subprocesses, C and Fortran libraries) reaches ipykernel
#   through a pipe that a thread reads; at the end of a cell, what that thread has not read yet would
#   be published after the cell's ``idle`` and lost. The end of each cell sends FD_BARRIER down the
#   pipe and waits until the reading thread has passed it on. (C stdio of the kernel itself is
#   unbuffered: PYTHONUNBUFFERED makes Python call setvbuf at start-up, so nothing waits in a buffer.)
# IPython >= 9 also keeps a copy of every stream and display output of every cell for %notebook (the
# ``outputs`` of its history manager), which would defeat the bound on a cell's output: the sandbox keeps
# none (Forget). Standard library, pyzmq and ipykernel only.
DROPPED_MARK = "\x00cmbagent-dropped:{}\x00"
FD_BARRIER = "\x00cmbagent-fd-barrier\x00"
FD_BARRIER_WAIT = 10.0  # seconds; only a wedged reader thread takes this long, and then the cell still ends

_BOOTSTRAP = """\
import collections, os, resource, signal, sys, threading
for _name, _value in {limits!r}.items():
    resource.setrlimit(getattr(resource, _name), (_value, _value))
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
os.makedirs(os.environ.get("HOME", "/tmp"), exist_ok=True)
try:  # die with the process that started us, even if it is killed -9 (PR_SET_PDEATHSIG = 1)
    import ctypes
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)
except (OSError, AttributeError):
    pass
if sys.path and sys.path[0] == "":
    del sys.path[0]
import zmq
from ipykernel.kernelapp import IPKernelApp

class App(IPKernelApp):
    def _bind_socket(self, s, port):
        if s.getsockopt(zmq.TYPE) in (zmq.PUB, zmq.XPUB):
            s.setsockopt(zmq.SNDHWM, 0)  # before bind: the option is copied into each connection
        return super()._bind_socket(s, port)

app = App.instance()
app.initialize(sys.argv[1:])
HEAD, TAIL, MARK, BARRIER, WAIT = {head!r}, {tail!r}, {mark!r}, {barrier!r}, {wait!r}

class Limiter:
    def __init__(self, stream):
        self.write_through = stream.write
        self.lock = threading.RLock()
        self.reader = getattr(stream, "watch_fd_thread", None)
        self.fd = getattr(stream, "_original_stdstream_fd", None)
        self.pipe = self.identify(self.fd)
        self.passed = threading.Event()
        self.carry = ""
        self.reset()
        stream.write = self.write

    def reset(self):
        with self.lock:
            self.sent, self.dropped, self.kept, self.tail = 0, 0, 0, collections.deque()

    def write(self, text):
        if not isinstance(text, str):
            return self.write_through(text)
        if self.reader is not None and threading.current_thread() is self.reader:
            return self.from_fd(text)
        with self.lock:
            return self.limit(text)

    def from_fd(self, text):
        text, self.carry, passed = self.carry + text, "", False
        at = text.find(BARRIER)
        if at >= 0:
            text, passed = text[:at] + text[at + len(BARRIER):], True
        else:
            for k in range(min(len(BARRIER) - 1, len(text)), 0, -1):
                if text.endswith(BARRIER[:k]):  # the barrier may be split between two reads
                    text, self.carry = text[:-k], text[-k:]
                    break
        with self.lock:
            if text:
                self.limit(text)
        if passed:
            self.passed.set()
        return len(text)

    def limit(self, text):
        size = len(text.encode("utf-8", "replace"))
        if self.sent + size <= HEAD:
            self.sent += size
            return self.write_through(text)
        if self.sent < HEAD:
            part = text[: HEAD - self.sent]
            self.write_through(part)
            self.sent = HEAD
            text = text[len(part):]
            size = len(text.encode("utf-8", "replace"))
        self.tail.append((text, size))
        self.kept += size
        while len(self.tail) > 1 and self.kept - self.tail[0][1] >= TAIL:
            self.kept -= self.tail[0][1]
            self.dropped += self.tail.popleft()[1]
        return len(text)

    @staticmethod
    def identify(fd):
        try:
            st = os.fstat(fd)
        except (OSError, TypeError):
            return None
        return st.st_dev, st.st_ino

    def drain_fd(self):
        if self.pipe is None or self.reader is None or not self.reader.is_alive():
            return
        if self.identify(self.fd) != self.pipe:  # the cell closed or replaced the descriptor
            return
        self.passed.clear()
        try:
            os.write(self.fd, BARRIER.encode())
            self.passed.wait(WAIT)
        except OSError:
            pass
        except KeyboardInterrupt:  # a repeat of the host's interrupt arriving after the cell ended
            pass

    def finish(self, *args):
        self.drain_fd()
        with self.lock:
            if self.dropped:
                self.write_through(MARK.format(self.dropped))
            if self.tail:
                self.write_through("".join(t for t, _ in self.tail))
            self.reset()

class Forget(dict):
    def __contains__(self, key):
        return False

    def __getitem__(self, key):
        return []

    def __setitem__(self, key, value):
        pass

if getattr(app.shell, "history_manager", None) is not None:
    app.shell.history_manager.outputs = Forget()
for stream in (sys.stdout, sys.stderr):
    limiter = Limiter(stream)
    app.shell.events.register("pre_run_cell", lambda *a, lim=limiter: lim.reset())
    app.shell.events.register("post_run_cell", limiter.finish)
del stream, limiter
try:  # the figure probe (cmbagent.sandbox._figprobe): records what each saved figure shows
    exec(compile({probe!r}, "<cmbagent figure probe>", "exec"), {{"__name__": "cmbagent_figure_probe"}})
except Exception as _exc:
    print("figure probe not installed:", _exc, file=sys.__stderr__)
app.start()
"""


def bootstrap_code(limits: SandboxLimits) -> str:
    """Python source (for ``python -c``) that applies ``limits`` and runs the kernel with argv[1:]."""
    from cmbagent.sandbox import _figprobe

    probe = Path(_figprobe.__file__).read_text(encoding="utf-8")
    return _BOOTSTRAP.format(limits=limits.rlimits(), head=limits.output_head, tail=limits.output_tail,
                             mark=DROPPED_MARK, barrier=FD_BARRIER, wait=FD_BARRIER_WAIT, probe=probe)
