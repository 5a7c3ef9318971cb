"""Numbers placed by meaning: a setting the rules could not read, matched to the argument its words mean.

The rules of :mod:`cmbagent.agents._understand` read a number next to its argument's own words ("width 6",
"150 optimisation steps" for ``steps``).  A scientist often describes a setting instead of naming it: "let the
symmetry moves spread with a log-scale of 0.8" is ``orbit_scale`` ("Spread of log c in the generated symmetry
moves"), "two old edits go back in with each fresh one" is ``replay_ratio`` ("Earlier edits mixed in per new
edit").  Before this, such a number was left to the number net (:func:`cmbagent.agents._reading.unread`) and the
task ended in a question every time, whatever the wording.

Here each number the reading accounted for nowhere is compared, by the embedding model the method choice uses,
with every open numeric argument of the method: the words of the clause that holds the number against the
argument's name and documentation.  The number goes to an argument only when all of these hold, and otherwise
stays the question it was:

* the clause is close to the argument (cosine similarity at least :data:`CLOSE`);
* it is clearly closer to that argument than to any other open one (by at least :data:`MARGIN`), and clearly
  closer than any other unplaced number whose closest argument is the same one;
* the value fits the argument's schema (a whole number for an integer, inside its bounds, a percentage as a
  fraction where the argument is one).

Every value placed so records the similarity as its confidence and says in its evidence that it was read by
meaning, with the clause; the run's reading shows both.  The thresholds were set on the spent prose sets, where
every expected argument is known (docs/understanding.md, "Numbers by meaning").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cmbagent.agents._meaning import _vectors, embedder
from cmbagent.agents._numbers import StatedNumber
from cmbagent.agents._understand import Understanding, _is_fraction, _types, clip_quote
from cmbagent.state import Requirement

#: the least cosine similarity between a number's clause and an argument's words for the number to go there
CLOSE = 0.45
#: how much closer than the runner-up (another argument for the number, or another number for the argument)
MARGIN = 0.25
#: arguments no prose number is placed in by meaning (file bookkeeping)
_NEVER = frozenset({"output_dir"})
#: where a clause ends inside a sentence
_CLAUSE_END = re.compile(r"[,;:()]|\s[—–]\s|\s(?:and|but|while|whereas|then)\s")
#: a number that is a factor of what is meant ("3 × 10^4", "2.5e", "10^")
_SCALED = re.compile(r"\s*(?:[×x*·]\s*10|\^|e[-+]?\d)")
_DIGITS = re.compile(r"[-+−]?\d[\d.,]*(?:[eE][-+]?\d+)?%?")


def clause_of(sentence: str, start: int, raw: str) -> str:
    """The words of ``sentence`` that describe the number written ``raw`` at ``start``, without numbers: its
    clause, and where the clause holds other numbers, only the words between them that are this one's ("record 40
    episodes with the expert perturbed by noise at 20% of the action range": "record episodes with the expert" for
    40, "with the expert perturbed by noise at of the action range" for 20%)."""
    end = start + len(raw)
    before = [m.end() for m in _CLAUSE_END.finditer(sentence, 0, start)]
    after = _CLAUSE_END.search(sentence, end)
    left = before[-1] if before else 0
    right = after.start() if after else len(sentence)
    others = [m for m in _DIGITS.finditer(sentence, left, right) if m.end() <= start or m.start() >= end]
    earlier = [m for m in others if m.end() <= start]
    later = [m for m in others if m.start() >= end]
    head = sentence[earlier[-1].end():start] if earlier else sentence[left:start]
    if earlier:  # the first word after the number before is that number's noun ("40 episodes")
        head = re.sub(r"^\s*\S+", " ", head, count=1)
    tail = _DIGITS.sub(" ", sentence[end:right])
    if later:  # a number after: its own words lead up to it, so this one keeps a few words only (past a number
        tail = " ".join(tail.split()[:4])  # inside its noun phrase: "300 rank-2 LoRA adapters")
    words = _DIGITS.sub(" ", f"{head} {raw} {tail}")  # a ratio's own words: "one earlier edit for every four"
    return " ".join(words.split()).strip(" .!?")


def _argument_text(name: str, doc: str) -> str:
    """An argument as words: its name spelled out and the first sentence of its documentation."""
    first = re.split(r"(?<=[.!?])\s+", doc.strip(), maxsplit=1)[0] if doc.strip() else ""
    return f"{name.replace('_', ' ')}: {first}".strip(": ")


def _scalar_numeric(schema: Mapping[str, Any]) -> bool:
    kinds = _types(schema)
    return bool(kinds & {"integer", "number"}) and not kinds & {"array", "object", "boolean"}


def _in_formula(name: str, doc: str) -> bool:
    """Whether the documentation defines the argument inside an expression ("D = n^(1/(1+alpha))"): the prose
    may state the expression's value (n to the power 0.8), which is not the argument's."""
    word = re.escape(name)
    return bool(re.search(rf"[-+*/^]\s*\(?\s*{word}\b|\b{word}\s*\)?\s*[-+*/^]", doc))


def _bounds(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [schema, *[o for o in schema.get("anyOf", []) if o.get("type") in ("integer", "number")]]


def fitting_value(values: Sequence[float], raw: str, schema: Mapping[str, Any], doc: str) -> float | int | None:
    """The first of a number's meanings that the argument's schema takes (None: none does)."""
    kinds = _types(schema)
    fraction = _is_fraction(schema, doc)
    for value in values:
        if raw.endswith("%") and not fraction and value < 1 <= abs(value * 100):
            continue  # "20%" of a count is no 0.2
        if "integer" in kinds and "number" not in kinds:
            if not float(value).is_integer():
                continue
            value = int(value)
        for part in _bounds(schema):
            low, high = part.get("minimum"), part.get("maximum")
            above, below = part.get("exclusiveMinimum"), part.get("exclusiveMaximum")
            if (low is not None and value < low) or (high is not None and value > high) \
                    or (above is not None and value <= above) or (below is not None and value >= below):
                break
        else:
            return value
    return None


def place_numbers(spec: Any, understood: Understanding, numbers: Sequence[StatedNumber]) -> list[str]:
    """Put each of ``numbers`` (those the reading ``understood`` accounted for nowhere) into the open numeric
    argument its clause means, where that is clear (see the module docstring); returns the arguments placed."""
    if embedder() is None:
        return []
    open_arguments = [name for name, schema in spec.arguments.items()
                      if name not in understood.arguments and name not in _NEVER and _scalar_numeric(schema)
                      and not _in_formula(name, spec.argument_docs.get(name, ""))]
    if not numbers or not open_arguments:
        return []
    clauses = [clause_of(n.sentence, n.start, n.raw) for n in numbers]
    docs = {name: spec.argument_docs.get(name, "") for name in open_arguments}
    usable = [i for i, c in enumerate(clauses) if len(re.findall(r"[A-Za-z]{3,}", c)) >= 1]
    if not usable:
        return []
    numbers_v = _vectors([clauses[i] for i in usable])
    arguments_v = _vectors([_argument_text(name, docs[name]) for name in open_arguments])
    if numbers_v is None or arguments_v is None:
        return []
    similarity = numbers_v @ arguments_v.T
    placed: list[str] = []
    for row, i in enumerate(usable):
        number = numbers[i]
        order = similarity[row].argsort()[::-1]
        best = int(order[0])
        closest = float(similarity[row, best])
        runner_up = float(similarity[row, order[1]]) if len(order) > 1 else 0.0
        # another number that means the same argument most (two numbers for one argument: neither is sure)
        rival = max((float(similarity[other, best]) for other in range(len(usable))
                     if other != row and int(similarity[other].argmax()) == best), default=0.0)
        if closest < CLOSE or closest - runner_up < MARGIN or closest - rival < MARGIN:
            continue
        if _SCALED.match(number.sentence, number.start + len(number.raw)):
            continue  # "3 × 10^4 steps": the number written is a factor of the value meant
        name = open_arguments[best]
        value = fitting_value(number.values, number.raw, spec.arguments[name], docs[name])
        if value is None or name in understood.arguments:
            continue
        quote = number.sentence
        understood.arguments[name] = value
        understood.confidence[name] = round(closest, 2)
        understood.evidence[name] = (f"read by meaning: “{clip_quote(clauses[i])}” is closest to {name} "
                                     f"(similarity {closest:.2f}, next {max(runner_up, rival):.2f})")
        understood.by_meaning[name] = (f"the text's {number.raw} (“{clip_quote(quote, 90)}”) read by meaning as "
                                       f"{name} (similarity {closest:.2f}, next {max(runner_up, rival):.2f})")
        understood.requirements.append(Requirement(kind="argument", text=quote.strip()[:240], source="text",
                                                   method=spec.name, argument=name, relation="equals",
                                                   value=value))
        understood.questions = [q for q in understood.questions if not q.startswith(f"the text states {name!r}")]
        placed.append(name)
    return placed


def open_settings(spec: Any, understood: Understanding) -> list[str]:
    """The method's settings the reading left at their defaults: not files, not columns, not bookkeeping."""
    from cmbagent.agents._understand import column_arguments
    from cmbagent.tools.methods import path_arguments

    skip = set(path_arguments(spec.name)) | set(column_arguments(spec)) | _NEVER
    return [name for name in spec.arguments if name not in understood.arguments and name not in skip]


def _pieces(text: str) -> list[str]:
    """The text's clauses of three words or more (sentences cut at commas, semicolons, colons and dashes)."""
    from cmbagent.agents._datamap import sentences

    out = []
    for sentence in sentences(text):
        for piece in re.split(r"[,;:]\s|\s[—–]\s|\(|\)", " ".join(sentence.split())):
            if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 3:
                out.append(piece.strip())
    return out


def closest_clause(spec: Any, name: str, text: str) -> tuple[float, str]:
    """The clause of ``text`` closest in meaning to the argument ``name``, with its cosine similarity."""
    pieces = _pieces(text)
    if not pieces or embedder() is None:
        return 0.0, ""
    pieces_v = _vectors(pieces)
    argument_v = _vectors([_argument_text(name, spec.argument_docs.get(name, ""))])
    if pieces_v is None or argument_v is None:
        return 0.0, ""
    similarity = pieces_v @ argument_v[0]
    best = int(similarity.argmax())
    return float(similarity[best]), pieces[best]
