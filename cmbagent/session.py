"""A run session: one run folder's wiring (model client, runtime, graph, checkpointer) and bookkeeping
(``run.json``, the event log, the report).

::

    session = RunSession.create(task, RunConfig.resolve(flags={...}), workspace=ws)   # a new run folder
    result = session.start()
    result = RunSession.open(run_dir).resume(PlanDecision(action="approve"))        # continue it

The report is rendered once, when the graph stops, from what its report node established (or, when the
run broke, from a narrative written by code): :mod:`cmbagent.report` writes it, as it writes
``requirements.json``.  Checkpoints are read through the graph's own API.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cmbagent.checkpoints import CheckpointStore, describe_url, open_store, resolve_url, thread_for
from cmbagent.config import RunConfig
from cmbagent.control import CancelWatch, RunLock, clear_cancel
from cmbagent.events import Event, EventLog
from cmbagent.exceptions import CmbagentError, RunCancelled, StorageError, UserError
from cmbagent.report import costs_of, final_requirements, key_numbers, write_report
from cmbagent.run import RunFolder
from cmbagent.state import Finding, RequirementCheck, RunStatus, TaskSpec
from cmbagent.storage import storage_failure
from cmbagent.task import Task

__all__ = ["ExecutorSource", "PlanDecision", "RunResult", "RunSession", "citation_resolver", "run_index",
           "run_retriever", "task_spec"]

Status = Literal["done", "unmet", "failed", "budget_exhausted", "interrupted", "cancelled", "awaiting_approval"]
#: statuses after which the run's graph is not going on (a report is rendered; ``finished`` is recorded)
_ENDED = {"done", "unmet", "failed", "budget_exhausted"}
ExecutorSource = Any  # an Executor, or a function run_dir -> Executor (e.g. the InMemoryExecutor class)


class PlanDecision(BaseModel):
    """A person's answer to a plan awaiting approval."""

    action: Literal["approve", "edit", "reject"]
    plan: dict[str, Any] | None = None
    comment: str = ""


class RunResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    run_dir: Path
    run_id: str
    status: Status
    report_path: Path | None = None
    values: dict[str, Any] = Field(default_factory=dict)
    cost_usd: float | None = None
    duration_s: float = 0.0
    steps: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None


def task_spec(task: Task) -> TaskSpec:
    """The task as the run holds it (run-relative data paths; front matter without its arguments and data, which
    ``arguments`` and ``data_files`` hold, and without ``expected`` — the numbers an example should give are
    for its test, never shown to an agent)."""
    return TaskSpec(text=task.text, title=task.title, method=task.method, arguments=task.arguments,
                    data_files=task.data_files,
                    front_matter={k: v for k, v in task.front_matter.items()
                                  if k not in {"arguments", "data", "expected"}})


class RunSession:
    """Owns one run folder while a process works on it (see the module docstring).

    Args:
        folder: The run folder.
        config: The run's resolved configuration.
        models: Ready model instances by name (a routed spec equal to a name uses it).
        executor: Where cells run: an :class:`cmbagent.sandbox.Executor`, or a function of the run folder that
            makes one (``InMemoryExecutor``); default: a sandboxed kernel of ``config.settings.sandbox``.
        api_keys: Keys by provider, preferred over the environment (the UI's session keys).
        on_event: Receives every event (and streamed text as ``text_delta``).
        replay_lenient: For ``replay:`` models, log divergences instead of failing.
        sandbox: A backend that overrides the stored ``config.settings.sandbox``: run.json is writable by the
            run's sandboxed code, so a caller that must not trust it names the backend itself.
        checkpoints: The PostgreSQL URL of the checkpoint store (``""``: SQLite in the run folder; default:
            ``CMBAGENT_CHECKPOINTS``); see :mod:`cmbagent.checkpoints`.
        shared_budget: An account this run draws on with others (a batch's total budget).
        preflight: What pre-flight read of the task (:class:`cmbagent.preflight.Preflight`): the graph's analyst
            uses that reading instead of reading the task again (a resume in another process reads it anew).
    """

    def __init__(
        self,
        folder: RunFolder,
        config: RunConfig,
        *,
        models: Mapping[str, Any] | None = None,
        executor: ExecutorSource | None = None,
        api_keys: Mapping[str, str] | None = None,
        on_event: Callable[[Event], None] | None = None,
        replay_lenient: bool = False,
        sandbox: str | None = None,
        checkpoints: str | None = None,
        shared_budget: Any = None,
        preflight: Any = None,
    ):
        self.folder = folder
        self.preflight = preflight
        self.config = config
        self.models = dict(models or {})
        self.executor = executor
        self.api_keys = dict(api_keys or {})
        self.on_event = on_event
        self.replay_lenient = replay_lenient
        self.sandbox = sandbox or config.settings.sandbox
        self.run_id = folder.run_id
        self.events = EventLog(folder.events, self.run_id, listener=on_event)
        self.checkpoint_url = resolve_url(checkpoints)
        self.shared_budget = shared_budget
        self._store: CheckpointStore | None = None
        self._graph: Any = None
        self._lock = RunLock(folder.path)
        self._watch: CancelWatch | None = None

    # -- making and opening ----------------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        task: Task,
        config: RunConfig,
        *,
        workspace: str | os.PathLike[str] | None = None,
        run_dir: str | os.PathLike[str] | None = None,
        **wiring: Any,
    ) -> RunSession:
        """Make a new run folder for ``task`` (complete or not at all) and a session for it."""
        folder = RunFolder.create(task, workspace=Path(workspace) if workspace else None,
                                  run_dir=Path(run_dir) if run_dir else None, config=config.model_dump(mode="json"))
        url = resolve_url(wiring.get("checkpoints"))
        folder.update_run(task=task_spec(task).model_dump(mode="json"),  # a run killed before its first checkpoint starts over
                          checkpoints=describe_url(url), thread=thread_for(folder.path.name, url))
        return cls(folder, config, **{**wiring, "checkpoints": url or ""})

    @classmethod
    def open(cls, run_dir: str | os.PathLike[str], **wiring: Any) -> RunSession:
        """A session for an existing run folder, with the configuration it stored."""
        folder = RunFolder(run_dir)
        if not (folder.path / "run.json").is_file():
            raise UserError(f"{folder.path} is not a resumable run folder (no run.json)")
        stored = folder.read_run().get("checkpoints") or {}
        if stored.get("kind", "sqlite") == "sqlite" and not folder.checkpoints.is_file():
            raise UserError(f"{folder.path} is not a resumable run folder (no checkpoints.sqlite)")
        return cls(folder, RunConfig.stored(folder.config(), str(folder.path)), **wiring)  # only if still sealed

    # -- running ---------------------------------------------------------------------------------------
    def start(self) -> RunResult:
        """Run the graph from the task."""
        return self.run(self._initial_state(), resumed=False)

    def resume(self, decision: PlanDecision | None = None) -> RunResult:
        """Continue from the last checkpoint (after a kill, an interrupt, a cancel or a plan awaiting approval)."""
        from langgraph.types import Command

        with self.working():
            snapshot = self.snapshot()
            if not snapshot.values:  # killed before the first checkpoint: start over from the task
                return self.run(self._initial_state(), resumed=True)
            state = self._state(snapshot.values)
            run = self.folder.record()
            if decision is None and run.finished and not run.error and run.status in {
                RunStatus.DONE, RunStatus.UNMET, RunStatus.FAILED, RunStatus.BUDGET_EXHAUSTED
            }:  # nothing left to do: the graph reached its end and the run was recorded
                return self.result(run.status, state, run.cost_usd, run.duration_s or 0.0, run.error)
            if snapshot.interrupts or decision is not None:
                if decision is None:
                    return self.result(RunStatus.AWAITING_APPROVAL, state, run.cost_usd, run.duration_s or 0.0, None)
                return self.run(Command(resume=decision.model_dump()), resumed=True)
            return self.run(None, resumed=True)

    @contextlib.contextmanager
    def working(self) -> Iterator[None]:
        """Hold the run's lock (:class:`cmbagent.control.RunLock`) for the block; a second process trying to
        work on the run meanwhile gets :class:`RunInUse`.  Re-entrant within this session."""
        if self._lock.held:
            yield
            return
        self._lock.acquire()
        try:
            yield
        finally:
            self.close()
            self._lock.release()

    def run(self, graph_input: Any, *, resumed: bool) -> RunResult:
        """Run (or continue) the graph, then finish the run's bookkeeping and render its report once."""
        with self.working():
            clear_cancel(self.folder.path)  # a resume continues the run that an earlier request stopped
            self._watch = CancelWatch(self.folder.path).start()
            try:
                return self._run(graph_input, resumed=resumed)
            finally:
                self._watch.stop()
                self._watch = None

    def _run(self, graph_input: Any, *, resumed: bool) -> RunResult:
        from cmbagent.models import ModelClient

        watch = self._watch
        if watch is None:
            raise RuntimeError("RunSession._run is called by run(), which starts the cancel watch")
        run = self.folder.record()
        previous = run.duration_s or 0.0
        client = ModelClient(self.config.routing(self.models), transcript_path=self.folder.transcript,
                             budget=self.config.budget_limits(), api_keys=self.api_keys, on_event=self._model_event,
                             elapsed_offset_s=previous, replay_lenient=self.replay_lenient,
                             interrupt=watch.check, shared_budget=self.shared_budget)
        watch.on_cancel(client.abort_calls)  # a cancel cuts the model call in flight, not only the next one
        rt = self._make_runtime(client)
        started = time.monotonic()
        status: str
        error: str | None = None
        try:
            graph = self.graph()
            self.events.emit("run_started", task=run.title, model=self.config.model,
                             run_dir=str(self.folder.path), resumed=resumed, inputs=_inputs(run))
            self.folder.update_run(status="running")
            graph.invoke(graph_input, self._thread, context=rt, durability="sync")
            snapshot = graph.get_state(self._thread)
            status = "awaiting_approval" if snapshot.interrupts else str(
                snapshot.values.get("status") or RunStatus.FAILED)
        except KeyboardInterrupt:
            status = "interrupted"
        except RunCancelled as exc:
            status, error = "cancelled", str(exc)
        except CmbagentError as exc:
            status, error = "failed", f"{type(exc).__name__}: {exc}"
        except Exception as exc:
            storage = storage_failure(exc, self.folder.path)
            if storage is None:  # a bug: record the run as failed (it stays resumable), then surface it
                with contextlib.suppress(OSError):
                    self.folder.update_run(status="failed", error=f"internal error: {type(exc).__name__}: {exc}")
                    self.events.emit("run_finished", status="failed", report=None,
                                     cost_usd=client.ledger.totals().get("cost_usd"),
                                     duration_s=round(previous + time.monotonic() - started, 3))
                raise
            status, error = "failed", f"{type(storage).__name__}: {storage}"
        finally:
            rt.close()
            client.close()
        duration = previous + (time.monotonic() - started)
        try:
            return self._finish(status, error, client, duration)
        except (OSError, StorageError, CmbagentError) as exc:
            # the bookkeeping itself failed (a full or read-only disk): say so; the checkpoints hold the run
            failure = exc if isinstance(exc, CmbagentError) else storage_failure(exc, self.folder.path)
            if failure is None:
                raise
            return RunResult(run_dir=self.folder.path, run_id=self.folder.path.name, status="failed",
                             cost_usd=client.ledger.totals().get("cost_usd"), duration_s=round(duration, 3),
                             error=error or f"{type(failure).__name__}: {failure}")

    def _finish(self, status: str, error: str | None, client: Any, duration: float) -> RunResult:
        """run.json, the report (once) and ``run_finished`` of a graph that stopped with ``status``."""
        state = self._state(self.graph().get_state(self._thread).values or {"task": self.folder.record().task})
        self.close()
        totals = client.ledger.totals()
        cost = totals.get("cost_usd")
        ended = status not in {"awaiting_approval", "interrupted"}
        checks = final_requirements(self.folder, state, error) if ended else []
        findings: list[Finding] = state.all_findings()
        if ended and (state.report is None or error is not None):  # the report node recorded them otherwise
            findings += [f for c in checks if (f := c.finding()) is not None]
        self.folder.update_run(
            status=status, duration_s=round(duration, 3), cost_usd=cost,
            steps_done=sum(1 for r in state.steps.values() if r.status == "done"), steps_total=len(state.steps),
            costs={"total": totals, "per_agent": client.ledger.per_agent()},
            error=None if status == "cancelled" else error,
            findings=[f.model_dump(mode="json") for f in findings],
            finished=time.time() if status in _ENDED else None)
        report = None
        if ended:
            report = self._render_report(state, error, client.ledger, status, checks)
        if status != "awaiting_approval":
            self.events.emit("run_finished", status=status, report=str(report) if report else None, cost_usd=cost,
                             duration_s=round(duration, 3))
        return self.result(status, state, cost, duration, error)

    # -- reading ---------------------------------------------------------------------------------------
    def graph(self) -> Any:
        """The compiled graph over this folder's checkpoints (a run passes its runtime when it invokes it)."""
        if self._graph is None:
            from cmbagent.planner import build_graph

            self._store = open_store(self.folder.path, self.folder.read_run().get("checkpoints"),
                                     url=self.checkpoint_url, thread=self._thread_id)
            self._graph = build_graph(self._store.saver)
        return self._graph

    def snapshot(self) -> Any:
        """The latest checkpoint as LangGraph's ``StateSnapshot`` (values, interrupts, next nodes)."""
        return self.graph().get_state(self._thread)

    def close(self) -> None:
        """Close the checkpoint database (a later call opens it again)."""
        if self._store is not None:
            self._store.close()
            self._store = self._graph = None

    def result(self, status: str, state: Any, cost: float | None, duration: float, error: str | None) -> RunResult:
        """The caller's view of the run: status, report, key numbers, steps, cost and duration."""
        steps = []
        for step in state.plan.steps if state.plan else []:
            record = state.steps.get(step.id)
            steps.append({"id": step.id, "title": step.title, "agent": step.agent,
                          "status": str(record.status) if record else "pending",
                          "summary": (record.summary or record.reason) if record else "",
                          "dir": record.dir if record else None, "values": record.values if record else {}})
        key = {row["name"]: row["value"] for row in key_numbers(state.steps)}
        return RunResult(run_dir=self.folder.path, run_id=self.folder.path.name, status=str(status),  # type: ignore[arg-type]
                         report_path=self.folder.report if self.folder.report.is_file() else None, values=key,
                         cost_usd=cost, duration_s=round(duration, 3), steps=steps, error=error)

    # -- internals -------------------------------------------------------------------------------------
    @property
    def _thread_id(self) -> str:
        return str(self.folder.read_run().get("thread") or self.run_id)

    @property
    def _thread(self) -> dict[str, Any]:
        return {"configurable": {"thread_id": self._thread_id}}

    def _initial_state(self) -> Any:
        from cmbagent.planner import RunState

        task = self.folder.record().task
        if task is None:
            raise UserError(f"{self.folder.path} has no checkpoint and no task; start it again with `cmbagent solve`")
        return RunState(task=task)

    def _state(self, values: Mapping[str, Any]) -> Any:
        from cmbagent.planner import RunState

        try:
            return RunState.model_validate(dict(values))
        except ValidationError:
            raise UserError(f"{self.folder.path}: its checkpoint was written by an older cmbagent; start the task "
                            "again with `cmbagent solve`") from None

    def _model_event(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "text_delta":  # streamed text goes to the live listener only, not into events.jsonl
            if self.on_event is not None:
                self.on_event(Event(seq=-1, ts=time.time(), type="text_delta", run_id=self.run_id, data=data))
            return
        self.events.emit(kind, **data)

    def _open_executor(self) -> Any:
        from cmbagent.sandbox import Executor, open_sandbox

        if self.executor is None:
            executor: Executor = open_sandbox(self.folder.path, backend=self.sandbox)
        else:
            executor = self.executor if isinstance(self.executor, Executor) else self.executor(self.folder.path)
        if self._watch is not None:  # a cancel stops the cell in flight and the kernel, from the watcher thread
            self._watch.on_cancel(executor.cancel)
        return executor

    def _make_runtime(self, client: Any) -> Any:
        """The graph's runtime context for this invocation: the run's settings as resolved, not copied."""
        from cmbagent.agents import load_registry
        from cmbagent.planner import Runtime

        s = self.config.settings
        return Runtime(folder=self.folder, registry=load_registry(), client=client, events=self.events,
                       settings=s, vision=self.config.vision, preflight=self.preflight,
                       open_executor=self._open_executor,
                       retriever=run_retriever(s), method_index=_method_index(s.index_dir))

    def _render_report(self, state: Any, error: str | None, ledger: Any, status: str,
                       checks: list[RequirementCheck]) -> Path:
        resolve = citation_resolver(self.config.settings)
        if status == "cancelled":
            return write_report(self.folder, state, costs=costs_of(ledger), status=RunStatus.CANCELLED,
                                stop_reason=error, resolve=resolve, requirements=checks)
        return write_report(self.folder, state, costs=costs_of(ledger), error=error, resolve=resolve,
                            requirements=checks)


def _inputs(run: Any) -> list[dict[str, Any]]:
    """The run's input files with their sizes and how each reached data/ (for the start of the live view)."""
    from cmbagent.inputs import LARGE_INPUT_BYTES

    return [{"name": name, "bytes": int(info.get("bytes") or 0), "linked": info.get("linked", "copy"),
             "large": int(info.get("bytes") or 0) >= LARGE_INPUT_BYTES} for name, info in sorted(run.inputs.items())]


def run_index(settings: Any) -> Any:
    """The :class:`cmbagent.literature.Index` a run's settings name (None without a collection).

    Queries are embedded on one thread: a replay on another machine ranks the same passages.
    """
    if settings.collection is None:
        return None
    from cmbagent.literature import Index, MiniLMEmbedder

    return Index(settings.index_dir, collection=settings.collection, embedder=MiniLMEmbedder(threads=1))


def run_retriever(settings: Any) -> Any:
    """The graph's retriever over the run's index, or None."""
    index = run_index(settings)
    if index is None:
        return None
    from cmbagent.planner import Retriever

    return Retriever(index)


def _method_index(index_dir: str | None) -> Callable[[], Any]:
    def open_index() -> Any:
        from cmbagent.literature import method_index

        return method_index(index_dir)

    return open_index


def citation_resolver(settings: Any) -> Callable[[str], str | None] | None:
    """``chunk id -> chunk text or None`` over the run's index, for the report's citation audit (None
    without a collection)."""
    index = run_index(settings)
    if index is None:
        return None

    def resolve(chunk_id: str) -> str | None:
        chunk = index.get(chunk_id)
        return None if chunk is None else str(chunk.text)

    return resolve
