"""The task as the run holds it (:class:`TaskSpec`) and as the task analyst restates it (:class:`TaskBrief`)."""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, create_model, model_validator
from pydantic.json_schema import SkipJsonSchema

from cmbagent.state._arguments import ArgumentShapes, bounded_list, bounded_text, unknown_arguments
from cmbagent.state._requirements import Requirement

__all__ = ["TaskBrief", "TaskSpec", "brief_schema"]

#: lengths a constrained decoder must stay within (schema only: a longer reply from a hosted model is kept)
_SHORT, _SENTENCE, _PARAGRAPH = 120, 300, 600
# in the analyst's schema only (a grammar must close the brief; SmolLM2 wrote 1,904 tokens of one, most of them
# requirements quoting "categ_treatment_effect_from_a_taxonomy_…"; at 8 × 200 characters it still wrote 2,135
# tokens of "n_h0_m_m_m_…" quotes and constraints, 141 s); code adds the checklist items it reads itself
_ITEMS, _REQUIREMENTS, _ITEM = 4, 6, 120
_SCALAR: list[dict[str, Any]] = [{"type": "number"}, {"type": "boolean"}, {"type": "string", "maxLength": 40}]
#: a requirement's value: a scalar, a short list (columns, latencies) or a mapping of such (priors), bounded
_VALUE: list[dict[str, Any]] = [
    *_SCALAR, {"type": "null"},
    {"type": "array", "maxItems": 16, "items": {"anyOf": _SCALAR}},
]
_ENTRY: dict[str, Any] = {"anyOf": [*_SCALAR, {"type": "array", "maxItems": 4, "items": {"type": "number"}},
                                    {"type": "object", "properties": {"mean": {"type": "number"},
                                                                      "std": {"type": "number"}},
                                     "additionalProperties": False}]}


def _value(keys: list[str]) -> list[dict[str, Any]]:
    """:data:`_VALUE`, and a mapping of the mapping arguments' own ``keys`` (free keys are where a grammar lets a
    decoder loop: SmolLM2 wrote "priors.priors.data" keys for 6,850 tokens)."""
    if not keys:
        return _VALUE
    return [*_VALUE, {"type": "object", "properties": {key: _ENTRY for key in keys}, "additionalProperties": False}]


class TaskSpec(BaseModel):
    """A parsed task inside a run: run-relative data paths, front matter without its ``arguments``.

    Built by code from ``task.md`` (see :mod:`cmbagent.task`); small enough to checkpoint.
    """

    text: str
    title: str
    method: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)  # file arguments point into the run's data/
    data_files: list[str] = Field(default_factory=list)
    front_matter: dict[str, Any] = Field(default_factory=dict)

    @property
    def seed(self) -> int | None:
        """The seed the front matter asks for (top-level ``seed:``), if any."""
        value = self.front_matter.get("seed")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class TaskBrief(BaseModel):
    """The task restated as something a planner can decompose.

    Every list is bounded (``maxItems`` in the schema): a grammar-constrained decoder then has to close it, where
    a small model would otherwise repeat one entry until its token limit (SmolLM2-135M listed one data file
    for 8,192 tokens).
    """

    title: str = Field(description="Short title of the task.")
    objective: str = Field(description="What must be found out or produced, in one or two sentences.")
    domain: str = Field(default="", description="Scientific field, e.g. cosmology, causal inference.")
    data_files: list[str] = Field(default_factory=list, max_length=20,
                                  description="Input files (paths inside the run folder).")
    method: str | None = Field(default=None, description="A method tool the task asks for, if any.")
    arguments: dict[str, Any] = Field(default_factory=dict, max_length=24,
                                      description="Method arguments the task states.")
    constraints: list[str] = Field(default_factory=list, max_length=12, description="Explicit requirements and limits.")
    deliverables: list[str] = Field(default_factory=list, max_length=12,
                                    description="Numbers, figures or text to deliver.")
    requirements: list[Requirement] = Field(
        default_factory=list, max_length=24,
        description="Every explicit requirement of the task, one item each: the method argument values it states "
                    "(model and variant, priors, data files and columns, label column, numbers of labels, folds, "
                    "seeds; an argument a column list must not contain is relation 'excludes') and the outputs it "
                    "asks for (|x − ref|, which method is best, a figure). Code checks each at the end.")


def brief_schema(*, methods: tuple[str, ...], arguments: ArgumentShapes, named: str | None,
                 files: tuple[str, ...] | None = None) -> type[TaskBrief]:
    """:class:`TaskBrief` as the task analyst is asked for it in a run: nothing in it left to invent.

    ``method`` is one of ``methods`` (only ``named`` when the task's front matter names one), ``arguments`` holds
    only that method's argument names, typed (any method's names when none is named), requirements name only
    known methods and arguments, ``data_files`` lists only ``files`` (the run's inputs, when given), and every
    string has a length a grammar-constrained decoder must close within.  Validation rejects an argument the
    method does not take, with the names it does.  Cached.
    """
    return _brief_schema(tuple(sorted(methods)), arguments, named, None if files is None else tuple(files))


def _files(files: tuple[str, ...]) -> Any:
    """The run's input files, each at most once: code knows them, a model may only pick among them."""
    description = TaskBrief.model_fields["data_files"].description
    extra: dict[str, Any] = {"items": {"enum": list(files)} if files else {"type": "string", "maxLength": 0},
                             "uniqueItems": True}
    return (list[str], Field(default_factory=list, max_length=len(files), description=description,
                             json_schema_extra=extra))


def _enum_or_null(names: list[str], description: str | None) -> Any:
    extra: dict[str, Any] = {"anyOf": [{"enum": names}, {"type": "null"}]}
    return (str | None, Field(default=None, description=description, json_schema_extra=extra))


_AnalystKind = Literal["argument", "output"]
_AnalystSource = Literal["front_matter", "text"]
_Hidden = SkipJsonSchema[str | None]
_HiddenList = SkipJsonSchema[list[str] | None]


@functools.lru_cache(maxsize=16)
def _brief_schema(methods: tuple[str, ...], shapes: ArgumentShapes, named: str | None,
                  files: tuple[str, ...] | None) -> type[TaskBrief]:
    choices = [named] if named else list(methods)
    argument_names = (shapes.names(named) or []) if named else shapes.all_names()

    def check_requirement(item: Requirement) -> Requirement:
        if item.kind == "argument" and item.method and item.argument:
            wrong = unknown_arguments(item.method, [item.argument], shapes.names(item.method))
            if wrong:
                raise ValueError(wrong)
        return item

    requirement = create_model(
        "Requirement", __base__=Requirement, __doc__=Requirement.__doc__,
        id=(SkipJsonSchema[str], Field(default="")),  # code numbers the checklist (SmolLM2 wrote "1018290")
        # the analyst lists arguments and outputs; files, numbers and words are read by code's own rules
        kind=(_AnalystKind, Field(description=Requirement.model_fields["kind"].description)),
        source=(_AnalystSource, Field(default="text", description=Requirement.model_fields["source"].description)),
        file=(_Hidden, Field(default=None)),
        role=(_Hidden, Field(default=None)),
        accepted=(_HiddenList, Field(default=None)),
        text=bounded_text(Requirement, "text", _ITEM),
        quantity=bounded_text(Requirement, "quantity", 60),
        value=(Any, Field(default=None, description=Requirement.model_fields["value"].description,
                          json_schema_extra={"anyOf": _value(shapes.map_keys())})),  # type: ignore[dict-item]
        method=_enum_or_null(choices, Requirement.model_fields["method"].description),
        argument=_enum_or_null(argument_names, Requirement.model_fields["argument"].description),
    )
    arguments_schema = shapes.closed(named) if named else shapes.any_method()
    info = TaskBrief.model_fields["arguments"]

    class Bound(TaskBrief):
        @model_validator(mode="after")
        def _known_arguments(self) -> Bound:
            method = self.method or named
            wrong = unknown_arguments(method, self.arguments, shapes.names(method)) if method else None
            if wrong:
                raise ValueError(wrong)
            return self

    return create_model(
        "TaskBrief", __base__=Bound, __doc__=TaskBrief.__doc__,
        title=bounded_text(TaskBrief, "title", _SHORT),
        objective=bounded_text(TaskBrief, "objective", _PARAGRAPH),
        domain=bounded_text(TaskBrief, "domain", _SHORT),
        data_files=bounded_list(TaskBrief, "data_files", _SENTENCE) if files is None else _files(files),
        constraints=bounded_list(TaskBrief, "constraints", _ITEM, items=_ITEMS),
        deliverables=bounded_list(TaskBrief, "deliverables", _ITEM, items=_ITEMS),
        method=_enum_or_null(choices, TaskBrief.model_fields["method"].description),
        arguments=(dict[str, Any], Field(default_factory=dict, max_length=24, description=info.description,
                                         json_schema_extra=arguments_schema)),
        requirements=(list[Annotated[requirement, AfterValidator(check_requirement)]],  # type: ignore[valid-type]
                      Field(default_factory=list, max_length=24, json_schema_extra={"maxItems": _REQUIREMENTS},
                            description=TaskBrief.model_fields["requirements"].description)),
    )
