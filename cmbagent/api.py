"""The public Python API: ``solve`` a task, ``resume`` a run, ``replay`` a recorded run.

::

    result = cmbagent.solve("examples/supernova.md", model="offline")
    result.status, result.report_path, result.values

With ``approve_plan=True`` the run stops after plan review with status ``awaiting_approval``;
``resume(run_dir, decision=PlanDecision(action="approve"))`` continues it.  A run killed at any point
resumes with ``resume(run_dir)`` and redoes no completed step (SQLite checkpoints, ``durability="sync"``).

Settings given here (any keyword that is not ``None``) beat the environment, the task's front matter and
the config file, in that order (see :mod:`cmbagent.config`); the wiring and bookkeeping of a run live in
:class:`cmbagent.session.RunSession`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import cmbagent.agents  # noqa: F401  (every run uses the roster; it also registers the offline provider)
from cmbagent.checkpoints import resolve_url
from cmbagent.config import SANDBOXES, RunConfig, RunSettings
from cmbagent.events import Event, read_events
from cmbagent.exceptions import ConfigError, PathError, UserError
from cmbagent.paths import PathPolicy, config_data_dirs, read_beneath
from cmbagent.preflight import preflight
from cmbagent.run import RunFolder
from cmbagent.session import ExecutorSource, PlanDecision, RunResult, RunSession
from cmbagent.task import Task, load_task, parse_task

__all__ = ["PlanDecision", "RunResult", "RunSettings", "offline_fallback", "replay", "resume", "solve"]


def offline_fallback(model: str | None = None, config: Any = None, env: Mapping[str, str] | None = None) -> bool:
    """True when no model is configured anywhere, so the run falls back to ``offline``."""
    resolved = RunConfig.resolve(flags={"model": model}, env=env if env is not None else os.environ,
                                 config_file=config)
    return resolved.model == "offline" and resolved.sources.get("default") == "default"


def _check_index(config: RunConfig) -> None:
    """A run with a collection needs it to exist and hold chunks (said now, not in the middle of the run)."""
    from cmbagent.session import run_index

    index = run_index(config.settings)
    if index is not None and index.count() == 0:
        raise UserError(f"collection {index.collection_name!r} at {index.folder} is empty; index some files with "
                        f"`cmbagent index PATH... --collection {index.collection_name}`")


def _check_given(given: Mapping[str, Any]) -> None:
    """The settings a caller gave, in the words the CLI and the API have always used (the others are checked by
    :class:`RunSettings` itself, saying where the value came from)."""
    if given.get("sandbox", "auto") not in SANDBOXES:
        raise ConfigError(f"unknown sandbox {given['sandbox']!r}; choose auto, bwrap, docker or process")
    for name in ("max_steps", "max_attempts"):
        value = given.get(name)
        if value is not None and (not isinstance(value, int) or value < 1):
            raise UserError(f"{name} must be a positive integer (got {value!r})")
    n_reviews = given.get("n_reviews")
    if n_reviews is not None and (not isinstance(n_reviews, int) or n_reviews < 0):
        raise UserError(f"n_reviews must be >= 0 (got {n_reviews})")


def solve(
    task: str | os.PathLike[str] | Task,
    *,
    workspace: str | os.PathLike[str] | None = None,
    run_dir: str | os.PathLike[str] | None = None,
    model: str | None = None,
    agent_models: dict[str, str] | None = None,
    config: str | os.PathLike[str] | Mapping[str, Any] | None = None,
    max_steps: int | None = None,
    n_reviews: int | None = None,
    max_attempts: int | None = None,
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
    executor: ExecutorSource | None = None,
    data_dirs: list[str | os.PathLike[str]] | None = None,
    paths: PathPolicy | None = None,
    collection: str | None = None,
    index_dir: str | os.PathLike[str] | None = None,
    checkpoints: str | None = None,
    shared_budget: Any = None,
    settings: RunSettings | Mapping[str, Any] | None = None,
) -> RunResult:
    """Plan, execute, critique and report ``task``; see the module docstring.

    ``settings`` gives the run's settings as one typed object, ``RunSettings(max_steps=4, n_reviews=0)``
    (the fields set are flags; the others come from the environment, the front matter, the config file or
    their defaults), or as a mapping whose ``None`` values count as not given (the CLI's options).  The
    keywords ``max_steps``, ``n_reviews``, ``max_attempts``, ``approve_plan``, ``sandbox``, ``allow_install``,
    ``collection`` and ``index_dir`` are the same settings and feed the same object; naming one both ways with
    different values is an error.

    ``max_steps`` (default 12), ``n_reviews`` (1) and ``max_attempts`` (3) left at ``None`` come from the
    task's front matter, else their defaults.  ``models`` maps names to ready
    :class:`cmbagent.models.Model` instances (tests and embedding apps); a ``model`` or ``agent_models``
    spec equal to such a name routes to it.  ``executor`` is where cells run, the way ``models`` is where
    judgements come from: an :class:`cmbagent.sandbox.Executor`, or a function of the run folder returning
    one (``executor=InMemoryExecutor`` for graph tests); by default a kernel in the ``sandbox`` backend.

    ``allow_install`` lets the host ``pip install`` a package the installer agent names for a missing module
    into the run's overlay (``<run>/.overlay/site-packages``, seen by the kernel), never the host
    environment; off, the installer only advises.  ``CMBAGENT_PIP_ARGS`` adds pip arguments (an offline
    wheelhouse: ``--no-index --find-links DIR``).

    Files the task names must lie in its own folder tree, in ``data_dirs`` or in ``data_dirs`` under
    ``[paths]`` of the config file (see :mod:`cmbagent.paths`); ``paths`` replaces that policy (the UI passes
    its staging folder).  ``task`` may also be a :class:`cmbagent.task.Task` parsed already (a batch's variant
    of a task file).

    Before a run folder exists the task is checked (:func:`cmbagent.preflight.preflight`): the method's
    arguments against its schema, and with only the offline backend whether the text gives every required
    argument; every problem is listed in one :class:`~cmbagent.exceptions.TaskError`.

    ``collection`` names a collection of the knowledge index (``cmbagent index``) in ``index_dir`` (default:
    ``CMBAGENT_INDEX_DIR``, ``[index] dir``, the user data folder); text steps then get passages retrieved
    for them, the planner may add literature and code retrieval steps, and the report lists the cited
    passages under References and audits them (``report.bad_citation``).  A missing or empty collection is
    a ``UserError`` before any run folder exists.

    ``checkpoints`` is the PostgreSQL URL of a shared checkpoint store (default: ``CMBAGENT_CHECKPOINTS``,
    else ``[checkpoints] url`` of the config file, else SQLite in the run folder); ``shared_budget`` an
    account the run draws on with other runs (:class:`cmbagent.models.SharedBudget`, a batch's total).
    """
    if isinstance(task, Task):
        parsed = task
    else:
        parsed = load_task(task, extra_files=data_files, paths=paths,
                           data_dirs=[*(data_dirs or []), *config_data_dirs(config)] if paths is None else ())
    keywords = RunSettings.given({
        "max_steps": max_steps, "n_reviews": n_reviews, "max_attempts": max_attempts,
        "approve_plan": approve_plan or None, "sandbox": sandbox if sandbox != "auto" else None,
        "allow_install": allow_install or None, "collection": collection,
        "index_dir": os.fspath(index_dir) if index_dir is not None else None})
    given = RunSettings.given(settings)
    twice = sorted(k for k in set(keywords) & set(given) if keywords[k] != given[k])
    if twice:
        raise UserError(f"{', '.join(twice)} given both as a keyword and in settings, with different values; "
                        "give each once")
    given.update(keywords)
    _check_given(given)
    flags = {"model": model, "agent_models": agent_models, "budget_usd": budget_usd, "budget_tokens": budget_tokens,
             "timeout": timeout, **given}
    run_config = RunConfig.resolve(flags=flags, env=os.environ, front_matter=parsed.front_matter, config_file=config,
                                   models=models)
    _check_index(run_config)
    checked = preflight(parsed, offline=all(spec == "offline" for spec in run_config.specs()))
    if checked.notes and on_event is not None:  # before the run folder exists: to the live listener only
        on_event(Event(seq=-1, ts=time.time(), type="task_notes", run_id="", data={"notes": checked.notes}))
    if executor is None:
        from cmbagent.sandbox import get_backend

        get_backend(run_config.settings.sandbox)  # SandboxUnavailable (saying why and what to do) before any run folder exists
    url = resolve_url(checkpoints, config) or ""
    session = RunSession.create(parsed, run_config, workspace=workspace, run_dir=run_dir, models=models,
                                executor=executor, api_keys=api_keys, on_event=on_event, checkpoints=url,
                                shared_budget=shared_budget, preflight=checked)
    return session.start()


def resume(
    run_dir: str | os.PathLike[str],
    *,
    decision: PlanDecision | None = None,
    on_event: Callable[[Event], None] | None = None,
    api_keys: dict[str, str] | None = None,
    models: Mapping[str, Any] | None = None,
    executor: ExecutorSource | None = None,
    sandbox: str | None = None,
    config: str | os.PathLike[str] | Mapping[str, Any] | None = None,
    checkpoints: str | None = None,
    shared_budget: Any = None,
) -> RunResult:
    """Continue a run from its last checkpoint (after a kill, an interrupt, a cancel or a plan awaiting
    approval).  Another process working on the run meanwhile makes it fail at once with ``RunInUse``.

    ``sandbox`` overrides the backend recorded in run.json (which the run's own code could have rewritten);
    the UI passes its own setting.  A run whose checkpoints live in PostgreSQL needs that database's URL
    (``checkpoints``, ``CMBAGENT_CHECKPOINTS`` or ``[checkpoints] url`` of ``config``).
    """
    if sandbox is not None and sandbox not in SANDBOXES:
        raise ConfigError(f"unknown sandbox {sandbox!r}; choose auto, bwrap, docker or process")
    url = resolve_url(checkpoints, config) or ""
    session = RunSession.open(run_dir, models=models, executor=executor, api_keys=api_keys, on_event=on_event,
                              sandbox=sandbox, checkpoints=url, shared_budget=shared_budget)
    try:
        return session.resume(decision)
    finally:
        session.close()


def replay(
    run_dir: str | os.PathLike[str],
    *,
    workspace: str | os.PathLike[str] | None = None,
    lenient: bool = False,
    sandbox: str | None = None,
    on_event: Callable[[Event], None] | None = None,
    executor: ExecutorSource | None = None,
) -> tuple[RunResult, dict[str, Any]]:
    """Re-run a recorded run from its transcript (no network) into a new folder; compare plan, cells, numbers.

    A run whose settings this host did not seal (another machine's, or rewritten by its own code) replays in
    the ``auto`` sandbox (or ``sandbox``) without installs, never with a backend its ``run.json`` names.
    """
    source = RunFolder(run_dir)
    run = source.read_run()
    transcript = source.transcript
    if not run or not transcript.is_file():
        raise UserError(f"{source.path} has no run.json or transcript.jsonl to replay")
    task = parse_task(source.task_text(), base=source.path, where=str(source.path / "task.md"),
                      paths=PathPolicy.for_cli(source.path))  # a recorded task names files of its run only
    try:
        stored, sealed = source.config(), True  # settings this host sealed when it made the run
    except UserError:  # rewritten by the run's code, or a run from another machine: nothing of it is trusted
        stored, sealed = dict(run.get("config") or {}), False
    recorded = RunConfig.stored(stored, str(source.path))
    safe = {} if sealed else {"sandbox": "auto", "allow_install": False}  # the models are the transcript's anyway
    settings = recorded.settings.model_copy(update={"approve_plan": False, **safe,
                                                    **({"sandbox": sandbox} if sandbox else {})})
    config = recorded.model_copy(update={"model": f"replay:{transcript}", "agent_models": {}, "tiers": {},
                                         "settings": settings, "replay_of": str(source.path)})
    session = RunSession.create(task, config, workspace=workspace or source.path.parent, executor=executor,
                                on_event=on_event, replay_lenient=lenient)
    result = session.start()
    return result, compare_runs(source.path, session.folder.path)


def compare_runs(a: Path, b: Path) -> dict[str, Any]:
    """Same plan, same cells, same numbers?"""
    import json

    def text(p: Path, rel: str) -> str | None:  # through no link: the runs' code could have planted one
        try:
            return read_beneath(p, rel).decode("utf-8", errors="replace")
        except (OSError, PathError):
            return None

    def plan(p: Path) -> Any:
        raw = text(p, "plan.json")
        return json.loads(raw) if raw is not None else None

    def cells(p: Path) -> dict[str, str]:
        found = (str(c.relative_to(p)) for c in sorted(p.glob("steps/*/cells/*.py")))
        return {rel: code for rel in found if (code := text(p, rel)) is not None}

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
