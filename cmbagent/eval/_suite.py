"""A suite: a folder of tasks, each a normal task file beside a grader that says what a right answer is.

::

    evals/research/
      suite.yaml                      optional: name and description
      m01-jla-matter-density.md       the task, as a person writes it (any task file works)
      m01-jla-matter-density.grade.yaml
      reference/sn.py                 the script that computed the grader's expected numbers
      data/...                        the files the tasks name

A grader (``NAME.grade.yaml``)::

    kind: method            # method (a method tool answers it) | code (only code does) | impossible
    method: cosmology.fit_supernovae   # for method tasks: the tool that answers it (never shown to a run)
    reference: reference/sn.py
    checks:
      - value: omega_m                 # a named value within a tolerance
        aliases: [Omega_m]
        expected: 0.2970
        tolerance: {abs: 0.01}         # or {rel: 0.02}, or {sigma: 3}: in the run's own standard deviations
        std: {expected: 0.0338, rel: 0.25}   # optional: the reported uncertainty too ({max: X} for a bound)
        why: "..."                     # every check says why its tolerance is what it is
      - files: ["figures/*.png"]       # required files (globs, relative to the run folder)
      - figure: "figures/**/*hubble*.png"   # a saved figure with checked properties
        xlabel: "redshift"
        min_series: 2
        legend: true
      - findings: {must: [fit.chi2_low], must_not: [sampler.not_converged]}
      - status: [done]
      - says: ["\\bdebt\\b", "\\bno\\b|missing"]   # one sentence of the run's answer matches every pattern
      - no_value: [debt_effect]        # no number may be reported under these names
      - rubric: "The answer states which model fits better and why."   # model-judged; off by default

A rubric is never the only check of a grader (and never grades a number): it can only fail a task that
every code check passes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from cmbagent.exceptions import UserError

__all__ = ["CHECK_KINDS", "Check", "Grader", "Suite", "SuiteTask", "load_grader", "load_suite"]

Kind = Literal["method", "code", "impossible"]
#: the key that names a check's kind, in the order they are documented
CHECK_KINDS = ("value", "files", "figure", "findings", "status", "says", "no_value", "rubric")
GRADER_SUFFIX = ".grade.yaml"


class Tolerance(BaseModel):
    """How far a value may be from the expected one: absolutely, relatively, or in the run's own σ."""

    model_config = ConfigDict(extra="forbid")

    abs: float | None = Field(default=None, ge=0)
    rel: float | None = Field(default=None, ge=0)
    sigma: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _one(self) -> Tolerance:
        given = [k for k in ("abs", "rel", "sigma") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("a tolerance is exactly one of {abs: X}, {rel: X} or {sigma: K}")
        return self

    def describe(self) -> str:
        if self.abs is not None:
            return f"± {self.abs:g}"
        if self.rel is not None:
            return f"± {self.rel:.3g} relative"
        return f"within {self.sigma:g} σ (the run's own)"


class StdSpec(BaseModel):
    """What the reported uncertainty of a value must be: near ``expected`` (``rel``), or at most ``max``."""

    model_config = ConfigDict(extra="forbid")

    expected: float | None = Field(default=None, gt=0)
    rel: float | None = Field(default=None, gt=0)
    max: float | None = Field(default=None, gt=0)

    @model_validator(mode="after")
    def _shape(self) -> StdSpec:
        if self.max is None and (self.expected is None or self.rel is None):
            raise ValueError("std is {expected: X, rel: R} or {max: X}")
        return self


class Check(BaseModel):
    """One check of a grader; ``kind`` is the key it was written with (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")

    kind: str
    why: str = ""
    # value / no_value
    value: str | None = None
    aliases: list[str] = Field(default_factory=list)
    expected: float | int | str | bool | None = None
    tolerance: Tolerance | None = None
    std: StdSpec | None = None
    optional: bool = False
    no_value: list[str] = Field(default_factory=list)
    # files / figure
    files: list[str] = Field(default_factory=list)
    figure: str | None = None
    xlabel: str | None = None
    ylabel: str | None = None
    title: str | None = None
    min_series: int | None = Field(default=None, ge=1)
    legend: bool | None = None
    # findings / status / says / rubric
    must: list[str] = Field(default_factory=list)
    must_not: list[str] = Field(default_factory=list)
    status: list[str] = Field(default_factory=list)
    says: list[str] = Field(default_factory=list)
    rubric: str | None = None

    @property
    def names(self) -> list[str]:
        """The names a value check (or a no_value check) looks for."""
        return [self.value, *self.aliases] if self.value else list(self.no_value)

    def label(self) -> str:
        """A short name of the check for tables (``value omega_m``, ``figure figures/*.png``)."""
        detail = {"value": self.value, "no_value": ", ".join(self.no_value), "files": ", ".join(self.files),
                  "figure": self.figure, "findings": ", ".join(self.must + [f"not {c}" for c in self.must_not]),
                  "status": "/".join(self.status), "says": "a statement", "rubric": "rubric"}[self.kind]
        return f"{self.kind} {detail}".strip()


def _check(raw: Any, where: str) -> Check:
    if not isinstance(raw, dict):
        raise UserError(f"{where}: a check is a mapping such as `- value: omega_m` (got {raw!r})")
    kinds = [k for k in CHECK_KINDS if k in raw]
    if len(kinds) != 1:
        raise UserError(f"{where}: a check names exactly one of {', '.join(CHECK_KINDS)} (got {sorted(raw)})")
    kind = kinds[0]
    data = dict(raw)
    body = data.pop(kind)
    if kind == "value":
        data["value"] = str(body)
        if "expected" not in data:
            raise UserError(f"{where}: value {body!r} needs `expected:`")
        if isinstance(data["expected"], int | float) and not isinstance(data["expected"], bool) \
                and "tolerance" not in data:
            raise UserError(f"{where}: value {body!r} needs a `tolerance:` ({{abs: X}}, {{rel: X}} or {{sigma: K}}), "
                            "and `why:` it is that")
    elif kind in ("files", "no_value", "status", "says"):
        data[kind] = [str(v) for v in (body if isinstance(body, list) else [body])]
    elif kind == "figure":
        data["figure"] = str(body or "figures/**/*")
    elif kind == "findings":
        if not isinstance(body, dict) or not set(body) <= {"must", "must_not"}:
            raise UserError(f"{where}: findings is {{must: [codes], must_not: [codes]}}")
        data.update({k: [str(c) for c in v or []] for k, v in body.items()})
    elif kind == "rubric":
        data["rubric"] = str(body)
    try:
        check = Check(kind=kind, **data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise UserError(f"{where}: {kind} check: {'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    for pattern in [*check.says, *(p for p in (check.xlabel, check.ylabel, check.title) if p)]:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise UserError(f"{where}: {pattern!r} is not a valid regular expression ({exc})") from None
    return check


class Grader(BaseModel):
    """A task's grader (``NAME.grade.yaml``)."""

    kind: Kind
    method: str | None = None
    reference: str | None = None
    facts: dict[str, float] = Field(default_factory=dict)
    checks: list[Check]

    @property
    def code_checks(self) -> list[Check]:
        return [c for c in self.checks if c.kind != "rubric"]


class SuiteTask(BaseModel):
    """One task of a suite: its name (the file stem), task file and grader."""

    name: str
    path: str
    grader: Grader

    @property
    def kind(self) -> str:
        return self.grader.kind


class Suite(BaseModel):
    """A suite folder, read and checked (:func:`load_suite`)."""

    path: str
    name: str
    description: str = ""
    tasks: list[SuiteTask]

    def task(self, name: str) -> SuiteTask:
        for task in self.tasks:
            if task.name == name:
                return task
        raise UserError(f"suite {self.name} has no task {name!r}; its tasks are listed by `cmbagent eval --list`")

    def select(self, names: list[str] | None) -> Suite:
        """The suite restricted to ``names`` (task names or glob patterns such as ``m0*``)."""
        if not names:
            return self
        import fnmatch

        chosen = [t for t in self.tasks if any(fnmatch.fnmatchcase(t.name, pattern) for pattern in names)]
        unknown = [p for p in names if not any(fnmatch.fnmatchcase(t.name, p) for t in self.tasks)]
        if unknown:
            raise UserError(f"no task of suite {self.name} matches {', '.join(unknown)}")
        return self.model_copy(update={"tasks": chosen})


def load_grader(path: Path) -> Grader:
    """Read and check one grader file; every error names the file and what to write instead."""
    where = str(path)
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the grader {where}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise UserError(f"{where} is not valid YAML ({str(exc).splitlines()[0]}); fix it") from None
    if not isinstance(raw, dict) or "checks" not in raw or not raw.get("checks"):
        raise UserError(f"{where}: a grader is a mapping with `kind:` and a non-empty list `checks:`")
    unknown = set(raw) - {"kind", "method", "reference", "facts", "checks"}
    if unknown:
        raise UserError(f"{where}: unknown key(s) {sorted(unknown)}; a grader has kind, method, reference, facts, checks")
    checks = [_check(c, f"{where}, check {i}") for i, c in enumerate(raw["checks"], 1)]
    try:
        grader = Grader.model_validate({"kind": raw.get("kind"), "method": raw.get("method"), "checks": checks,
                                        "reference": raw.get("reference"), "facts": raw.get("facts") or {}})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise UserError(f"{where}: {'.'.join(map(str, first['loc']))}: {first['msg']} "
                        "(kind is method, code or impossible)") from None
    if not grader.code_checks:
        raise UserError(f"{where}: a rubric is never the only grader; add a value, files, figure, findings, status, "
                        "says or no_value check")
    if grader.reference is not None and not (path.parent / grader.reference).is_file():
        raise UserError(f"{where}: reference {grader.reference!r} not found (relative to the suite folder)")
    return grader


def load_suite(path: str | os.PathLike[str]) -> Suite:
    """The suite in folder ``path``: every ``*.md`` task (README.md aside) with its ``.grade.yaml``."""
    folder = Path(path).expanduser().resolve()
    if not folder.is_dir():
        raise UserError(f"suite {path} is not a folder; give a folder of tasks with graders (e.g. evals/research)")
    meta: dict[str, Any] = {}
    if (folder / "suite.yaml").is_file():
        loaded = yaml.safe_load((folder / "suite.yaml").read_text(encoding="utf-8"))
        if not isinstance(loaded, dict):
            raise UserError(f"{folder / 'suite.yaml'}: expected a mapping with name and description")
        meta = loaded
    tasks_md = sorted(p for p in folder.glob("*.md") if p.name.lower() != "readme.md")
    graders = {p.name[: -len(GRADER_SUFFIX)] for p in folder.glob(f"*{GRADER_SUFFIX}")}
    missing = [p.name for p in tasks_md if p.stem not in graders]
    orphans = sorted(graders - {p.stem for p in tasks_md})
    if missing:
        raise UserError(f"{folder}: task(s) without a grader: {', '.join(missing)}; add NAME{GRADER_SUFFIX} beside each")
    if orphans:
        raise UserError(f"{folder}: grader(s) without a task: {', '.join(o + GRADER_SUFFIX for o in orphans)}")
    if not tasks_md:
        raise UserError(f"{folder} holds no task .md files with graders")
    tasks = [SuiteTask(name=p.stem, path=str(p), grader=load_grader(folder / f"{p.stem}{GRADER_SUFFIX}"))
             for p in tasks_md]
    return Suite(path=str(folder), name=str(meta.get("name") or folder.name),
                 description=str(meta.get("description") or ""), tasks=tasks)
