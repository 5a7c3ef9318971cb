"""The plan: what the planner proposes, the reviewer judges, a person may edit and the graph executes.

Kept free of graph imports so that agents, the offline backend and the UI can use it cheaply.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, Field, field_validator

__all__ = ["MethodCall", "Plan", "PlanStep", "plan_problems", "slugify"]


class MethodCall(BaseModel):
    """A registered method tool and the arguments to call it with."""

    name: str = Field(description="Registered method name, e.g. 'cosmology.fit_supernovae'.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments of the method.")


class PlanStep(BaseModel):
    """One step of a plan; the fields are what a critic later checks the step against."""

    id: str = Field(description="Short unique id such as 's1'.")
    title: str = Field(description="A few words, shown in progress views and the report.")
    goal: str = Field(description="What this step must achieve, in one or two sentences.")
    agent: str = Field(description="Roster name of the agent that does the step (engineer, method_operator, ...).")
    instructions: str = Field(default="", description="How to do it: concrete guidance for the agent.")
    inputs: list[str] = Field(default_factory=list, description="Files or earlier step ids it needs.")
    expected_outputs: list[str] = Field(default_factory=list, description="Files, figures or numbers it produces.")
    acceptance_criteria: list[str] = Field(
        default_factory=list, description="Checkable statements that decide whether the step succeeded."
    )
    method: MethodCall | None = Field(default=None, description="For method steps: the method tool to call.")

    @field_validator("id")
    @classmethod
    def _id_shape(cls, value: str) -> str:
        value = value.strip()
        if not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", value):
            raise ValueError("step id must be 1-40 letters, digits, '.', '_' or '-' (e.g. 's1')")
        return value


class Plan(BaseModel):
    """An ordered list of steps and the reasoning behind it."""

    steps: list[PlanStep] = Field(description="The steps, in execution order.")
    rationale: str = Field(default="", description="Why this decomposition; one short paragraph.")

    def step(self, step_id: str) -> PlanStep:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)

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


def plan_problems(
    plan: Plan,
    *,
    step_agents: set[str],
    methods: set[str],
    max_steps: int,
) -> list[str]:
    """Everything wrong with a plan that code can check; each entry is a sentence the planner can act on."""
    problems: list[str] = []
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
            problems.append(
                f"step {step.id}: unknown agent {step.agent!r}; step agents are: {', '.join(sorted(step_agents))}"
            )
        if step.method is not None and step.method.name not in methods:
            known = ", ".join(sorted(methods)) or "(none registered)"
            problems.append(f"step {step.id}: unknown method {step.method.name!r}; known methods: {known}")
        if step.agent == "method_operator" and step.method is None:
            problems.append(f"step {step.id}: a method_operator step must name a method")
        if not step.goal.strip():
            problems.append(f"step {step.id}: the goal is empty")
    return problems
