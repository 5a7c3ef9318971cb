"""What a run records about its steps: attempts, critiques, step records, and the run's own record.

Statuses and reasons are enums, so code decides by value, never by matching the text of a reason.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from cmbagent.state._arguments import bounded_list, bounded_text
from cmbagent.state._citations import Citation
from cmbagent.state._findings import Finding
from cmbagent.state._requirements import RequirementCheck
from cmbagent.state._task import TaskSpec

__all__ = [
    "IMAGE_SUFFIXES",
    "Attempt",
    "AttemptKey",
    "AuditFacts",
    "AuditReport",
    "CheckResult",
    "CriterionResult",
    "CriticFinding",
    "Critique",
    "CritiqueRecord",
    "InputFile",
    "InstallRecord",
    "ReportDraft",
    "ReportInputs",
    "RunRecord",
    "RunStatus",
    "SkipReason",
    "StepRecord",
    "StepStatus",
    "critique_schema",
    "report_schema",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg", ".pdf")


class StepStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    SKIPPED = "skipped"


class SkipReason(StrEnum):
    """Why a step was skipped; :attr:`REPLACED` and :attr:`NARRATIVE` are no gap in the run's answer."""

    REPLACED = "replaced"  # a revised plan replaced it before it ran
    REPLAN_LIMIT = "replan_limit"  # the run ran out of replans
    REPLANNER = "replanner"  # the replanner dropped the failed step
    CONTROLLER = "controller"  # the controller dropped a rejected step
    #: code left out a text step that, like one before it, stated numbers no result holds: the report states the
    #: results from the steps' values, so the narrative is no gap in the answer (the run still needs a done step)
    NARRATIVE = "narrative"

    @property
    def is_gap(self) -> bool:
        return self not in (SkipReason.REPLACED, SkipReason.NARRATIVE)


class RunStatus(StrEnum):
    RUNNING = "running"
    DONE = "done"
    #: the graph finished and wrote its report, but a requirement that contradicts the task stands
    #: (requirements.json): results exist, the run did not do what the text asked
    UNMET = "unmet"
    FAILED = "failed"
    BUDGET_EXHAUSTED = "budget_exhausted"
    INTERRUPTED = "interrupted"
    CANCELLED = "cancelled"  # a person asked it to stop (cmbagent cancel, the UI); resumable
    AWAITING_APPROVAL = "awaiting_approval"


class CheckResult(BaseModel):
    """A method's own pass/fail verdict, as its cell printed it."""

    model_config = ConfigDict(extra="allow")

    name: str
    passed: bool
    message: str = ""


class AttemptKey(BaseModel):
    """What stall detection compares between attempts."""

    code_hash: str | None = None
    error: str | None = None


class Attempt(BaseModel):
    """One attempt at a step: the cell (or answer) and what running it gave.

    ``result`` is the JSON object the cell printed between the result markers (``None``: it printed none);
    for a method step it is ``{values, artifacts, checks, diagnostics_keys}`` read from ``result.json``.
    """

    number: int = 1
    status: str = "ok"  # a CellStatus: ok | error | timeout | restarted | died
    error_name: str | None = None
    error: str | None = None
    traceback: str = ""
    output: str = ""
    images: list[str] = Field(default_factory=list)
    duration_s: float = 0.0
    cell: str | None = None  # run-relative path of the cell that ran
    code_hash: str | None = None
    result: dict[str, Any] | None = None
    method: str | None = None  # the method tool a method step called
    arguments: dict[str, Any] = Field(default_factory=dict)  # its validated arguments (defaults included)
    summary: str = ""  # the method's own summary paragraph
    diagnostics: dict[str, Any] = Field(default_factory=dict)  # the method's scalar diagnostics
    answer: str | None = None  # run-relative path of a text step's answer
    key_points: list[str] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)  # a text step's resolved citations, in [n] order
    findings: list[Finding] = Field(default_factory=list)  # what the audits and critics found (set by critique)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def key(self) -> AttemptKey:
        return AttemptKey(code_hash=self.code_hash, error=self.error)

    @property
    def values(self) -> dict[str, Any]:
        """The step's numbers: a method's ``values``, else the whole printed object."""
        result = self.result or {}
        if self.method or isinstance(result.get("values"), dict):
            return dict(result.get("values") or {})
        return dict(result)

    @property
    def checks(self) -> list[CheckResult]:
        raw = (self.result or {}).get("checks") or []
        return [CheckResult.model_validate(c) for c in raw if isinstance(c, dict) and "name" in c and "passed" in c]

    @property
    def artifacts(self) -> list[str]:
        return [str(a) for a in (self.result or {}).get("artifacts") or []]

    @property
    def figures(self) -> list[str]:
        """Images the cell made and image files the method listed, in order, once each."""
        listed = [a for a in self.artifacts if a.lower().endswith(IMAGE_SUFFIXES)]
        return list(dict.fromkeys([*self.images, *listed]))


class CriterionResult(BaseModel):
    criterion: str
    met: bool
    evidence: str = ""


class CriticFinding(BaseModel):
    """A finding a critic adds in the audits' schema (code sets its step, cell and source)."""

    code: str = Field(description="A short machine name such as 'fit.chi2_low' or 'units.inconsistent'.")
    severity: Literal["error", "warning", "note"] = Field(
        description="error: the step's result is wrong as it stands; warning: a caveat; note: context.")
    message: str = Field(description="One sentence: what is wrong and the numbers that show it.")
    settle: str = Field(default="", description="The check or change that would settle it.")


class Critique(BaseModel):
    accepted: bool = Field(description="True when the step met its goal and its numbers are sane.")
    verdict: str = Field(description="One sentence.")
    issues: list[str] = Field(default_factory=list, description="What is wrong and how to fix it.")
    criteria: list[CriterionResult] = Field(default_factory=list, description="Each acceptance criterion judged.")
    findings: list[CriticFinding] = Field(
        default_factory=list, description="Problems you found that the listed findings do not already state.")


#: a finding code as the audits write them: lower-case words joined by dots (``fit.chi2_low``)
_CODE_PATTERN = r"^[a-z][a-z0-9_]{0,23}(\.[a-z0-9_]{1,23}){1,2}$"


def critique_schema(criteria: int | Sequence[str], *, compact: bool = False) -> type[Critique]:
    """:class:`Critique` as a critic of a step with these acceptance ``criteria`` (their texts, or how many) is
    asked for it: at most one judgement per criterion, naming it by the step's own words (not the critic's:
    SmolLM2 invented criteria "A".."D" for a step with one), a few issues and findings, finding codes shaped like
    the audits', and every string with a length a grammar-constrained decoder must close within (SmolLM2 spent
    2,054 tokens, 226 s on one core, on one critique filled to its old bounds).  Validation is
    :class:`Critique`'s own: a hosted model's longer reply still counts.  ``compact``: the bounds of
    :data:`COMPACT_CRITIQUE` for a small model (one that takes compact prompts).  Cached."""
    if isinstance(criteria, int):
        return _critique_schema(max(0, criteria), (), compact)
    texts = tuple(dict.fromkeys(c for c in criteria if c.strip()))
    return _critique_schema(len(texts), texts, compact)


#: a critique's lengths and counts: verdict, issues (count, characters), findings, a finding's message and settle,
#: a criterion's evidence.  A small model's (``compact``) are shorter: code sets aside what cites nothing of the
#: result, and SmolLM2 filled the longer bounds with paths and digits ("./fixtures/1688/1536/…"; one critique of
#: 486 tokens, its three critics 869 tokens of a 4,074-token run); a reason that names a value and says what is
#: wrong with it takes a sentence
CRITIQUE_BOUNDS = {"verdict": 200, "issues": (3, 160), "findings": 2, "message": 200, "settle": 120, "evidence": 160}
COMPACT_CRITIQUE = {"verdict": 100, "issues": (2, 100), "findings": 1, "message": 160, "settle": 80, "evidence": 100}


@functools.lru_cache(maxsize=16)
def _critique_schema(criteria: int, texts: tuple[str, ...], compact: bool = False) -> type[Critique]:
    bounds: dict[str, Any] = COMPACT_CRITIQUE if compact else CRITIQUE_BOUNDS
    finding = create_model(
        "CriticFinding", __base__=CriticFinding, __doc__=CriticFinding.__doc__,
        code=(str, Field(description=CriticFinding.model_fields["code"].description,
                         json_schema_extra={"pattern": _CODE_PATTERN})),
        message=bounded_text(CriticFinding, "message", bounds["message"]),
        settle=bounded_text(CriticFinding, "settle", bounds["settle"]))
    named: Any = (str, Field(description=CriterionResult.model_fields["criterion"].description,
                             json_schema_extra={"enum": list(texts)})) if texts else \
        bounded_text(CriterionResult, "criterion", 120)
    judged = create_model(
        "CriterionResult", __base__=CriterionResult, __doc__=CriterionResult.__doc__,
        criterion=named, evidence=bounded_text(CriterionResult, "evidence", bounds["evidence"]))
    described = Critique.model_fields
    issues, chars = bounds["issues"]
    return create_model(
        "Critique", __base__=Critique, __doc__=Critique.__doc__,
        verdict=bounded_text(Critique, "verdict", bounds["verdict"]),
        issues=bounded_list(Critique, "issues", chars, issues),
        criteria=(list[judged], Field(default_factory=list, description=described["criteria"].description,  # type: ignore[valid-type]
                                      json_schema_extra={"maxItems": criteria})),
        findings=(list[finding], Field(default_factory=list, description=described["findings"].description,  # type: ignore[valid-type]
                                       json_schema_extra={"maxItems": bounds["findings"]})),
    )


class CritiqueRecord(BaseModel):
    """``critique.json``: every critic's verdict on one attempt and what code found."""

    accepted: bool
    attempt: int
    findings: list[Finding] = Field(default_factory=list)  # what the audits (and critics) found in this attempt
    critics: dict[str, Critique] = Field(default_factory=dict)


class InstallRecord(BaseModel):
    """One decision about a missing package (``step.json`` → ``installs``)."""

    attempt: int
    module: str
    proposed: list[str] = Field(default_factory=list)
    packages: list[str] = Field(default_factory=list)
    refused: list[str] = Field(default_factory=list)
    status: str = ""  # installed | failed | overlay_failed | not_allowed | refused | nothing_proposed | already_installed
    returncode: int | None = None
    duration_s: float | None = None
    output: str | None = None
    note: str = ""


class StepRecord(BaseModel):
    """Everything the run knows about one plan step (``step.json`` and the report read it)."""

    id: str
    title: str = ""
    status: StepStatus = StepStatus.PENDING
    index: int | None = None  # the step folder's number (set when the step starts)
    dir: str | None = None  # run-relative step folder
    summary: str = ""
    reason: str = ""
    skip_reason: SkipReason | None = None
    values: dict[str, Any] = Field(default_factory=dict)
    key_values: dict[str, Any] = Field(default_factory=dict)
    unaccepted_values: dict[str, Any] | None = None  # numbers a rejected attempt produced
    cell: str | None = None
    answer: str | None = None
    figures: list[str] = Field(default_factory=list)
    attempts: int = 0
    method: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)  # the method's arguments as run (defaults included)
    checks: list[CheckResult] = Field(default_factory=list)
    installs: list[InstallRecord] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    citations: list[Citation] = Field(default_factory=list)  # passages its answer cites, as [1], [2], ...

    @property
    def finished(self) -> bool:
        return self.status in {StepStatus.DONE, StepStatus.FAILED, StepStatus.SKIPPED}

    @property
    def is_gap(self) -> bool:
        """Skipped for a reason other than a revised plan replacing it: the answer lacks this step.

        A failed step whose remaining plan was revised is not a gap; the revision takes its place.
        """
        return self.status is StepStatus.SKIPPED and (self.skip_reason is None or self.skip_reason.is_gap)


class InputFile(BaseModel):
    bytes: int
    sha256: str


class AuditFacts(BaseModel):
    """What code can establish about a run's reproducibility (the auditor judges these facts)."""

    inputs: dict[str, InputFile] = Field(default_factory=dict)
    cells: list[str] = Field(default_factory=list)
    unseeded_cells: list[str] = Field(default_factory=list)
    notebook: bool = False
    network: str = "blocked by the sandbox"


class AuditReport(BaseModel):
    reproducible: bool
    findings: list[str] = Field(default_factory=list)


class ReportDraft(BaseModel):
    title: str
    summary: str = Field(description="The answer to the task in one paragraph, with the key numbers.")
    conclusions: list[str] = Field(default_factory=list)
    limitations: list[str] = Field(default_factory=list)


#: the report draft's lengths: title, summary, and conclusions and limitations (count, characters).  A small
#: model's (``compact``) are shorter: its narrative is set aside for code's when it states no result or a number
#: the run did not produce (SmolLM2's 439-token draft was "1.1.1." and limitations of digits), and code adds the
#: tables, findings and checklist around it
REPORT_BOUNDS = {"title": 160, "summary": 1500, "lists": (5, 300)}
COMPACT_REPORT = {"title": 120, "summary": 600, "lists": (3, 160)}


@functools.lru_cache(maxsize=2)
def report_schema(*, compact: bool = False) -> type[ReportDraft]:
    """:class:`ReportDraft` as the reporter is asked for it: a paragraph and a few conclusions and limitations,
    each with a length a grammar-constrained decoder must close within (SmolLM2 wrote 2,657 tokens of report
    and ran past the run's deadline); ``compact``: :data:`COMPACT_REPORT`'s bounds for a small model.  Validation
    is :class:`ReportDraft`'s own."""
    bounds: dict[str, Any] = COMPACT_REPORT if compact else REPORT_BOUNDS
    count, chars = bounds["lists"]
    return create_model(
        "ReportDraft", __base__=ReportDraft, __doc__=ReportDraft.__doc__,
        title=bounded_text(ReportDraft, "title", bounds["title"]),
        summary=bounded_text(ReportDraft, "summary", bounds["summary"]),
        conclusions=bounded_list(ReportDraft, "conclusions", chars, count),
        limitations=bounded_list(ReportDraft, "limitations", chars, count),
    )


class ReportInputs(BaseModel):
    """What the report node established for ``report.md`` besides the run state: narrative, audit, facts."""

    draft: ReportDraft
    audit: AuditReport | None = None
    facts: AuditFacts = Field(default_factory=AuditFacts)
    requirements: list[RequirementCheck] = Field(default_factory=list)  # the task's checklist, checked


class RunRecord(BaseModel):
    """``run.json``: the run's identity, configuration, status, costs and what its report was made from.

    Unknown keys are kept (a newer cmbagent may add some), so reading and writing a record loses nothing.
    """

    model_config = ConfigDict(extra="allow")

    run_id: str
    title: str = ""
    status: RunStatus = RunStatus.RUNNING
    created: float | None = None
    task_source: str | None = None
    data_files: list[str] = Field(default_factory=list)
    inputs: dict[str, dict[str, Any]] = Field(default_factory=dict)  # data/... -> {bytes, linked: reflink|cache|copy}
    config: dict[str, Any] = Field(default_factory=dict)  # a RunConfig (cmbagent.config), as JSON
    task: TaskSpec | None = None  # what the run started from (a run killed before its first checkpoint restarts)
    versions: dict[str, str] = Field(default_factory=dict)
    platform: str = ""
    duration_s: float | None = None
    cost_usd: float | None = None
    steps_done: int = 0
    steps_total: int = 0
    costs: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    finished: float | None = None
    findings: list[Finding] = Field(default_factory=list)
