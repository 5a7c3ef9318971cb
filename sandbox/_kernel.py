"""The executor: one Jupyter kernel (ipc transport) inside an isolation backend, alive across cells."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from queue import Empty
from typing import Any

from cmbagent.exceptions import KernelDied
from cmbagent.sandbox._backend import Backend, KernelLaunch, LaunchPlan
from cmbagent.sandbox._cgroup import MemoryCgroup, sweep_stale_cgroups
from cmbagent.sandbox._figprobe import FIGURE_LOG
from cmbagent.sandbox._limits import DROPPED_MARK, FD_BARRIER, SandboxLimits, bootstrap_code
from cmbagent.sandbox._notebook import NotebookRecorder
from cmbagent.sandbox._output import BoundedText, save_image, strip_ansi, text_bundle
from cmbagent.sandbox._types import CellResult, CellStatus, Executor, Heartbeat

__all__ = ["KernelExecutor", "kernel_env"]

_DEFAULT_TIMEOUT = 600.0
_POLL = 0.25  # seconds between liveness checks while a cell runs
def _size(n: int) -> str:
    return f"{n / 2**30:.3g} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


_CANCELLED = "the run was cancelled: the cell was stopped and the kernel shut down"
_RESULT_TEXT_LIMIT = 20_000
_MARK_BEFORE, _MARK_AFTER = DROPPED_MARK.split("{}")
_DROPPED = re.compile(re.escape(_MARK_BEFORE) + r"(\d+)" + re.escape(_MARK_AFTER))
_SECRET = re.compile(r"(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)", re.IGNORECASE)


_spawner: Any = None
_spawner_lock = threading.Lock()


def _spawn(start: Any) -> subprocess.Popen[bytes]:
    """Start a kernel process from one long-lived thread.

    The kernel (and bwrap, with --die-with-parent) is killed when its parent *thread* ends
    (PR_SET_PDEATHSIG), which is what takes it down with a host killed by -9. Starting it from a
    short-lived worker thread (a graph node running in a pool) would kill the kernel when that thread
    finished; one spawner thread that lives as long as the process avoids that.
    """
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            from concurrent.futures import ThreadPoolExecutor

            _spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cmbagent-kernel-spawner")
    proc: subprocess.Popen[bytes] = _spawner.submit(start).result()
    return proc


def _sweep_stale_runtime_dirs(base: Path) -> None:
    """Remove runtime folders left by hosts that were killed (their pid is in the name and is gone)."""
    for path in base.glob("cmbagent-k-*-*"):
        pid = path.name.split("-")[2]
        if not pid.isdigit() or Path(f"/proc/{pid}").exists():
            continue
        shutil.rmtree(path, ignore_errors=True)


def kernel_env(allow_env: tuple[str, ...], limits: SandboxLimits, backend: str, sandbox_id: str) -> dict[str, str]:
    """The kernel's whole environment: fixed settings plus the allow-listed names from ours.

    Names that look like credentials are refused even when allow-listed: API keys never reach the kernel.
    """
    from cmbagent.exceptions import ConfigError

    venv_bin = str(Path(sys.executable).parent)
    env = {
        "PATH": f"{venv_bin}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        # inline is Agg underneath: plt.show()/display produce PNG display data, savefig writes files
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
        "JUPYTER_PLATFORM_DIRS": "1",
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        # progress bars print rates and elapsed times into a cell's stderr: noise for the critics, and a
        # strict replay of a run that loads a model would see a different output every time
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        "TQDM_DISABLE": "1",
        "CMBAGENT_BLOCK_NETWORK": "1",
        "CMBAGENT_SANDBOX": backend,
        "CMBAGENT_SANDBOX_ID": sandbox_id,
        **limits.thread_env(),
    }
    for name in allow_env:
        if _SECRET.search(name):
            raise ConfigError(f"allow_env may not pass {name!r} into the sandbox: credentials never reach "
                              "agent-written code; remove it from allow_env")
        if name in os.environ:
            env[name] = os.environ[name]
    return env


class KernelExecutor(Executor):
    """Runs cells in one persistent kernel; restarts it when it dies or will not interrupt.

    Args:
        run_dir: the run folder (cwd of the kernel; figures/ and notebook.ipynb go here).
        backend: the isolation backend.
        limits: resource and output limits.
        allow_env: names of our environment variables the kernel may see.
    """

    def __init__(self, run_dir: Path, backend: Backend, *, limits: SandboxLimits | None = None,
                 allow_env: tuple[str, ...] = ()) -> None:
        self.run_dir = Path(run_dir).resolve()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.figures_dir = self.run_dir / "figures"
        self.figures_dir.mkdir(exist_ok=True)
        (self.run_dir / FIGURE_LOG).parent.mkdir(exist_ok=True)  # where the figure probe writes
        self.backend = backend
        self.limits = limits or SandboxLimits()
        self.sandbox_id = secrets.token_hex(8)
        self._env = kernel_env(tuple(allow_env), self.limits, backend.name, self.sandbox_id)
        self.notebook = NotebookRecorder(self.run_dir / "notebook.ipynb")
        self._proc: subprocess.Popen[bytes] | None = None
        self._plan: LaunchPlan | None = None
        self._launch: KernelLaunch | None = None
        self._client: Any = None
        self._runtime: Path | None = None
        self._cgroup: MemoryCgroup | None = None
        self._starts = 0
        self._closed = False
        self._cancelled = threading.Event()
        self.restarts = 0
        self._start()

    # ----------------------------------------------------------------- lifecycle

    @property
    def pid(self) -> int | None:
        """Host pid of the process the backend started (bwrap, docker or the kernel itself)."""
        return self._proc.pid if self._proc else None

    def _new_runtime_dir(self) -> Path:
        base = Path(tempfile.gettempdir())
        if len(str(base)) > 60:  # ipc socket paths must stay under the 107-byte sun_path limit
            base = Path("/tmp")
        _sweep_stale_runtime_dirs(base)
        path = Path(tempfile.mkdtemp(prefix=f"cmbagent-k-{os.getpid()}-", dir=base))
        path.chmod(0o700)
        return path

    def _new_client(self) -> Any:
        """A fresh, unconnected jupyter_client ``BlockingKernelClient`` for the kernel being started."""
        from jupyter_client.blocking import BlockingKernelClient

        return BlockingKernelClient()

    def _start(self) -> None:
        from jupyter_client.connect import write_connection_file

        self._runtime = self._new_runtime_dir()
        conn = self._runtime / "kernel.json"
        write_connection_file(str(conn), ip=str(self._runtime / "k"), transport="ipc",
                              key=secrets.token_hex(16).encode(), kernel_name="python3")
        self._launch = KernelLaunch(
            bootstrap=bootstrap_code(self.limits),
            kernel_args=["-f", str(conn), "--IPKernelApp.quiet=True", "--HistoryManager.enabled=False"],
            env=self._env, run_dir=self.run_dir, runtime_dir=self._runtime, limits=self.limits,
            sandbox_id=self.sandbox_id,
        )
        plan = self.backend.wrap(self._launch)
        self._plan = plan
        if self.limits.memory is not None and self.backend.local_process:
            sweep_stale_cgroups()
            self._starts += 1
            self._cgroup = MemoryCgroup.create(f"cmbagent-{os.getpid()}-{self.sandbox_id}-{self._starts}",
                                               self.limits.memory)
            if self._cgroup is not None:
                plan.argv = self._cgroup.join(plan.argv)
        log = open(self._runtime / "kernel.log", "wb")
        try:
            self._proc = _spawn(lambda: subprocess.Popen(
                plan.argv, env=plan.env, cwd=plan.cwd, pass_fds=plan.pass_fds, user=plan.user,
                group=plan.group, extra_groups=[] if plan.user is not None else None,
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
            ))
        except OSError as exc:
            shutil.rmtree(self._runtime, ignore_errors=True)
            self._runtime = None
            self._drop_cgroup()
            raise KernelDied(f"could not start the {self.backend.name} kernel ({plan.argv[0]}): {exc}") from exc
        finally:
            log.close()
            plan.close()
        client = self._new_client()
        client.load_connection_file(str(conn))
        client.start_channels()
        self._client = client
        try:
            self._wait_ready()
        except BaseException:
            self._kill()  # no half-started kernel, runtime folder or channel left behind
            raise

    def _log_tail(self, size: int = 2000) -> str:
        try:
            data = (self._runtime / "kernel.log").read_bytes() if self._runtime else b""
        except OSError:
            return ""
        data = data.replace(FD_BARRIER.encode(), b"")  # the fd reader echoes what it passes on into the log
        return data[-size:].decode("utf-8", errors="replace").strip()

    def _wait_ready(self) -> None:
        """Return once the kernel answers on shell, our iopub subscription is in place, and nothing is pending.

        A shell reply alone does not prove the iopub SUB socket is subscribed: ZeroMQ's publisher drops
        what it sends before a subscription reaches it (the "slow joiner"), so the first cell's output and
        its ``idle`` status could be published to nobody and the cell would wait out its whole timeout.
        Every kernel_info request makes the kernel publish busy/idle (and ipykernel >= 7 greets each new
        subscription), so the first iopub message of any kind is the proof; jupyter_client's own
        ``wait_for_ready`` makes the same check. The requests sent while the kernel was starting are all
        answered before we return, so the first cell never meets a reply of ours on its way out.
        """
        deadline = time.monotonic() + self.limits.startup_timeout
        replied = subscribed = False
        unanswered = 0  # kernel_info requests without a reply yet
        next_request = 0.0
        while not (replied and subscribed and unanswered == 0):
            now = time.monotonic()
            if now >= deadline:
                missing = ("on its shell channel" if not replied else
                           "on iopub (no output could reach us)" if not subscribed else
                           f"{unanswered} of its start-up requests")
                raise KernelDied(f"the {self.backend.name} kernel did not answer {missing} within "
                                 f"{self.limits.startup_timeout:.0f} s: {self._log_tail()}")
            if self._proc is not None and self._proc.poll() is not None:
                raise KernelDied(f"the {self.backend.name} kernel exited during start-up (code "
                                 f"{self._proc.returncode}): {self._log_tail() or 'no output'}")
            if now >= next_request and not (replied and subscribed):
                self._client.kernel_info()
                unanswered += 1
                next_request = now + 0.5
            try:
                reply = self._client.get_shell_msg(timeout=0.1)
            except Empty:
                pass
            else:
                if reply["msg_type"] == "kernel_info_reply":  # the answer to any of our requests will do
                    replied = True
                    unanswered -= 1
            if not subscribed:
                try:
                    self._client.get_iopub_msg(timeout=0.1)
                except Empty:
                    pass
                else:
                    subscribed = True
        self._drain_iopub()

    def _drain_iopub(self) -> None:
        while True:
            try:
                self._client.get_iopub_msg(timeout=0.01)
            except Exception:  # queue.Empty (or a message we could not read: discarded either way)
                return

    def _kill(self) -> None:
        if self._client is not None:
            try:
                self._client.stop_channels()
            except Exception:
                pass
            self._client = None
        if self._proc is not None and self._launch is not None:
            self.backend.stop(self._proc, self._launch)
        self._proc = None
        self._drop_cgroup()
        if self._runtime is not None:
            shutil.rmtree(self._runtime, ignore_errors=True)
            self._runtime = None

    def _drop_cgroup(self) -> None:
        if self._cgroup is not None:
            self._cgroup.remove()
            self._cgroup = None

    @property
    def memory_cgroup(self) -> MemoryCgroup | None:
        """The memory cgroup the running kernel is in (None where the host allows none: RLIMIT_AS only)."""
        return self._cgroup

    def _restart(self) -> str | None:
        """Kill and start afresh; returns None on success or why it failed."""
        self._kill()
        try:
            self._start()
        except (KernelDied, OSError) as exc:
            return str(exc)
        self.restarts += 1
        return None

    def cancel(self) -> None:
        """Stop the cell in flight and the kernel from any thread; the waiting thread kills the kernel within
        one poll (``_POLL``), and no later cell starts it again."""
        self._cancelled.set()

    def close(self) -> None:
        """Kill the kernel and every process it started; safe to call twice."""
        if not self._closed:
            self._closed = True
            self._kill()
            self.backend.release_run_dir(self.run_dir)

    def __del__(self) -> None:  # a forgotten executor must not leave a kernel running
        try:
            self.close()
        except Exception:
            pass

    # ----------------------------------------------------------------- execution

    def execute(self, code: str, *, timeout: float | None = None, heartbeat: Heartbeat | None = None) -> CellResult:
        """Run ``code`` as one cell and record it in notebook.ipynb; never raises for the code's errors."""
        if self._closed:
            raise KernelDied("this executor is closed; open a new one with open_sandbox()")
        timeout = _DEFAULT_TIMEOUT if timeout is None else float(timeout)
        cell_no = self.notebook.cell_count + 1
        started = time.monotonic()
        if self._cancelled.is_set():
            self._kill()
            return CellResult(status="died", message=_CANCELLED)
        if self._client is None:  # an earlier restart failed: try once more before giving up
            why = self._restart()
            if why is not None:
                result = CellResult(status="died", message=f"the kernel is dead and could not be restarted: {why}")
                self.notebook.append(code, result, [])
                return result
        self.backend.prepare_run_dir(self.run_dir)
        collector = _Collector(self.limits, self.figures_dir, cell_no)
        cgroup = self._cgroup
        kills_before = cgroup.oom_kills() if cgroup is not None else 0
        msg_id = self._client.execute(code, store_history=True, allow_stdin=False, stop_on_error=False)
        status, message = self._wait(msg_id, collector, started + timeout, timeout, heartbeat, started)
        if cgroup is not None and cgroup is self._cgroup and cgroup.oom_kills() > kills_before:
            # the kernel lived, but the OOM killer ended a process the cell started (a worker, a subprocess)
            killed = cgroup.oom_kills() - kills_before
            note = (f"the out-of-memory killer ended {killed} process(es) the cell started: together with the "
                    f"kernel they held more than the sandbox's memory limit of {_size(cgroup.limit)} "
                    "(SandboxLimits.memory)")
            message = f"{message}; {note}" if message else note
        result = collector.result(status, message, time.monotonic() - started)
        self.notebook.append(code, result, collector.outputs)
        return result

    def _alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def _disk_low(self) -> str | None:
        """Why the cell must stop for lack of disk space, or None."""
        floor = self.limits.min_free_disk
        if floor is None:
            return None
        try:
            st = os.statvfs(self.run_dir)
        except OSError:
            return None
        free = st.f_bavail * st.f_frsize
        if free >= floor:
            return None
        return (f"the disk holding the run folder has {free / 2**20:.0f} MiB free, below the "
                f"{floor / 2**20:.0f} MiB floor (SandboxLimits.min_free_disk); delete or shrink files the cell wrote")

    def _wait(self, msg_id: str, collector: _Collector, deadline: float, timeout: float,
              heartbeat: Heartbeat | None = None, started: float = 0.0) -> tuple[CellStatus, str]:
        next_beat = started + heartbeat.every_s if heartbeat is not None else float("inf")
        interrupted_at: float | None = None
        last_interrupt = 0.0
        why_stopped = f"the cell ran past its {timeout:g} s limit"
        disk_stop: str | None = None
        next_disk_check = 0.0
        while True:
            if self._cancelled.is_set():
                self._kill()
                return "died", _CANCELLED
            now = time.monotonic()
            if heartbeat is not None and now >= next_beat:
                heartbeat.send(now - started, collector.stdout.last_line() or collector.stderr.last_line())
                next_beat = now + heartbeat.every_s
            if interrupted_at is None and now >= next_disk_check:
                next_disk_check = now + 0.1
                disk_stop = self._disk_low()
                if disk_stop is not None:
                    self._interrupt()
                    interrupted_at = last_interrupt = now
                    why_stopped = f"the cell was stopped: {disk_stop}"
            if interrupted_at is None and now >= deadline:
                self._interrupt()
                interrupted_at = last_interrupt = now
            elif interrupted_at is not None and collector.error is None and now >= last_interrupt + 0.5:
                # an interrupt that arrives before the kernel starts the cell is lost: repeat it
                self._interrupt()
                last_interrupt = now
            if interrupted_at is not None and now >= interrupted_at + self.limits.interrupt_grace:
                why = self._restart()
                grace = self.limits.interrupt_grace
                if why is None:
                    return "restarted", (f"{why_stopped} and the kernel did not stop within {grace:g} s of an "
                                         "interrupt; the kernel was restarted: all variables and imports are lost")
                return "died", f"{why_stopped} and the kernel could not be restarted: {why}"
            try:
                msg = self._client.get_iopub_msg(timeout=_POLL)
            except Exception:  # queue.Empty
                if not self._alive():
                    return self._died(collector)
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            if kind == "status" and msg["content"].get("execution_state") == "idle":
                self._read_reply(msg_id)
                if disk_stop is not None:
                    collector.error = {"ename": "DiskSpaceExhausted", "evalue": disk_stop,
                                       "traceback": (collector.error or {}).get("traceback", "")}
                    return "error", why_stopped
                if interrupted_at is not None:
                    return "timeout", (f"the cell ran past its {timeout:g} s wall-clock limit and was interrupted "
                                       "(KeyboardInterrupt); the kernel and its state are kept")
                return ("error" if collector.error else "ok"), ""
            collector.handle(kind, msg["content"])

    def _died(self, collector: _Collector) -> tuple[CellStatus, str]:
        code = self._proc.returncode if self._proc is not None else None
        signal_name = ""
        if code is not None and code > 128:
            import signal

            try:
                signal_name = f", signal {signal.Signals(code - 128).name}"
            except ValueError:
                pass
        elif code is not None and code < 0:
            import signal

            signal_name = f", signal {signal.Signals(-code).name}"
        cgroup = self._cgroup
        if cgroup is not None and cgroup.killed_since_start():
            what = (f"the kernel was killed by the out-of-memory killer (exit status {code}{signal_name}): the cell "
                    f"and the processes it started held more than the sandbox's memory limit of "
                    f"{_size(cgroup.limit)} (SandboxLimits.memory); use less memory (smaller arrays, "
                    f"fewer workers, chunks) or raise the limit")
        else:
            what = (f"the kernel died during the cell (exit status {code}{signal_name}; a resource limit such as "
                    "CPU time, or the cell killing its own process)")
        why = self._restart()
        if why is None:
            return "restarted", what + "; the kernel was restarted: all variables and imports are lost"
        return "died", what + f"; it could not be restarted: {why}"

    def _interrupt(self) -> None:
        try:
            msg = self._client.session.msg("interrupt_request", {})
            self._client.control_channel.send(msg)
        except Exception:
            pass

    def _read_reply(self, msg_id: str) -> None:
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            try:
                reply = self._client.get_shell_msg(timeout=0.2)
            except Exception:
                return
            if reply["parent_header"].get("msg_id") == msg_id:
                return


class _Collector:
    """Turns iopub messages of one cell into bounded outputs, image files and notebook outputs."""

    def __init__(self, limits: SandboxLimits, figures: Path, cell_no: int) -> None:
        self.stdout = BoundedText(limits.output_head, limits.output_tail)
        self.stderr = BoundedText(limits.output_head, limits.output_tail)
        self.figures = figures
        self.cell_no = cell_no
        self.results: list[dict[str, Any]] = []
        self.images: list[str] = []
        self.error: dict[str, Any] | None = None
        self.execution_count: int | None = None
        self._rich_outputs: list[dict[str, Any]] = []  # display/result/error outputs, in order
        self._order: list[tuple[str, Any]] = []  # ("stream", name) or ("rich", index), in arrival order

    def handle(self, kind: str, content: dict[str, Any]) -> None:
        if kind == "stream":
            name = content.get("name", "stdout")
            target = self.stderr if name == "stderr" else self.stdout
            for i, piece in enumerate(_DROPPED.split(content.get("text", ""))):
                if i % 2:  # the kernel's own bound dropped this many bytes
                    target.skip(int(piece))
                elif piece:
                    target.write(piece)
            if not self._order or self._order[-1] != ("stream", name):
                self._order.append(("stream", name))
        elif kind == "execute_input":
            self.execution_count = content.get("execution_count")
        elif kind in ("display_data", "execute_result"):
            data = content.get("data", {})
            saved = save_image(data, self.figures, f"cell-{self.cell_no:04d}-{len(self.images) + 1}")
            kept = text_bundle(data, _RESULT_TEXT_LIMIT)
            if saved is not None:
                self.images.append(str(saved))
                kept["image_path"] = str(saved)
                nb_data = {k: v for k, v in data.items() if k.startswith("image/")} | text_bundle(data, _RESULT_TEXT_LIMIT)
            else:
                nb_data = dict(kept)
            if kind == "execute_result" or saved is None:
                self.results.append(kept)
            self._add_rich({"output_type": kind, "data": nb_data, "metadata": content.get("metadata", {})})
        elif kind == "error":
            tb = strip_ansi("\n".join(content.get("traceback", [])))
            self.error = {"ename": content.get("ename", ""), "evalue": content.get("evalue", ""), "traceback": tb}
            self._add_rich({"output_type": "error", "ename": self.error["ename"], "evalue": self.error["evalue"],
                            "traceback": tb.splitlines()})

    def _add_rich(self, output: dict[str, Any]) -> None:
        self._order.append(("rich", len(self._rich_outputs)))
        self._rich_outputs.append(output)

    @property
    def outputs(self) -> list[dict[str, Any]]:
        """nbformat-shaped outputs: each stream once (bounded) at its first position, rich ones in order."""
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for tag, ref in self._order:
            if tag == "stream":
                if ref in seen:
                    continue
                seen.add(ref)
                text = (self.stderr if ref == "stderr" else self.stdout).result().text
                out.append({"output_type": "stream", "name": ref, "text": text})
            else:
                out.append(self._rich_outputs[ref])
        return out

    def result(self, status: CellStatus, message: str, duration: float) -> CellResult:
        err = self.error or {}
        if status == "error" and not message:
            message = f"{err.get('ename', '')}: {err.get('evalue', '')}"
        return CellResult(
            status=status,
            stdout=self.stdout.result(),
            stderr=self.stderr.result(),
            results=self.results,
            images=self.images,
            error_name=err.get("ename"),
            error_value=err.get("evalue"),
            traceback=err.get("traceback"),
            duration_s=duration,
            message=message,
            execution_count=self.execution_count,
        )
