"""The run folder (docs/architecture.md, "The run folder"): ids, layout, atomic writes and ``run.json``.

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

from cmbagent._seal import seal, seal_matches
from cmbagent.exceptions import PathNotAllowed, UserError
from cmbagent.paths import INPUT_CACHE, link_file, prune_input_cache, read_beneath, write_atomic
from cmbagent.state import CritiqueRecord, Finding, PlanStep, RunRecord, StepRecord, slugify
from cmbagent.task import Task

__all__ = [
    "RunFolder",
    "StepFiles",
    "default_workspace",
    "list_runs",
    "new_run_id",
    "package_versions",
    "write_json",
    "write_text",
]

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
    write_atomic(path, (json.dumps(data, indent=2, default=str) + "\n").encode("utf-8"))


def write_text(path: Path, text: str) -> None:
    """Write text atomically (see :func:`cmbagent.paths.write_atomic`: no link in the run folder is followed)."""
    write_atomic(path, text.encode("utf-8"))


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
            cache = final.parent / INPUT_CACHE
            prune_input_cache(cache)
            inputs = {}
            for rel, source in task.files.items():
                # the resolved file itself, never a link swapped in since; linked, not copied, where possible
                how = link_file(source, staging / rel, cache=cache)
                inputs[rel] = {"bytes": (staging / rel).stat().st_size, "linked": how}
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
                    "inputs": inputs,
                    "config": config,
                    "config_seal": seal(config),  # a resume checks that the run's code did not rewrite it
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

    def step_files(self, index: int, step: PlanStep) -> StepFiles:
        """The folder of the ``index``-th started step, ``steps/NN-<slug>/`` (created)."""
        path = self.path / "steps" / f"{index:02d}-{slugify(step.title)}"
        (path / "cells").mkdir(parents=True, exist_ok=True)
        (path / "outputs").mkdir(exist_ok=True)
        return StepFiles(self, self.rel(path))

    def files_of(self, record: StepRecord) -> StepFiles:
        """The files of a step that has started (its record names its folder)."""
        if record.dir is None:
            raise ValueError(f"step {record.id} has not started; it has no folder")
        return StepFiles(self, record.dir)

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
    def record(self) -> RunRecord:
        """``run.json`` as a typed record (unknown keys kept)."""
        return RunRecord.model_validate(self.read_run() or {"run_id": self.path.name})

    def config(self) -> dict[str, Any]:
        """The settings the run was created with, as ``run.json`` holds them, if its seal still matches.

        The run's sandboxed code can rewrite ``run.json``; a resume must not take a sandbox backend, model,
        budget or install switch from it that the host did not write (see :mod:`cmbagent._seal`).
        """
        data = self.read_run()
        config = data.get("config")
        if not isinstance(config, dict) or not seal_matches(config, data.get("config_seal")):
            raise UserError(f"{self.path / 'run.json'}: the run's settings were changed after it started (code "
                            "in the run can do that) or it was made by another user or machine; they are not "
                            "used: start the task again with `cmbagent solve`")
        return config

    def read_run(self) -> dict[str, Any]:
        """``run.json`` (``{}`` before it exists), read through no link: the run's sandboxed code can replace it
        with a link to a file of the host, whose content the next :meth:`update_run` would copy into the run."""
        text = self._read_own("run.json")
        return dict(json.loads(text)) if text is not None else {}

    def update_run(self, **fields: Any) -> dict[str, Any]:
        data = self.read_run()
        data.update(fields)
        write_json(self.path / "run.json", data)
        return data

    def write_plan(self, plan: dict[str, Any], version: int) -> None:
        write_json(self.path / "plans" / f"plan-{version:02d}.json", plan)
        write_json(self.path / "plan.json", plan)

    def task_text(self) -> str:
        """``task.md`` as recorded (read through no link, as :meth:`read_run`)."""
        return self._read_own("task.md") or ""

    def _read_own(self, name: str) -> str | None:
        try:
            return read_beneath(self.path, name).decode("utf-8")
        except FileNotFoundError:
            return None
        except PathNotAllowed:
            raise PathNotAllowed(f"{self.path / name} was replaced by a link or a special file (code in the run "
                                 "can do that); refusing to read it: start the task again") from None


class StepFiles:
    """The one writer of a step's folder: ``step.json``, ``cells/``, ``outputs/``, ``critique.json``,
    ``summary.md`` and ``findings.json``.  Every write is atomic; paths returned are run-relative."""

    def __init__(self, folder: RunFolder, rel: str):
        self.folder = folder
        self.rel = rel
        self.path = folder.path / rel

    def write_step(self, step: PlanStep, record: StepRecord) -> None:
        """``step.json``: the plan step and the record's bookkeeping; ``findings.json`` when there are any."""
        data: dict[str, Any] = {**step.model_dump(mode="json"), "index": record.index, "status": str(record.status)}
        if record.attempts:
            data.update(cell=record.cell, attempts=record.attempts, values=record.values)
        if record.installs:
            data["installs"] = [entry.model_dump(mode="json") for entry in record.installs]
        if record.citations:
            data["citations"] = [citation.model_dump(mode="json") for citation in record.citations]
        write_json(self.path / "step.json", data)
        if record.findings:
            self.write_findings(record.findings)

    def write_cell(self, attempt: int, code: str) -> str:
        path = self.path / "cells" / f"attempt-{attempt}.py"
        write_text(path, code)
        return self.folder.rel(path)

    def write_output(self, attempt: int, text: str) -> str:
        path = self.path / "outputs" / f"attempt-{attempt}.txt"
        write_text(path, text)
        return self.folder.rel(path)

    def write_install_log(self, attempt: int, text: str) -> str:
        path = self.path / "outputs" / f"install-attempt-{attempt}.txt"
        write_text(path, text)
        return self.folder.rel(path)

    def write_answer(self, text: str) -> str:
        path = self.path / "outputs" / "answer.md"
        write_text(path, text.strip() + "\n")
        return self.folder.rel(path)

    def write_critique(self, critique: CritiqueRecord) -> None:
        write_json(self.path / "critique.json", critique.model_dump(mode="json"))

    def write_summary(self, text: str) -> None:
        write_text(self.path / "summary.md", text.strip() + "\n")

    def write_findings(self, findings: list[Finding]) -> None:
        write_json(self.path / "findings.json", [f.model_dump(mode="json") for f in findings])

    @property
    def result_path(self) -> str:
        """Where a method cell writes the method's full result (run-relative)."""
        return f"{self.rel}/outputs/result.json"

    @property
    def figure_dir(self) -> str:
        """Where a method step's figures go (run-relative): ``figures/<step folder name>``."""
        return f"figures/{Path(self.rel).name}"


def list_runs(workspace: Path) -> list[dict[str, Any]]:
    """Summaries of every run folder under ``workspace``, oldest first; the runs of a batch folder
    (``batch.json``, runs under ``runs/``) are listed with the batch they belong to (``batch``)."""
    rows: list[dict[str, Any]] = []
    if not workspace.is_dir():
        return rows
    for child in sorted(workspace.iterdir()):
        if child.name.startswith("."):
            continue
        if (child / "batch.json").is_file() and (child / "runs").is_dir():
            rows += [{**row, "batch": child.name} for row in list_runs(child / "runs")]
            continue
        if not (child / "run.json").is_file():
            continue
        try:
            data = json.loads(read_beneath(child, "run.json"))
        except (OSError, ValueError, PathNotAllowed):
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
            "batch": None,
        })
    return rows
