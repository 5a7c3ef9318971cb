"""The run folder (DESIGN.md, "Run folder"): ids, layout, atomic writes and ``run.json``.

Big things (outputs, figures, data) live here and are referenced by run-relative path; the graph state
holds only small things.  Every JSON file is written atomically (temp file + rename), so a kill -9 never
leaves a torn ``plan.json`` or ``run.json``.
"""

from __future__ import annotations

import json
import os
import platform
import secrets
import shutil
import sys
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from cmbagent.planner._plan import PlanStep, slugify
from cmbagent.task import Task

__all__ = ["RunFolder", "default_workspace", "list_runs", "new_run_id", "open_checkpoints", "package_versions"]

_VERSIONED = (
    "cmbagent", "numpy", "scipy", "pandas", "matplotlib", "astropy", "emcee", "langgraph", "pydantic",
    "scikit-learn", "torch", "doubleml", "openai", "anthropic",
)  # fmt: skip


def default_workspace() -> Path:
    """``./workspaces`` when it exists (a checkout), else ``~/.cmbagent/workspaces``."""
    local = Path.cwd() / "workspaces"
    if local.is_dir():
        return local
    return Path.home() / ".cmbagent" / "workspaces"


def new_run_id(title: str) -> str:
    """``YYYYMMDD-HHMMSS-<slug>-<4 hex>``: sorts by start time, readable, unique."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{slugify(title, limit=24)}-{secrets.token_hex(2)}"


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _VERSIONED:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def write_json(path: Path, data: Any) -> None:
    """Write JSON atomically (temp file + rename).

    A killed process never leaves a torn file; no fsync, because surviving a power cut is the job of the
    SQLite checkpoints, and an fsync per file would dominate the graph's overhead.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, default=str)
        handle.write("\n")
    os.replace(tmp, path)


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class RunFolder:
    """One run's folder and the files in it."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path).resolve()

    # -- creation -------------------------------------------------------------------------------------
    @classmethod
    def create(cls, task: Task, *, workspace: Path | None, run_dir: Path | None, config: dict[str, Any]) -> RunFolder:
        """Make the folder complete or not at all: it is assembled under a temporary name, then renamed."""
        if run_dir is not None:
            final = Path(run_dir).resolve()
            if final.exists() and any(final.iterdir()):
                from cmbagent.exceptions import UserError

                raise UserError(f"run folder {final} exists and is not empty; pass a new --run-dir")
            run_id = final.name
        else:
            root = (workspace or default_workspace()).resolve()
            run_id = new_run_id(task.title)
            final = root / run_id
        final.parent.mkdir(parents=True, exist_ok=True)
        staging = final.parent / f".{final.name}.partial-{secrets.token_hex(3)}"
        staging.mkdir()
        try:
            (staging / "data").mkdir()
            (staging / "figures").mkdir()
            (staging / "steps").mkdir()
            (staging / "plans").mkdir()
            for rel, source in task.files.items():
                shutil.copy2(source, staging / rel)
            write_text(staging / "task.md", task.markdown())
            write_json(
                staging / "run.json",
                {
                    "run_id": run_id,
                    "title": task.title,
                    "status": "running",
                    "created": time.time(),
                    "task_source": str(task.source) if task.source else None,
                    "data_files": task.data_files,
                    "config": config,
                    "versions": package_versions(),
                    "platform": f"{platform.system()} {platform.machine()}, {sys.version.split()[0]}",
                },
            )
            if final.exists():
                final.rmdir()
            os.replace(staging, final)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
        return cls(final)

    # -- paths ----------------------------------------------------------------------------------------
    @property
    def run_id(self) -> str:
        return str(self.read_run().get("run_id") or self.path.name)

    def rel(self, path: Path) -> str:
        """A path relative to the run folder (what prompts, events and reports show)."""
        try:
            return str(Path(path).resolve().relative_to(self.path))
        except ValueError:
            return str(path)

    def step_dir(self, index: int, step: PlanStep) -> Path:
        path = self.path / "steps" / f"{index:02d}-{slugify(step.title)}"
        (path / "cells").mkdir(parents=True, exist_ok=True)
        (path / "outputs").mkdir(exist_ok=True)
        return path

    @property
    def transcript(self) -> Path:
        return self.path / "transcript.jsonl"

    @property
    def events(self) -> Path:
        return self.path / "events.jsonl"

    @property
    def checkpoints(self) -> Path:
        return self.path / "checkpoints.sqlite"

    @property
    def report(self) -> Path:
        return self.path / "report.md"

    # -- run.json -------------------------------------------------------------------------------------
    def read_run(self) -> dict[str, Any]:
        path = self.path / "run.json"
        if not path.is_file():
            return {}
        return dict(json.loads(path.read_text(encoding="utf-8")))

    def update_run(self, **fields: Any) -> dict[str, Any]:
        data = self.read_run()
        data.update(fields)
        write_json(self.path / "run.json", data)
        return data

    def write_plan(self, plan: dict[str, Any], version: int) -> None:
        write_json(self.path / "plans" / f"plan-{version:02d}.json", plan)
        write_json(self.path / "plan.json", plan)

    def task_text(self) -> str:
        path = self.path / "task.md"
        return path.read_text(encoding="utf-8") if path.is_file() else ""


def list_runs(workspace: Path) -> list[dict[str, Any]]:
    """Summaries of every run folder under ``workspace``, oldest first."""
    rows: list[dict[str, Any]] = []
    if not workspace.is_dir():
        return rows
    for child in sorted(workspace.iterdir()):
        if child.name.startswith(".") or not (child / "run.json").is_file():
            continue
        try:
            data = json.loads((child / "run.json").read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        rows.append({
            "run_id": data.get("run_id", child.name),
            "path": str(child),
            "task": data.get("title", ""),
            "status": data.get("status", "?"),
            "steps": data.get("steps_done", 0),
            "steps_total": data.get("steps_total", 0),
            "cost_usd": data.get("cost_usd"),
            "duration_s": data.get("duration_s"),
        })
    return rows


def open_checkpoints(path: Path) -> Any:
    """The run's LangGraph ``SqliteSaver``.

    WAL with ``synchronous=NORMAL``: every committed checkpoint survives a kill -9 of the process (the
    graph runs with ``durability="sync"``, so a step's checkpoint is committed before the next step starts);
    only an operating-system crash could lose the last commits, at a fraction of the fsync cost.
    """
    import sqlite3

    from langgraph.checkpoint.sqlite import SqliteSaver

    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    return SqliteSaver(conn)
