"""The synthetic templated fact stream for the knowledge-editing benchmark, and the reader of a user's stream.

Facts are (subject, relation, object) over invented names, so no model knows them beforehand.  Each relation
has a prompt template, a rephrase template with other words, and a noun used in two-hop questions
("The capital of the homeland of Zorvik is" needs Zorvik's homeland, then its capital).  Base facts are the
model's prior knowledge and give the locality questions; each timestep edits facts (a new object for an
existing subject-relation or a new subject) and adds a two-hop question whose first hop is an edit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cmbagent.exceptions import DataError
from cmbagent.tools.methods.lm._io import load_records

__all__ = ["QA", "FactStream", "generate_stream", "read_stream"]

# relation -> (prompt, rephrase, noun for two-hop questions)
RELATIONS: dict[str, tuple[str, str, str]] = {
    "homeland": ("The homeland of {s} is", "{s} was born and raised in the land of", "homeland"),
    "capital": ("The capital of {s} is", "The seat of government of {s} is located in", "capital"),
    "employer": ("{s} works for", "The company that pays the salary of {s} is", "employer"),
    "instrument": ("{s} plays the", "The musical instrument that {s} performs on is the", "instrument"),
}
_SYLLABLES = ("zor", "vik", "quen", "moor", "tal", "brix", "dun", "ela", "kor", "mira", "pho", "sarn", "ul", "yev",
              "gan", "lor", "tis", "ven", "ard", "oph")


@dataclass(frozen=True)
class QA:
    prompt: str
    answer: str
    key: str  # what the question is about (subject|relation), the id of its edit in the retrieval store
    followup: str | None = None  # two-hop questions: the second hop with {o} for the first hop's answer


@dataclass
class FactStream:
    """Base knowledge (for pretraining and locality) and edits per timestep with their evaluation questions."""

    base: list[QA]
    edits: list[list[QA]]
    rephrases: list[list[QA]]
    multihop: list[list[QA]]

    @property
    def answers(self) -> list[str]:
        every = [q.answer for q in self.base] + [q.answer for step in (*self.edits, *self.multihop) for q in step]
        return sorted(set(every))


def _names(rng: np.random.Generator, n: int, used: set[str]) -> list[str]:
    names: list[str] = []
    while len(names) < n:
        k = int(rng.integers(2, 4))
        name = "".join(rng.choice(_SYLLABLES, k)).capitalize()
        if name not in used:
            used.add(name)
            names.append(name)
    return names


def generate_stream(*, n_timesteps: int, edits_per_step: int, n_base: int, seed: int) -> FactStream:
    """A stream over the four relations: ``n_base`` base facts, then ``edits_per_step`` edits per timestep."""
    rng = np.random.default_rng(seed)
    used: set[str] = set()
    people = _names(rng, n_base + n_timesteps * edits_per_step, used)
    places = _names(rng, 24, used)
    capitals = _names(rng, 24, used)
    firms = _names(rng, 12, used)
    instruments = ["violin", "cello", "flute", "oboe", "harp", "piano", "trumpet", "lute"]
    objects = {"homeland": places, "employer": firms, "instrument": instruments}
    capital_of = dict(zip(places, capitals, strict=True))
    person_relations = ("homeland", "employer", "instrument")

    def qa(subject: str, relation: str, obj: str, *, rephrase: bool = False) -> QA:
        template = RELATIONS[relation][1 if rephrase else 0]
        return QA(template.format(s=subject), obj, f"{subject}|{relation}")

    base = [qa(place, "capital", capital_of[place]) for place in places]
    facts: dict[tuple[str, str], str] = {}
    for person in people[:n_base]:
        relation = person_relations[int(rng.integers(3))]
        facts[(person, relation)] = str(rng.choice(objects[relation]))
        base.append(qa(person, relation, facts[(person, relation)]))
    edits, rephrases, multihop = [], [], []
    fresh = iter(people[n_base:])
    for _ in range(n_timesteps):
        step, again, hops = [], [], []
        for j in range(edits_per_step):
            if j % 2 == 0 and facts:  # change an existing fact
                keys = sorted(facts)
                subject, relation = keys[int(rng.integers(len(keys)))]
                choices = [o for o in objects[relation] if o != facts[(subject, relation)]]
                obj = str(rng.choice(choices))
            else:  # a fact about a new subject
                subject, relation = next(fresh), "homeland"
                obj = str(rng.choice(places))
            facts[(subject, relation)] = obj
            step.append(qa(subject, relation, obj))
            again.append(qa(subject, relation, obj, rephrase=True))
            if relation == "homeland":
                hops.append(QA(f"The capital of the homeland of {subject} is", capital_of[obj], f"{subject}|homeland",
                               followup="The capital of {o} is"))
        edits.append(step)
        rephrases.append(again)
        multihop.append(hops)
    return FactStream(base=base, edits=edits, rephrases=rephrases, multihop=multihop)


def read_stream(path: str) -> FactStream:
    """A user's JSONL/CSV stream: one edit per row with ``timestep``, ``prompt`` and ``object``.

    Optional columns: ``subject`` and ``relation`` (the edit's key; otherwise the prompt is), ``rephrase``,
    ``locality_prompt`` with ``locality_answer`` (prior knowledge that must not change), ``multihop_prompt`` with
    ``multihop_answer`` and optionally ``multihop_followup`` (the second hop, with ``{o}`` standing for the edited
    object, e.g. "The capital of {o} is").
    """
    rows = load_records(path, argument="data", required=("timestep", "prompt", "object"))
    by_step: dict[int, list[dict[str, object]]] = {}
    for number, row in enumerate(rows, 1):
        try:
            step = int(str(row["timestep"]))
        except ValueError:
            raise DataError(f"data: row {number} has timestep {row['timestep']!r}; it must be an integer") from None
        if not str(row["prompt"]).strip() or not str(row["object"]).strip():
            raise DataError(f"data: row {number} has an empty prompt or object")
        by_step.setdefault(step, []).append(row)
    base: list[QA] = []
    edits, rephrases, multihop = [], [], []
    for step in sorted(by_step):
        e, r, m = [], [], []
        for row in by_step[step]:
            subject, relation = str(row.get("subject") or ""), str(row.get("relation") or "")
            key = f"{subject}|{relation}" if subject and relation else str(row["prompt"]).strip()
            obj = str(row["object"]).strip()
            e.append(QA(str(row["prompt"]).strip(), obj, key))
            if str(row.get("rephrase") or "").strip():
                r.append(QA(str(row["rephrase"]).strip(), obj, key))
            if str(row.get("multihop_prompt") or "").strip() and str(row.get("multihop_answer") or "").strip():
                followup = str(row.get("multihop_followup") or "").strip() or None
                if followup is not None and "{o}" not in followup:
                    raise DataError(f"data: row {number}: multihop_followup must contain {{o}} for the first answer")
                m.append(QA(str(row["multihop_prompt"]).strip(), str(row["multihop_answer"]).strip(), key,
                            followup=followup))
            if str(row.get("locality_prompt") or "").strip() and str(row.get("locality_answer") or "").strip():
                base.append(QA(str(row["locality_prompt"]).strip(), str(row["locality_answer"]).strip(),
                               str(row["locality_prompt"]).strip()))
        edits.append(e)
        rephrases.append(r)
        multihop.append(m)
    if len(edits) < 2:
        raise DataError("data: the stream has a single timestep; give edits over at least two timesteps")
    return FactStream(base=base, edits=edits, rephrases=rephrases, multihop=multihop)
