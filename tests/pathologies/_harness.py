"""Run one pathology task offline end to end and read back what the run found.

A task is a markdown file in ``tasks/`` whose front matter ``tags`` say what it must raise
(``expect:<code>``, or ``clean``: no ``error`` finding), which scripted agents it needs (``script:<name>`` from
:data:`tests.pathologies._scripts.SCRIPTS`) and which data file must exist (``needs:<file>``).  Held-out tasks
run the same way: drop a task file next to the others (and a script if a model's mistake is the pathology).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.api import solve
from cmbagent.frontmatter import split_front_matter
from cmbagent.models import ModelRequest, ScriptedModel
from cmbagent.sandbox import InMemoryExecutor
from tests.pathologies._scripts import SCRIPTS

TASKS = Path(__file__).resolve().parent / "tasks"


@dataclass(frozen=True)
class Case:
    path: Path
    expect: str | None  # None: a clean task
    script: str | None = None
    needs: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.path.stem


@dataclass
class Outcome:
    status: str
    run_dir: Path
    findings: list[dict[str, Any]] = field(default_factory=list)
    report: str = ""
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def codes(self) -> set[str]:
        return {f["code"] for f in self.findings}

    @property
    def errors(self) -> list[dict[str, Any]]:
        return [f for f in self.findings if f["severity"] == "error"]


def load_case(path: Path) -> Case:
    meta = split_front_matter(path.read_text(encoding="utf-8"))[0] or {}
    tags = [str(t) for t in meta.get("tags") or []]
    expect = next((t.split(":", 1)[1] for t in tags if t.startswith("expect:")), None)
    if expect is None and "clean" not in tags:
        raise ValueError(f"{path.name}: tag it 'clean' or 'expect:<code>'")
    script = next((t.split(":", 1)[1] for t in tags if t.startswith("script:")), None)
    needs = tuple(t.split(":", 1)[1] for t in tags if t.startswith("needs:"))
    return Case(path, expect, script, needs)


def cases() -> list[Case]:
    return [load_case(p) for p in sorted(TASKS.glob("*.md"))]


def run_case(case: Case, data: Path, folder: Path) -> Outcome:
    """Solve ``case`` offline (in-memory cells) with its task next to a copy-free link to the suite's data."""
    folder.mkdir(parents=True, exist_ok=True)
    task = folder / case.path.name
    shutil.copy(case.path, task)
    (folder / "data").symlink_to(data, target_is_directory=True)
    models: dict[str, Any] = {}
    agents: dict[str, str] = {}
    if case.script is not None:
        table = SCRIPTS[case.script]

        def answer(request: ModelRequest) -> Any:
            return table[request.agent](request)

        models["script"] = ScriptedModel(fn=answer)
        agents = {agent: "script" for agent in table}
    # the suite is about what the audits say of what ran: a scripted analyst decides what code's reading of a task
    # left open instead of the plan waiting for a person (that hold is tests/planner/test_unsettled_reading_is_said.py)
    result = solve(task, workspace=folder / "ws", model="offline", agent_models=agents or None, models=models,
                   executor=InMemoryExecutor, data_dirs=[data], settings={"accept_analyst": True})
    run = json.loads((result.run_dir / "run.json").read_text())
    events = [json.loads(line) for line in (result.run_dir / "events.jsonl").read_text().splitlines()]
    report = (result.run_dir / "report.md").read_text() if (result.run_dir / "report.md").is_file() else ""
    return Outcome(result.status, result.run_dir, list(run.get("findings") or []), report,
                   [e for e in events if e["type"] == "finding"])
