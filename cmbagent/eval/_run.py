"""Running an eval: every task of a suite, in each mode, N times, as one batch of the batch machinery.

::

    from cmbagent.eval import EvalSettings, load_suite, run_eval
    record = run_eval(load_suite("evals/research"), "workspaces/eval-1",
                      EvalSettings(model="local", modes=["pc", "one-shot"], repeats=1, budget_usd=5))
    record = run_eval(None, "workspaces/eval-1")      # resume: finished runs are kept, the others resume

An eval folder is a batch folder (``batch.json``, ``runs/NN-<task>-<mode>[-rK]/``; the batch machinery
schedules the runs on Ray — a local cluster, or ``ray_address`` — isolates failures, resumes and holds the
total budget) plus ``eval.json`` (the settings, the graders as they were when the eval started, and one
grade per run) and ``eval.md`` (the tables).  Grading reads the run folders after the batch, so grading
changes never need a run again: :func:`regrade` rewrites both files.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from cmbagent.eval._grade import Grade, Judge, grade_run, read_outcome
from cmbagent.eval._suite import Suite, SuiteTask
from cmbagent.exceptions import UserError

__all__ = ["MODES", "EvalRecord", "EvalSettings", "eval_items", "read_eval", "regrade", "run_eval"]

Mode = Literal["pc", "one-shot"]
MODES: tuple[Mode, ...] = ("pc", "one-shot")
EVAL_FILE = "eval.json"


def _graph_only() -> list[Mode]:
    return ["pc"]


class EvalSettings(BaseModel):
    """How an eval is run (stored in ``eval.json``; no secrets)."""

    model: str | None = None
    modes: list[Mode] = Field(default_factory=_graph_only)
    repeats: int = Field(default=1, ge=1)
    repairs: int = Field(default=0, ge=0)  # one-shot self-repair rounds on errors
    max_concurrent: int | None = Field(default=None, ge=1)
    ray_address: str | None = None
    budget_usd: float | None = Field(default=None, gt=0)  # the whole eval's
    budget_usd_per_run: float | None = Field(default=None, gt=0)
    timeout_per_run: float | None = Field(default=None, gt=0)
    sandbox: str = "auto"
    rubric: bool = False
    judge_model: str | None = None  # the rubric's model (default: ``model``)


class EvalRecord(BaseModel):
    """``eval.json``: the suite as graded, the settings, one grade per run, and the summaries per mode."""

    eval_id: str
    path: str
    created: float
    finished: float | None = None
    suite: dict[str, Any]
    settings: EvalSettings
    tasks: list[SuiteTask]
    model_resolved: str | None = None  # the model spec runs fall back to here (``offline`` with no key set)
    grades: list[Grade] = Field(default_factory=list)
    summary: dict[str, Any] = Field(default_factory=dict)

    def suite_view(self) -> Suite:
        return Suite(path=str(self.suite.get("path", "")), name=str(self.suite.get("name", "")),
                     description=str(self.suite.get("description", "")), tasks=self.tasks)


def eval_items(suite: Suite, settings: EvalSettings) -> list[Any]:
    """One batch item per task, mode and repeat; the mode and repeat ride in the item's run parameters."""
    from cmbagent.batch import BatchItem
    from cmbagent.state import slugify

    items: list[Any] = []
    for repeat in range(1, settings.repeats + 1):
        for mode in settings.modes:
            for task in suite.tasks:
                label = f"{task.name}-{'pc' if mode == 'pc' else 'os'}" + (f"-r{repeat}" if settings.repeats > 1 else "")
                params: dict[str, Any] = {"mode": mode, "repeat": repeat}
                if mode == "one-shot":
                    params["repairs"] = settings.repairs
                items.append(BatchItem(index=len(items) + 1, name=slugify(label, limit=60), task=task.path,
                                       params=params))
    return items


def _batch_settings(settings: EvalSettings) -> Any:
    from cmbagent.batch import BatchSettings

    return BatchSettings(model=settings.model, sandbox=settings.sandbox, budget_usd=settings.budget_usd,
                         budget_usd_per_run=settings.budget_usd_per_run, timeout_per_run=settings.timeout_per_run,
                         max_concurrent=settings.max_concurrent, ray_address=settings.ray_address)


def write_eval(record: EvalRecord) -> None:
    """``eval.json`` and ``eval.md`` (atomically; a kill leaves the previous whole version)."""
    from cmbagent.eval._report import render_eval, summarise
    from cmbagent.run import write_json, write_text

    record.summary = summarise(record)
    folder = Path(record.path)
    write_json(folder / EVAL_FILE, record.model_dump(mode="json"))
    write_text(folder / "eval.md", render_eval(record))


def read_eval(folder: str | os.PathLike[str]) -> EvalRecord:
    """The record of the eval in ``folder`` (a clear error when it is not an eval folder)."""
    path = Path(folder).expanduser().resolve() / EVAL_FILE
    if not path.is_file():
        raise UserError(f"{path.parent} is not an eval folder (no {EVAL_FILE}); start one with `cmbagent eval SUITE`")
    try:
        record = EvalRecord.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except ValueError as exc:
        raise UserError(f"{path} cannot be read ({str(exc).splitlines()[0]}); it was edited or damaged") from None
    record.path = str(path.parent)
    return record


def _judge(settings: EvalSettings, transcript: Path | None = None) -> Judge | None:
    if not settings.rubric:
        return None
    from cmbagent.eval._judge import model_judge

    return model_judge(settings.judge_model or settings.model, transcript=transcript)


def regrade(folder: str | os.PathLike[str], *, judge: Judge | None = None) -> EvalRecord:
    """Grade every run of the eval in ``folder`` again from its run folder; rewrite ``eval.json``/``eval.md``.
    The rubric judge's calls are recorded in ``judge.jsonl`` there."""
    from cmbagent.batch import read_batch

    record = read_eval(folder)
    judge = judge if judge is not None else _judge(record.settings, Path(record.path) / "judge.jsonl")
    by_path = {t.path: t for t in record.tasks}
    grades = []
    batch_file = Path(record.path) / "batch.json"
    rows = read_batch(record.path).items if batch_file.is_file() else []
    budget = record.settings.budget_usd
    spent = sum(row.cost_usd or 0.0 for row in rows)
    for row in rows:
        task = by_path.get(row.item.task)
        if task is None:
            continue
        run_dir = Path(record.path) / row.item.run_dir
        mode = str(row.item.params.get("mode", "pc"))
        outcome = read_outcome(run_dir if (run_dir / "run.json").is_file() else None, mode=mode, status=row.status,
                               error=row.error, offline=record.model_resolved == "offline",
                               task_text=Path(task.path).read_text(encoding="utf-8") if Path(task.path).is_file() else "")
        if outcome.duration_s is None:
            outcome.duration_s = row.duration_s
        # the eval's total budget, not the run's own limit: never started, or stopped in flight once it was spent
        outcome.stopped_by_eval = row.status == "budget_exhausted" and (
            outcome.run_dir is None or (budget is not None and spent >= budget))
        grades.append(grade_run(task, outcome, repeat=int(row.item.params.get("repeat", 1)), judge=judge))
    record.grades = grades
    write_eval(record)
    return record


def run_eval(
    suite: Suite | None,
    eval_dir: str | os.PathLike[str],
    settings: EvalSettings | None = None,
    *,
    budget_usd: float | None = None,
    on_update: Callable[[Any], None] | None = None,
) -> EvalRecord:
    """Run (or, with ``suite=None``, resume) the eval in ``eval_dir``; returns its graded record.  A resume
    keeps the stored settings except the total budget, which ``budget_usd`` may raise (what the eval spent
    before counts towards it)."""
    from cmbagent.batch import run_batch

    folder = Path(eval_dir).expanduser().resolve()
    if suite is None:
        record = read_eval(folder)
        if settings is not None and settings != record.settings:
            raise UserError(f"{folder} was started with other settings; resume it without changing them")
        if budget_usd is not None:
            record.settings = record.settings.model_copy(update={"budget_usd": budget_usd})
            write_eval(record)
        items = None if (folder / "batch.json").is_file() else eval_items(record.suite_view(), record.settings)
    else:
        if (folder / EVAL_FILE).exists() or (folder / "batch.json").exists():
            raise UserError(f"{folder} holds an eval already; resume it with `cmbagent eval --resume {folder}`")
        settings = settings or EvalSettings()
        _judge(settings)  # a rubric needs a language model: said now, not after every run
        folder.mkdir(parents=True, exist_ok=True)
        from cmbagent.config import RunConfig

        resolved = RunConfig.resolve(flags={"model": settings.model}, env=os.environ).model
        record = EvalRecord(eval_id=f"eval-{time.strftime('%Y%m%d-%H%M%S')}", path=str(folder), created=time.time(),
                            suite={"name": suite.name, "path": suite.path, "description": suite.description},
                            settings=settings, tasks=suite.tasks, model_resolved=resolved)
        write_eval(record)
        items = eval_items(suite, settings)
    run_batch(items, batch_dir=folder, settings=_batch_settings(record.settings), on_update=on_update)
    graded = regrade(folder)
    graded.finished = time.time()
    write_eval(graded)
    return graded
