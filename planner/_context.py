"""Bounded contexts for model calls (DESIGN.md: "Each LLM call gets a bounded context").

Every section has a fixed character budget, and history enters only as the last few step summaries, so a
prompt at step 20 is no larger than at step 2.  Paths are run-relative and nothing time-dependent enters
a prompt, so a replayed run asks exactly what the recorded run asked.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from cmbagent.planner._plan import Plan, PlanStep

__all__ = [
    "RECENT_STEPS",
    "brief_text",
    "clip",
    "head_tail",
    "output_format",
    "recent_text",
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


def brief_text(brief: dict[str, Any]) -> str:
    parts = [f"Title: {brief.get('title', '')}", f"Objective: {brief.get('objective', '')}"]
    if brief.get("domain"):
        parts.append(f"Domain: {brief['domain']}")
    if brief.get("data_files"):
        parts.append("Data files: " + ", ".join(brief["data_files"]))
    if brief.get("method"):
        parts.append(f"Method requested: {brief['method']} with arguments {json.dumps(brief.get('arguments', {}))}")
    for key in ("constraints", "deliverables"):
        if brief.get(key):
            parts.append(f"{key.capitalize()}:\n" + "\n".join(f"- {item}" for item in brief[key]))
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
        lines.append(f"Method: {step.method.name} with arguments {json.dumps(step.method.arguments)}")
    if folder:
        lines.append(f"Step folder: {folder} (write files to {folder}/outputs/, figures to figures/)")
    return clip("\n".join(lines), 3500)


def values_text(values: dict[str, Any], limit: int = VALUES_CHARS) -> str:
    return clip(json.dumps(values, default=str), limit)


def recent_text(plan: Plan, results: dict[str, dict[str, Any]], current: str | None) -> str:
    """Summaries of the last :data:`RECENT_STEPS` finished steps before ``current`` (bounded)."""
    finished = [s for s in plan.steps if s.id in results and s.id != current]
    if current is not None:
        order = [s.id for s in plan.steps]
        if current in order:
            finished = [s for s in finished if order.index(s.id) < order.index(current)]
    lines = []
    for step in finished[-RECENT_STEPS:]:
        record = results[step.id]
        text = (
            f"[{step.id} {record.get('status')}] {step.title} (folder {record.get('dir', '')}): "
            f"{record.get('summary') or record.get('reason') or ''}"
        )
        if record.get("values"):
            text += f" Values: {values_text(record['values'], 300)}"
        lines.append(clip(text, SUMMARY_CHARS))
    return "\n".join(lines) if lines else "(no earlier steps)"
