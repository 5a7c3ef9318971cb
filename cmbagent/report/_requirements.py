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
from collections.abc import Callable, Iterable, Mapping, Sequence
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

__all__ = ["cell_reader", "check_requirements", "delivered_text", "write_requirements"]

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


def _done(steps: Mapping[str, StepRecord]) -> list[StepRecord]:
    return [r for r in steps.values() if r.status is StepStatus.DONE]


def _explained(delivered: str, name: str) -> bool:
    """Whether the report says why a named file was not used (its name beside "not used", "ignored", ...)."""
    base = re.escape(name.rsplit("/", 1)[-1])
    return bool(re.search(rf"{base}[^.]{{0,120}}\b(?:not used|unused|ignored|could not|cannot|instead)\b|"
                          rf"\b(?:not used|unused|ignored|could not|cannot|instead)\b[^.]{{0,120}}{base}",
                          delivered, re.I))


def _check_file(req: Requirement, steps: Mapping[str, StepRecord], delivered: str,
                code: Callable[[StepRecord], str]) -> RequirementCheck:
    """A file the task names is read by a step in the role the task's words give it: passed to a method
    argument of that role, or (when no method step ran) read by a completed cell."""
    from cmbagent.agents import argument_roles

    name, role = req.file or "", req.role or "data"
    done = _done(steps)
    methods = [r for r in done if r.method]
    for record in methods:
        for argument, value in record.arguments.items():
            # a file among a list argument's ("the two chains": ``more_chains``) is read too
            if value != name and not (isinstance(value, (list, tuple)) and name in value):
                continue
            roles = argument_roles(argument)
            if role in roles or role == "data":
                return RequirementCheck(requirement=req, met=True, step_id=record.id,
                                        evidence=f"step {record.id} ran {record.method} with {argument} = {name}")
            return RequirementCheck(requirement=req, met=False, severity="error", step_id=record.id,
                                    evidence=f"step {record.id} passed {name} to {record.method} as {argument!r}, but "
                                             f"the task's words make it the {role}")
    if not methods:
        base = name.rsplit("/", 1)[-1]
        readers = [r for r in done if r.cell and base in code(r)]
        if readers:
            return RequirementCheck(requirement=req, met=True, step_id=readers[-1].id,
                                    evidence=f"step {readers[-1].id}'s code reads {name}")
    last = methods[-1].id if methods else "task"
    if _explained(delivered, name):
        return RequirementCheck(requirement=req, met=False, severity="warning", step_id=last,
                                evidence=f"no step read {name} as the {role}; the report says why")
    contradicts = bool(methods) and role != "data"
    what = (f"step {methods[-1].id} ran {methods[-1].method} without it" if methods else "no step read it")
    return RequirementCheck(requirement=req, met=False, severity="error" if contradicts else "warning",
                            step_id=last, evidence=f"{what} (the task names {name} as the {role})")


def _said(number: float, text: str) -> bool:
    """Whether ``text`` writes ``number`` (as 0.3, 0.30, 3e-1, 30% for 0.3, 5 for 5.0)."""
    for match in _NUMBER.finditer(text):
        try:
            found = float(match.group(0))
        except ValueError:
            continue
        if abs(found - number) <= 1e-9 * max(1.0, abs(number)):
            return True
        tail = text[match.end():match.end() + 1]
        if tail == "%" and abs(found / 100.0 - number) <= 1e-9:
            return True
    return False


def _check_number(req: Requirement, steps: Mapping[str, StepRecord], code: Callable[[StepRecord], str]) -> RequirementCheck:
    """A number the task states as a setting appears in what ran: a method argument, a cell's code, or what a
    method step says it did (its summary: "111 rows with zHD <= 0.01 dropped")."""
    from cmbagent.agents import values_in

    value = req.value if isinstance(req.value, (int, float)) else None
    done = _done(steps)
    methods = [r for r in done if r.method]
    if value is None:
        return RequirementCheck(requirement=req, met=None, evidence="not a number")
    for record in done:
        if any(abs(v - value) <= 1e-9 * max(1.0, abs(value)) for v in values_in(record.arguments)):
            return RequirementCheck(requirement=req, met=True, step_id=record.id,
                                    evidence=f"step {record.id} ran with {value:g}")
        if (record.cell and _said(value, code(record))) or (record.method and _said(value, record.summary)):
            return RequirementCheck(requirement=req, met=True, step_id=record.id,
                                    evidence=f"step {record.id} used {value:g}")
    last = methods[-1].id if methods else "task"
    # a setting the analysis ran without contradicts the task; a threshold may as well describe a result
    # ("lengths with ≥ 85% of the base score"), so an unused one is a warning to look at, not a contradiction
    contradicts = bool(methods) and req.quantity != "threshold"
    return RequirementCheck(requirement=req, met=False, severity="error" if contradicts else "warning", step_id=last,
                            evidence=f"the task states {req.quantity} {value:g}; nothing that ran used it"
                                     + (f" (step {last} ran {methods[-1].method} without it)" if methods else ""))


_ASPECT_ARGUMENTS = {"model": ("model",), "classifier": ("model", "classifier")}


def _choices_of(method: str | None, argument: str) -> list[str]:
    """The values an enum argument of ``method`` takes ([] for an unknown method or a free argument)."""
    from cmbagent.exceptions import UnknownMethodError
    from cmbagent.tools.methods import get_method

    try:
        schema = get_method(method or "").arguments.get(argument) or {}
    except UnknownMethodError:
        return []
    values = list(schema.get("enum") or []) + [v for o in schema.get("anyOf", []) for v in o.get("enum", [])]
    return [str(v) for v in values]


def _check_outcome(req: Requirement, steps: Mapping[str, StepRecord]) -> RequirementCheck:
    """The question's words for its outcome ("how many extra words ...") against the columns a method ran with:
    words that name a column the run used as its treatment or a covariate, and not its outcome, contradict it."""
    from cmbagent.agents import input_columns, names_column

    words = str(req.value or "")
    for record in reversed([r for r in _done(steps) if r.method and isinstance(r.arguments.get("outcome"), str)]):
        outcome = record.arguments["outcome"]
        if names_column(words, outcome):
            return RequirementCheck(requirement=req, met=True, step_id=record.id,
                                    evidence=f"step {record.id} ran {record.method} with outcome {outcome!r}")
        others = [c for c in input_columns(record.arguments) if names_column(words, c)]
        if others:
            return RequirementCheck(requirement=req, met=False, severity="error", step_id=record.id,
                                    evidence=f"the question asks about “{words}”, which names {others[0]}; step "
                                             f"{record.id} ran {record.method} with {others[0]} as an input and "
                                             f"{outcome!r} as the outcome")
        return RequirementCheck(requirement=req, met=None, step_id=record.id,
                                evidence=f"“{words}” names no column step {record.id} ran with")
    return RequirementCheck(requirement=req, met=None, evidence="no completed step has an outcome to compare")


def _check_word(req: Requirement, steps: Mapping[str, StepRecord]) -> RequirementCheck:
    """Model and estimand words fix what ran: the method's value for that aspect is one the words allow."""
    if req.quantity == "outcome":
        return _check_outcome(req, steps)
    accepted = [a.lower() for a in req.accepted or []]
    aspect = req.quantity or ""
    for record in reversed([r for r in _done(steps) if r.method]):
        if aspect == "estimand":
            actual = record.values.get("estimand")
        else:
            argument = next((a for a in _ASPECT_ARGUMENTS.get(aspect, ()) if a in record.arguments
                             and set(accepted) & {c.lower() for c in _choices_of(record.method, a)}), None)
            actual = record.arguments.get(argument) if argument else None  # only an argument that offers the words
        if not isinstance(actual, str):
            continue
        if actual.lower() in accepted or any(a in actual.lower().split() for a in accepted):
            return RequirementCheck(requirement=req, met=True, step_id=record.id,
                                    evidence=f"step {record.id} ran {record.method} with {aspect} {actual!r}")
        return RequirementCheck(requirement=req, met=False, severity="error", step_id=record.id,
                                evidence=f"step {record.id} ran {record.method} with {aspect} {actual!r}, which "
                                         f"“{req.value}” rules out")
    return RequirementCheck(requirement=req, met=None, evidence=f"no completed step has a {aspect} to compare")


def check_requirements(requirements: Sequence[Requirement], steps: Mapping[str, StepRecord],
                       delivered: str, code: Callable[[StepRecord], str] | None = None) -> list[RequirementCheck]:
    """Each requirement checked against the steps' records (arguments as run, values, figures, the code of
    their cells through ``code``) and the text the run delivered (see :func:`delivered_text`)."""
    read = code or (lambda record: "")
    checks = []
    for req in requirements:
        if req.kind == "argument":
            checks.append(_check_argument(req, steps))
        elif req.kind == "file":
            checks.append(_check_file(req, steps, delivered, read))
        elif req.kind == "number":
            checks.append(_check_number(req, steps, read))
        elif req.kind == "word":
            checks.append(_check_word(req, steps))
        else:
            checks.append(_check_output(req, steps, delivered))
    return checks


def cell_reader(folder: RunFolder) -> Callable[[StepRecord], str]:
    """The accepted cell's code of a step (empty when it has none or it cannot be read)."""
    from cmbagent.paths import read_beneath

    def code(record: StepRecord) -> str:
        if not record.cell:
            return ""
        try:
            return read_beneath(folder.path, record.cell, limit=400_000).decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""

    return code


def write_requirements(folder: RunFolder, checks: Sequence[RequirementCheck]) -> None:
    """``requirements.json``: the checklist with each item's verdict (``met`` null until the run ends)."""
    from cmbagent.run import write_json

    met = [c.met for c in checks]
    write_json(folder.path / "requirements.json", {
        "items": [c.model_dump(mode="json") for c in checks],
        "met": sum(1 for m in met if m is True), "unmet": sum(1 for m in met if m is False),
        "unchecked": sum(1 for m in met if m is None),
    })
