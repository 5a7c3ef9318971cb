"""A critic's rejection of a method step must point at the result: code checks that it does.

A method step runs a registered method with its arguments fixed by the task; its numbers come with the method's
own checks and the audits' findings.  A critic that rejects it must say what in that result is wrong: a value
or check by name, a finding by code, a figure by file name, or a number of the result (after rounding to the
digits it is written with).  A rejection that cites none of these -- "c1", "fine", a date, words of another
language, all of which a 135M-parameter model produced through a grammar that made them well formed -- gives
the retry nothing to change, so it is not acted on: the step is decided by the other critics and the audits,
and a ``critic.unsupported`` warning says in the report that a critic objected without reasons.  A critic's
own findings that cite nothing of the result are not counted either; the same warning quotes them.

A rejection whose only citation is a finding the audits rated a note (``method.loses_to_baseline`` where the
task expects the method to lose) restates context the audits already weighed and is set aside the same way:
SmolLM2 rejected a WSAD-DT run with "error: method.loses_to_baseline", the note it had been shown, and the
step was run again for nothing.

Citing is not arguing.  A reason that is only names and numbers of the result -- a check that passed
("defensible_set_nonempty"), a figure's file name, "AUC == 0.99" -- says nothing is wrong with them (SmolLM2
rejected an X-hacking audit with exactly these, and the step ran again for nothing), so it grounds nothing
unless what it names is itself a problem: a failed check, or a finding the audits rated a warning or an
error.  A reason with words of its own ("Omega_m is far from the Planck value") stands as before.

A text step (an interpretation, a literature answer) has no values or checks; a rejection of it must cite its
words instead: a content word of its answer, key points or goal, or one of its numbers (:meth:`Grounds.of_text`).
With SmolLM2 a critic rejected an interpretation with "No idea no idea no idea" and another with "The code is
bad." (the step has no code), the step ran again and again, and the run's budget was gone (issue 30).

A plot critic that was shown the images themselves may object to what it saw (an unlabeled axis is not a
number); its rejection stands.  Steps that write code are judged as before: their critics read the output a
cell printed, and "the plot lacks the fitted line" is a fair reason that no value names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from cmbagent.audits._numbers import Support, _audited, numbers_in
from cmbagent.audits._registry import declare_code, finding
from cmbagent.audits._values import leaves
from cmbagent.state import CheckResult, Critique, Finding, Severity

__all__ = ["Grounds", "weigh_critics"]

declare_code("critic.unsupported", "warning",
             "a critic rejected a method step, or raised findings about it, without citing any value, check, "
             "finding, figure or number of its result; the rejection was not acted on, the findings not counted",
             "read the step's result yourself, or rerun with a stronger critic model (`--model`, or "
             "`[models.agents]` for step_critic, science_checker and plot_critic)")

_WORDISH = "A-Za-z0-9_"


@dataclass(frozen=True)
class Grounds:
    """What a critic of one method step may cite: names (values, checks, finding codes, figures) and numbers."""

    names: frozenset[str]
    support: Support
    notes: frozenset[str] = frozenset()  # codes of findings rated notes (context, not grounds for a rejection)
    problems: frozenset[str] = frozenset()  # failed checks and codes of warnings and errors: naming one argues

    @classmethod
    def of(cls, *, values: dict[str, Any], checks: Sequence[CheckResult], findings: Sequence[Finding],
           figures: Iterable[str] = (), method: str | None = None) -> Grounds:
        """``method``: the step's method, whose name and its parts cite nothing (a critic sees the name all over
        its context; SmolLM2's noise code ``causal.dml_ate.c`` named the figure ``figures/dml_ate.png`` by its
        stem)."""
        names: set[str] = set()
        for dotted, _ in leaves(values):
            parts = [p for p in re.split(r"[.\[\]]", dotted) if p and not p.isdigit()]
            if parts:
                names.update({parts[0], dotted})
        names.update(c.name for c in checks)
        problems = {c.name for c in checks if not c.passed}
        notes: set[str] = set()
        for f in findings:
            codes = {f.code} | ({tail} if "_" in (tail := f.code.rsplit(".", 1)[-1]) else set())
            (notes if f.severity is Severity.NOTE else names).update(codes)
            if f.severity is not Severity.NOTE:
                problems.update(codes)
        for path in figures:
            names.update({path, PurePosixPath(path).name, PurePosixPath(path).stem})
        numbers: list[Any] = [values, [c.model_dump() for c in checks], [f.evidence for f in findings]]
        own = {part.lower() for part in ([method, *method.split(".")] if method else [])}
        names = {n.lower() for n in names if n.strip()} - own
        return cls(frozenset(names), Support.of(numbers, texts=[]),
                   frozenset(n.lower() for n in notes if n.strip()) - names - own,
                   frozenset(n.lower() for n in problems if n.strip()) - own)

    @classmethod
    def of_text(cls, *, answer: str, key_points: Sequence[str] = (), goal: str = "",
                findings: Sequence[Finding] = ()) -> Grounds:
        """What a critic of a text step may cite: the content words of its answer, key points and goal (the step's
        title and goal: "part 2 is missing its argument"; four letters or more, the words any critique uses
        aside), its numbers, and the audits' findings by code."""
        text = " ".join([answer, *key_points, goal])
        words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z-]{3,}", text)} - _GENERIC
        codes = {f.code.lower() for f in findings if f.severity is not Severity.NOTE}
        return cls(frozenset(words | codes), Support.of([], texts=[answer, *key_points]), frozenset(),
                   frozenset(codes))

    def cites(self, text: str, *, notes: bool = True) -> bool:
        """Whether ``text`` names something of the result, or writes one of its numbers with three significant
        digits at least ("1.0", "12", "2022" and "0.35" match some value of a result by chance).  Without
        ``notes``, naming a finding the audits rated a note does not count."""
        lowered = text.lower()
        for name in (self.names | self.notes) if notes else self.names:
            if _named(name, lowered):
                return True
        for raw, value, decimals, percent in numbers_in(text):
            if _significant(raw) >= 3 and _audited(value, decimals) and self.support.supports(value, decimals, percent):
                return True
        return False


    def argues(self, text: str, *, notes: bool = True) -> bool:
        """Whether ``text`` :meth:`cites` the result and says something of it: it names a problem (a failed
        check, a warning's or an error's code), or it has two words of its own beside the names and numbers
        it cites ("passed", "Error: 2022-04-02T07:40" and "== 0.99" are not an argument)."""
        if not self.cites(text, notes=notes):
            return False
        lowered = text.lower()
        if any(_named(name, lowered) for name in self.problems):
            return True
        for name in sorted(self.names | self.notes, key=len, reverse=True):
            lowered = re.sub(rf"(?<![{_WORDISH}]){re.escape(name)}(?![{_WORDISH}])", " ", lowered)
        words = [w.strip(".,;:!?()[]{}\"'`") for w in lowered.split()]
        return sum(1 for w in words if len(w) >= 2 and w.isalpha()) >= 2


#: words any critique of any step may use: naming one cites nothing of the step
_GENERIC = frozenset({
    "result", "results", "answer", "answers", "value", "values", "number", "numbers", "error", "errors", "wrong",
    "correct", "previous", "attempt", "should", "would", "could", "their", "there", "which", "about", "these",
    "those", "other", "output", "figure", "figures", "files", "steps", "script", "codes", "model", "models",
    "provide", "provided", "given", "because", "without", "while", "where", "after", "before", "still", "being",
    "first", "second", "again", "every", "based", "using", "shows", "found", "makes", "state", "states",
    "stated", "data", "check", "checks", "point", "points", "issue", "issues", "description", "text", "write",
    "written", "describe", "explain", "explains", "interpret", "interpretation", "summary", "summarise",
    "code", "step", "task", "file", "good", "fine", "none", "more", "less", "very", "much", "this", "that", "with",
    "from", "have", "does", "done", "make", "need", "needs", "what", "when", "will", "into", "than", "then",
    "them", "they", "were", "your", "also", "only", "each", "some", "such", "well", "like", "just", "here",
})


def _named(name: str, lowered: str) -> bool:
    return re.search(rf"(?<![{_WORDISH}]){re.escape(name)}(?![{_WORDISH}])", lowered) is not None


def _significant(raw: str) -> int:
    """Significant digits of a number as written, trailing zeros aside: 0.351 → 3, 1.0 → 1, 1701 → 4, 1000 → 1."""
    digits = re.sub(r"\D", "", raw.lower().split("e")[0])
    return len(digits.strip("0"))


def _reasons(critique: Critique) -> list[str]:
    """Everything a rejection says in its defence."""
    out = [critique.verdict, *critique.issues]
    out += [c.evidence for c in critique.criteria if not c.met]  # the criterion is the step's words, not a reason
    out += [f"{f.code} {f.message} {f.settle}" for f in critique.findings]
    return [text for text in out if text.strip()]


def weigh_critics(verdicts: Sequence[tuple[str, Critique]], raised: Sequence[Finding], grounds: Grounds, *,
                  step_id: str, cell: str | None, saw_images: bool = False) -> tuple[set[str], list[Finding]]:
    """For a method step: the critics whose rejection is set aside, and the findings that count -- the critics'
    own findings that cite the result, and one ``critic.unsupported`` warning per critic whose rejection or
    findings cite nothing of it (those findings are quoted in it, not recorded one by one: a finding coded
    ``cmb_ag_2022061314122287_.csv`` is no finding)."""
    set_aside: set[str] = set()
    out: list[Finding] = []
    for name, critique in verdicts:
        mine = [f for f in raised if f.source == name]
        uncited = [f for f in mine if not grounds.argues(f"{f.code} {f.message} {f.settle}")]
        out += [f for f in mine if f not in uncited]
        rejected = not critique.accepted and not (name == "plot_critic" and saw_images) and \
            not any(grounds.argues(text, notes=False) for text in _reasons(critique))
        if rejected:
            set_aside.add(name)
        if not rejected and not uncited:
            continue
        parts = []
        if rejected:
            reasons = [text for text in [critique.verdict, *critique.issues] if text.strip()]
            quoted = "; ".join(repr(_clip(text)) for text in reasons[:4]) or "no reason at all"
            more = f" and {len(reasons) - 4} more" if len(reasons) > 4 else ""
            if any(grounds.cites(text, notes=False) for text in _reasons(critique)):
                named = ("named parts of its result without saying what is wrong with them (a passed check, a "
                         "value, a figure or a number, alone)")
            elif any(grounds.cites(text) for text in _reasons(critique)):
                named = ("cited only findings the audits rated notes (context they already weighed), no value, "
                         "check, figure or number of its result")
            else:
                named = "named nothing of its result (no value, check, finding, figure or number of it)"
            parts.append(f"{name} rejected this step but {named}: {quoted}{more}; the rejection was not acted on")
        if uncited:
            listed = "; ".join(repr(_clip(f"{f.severity}: {f.code}: {f.message}", 80)) for f in uncited[:3])
            more = f" and {len(uncited) - 3} more" if len(uncited) > 3 else ""
            whose = "its" if rejected else f"{name}'s"
            parts.append(f"{whose} finding(s) cite nothing of the result, or cite it without a reason, and are not "
                         f"counted: {listed}{more}")
        found = finding("critic.unsupported", "; ".join(parts), critic=name, rejection_set_aside=rejected,
                        reasons=[_clip(text) for text in _reasons(critique)[:12]],
                        uncited=[f"{f.severity}: {f.code}: {_clip(f.message)}" for f in uncited[:12]])
        out.append(found.model_copy(update={"step_id": step_id, "cell": cell, "source": name}))
    out += [f for f in raised if f.source not in {name for name, _ in verdicts}]
    return set_aside, out


def _clip(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
