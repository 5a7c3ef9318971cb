"""Structured outputs of the agents: each prompt's ``output_schema`` names one of these.

A reply is validated against its schema by the model client; an invalid reply goes back to the model
with the validation error.  Keeping the schemas small keeps every judgement cheap to check.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from cmbagent.planner._plan import MethodCall, Plan, PlanStep

__all__ = [
    "SCHEMAS",
    "AuditReport",
    "CodeDraft",
    "CodeReview",
    "ControlDecision",
    "Critique",
    "DebugFix",
    "InstallAdvice",
    "MethodCall",
    "MethodCallDraft",
    "Plan",
    "PlanReview",
    "PlanStep",
    "ReplanDecision",
    "ReportDraft",
    "StepSummary",
    "TaskBrief",
    "TextAnswer",
]


class TaskBrief(BaseModel):
    """The task restated as something a planner can decompose."""

    title: str = Field(description="Short title of the task.")
    objective: str = Field(description="What must be found out or produced, in one or two sentences.")
    domain: str = Field(default="", description="Scientific field, e.g. cosmology, causal inference.")
    data_files: list[str] = Field(default_factory=list, description="Input files (paths inside the run folder).")
    method: str | None = Field(default=None, description="A method tool the task asks for, if any.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Method arguments the task states.")
    constraints: list[str] = Field(default_factory=list, description="Explicit requirements and limits.")
    deliverables: list[str] = Field(default_factory=list, description="Numbers, figures or text to deliver.")


class PlanReview(BaseModel):
    approved: bool = Field(description="True when the plan can be executed as it is.")
    comments: list[str] = Field(default_factory=list, description="Concrete change requests (empty if approved).")


class CodeDraft(BaseModel):
    """Code for one cell, written by the engineer, data engineer or visualiser."""

    code: str = Field(description="A complete Python cell.")
    explanation: str = Field(default="", description="One short paragraph: what the cell does.")


class CodeReview(BaseModel):
    approved: bool = Field(description="True when the cell may run as written.")
    issues: list[str] = Field(default_factory=list, description="Problems found (empty if approved).")
    revised_code: str | None = Field(default=None, description="A corrected cell, when the fix is clear.")


class DebugFix(BaseModel):
    diagnosis: str = Field(description="What went wrong, in one or two sentences.")
    code: str = Field(default="", description="The corrected complete cell (empty when giving up).")
    give_up: bool = Field(default=False, description="True when no fix is possible inside this step.")


class InstallAdvice(BaseModel):
    module: str = Field(description="The missing module.")
    available: bool = Field(description="Whether the module can be imported in the run's environment.")
    alternatives: list[str] = Field(default_factory=list, description="Installed modules that can do the job.")
    packages: list[str] = Field(
        default_factory=list,
        description="Distribution names that provide the module (PyPI names such as 'scikit-learn' for sklearn, "
                    "optionally 'name==version'); installed into the run's overlay only when the run allows it.",
    )
    advice: str = Field(description="What the debugger should do next.")


class MethodCallDraft(BaseModel):
    method: str = Field(description="Registered method name.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments of the call.")
    rationale: str = Field(default="", description="Why these arguments.")


class TextAnswer(BaseModel):
    text: str = Field(description="The answer in markdown.")
    key_points: list[str] = Field(default_factory=list, description="The main conclusions, one line each.")


class CriterionResult(BaseModel):
    criterion: str
    met: bool
    evidence: str = ""


class Critique(BaseModel):
    accepted: bool = Field(description="True when the step met its goal and its numbers are sane.")
    verdict: str = Field(description="One sentence.")
    issues: list[str] = Field(default_factory=list, description="What is wrong and how to fix it.")
    criteria: list[CriterionResult] = Field(default_factory=list, description="Each acceptance criterion judged.")


class ControlDecision(BaseModel):
    action: Literal["retry", "replan", "skip"] = Field(description="What to do with a step the critic rejected.")
    reason: str = Field(description="Why, in one sentence.")


class ReplanDecision(BaseModel):
    action: Literal["revise", "skip"] = Field(
        description="'revise': replace the remaining steps with new_steps; 'skip': drop the failed step."
    )
    reason: str = Field(description="Why; recorded in the report.")
    new_steps: list[PlanStep] = Field(default_factory=list, description="For 'revise': the new remaining steps.")


class StepSummary(BaseModel):
    summary: str = Field(description="Two to five sentences: what was done, what came out, caveats.")
    key_values: dict[str, Any] = Field(default_factory=dict, description="The step's headline numbers.")


class ReportDraft(BaseModel):
    title: str
    summary: str = Field(description="The answer to the task in one paragraph, with the key numbers.")
    conclusions: list[str] = Field(default_factory=list)
    limitations: list[str] = Field(default_factory=list)


class AuditReport(BaseModel):
    reproducible: bool
    findings: list[str] = Field(default_factory=list)


SCHEMAS: dict[str, type[BaseModel]] = {
    cls.__name__: cls
    for cls in (
        TaskBrief,
        Plan,
        PlanReview,
        CodeDraft,
        CodeReview,
        DebugFix,
        InstallAdvice,
        MethodCallDraft,
        TextAnswer,
        Critique,
        ControlDecision,
        ReplanDecision,
        StepSummary,
        ReportDraft,
        AuditReport,
    )
}
