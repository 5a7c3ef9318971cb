"""One typed context per agent call: what code tells an agent, and how it is rendered into the prompt.

The graph builds a context from its state; :meth:`AgentContext.render` turns it into the user message (with
bounded sections); models that answer by rules (the offline backend, scripted test models) read the same
object from ``ModelRequest.context``.  A context is not sent beside the prompt: every field is rendered, so
what a rule reads is what a language model was shown (``tests/agents/test_context.py`` checks that).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from cmbagent.agents._render import (
    CODE_CHARS,
    SUMMARY_CHARS,
    brief_text,
    checks_line,
    checks_text,
    clip,
    head_tail,
    output_unrepeated,
    step_text,
    values_text,
)
from cmbagent.profiles import FileProfile
from cmbagent.state import AuditFacts, CheckResult, Finding, Plan, PlanStep, TaskBrief

__all__ = [
    "AgentContext",
    "AuditContext",
    "CodeReviewContext",
    "ControlContext",
    "CritiqueContext",
    "DebugContext",
    "FigureContext",
    "FigureFile",
    "InstallContext",
    "MethodContext",
    "Passage",
    "PlanContext",
    "PlanReviewContext",
    "RecentStep",
    "ReplanContext",
    "ReportContext",
    "StepContext",
    "StepOutcome",
    "StepResult",
    "SummaryContext",
    "TaskContext",
    "TextContext",
    "findings_text",
]

PASSAGE_CHARS = 900  # one chunk is ~700 characters
PASSAGES_CHARS = 7000  # all retrieved passages of one call
_COLUMNS = "Columns of the data files"
_HELD = "What the data files hold"
COMPACT_HELD_CHARS = 600  # a file's description in a compact prompt
_OUTPUT = "Output (head and tail)"
_BRIEF = "Task brief"
_RECENT = "Recent steps"
_RESULTS = "Step results"
_PLAN = "Proposed plan"
_VALUES = "Result values"


class AgentContext(BaseModel, ABC):
    """What one agent call is told; :meth:`sections` is its whole rendering."""

    model_config = ConfigDict(frozen=True)

    @abstractmethod
    def sections(self) -> list[tuple[str, str]]:
        """``(title, body)`` pairs of the user message, each bounded; empty bodies are left out."""

    def compact_sections(self) -> list[tuple[str, str]]:
        """The sections for a model that takes compact prompts (a local llama.cpp server with a small context,
        ``Model.compact_prompts``): what another section already shows or code already enforces is left out.
        Here the task brief's requirements are listed once (:func:`brief_text`) and earlier steps' values are
        written with four significant digits (:func:`values_text`); overrides state their own rules on top."""
        brief, recent = getattr(self, "brief", None), getattr(self, "recent", None)
        replaced = {_BRIEF: brief_text(brief, compact=True)} if isinstance(brief, TaskBrief) else {}
        if isinstance(recent, list):  # earlier steps' values with four significant digits (values_text)
            replaced[_RECENT] = _recent(recent, compact=True)
        return [(title, replaced.get(title, body)) for title, body in self.sections()]

    def render(self, *, compact: bool = False) -> str:
        sections = self.compact_sections() if compact else self.sections()
        return "\n\n".join(f"## {title}\n{body}" for title, body in sections if body)


class RecentStep(BaseModel):
    """A finished earlier step as later agents see it: its summary, not its output."""

    id: str
    title: str
    status: str
    dir: str = ""
    summary: str = ""
    values: dict[str, Any] = Field(default_factory=dict)
    checks: list[CheckResult] = Field(default_factory=list)
    method: str | None = None
    findings: list[str] = Field(default_factory=list)  # "code (severity)" of the step's findings

    def line(self, *, compact: bool = False) -> str:
        text = f"[{self.id} {self.status}] {self.title} (folder {self.dir}): {self.summary}"
        if self.method:
            text += f" Method: {self.method}."
        if self.values:
            text += f" Values: {values_text(self.values, 300, compact=compact)}"
        if self.checks:
            text += f" Checks: {checks_line(self.checks)}."
        if self.findings:
            text += f" Findings: {', '.join(self.findings)}."
        return clip(text, SUMMARY_CHARS)


def _recent(steps: list[RecentStep], *, compact: bool = False) -> str:
    return "\n".join(step.line(compact=compact) for step in steps) or "(no earlier steps)"


def _bullets(items: list[str]) -> str:
    return "\n".join(f"- {item}" for item in items)


# -- planning -----------------------------------------------------------------------------------------------
class TaskContext(AgentContext):
    """The task analyst's view: the task as written (text clipped by code), its front matter and files."""

    title: str
    text: str
    method: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)
    front_matter: dict[str, Any] = Field(default_factory=dict)
    data_files: list[str] = Field(default_factory=list)
    columns: dict[str, list[str]] = Field(default_factory=dict)  # the header of each table among the data files
    inputs: list[FileProfile] = Field(default_factory=list)  # what each input holds (None of it: names only)
    profiled: bool = False  # whether ``inputs`` were read (False: the files' contents are unknown)
    candidates: list[str] = Field(default_factory=list)  # the methods that fit the task by meaning, best first

    def sections(self) -> list[tuple[str, str]]:
        head = {"title": self.title, **self.front_matter}
        if self.method:
            head["method"] = self.method
        columns = "\n".join(f"{name}: {clip(', '.join(cols), 1500)}" for name, cols in sorted(self.columns.items()))
        held = "\n".join(clip(_held(p), 1200) for p in self.inputs) if self.profiled else ""
        return [("Task", self.text),
                ("Front matter", json.dumps(head, default=str, sort_keys=True)),
                ("Method arguments given",
                 json.dumps(self.arguments, default=str, sort_keys=True) if self.arguments else ""),
                ("Data files in the run folder", "\n".join(self.data_files) or "(none)"),
                (_COLUMNS, columns),
                (_HELD, held),
                ("Method tools that fit the task by meaning (choose among these, or none)",
                 "\n".join(f"- {c}" for c in self.candidates))]

    def compact_sections(self) -> list[tuple[str, str]]:
        """Each file's description is cut to :data:`COMPACT_HELD_CHARS` (its first columns' contents: ranges of
        numbers are many tokens to a small model's tokenizer), and the column list names only the columns the
        descriptions do not, so every column is still named once."""
        if not self.profiled:
            return super().compact_sections()
        held = {p.name: _cut(_held(p), COMPACT_HELD_CHARS) for p in self.inputs}
        rest = {name: [c for c in cols if f"; {c}: " not in held.get(name, "")] for name, cols in self.columns.items()}
        columns = "\n".join(f"{name}: {clip(', '.join(cols), 1500)}" for name, cols in sorted(rest.items()) if cols)
        replaced = {_COLUMNS: columns, _HELD: "\n".join(held.values())}
        return [(title, replaced.get(title, body)) for title, body in super().compact_sections()]


def _cut(text: str, limit: int) -> str:
    """``text`` up to the last whole "; "-separated item within ``limit`` characters (a column described in full
    or not at all), saying that the rest was cut."""
    if len(text) <= limit:
        return text
    at = text.rfind("; ", 0, limit)
    return (text[:at] if at > 0 else text[:limit]) + "; …"


def _held(profile: FileProfile) -> str:
    """One input file as the analyst is told: its kind and size, then each column's content."""
    if profile.kind == "matrix" and profile.square:
        shape = f"a {profile.size}×{profile.size} {'symmetric ' if profile.symmetric else ''}matrix of numbers"
    elif profile.kind == "arrays":
        shape = "arrays " + ", ".join(f"{k} {list(v)}" for k, v in profile.arrays.items())
    else:
        shape = f"{profile.kind}, {profile.rows}{'+' if profile.truncated else ''} rows"
    cols = "; ".join(c.describe() for c in profile.columns[:40])
    return f"{profile.name}: {shape}" + (f"; {cols}" if cols else "")


class PlanContext(AgentContext):
    """The planner's view: the brief, the plan being revised, what to change, and the knowledge index."""

    brief: TaskBrief
    previous_plan: Plan | None = None
    requests: list[str] = Field(default_factory=list)
    max_steps: int
    index: str = ""  # what the run's knowledge index holds ("" when the run has none)

    def sections(self) -> list[tuple[str, str]]:
        return [(_BRIEF, brief_text(self.brief)),
                ("Previous plan", self.previous_plan.outline() if self.previous_plan else ""),
                ("Change requests to address", _bullets(self.requests)),
                ("Knowledge index", self.index),
                ("Limits", f"At most {self.max_steps} steps. Code numbers the steps s1, s2, ... in the order "
                           "you give them; refer to an earlier step by that id in `inputs`.")]


class PlanReviewContext(AgentContext):
    brief: TaskBrief
    plan: Plan
    round: int
    rounds: int

    def sections(self) -> list[tuple[str, str]]:
        return [(_BRIEF, brief_text(self.brief)),
                (_PLAN, clip(json.dumps(self.plan.model_dump(mode="json"), indent=1, sort_keys=True), 12000)),
                ("Review round", f"{self.round} of {self.rounds}")]

    def compact_sections(self) -> list[tuple[str, str]]:
        """The plan as JSON on one line without the fields left at their defaults (empty lists, no method)."""
        plan = json.dumps(self.plan.model_dump(mode="json", exclude_defaults=True), sort_keys=True)
        return [(title, clip(plan, 12000) if title == _PLAN else body) for title, body in super().compact_sections()]


class ReplanContext(AgentContext):
    """The replanner's view of a failed step; new steps get the ids in ``new_ids`` (code assigns them)."""

    brief: TaskBrief
    plan: Plan
    statuses: dict[str, str]
    failed: PlanStep
    reason: str
    recent: list[RecentStep] = Field(default_factory=list)
    new_ids: list[str] = Field(default_factory=list)

    def sections(self) -> list[tuple[str, str]]:
        return [(_BRIEF, brief_text(self.brief)),
                ("Plan", self.plan.outline(self.statuses)),
                ("Failed step", f"{self.failed.id}: {self.failed.title}\nGoal: {self.failed.goal}"),
                ("Why it failed", clip(self.reason, 2500)),
                (_RECENT, _recent(self.recent)),
                ("New step ids", "Code numbers new steps " + ", ".join(self.new_ids) + ", ... in order.")]


# -- one step ---------------------------------------------------------------------------------------------
class StepContext(AgentContext):
    """A step agent's view: brief, plan, the step, recent summaries and — after a rejection — the issues."""

    brief: TaskBrief
    plan: Plan
    statuses: dict[str, str]
    step: PlanStep
    folder: str
    recent: list[RecentStep] = Field(default_factory=list)
    issues: list[str] = Field(default_factory=list)
    package_docs: list[str] = Field(default_factory=list)  # indexed packages' passages for a code step (bounded)

    def sections(self) -> list[tuple[str, str]]:
        return [(_BRIEF, brief_text(self.brief)),
                ("Plan", self.plan.outline(self.statuses)),
                ("Current step", step_text(self.step, folder=self.folder)),
                (_RECENT, _recent(self.recent)),
                ("The critic rejected the previous attempt; fix these", _bullets(self.issues)),
                ("Documentation of the packages this step uses (from the package index)",
                 clip("\n\n".join(self.package_docs), PASSAGES_CHARS))]


def clip_passage(text: str) -> str:
    """A passage's text as a prompt shows it."""
    return clip(text, PASSAGE_CHARS)


class Passage(BaseModel):
    """A chunk retrieved from the knowledge index, as an agent sees it (code retrieved it for the step)."""

    chunk_id: str
    source: str  # the last parts of the source path (the id is what resolves)
    locator: str = ""
    heading: str = ""
    text: str

    @classmethod
    def of(cls, chunk: Any) -> Passage:
        """The passage of a :class:`cmbagent.literature.Chunk`; the prompt shows the last two parts of its
        source path (the chunk id is what resolves)."""
        parts = str(chunk.source).replace("\\", "/").split("/")
        return cls(chunk_id=chunk.chunk_id, source="/".join(parts[-2:]), locator=chunk.locator,
                   heading=chunk.heading, text=chunk.text)

    def block(self) -> str:
        where = ", ".join(part for part in (self.source, self.locator, self.heading) if part)
        return f"[chunk {self.chunk_id}] {where}\n{clip_passage(self.text)}"


class TextContext(StepContext):
    """A text step's view: a step context plus passages retrieved for it and why the last answer was refused."""

    passages: list[Passage] = Field(default_factory=list)
    previous_error: str | None = None

    def sections(self) -> list[tuple[str, str]]:
        blocks = "\n\n".join(p.block() for p in self.passages)
        return [*super().sections(),
                ("Retrieved passages (cite as [n] with the chunk id and a word-for-word quote)",
                 clip(blocks, PASSAGES_CHARS)),
                ("Your previous answer was refused; fix this", clip(self.previous_error or "", 2000))]


class MethodContext(StepContext):
    """The method operator's view: a step context plus the task's words, the method and the last error."""

    task_text: str  # clipped by code
    seed: int | None = None
    method: dict[str, Any] = Field(default_factory=dict)  # MethodSpec.describe()
    previous_error: str | None = None

    def sections(self) -> list[tuple[str, str]]:
        out = super().sections()
        out[1:1] = [("Task", self.task_text)]
        out += [("Seed requested by the task", "" if self.seed is None else str(self.seed)),
                ("Method", clip(json.dumps(self.method, default=str, sort_keys=True), 4000) if self.method else ""),
                ("The previous call failed", clip(self.previous_error or "", 2000))]
        return out

    def compact_sections(self) -> list[tuple[str, str]]:
        """The method as :func:`method_text` writes it for a small model: its description and the arguments the
        brief's method line does not already give (the task's), by name, default and description; the grammar
        holds their types and choices, and its keywords, paper and example are for choosing a method, which the
        step has done.  An argument of the step's call stays described: the previous call may have been refused
        for it."""
        shown = set(self.brief.arguments) if self.brief.method == self.method.get("name") else set()
        method = method_text(self.method, shown) if self.method else ""
        return [(title, method if title == "Method" else body) for title, body in super().compact_sections()]


#: the characters of one argument's description in a compact method section
COMPACT_ARGUMENT_CHARS = 200


def method_text(described: dict[str, Any], shown: set[str]) -> str:
    """A method (``MethodSpec.describe()``) for a small model: its name and description, then one line per argument
    not in ``shown`` (the arguments another section of the prompt gives), with its default and description."""
    parameters = described.get("parameters") or {}
    lines = [f"{described.get('name', '')}: {described.get('description', '')}".strip(": ")]
    rest = [(name, spec) for name, spec in sorted((parameters.get("properties") or {}).items()) if name not in shown]
    if rest:
        lines.append("Arguments not given above:")
    for name, spec in rest:
        default = f" (default {json.dumps(spec['default'], default=str)})" if "default" in spec else ""
        lines.append(f"- {name}{default}: {clip(str(spec.get('description', '')), COMPACT_ARGUMENT_CHARS)}")
    return clip("\n".join(lines), 4000)


class CodeReviewContext(AgentContext):
    step: PlanStep
    folder: str
    code: str

    def sections(self) -> list[tuple[str, str]]:
        return [("Current step", step_text(self.step, folder=self.folder)), ("Cell", clip(self.code, CODE_CHARS))]


class DebugContext(AgentContext):
    brief: TaskBrief
    step: PlanStep
    folder: str
    code: str
    error: str
    error_name: str | None = None
    traceback: str = ""
    output: str = ""
    advice: str = ""
    package_docs: list[str] = Field(default_factory=list)  # indexed packages' passages for the failing code

    def sections(self) -> list[tuple[str, str]]:
        name = f"({self.error_name}) " if self.error_name and not self.error.startswith(self.error_name) else ""
        return [(_BRIEF, brief_text(self.brief)),
                ("Current step", step_text(self.step, folder=self.folder)),
                ("Latest code", clip(self.code, CODE_CHARS)),
                ("Error", clip(name + self.error + "\n" + self.traceback, 3000)),
                ("Output (head and tail)", head_tail(self.output)),
                ("Installer advice", self.advice),
                ("Documentation of the packages this code uses (from the package index)",
                 clip("\n\n".join(self.package_docs), PASSAGES_CHARS))]


class InstallContext(AgentContext):
    module: str
    available: bool
    error: str

    def sections(self) -> list[tuple[str, str]]:
        return [("Missing module", self.module or "(not named in the error)"),
                ("Importable here", str(self.available)),
                ("Error", clip(self.error, 1000))]


class StepOutcome(AgentContext):
    """What an attempt produced, as critics and the summariser see it."""

    step: PlanStep
    folder: str
    output: str = ""  # head and tail, cut by code
    values: dict[str, Any] = Field(default_factory=dict)
    checks: list[CheckResult] = Field(default_factory=list)
    method: str | None = None
    key_points: list[str] = Field(default_factory=list)

    def sections(self) -> list[tuple[str, str]]:
        return [("Current step", step_text(self.step, folder=self.folder)),
                ("Method called", self.method or ""),
                (_OUTPUT, self.output),
                (_VALUES, values_text(self.values) if self.values else "(none)"),
                ("Method checks", checks_text(self.checks)),
                ("Key points", _bullets(self.key_points))]

    def compact_sections(self) -> list[tuple[str, str]]:
        """The output without its result block and without the lines other sections show word for word (the
        method's check lines and summary: :func:`output_unrepeated`), and the values with four significant
        digits (:func:`values_text`)."""
        sections = [(title, values_text(self.values, compact=True) if title == _VALUES and self.values else body)
                    for title, body in super().compact_sections()]
        others = [body for title, body in sections if title != _OUTPUT]
        return [(title, output_unrepeated(body, others) if title == _OUTPUT else body) for title, body in sections]


def findings_text(findings: list[Finding], limit: int = 4000) -> str:
    """Findings as critics and writers are shown them, errors first (bounded)."""
    ordered = sorted(findings, key=lambda f: f.severity.rank)
    return clip(_bullets([f.line() for f in ordered]), limit) if ordered else "(none)"


class CritiqueContext(StepOutcome):
    """A critic's view: the outcome plus what the audits found (typed findings; errors reject the step)."""

    findings: list[Finding] = Field(default_factory=list)

    def sections(self) -> list[tuple[str, str]]:
        return [*super().sections(),
                ("Findings by code (an error rejects the step whatever the critics say; a warning becomes a "
                 "caveat of the report)", findings_text(self.findings))]


class SummaryContext(StepOutcome):
    """The summariser's view: the outcome plus the method's own summary."""

    method_summary: str = ""

    def sections(self) -> list[tuple[str, str]]:
        return [*super().sections(), ("Method summary", clip(self.method_summary, 1500))]


class FigureFile(BaseModel):
    path: str  # run-relative
    bytes: int | None = None  # None: the file is missing


class FigureContext(AgentContext):
    """The plot critic's view: the figures a step made (the images themselves go along for vision models) and
    what the figure audit read from them before they were saved."""

    step: PlanStep
    folder: str
    figures: list[FigureFile]
    findings: list[Finding] = Field(default_factory=list)

    def sections(self) -> list[tuple[str, str]]:
        lines = [f"- {f.path} ({'missing' if f.bytes is None else f.bytes} bytes)" for f in self.figures]
        return [("Current step", step_text(self.step, folder=self.folder)), ("Figures", "\n".join(lines)),
                ("Figure findings by code", findings_text(self.findings) if self.findings else "")]


class ControlContext(AgentContext):
    brief: TaskBrief
    plan: Plan
    statuses: dict[str, str]
    step: PlanStep
    verdict: str
    issues: list[str]
    attempt: int
    max_attempts: int

    def sections(self) -> list[tuple[str, str]]:
        return [(_BRIEF, brief_text(self.brief)), ("Plan", self.plan.outline(self.statuses)),
                ("Current step", step_text(self.step)), ("Critic", self.verdict + "\n" + _bullets(self.issues)),
                ("Attempts", f"attempt {self.attempt} of {self.max_attempts}")]


# -- the end of a run -------------------------------------------------------------------------------------
class StepResult(BaseModel):
    """One step's outcome as the reporter sees it."""

    id: str
    title: str
    status: str
    summary: str = ""
    reason: str = ""
    method: str | None = None
    values: dict[str, Any] = Field(default_factory=dict)
    checks: list[CheckResult] = Field(default_factory=list)

    def line(self, *, compact: bool = False) -> str:
        text = f"- {self.id} [{self.status}]: {self.summary or self.reason}"
        if self.method:
            text += f" Method: {self.method}."
        if self.values and self.status == "done":
            text += f" Values: {values_text(self.values, 400, compact=compact)}"
        if self.checks and self.status == "done":
            text += f" Checks: {'; '.join(f'{c.name} ' + ('passed' if c.passed else 'FAILED') for c in self.checks)}"
        return clip(text, 900)


_REPORT_FINDINGS = "Findings by code (state every note plainly; carry every warning as a caveat)"
#: findings that say code set aside what an agent wrote (a critic's unsupported rejection, a summary with an
#: invented number or none of the step's values, checklist items that say nothing): about the run's agents, not
#: its result
ABOUT_REPLIES = frozenset({"critic.unsupported", "report.summary_replaced", "report.unsupported_number",
                           "task.requirements_dropped"})


class ReportContext(AgentContext):
    """The reporter's view: the steps' results, every finding (warnings are caveats the narrative must carry,
    notes are facts it must state) and, on a second try, what the audit of its first narrative found."""

    title: str
    brief: TaskBrief | None = None
    plan: Plan | None = None
    statuses: dict[str, str] = Field(default_factory=dict)
    results: list[StepResult] = Field(default_factory=list)
    status: str
    stop_reason: str = ""
    references: list[str] = Field(default_factory=list)  # "[n] source, locator: quote", numbered by code
    findings: list[Finding] = Field(default_factory=list)
    rejected: list[Finding] = Field(default_factory=list)  # what the audit of the previous narrative found

    def sections(self) -> list[tuple[str, str]]:
        brief = self.brief or TaskBrief(title=self.title, objective="")
        return [(_BRIEF, brief_text(brief)),
                ("Plan", self.plan.outline(self.statuses) if self.plan else "(no plan)"),
                (_RESULTS, clip("\n".join(r.line() for r in self.results), 8000)),
                (_REPORT_FINDINGS, findings_text(self.findings)),
                ("Your previous narrative was rejected; fix these", findings_text(self.rejected) if self.rejected else ""),
                ("Outcome", f"{self.status}. {self.stop_reason}"),
                ("References the steps cite (cite them as [n] with these numbers)",
                 clip("\n".join(self.references), 4000))]

    def compact_sections(self) -> list[tuple[str, str]]:
        """The steps' values with four significant digits (:func:`values_text`), and no finding that only says
        code set aside what an agent wrote (:data:`ABOUT_REPLIES`: they quote the set-aside text, a small model's
        noise of paths and digits, and the report's findings table lists them all the same)."""
        results = clip("\n".join(r.line(compact=True) for r in self.results), 8000)
        kept = findings_text([f for f in self.findings if f.code not in ABOUT_REPLIES])
        return [(title, results if title == _RESULTS else kept if title == _REPORT_FINDINGS else body)
                for title, body in super().compact_sections()]


class AuditContext(AgentContext):
    facts: AuditFacts

    def sections(self) -> list[tuple[str, str]]:
        return [("Facts", clip(json.dumps(self.facts.model_dump(mode="json"), sort_keys=True), 4000))]
