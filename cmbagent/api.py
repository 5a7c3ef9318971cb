"""The public Python API: ``solve`` a task, ``resume`` a run, ``replay`` a recorded run.

::

    result = cmbagent.solve("examples/supernova.md", model="offline")
    result.status, result.report_path, result.values

With ``approve_plan=True`` the run stops after plan review with status ``awaiting_approval``;
``resume(run_dir, decision=PlanDecision(action="approve"))`` continues it.  A run killed at any point
resumes with ``resume(run_dir)`` and redoes no completed step (SQLite checkpoints, ``durability="sync"``).
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from cmbagent.events import Event, EventLog, read_events
from cmbagent.exceptions import CmbagentError, ConfigError, TaskError, UserError
from cmbagent.run import RunFolder, open_checkpoints
from cmbagent.task import Task, load_task

__all__ = ["PlanDecision", "RunResult", "offline_fallback", "replay", "resume", "solve"]

Status = Literal["done", "failed", "budget_exhausted", "interrupted", "awaiting_approval"]


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


def offline_fallback(model: str | None = None, config: Any = None, env: Mapping[str, str] | None = None) -> bool:
    """True when no model is configured anywhere, so the run falls back to ``offline``."""

    routing = _routing(model, None, config, env if env is not None else os.environ, None)
    return routing.default == "offline" and routing.sources.get("default") == "default"


def _routing(model: str | None, agent_models: Any, config: Any, env: Mapping[str, str], models: Any) -> Any:
    from cmbagent.models import Routing

    if isinstance(config, Mapping):
        return Routing.from_sources(config=config, env=env, model=model, agent_models=agent_models, models=models)
    return Routing.from_sources(config_file=config, env=env, model=model, agent_models=agent_models, models=models)


def _check_offline_reach(task: Task, routing: Any) -> None:
    """With only the offline backend, an unmappable task fails now, before a run folder exists."""
    if any(spec != "offline" for spec in routing.specs()):
        return
    from cmbagent.models.offline import HOW_TO_CONFIGURE, match_method

    if match_method(f"{task.title}\n{task.text}", task.method) is None:
        raise TaskError(
            "the offline backend (used because no model is configured) could not map this task to a method tool; "
            "name one in the front matter (`method: family.name`, see `cmbagent methods list`), or "
            + HOW_TO_CONFIGURE
        )


def solve(
    task: str | os.PathLike[str],
    *,
    workspace: str | os.PathLike[str] | None = None,
    run_dir: str | os.PathLike[str] | None = None,
    model: str | None = None,
    agent_models: dict[str, str] | None = None,
    config: str | os.PathLike[str] | Mapping[str, Any] | None = None,
    max_steps: int = 12,
    n_reviews: int = 1,
    max_attempts: int = 3,
    budget_usd: float | None = None,
    budget_tokens: int | None = None,
    timeout: float | None = None,
    approve_plan: bool = False,
    sandbox: str = "auto",
    allow_install: bool = False,
    data_files: list[str | os.PathLike[str]] | None = None,
    api_keys: dict[str, str] | None = None,
    on_event: Callable[[Event], None] | None = None,
    models: Mapping[str, Any] | None = None,
) -> RunResult:
    """Plan, execute, critique and report ``task``; see the module docstring.

    ``models`` maps names to ready :class:`cmbagent.models.Model` instances (tests and embedding apps);
    a ``model`` or ``agent_models`` spec equal to such a name routes to it.

    ``allow_install`` lets the host ``pip install`` a package the installer agent names for a missing module
    into the run's overlay (``<run>/.overlay/site-packages``, seen by the kernel), never the host
    environment; off, the installer only advises.  ``CMBAGENT_PIP_ARGS`` adds pip arguments (an offline
    wheelhouse: ``--no-index --find-links DIR``).
    """
    from cmbagent.models import Budget

    parsed = load_task(task, extra_files=data_files)
    fm = parsed.settings()
    max_steps = fm.get("max_steps", max_steps) if max_steps == 12 else max_steps
    n_reviews = fm.get("n_reviews", n_reviews) if n_reviews == 1 else n_reviews
    max_attempts = fm.get("max_attempts", max_attempts) if max_attempts == 3 else max_attempts
    for name, value in (("max_steps", max_steps), ("max_attempts", max_attempts)):
        if not isinstance(value, int) or value < 1:
            raise UserError(f"{name} must be a positive integer (got {value!r})")
    if n_reviews < 0:
        raise UserError(f"n_reviews must be >= 0 (got {n_reviews})")
    routing = _routing(model or fm.get("model"), agent_models, config, os.environ, models)
    budget = Budget.from_sources(usd=budget_usd if budget_usd is not None else fm.get("budget_usd"),
                                 tokens=budget_tokens if budget_tokens is not None else fm.get("budget_tokens"),
                                 seconds=timeout if timeout is not None else fm.get("timeout"))
    _check_offline_reach(parsed, routing)
    if sandbox not in {"auto", "bwrap", "docker", "process"}:
        raise ConfigError(f"unknown sandbox {sandbox!r}; choose auto, bwrap, docker or process")
    from cmbagent.sandbox import get_backend

    get_backend(sandbox)  # SandboxUnavailable (saying why and what to do) before any run folder exists
    settings = {"max_steps": max_steps, "n_reviews": n_reviews, "max_attempts": max_attempts,
                "approve_plan": approve_plan, "sandbox": sandbox, "allow_install": bool(allow_install)}
    run_config = {"model": routing.default, "agent_models": dict(routing.agents), "tiers": dict(routing.tiers),
                  "budget": budget.to_dict(), "settings": settings,
                  "model_sources": dict(routing.sources)}
    folder = RunFolder.create(parsed, workspace=Path(workspace) if workspace else None,
                              run_dir=Path(run_dir) if run_dir else None, config=run_config)
    state = {"task": {"text": parsed.text, "title": parsed.title, "method": parsed.method,
                      "arguments": parsed.arguments, "data_files": parsed.data_files,
                      "front_matter": {k: v for k, v in parsed.front_matter.items() if k != "arguments"}},
             "status": "running", "plan_version": 0, "replans": 0}
    folder.update_run(input=state)  # lets a run killed before its first checkpoint start over
    return _drive(folder, state, routing=routing, budget=budget, on_event=on_event, api_keys=api_keys, resumed=False)


def _settings(config: dict[str, Any]) -> Any:
    from cmbagent.planner._runtime import GraphSettings

    s = config.get("settings", {})
    # the plot critic sees the figures themselves when a vision model is routed to it
    vision = "vision" in config.get("tiers", {}) or "plot_critic" in config.get("agent_models", {})
    return GraphSettings(max_steps=s.get("max_steps", 12), n_reviews=s.get("n_reviews", 1),
                         max_attempts=s.get("max_attempts", 3), approve_plan=s.get("approve_plan", False),
                         vision=vision, allow_install=bool(s.get("allow_install", False)))


def _drive(
    folder: RunFolder,
    graph_input: Any,
    *,
    routing: Any,
    budget: Any,
    on_event: Callable[[Event], None] | None,
    api_keys: Mapping[str, str] | None,
    resumed: bool,
    replay_lenient: bool = False,
) -> RunResult:
    """Run (or continue) the graph for ``folder`` and finish the run's bookkeeping."""
    from cmbagent.agents import load_registry
    from cmbagent.models import ModelClient
    from cmbagent.planner._graph import build_graph
    from cmbagent.planner._runtime import Runtime

    run = folder.read_run()
    run_id = run.get("run_id", folder.path.name)
    events = EventLog(folder.events, run_id, listener=on_event)
    previous = float(run.get("duration_s") or 0.0)
    def model_event(kind: str, data: dict[str, Any]) -> None:
        if kind == "text_delta":  # streamed text goes to the live listener only, not into events.jsonl
            if on_event is not None:
                on_event(Event(seq=-1, ts=time.time(), type="text_delta", run_id=run_id, data=data))
            return
        events.emit(kind, **data)

    client = ModelClient(routing, transcript_path=folder.transcript, budget=budget, api_keys=api_keys,
                         on_event=model_event, elapsed_offset_s=previous,
                         replay_lenient=replay_lenient)
    sandbox = run.get("config", {}).get("settings", {}).get("sandbox", "auto")

    def open_executor() -> Any:
        from cmbagent.sandbox import open_sandbox

        return open_sandbox(folder.path, backend=sandbox)

    rt = Runtime(folder=folder, registry=load_registry(), client=client, events=events,
                 settings=_settings(run.get("config", {})), open_executor=open_executor)
    saver = open_checkpoints(folder.checkpoints)
    conn = saver.conn
    graph = build_graph(rt, saver)
    thread = {"configurable": {"thread_id": run_id}}
    started = time.monotonic()
    events.emit("run_started", task=run.get("title", ""), model=routing.default, run_dir=str(folder.path),
                resumed=resumed)
    folder.update_run(status="running")
    status: str
    error: str | None = None
    try:
        output = graph.invoke(graph_input, thread, durability="sync")
        snapshot = graph.get_state(thread)
        if snapshot.interrupts:
            status = "awaiting_approval"
        else:
            status = str((output or {}).get("status") or snapshot.values.get("status") or "failed")
    except KeyboardInterrupt:
        status = "interrupted"
    except CmbagentError as exc:
        status, error = "failed", f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # a bug: record the run as failed (it stays resumable), then surface it
        folder.update_run(status="failed", error=f"internal error: {type(exc).__name__}: {exc}")
        events.emit("run_finished", status="failed", report=None, cost_usd=client.ledger.totals().get("cost_usd"),
                    duration_s=round(previous + time.monotonic() - started, 3))
        raise
    finally:
        rt.close()
        client.close()
    values = graph.get_state(thread).values
    conn.close()
    duration = previous + (time.monotonic() - started)
    if error is not None:
        _partial_report(rt, values, error)
    statuses = values.get("statuses", {}) or {}
    totals = client.ledger.totals()
    cost = totals.get("cost_usd")
    report = folder.report if folder.report.is_file() else None
    folder.update_run(status=status, duration_s=round(duration, 3), cost_usd=cost,
                      steps_done=sum(1 for s in statuses.values() if s == "done"), steps_total=len(statuses),
                      costs={"total": totals, "per_agent": client.ledger.per_agent()}, error=error,
                      finished=time.time() if status not in {"awaiting_approval", "interrupted"} else None)
    if report is not None and folder.read_run().get("report_inputs"):
        from cmbagent.report import rerender

        rerender(folder)  # now with the run's final duration and cost
    if status != "awaiting_approval":
        events.emit("run_finished", status=status, report=str(report) if report else None, cost_usd=cost,
                    duration_s=round(duration, 3))
    return _result(folder, status, values, cost, duration, error)


def _partial_report(rt: Any, values: dict[str, Any], error: str) -> None:
    from cmbagent.planner._graph import audit_facts
    from cmbagent.planner._state import RunState
    from cmbagent.report import fallback_draft, render_report

    if not values.get("task"):
        return
    state = {**values, "status": "failed", "stop_reason": error}
    render_report(rt.folder, state=state, draft=fallback_draft(state, "failed"), audit=None,
                  facts=audit_facts(rt, cast(RunState, state)), ledger=rt.client.ledger)


def _result(folder: RunFolder, status: str, values: dict[str, Any], cost: float | None, duration: float,
            error: str | None) -> RunResult:
    from cmbagent.report import key_numbers

    results = values.get("results", {}) or {}
    plan = values.get("plan") or {"steps": []}
    steps = []
    for step in plan.get("steps", []):
        record = results.get(step["id"], {})
        steps.append({"id": step["id"], "title": step["title"], "agent": step["agent"],
                      "status": (values.get("statuses") or {}).get(step["id"], "pending"),
                      "summary": record.get("summary") or record.get("reason") or "", "dir": record.get("dir"),
                      "values": record.get("values", {})})
    key = {row["name"]: row["value"] for row in key_numbers(results)}
    return RunResult(run_dir=folder.path, run_id=folder.path.name, status=status,  # type: ignore[arg-type]
                     report_path=folder.report if folder.report.is_file() else None, values=key, cost_usd=cost,
                     duration_s=round(duration, 3), steps=steps, error=error)


def _stored_routing(folder: RunFolder, models: Mapping[str, Any] | None) -> Any:
    from cmbagent.models import Routing

    config = folder.read_run().get("config", {})
    return Routing(default=config.get("model", "offline"), tiers=dict(config.get("tiers", {})),
                   agents=dict(config.get("agent_models", {})), models=dict(models or {}))


def resume(
    run_dir: str | os.PathLike[str],
    *,
    decision: PlanDecision | None = None,
    on_event: Callable[[Event], None] | None = None,
    api_keys: dict[str, str] | None = None,
    models: Mapping[str, Any] | None = None,
) -> RunResult:
    """Continue a run from its last checkpoint (after a kill, an interrupt or a plan awaiting approval)."""
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command

    from cmbagent.models import Budget

    folder = RunFolder(run_dir)
    run = folder.read_run()
    if not run or not folder.checkpoints.is_file():
        raise UserError(f"{folder.path} is not a resumable run folder (no run.json or checkpoints.sqlite)")
    routing = _stored_routing(folder, models)
    budget = Budget(**{k: v for k, v in run.get("config", {}).get("budget", {}).items() if v is not None})
    # peek at the checkpoint: finished, waiting for a person, or interrupted mid-way
    conn = sqlite3.connect(str(folder.checkpoints), check_same_thread=False)
    try:
        saver = SqliteSaver(conn)
        latest = saver.get_tuple({"configurable": {"thread_id": run.get("run_id", folder.path.name)}})
    finally:
        conn.close()
    if latest is None:
        if not run.get("input"):
            raise UserError(f"{folder.path} has no checkpoint yet; start it again with `cmbagent solve`")
        return _drive(folder, run["input"], routing=routing, budget=budget, on_event=on_event, api_keys=api_keys,
                      resumed=True)
    values = dict(latest.checkpoint.get("channel_values", {}))
    if decision is None and run.get("finished") and not run.get("error") and run.get("status") in {
        "done", "failed", "budget_exhausted"
    }:
        # nothing left to do: the graph reached its end (its report is written)
        return _result(folder, run["status"], values, run.get("cost_usd"), float(run.get("duration_s") or 0),
                       run.get("error"))
    pending = [w for w in (latest.pending_writes or []) if w[1] == "__interrupt__"]
    graph_input: Any = None
    if pending or decision is not None:
        if decision is None:
            return _result(folder, "awaiting_approval", values,
                           run.get("cost_usd"), float(run.get("duration_s") or 0), None)
        graph_input = Command(resume=decision.model_dump())
    return _drive(folder, graph_input, routing=routing, budget=budget, on_event=on_event, api_keys=api_keys,
                  resumed=True)


def replay(
    run_dir: str | os.PathLike[str],
    *,
    workspace: str | os.PathLike[str] | None = None,
    lenient: bool = False,
    sandbox: str | None = None,
    on_event: Callable[[Event], None] | None = None,
) -> tuple[RunResult, dict[str, Any]]:
    """Re-run a recorded run from its transcript (no network) into a new folder; compare plan, cells, numbers."""
    from cmbagent.models import Routing
    from cmbagent.task import parse_task

    source = RunFolder(run_dir)
    run = source.read_run()
    transcript = source.transcript
    if not run or not transcript.is_file():
        raise UserError(f"{source.path} has no run.json or transcript.jsonl to replay")
    task = parse_task(source.task_text(), base=source.path, where=str(source.path / "task.md"))
    config = dict(run.get("config", {}))
    settings = dict(config.get("settings", {}))
    if sandbox:
        settings["sandbox"] = sandbox
    settings["approve_plan"] = False
    spec = f"replay:{transcript}"
    routing = Routing(default=spec)
    new_config = {**config, "model": spec, "agent_models": {}, "tiers": {}, "settings": settings, "replay_of": str(source.path)}
    folder = RunFolder.create(task, workspace=Path(workspace) if workspace else source.path.parent, run_dir=None,
                              config=new_config)
    state = {"task": {"text": task.text, "title": task.title, "method": task.method, "arguments": task.arguments,
                      "data_files": task.data_files,
                      "front_matter": {k: v for k, v in task.front_matter.items() if k != "arguments"}},
             "status": "running", "plan_version": 0, "replans": 0}
    folder.update_run(input=state)
    result = _drive(folder, state, routing=routing, budget=_no_budget(), on_event=on_event, api_keys=None,
                    resumed=False, replay_lenient=lenient)
    return result, compare_runs(source.path, folder.path)


def _no_budget() -> Any:
    from cmbagent.models import Budget

    return Budget()


def compare_runs(a: Path, b: Path) -> dict[str, Any]:
    """Same plan, same cells, same numbers?"""
    import json

    def plan(p: Path) -> Any:
        f = p / "plan.json"
        return json.loads(f.read_text()) if f.is_file() else None

    def cells(p: Path) -> dict[str, str]:
        return {str(c.relative_to(p)): c.read_text() for c in sorted(p.glob("steps/*/cells/*.py"))}

    def numbers(p: Path) -> dict[str, Any]:
        out = {}
        for event in read_events(p / "events.jsonl"):
            if event.type == "step_finished" and event.data.get("status") == "done":
                out[event.data["step_id"]] = event.data.get("values", {})
        return out

    ca, cb = cells(a), cells(b)
    same_plan, same_cells, same_numbers = plan(a) == plan(b), ca == cb, numbers(a) == numbers(b)
    return {"original": str(a), "replay": str(b), "same_plan": same_plan, "same_cells": same_cells,
            "same_numbers": same_numbers, "n_cells": len(ca),
            "differing_cells": sorted(k for k in set(ca) | set(cb) if ca.get(k) != cb.get(k)),
            "identical": same_plan and same_cells and same_numbers}
