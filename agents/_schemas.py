"""Structured outputs of the agents: each prompt's ``output_schema`` names one of these.

A reply is validated against its schema by the model client; an invalid reply goes back to the model
with the validation error.  Keeping the schemas small keeps every judgement cheap to check.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator
from pydantic.json_schema import SkipJsonSchema

from cmbagent.agents._render import CODE_CHARS
from cmbagent.state import (
    ArgumentShapes,
    AuditReport,
    CriterionResult,
    Critique,
    MethodCall,
    Plan,
    PlanDraft,
    PlanStep,
    ReportDraft,
    RequirementList,
    StatedItem,
    StepDraft,
    TaskBrief,
    bounded_list,
    bounded_text,
    brief_schema,
    critique_schema,
    plan_schema,
    report_schema,
    step_schema,
    unknown_arguments,
)

__all__ = [
    "ROLE_SCHEMAS",
    "SCHEMAS",
    "AuditReport",
    "CitedSpan",
    "CodeDraft",
    "CodeReview",
    "ControlDecision",
    "CriterionResult",
    "Critique",
    "DebugFix",
    "Idea",
    "IdeaCritique",
    "IdeaReview",
    "IdeaSet",
    "InstallAdvice",
    "MethodCall",
    "MethodCallDraft",
    "Plan",
    "PlanDraft",
    "PlanReview",
    "PlanStep",
    "ReplanDecision",
    "ReportDraft",
    "StepDraft",
    "StepSummary",
    "TaskBrief",
    "TextAnswer",
    "bind_schema",
    "method_shapes",
]


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


class CitedSpan(BaseModel):
    """A passage an answer cites: the retrieved chunk and the span quoted from it (code checks both)."""

    chunk_id: str = Field(description="The chunk id shown with the retrieved passage, exactly.")
    quote: str = Field(description="A short span copied word for word from that passage (a sentence or less).")


class TextAnswer(BaseModel):
    text: str = Field(description="The answer in markdown; cite retrieved passages as [1], [2], ...")
    key_points: list[str] = Field(default_factory=list, description="The main conclusions, one line each.")
    citations: list[CitedSpan] = Field(
        default_factory=list,
        description="The passages the text cites, in order: [1] is the first. Empty when no passages were given.",
    )



class Idea(BaseModel):
    """One research idea, carried out by one registered method tool on the task's data."""

    title: str = Field(description="A short title.")
    question: str = Field(description="The research question it answers, in one sentence.")
    hypothesis: str = Field(default="", description="What you expect to find, and why.")
    method: str = Field(description="The registered method tool that carries it out.")
    arguments: dict[str, Any] = Field(
        default_factory=dict, description="Arguments of that method call; data files as the task lists them (data/...).")
    approach: str = Field(description="What to run and what to compare, in two to four sentences.")
    risks: list[str] = Field(default_factory=list, description="What could go wrong, as you see it.")


class IdeaSet(BaseModel):
    """The idea maker's proposal (first round) or revision (later rounds)."""

    ideas: list[Idea] = Field(description="The ideas, best first.")
    notes: str = Field(default="", description="What changed since the last review and why (empty at first).")


class IdeaCritique(BaseModel):
    idea: int = Field(ge=1, description="The idea's position in the set under review (1 for the first).")
    novelty: int = Field(ge=1, le=5, description="1: repeats the task as posed or a textbook result; 5: new.")
    feasibility: int = Field(ge=1, le=5, description="1: cannot be done with the data and method at hand; 5: ready.")
    confounders: list[str] = Field(default_factory=list, description="What else could explain its result.")
    failure_modes: list[str] = Field(default_factory=list, description="What could go wrong when it is run.")
    verdict: str = Field(description="One sentence.")
    keep: bool = Field(description="True when the idea is worth running as it stands.")


class IdeaReview(BaseModel):
    """The idea hater's review of the latest idea set."""

    critiques: list[IdeaCritique] = Field(description="One critique per idea, in the set's order.")
    satisfied: bool = Field(description="True when no idea needs another revision.")
    summary: str = Field(default="", description="The review in two or three sentences.")


class ControlDecision(BaseModel):
    action: Literal["retry", "replan", "skip"] = Field(description="What to do with a step the critic rejected.")
    reason: str = Field(description="Why, in one sentence.")


class ReplanDecision(BaseModel):
    action: Literal["revise", "skip"] = Field(
        description="'revise': replace the remaining steps with new_steps; 'skip': drop the failed step."
    )
    reason: str = Field(description="Why; recorded in the report.")
    new_steps: list[StepDraft] = Field(
        default_factory=list, description="For 'revise': the new remaining steps (code numbers them)."
    )


class StepSummary(BaseModel):
    summary: str = Field(description="Two to five sentences: what was done, what came out, caveats.")
    key_values: dict[str, Any] = Field(default_factory=dict, description="The step's headline numbers.")



#: a step summary's characters, and a small model's (one that takes compact prompts): code replaces a summary that
#: names none of the step's values or states a number it did not produce by its own (SmolLM2's 275-token summary,
#: "Omega_m_d is Omega_c_c …", was), so two or three sentences are all a small model is given room for
SUMMARY_CHARS, COMPACT_SUMMARY_CHARS = 800, 400


@functools.lru_cache(maxsize=2)
def _summary_schema(chars: int = SUMMARY_CHARS) -> type[StepSummary]:
    """:class:`StepSummary` as a model is asked for it: a summary a grammar-constrained decoder must close within
    ``chars`` characters (SmolLM2 wrote 2,048 tokens of one repeated date into a step summary, past the run's
    deadline), and no ``key_values`` (the step's values are code's; SmolLM2 filled the open mapping with 2,048
    tokens of digits).  A reply that still carries ``key_values`` validates."""
    return create_model("StepSummary", __base__=StepSummary, __doc__=StepSummary.__doc__,
                        __config__=ConfigDict(json_schema_extra={"additionalProperties": False}),
                        summary=(str, Field(description=StepSummary.model_fields["summary"].description,
                                            json_schema_extra={"maxLength": chars})),
                        key_values=(SkipJsonSchema[dict[str, Any]], Field(default_factory=dict)))


#: the most steps a small model's plan holds when the task names its method (the schema's first step calls it):
#: the method step and one more (SmolLM2 wrote the same method call twelve times, 849 tokens, and code kept one)
COMPACT_PLAN_STEPS = 2
#: a small model's requirements list: at most this many items more than code's rules found (files and numbers)
COMPACT_REQUIREMENTS_MARGIN = 2
#: the characters of a small model's quote of the task (what a disagreement with the rules quotes of it)
COMPACT_QUOTE_CHARS = 80


@functools.lru_cache(maxsize=16)
def _requirements_schema(most: int) -> type[RequirementList]:
    """:class:`RequirementList` as a small model (one that takes compact prompts) is asked for it: only the items
    code compares with its rules' (``planner._planning.compare_lists`` reads a file's role and a number, never a
    ``word`` item: SmolLM2 wrote twelve of them, 886 tokens, none used), at most ``most`` of them (the files and
    numbers the rules found, and :data:`COMPACT_REQUIREMENTS_MARGIN` more), quoting at most
    :data:`COMPACT_QUOTE_CHARS` characters.  Schema only: validation is :class:`RequirementList`'s own."""
    fields = StatedItem.model_fields
    kind: Any = (Literal["file", "number", "word"], Field(description=fields["kind"].description,
                                                          json_schema_extra={"enum": ["file", "number"]}))
    item = create_model(
        "StatedItem", __base__=StatedItem, __doc__=StatedItem.__doc__, kind=kind,
        quote=(str, Field(description=fields["quote"].description,
                          json_schema_extra={"maxLength": COMPACT_QUOTE_CHARS})))
    items: Any = (list[item], Field(default_factory=list, max_length=16,  # type: ignore[valid-type]
                                    description=RequirementList.model_fields["items"].description,
                                    json_schema_extra={"maxItems": most}))
    return create_model("RequirementList", __base__=RequirementList, __doc__=RequirementList.__doc__, items=items)


SCHEMAS: dict[str, type[BaseModel]] = {
    cls.__name__: cls
    for cls in (
        TaskBrief,
        PlanDraft,
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
        IdeaSet,
        IdeaReview,
        RequirementList,
    )
}

#: the output schema each step role must declare (the graph's role handlers read these)
ROLE_SCHEMAS: dict[str, type[BaseModel]] = {"code": CodeDraft, "method": MethodCallDraft, "text": TextAnswer}


@functools.lru_cache(maxsize=16)
def _text_schema(citable: tuple[str, ...] = ()) -> type[TextAnswer]:
    """:class:`TextAnswer` with texts and lists a grammar-constrained decoder must close: an answer of at most
    3,000 characters, five key points, eight citations (SmolLM2 wrote 4,749 tokens of one text step, five
    minutes on one core, and ran the run out of time), each citing one of the ``citable`` chunk ids (the
    passages code retrieved for the step); with none retrieved there is nothing to cite (SmolLM2, shown no
    passage, wrote eight invented citations of 300 characters of digits each).  Schema only: a hosted model's
    longer answer validates, and code still resolves every citation it makes."""
    fields = TextAnswer.model_fields
    chunk: dict[str, Any] = {"enum": list(citable)} if citable else {"maxLength": 80}
    span = create_model("CitedSpan", __base__=CitedSpan, __doc__=CitedSpan.__doc__,
                        chunk_id=(str, Field(description=CitedSpan.model_fields["chunk_id"].description,
                                             json_schema_extra=chunk)),
                        quote=(str, Field(description=CitedSpan.model_fields["quote"].description,
                                          json_schema_extra={"maxLength": 300})))
    return create_model(
        "TextAnswer", __base__=TextAnswer, __doc__=TextAnswer.__doc__,
        text=(str, Field(description=fields["text"].description, json_schema_extra={"maxLength": 3000})),
        key_points=(list[Annotated[str, Field(json_schema_extra={"maxLength": 240})]],
                    Field(default_factory=list, description=fields["key_points"].description,
                          json_schema_extra={"maxItems": 5})),
        citations=(list[span], Field(default_factory=list, description=fields["citations"].description,  # type: ignore[valid-type]
                                     json_schema_extra={"maxItems": 8 if citable else 0})),
    )


@functools.lru_cache(maxsize=16)
def _replan_schema(step: type[StepDraft], most: int | None = None) -> type[ReplanDecision]:
    """``most``: how many new steps fit (the plan's room after the failed step, at most the ids offered), in the
    schema only; code still refuses a longer revision with a sentence (SmolLM2's revision ran the plan to 13
    steps of 12, was refused, and the run's only method step was skipped)."""
    field = ReplanDecision.model_fields["new_steps"]
    extra: dict[str, Any] = {} if most is None else {"maxItems": most}
    new_steps: Any = (list[step], Field(default_factory=list, description=field.description,  # type: ignore[valid-type]
                                        json_schema_extra=extra))
    return create_model("ReplanDecision", __base__=ReplanDecision, __doc__=ReplanDecision.__doc__, new_steps=new_steps,
                        reason=bounded_text(ReplanDecision, "reason", 400))


#: the short judgements' texts and lists, bounded for a grammar (schema only; validation as declared): SmolLM2
#: wrote a 5,453-token plan review (334 s on one core) into the unbounded ``comments`` of PlanReview
_SHORT_BOUNDS: dict[type[BaseModel], tuple[dict[str, int], dict[str, tuple[int, int]]]] = {
    PlanReview: ({}, {"comments": (5, 300)}),
    CodeReview: ({"revised_code": CODE_CHARS}, {"issues": (5, 200)}),
    CodeDraft: ({"code": CODE_CHARS, "explanation": 600}, {}),
    DebugFix: ({"code": CODE_CHARS, "diagnosis": 400}, {}),
    InstallAdvice: ({"module": 80, "advice": 400}, {"alternatives": (5, 80), "packages": (5, 80)}),
    ControlDecision: ({"reason": 400}, {}),
    AuditReport: ({}, {"findings": (3, 200)}),  # code decides the verdict (SmolLM2: 1,758 tokens of findings)
}


@functools.lru_cache(maxsize=16)
def _short_schema(schema: type[BaseModel]) -> type[BaseModel]:
    """``schema`` with :data:`_SHORT_BOUNDS`; a cell's code at most :data:`CODE_CHARS` characters, what a debugger
    or a reviewer is shown of a cell (a longer one would reach them clipped)."""
    texts, lists = _SHORT_BOUNDS[schema]
    fields = {name: bounded_text(schema, name, limit) for name, limit in texts.items()}
    fields.update({name: bounded_list(schema, name, chars, count) for name, (count, chars) in lists.items()})
    return create_model(schema.__name__, __base__=schema, __doc__=schema.__doc__, **fields)


_IDEA_TEXTS = {"title": 120, "question": 300, "hypothesis": 300, "approach": 600}
_CRITIQUE_LISTS = ("confounders", "failure_modes")


#: ideas (and critiques of them) a set holds when the caller does not say (``cmbagent ideas`` asks for 3)
DEFAULT_IDEAS = 5


@functools.lru_cache(maxsize=16)
def _idea_schema(methods: tuple[str, ...], count: int, shapes: ArgumentShapes) -> type[IdeaSet]:
    """:class:`IdeaSet` naming only ``methods``, with at most ``count`` ideas (in the schema), texts a
    grammar-constrained decoder must close (a small model otherwise writes until the call's token limit) and each
    idea's ``arguments`` an object of the methods' own argument names, typed (an open mapping is where a small
    model invents keys); validation refuses a name its method does not take."""
    method: Any = (Literal[methods], Field(description=Idea.model_fields["method"].description))
    texts = {name: bounded_text(Idea, name, limit) for name, limit in _IDEA_TEXTS.items()}
    closed = [shapes.closed(name) for name in methods if shapes.names(name) is not None]
    arguments: Any = (dict[str, Any], Field(default_factory=dict, description=Idea.model_fields["arguments"].description,
                                            json_schema_extra=_one_of(closed)))

    class Checked(Idea):
        @model_validator(mode="after")
        def _known(self) -> Checked:
            wrong = unknown_arguments(self.method, self.arguments, shapes.names(self.method))
            if wrong:
                raise ValueError(wrong)
            return self

    idea = create_model("Idea", __base__=Checked, __doc__=Idea.__doc__, method=method, arguments=arguments,
                        risks=bounded_list(Idea, "risks", 160, 3), **texts)
    ideas: Any = (list[idea], Field(description=IdeaSet.model_fields["ideas"].description,  # type: ignore[valid-type]
                                    json_schema_extra={"maxItems": count}))
    return create_model("IdeaSet", __base__=IdeaSet, __doc__=IdeaSet.__doc__, ideas=ideas,
                        notes=bounded_text(IdeaSet, "notes", 400))


@functools.lru_cache(maxsize=16)
def _review_schema(count: int) -> type[IdeaReview]:
    """:class:`IdeaReview` with at most ``count`` critiques (one per idea), each naming an idea 1..``count`` (an
    integer range a grammar holds: SmolLM2 critiqued ideas 104 and 327 of two), and bounded texts."""
    lists = {name: bounded_list(IdeaCritique, name, 160, 3) for name in _CRITIQUE_LISTS}
    number: Any = (int, Field(ge=1, description=IdeaCritique.model_fields["idea"].description,
                              json_schema_extra={"maximum": count}))
    critique = create_model("IdeaCritique", __base__=IdeaCritique, __doc__=IdeaCritique.__doc__, idea=number,
                            verdict=bounded_text(IdeaCritique, "verdict", 200), **lists)
    critiques: Any = (list[critique], Field(  # type: ignore[valid-type]
        description=IdeaReview.model_fields["critiques"].description,
        json_schema_extra={"maxItems": count}))
    return create_model("IdeaReview", __base__=IdeaReview, __doc__=IdeaReview.__doc__, critiques=critiques,
                        summary=bounded_text(IdeaReview, "summary", 400))


@functools.lru_cache(maxsize=32)
def _method_call_schema(method: str, shapes: ArgumentShapes, fixed: str = "{}") -> type[MethodCallDraft]:
    def check(draft: MethodCallDraft) -> MethodCallDraft:
        wrong = unknown_arguments(draft.method, draft.arguments, shapes.names(draft.method))
        if wrong:
            raise ValueError(wrong)
        return draft

    class Checked(MethodCallDraft):
        @model_validator(mode="after")
        def _known(self) -> Checked:
            return check(self)  # type: ignore[return-value]

    fields = MethodCallDraft.model_fields
    return create_model(
        "MethodCallDraft", __base__=Checked, __doc__=MethodCallDraft.__doc__,
        method=(str, Field(description=fields["method"].description, json_schema_extra={"enum": [method]})),
        arguments=(dict[str, Any], Field(default_factory=dict, description=fields["arguments"].description,
                                         json_schema_extra=shapes.closed(method, fixed=json.loads(fixed),
                                                                         complete=True))),
        rationale=(str, Field(default="", description=fields["rationale"].description,
                              json_schema_extra={"maxLength": 300})),
    )


@functools.lru_cache(maxsize=16)
def _any_call_schema(methods: tuple[str, ...], shapes: ArgumentShapes) -> type[MethodCallDraft]:
    """:class:`MethodCallDraft` when code does not know the method in advance: one of ``methods``, and arguments
    that are one of theirs, typed (validation refuses a name the chosen method does not take)."""
    def check(draft: MethodCallDraft) -> MethodCallDraft:
        wrong = unknown_arguments(draft.method, draft.arguments, shapes.names(draft.method))
        if wrong:
            raise ValueError(wrong)
        return draft

    class Checked(MethodCallDraft):
        @model_validator(mode="after")
        def _known(self) -> Checked:
            return check(self)  # type: ignore[return-value]

    fields = MethodCallDraft.model_fields
    closed = [shapes.closed(name) for name in methods if shapes.names(name) is not None] or [shapes.closed("")]
    return create_model(
        "MethodCallDraft", __base__=Checked, __doc__=MethodCallDraft.__doc__,
        method=(str, Field(description=fields["method"].description, json_schema_extra={"enum": list(methods)})),
        arguments=(dict[str, Any], Field(default_factory=dict, description=fields["arguments"].description,
                                         json_schema_extra=_one_of(closed))),
        rationale=(str, Field(default="", description=fields["rationale"].description,
                              json_schema_extra={"maxLength": 300})),
    )


def _one_of(options: list[dict[str, Any]]) -> Any:
    """A field's JSON schema replaced by one of ``options`` (its description kept): a mapping field's own
    ``additionalProperties: true`` must not sit beside the closed objects."""
    if len(options) == 1:
        return options[0]

    def replace(schema: dict[str, Any]) -> None:
        description = schema.get("description")
        schema.clear()
        schema["anyOf"] = options
        if description:
            schema["description"] = description

    return replace


def method_shapes(methods: Sequence[str]) -> ArgumentShapes:
    """The argument shapes of registered ``methods`` (every mapping closed), for callers without a runtime's."""
    from cmbagent.tools.methods import get_method, path_arguments

    return ArgumentShapes.of({name: get_method(name).model_parameters for name in methods},
                             inputs={name: [a for a, kind in path_arguments(name).items() if kind == "input"]
                                     for name in methods})


#: the requirements list's count as declared (a small model's is sized by the task, at most this)
_LISTED = int(RequirementList.model_json_schema()["properties"]["items"]["maxItems"])


def bind_schema(schema: type[BaseModel], *, agents: Sequence[str], methods: Sequence[str],
                arguments: ArgumentShapes | None = None, named: str | None = None,
                files: Sequence[str] | None = None, max_steps: int | None = None,
                method_agents: Sequence[str] = (), fixed: Mapping[str, Any] | None = None,
                criteria: int | Sequence[str] | None = None, new_steps: int | None = None,
                citable: Sequence[str] = (), ideas: int | None = None, stated: int | None = None,
                compact: bool = False) -> type[BaseModel]:
    """The schema a model is asked for: plans and replans name only ``agents`` and ``methods`` (enums), and
    ideas only ``methods`` (at most ``ideas`` of them, and as many critiques in a review).  With ``arguments`` (each method's argument shapes), method calls in plans name
    only their method's arguments; the task brief and a method step's call do too, for ``named`` (the method
    the task or the step names) when there is one, and the brief's data files are among ``files`` (the run's
    inputs, when given).  A method call's ``fixed`` arguments (the task's front matter) are constants in it.
    A replan adds at most ``new_steps`` steps (in the schema); a text answer cites only ``citable`` chunks.
    A critique of a step with ``criteria`` acceptance criteria judges at most that many, with bounded texts;
    a report draft has bounded texts too.

    ``compact`` (a small model: one that takes compact prompts, ``Model.compact_prompts``) asks for no more than
    the run uses of what it writes: a plan of at most :data:`COMPACT_PLAN_STEPS` steps when the task names its
    method, a requirements list of the files and numbers the task states (``stated``: how many code's rules found,
    and a margin), and shorter critiques, step summaries and report drafts (their prose is set aside for code's
    when it cites nothing of the result).  Hosted models and the full prompt form keep the bounds above.

    Every schema a model writes is bounded: every object closed, every string with a length, every list with a
    count (``tests/agents/test_schema_lint.py`` walks them all); where the caller gives no count, the defaults are
    ``max_steps`` (else 12) plan steps and new steps, :data:`DEFAULT_IDEAS` ideas, no criteria.  A schema this
    function does not know is returned unchanged (the lint fails on it if it is unbounded).  The bound schema is
    a subclass, so callers check replies against the declared one.
    """
    shapes = arguments or (method_shapes(methods) if methods and issubclass(
        schema, (IdeaSet, MethodCallDraft, TaskBrief, PlanDraft, ReplanDecision)) else ArgumentShapes())
    steps = max_steps or 12
    if issubclass(schema, PlanDraft):
        lead = named is not None and named in methods
        return plan_schema(agents=agents, methods=methods, arguments=shapes,
                           max_steps=min(steps, COMPACT_PLAN_STEPS) if compact and lead else steps,
                           method_agents=method_agents, lead_with_method=lead)
    if issubclass(schema, ReplanDecision):
        return _replan_schema(step_schema(agents=agents, methods=methods, arguments=shapes,
                                          method_agents=method_agents), steps if new_steps is None else new_steps)
    if issubclass(schema, IdeaSet) and methods:
        return _idea_schema(tuple(methods), ideas or DEFAULT_IDEAS, shapes)
    if issubclass(schema, IdeaReview):
        return _review_schema(ideas or DEFAULT_IDEAS)
    if issubclass(schema, TaskBrief) and shapes:
        return brief_schema(methods=tuple(methods), arguments=shapes, named=named,
                            files=None if files is None else tuple(files))
    if issubclass(schema, MethodCallDraft) and named and shapes.names(named) is not None:
        return _method_call_schema(named, shapes, json.dumps(dict(fixed or {}), sort_keys=True, default=str))
    if issubclass(schema, MethodCallDraft) and methods:
        return _any_call_schema(tuple(methods), shapes)
    if issubclass(schema, Critique):
        return critique_schema(criteria if criteria is not None else 0, compact=compact)
    if schema is ReportDraft:
        return report_schema(compact=compact)
    if schema is StepSummary:
        return _summary_schema(COMPACT_SUMMARY_CHARS if compact else SUMMARY_CHARS)
    if schema is RequirementList and compact:
        return _requirements_schema(min(_LISTED, (stated or 0) + COMPACT_REQUIREMENTS_MARGIN))
    if schema is TextAnswer:
        return _text_schema(tuple(dict.fromkeys(citable)))
    if schema in _SHORT_BOUNDS:
        return _short_schema(schema)
    return schema
