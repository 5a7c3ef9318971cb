"""One reading of a task: the method it asks for (by meaning, :mod:`cmbagent.agents._meaning`) and the method's
arguments (from the prose and the data, :mod:`cmbagent.agents._understand`), or the question to ask instead.

Pre-flight, the offline task analyst and the language-model analyst's check all use :func:`read_task`, so a
task is understood the same way whoever answers it.  A reading is *clear* when one method fits and every
argument the text asks for was mapped surely; otherwise :meth:`TaskReading.question` says what is unclear and
gives, per candidate method, the exact front matter that would pin it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from cmbagent.agents._by_meaning import place_numbers
from cmbagent.agents._meaning import MethodChoice, choose_method
from cmbagent.agents._numbers import spelled_decimals
from cmbagent.agents._understand import Understanding, clip_quote, understand
from cmbagent.profiles import FileProfile

__all__ = ["TaskReading", "read_task"]


@dataclass
class TaskReading:
    """The method choice, the chosen (or named) method's arguments, and the readings of the other leading
    candidates (for the question)."""

    choice: MethodChoice
    understanding: Understanding | None = None
    alternatives: dict[str, Understanding] = field(default_factory=dict)
    display: dict[str, str] = field(default_factory=dict)  # run-relative file name -> as the person wrote it

    @property
    def method(self) -> str | None:
        return self.choice.method

    unread: list[str] = field(default_factory=list)  # what the task states that no argument took

    @property
    def clear(self) -> bool:
        return self.choice.status in {"named", "chosen"} and self.understanding is not None and \
            self.understanding.clear and not self.unread

    def front_matter(self, method: str) -> str:
        """The front matter that pins ``method`` with the arguments read for it (file names as written)."""
        reading = self.understanding if method == self.method else self.alternatives.get(method)
        arguments: dict[str, Any] = {}
        for name, value in (reading.arguments if reading else {}).items():
            if name == "output_dir":
                continue
            arguments[name] = self.display.get(value, value) if isinstance(value, str) else value
        meta: dict[str, Any] = {"method": method}
        if arguments:
            meta["arguments"] = arguments
        return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).strip() + "\n---"

    def choices(self) -> list[dict[str, object]]:
        """The candidates a person chooses among: method, probability, why, and the front matter pinning it."""
        return [{"method": c.method, "probability": round(c.probability, 3), "why": "; ".join(c.reasons),
                 "front_matter": self.front_matter(c.method)} for c in self.choice.top(3)]

    def question(self, *, offline: bool) -> str:
        """What is unclear, for a person: the candidates with their front matter, or the arguments to state."""
        if self.choice.status == "none":
            lead = ("this task fits none of the method tools (closest: "
                    + ", ".join(c.line() for c in self.choice.top(2)) + ")")
            if self.choice.notes:  # why: "the task asks for Fleiss' kappa, an analysis no method tool does"
                lead += " — " + "; ".join(self.choice.notes)
            if offline:
                return ("the offline backend could not map this task to a method tool: " + lead + "; the offline "
                        "backend only runs method tools. Name a method in the front matter (`method: family.name`, "
                        "see `cmbagent methods list`), or ")
            return lead
        if self.choice.status == "ask":
            lines = ["this task could be answered by more than one method tool, and the reading is not sure which, "
                     "so nothing was started; add the front matter of the one you mean:"]
            for c in self.choice.top(3):
                lines.append(f"  {c.line()}")
                lines += ["    " + line for line in self.front_matter(c.method).splitlines()]
            return "\n".join(lines)
        reading = self.understanding
        if reading is None:
            return ""
        lines = [f"the task maps to {self.method}, but some of its arguments are missing or could only be guessed, "
                 "so nothing was started:"]
        lines += [f"  - {q}" for q in [*reading.missing, *reading.questions, *self.unread]]
        lines.append("  the front matter with what was read so far:")
        lines += ["    " + line for line in self.front_matter(self.method or "").splitlines()]
        return "\n".join(lines)


def unread(understood: Understanding, text: str, data_files: Sequence[str], method: str, *,
           chosen: bool = False) -> list[str]:
    """What the task states that the reading put into no argument — a setting's number (the checklist's rules
    read it, :func:`cmbagent.agents._stated.stated_requirements`), or a file the text names for a role no
    argument took: running would ignore it silently, so it is a question.  When the reader ``chosen`` the
    method itself (no front matter names it), every number of the prose must be accounted for
    (:func:`cmbagent.agents._numbers.unaccounted_numbers`): one no argument took asks which setting it is."""
    from cmbagent.agents._stated import stated_requirements, values_in
    from cmbagent.tools.methods import get_method

    spec = get_method(method)
    used = [v for value in understood.arguments.values() for v in values_in(value)]
    # a number the method's own documentation states is what it does by default ("a Gaussian τ prior 0.0506 ±
    # 0.0086"): a task that restates it asks for nothing else
    documented = " ".join([spec.description, *spec.argument_docs.values()])
    used += [float(m) for m in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])", documented)]
    placed = {v for v in understood.arguments.values() if isinstance(v, str)}
    out: list[str] = []
    for item in stated_requirements(text, list(data_files)):
        if item.kind == "number" and isinstance(item.value, (int, float)) and item.quantity not in {"threshold"}:
            if not any(abs(v - item.value) <= 1e-9 * max(1.0, abs(item.value)) for v in used):
                out.append(f"the task states {item.quantity} {item.value:g} (“{item.text[:90]}”), which no argument "
                           f"of {method} was read to take; add the argument it sets under `arguments:` "
                           f"(see `cmbagent methods show {method}`)")
        elif item.kind == "file" and item.file not in placed and item.file in understood.unplaced:
            arguments = ", ".join(n for n in spec.arguments if n != "output_dir")
            out.append(f"the task names {item.file} (as the {item.role}), which no argument of {method} takes "
                       f"({arguments}); say which argument should read it, or remove it from the task")
    asked = " ".join(out)
    for name in understood.unplaced:  # an input the run was given but would not read
        if name not in placed and name not in asked:
            arguments = ", ".join(n for n in spec.arguments if n != "output_dir")
            out.append(f"the task gives {name}, which no argument of {method} was read to take ({arguments}); "
                       f"say which argument should read it, or leave it out of the task")
    out += unread_arguments(spec, understood, text, used)
    out += declined_unread(spec, understood, text)
    out += unused_endpoints(spec, understood, text)
    out += contradicted_words(spec, understood, text)
    out += contradicted_outcome(understood, text)
    out += unoffered_estimand(spec, text)
    out += deferred_choices(spec, understood, text)
    if chosen:
        out += unread_referents(spec, understood, text)
        out += absent_sources(spec, understood, text, data_files)
        out += foreign_settings(spec, understood, text)
        out += unread_choices(spec, understood, text)
        asked = " ".join(out)
        numeric = ", ".join(name for name, schema in spec.arguments.items() if _numeric(schema)) or "none"
        for number in unaccounted(spec, understood, text, data_files):
            if f"“{number.sentence[:40]}" in asked:
                continue  # its sentence is asked about already
            out.append(f"the task states {number.raw} (“{number.sentence[:90]}”), which the offline reader put into "
                       f"no argument of {method}; name the argument it sets under `arguments:` with "
                       f"`method: {method}` in the front matter (its numeric arguments: {numeric}), or take it "
                       f"out of the task if none of them is meant — {method} cannot do it otherwise")
    return out


#: the effect on those who took the treatment, in a statistician's words or in plain ones: "the effect on the
#: treated", "the ATT", "for the households who actually chose to switch ... not the average over everyone"
_ON_THE_TREATED = re.compile(
    r"\b(?:effect|impact)s?\s+on\s+the\s+treated\b|\bATT\b|\bATET\b|"
    r"\b(?:themselves|alone|only),?\s+not\s+(?:the\s+)?(?:average|mean)\s+(?:over|across|for|of)\s+(?:everyone|everybody|"
    r"all|the\s+whole)\b|"
    r"\b(?:for|on|among)\s+(?:the\s+|those\s+)?(?:[\w-]+\s+){0,2}?(?:who|that)\s+(?:actually\s+|really\s+)?(?:chose|opted|"
    r"decided|signed\s+up|took\s+(?:it\s+|them\s+)?up|switched|enrolled|volunteered)\b", re.I)


def unoffered_estimand(spec: Any, text: str) -> list[str]:
    """The effect on the treated asked of a method whose documentation offers none (an average effect over everyone
    is another number wherever the effect differs between units): running would answer another question."""
    match = _ON_THE_TREATED.search(text)
    documented = " ".join([spec.description, *spec.argument_docs.values()])
    if match is None or "treatment" not in spec.arguments or \
            re.search(r"\bon\s+the\s+treated\b|\bATT\b|\bATET\b", documented):
        return []
    return [f"the task asks for the effect on those who took the treatment (“{clip_quote(match.group(0), 80)}”), "
            f"which {spec.name} does not estimate (it gives the average over all units); say whether the average "
            "effect will do, or use another analysis"]


def foreign_settings(spec: Any, understood: Understanding, text: str) -> list[str]:
    """Choices the text states in the words of another method's setting that the chosen method does not have
    ("TT only" is the CMB fit's ``spectra``; a supernova fit has no such setting): the reader chose the method by
    meaning, and words it cannot place say the user may mean the other one.  Only a choice's declared words count
    (an enum value or a switch described in the phrases), never a bare number; running would drop them silently,
    so it is a question that names the method they belong to."""
    from cmbagent.agents._fields import words_of
    from cmbagent.agents._understand import argument_phrases

    own = [p for declared in argument_phrases(spec).values()
           for p in ([q for ps in declared.values() for q in ps] if isinstance(declared, Mapping) else declared)]
    documented = set(_content_words(" ".join([spec.description, *spec.argument_docs.values()])))
    out: list[str] = []
    for other, name, value, match in _foreign_choices(spec, text):
        said = _content_words(match.group(0))
        if len(said) < 2 or set(said) <= documented or name in words_of(spec.name).expresses:
            continue  # one word ("mixture", "curvature") is no setting; the method's own documentation's words are its own
        if any(m.start() < match.end() and match.start() < m.end()
               for p in own for m in re.finditer(p[0] if isinstance(p, tuple) else p, text, re.I)):
            continue  # the chosen method's own words for a setting of its own
        out.append(f"the task says “{clip_quote(match.group(0), 60)}”, which is how {other}'s `{name}: {value}` is "
                   f"written, and {spec.name} has no `{name}`; if {other} is meant, add `method: {other}` to the front "
                   f"matter; otherwise take the words out of the task")
        if len(out) == 2:
            break
    return out


def unread_choices(spec: Any, understood: Understanding, text: str) -> list[str]:
    """A choice the text names beside its argument's own words that the reading left at the default ("reset to
    zero after each spike" where ``reset`` stayed ``subtract``): the run would do the other thing silently."""
    from cmbagent.agents._understand import _choices, _negated, _words_pattern

    out: list[str] = []
    for name, schema in spec.arguments.items():
        if name in understood.arguments or name == "output_dir":
            continue
        stems = [t[:5] for t in name.lower().split("_") if len(t) >= 4 and t not in _FILLER]
        if not stems:
            continue
        default = schema.get("default")
        for choice in _choices(schema):
            if not isinstance(choice, str) or choice == default or choice == "auto" or len(choice) < 4:
                continue
            pattern = rf"\b(?:{'|'.join(map(re.escape, stems))})\w*\b[^.;:()]{{0,30}}?{_words_pattern(choice)}|" \
                      rf"{_words_pattern(choice)}[^.;:()]{{0,30}}?\b(?:{'|'.join(map(re.escape, stems))})\w*\b"
            match = next((m for m in re.finditer(pattern, text, re.I) if not _negated(text, m.start())), None)
            if match is not None:
                offered = ", ".join(str(c) for c in _choices(schema))
                out.append(f"the task says “{clip_quote(match.group(0), 70)}”, which names {choice!r} for `{name}` "
                           f"(it offers {offered}; default {default!r}), and the offline reader did not read it; add "
                           f"`{name}: <choice>` under `arguments:` in the front matter")
                break
    return out


def _content_words(text: str) -> list[str]:
    """The words of ``text`` that carry meaning, lower case (Λ as l): "width of 0" has one, "TT only" two."""
    from cmbagent.agents._numbers import _STOP

    return [w for w in re.findall(r"[^\W\d_][\w-]*", text.replace("Λ", "L").lower()) if w not in _STOP]


def _foreign_choices(spec: Any, text: str) -> list[tuple[str, str, Any, re.Match[str]]]:
    from cmbagent.agents._understand import _choices, _in_file_note, _negated, _types, argument_phrases
    from cmbagent.tools.methods import iter_methods

    found: list[tuple[str, str, Any, re.Match[str]]] = []
    for other in iter_methods():
        if other.name == spec.name:
            continue
        for name, declared in argument_phrases(other).items():
            schema = other.arguments.get(name, {})
            if name in spec.arguments or not isinstance(declared, Mapping) or not (_choices(schema) or "boolean" in _types(schema)):
                continue  # a map's phrases (priors) name its keys, not a choice
            for value, patterns in declared.items():
                match = next((m for p in patterns for m in re.finditer(p, text, re.I)
                              if not _negated(text, m.start()) and not _in_file_note(text, m.start())), None)
                if match is not None:
                    found.append((other.name, name, value, match))
                    break
    return found


def unaccounted(spec: Any, understood: Understanding, text: str, data_files: Sequence[str]) -> list[Any]:
    """The numbers of the prose that no argument as read accounts for
    (:func:`cmbagent.agents._numbers.unaccounted_numbers`), each a :class:`~cmbagent.agents._numbers.StatedNumber`.
    A count equal to a given table's rows ("Skylark survey, 300 fields") is asked about too: taken as describing
    the data, it turned one task of an unseen prose set from a question into a silently wrong run (docs/understanding.md)."""
    from cmbagent.agents._numbers import unaccounted_numbers
    from cmbagent.agents._stated import values_in
    from cmbagent.tools.methods import path_arguments

    method = spec.name
    # what the run will use: the arguments as read and the lengths of their lists ("five seeds (0–4)"); a
    # default, or a number of an argument's documentation, counts where the sentence names that argument
    # a small whole number read from a sentence of the text accounts for that sentence's number only ("the L0
    # penalty weight doubled to 2" is not read because a planted head of another sentence is 2); a distinctive
    # value (0.05, 68.0) restated elsewhere is the same setting, and so is a list's length ("those two heads")
    quoted: dict[str, list[str]] = {}
    for requirement in understood.requirements:
        if requirement.kind == "argument" and requirement.source == "text" and requirement.argument \
                and requirement.relation == "equals":
            quoted.setdefault(requirement.argument, []).append(_whole_sentence(requirement.text, text))
    kinds = path_arguments(method)
    values: list[float] = []
    read_at: list[tuple[float, str, str, bool]] = []  # value, its sentence, its argument's words, a list's item
    for name, value in understood.arguments.items():
        # the argument's own words restate it anywhere ("a three-dimensional input" for ``input_dim``), and
        # they alone give a list's length ("those two heads" for two planted heads, not "a weight of 2")
        stems = [re.escape(t[:4]) for t in name.lower().split("_") if len(t) >= 3 and t not in _FILLER]
        if "dim" in name.lower().split("_"):
            stems.append(r"d\b")  # a dimension is written d: "since d = 3"
        words = rf"\b(?:{'|'.join(stems)})" if stems else r"(?!)"
        listed = isinstance(value, (list, tuple))
        if listed:
            read_at.append((float(len(value)), "", words, False))
            if kinds.get(name) == "input":  # further files of one kind: "three chains" counts the first too
                singles = sum(1 for n, v in understood.arguments.items() if kinds.get(n) == "input" and isinstance(v, str))
                read_at.append((float(len(value) + singles), "", words, False))
        # a symmetric bound states its other end too: clipping 0.05 keeps propensities in [0.05, 0.95]
        mirrored = re.search(rf"\b1\s*[-−]\s*`?{re.escape(name)}\b", spec.argument_docs.get(name, ""))
        if isinstance(value, str) and value.lower() in _NUMBER_NAMES:
            values.append(_NUMBER_NAMES[value.lower()])  # a choice named by a number's word: reset "zero" is the 0
        for v in values_in(value):
            if mirrored and 0 < v < 1:
                values.append(round(1 - v, 12))
            if quoted.get(name) and float(v).is_integer() and abs(v) <= 20:
                read_at += [(v, quote, words, listed) for quote in quoted[name]]
            else:
                values.append(v)
    gated: list[tuple[float, str]] = []
    from cmbagent.agents._understand import doc_name

    for name, schema in spec.arguments.items():
        pattern = _name_pattern(name)
        if pattern is None or name in understood.arguments:
            continue
        called = doc_name(spec.argument_docs.get(name, ""))
        if len(called) >= 2:  # its documentation's name too: "step size 0.05" for ``learning_rate`` ("Step size η ...")
            pattern = rf"(?:{pattern})|\b" + r"[\s_-]+".join(re.escape(w.lower()) for w in called) + r"\b"
        # an example of the documentation ("e.g. {"Omega_m": {"mean": 0.3, ...}}") is no value the run uses
        doc = _EXAMPLE.sub(" ", spec.argument_docs.get(name, ""))
        documented_here = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])", doc)
        gated += [(v, pattern) for v in [*values_in(schema.get("default")), *map(float, documented_here)]]
    nouns = {t for name in spec.arguments for t in name.lower().split("_") if t not in _FILLER}
    documentation = " ".join([spec.description, *spec.argument_docs.values()])
    # a line that glosses a column of the data ("- weekend: 1 on Saturdays and Sundays", under "Its five columns
    # are, in order:") describes what the column holds; its numbers set nothing
    named = {c.lower() for v in understood.arguments.values() for c in (v if isinstance(v, list) else [v])
             if isinstance(c, str)}
    text = re.sub(r"(?m)^[ \t]*(?:[-*•]|\d+[.)])[ \t]+`?([A-Za-z_]\w*)`?[ \t]*[:—–][^\n]*$",
                  lambda m: " " * len(m.group(0)) if m.group(1).lower() in named else m.group(0), text)
    return unaccounted_numbers(text, values, data_files, gated, documentation, nouns, placed=read_at)


def _whole_sentence(quote: str, text: str) -> str:
    """A requirement's quote (clipped at 240 characters) as the whole sentence of ``text`` it begins (as the
    reader cut the text into sentences)."""
    if len(quote) < 240:
        return quote
    from cmbagent.agents._datamap import sentences

    start = " ".join(quote.split())[:200]
    return next((" ".join(s.split()) for s in sentences(text) if " ".join(s.split()).startswith(start)), quote)


#: an example in an argument's documentation: "e.g." up to the end of its sentence or clause
_EXAMPLE = re.compile(r"\be\.g\.,?\s.*?(?=\.\s+[A-Z]|\)\.|;|$)", re.S)
def unused_endpoints(spec: Any, understood: Understanding, text: str) -> list[str]:
    """A served model's address the text gives ("an endpoint at http://127.0.0.1:8080/v1") that no argument
    holds: running would not ask that model anything."""
    from cmbagent.agents._understand import ENDPOINT, illustrative_at

    held = " ".join(str(v) for v in understood.arguments.values())
    out = []
    # an address shown as an example of a later use ("e.g. `cmbagent methods run ... @http://...`") is not given
    for url in dict.fromkeys(m.group(0).rstrip(".,;:") for m in ENDPOINT.finditer(text)
                             if not illustrative_at(text, m.start())):
        if url not in held:
            takes = [n for n, doc in spec.argument_docs.items() if re.search(r"\bmodel|\burl\b|endpoint", doc, re.I)]
            out.append(f"the task gives {url}, which no argument of {spec.name} holds"
                       + (f" ({', '.join(takes)} could)" if takes else "") + "; say which argument should use it, or "
                       "leave it out of the task")
    return out


def declined_unread(spec: Any, understood: Understanding, text: str) -> list[str]:
    """A part of the work the text declines in an argument's own words ("don't bother training the offline
    policies" for ``policy_steps``) that the reading left at its default: running would do it anyway."""
    from cmbagent.agents._understand import _COUNT_WORDS, _DECLINED, _negated

    out: list[str] = []
    for match in _DECLINED.finditer(text):
        if _negated(text, match.start()):
            continue
        said = {w[:5] for w in re.findall(r"[a-z]{4,}", match.group(1).lower())}
        for name, schema in spec.arguments.items():
            if name in understood.arguments or name == "output_dir" or schema.get("default") in (None, 0, False, "none"):
                continue  # left at a default that does not do it ("no language model yet": ``model`` None;
                # "no cross-code check": ``cross_check`` "none")
            own = {t[:5] for t in name.lower().split("_") if len(t) >= 4 and t not in _COUNT_WORDS | _FILLER}
            if own and own <= said:
                sentence = " ".join(match.string[max(0, match.start() - 60):match.end() + 30].split())
                out.append(f"the task declines “{match.group(0)}” (“…{sentence[:90]}…”), which {spec.name} does "
                           f"unless `{name}` says otherwise, and the offline reader did not read it; add `{name}: "
                           f"<value>` under `arguments:` in the front matter")
                break
    return out


def contradicted_outcome(understood: Understanding, text: str) -> list[str]:
    """The outcome an effect question names in its own words (the checklist's rule,
    :func:`cmbagent.agents._stated.asked_about`) against the columns read: words that name the treatment or a
    covariate read, and not the outcome read, would run the question backwards."""
    from cmbagent.agents._stated import asked_about, input_columns, names_column

    outcome = understood.arguments.get("outcome")
    if not isinstance(outcome, str):
        return []
    inputs = input_columns(understood.arguments)
    for sentence, words in asked_about(text):
        named = [c for c in inputs if names_column(words, c)]
        if named and not names_column(words, outcome):
            return [f"the question asks about “{words}” (“{sentence[:90]}”), which names {named[0]}, but the reading "
                    f"made {outcome} the outcome and {named[0]} an input; add `outcome: <column>` under `arguments:` "
                    "in the front matter"]
    return []


def contradicted_words(spec: Any, understood: Understanding, text: str) -> list[str]:
    """Model words of the text (the checklist's :data:`cmbagent.agents._stated.WORDS`) that no single value of the
    method's argument for them satisfies ("w held constant" and "free spatial curvature", where the models free
    either but not both), or that the value read does not: running would drop one of them silently."""
    from cmbagent.agents._stated import _NEGATED, WORDS, _sentences

    hits: dict[str, list[tuple[str, set[str]]]] = {}
    for aspect, pattern, allowed in WORDS:
        for sentence in _sentences(text):
            match = re.search(pattern, sentence, re.I)
            if match is not None and not _NEGATED.search(sentence[:match.start()]):
                hits.setdefault(aspect, []).append((match.group(0), {a.lower() for a in allowed}))
                break
    out: list[str] = []
    for aspect, found in hits.items():
        argument = next((a for a in ("model", "classifier") if a in spec.arguments), None) if aspect != "estimand" \
            else None
        if argument is None:
            continue
        schema = spec.arguments[argument]
        choices = {str(c).lower() for c in [*schema.get("enum", []),
                                            *[c for o in schema.get("anyOf", []) for c in o.get("enum", [])]]}
        found = [(w, allowed & choices) for w, allowed in found if allowed & choices]
        if not found:
            continue
        common = set.intersection(*[allowed for _, allowed in found])
        words = " and ".join(f"“{w}”" for w, _ in found)
        # the value the run would take: the one read, else the method's default ("letting w float" with the model
        # left at lcdm is a run without w)
        read = str(understood.arguments.get(argument, schema.get("default") or "")).lower()
        if not common:
            out.append(f"the task asks for {words} at once, but no {argument} of {spec.name} has both "
                       f"({', '.join(sorted(choices))}); say which matters, or use a method that frees both")
        elif read and read not in common:
            out.append(f"the task asks for {words}, which {argument} {read!r} does not satisfy; add `{argument}: "
                       f"<one of {', '.join(sorted(common))}>` under `arguments:` in the front matter")
    return out


#: choices named by a number ("zero" for a reset to 0, "one" for a single ...)
_NUMBER_NAMES = {"zero": 0.0, "one": 1.0, "two": 2.0, "half": 0.5}
#: words of an argument's name that say nothing of what it is (``n_adapters`` is written "adapters")
_FILLER = {"n", "num", "number", "max", "min", "use", "per", "of", "the", "to", "in"}
#: a sentence that gives a result or a reference value, not a setting ("the published value is 0.3")
_REPORTED = re.compile(r"\b(?:expect\w*|measured|published|reported|found|obtained|achieved|true|truth|paper|"
                       r"should (?:be|give|come out))\b|≈|~", re.I)
_NUM = r"[-+−]?\d+(?:[.,]\d+)?(?:[eE][-+]?\d+)?%?"


def _as_float(raw: str) -> float | None:
    try:
        return float(raw.replace("−", "-").replace(",", "").rstrip("%"))
    except ValueError:
        return None


_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "[δΔ]", "epsilon": "[εϵ]", "eta": "η", "theta": "θ",
          "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "rho": "ρ", "sigma": "σ", "tau": "τ", "omega": "[ωΩ]"}


def _name_pattern(name: str) -> str | None:
    """How prose writes an argument's name: its words in order, each maybe plural, joined by a space, hyphen
    or underscore ("length scale" for ``length_scale``, "adapters" for ``n_adapters``); a name of one or two
    letters only as a symbol given a value ("k = 4")."""
    tokens = [t for t in name.lower().split("_") if t and t not in _FILLER]
    if not tokens:
        return None
    if len(tokens) == 1 and len(tokens[0]) <= 2:
        return rf"(?<![\w.]){re.escape(tokens[0])}\s*="
    if len(tokens) == 1 and tokens[0] in _GREEK:  # ``alpha`` is written α as often as alpha
        return rf"\b{tokens[0]}\b|{_GREEK[tokens[0]]}"
    stems = [re.escape(t[:-1] if t.endswith("s") and len(t) > 3 else t) for t in tokens]
    return r"\b" + r"[\s_-]+".join(rf"{stem}(?:e?s)?" for stem in stems) + r"\b"


def _numeric(schema: Mapping[str, Any]) -> bool:
    """Whether an argument's schema takes a number (or a list of numbers)."""
    kinds = {schema.get("type")} | {o.get("type") for o in schema.get("anyOf", [])}
    items = [schema.get("items") or {}] + [o.get("items") or {} for o in schema.get("anyOf", [])]
    return bool(kinds & {"integer", "number"}) or ("array" in kinds and any(
        i.get("type") in {"integer", "number"} for i in items))


def unread_arguments(spec: Any, understood: Understanding, text: str, used: Sequence[float] = ()) -> list[str]:
    """Numeric arguments the text gives a number to in their own words ("a length scale of 40 m", "500
    adapters", "k = 4") that the reading left at their defaults: the reader could not read the phrasing, so
    running would ignore what was asked.  A number another argument took ("32 importance samples" is the
    proposal's, not the samples'), or the argument's own default, asks nothing.  Detection only (a value is
    never taken from here): a question."""
    out: list[str] = []
    flat = " ".join(text.split())
    for name, schema in spec.arguments.items():
        if name in understood.arguments or name in {"output_dir", "seed", "random_state"}:
            continue
        pattern = _name_pattern(name)
        if not _numeric(schema) or pattern is None:
            continue
        for match in re.finditer(pattern, flat, re.I):
            after = re.match(rf"\s*(?:(?:of|is|to|at|=|:|equal to|set to|around|about)\s*){{0,2}}({_NUM})(?![\w])",
                             flat[match.end():])
            before = re.search(rf"(?<![\w.])({_NUM})\s+(?:[A-Za-z][\w-]*\s+)?$", flat[max(0, match.start() - 30):
                                                                                      match.start()])
            if not (after or before):
                continue
            number = _as_float((after or before).group(1))  # type: ignore[union-attr]
            default = schema.get("default")
            if number is not None and (any(abs(number - v) <= 1e-9 * max(1.0, abs(v)) for v in used)
                                       or (isinstance(default, (int, float)) and number == default)):
                continue
            start = max(flat.rfind(end, 0, match.start()) for end in (". ", "? ", "! ", "\n")) + 1
            ends = [i for i in (flat.find(end, match.end()) for end in (". ", "? ", "! ")) if i > 0]
            sentence = flat[start:min(ends) + 1 if ends else len(flat)].strip()
            if _REPORTED.search(sentence):
                continue  # an expected result or a reference value, not a setting
            out.append(f"the text gives {name!r} a value (“{sentence[:90]}”) that the offline reader could not "
                       f"read; add `{name}: <value>` under `arguments:` in the front matter")
            break
    return out


_OWN = re.compile(r"\b(?:our|my)\s+((?:[\w-]+\s*){1,4})", re.I)
#: the same, said by a clause after the noun: "the model we're serving on the lab machine", "the adapters I trained"
_OWN_AFTER = re.compile(r"\bthe\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:that\s+|which\s+)?(?:we|I)(?:'re|'ve|\s+are|\s+have)?\s+"
                        r"(?:serv|host|run|deploy|train|fine-?tun|buil[dt]|ma[dk]e|releas)\w*\b", re.I)


def unread_referents(spec: Any, understood: Understanding, text: str) -> list[str]:
    """An object the task calls its own ("our fine-tuned model", "my adapters") that an argument of the method
    takes (same noun; no default, so leaving it out changes what is measured: ``lm.nolima`` without ``model``
    scores only its BM25 baseline) but that the reading did not fill: the point of the task would be missed,
    so it is a question."""
    out: list[str] = []
    flat = " ".join(text.split())
    # a noun an argument that was read already names is that argument's ("our chain" is the ``chain`` read, not
    # ``more_chains``)
    filled = {t[:-1] if t.endswith("s") and len(t) > 3 else t
              for read in understood.arguments for t in read.lower().split("_") if len(t) > 2}
    for name, schema in spec.arguments.items():
        if name in understood.arguments or schema.get("default") is not None or name == "output_dir":
            continue
        kinds = {schema.get("type")} | {o.get("type") for o in schema.get("anyOf", [])}
        if kinds & {"integer", "number", "boolean"}:
            continue
        tokens = [t for t in name.lower().split("_") if t not in _FILLER and len(t) > 2]
        stems = {t[:-1] if t.endswith("s") and len(t) > 3 else t for t in tokens}
        for match in [*_OWN.finditer(flat), *_OWN_AFTER.finditer(flat)]:
            # the noun phrase ends at its preposition: "our supernova distances in data/x.csv" speaks of distances
            phrase = re.split(r"\s(?:in|on|at|from|of|with|for|to|into|under)\b", match.group(1).lower())[0]
            words = [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in re.split(r"[\s-]+", phrase)]
            if stems & set(words[:4]) - filled:
                doc = spec.argument_docs.get(name, "")
                out.append(f"the task speaks of {match.group(0)!r}, which {spec.name} takes as `{name}` ({doc[:90]}); "
                           f"the reading found no value for it, so running would measure something else — add "
                           f"`{name}: <value>` under `arguments:`")
                break
    return out


#: a setting the task takes from something it does not describe: "the same kind of classifier our production triage
#: tool uses", "whatever kernel their pipeline runs", "the same model as the one in our dashboard"
_AS_SOMEONE_ELSE = re.compile(
    r"\b(?:(?:the\s+)?same\s+(?:(?:kind|type|sort|family|class|flavou?r)\s+of\s+)?|whatever\s+|whichever\s+)"
    r"((?:[\w-]+\s+){0,2}?[\w-]+)\s+(?:as\s+(?:the\s+one\s+)?|that\s+|which\s+)?(?:(?:our|my|their|the|its)\s+)"
    r"(?:[\w-]+\s+){0,4}?(?:uses?|used|runs?|ran|relies\s+on|is\s+built\s+on|deploys?|deployed|ships?|shipped|"
    r"serves?|has)\b", re.I)


def deferred_choices(spec: Any, understood: Understanding, text: str) -> list[str]:
    """A choice the task defers to something it does not describe ("fit the same kind of classifier our production
    tool uses"): the argument for that noun (its name, or its documentation's first word: ``model``'s
    "Classifier to fit") was not read, so its default would stand in for a choice the task says is made
    elsewhere.  It is a question."""
    out: list[str] = []
    flat = " ".join(text.split())
    for match in _AS_SOMEONE_ELSE.finditer(flat):
        noun = match.group(1).lower().split()[-1]
        stem = noun[:-1] if noun.endswith("s") and len(noun) > 3 else noun
        for name, schema in spec.arguments.items():
            if name in understood.arguments or name == "output_dir":
                continue
            doc = spec.argument_docs.get(name, "")
            words = {w.lower() for w in [*name.split("_"), *doc.split()[:1]]}
            if stem not in {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words}:
                continue
            options = ", ".join(map(str, schema.get("enum") or [])) or doc[:90]
            out.append(f"the task asks for {clip_quote(match.group(0), 80)!r}, which it does not name; {spec.name} "
                       f"takes it as `{name}` ({options}) and would use its default {schema.get('default')!r} — "
                       f"add `{name}: <value>` under `arguments:`")
            return out
    return out


#: values the task takes from a document it only names ("the best-fit cosmology in Table 3 of our draft")
_IN_A_DOCUMENT = re.compile(
    r"\b(?:cosmology|parameters?|values?|settings?|numbers|coefficients|estimates|best[- ]fit(?:\s+[a-z]+)?)\s+"
    r"(?:in|from|of|given\s+in|listed\s+in)\s+(?:Table|Tab\.|Figure|Fig\.|Section|Sec\.|Appendix|Eq\.|equation)\s*"
    r"[\w.]+\s+(?:of|in)\s+(?:our|my|the|their|his|her)\s+(?:draft|paper|manuscript|thesis|report|preprint|notes|"
    r"slides|proposal|chapter)\b", re.I)
#: weighting to a population the task names: "weight the poll to the census for age band and ward"
_TO_A_POPULATION = re.compile(r"\b(?:weight|rak|calibrat|post-?stratif|reweight)\w*\s+(?:the\s+|our\s+)?(?:[\w-]+\s+){0,3}?"
                              r"to\s+(?:the\s+|its\s+)?(?:census|population|electoral\s+roll|register|official\s+\w+)\b",
                              re.I)
#: a column whose role the task itself disputes: "half the engineers say alarm marks the faults; the other half ..."
_DISPUTED = re.compile(r"\b(?:half|some|many|others?|a\s+few)\s+(?:of\s+)?(?:the\s+|our\s+)?[\w-]*\s*(?:say|think|believe|"
                       r"claim|argue|suspect)s?\b[^.]{0,80}?\b(?:the\s+other\s+half|others|the\s+rest)\b|"
                       r"\bnot\s+sure\s+(?:whether|if)\b|\bunsure\s+(?:whether|if)\b|\bdisagree\w*\b", re.I)


def absent_sources(spec: Any, understood: Understanding, text: str, data_files: Sequence[str]) -> list[str]:
    """What the task rests on but does not give, each a question rather than a run on defaults: values it takes from
    a document it only names ("the cosmology in Table 3 of our draft"), weighting "to the census" with no table of
    the population's margins, and a label column whose meaning the text itself disputes ("half the engineers say
    `alarm` marks the faults; the other half say most are nuisance trips")."""
    out: list[str] = []
    flat = " ".join(text.split())
    named = " ".join(data_files).lower()
    document = _IN_A_DOCUMENT.search(flat)
    if document and not re.search(r"draft|paper|table|manuscript|thesis|report|notes|appendix", named):
        out.append(f"the task takes its values from “{document.group(0)}”, which is not attached; give the values "
                   f"under `arguments:` (see `cmbagent methods show {spec.name}`) or attach the document's numbers")
    population = _TO_A_POPULATION.search(flat)
    if population and "population" in spec.arguments and "population" not in understood.arguments:
        out.append(f"the task asks to “{population.group(0)}”, but no file of the population's margins (or reference "
                   "sample) is given; attach it and name it as `population:` under `arguments:`, or say to leave the "
                   "weighting out")
    for name in ("label", "label_column"):
        column = understood.arguments.get(name)
        if not isinstance(column, str):
            continue
        for sentence in re.split(r"(?<=[.!?])\s+", flat):
            if re.search(rf"(?<![\w-])`?{re.escape(column)}`?(?![\w-])", sentence) and _DISPUTED.search(sentence):
                out.append(f"the text doubts what `{column}` marks (“{sentence[:120]}”); say whether to use it as "
                           f"the label (`{name}: {column}` under `arguments:`) or to leave it out and treat the rows "
                           "as unlabelled")
                break
    return out


def read_task(*, text: str, title: str = "", method: str | None = None, arguments: Mapping[str, Any] | None = None,
              data_files: Sequence[str] = (), profiles: Sequence[FileProfile] | None = None,
              columns: Mapping[str, Sequence[str]] | None = None,
              display: Mapping[str, str] | None = None, _settled: MethodChoice | None = None,
              _understood: Understanding | None = None) -> TaskReading:
    """Read a task (see the module docstring).  ``method`` and ``arguments`` are the front matter's;
    ``profiles`` describe the input files (None when only their names are known: then files are mapped by
    name and the data cannot vote on the method)."""
    given = dict(arguments or {})
    text = spelled_decimals(text)  # "nought point nine five" is 0.95 to every rule below
    choice = _settled or choose_method(text, title=title, files=profiles, named=method)
    reading = TaskReading(choice=choice, display=dict(display or {}))
    if choice.method is not None:
        # (a choice settled among the candidates keeps the reading made of its method then)
        reading.understanding = _understood or understand(choice.method, text, given, list(data_files), columns=columns,
                                                          profiles=profiles)
        if choice.status != "named":  # the prose's settings in its own words, where the rules read none
            from cmbagent.tools.methods import get_method

            spec = get_method(choice.method)
            place_numbers(spec, reading.understanding, unaccounted(spec, reading.understanding, text, data_files))
        reading.unread = unread(reading.understanding, text, data_files, choice.method,
                                chosen=choice.status != "named")
    if choice.status == "ask":
        for candidate in choice.top(3):
            reading.alternatives[candidate.method] = understand(candidate.method, text, given, list(data_files),
                                                                columns=columns, profiles=profiles)
        settled = _only_runnable(choice, reading.alternatives, text)
        if settled is not None:  # the other candidates lack an input the task does not give: no real choice
            return read_task(text=text, title=title, method=None, arguments=arguments, data_files=data_files,
                             profiles=profiles, columns=columns, display=display, _settled=settled,
                             _understood=reading.alternatives.get(settled.method or ""))
    return reading


#: how sure the leading method must be for a runner-up that cannot run to leave it the only choice
_RUNNABLE_LEAD = 0.6


def _cannot_run(method: str, understood: Understanding) -> str | None:
    """What keeps ``method`` from running on this task: a required input the text and data do not give."""
    for problem in [*understood.missing, *understood.questions]:
        if problem in understood.missing or problem.startswith(f"{method} needs "):
            return problem
    return None


#: a request for one analysis of several data sets together: "combine Planck with our supernovae in one fit"
_JOINT = re.compile(r"\b(?:combin(?:e|es|ed|ing)|joint(?:ly)?|together\s+with|in\s+(?:one|a\s+single)\s+(?:fit|analysis|run|"
                    r"likelihood)|simultaneous(?:ly)?)\b", re.I)


def _subsumed(method: str, leader: str, understood: Understanding, text: str) -> str | None:
    """Why ``method`` would answer only part of a joint request that ``leader`` answers whole: the leader's reading
    gives the runner-up's input to an argument of its own documented as that input ("A supernova data file (as for
    fit_supernovae ...)"), and the text asks for one analysis of both."""
    from cmbagent.tools.methods import get_method

    if _JOINT.search(text) is None:
        return None
    short = method.rsplit(".", 1)[-1]
    for name, doc in get_method(leader).argument_docs.items():
        if name in understood.arguments and re.search(rf"\bas\s+for\s+{re.escape(short)}\b", doc):
            return (f"the task asks for one analysis together, and {leader} takes the {name} {method} would read as "
                    f"part of it (`{name}: {understood.arguments[name]}`)")
    return None


def _only_runnable(choice: MethodChoice, alternatives: Mapping[str, Understanding], text: str = "") -> MethodChoice | None:
    """The leading candidate as the choice, when it reads with nothing left to ask and every other candidate in
    the running lacks a required input ("needs one of 'instruments', 'instrument_file'") or would answer only a
    part of a joint request the leader answers whole (:func:`_subsumed`): asking which method would offer choices
    that cannot run.  Of the two leaders, the one that answers a joint request whole is chosen whichever leads.
    None when the choice stays a question."""
    top = choice.top(3)
    if len(top) < 2:
        return None
    # one of the two leaders answers the whole of a joint request the other answers a part of ("how much our supernova
    # sample tightens Ω_m when combined with the Planck lite band powers": the joint fit takes the supernovae too)
    if all(c.probability < 0.1 for c in top[2:]):
        for whole, part in ((top[0], top[1]), (top[1], top[0])):
            reading = alternatives.get(whole.method)
            if reading is None or reading.missing or reading.questions:
                continue
            joint = _subsumed(part.method, whole.method, reading, text)
            if joint is not None:
                return replace(choice, status="chosen", method=whole.method,
                               notes=(*choice.notes, f"{part.method} was close, but {clip_quote(joint, 160)}"))
    if top[0].probability < _RUNNABLE_LEAD:
        return None
    first = alternatives.get(top[0].method)
    if first is None or first.missing or first.questions:
        return None
    reasons = []
    for other in top[1:]:
        understood = alternatives.get(other.method)
        problem = _cannot_run(other.method, understood) if understood is not None else None
        problem = problem or _subsumed(other.method, top[0].method, first, text)
        if problem is None and understood is not None and understood.unplaced and not first.unplaced \
                and top[0].data > 0:  # (and the files look like the leader's input)
            # the leader reads every file given; this one would leave some unread ("two chains attached" and a fit
            # that takes no chain)
            problem = f"it takes none of {', '.join(understood.unplaced[:3])}, which {top[0].method} reads"
        if problem is None:
            return None
        reasons.append(f"{other.method} was close, but it cannot run here: {clip_quote(problem, 120)}")
    return replace(choice, status="chosen", method=top[0].method, notes=(*choice.notes, *reasons))
