"""Numbers in a narrative that no step produced: code, not a model, checks every number a model wrote.

A number in the report's summary, conclusions or limitations (or in a text step's answer) is supported when it
equals, after rounding to the digits it is written with, a value of some step (its values, its method's
diagnostics), a number in a step's output, summary or check messages, in a span quoted by a resolved citation
(the index vouches for it), or a number of the task itself; also
as a percentage of a fraction and the reverse, and as the distance of a supported value from a number the task
states (``|ATE − 4.016| = 0.0029`` when the task asks for it and a step produced 4.0131).  Integers up to 10 (counts of steps, checks, seeds) and years
are not audited, nor are digits that are part of a name (``H0``, ``Union2.1``, ``s2``, ``6_cardio``).
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Iterable, Iterator
from typing import Any

from cmbagent.audits._evidence import RunEvidence, StepEvidence
from cmbagent.audits._registry import finding, run_audit, step_audit
from cmbagent.audits._values import leaves
from cmbagent.state import Finding

__all__ = ["Support", "numbers_in", "summary_numbers"]


# a number not glued to letters, digits, '_' or '.' on either side: 0.351, -19.3, 1.2e-3, 8,865, 35%
_NUMBER = re.compile(r"(?<![\w.\-−])([-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)(%?)(?![\w]|\.\d)")
_SMALL = 10
_ANCHORS = 200  # task numbers a distance may be measured from


def numbers_in(text: str) -> Iterator[tuple[str, float, int, bool]]:
    """``(as written, value, decimals, percent)`` for each number of ``text`` (decimals < 0 for 1.2e4-style)."""
    for match in _NUMBER.finditer(text):
        raw, percent = match.group(1), bool(match.group(2))
        clean = raw.replace(",", "").replace("−", "-")
        try:
            value = float(clean)
        except ValueError:
            continue
        mantissa, _, exponent = clean.lower().partition("e")
        decimals = len(mantissa.split(".")[1]) if "." in mantissa else 0
        if exponent:
            decimals -= int(exponent)
        yield raw, value, decimals, percent


class Support:
    """The sorted set of every number a narrative may quote."""

    def __init__(self, numbers: Iterable[float], anchors: Iterable[float] = (), values: Iterable[float] = (),
                 exact: Iterable[float] = ()):
        def clean(xs: Iterable[Any]) -> list[float]:
            return sorted({abs(float(x)) for x in xs if isinstance(x, (int, float)) and not isinstance(x, bool)
                           and math.isfinite(x)})

        self._sorted = clean(numbers)
        self._anchors = clean(anchors)[:_ANCHORS]
        self._values = Support(values) if anchors else None  # what a distance may end at: a step's own value
        self._exact = Support(exact) if exact else None  # quoted only as written: no percentage, no distance

    @classmethod
    def of(cls, values: Iterable[Any], texts: Iterable[str], task_text: str = "", exact: Iterable[float] = ()) -> Support:
        """Every number of ``values`` and ``texts``; the numbers of ``task_text`` are also anchors of distances;
        ``exact`` numbers (wall-clock timings) support only themselves."""
        found: list[float] = []
        for value in values:
            found += [v for _, v in leaves(value, limit=5000) if isinstance(v, (int, float))]
            found += list(_numeric_keys(value))  # tables keyed by a number ({250: 0.96, 500: 0.48}) quote their keys
        own = list(found)
        for text in [*texts, task_text]:
            found += [v for _, v, _, _ in numbers_in(text)]
        anchors = [v for _, v, decimals, _ in numbers_in(task_text) if _audited(v, decimals)]
        return cls(found, anchors, own, exact)

    def __len__(self) -> int:
        return len(self._sorted)

    def has(self, value: float, decimals: int) -> bool:
        tol = 0.5 * 10.0 ** (-decimals) * (1 + 1e-9) + 1e-12
        target = abs(value)
        at = bisect.bisect_left(self._sorted, target - tol)
        return at < len(self._sorted) and self._sorted[at] <= target + tol

    def supports(self, value: float, decimals: int, percent: bool) -> bool:
        if self.has(value, decimals) or (self._exact is not None and not percent and self._exact.has(value, decimals)):
            return True
        if percent or abs(value) > 1:  # 35% of a fraction 0.35, or a fraction written as a percentage
            if self.has(value / 100.0, decimals + 2):
                return True
        elif self.has(value * 100.0, max(decimals - 2, 0)):
            return True
        # the distance of a step's value from a number of the task (a bias against a known truth), written
        # with at least 3 significant digits: a shorter one would match some pair by chance
        if percent or self._values is None or value == 0 or decimals + math.floor(math.log10(abs(value))) + 1 < 3:
            return False
        return any(self._values.has(a + value, decimals) or self._values.has(a - value, decimals)
                   for a in self._anchors)


def _numeric_keys(value: Any) -> Iterator[float]:
    if isinstance(value, dict):
        for key, item in value.items():
            try:
                yield float(key)
            except (TypeError, ValueError):
                pass
            yield from _numeric_keys(item)
    elif isinstance(value, (list, tuple)) and len(value) <= 5000:
        for item in value:
            yield from _numeric_keys(item)


def _audited(value: float, decimals: int) -> bool:
    if decimals <= 0 and float(value).is_integer():
        if abs(value) <= _SMALL or 1900 <= abs(value) <= 2100:
            return False
    return True


def unsupported(texts: dict[str, str], support: Support) -> list[tuple[str, str, str]]:
    """``(where, number, sentence)`` for every audited number of ``texts`` that ``support`` lacks."""
    out: list[tuple[str, str, str]] = []
    for where, text in texts.items():
        for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
            for raw, value, decimals, percent in numbers_in(sentence):
                if _audited(value, decimals) and not support.supports(value, decimals, percent):
                    out.append((where, raw + ("%" if percent else ""), sentence.strip()[:240]))
    return out


@run_audit("report.unsupported_number")
def report_numbers(ev: RunEvidence) -> Iterator[Finding]:
    draft = ev.draft
    texts = {"summary": draft.summary, **{f"conclusion {n}": c for n, c in enumerate(draft.conclusions, 1)},
             **{f"limitation {n}": c for n, c in enumerate(draft.limitations, 1)}}
    support = Support.of([r.values for r in ev.steps], ev.texts, ev.task_text, exact=ev.clock)
    for where, number, sentence in unsupported(texts, support)[:12]:
        yield finding("report.unsupported_number",
                      f"the report's {where} states {number}, which matches no value or output of any step "
                      f"(“{sentence}”)", number=number, where=where)


@run_audit("report.answer_missing")
def report_answers(ev: RunEvidence) -> Iterator[Finding]:
    """The summary answers with the run's results: it names a top-level value of a completed step or writes one
    of its numbers.  SmolLM2's summary repeated "the method applied to" until its length ran out, in a run
    whose fit was right; nothing else in the narrative was wrong enough for the other audits to see."""
    results = {name: value for r in ev.steps if r.status == "done" for name, value in r.values.items()
               if any(isinstance(v, (int, float)) and not isinstance(v, bool) for _, v in leaves(value, limit=6))}
    if not results:
        return  # nothing computed: an interpretation or a stopped run has no number to state
    summary = ev.draft.summary
    lowered = summary.lower()
    support = Support.of(list(results.values()), [])
    if any(re.search(rf"(?<![A-Za-z0-9_]){re.escape(name.lower())}(?![A-Za-z0-9_])", lowered) for name in results) \
            or any(_audited(v, d) and (d > 0 or abs(v) >= 100) and support.has(v, d)
                   for _, v, d, _ in numbers_in(summary)):
        if repetitive(summary):  # "V = 0.293 vs α = 0.100 for random screening", three times over: no answer
            yield finding("report.answer_missing", f"the report's summary repeats one phrase over and over: "
                          f"“{summary.strip()[:160]}”", results=list(results)[:12])
        return
    named = ", ".join(list(results)[:6])
    yield finding("report.answer_missing", f"the report's summary states none of the run's results ({named}): "
                  f"“{summary.strip()[:160]}”", results=list(results)[:12])


def repetitive(text: str) -> bool:
    """A text that says one phrase over and over: some four words in a row, three times or more, counting words
    only (SmolLM2: "The report has a detailed report of the plan, the report has a detailed report of the plan,
    ..."; "V = 0.293 vs Alpha = 0.100 for random screening" 27 times).  Numbers, identifiers and one-letter words
    are not counted, nor words quoted or followed by a colon, so a list of key numbers ("k = 1: unseen_accuracy
    0.02; ...") or a printed table ("{'edit': 1.0, 'rephrase': 0.45, ...}") does not repeat."""
    plain = [t for t in text.split() if not set(t) & set("'\"{}[]=:")]  # a key or value of printed data is not prose
    words = [w for w in (t.strip(".,;!?()").lower() for t in plain) if len(w) >= 2 and w.isalpha()]
    grams = [" ".join(words[i:i + 4]) for i in range(len(words) - 3)]
    counts: dict[str, int] = {}
    for gram in grams:
        counts[gram] = counts.get(gram, 0) + 1
    return any(n >= 3 for n in counts.values())


def summary_numbers(summary: str, *, values: Any, texts: Iterable[str], task_text: str) -> list[tuple[str, str]]:
    """``(number, sentence)`` for each number of a step's summary that its values, its output and checks
    (``texts``) and the task do not hold: a summary is model text, and later audits take it as support."""
    support = Support.of([values], texts, task_text)
    return [(number, sentence) for _, number, sentence in unsupported({"summary": summary}, support)[:12]]


@step_audit("report.unsupported_number")
def answer_numbers(ev: StepEvidence) -> Iterator[Finding]:
    """A text step's answer may quote only numbers of earlier steps, of the task, of its own output, or of the
    passages it cites (a resolved citation quotes its source word for word, so the source vouches for them)."""
    if not ev.answer or ev.cell is not None:
        return
    texts = [*(r.summary for r in ev.earlier), *(c.message for r in ev.earlier for c in r.checks),
             *ev.quotes, *(c.quote for r in ev.earlier for c in r.citations)]
    support = Support.of([r.values for r in ev.earlier], texts, ev.task_text)
    for where, number, sentence in unsupported({"answer": ev.answer}, support)[:12]:
        yield finding("report.unsupported_number",
                      f"the step's {where} states {number}, which matches no value or output of an earlier step "
                      f"(“{sentence}”)", number=number, where=where)
