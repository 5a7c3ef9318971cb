"""What an audit reads: one step's attempt with its files, or the run's report narrative with every step.

Evidence is gathered once per attempt by code and handed to every audit, so an audit is a pure function of
it (and tests build evidence by hand).  Files written inside the sandbox (``result.json``, the figure log,
the cell) are read without following links (:func:`cmbagent.paths.read_beneath`) and with size limits:
sandboxed code could have planted either.
"""

from __future__ import annotations

import ast
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.audits._intent import Intent
from cmbagent.paths import read_beneath
from cmbagent.sandbox import FIGURE_LOG
from cmbagent.state import (
    Attempt,
    CheckResult,
    Finding,
    PlanStep,
    ReportDraft,
    Requirement,
    StepRecord,
    TaskSpec,
)

__all__ = ["RunEvidence", "StepEvidence", "run_evidence", "step_evidence"]

_RESULT_LIMIT = 16 * 1024 * 1024
_LOG_LIMIT = 4 * 1024 * 1024
_CODE_LIMIT = 512 * 1024
_DATA_SUFFIXES = (".csv", ".tsv", ".txt", ".dat", ".npz", ".npy", ".json", ".gz")


@dataclass
class StepEvidence:
    """One attempt at one step, as every step audit sees it.

    ``values``/``checks``/``diagnostics``/``method_findings`` come from the method's full ``result.json``
    (method steps) or the printed result object (code steps); ``figure_records`` are the figure probe's
    descriptions of the figures this attempt saved (see :mod:`cmbagent.sandbox._figprobe`); ``inputs`` are
    the run-relative data files the step read (its method's file arguments, the files its cell names, or its
    declared inputs); ``earlier`` are the run's finished steps.
    """

    step_id: str
    title: str = ""
    goal: str = ""
    agent: str = ""
    method: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    status: str = "ok"
    error: str | None = None
    values: dict[str, Any] = field(default_factory=dict)
    printed_result: bool = True
    diagnostics: dict[str, Any] = field(default_factory=dict)
    checks: list[CheckResult] = field(default_factory=list)
    method_findings: list[dict[str, Any]] = field(default_factory=list)
    summary: str = ""
    output: str = ""
    code: str = ""
    cell: str | None = None
    answer: str = ""
    figures: list[str] = field(default_factory=list)
    figure_records: list[dict[str, Any]] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    task_text: str = ""
    run_dir: Path | None = None
    earlier: list[StepRecord] = field(default_factory=list)
    duration_s: float = 0.0
    quotes: list[str] = field(default_factory=list)  # the spans its resolved citations quote from the index
    intent: Intent | None = None  # what the task asked for (priors it names, cuts it chose, ...)

    def read(self, rel: str, limit: int = _RESULT_LIMIT) -> bytes:
        """The bytes of a run-relative file (no link followed); ``FileNotFoundError`` when there is none."""
        if self.run_dir is None:
            raise FileNotFoundError(rel)
        return read_beneath(self.run_dir, rel, limit=limit)

    def syntax(self) -> ast.Module | None:
        """The cell's syntax tree, parsed once for every audit that reads it (None: not Python)."""
        if "_syntax" not in self.__dict__:
            try:
                self.__dict__["_syntax"] = ast.parse(self.code) if self.code else None
            except (SyntaxError, ValueError):
                self.__dict__["_syntax"] = None
        tree: ast.Module | None = self.__dict__["_syntax"]
        return tree

    def section(self, name: str) -> dict[str, Any]:
        """``diagnostics[name]`` when it is a mapping, else ``{}`` (a method's declared facts)."""
        value = self.diagnostics.get(name)
        return dict(value) if isinstance(value, dict) else {}

    @property
    def stated(self) -> str:
        """Everything the step and its task say in words (what a reader of the report would see)."""
        parts = [self.task_text, self.summary, self.answer, self.output,
                 *(c.message for c in self.checks), *(str(n) for n in self.diagnostics.get("data_notes") or [])]
        return "\n".join(p for p in parts if p)


@dataclass
class RunEvidence:
    """The run's report narrative and everything it may quote: every step's numbers and words, the task."""

    draft: ReportDraft
    steps: list[StepRecord] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # step outputs and answers, method summaries, check messages
    task_text: str = ""
    run_dir: Path | None = None
    findings: list[Finding] = field(default_factory=list)  # every finding of the run so far
    # wall-clock seconds a method measured (``diagnostics.timing_s``): a narrative may quote them as written, but
    # they differ from run to run, so they support no percentage or distance (0.739 s is no "73.9")
    clock: list[float] = field(default_factory=list)


def _json_file(run_dir: Path, rel: str | None) -> dict[str, Any]:
    if not rel:
        return {}
    try:
        data = json.loads(read_beneath(run_dir, rel, limit=_RESULT_LIMIT))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _text_file(run_dir: Path, rel: str | None, limit: int = _CODE_LIMIT) -> str:
    if not rel:
        return ""
    try:
        return read_beneath(run_dir, rel, limit=limit).decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return ""


def figure_records(run_dir: Path, figures: list[str]) -> list[dict[str, Any]]:
    """The figure probe's latest record of each of ``figures`` (run-relative), in their order."""
    raw = _text_file(run_dir, FIGURE_LOG, _LOG_LIMIT)
    wanted = {os.path.normpath(str(run_dir / rel)): rel for rel in figures}
    latest: dict[str, dict[str, Any]] = {}
    for line in raw.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("path"), str):
            key = os.path.normpath(record["path"])
            if key in wanted:
                latest[wanted[key]] = {**record, "path": wanted[key]}
    return [latest[rel] for rel in figures if rel in latest]


def _inputs(run_dir: Path, arguments: dict[str, Any], code: str, declared: list[str],
            data_files: list[str]) -> list[str]:
    """Run-relative data files the step read: file arguments, files its cell names, else its declared inputs."""
    found: list[str] = []
    for value in arguments.values():
        if isinstance(value, str) and value.lower().endswith(_DATA_SUFFIXES) and (run_dir / value).is_file():
            found.append(value)
    for rel in data_files:
        if rel not in found and (rel in code or Path(rel).name in code):
            found.append(rel)
    if not found:
        found = [p for p in declared if (run_dir / p).is_file()]
    return list(dict.fromkeys(found))


def step_evidence(run_dir: Path, *, step: PlanStep, attempt: Attempt, task: TaskSpec,
                  earlier: list[StepRecord], result_path: str | None = None,
                  requirements: Sequence[Requirement] = ()) -> StepEvidence:
    """Gather the evidence of one attempt (the step's files are read from ``run_dir``); ``requirements`` are
    the task's checklist, from which (with its text) the audits learn what the task asked for."""
    full = _json_file(run_dir, result_path) if attempt.method else {}
    values = dict(full.get("values") or attempt.values) if attempt.method else attempt.values
    checks = attempt.checks
    if full.get("checks"):
        checks = [CheckResult.model_validate(c) for c in full["checks"]
                  if isinstance(c, dict) and "name" in c and "passed" in c]
    diagnostics = full.get("diagnostics") if isinstance(full.get("diagnostics"), dict) else dict(attempt.diagnostics)
    code = _text_file(run_dir, attempt.cell)
    images = list(dict.fromkeys([*attempt.images, *[a for a in attempt.artifacts
                                                     if a.lower().endswith((".png", ".jpg", ".jpeg", ".svg", ".pdf"))]]))
    figures = [run_rel(run_dir, p) for p in images]
    method_findings = [f for f in full.get("findings") or [] if isinstance(f, dict)]
    return StepEvidence(
        step_id=step.id, title=step.title, goal=step.goal, agent=step.agent, method=attempt.method,
        arguments=dict(attempt.arguments), status=attempt.status, error=attempt.error, values=values,
        printed_result=attempt.result is not None or attempt.answer is not None,
        diagnostics=diagnostics or {}, checks=checks, method_findings=method_findings,
        summary=attempt.summary or str(full.get("summary") or ""), output=attempt.output, code=code,
        cell=attempt.cell, answer=_text_file(run_dir, attempt.answer) if attempt.answer else "",
        figures=figures, figure_records=figure_records(run_dir, figures),
        inputs=_inputs(run_dir, attempt.arguments, code, list(step.inputs), list(task.data_files)),
        task_text=task.text, run_dir=run_dir, earlier=earlier, duration_s=attempt.duration_s,
        quotes=[c.quote for c in attempt.citations], intent=Intent.of(task.text, requirements),
    )


def run_rel(run_dir: Path, path: str) -> str:
    """``path`` relative to the run folder when it lies inside (absolute paths from the kernel), else as given."""
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            return str(candidate.resolve().relative_to(run_dir.resolve()))
        except (ValueError, OSError):
            return path
    return re.sub(r"^\./", "", path)


def run_evidence(run_dir: Path | None, *, draft: ReportDraft, steps: list[StepRecord], task: TaskSpec,
                 findings: list[Finding] | None = None, facts: list[str] | None = None) -> RunEvidence:
    """The report narrative and every text a number in it may come from (outputs are read from the run folder;
    the findings' messages and evidence are facts code established, so a narrative may quote them too, as it
    may quote ``facts``: what code wrote about the run itself, such as why it stopped)."""
    texts: list[str] = [f"{f.message} {json.dumps(f.evidence, default=str)}" for f in findings or []]
    texts += list(facts or [])
    clock: list[float] = []
    for record in steps:
        texts += [record.summary, record.reason, *(c.message for c in record.checks),
                  *(c.quote for c in record.citations)]  # a quoted, resolved source supports its numbers
        if run_dir is not None and record.dir:
            for name in ("outputs/answer.md",):
                texts.append(_text_file(run_dir, f"{record.dir}/{name}"))
            if record.cell:
                texts.append(_text_file(run_dir, record.cell.replace("/cells/", "/outputs/").replace(".py", ".txt")))
            diagnostics = dict(_json_file(run_dir, f"{record.dir}/outputs/result.json").get("diagnostics") or {})
            timing = diagnostics.pop("timing_s", None)
            if isinstance(timing, dict):
                clock += [v for v in timing.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
            texts.append(json.dumps(diagnostics))
    return RunEvidence(draft=draft, steps=steps, texts=[t for t in texts if t], task_text=task.text, run_dir=run_dir,
                       findings=list(findings or []), clock=clock)
