"""The agent roster and everything an agent call is made of.

* specs loaded from ``prompts/*.md`` (:func:`load_registry`), their structured-output schemas (:data:`SCHEMAS`);
* the output schemas (those the run state also holds, such as :class:`TaskBrief` and :class:`Critique`,
  live in :mod:`cmbagent.state` and are re-exported here);
* one typed context per call (:class:`AgentContext` and its kinds), rendered into the prompt by code;
* the idea team's brief and call context (:class:`IdeaBrief`, :class:`IdeaContext`) and its schemas;
* the deterministic ``offline`` backend (:class:`OfflineModel`): rules keyed by output schema that read those
  contexts, registered as the ``offline`` model provider by :mod:`cmbagent.agents.offline_provider`; its reading of a
  task's free text (:func:`understand_task`) is also what pre-flight checks a task with.
"""

from __future__ import annotations

from cmbagent.agents import (  # noqa: F401  (the words of each field register themselves)
    _fields_alignment,
    _fields_anomaly,
    _fields_bayes,
    _fields_causal,
    _fields_cosmology,
    _fields_lm,
    _fields_rl,
    _fields_robustness,
    _fields_theory,
)
from cmbagent.agents._catalogue import catalogue_lines, fill_arguments, match_method, offline_plan
from cmbagent.agents._context import (
    AgentContext,
    AuditContext,
    CodeReviewContext,
    ControlContext,
    CritiqueContext,
    DebugContext,
    FigureContext,
    FigureFile,
    InstallContext,
    MethodContext,
    Passage,
    PlanContext,
    PlanReviewContext,
    RecentStep,
    ReplanContext,
    ReportContext,
    StepContext,
    StepOutcome,
    StepResult,
    SummaryContext,
    TaskContext,
    TextContext,
)
from cmbagent.agents._ideas import DataFile, IdeaBrief, IdeaContext
from cmbagent.agents._meaning import Candidate, MethodChoice, choose_method
from cmbagent.agents._offline_model import OfflineModel
from cmbagent.agents._reading import TaskReading, read_task
from cmbagent.agents._registry import (
    PLACEHOLDERS,
    ROLES,
    STEP_ROLES,
    TIERS,
    AgentRegistry,
    AgentSpec,
    PromptError,
    load_registry,
    parse_prompt,
)
from cmbagent.agents._render import CODE_CHARS, RECENT_STEPS, clip, head_tail, output_format
from cmbagent.agents._rulebook import offline_rule
from cmbagent.agents._schemas import (
    ROLE_SCHEMAS,
    SCHEMAS,
    CitedSpan,
    CodeDraft,
    CodeReview,
    ControlDecision,
    DebugFix,
    Idea,
    IdeaCritique,
    IdeaReview,
    IdeaSet,
    InstallAdvice,
    MethodCallDraft,
    PlanReview,
    ReplanDecision,
    StepSummary,
    TextAnswer,
    bind_schema,
)
from cmbagent.agents._stated import (
    argument_roles,
    input_columns,
    names_column,
    stated_requirements,
    values_in,
)
from cmbagent.agents._understand import Understanding, understand_task
from cmbagent.agents.offline_provider import OFFLINE  # registers the offline model provider
from cmbagent.state import AuditReport, CriterionResult, Critique, PlanDraft, ReportDraft, TaskBrief

__all__ = [
    "CODE_CHARS",
    "OFFLINE",
    "PLACEHOLDERS",
    "RECENT_STEPS",
    "ROLES",
    "ROLE_SCHEMAS",
    "SCHEMAS",
    "STEP_ROLES",
    "TIERS",
    "AgentContext",
    "AgentRegistry",
    "AgentSpec",
    "AuditContext",
    "AuditReport",
    "Candidate",
    "CitedSpan",
    "CodeDraft",
    "CodeReview",
    "CodeReviewContext",
    "ControlContext",
    "ControlDecision",
    "CriterionResult",
    "Critique",
    "CritiqueContext",
    "DataFile",
    "DebugContext",
    "DebugFix",
    "FigureContext",
    "FigureFile",
    "Idea",
    "IdeaBrief",
    "IdeaContext",
    "IdeaCritique",
    "IdeaReview",
    "IdeaSet",
    "InstallAdvice",
    "InstallContext",
    "MethodCallDraft",
    "MethodChoice",
    "MethodContext",
    "OfflineModel",
    "Passage",
    "PlanContext",
    "PlanDraft",
    "PlanReview",
    "PlanReviewContext",
    "PromptError",
    "RecentStep",
    "ReplanContext",
    "ReplanDecision",
    "ReportContext",
    "ReportDraft",
    "StepContext",
    "StepOutcome",
    "StepResult",
    "StepSummary",
    "SummaryContext",
    "TaskBrief",
    "TaskContext",
    "TaskReading",
    "TextAnswer",
    "TextContext",
    "Understanding",
    "argument_roles",
    "bind_schema",
    "catalogue_lines",
    "choose_method",
    "clip",
    "fill_arguments",
    "head_tail",
    "input_columns",
    "load_registry",
    "match_method",
    "names_column",
    "offline_plan",
    "offline_rule",
    "output_format",
    "parse_prompt",
    "read_task",
    "stated_requirements",
    "understand_task",
    "values_in",
]
