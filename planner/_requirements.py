"""Checking the task's requirements against what the run actually did (code, not a model).

An argument requirement is met when every completed step that ran the method ran it with that value (or,
for ``excludes``, without those items); an output requirement when the run delivered it — the number,
the comparison or the figure — in the narrative it reports (the text steps' answers and the report's own
summary, conclusions and limitations).  An unmet item is an error when the run contradicts the task (an
argument with another value, a wrong "best") and a warning when something requested is missing or could not
be verified.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cmbagent.run import RunFolder
from cmbagent.state import (
    IMAGE_SUFFIXES,
    ReportDraft,
    Requirement,
    RequirementCheck,
    StepRecord,
    StepStatus,
    best_entry,
    requested_number,
    same_value,
)

__all__ = ["check_requirements", "delivered_text", "write_requirements"]

_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.(\d+))?(?:[eE][-+]?\d+)?")


def delivered_text(folder: RunFolder, steps: Mapping[str, StepRecord], draft: ReportDraft | None) -> str:
    """What the run says to the reader: every completed text step's answer, then the report's narrative."""
    from cmbagent.paths import read_beneath

    parts: list[str] = []
    for record in steps.values():
        if record.status is StepStatus.DONE and record.answer:
            try:
                parts.append(read_beneath(folder.path, record.answer, limit=200_000).decode("utf-8", "replace"))
            except (OSError, ValueError):
                continue
    if draft is not None:
        parts += [draft.summary, *draft.conclusions, *draft.limitations]
    return "\n".join(parts)


def _method_steps(steps: Mapping[str, StepRecord], method: str | None) -> list[StepRecord]:
    return [r for r in steps.values() if r.status is StepStatus.DONE and r.method
            and (method is None or r.method == method)]


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _matches(req: Requirement, actual: Any) -> bool:
    if req.relation == "excludes":
        items = actual if isinstance(actual, (list, tuple)) else [] if actual is None else [actual]
        banned = req.value if isinstance(req.value, (list, tuple)) else [req.value]
        return not set(map(str, items)) & set(map(str, banned))
    expected = req.value
    strings = (lambda v: isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v))  # noqa: E731
    if strings(expected) and strings(actual):  # column and option lists: the set is what was asked
        return set(expected) == set(actual) and len(expected) == len(actual)
    return same_value(expected, actual)


def _check_argument(req: Requirement, steps: Mapping[str, StepRecord]) -> RequirementCheck:
    ran = _method_steps(steps, req.method)
    if not ran:
        return RequirementCheck(requirement=req, met=False, severity="warning",
                                evidence=f"no completed step ran {req.method or 'a method'}, so it could not be "
                                         "verified")
    for record in ran:
        if req.argument not in record.arguments:
            return RequirementCheck(requirement=req, met=False, severity="error", step_id=record.id,
                                    evidence=f"step {record.id} ran {record.method} without {req.argument!r}")
        actual = record.arguments[req.argument]
        if not _matches(req, actual):
            return RequirementCheck(requirement=req, met=False, severity="error", step_id=record.id,
                                    evidence=f"step {record.id} ran {record.method} with {req.argument} = "
                                             f"{_shown(actual)}")
    return RequirementCheck(requirement=req, met=True, step_id=ran[-1].id,
                            evidence=f"step {ran[-1].id} ran {ran[-1].method} with it")


def _numbers(text: str) -> Iterable[tuple[float, int]]:
    for match in _NUMBER.finditer(text):
        try:
            yield float(match.group(0)), len(match.group(1) or "")
        except ValueError:
            continue


def _says_number(text: str, expected: float) -> bool:
    """Whether ``text`` prints ``expected`` (to the precision it prints it with, or within 1%)."""
    for number, decimals in _numbers(text):
        if abs(number - expected) <= max(0.51 * 10.0 ** -decimals, 0.01 * abs(expected), 1e-12):
            return True
    return False


def _plain(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _check_output(req: Requirement, steps: Mapping[str, StepRecord], delivered: str) -> RequirementCheck:
    ran = _method_steps(steps, None)
    last = ran[-1].id if ran else "task"
    if req.output == "figure":
        made = [f for r in steps.values() if r.status is StepStatus.DONE for f in r.figures
                if f.lower().endswith(IMAGE_SUFFIXES)]
        if made:
            return RequirementCheck(requirement=req, met=True, step_id=last, evidence=f"{len(made)} figure(s), e.g. "
                                                                                        f"{made[0]}")
        return RequirementCheck(requirement=req, met=False, severity="warning", step_id=last,
                                evidence="the run made no figure")
    if req.output == "abs_difference" and req.quantity and req.reference is not None:
        for record in reversed(ran):
            found = requested_number(record.values, req.quantity, req.reference)
            if found is None:
                continue
            name, diff = found
            said = _says_number(delivered, diff) and f"{req.reference:g}" in delivered
            return RequirementCheck(
                requirement=req, met=said, severity=None if said else "warning", step_id=record.id,
                evidence=(f"the report gives |{name} − {req.reference:g}| = {diff:.4g}" if said else
                          f"|{name} − {req.reference:g}| = {diff:.4g} (from step {record.id}) is not in the report"))
        return RequirementCheck(requirement=req, met=False, severity="warning", step_id=last,
                                evidence=f"no completed step produced a value named {req.quantity!r}")
    if req.output == "best":
        for record in reversed(ran):
            best = best_entry(record.values, req.quantity)
            if best is None:
                continue
            entry, metric, value = best
            compared = {_plain(k): k for k, v in record.values.items() if isinstance(v, Mapping)}
            claims = [s for s in re.split(r"(?<=[.!?;])\s+|\n", delivered) if re.search(r"\bbest\b", s, re.I)]
            named = [c for c in claims if _plain(entry) in _plain(c)]
            if named:
                return RequirementCheck(requirement=req, met=True, step_id=record.id,
                                        evidence=f"the report names {entry} ({metric} {value:.4g}) as best")
            wrong = [k for c in claims for p, k in compared.items() if p and p in _plain(c)]
            if wrong:
                return RequirementCheck(requirement=req, met=False, severity="error", step_id=record.id,
                                        evidence=f"the report calls {wrong[0]} best, but by {metric} it is {entry} "
                                                 f"({value:.4g})")
            return RequirementCheck(requirement=req, met=False, severity="warning", step_id=record.id,
                                    evidence=f"the report does not say which is best (by {metric}: {entry}, "
                                             f"{value:.4g})")
        return RequirementCheck(requirement=req, met=False, severity="warning", step_id=last,
                                evidence="no completed step compared methods on "
                                         + (req.quantity or "a common metric"))
    quantity = req.quantity or ""
    has = any(_plain(quantity) in map(_plain, r.values) for r in ran)
    return RequirementCheck(requirement=req, met=has, severity=None if has else "warning", step_id=last,
                            evidence=f"{'a' if has else 'no'} value named {quantity!r}")


def check_requirements(requirements: Sequence[Requirement], steps: Mapping[str, StepRecord],
                       delivered: str) -> list[RequirementCheck]:
    """Each requirement checked against the steps' records (arguments as run, values, figures) and the text
    the run delivered (see :func:`delivered_text`)."""
    checks = []
    for req in requirements:
        if req.kind == "argument":
            checks.append(_check_argument(req, steps))
        else:
            checks.append(_check_output(req, steps, delivered))
    return checks


def write_requirements(folder: RunFolder, checks: Sequence[RequirementCheck]) -> None:
    """``requirements.json``: the checklist with each item's verdict (``met`` null until the run ends)."""
    from cmbagent.run import write_json

    met = [c.met for c in checks]
    write_json(folder.path / "requirements.json", {
        "items": [c.model_dump(mode="json") for c in checks],
        "met": sum(1 for m in met if m is True), "unmet": sum(1 for m in met if m is False),
        "unchecked": sum(1 for m in met if m is None),
    })
