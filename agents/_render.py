"""Bounded text for prompts (docs/architecture.md, Rules 14: each model call gets a bounded context).

Every section has a fixed character budget and history enters only as the last few step summaries, so a
prompt at step 20 is no larger than at step 2.  Paths are run-relative and nothing time-dependent enters a
prompt, so a replayed run asks exactly what the recorded run asked.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from cmbagent.state import CheckResult, PlanStep, TaskBrief

__all__ = [
    "BRIEF_CHARS",
    "CODE_CHARS",
    "RECENT_STEPS",
    "SUMMARY_CHARS",
    "brief_text",
    "checks_line",
    "checks_text",
    "clip",
    "head_tail",
    "output_format",
    "step_text",
    "values_text",
]

RECENT_STEPS = 3  # summaries of this many earlier steps enter a step's context
SUMMARY_CHARS = 600
BRIEF_CHARS = 2500
CODE_CHARS = 8000
OUTPUT_HEAD = 1500
OUTPUT_TAIL = 1500
VALUES_CHARS = 1500


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, saying how much was dropped."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 40)] + f"\n… [{len(text) - limit + 40} characters cut]"


def head_tail(text: str, head: int = OUTPUT_HEAD, tail: int = OUTPUT_TAIL) -> str:
    """Keep the start and the end of a long output (errors and results are usually at the end)."""
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n… [{len(text) - head - tail} characters omitted] …\n{text[-tail:]}"


def output_format(schema: type[BaseModel] | None) -> str:
    """A compact description of the reply's fields (the full JSON schema goes to the provider)."""
    if schema is None:
        return ""
    lines = [f"Reply with one JSON object ({schema.__name__}) with these fields:"]
    for name, field in schema.model_fields.items():
        kind = getattr(field.annotation, "__name__", None) or str(field.annotation).replace("typing.", "")
        doc = f": {field.description}" if field.description else ""
        lines.append(f"- {name} ({kind}){doc}")
    return "\n".join(lines)


def brief_text(brief: TaskBrief) -> str:
    parts = [f"Title: {brief.title}", f"Objective: {brief.objective}"]
    if brief.domain:
        parts.append(f"Domain: {brief.domain}")
    if brief.data_files:
        parts.append("Data files: " + ", ".join(brief.data_files))
    if brief.method:
        parts.append(f"Method requested: {brief.method} with arguments {json.dumps(brief.arguments, default=str, sort_keys=True)}")
    for key, items in (("constraints", brief.constraints), ("deliverables", brief.deliverables)):
        if items:
            parts.append(f"{key.capitalize()}:\n" + "\n".join(f"- {item}" for item in items))
    if brief.requirements:  # what code checks at the end: every agent sees them
        parts.append("Requirements of the task (checked by code at the end):\n"
                     + "\n".join(f"- {r.id}: {clip(r.label(), 200)}" for r in brief.requirements))
    return clip("\n".join(parts), BRIEF_CHARS)


def step_text(step: PlanStep, *, folder: str = "") -> str:
    lines = [f"Step {step.id}: {step.title} (agent: {step.agent})", f"Goal: {step.goal}"]
    if step.instructions:
        lines.append(f"Instructions: {clip(step.instructions, 1500)}")
    if step.inputs:
        lines.append("Inputs: " + ", ".join(step.inputs))
    if step.expected_outputs:
        lines.append("Expected outputs: " + ", ".join(step.expected_outputs))
    if step.acceptance_criteria:
        lines.append("Acceptance criteria:\n" + "\n".join(f"- {c}" for c in step.acceptance_criteria))
    if step.method is not None:
        lines.append(f"Method: {step.method.name} with arguments {json.dumps(step.method.arguments, default=str, sort_keys=True)}")
    if folder:
        lines.append(f"Step folder: {folder} (write files to {folder}/outputs/, figures to figures/)")
    return clip("\n".join(lines), 3500)


def values_text(values: Mapping[str, Any], limit: int = VALUES_CHARS) -> str:
    return clip(json.dumps(values, default=str, sort_keys=True), limit)


def checks_text(checks: Sequence[CheckResult]) -> str:
    """One line per check, as the method printed it."""
    return "\n".join(f"[{'pass' if c.passed else 'FAIL'}] {c.name}: {c.message}" for c in checks)


def checks_line(checks: Sequence[CheckResult]) -> str:
    """``k of n checks passed (failed: a, b)`` — a check summary that fits in a recent-steps line."""
    if not checks:
        return ""
    failed = [c.name for c in checks if not c.passed]
    return f"{len(checks) - len(failed)} of {len(checks)} checks passed" + (
        f" (failed: {', '.join(failed)})" if failed else "")
