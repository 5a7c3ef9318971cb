"""The run's typed vocabulary, shared by agents, the graph, the report and the UI.

Neutral ground: it imports nothing of cmbagent, so ``cmbagent.agents`` and ``cmbagent.planner`` both build
on it without importing each other.  It holds the task (:class:`TaskSpec`, :class:`TaskBrief`), the plan
(:class:`PlanDraft` as a model proposes it, :class:`Plan` as the graph runs it), what a run records about
its steps (:class:`Attempt`, :class:`CritiqueRecord`, :class:`StepRecord`, :class:`SkipReason`), audit
findings (:class:`Finding`), citations of the knowledge index (:class:`Citation`), the task's requirements
checklist (:class:`Requirement`, :class:`RequirementCheck`) and ``run.json`` (:class:`RunRecord`).
"""

from __future__ import annotations

from cmbagent.state._arguments import ArgumentShapes, bounded_list, bounded_text, unknown_arguments
from cmbagent.state._citations import Citation, citation_markers
from cmbagent.state._findings import Finding, Severity
from cmbagent.state._plan import (
    MethodCall,
    Plan,
    PlanDraft,
    PlanStep,
    StepDraft,
    next_step_ids,
    plan_problems,
    plan_schema,
    slugify,
    step_schema,
)
from cmbagent.state._records import (
    IMAGE_SUFFIXES,
    Attempt,
    AttemptKey,
    AuditFacts,
    AuditReport,
    CheckResult,
    CriterionResult,
    CriticFinding,
    Critique,
    CritiqueRecord,
    InputFile,
    InstallRecord,
    ReportDraft,
    ReportInputs,
    RunRecord,
    RunStatus,
    SkipReason,
    StepRecord,
    StepStatus,
    critique_schema,
    report_schema,
)
from cmbagent.state._requirements import (
    REQUIREMENT_UNMET,
    Requirement,
    RequirementCheck,
    RequirementList,
    StatedItem,
    best_entry,
    find_value,
    requested_number,
    same_value,
)
from cmbagent.state._task import TaskBrief, TaskSpec, brief_schema

__all__ = [
    "IMAGE_SUFFIXES",
    "REQUIREMENT_UNMET",
    "ArgumentShapes",
    "Attempt",
    "AttemptKey",
    "AuditFacts",
    "AuditReport",
    "CheckResult",
    "Citation",
    "CriterionResult",
    "CriticFinding",
    "Critique",
    "CritiqueRecord",
    "Finding",
    "InputFile",
    "InstallRecord",
    "MethodCall",
    "Plan",
    "PlanDraft",
    "PlanStep",
    "ReportDraft",
    "ReportInputs",
    "Requirement",
    "RequirementCheck",
    "RequirementList",
    "RunRecord",
    "RunStatus",
    "Severity",
    "SkipReason",
    "StatedItem",
    "StepDraft",
    "StepRecord",
    "StepStatus",
    "TaskBrief",
    "TaskSpec",
    "best_entry",
    "bounded_list",
    "bounded_text",
    "brief_schema",
    "citation_markers",
    "critique_schema",
    "find_value",
    "next_step_ids",
    "plan_problems",
    "plan_schema",
    "report_schema",
    "requested_number",
    "same_value",
    "slugify",
    "step_schema",
    "unknown_arguments",
]
