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

from cmbagent.cells import RESULT_BEGIN, RESULT_END
from cmbagent.state import CheckResult, PlanStep, Requirement, TaskBrief

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
    "output_unrepeated",
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


OMITTED = " characters omitted] …"


def head_tail(text: str, head: int = OUTPUT_HEAD, tail: int = OUTPUT_TAIL) -> str:
    """Keep the start and the end of a long output (errors and results are usually at the end)."""
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n… [{len(text) - head - tail}{OMITTED}\n{text[-tail:]}"


def output_format(schema: type[BaseModel] | None, *, compact: bool = False) -> str:
    """A compact description of the reply's fields (the full JSON schema goes to the provider).

    ``compact`` (a model that takes compact prompts: a local llama.cpp server, whose grammar enforces every field,
    type and bound of the schema) names the fields only: their types and descriptions would be prefill the grammar
    makes redundant.
    """
    if schema is None:
        return ""
    if compact:
        return f"Reply with one JSON object ({schema.__name__}) with the fields {', '.join(schema.model_fields)}."
    lines = [f"Reply with one JSON object ({schema.__name__}) with these fields:"]
    for name, field in schema.model_fields.items():
        kind = getattr(field.annotation, "__name__", None) or str(field.annotation).replace("typing.", "")
        doc = f": {field.description}" if field.description else ""
        lines.append(f"- {name} ({kind}){doc}")
    return "\n".join(lines)


def brief_text(brief: TaskBrief, *, compact: bool = False) -> str:
    """The brief as agents are told it.  ``compact`` (see :func:`output_format`) lists a requirement once: not
    one that only restates an argument of the requested method (the "Method requested" line shows it), nor the
    same item twice."""
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
    requirements = _told_requirements(brief) if compact else brief.requirements
    if requirements:  # what code checks at the end: every agent sees them
        parts.append("Requirements of the task (checked by code at the end):\n"
                     + "\n".join(f"- {r.id}: {clip(r.label(), 200)}" for r in requirements))
    return clip("\n".join(parts), BRIEF_CHARS)


def _told_requirements(brief: TaskBrief) -> list[Requirement]:
    """The requirements a compact brief lists: each label once, and no argument the method line already shows
    with the same value (code checks all of them at the end whatever the prompt lists)."""
    shown: set[str] = set()
    told = []
    for req in brief.requirements:
        restated = (req.kind == "argument" and req.relation == "equals" and req.argument in brief.arguments
                    and req.method in (None, brief.method) and brief.arguments[req.argument] == req.value)
        label = req.label()
        if not restated and label not in shown:
            shown.add(label)
            told.append(req)
    return told


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


def values_text(values: Mapping[str, Any], limit: int = VALUES_CHARS, *, compact: bool = False) -> str:
    """The values as JSON.  ``compact`` (see :func:`output_format`) writes each float with
    :data:`COMPACT_DIGITS` significant digits: ten digits of a posterior mean are prefill, not evidence (a number
    a summary copies from them still matches the value it rounds)."""
    return clip(json.dumps(_rounded(values) if compact else values, default=str, sort_keys=True), limit)


COMPACT_DIGITS = 4


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return float(f"{value:.{COMPACT_DIGITS}g}")
    if isinstance(value, Mapping):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(item) for item in value]
    return value


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


RESULT_SHOWN = "[the cell's result block: its values and checks are shown in their own sections]"


def output_unrepeated(output: str, shown: Sequence[str]) -> str:
    """A cell's printed output without what the prompt shows elsewhere, for a model that takes compact prompts
    (see :func:`output_format`): the result block between the result markers (code parsed it into the values and
    checks sections) becomes one line saying so, and an output line that is, word for word, a line of another
    section of the same prompt (``shown``: a method's check lines, its summary) is left out.  Nothing else of the
    output is cut, so what the cell printed of its own stays in front of the model."""
    begin = output.find(RESULT_BEGIN)
    if begin < 0 and RESULT_END in output:  # head_tail cut the block's beginning: it starts at the cut
        begin = output.rfind(OMITTED, 0, output.find(RESULT_END))
        begin = output.find("\n", begin) + 1 if begin >= 0 else -1
    if begin >= 0:
        end = output.find(RESULT_END, begin)
        tail = output[end + len(RESULT_END):].strip() if end >= 0 else ""
        output = output[:begin].rstrip() + "\n" + RESULT_SHOWN + ("\n" + tail if tail else "")
    elsewhere = {line.strip() for body in shown for line in body.splitlines() if line.strip()}
    return "\n".join(line for line in output.splitlines() if line.strip() not in elsewhere).strip()
