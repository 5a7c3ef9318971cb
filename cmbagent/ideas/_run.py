"""Idea mode: ``generate_ideas(task)`` runs the idea team on a task and writes ``ideas.md`` / ``ideas.json``.

The run has a folder like a solve run (``<workspace>/ideas/<run-id>/``: task.md, data/, run.json,
transcript.jsonl, events.jsonl) and the same configuration: model routing, budgets, the offline backend
and ``replay:`` come from :class:`cmbagent.config.RunConfig` and go through one
:class:`cmbagent.models.ModelClient`.  ``replay_ideas(run_dir)`` re-runs the team from the transcript with no
network and compares the ranked ideas.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.config import RunConfig
from cmbagent.events import Event, EventLog
from cmbagent.exceptions import BudgetExceeded, CmbagentError, TaskError, UserError
from cmbagent.ideas._brief import build_brief
from cmbagent.ideas._output import (
    RankedIdea,
    Round,
    final_pair,
    rank_ideas,
    render_ideas_md,
    write_ideas_json,
    write_tasks,
)
from cmbagent.paths import PathPolicy, config_data_dirs, copy_file
from cmbagent.run import default_workspace, new_run_id, package_versions, write_json, write_text
from cmbagent.task import Task, load_task, parse_task

__all__ = ["IdeasResult", "generate_ideas", "replay_ideas"]

MAX_IDEAS = 20
MAX_ROUNDS = 10


@dataclass
class IdeasResult:
    """What an idea run produced (the files are in ``run_dir``)."""

    run_dir: Path
    run_id: str
    status: str  # done | budget_exhausted | failed
    ideas: list[RankedIdea] = field(default_factory=list)
    rounds_run: int = 0
    cost_usd: float | None = None
    error: str | None = None
    tasks: list[Path] = field(default_factory=list)
    tasks_not_written: list[str] = field(default_factory=list)

    @property
    def ideas_md(self) -> Path:
        return self.run_dir / "ideas.md"

    @property
    def ideas_json(self) -> Path:
        return self.run_dir / "ideas.json"

    def summary(self) -> dict[str, Any]:
        return {"run_dir": str(self.run_dir), "run_id": self.run_id, "status": self.status,
                "rounds_run": self.rounds_run, "cost_usd": self.cost_usd, "error": self.error,
                "ideas_md": str(self.ideas_md), "ideas_json": str(self.ideas_json),
                "ideas": [{"rank": r.rank, "title": r.idea.title, "method": r.idea.method, "score": r.score,
                           "selected": r.selected, "reasons": r.reasons, "task_file": r.task_file} for r in self.ideas],
                "tasks": [str(p) for p in self.tasks], "tasks_not_written": self.tasks_not_written}


def _create_folder(task: Task, root: Path, run_dir: Path | None, record: dict[str, Any]) -> Path:
    """The run folder, complete or not at all (assembled under a temporary name, then renamed)."""
    final = (run_dir or root / new_run_id(task.title)).resolve()
    if final.exists() and any(final.iterdir()):
        raise UserError(f"{final} exists and is not empty; choose a new folder")
    final.parent.mkdir(parents=True, exist_ok=True)
    staging = final.parent / f".{final.name}.partial-{secrets.token_hex(3)}"
    staging.mkdir()
    try:
        for rel, source in task.files.items():
            copy_file(source, staging / rel)
        write_text(staging / "task.md", task.markdown())
        write_json(staging / "run.json", {**record, "run_id": final.name})
        if final.exists():
            final.rmdir()
        os.replace(staging, final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return final


def _check_reach(task: Task, config: RunConfig) -> None:
    if any(spec != "offline" for spec in config.specs()):
        return
    from cmbagent.agents import match_method
    from cmbagent.models import how_to_configure

    if match_method(f"{task.title}\n{task.text}", task.method) is None:
        raise TaskError("the offline backend (used because no model is configured) builds ideas around the method "
                        "tool a task maps to, and this task maps to none; name one in the front matter "
                        "(`method: family.name`, see `cmbagent methods list`), or " + how_to_configure())


def generate_ideas(
    task: str | os.PathLike[str],
    *,
    rounds: int = 3,
    n_ideas: int = 5,
    to_tasks: str | os.PathLike[str] | None = None,
    workspace: str | os.PathLike[str] | None = None,
    run_dir: str | os.PathLike[str] | None = None,
    model: str | None = None,
    agent_models: dict[str, str] | None = None,
    config: str | os.PathLike[str] | Mapping[str, Any] | None = None,
    budget_usd: float | None = None,
    budget_tokens: int | None = None,
    timeout: float | None = None,
    collection: str | None = None,
    index_dir: str | os.PathLike[str] | None = None,
    data_files: list[str | os.PathLike[str]] | None = None,
    data_dirs: list[str | os.PathLike[str]] | None = None,
    paths: PathPolicy | None = None,
    api_keys: dict[str, str] | None = None,
    models: Mapping[str, Any] | None = None,
    on_event: Callable[[Event], None] | None = None,
    replay_lenient: bool = False,
    _config: RunConfig | None = None,
) -> IdeasResult:
    """Run the idea maker and the idea hater on ``task`` for at most ``rounds`` rounds; see the module docstring.

    ``n_ideas`` ideas are proposed (1-20), each carried out by a registered method tool on the task's data;
    ``to_tasks`` writes each selected idea as a runnable task file there (with the data it names).  Settings
    given here beat the environment, the task's front matter and the config file, as for ``solve``; runs
    go to ``<workspace>/ideas/``.  ``collection`` adds passages of that knowledge-index collection to the brief.
    """
    if not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise UserError(f"rounds must be a whole number from 1 to {MAX_ROUNDS} (got {rounds!r})")
    if not isinstance(n_ideas, int) or not 1 <= n_ideas <= MAX_IDEAS:
        raise UserError(f"n_ideas must be a whole number from 1 to {MAX_IDEAS} (got {n_ideas!r})")
    parsed = load_task(task, extra_files=data_files, paths=paths,
                       data_dirs=[*(data_dirs or []), *config_data_dirs(config)] if paths is None else ())
    flags = {"model": model, "agent_models": agent_models, "budget_usd": budget_usd, "budget_tokens": budget_tokens,
             "timeout": timeout, "collection": collection,
             "index_dir": os.fspath(index_dir) if index_dir is not None else None}
    run_config = _config or RunConfig.resolve(flags=flags, env=os.environ, front_matter=parsed.front_matter,
                                              config_file=config, models=models)
    from cmbagent.session import run_index

    index = run_index(run_config.settings)
    if index is not None and index.count() == 0:
        raise UserError(f"collection {index.collection_name!r} at {index.folder} is empty; index some files with "
                        f"`cmbagent index PATH... --collection {index.collection_name}`")
    _check_reach(parsed, run_config)
    import cmbagent.ideas._autogen  # noqa: F401  (AutoGen missing: a ConfigError before any folder exists)

    root = Path(workspace).expanduser() / "ideas" if workspace else default_workspace() / "ideas"
    record = {"kind": "ideas", "title": parsed.title, "status": "running", "created": time.time(),
              "task_source": str(parsed.source) if parsed.source else None, "data_files": parsed.data_files,
              "config": run_config.model_dump(mode="json"), "rounds": rounds, "n_ideas": n_ideas,
              "versions": package_versions()}
    folder = _create_folder(parsed, root, Path(run_dir) if run_dir else None, record)
    return _run(folder, parsed, run_config, rounds=rounds, n_ideas=n_ideas, index=index, to_tasks=to_tasks,
                api_keys=api_keys, models=models, on_event=on_event, replay_lenient=replay_lenient)


def _run(folder: Path, task: Task, config: RunConfig, *, rounds: int, n_ideas: int, index: Any,
         to_tasks: str | os.PathLike[str] | None, api_keys: dict[str, str] | None, models: Mapping[str, Any] | None,
         on_event: Callable[[Event], None] | None, replay_lenient: bool) -> IdeasResult:
    from cmbagent.ideas._team import TeamStopped, run_team
    from cmbagent.models import ModelClient
    from cmbagent.tools.methods import iter_methods

    run_id = folder.name
    events = EventLog(folder / "events.jsonl", run_id, listener=on_event)

    def model_event(kind: str, data: dict[str, Any]) -> None:
        if kind == "text_delta":  # streamed text goes to the live listener only
            if on_event is not None:
                on_event(Event(seq=-1, ts=time.time(), type="text_delta", run_id=run_id, data=data))
            return
        events.emit(kind, **data)

    methods = [spec.name for spec in iter_methods()]
    brief = build_brief(task, folder, n_ideas=n_ideas, rounds=rounds, index=index, index_dir=config.settings.index_dir)
    started = time.monotonic()
    events.emit("ideas_started", task=task.title, model=config.model, run_dir=str(folder), rounds=rounds,
                n_ideas=n_ideas)
    said: list[Round] = []
    status, error, stop = "done", None, ""
    client = ModelClient(config.routing(models), transcript_path=folder / "transcript.jsonl",
                         budget=config.budget_limits(), api_keys=api_keys, on_event=model_event,
                         replay_lenient=replay_lenient)

    def heard(entry: Round) -> None:
        said.append(entry)
        payload = entry.model_dump(mode="json", exclude_none=True)
        events.emit("idea_round", **payload)

    try:
        asyncio.run(run_team(client, brief, methods=methods, on_round=heard))
    except TeamStopped as exc:
        if isinstance(exc.cause, BudgetExceeded):
            status, stop = "budget_exhausted", str(exc.cause)
        else:
            status, error = "failed", f"{type(exc.cause).__name__}: {exc.cause}"
    except CmbagentError as exc:
        status, error = "failed", f"{type(exc).__name__}: {exc}"
    finally:
        client.close()
    ideas, review = final_pair(said)
    ranked = rank_ideas(ideas, review, set(methods))
    written: list[Path] = []
    skipped: list[str] = []
    if to_tasks is not None and ranked:
        written, skipped = write_tasks(ranked, source_dir=folder, data_files=task.data_files,
                                       out_dir=Path(to_tasks).expanduser().resolve(), origin=task.title, run_id=run_id,
                                       seed=task.front_matter.get("seed"))
    totals = client.ledger.totals()
    cost: float | None = totals.get("cost_usd")
    rounds_run = max((r.round for r in said), default=0)
    meta: dict[str, Any] = {
        "run_id": run_id, "kind": "ideas", "title": task.title, "status": status, "model": config.model,
        "rounds": rounds, "rounds_run": rounds_run, "n_ideas": n_ideas, "cost_usd": cost,
        "duration_s": round(time.monotonic() - started, 3), "stop_reason": stop, "error": error,
    }
    write_ideas_json(folder / "ideas.json", meta, ranked, said, skipped)
    write_text(folder / "ideas.md", render_ideas_md(task.title, meta, ranked, said))
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    write_json(folder / "run.json", {**run, **meta, "finished": time.time(),
                                     "costs": {"total": totals, "per_agent": client.ledger.per_agent()}})
    events.emit("ideas_finished", status=status, ideas=len(ranked), selected=sum(r.selected for r in ranked),
                cost_usd=meta["cost_usd"], duration_s=meta["duration_s"], error=error,
                tasks=[str(p) for p in written])
    return IdeasResult(run_dir=folder, run_id=run_id, status=status, ideas=ranked, rounds_run=rounds_run,
                       cost_usd=cost, error=error, tasks=written, tasks_not_written=skipped)


def replay_ideas(run_dir: str | os.PathLike[str], *, workspace: str | os.PathLike[str] | None = None,
                 lenient: bool = False) -> tuple[IdeasResult, dict[str, Any]]:
    """Re-run a recorded idea run from its transcript (no network) into a new folder; compare the ideas."""
    source = Path(run_dir).resolve()
    try:
        run = json.loads((source / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UserError(f"{source} is not an idea run folder (no readable run.json)") from None
    transcript = source / "transcript.jsonl"
    if run.get("kind") != "ideas" or not transcript.is_file():
        raise UserError(f"{source} is not a recorded idea run (run.json kind 'ideas' and transcript.jsonl)")
    task = parse_task((source / "task.md").read_text(encoding="utf-8"), base=source, where=str(source / "task.md"),
                      paths=PathPolicy.for_cli(source))
    recorded = RunConfig.stored(run.get("config") or {}, str(source))
    config = recorded.model_copy(update={"model": f"replay:{transcript}", "agent_models": {}, "tiers": {},
                                         "replay_of": str(source)})
    from cmbagent.session import run_index

    root = Path(workspace) if workspace else source.parent
    record = {"kind": "ideas", "title": task.title, "status": "running", "created": time.time(),
              "task_source": str(source / "task.md"), "data_files": task.data_files,
              "config": config.model_dump(mode="json"), "rounds": run["rounds"], "n_ideas": run["n_ideas"],
              "versions": package_versions()}
    folder = _create_folder(task, root.resolve(), None, record)
    result = _run(folder, task, config, rounds=int(run["rounds"]), n_ideas=int(run["n_ideas"]),
                  index=run_index(config.settings), to_tasks=None, api_keys=None, models=None, on_event=None,
                  replay_lenient=lenient)

    def ideas_of(path: Path) -> list[Any]:
        data = json.loads((path / "ideas.json").read_text(encoding="utf-8"))
        return [{k: v for k, v in row.items() if k != "task_file"} for row in data.get("ideas", [])]

    same = ideas_of(source) == ideas_of(folder)
    return result, {"original": str(source), "replay": str(folder), "same_ideas": same,
                    "identical": same and result.status == run.get("status")}
