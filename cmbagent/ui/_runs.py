"""Runs of the UI: a bounded worker pool with a visible queue, and the list of a session's runs.

A run lives in the server process, not in the browser tab: closing the tab stops only the view that follows
it.  At most ``max_concurrent`` runs execute at once; the rest wait, first come first served, and each view
shows its place in the line.  A run waiting for a person to approve its plan holds no worker.  Cancelling a
waiting run takes it out of the line; cancelling a running one asks it to stop the way ``cmbagent cancel``
does (:mod:`cmbagent.control`), so it ends ``cancelled`` with a partial report and can be resumed.

API keys given with a submission are held by the job only while ``solve``/``resume`` runs and are dropped as
soon as it returns; they are never written anywhere.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.exceptions import PathError
from cmbagent.paths import read_beneath
from cmbagent.ui._sessions import Session, valid_run_id

__all__ = ["RunHandle", "RunManager", "RunRequest", "RunSummary", "list_runs", "new_run_id", "warm_registries"]

ACTIVE = ("queued", "running")


def new_run_id(title: str) -> str:
    """A sortable, unguessable-enough, filesystem-safe run id: ``YYYYmmdd-HHMMSS-<slug>-<hex>``."""
    import secrets

    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:28].rstrip("-") or "task"
    return f"{time.strftime('%Y%m%d-%H%M%S')}-{slug}-{secrets.token_hex(3)}"


@dataclass
class RunRequest:
    """What ``solve`` is called with (everything but the keys)."""

    task: str | Path
    title: str
    data_files: list[Path] = field(default_factory=list)
    model: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    cleanup: Path | None = None
    #: the path policy of the files the task may name (the submission's staging folder, or the examples)
    paths: Any = None


@dataclass
class RunHandle:
    """A run this server started or resumed; its state as the pool sees it."""

    run_id: str
    session_key: str
    run_dir: Path
    title: str
    kind: str
    order: int
    state: str = "queued"
    submitted: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    result_status: str | None = None
    error: str | None = None
    changed: threading.Event = field(default_factory=threading.Event)


@dataclass
class RunSummary:
    """One row of the Runs page."""

    run_id: str
    title: str
    status: str
    cost_usd: float | None
    duration_s: float | None
    started: float | None
    has_report: bool


class RunManager:
    """Executes runs in a bounded pool and keeps their handles by session."""

    def __init__(
        self,
        max_concurrent: int = 2,
        *,
        solve_fn: Callable[..., Any] | None = None,
        resume_fn: Callable[..., Any] | None = None,
    ):
        if max_concurrent < 1:
            raise ValueError("max_concurrent must be at least 1")
        self.max_concurrent = max_concurrent
        self._solve = solve_fn
        self._resume = resume_fn
        self._pool = ThreadPoolExecutor(max_workers=max_concurrent, thread_name_prefix="cmbagent-ui-run")
        self._lock = threading.Lock()
        self._handles: dict[tuple[str, str], RunHandle] = {}
        self._order = itertools.count()

    # -- submission ------------------------------------------------------------------------------------

    def submit_solve(
        self, session: Session, run_id: str, request: RunRequest, api_keys: dict[str, str] | None
    ) -> RunHandle:
        run_dir = session.root / run_id
        handle = self._register(session, run_id, run_dir, request.title, "solve")
        keys = dict(api_keys or {})

        def job() -> Any:
            solve = self._solve or _default("solve")
            policy = {"paths": request.paths} if request.paths is not None else {}
            return solve(
                request.task,
                run_dir=run_dir,
                model=request.model,
                data_files=list(request.data_files) or None,
                api_keys=keys or None,
                **policy,
                **request.options,
            )

        self._pool.submit(self._run, handle, job, keys, request.cleanup)
        return handle

    def submit_resume(
        self,
        session: Session,
        run_id: str,
        decision: Any | None,
        api_keys: dict[str, str] | None,
        *,
        sandbox: str | None = None,
    ) -> RunHandle:
        run_dir = session.root / run_id
        title = self._title_of(run_dir) or run_id
        with self._lock:
            current = self._handles.get((session.key, run_id))
            if current is not None and current.state in ACTIVE:
                return current
        handle = self._register(session, run_id, run_dir, title, "resume")
        keys = dict(api_keys or {})

        def job() -> Any:
            resume = self._resume or _default("resume")
            backend = {"sandbox": sandbox} if sandbox is not None else {}  # never the one run.json names
            return resume(run_dir, decision=decision, api_keys=keys or None, **backend)

        self._pool.submit(self._run, handle, job, keys)
        return handle

    def cancel(self, session: Session, run_id: str) -> str:
        """Cancel one of ``session``'s runs; returns what was done (for the page), or raises ``ValueError``."""
        from cmbagent.control import request_cancel, run_owner

        with self._lock:
            handle = self._handles.get((session.key, run_id))
            if handle is not None and handle.state == "queued":
                handle.state = handle.result_status = "cancelled"
                handle.ended = time.time()
                handle.changed.set()
                return "cancelled before it started"
        run_dir = session.run_dir(run_id)
        running = handle is not None and handle.state == "running"
        if run_dir is None or not run_dir.is_dir() or not (running or run_owner(run_dir) is not None):
            raise ValueError("this run is not running; there is nothing to cancel")
        request_cancel(run_dir, reason="cancelled from the web UI", by="ui")
        return "cancel requested: the step in flight is stopped, then the run ends with a partial report"

    def _register(self, session: Session, run_id: str, run_dir: Path, title: str, kind: str) -> RunHandle:
        if not valid_run_id(run_id):
            raise ValueError(f"invalid run id {run_id!r}")
        handle = RunHandle(
            run_id=run_id,
            session_key=session.key,
            run_dir=run_dir,
            title=title,
            kind=kind,
            order=next(self._order),
        )
        with self._lock:
            self._handles[(session.key, run_id)] = handle
        return handle

    def _run(
        self, handle: RunHandle, job: Callable[[], Any], keys: dict[str, str], cleanup: Path | None = None
    ) -> None:
        with self._lock:
            if handle.state == "cancelled":  # taken out of the line before a worker was free
                keys.clear()
                if cleanup is not None:
                    shutil.rmtree(cleanup, ignore_errors=True)
                return
            handle.state, handle.started = "running", time.time()
        handle.changed.set()
        try:
            result = job()
            status = str(getattr(result, "status", "done"))
            failure = getattr(result, "error", None)
            with self._lock:
                handle.result_status, handle.state = status, status
                if failure:
                    handle.error = _mask(str(failure), keys)
        except Exception as exc:  # the view shows it; the server keeps serving other runs
            message = _mask(str(exc) or type(exc).__name__, keys)
            with self._lock:
                handle.state, handle.error = "error", f"{type(exc).__name__}: {message}"
        finally:
            keys.clear()
            if cleanup is not None:  # staged uploads: the run copied what it needs into its own folder
                shutil.rmtree(cleanup, ignore_errors=True)
            with self._lock:
                handle.ended = time.time()
            handle.changed.set()

    # -- queries -----------------------------------------------------------------------------------------

    def handle(self, session: Session, run_id: str) -> RunHandle | None:
        with self._lock:
            return self._handles.get((session.key, run_id))

    def handles(self, session: Session) -> list[RunHandle]:
        with self._lock:
            return [h for (key, _), h in self._handles.items() if key == session.key]

    def queue_position(self, handle: RunHandle) -> int | None:
        """1-based place in the line of waiting runs (all sessions), or None if it is not waiting."""
        with self._lock:
            if handle.state != "queued":
                return None
            waiting = sorted(h.order for h in self._handles.values() if h.state == "queued")
        return waiting.index(handle.order) + 1

    def counts(self) -> tuple[int, int]:
        with self._lock:
            states = [h.state for h in self._handles.values()]
        return states.count("running"), states.count("queued")

    def shutdown(self, wait: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)

    @staticmethod
    def _title_of(run_dir: Path) -> str:
        info = read_run_json(run_dir)
        return str(info.get("title") or info.get("task_title") or "")


_WARM_LOCK = threading.Lock()
_warm = False


def warm_registries() -> None:
    """Load the method and agent registries once, in one thread, before runs start in parallel.

    The method registry loads its plugin families lazily and marks them loaded before their imports
    finish, so two runs starting at the same moment in two threads could see a half-filled registry and
    refuse a known method.  Loading it here, under a lock, leaves every run a complete registry.
    """
    global _warm
    with _WARM_LOCK:
        if _warm:
            return
        from cmbagent.agents import load_registry
        from cmbagent.tools.methods import iter_methods

        list(iter_methods())
        load_registry()
        _warm = True


def _mask(message: str, keys: dict[str, str]) -> str:
    """An error message with any key it quotes replaced (providers sometimes echo a bad key back)."""
    for secret in keys.values():
        if secret:
            message = message.replace(secret, "***")
    return message


def _default(name: str) -> Callable[..., Any]:
    from cmbagent import api

    warm_registries()
    function: Callable[..., Any] = getattr(api, name)
    return function


def read_run_json(run_dir: Path) -> dict[str, Any]:
    try:  # never through a link: sandboxed code can write the run folder
        data = json.loads(read_beneath(run_dir, "run.json", limit=4 << 20))
    except (OSError, ValueError, PathError):
        return {}
    return data if isinstance(data, dict) else {}


def _number(*candidates: Any) -> float | None:
    for value in candidates:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def _title_from_task(run_dir: Path) -> str:
    try:
        text = read_beneath(run_dir, "task.md", limit=4000).decode("utf-8", errors="replace")
    except (OSError, PathError):
        return ""
    match = re.search(r"^title:\s*(.+)$", text, flags=re.MULTILINE)
    if match:
        return match.group(1).strip().strip("'\"")
    for line in text.splitlines():
        if line.strip() and line.strip() != "---":
            return line.strip().lstrip("# ")[:80]
    return ""


def list_runs(session: Session, manager: RunManager) -> list[RunSummary]:
    """This session's runs, newest first: the run folders on disk merged with the live handles."""
    rows: dict[str, RunSummary] = {}
    if session.root.is_dir():
        for run_dir in session.root.iterdir():
            if not run_dir.is_dir() or not valid_run_id(run_dir.name):
                continue
            info = read_run_json(run_dir)
            raw_costs = info.get("costs")
            costs: dict[str, Any] = raw_costs if isinstance(raw_costs, dict) else {}
            status = str(info.get("status") or "unknown")
            if status == "running" and manager.handle(session, run_dir.name) is None:
                status = "interrupted"  # its process is gone (server restart, kill): resumable
            started = _number(info.get("started"), info.get("started_at"), info.get("created"))
            rows[run_dir.name] = RunSummary(
                run_id=run_dir.name,
                title=str(info.get("title") or "") or _title_from_task(run_dir) or run_dir.name,
                status=status,
                cost_usd=_number(
                    info.get("cost_usd"), costs.get("usd"), costs.get("cost_usd"), costs.get("total_usd")
                ),
                duration_s=_number(info.get("duration_s"), info.get("elapsed_s")),
                started=started if started is not None else run_dir.stat().st_mtime,
                has_report=(run_dir / "report.md").is_file(),
            )
    for handle in manager.handles(session):
        row = rows.get(handle.run_id)
        if handle.state in ACTIVE or handle.state == "error" or row is None:
            status = handle.state
            rows[handle.run_id] = RunSummary(
                run_id=handle.run_id,
                title=row.title if row else handle.title,
                status=status,
                cost_usd=row.cost_usd if row else None,
                duration_s=row.duration_s if row else None,
                started=row.started if row else handle.submitted,
                has_report=row.has_report if row else False,
            )
    return sorted(rows.values(), key=lambda r: (r.started or 0.0, r.run_id), reverse=True)
