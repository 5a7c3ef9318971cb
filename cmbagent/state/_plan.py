"""The plan: what the planner proposes, the reviewer judges, a person may edit and the graph executes.

A model proposes a :class:`PlanDraft` (steps without ids); code numbers the steps (:meth:`PlanDraft.numbered`),
because an id is bookkeeping, not judgement: a model that writes a good plan with an odd id ("chain check")
should not fail planning for it.  :func:`plan_schema` gives the draft schema a model is asked for, with the
roster's step agents and the registered method names as enums, so that a constrained decoder can only write
names that exist.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    create_model,
    field_validator,
    model_serializer,
)

from cmbagent.state._arguments import ArgumentShapes, bounded_list, bounded_text, unknown_arguments

__all__ = [
    "MethodCall",
    "Plan",
    "PlanDraft",
    "PlanStep",
    "StepDraft",
    "next_step_ids",
    "plan_problems",
    "plan_schema",
    "slugify",
    "step_schema",
]

_ID = re.compile(r"[A-Za-z0-9_.-]{1,40}")
_NUMBERED = re.compile(r"s(\d+)")


class MethodCall(BaseModel):
    """A registered method tool and the arguments to call it with."""

    name: str = Field(description="Registered method name, e.g. 'cosmology.fit_supernovae'.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments of the method.")


class StepDraft(BaseModel):
    """One step as a planner proposes it; the fields are what a critic later checks the step against."""

    title: str = Field(description="A few words, shown in progress views and the report.")
    goal: str = Field(description="What this step must achieve, in one or two sentences.")
    agent: str = Field(description="Roster name of the agent that does the step (engineer, method_operator, ...).")
    instructions: str = Field(default="", description="How to do it: concrete guidance for the agent.")
    inputs: list[str] = Field(default_factory=list, description="Files or earlier step ids (s1, s2, ...) it needs.")
    expected_outputs: list[str] = Field(default_factory=list, description="Files, figures or numbers it produces.")
    acceptance_criteria: list[str] = Field(
        default_factory=list, description="Checkable statements that decide whether the step succeeded."
    )
    method: MethodCall | None = Field(default=None, description="For method steps: the method tool to call.")


class PlanStep(StepDraft):
    """A step of the executed plan: a draft plus the id code gave it."""

    id: str = Field(description="Short unique id such as 's1' (assigned by code).")

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        value = value.strip()
        if not _ID.fullmatch(value):
            raise ValueError("step id must be 1-40 letters, digits, '.', '_' or '-' (e.g. 's1')")
        return value

    @model_serializer(mode="wrap")
    def _id_first(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict) and "id" in data:  # plan.json reads best (and is edited by people) id first
            return {"id": data.pop("id"), **data}
        return data

    def draft(self) -> StepDraft:
        return StepDraft.model_validate(self.model_dump(exclude={"id"}))


def next_step_ids(used: Iterable[str], count: int) -> list[str]:
    """``count`` fresh ids ``sN`` numbered after every ``sN`` id in ``used`` (ids are never reused)."""
    numbers = [int(m.group(1)) for sid in used if (m := _NUMBERED.fullmatch(sid))]
    start = max(numbers, default=0) + 1
    taken = set(used)
    out: list[str] = []
    n = start
    while len(out) < count:
        if f"s{n}" not in taken:
            out.append(f"s{n}")
        n += 1
    return out


class PlanDraft(BaseModel):
    """An ordered list of steps and the reasoning behind it, as a planner proposes it."""

    steps: list[StepDraft] = Field(description="The steps, in execution order (code numbers them s1, s2, ...).")
    rationale: str = Field(default="", description="Why this decomposition; one short paragraph.")

    def numbered(self, *, used: Iterable[str] = ()) -> Plan:
        """The plan with ids ``s1, s2, ...`` (continuing after ``used``) given by code."""
        ids = next_step_ids(list(used), len(self.steps))
        return Plan(steps=[PlanStep(id=sid, **_fields(step)) for sid, step in zip(ids, self.steps, strict=True)],
                    rationale=self.rationale)


def _fields(step: StepDraft) -> dict[str, Any]:
    return {name: getattr(step, name) for name in StepDraft.model_fields}


class Plan(BaseModel):
    """The executed plan: numbered steps and the reasoning behind them."""

    steps: list[PlanStep] = Field(description="The steps, in execution order.")
    rationale: str = Field(default="", description="Why this decomposition; one short paragraph.")

    def step(self, step_id: str) -> PlanStep:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)

    @property
    def ids(self) -> list[str]:
        return [step.id for step in self.steps]

    def outline(self, statuses: dict[str, str] | None = None) -> str:
        """One line per step (bounded: it does not grow with the run's history)."""
        statuses = statuses or {}
        lines = []
        for n, step in enumerate(self.steps, 1):
            mark = statuses.get(step.id, "pending")
            lines.append(f"{n}. [{mark}] {step.id} {step.title} ({step.agent})")
        return "\n".join(lines)


def slugify(text: str, *, limit: int = 32) -> str:
    """A filesystem-safe lower-case slug."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (slug[:limit].rstrip("-")) or "step"


def unknown_agent(name: str, step_agents: Iterable[str]) -> str:
    return f"unknown agent {name!r}; step agents are: {', '.join(sorted(step_agents))}"


def unknown_method(name: str, methods: Iterable[str]) -> str:
    known = ", ".join(sorted(methods)) or "(none registered)"
    return f"unknown method {name!r}; known methods: {known}"


@functools.lru_cache(maxsize=16)
def _step_schema(agents: tuple[str, ...], methods: tuple[str, ...], shapes: ArgumentShapes,
                 method_agents: tuple[str, ...] = ()) -> type[StepDraft]:
    def check_agent(value: str) -> str:
        if value not in agents:
            raise ValueError(unknown_agent(value, agents))
        return value

    def check_method(value: str) -> str:
        if value not in methods:
            raise ValueError(unknown_method(value, methods))
        return value

    method_doc = StepDraft.model_fields["method"].description
    if not methods:  # nothing registered: a step cannot name a method at all
        method: Any = (None, Field(default=None, description=method_doc))
        return create_model("StepDraft", __base__=StepDraft, __doc__=StepDraft.__doc__, method=method,
                            agent=_agent_field(agents, check_agent), **_bounded_texts())
    def check_arguments(call: MethodCall) -> MethodCall:
        wrong = unknown_arguments(call.name, call.arguments, shapes.names(call.name))
        if wrong:
            raise ValueError(wrong)
        return call

    name_field = MethodCall.model_fields["name"]
    call = create_model(
        "MethodCall",
        __base__=MethodCall,
        __doc__=MethodCall.__doc__,
        name=(Annotated[str, AfterValidator(check_method)],
              Field(description=name_field.description, json_schema_extra={"enum": list(methods)})),
    )
    checked: Any = Annotated[call | None, AfterValidator(lambda c: check_arguments(c) if c is not None else c)]
    if shapes:  # each method with its own argument names (and their types): one alternative per method
        calls = [{"type": "object", "properties": {"name": {"const": m}, "arguments": shapes.closed(m)},
                  "required": ["name", "arguments"], "additionalProperties": False} for m in methods]
        checked = Annotated[checked, WithJsonSchema({"anyOf": [*calls, {"type": "null"}], "description": method_doc})]
    optional_call: Any = (checked, Field(default=None, description=method_doc))
    calling = [a for a in agents if a in method_agents]
    config = ConfigDict(json_schema_extra=functools.partial(_split_by_role, calling=calling,
                                                            others=[a for a in agents if a not in calling]))
    return create_model(
        "StepDraft",
        __base__=StepDraft,
        __doc__=StepDraft.__doc__,
        __config__=config if calling else None,
        agent=_agent_field(agents, check_agent),
        method=optional_call,
        **_bounded_texts(),
    )


def _split_by_role(schema: dict[str, Any], model: Any = None, *, calling: list[str], others: list[str]) -> None:
    """A step is either a method step (a method agent, a method call) or another step (another agent, no
    method): two alternatives, so a grammar cannot give a method to an agent that does not run methods (SmolLM2
    gave ``cosmology.fit_supernovae`` to the text-writing ``llm_engineer``, and no method would have run).

    A method step has no ``inputs`` or ``expected_outputs`` in the schema (its call's file arguments are its
    inputs, the method's artifacts its outputs) and shorter ``instructions``: SmolLM2 spent most of a 2,577-token
    plan (570 s) on inputs such as "n_heads_n_heads_n_n_n…" for the one method step of the JoLA task."""
    props, required = schema.pop("properties"), list(schema.pop("required", []))
    method = props["method"]
    calls = [alt for alt in method.get("anyOf", []) if alt.get("type") != "null"] or [method]
    method_step = {**{k: v for k, v in props.items() if k not in _CALL_IS_ITS_IO},
                   "agent": {**props["agent"], "enum": calling}, "method": {"anyOf": calls}}
    if "instructions" in method_step:
        method_step["instructions"] = {**method_step["instructions"], "maxLength": _METHOD_INSTRUCTIONS}
    other_step = {**props, "agent": {**props["agent"], "enum": others}, "method": {"type": "null"}}
    closed = {"type": "object", "additionalProperties": False}
    schema.pop("type", None)
    schema["anyOf"] = [{**closed, "properties": method_step, "required": [*required, "method"]}]
    if others:
        schema["anyOf"].append({**closed, "properties": other_step, "required": required})


#: lengths and counts a grammar-constrained decoder must stay within (the schema a model sees; validation of a
#: hosted model's longer reply is unchanged): a small model otherwise repeats a phrase or an item to its token limit.
#: A step is at most ~2,900 characters under a grammar: SmolLM2-135M filled 8 criteria of 300 characters with
#: digits and spent 2,338 tokens (7.6 minutes on one core) on a one-step plan; at ~4,900 a plan of noise-filled
#: steps still took 4,573 tokens (290 s)
_STEP_TEXT = {"title": 120, "goal": 300, "instructions": 800}
_CALL_IS_ITS_IO = ("inputs", "expected_outputs")  # not asked of a method step (see _split_by_role)
_METHOD_INSTRUCTIONS = 300
_STEP_LISTS = {"inputs": (4, 160), "expected_outputs": (3, 160), "acceptance_criteria": (3, 160)}


def _bounded_texts() -> dict[str, Any]:
    fields = {name: bounded_text(StepDraft, name, limit) for name, limit in _STEP_TEXT.items()}
    fields.update({name: bounded_list(StepDraft, name, chars, count) for name, (count, chars) in _STEP_LISTS.items()})
    return fields


def _agent_field(agents: tuple[str, ...], check: Any) -> Any:
    return (Annotated[str, AfterValidator(check)],
            Field(description=StepDraft.model_fields["agent"].description, json_schema_extra={"enum": list(agents)}))


@functools.lru_cache(maxsize=16)
def _plan_schema(agents: tuple[str, ...], methods: tuple[str, ...], shapes: ArgumentShapes,
                 max_steps: int | None, method_agents: tuple[str, ...] = (), lead: bool = False) -> type[PlanDraft]:
    step = _step_schema(agents, methods, shapes, method_agents)
    bound: Any = {"minItems": 1} if max_steps is None else {"minItems": 1, "maxItems": max_steps}
    kinds = step.model_json_schema().get("anyOf")
    if lead and kinds:  # the first step is a method step (the task names the method: it must be called)
        bound = functools.partial(_lead_with, first=kinds[0], most=max_steps or _LEAD_MOST)
    rationale: dict[str, Any] = {"maxLength": 1000}
    return create_model(
        "PlanDraft",
        __base__=PlanDraft,
        __doc__=PlanDraft.__doc__,
        steps=(list[step], Field(description=PlanDraft.model_fields["steps"].description,  # type: ignore[valid-type]
                                 json_schema_extra=bound)),
        rationale=(str, Field(default="", description=PlanDraft.model_fields["rationale"].description,
                              json_schema_extra=rationale)),
    )


#: longest plan spelled out for ``lead_with_method`` when the run sets no step limit
_LEAD_MOST = 12


def _lead_with(schema: dict[str, Any], *, first: dict[str, Any], most: int) -> None:
    """Steps whose first is ``first``: one tuple per length (``prefixItems`` without ``items`` is an exact tuple
    to llama.cpp's grammar converter, and ``items`` would win over ``prefixItems`` if both were given)."""
    step = schema.pop("items")
    for key in ("type", "minItems", "maxItems"):
        schema.pop(key, None)
    schema["anyOf"] = [{"type": "array", "prefixItems": [first, *([step] * (n - 1))], "minItems": n, "maxItems": n}
                       for n in range(1, most + 1)]


def step_schema(*, agents: Sequence[str], methods: Sequence[str], arguments: ArgumentShapes | None = None,
                method_agents: Sequence[str] = ()) -> type[StepDraft]:
    """:class:`StepDraft` with ``agent`` limited to ``agents`` and method names to ``methods``.

    The JSON schema names them as enums (a grammar-constrained decoder can only write those); validation
    rejects any other name with a sentence the planner can act on.  With ``arguments`` (each method's argument
    shapes), a method call may name only that method's arguments, typed as the method takes them.  With
    ``method_agents`` (the agents whose role is to call methods), the JSON schema has two kinds of step: a
    method agent with a call, or another agent without one.  Cached per (agents, methods, arguments, method
    agents).
    """
    return _step_schema(tuple(sorted(agents)), tuple(sorted(methods)), arguments or ArgumentShapes(),
                        tuple(sorted(method_agents)))


def plan_schema(*, agents: Sequence[str], methods: Sequence[str], arguments: ArgumentShapes | None = None,
                max_steps: int | None = None, method_agents: Sequence[str] = (),
                lead_with_method: bool = False) -> type[PlanDraft]:
    """:class:`PlanDraft` whose steps are :func:`step_schema` steps, at most ``max_steps`` of them in the schema
    (code checks the limit too, with a sentence the planner can act on).  ``lead_with_method`` makes the schema's
    first step a method step (``prefixItems``): for a task that names its method, a grammar-constrained decoder
    then cannot write a plan that never calls it (SmolLM2 gave every step to a text agent)."""
    return _plan_schema(tuple(sorted(agents)), tuple(sorted(methods)), arguments or ArgumentShapes(), max_steps,
                        tuple(sorted(method_agents)), lead_with_method)


def plan_problems(
    plan: Plan,
    *,
    step_agents: set[str],
    method_agents: set[str],
    methods: set[str],
    max_steps: int,
    required_method: str | None = None,
) -> list[str]:
    """Everything wrong with a plan that code can check; each entry is a sentence the planner can act on.

    ``method_agents`` are the step agents whose role is to call a method tool (their steps must name one);
    ``required_method`` is the method the task's front matter names (some step must call it).
    """
    problems: list[str] = []
    if required_method and plan.steps and not any(s.method and s.method.name == required_method for s in plan.steps):
        problems.append(f"the task asks for the method {required_method} and no step calls it; add a "
                        f"{' or '.join(sorted(method_agents)) or 'method'} step that calls {required_method}")
    if not plan.steps:
        problems.append("the plan has no steps; propose at least one")
    if len(plan.steps) > max_steps:
        problems.append(f"the plan has {len(plan.steps)} steps; the limit is {max_steps}, merge some")
    seen: set[str] = set()
    for step in plan.steps:
        if step.id in seen:
            problems.append(f"step id {step.id!r} is used twice; ids must be unique")
        seen.add(step.id)
        if step.agent not in step_agents:
            problems.append(f"step {step.id}: {unknown_agent(step.agent, step_agents)}")
        if step.method is not None and step.method.name not in methods:
            problems.append(f"step {step.id}: {unknown_method(step.method.name, methods)}")
        if step.agent in method_agents and step.method is None:
            problems.append(f"step {step.id}: a {step.agent} step must name a method")
        if step.method is not None and method_agents and step.agent in step_agents and \
                step.agent not in method_agents:
            problems.append(f"step {step.id}: it calls {step.method.name}, but {step.agent} does not run methods; "
                            f"give the step to {' or '.join(sorted(method_agents))}, or drop its method")
        if not step.goal.strip():
            problems.append(f"step {step.id}: the goal is empty")
    return problems
