"""The words of each method's field: how scientists ask for what a method does, without naming it.

A method's registration says what it is (summary, description, keywords, argument docs).  People do not write
"double machine learning"; they ask "did the programme raise earnings, adjusting for age and schooling?".  Each
entry here gives a method

* ``intents``: a few questions or requests in a scientist's words, embedded and compared by meaning with the
  task's sentences (:mod:`cmbagent.agents._meaning`);
* ``cues``: phrases of its field (regular expressions, case-insensitive) with a weight: strong evidence that
  the task is about what the method does ("faulty readings", "distance moduli", "adjusting for");
* ``data``: what its input data look like, as a score of the task's input files (see :func:`data_fit`).

The entries live one module per family (``_fields_causal.py``, ...), registered when ``cmbagent.agents`` is
imported.  A method without an entry is still matched by its registration (summary, description, keywords);
an entry only sharpens it.  Third-party method families add entries with :func:`field_words`.

``arguments`` says how prose states the method's arguments, in the format of ``@method(phrases=...)``
(:mod:`cmbagent.agents._understand` reads both, the method's own first):

* a list of patterns for an argument: a pattern with one group captures its value — cast to the argument's
  type, so "eight", "2,000", "a fifth", "30%" (as 0.3 for a fraction) and "60, 240 and 960" (a list) are
  numbers, "`a` and `b`" a list of names (which must be columns of the data when the argument names columns
  or features) — and a pattern without a group sets a boolean argument, cues a column argument (where its
  column is named), or, for any other argument, marks where the text states it in a form the reader cannot
  read (a causal graph in words): a question instead of a silent default; a ``(pattern, value)`` pair sets
  that value ("standard-normal priors" is a prior width of 1, "skip the policy comparison" is 0 policy steps);
* a mapping of values to patterns for a choice (an enum, a number: "a clean unlabelled set" -> 0, or a free
  string such as a gymnasium id; when it names every value of an enum, only its patterns are read), or for a
  list of choices (every value whose pattern matches is taken, in the order of the text); for a ``priors``
  mapping, parameter names to the ways prose writes them.

A capture for a column argument is taken only as a column of the data: its name, or words that read as exactly
one column ("the test heights" as ``height_m``).  A number the text gives once sets one argument: the
patterns of every argument read before the argument names do ("32 importance samples" is not also 32 samples).

Patterns are matched case-insensitively on the task's text; a match right after a negation ("not", "without")
does not count.  Write them for the ways a field's scientists phrase the setting, not for one task's words.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cmbagent.profiles import ColumnProfile, FileProfile

__all__ = ["LEVEL", "FieldWords", "field_words", "words_of"]

DataFit = Callable[[Sequence[FileProfile]], float]

#: an interval's level as prose gives it, for a method's ``confidence`` argument: "90% confidence intervals", "a 95
#: per cent range", "at the 99% level", "quote the interval at 99%", "intervals at the 80 per cent level"
LEVEL = [r"\b(\d\d(?:\.\d+)?)(?:\s*%|\s+per\s?cent)\s+(?:CIs?\b|(?:(?:confidence|uncertainty|design-based|"
         r"bootstrap)\s+){0,2}(?:intervals?|range|band)\b)",
         r"\bat\s+the\s+(\d\d(?:\.\d+)?)(?:\s*%|\s+per\s?cent)\s+(?:confidence\s+)?level\b",
         r"\b(?:intervals?|CIs?|bands?|ranges?)\s+(?:at|of)\s+(?:the\s+)?(\d\d(?:\.\d+)?)(?:\s*%|\s+per\s?cent)"
         r"(?!\s+of\b)",
         # "Eighty-percent intervals", "ninety-five per cent bands"
         r"\b((?:fifty|sixty|seventy|eighty|ninety)(?:[\s-]+(?:five|nine))?[\s-]*(?:%|per[\s-]?cent))\s+(?:(?:confidence|"
         r"uncertainty|bootstrap)\s+)?(?:intervals?|CIs?|bands?|ranges?)\b",
         # "a very conservative interval: report it at 99 per cent"
         r"\b(?:intervals?|CIs?|bands?)\s*[:—–]\s*(?:please\s+)?(?:report|give|quote|show|compute)\s+(?:it|them)\s+at\s+"
         r"(?:the\s+)?(\d\d(?:\.\d+)?)(?:\s*%|\s+per\s?cent)(?!\s+of\b)"]


@dataclass(frozen=True)
class FieldWords:
    """How a method's field asks for it (see the module docstring)."""

    intents: tuple[str, ...] = ()
    cues: dict[str, float] = field(default_factory=dict)
    data: DataFit | None = None
    #: how prose states the method's arguments, in the format of ``@method(phrases=...)``: per argument a list
    #: of patterns (one group captures the value; none marks a boolean as set) or values -> patterns
    arguments: dict[str, Any] = field(default_factory=dict)
    #: how prose spells the values of a list of names: per argument, canonical value -> patterns of a whole item
    #: ("Ω_m" and "Omega_m" are ``Omega_m``); a captured list is read only when every item is spelled so
    spellings: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: choices of the field the method does not offer, per argument: a name -> patterns ("local outlier factor"
    #: for an anomaly method's ``baselines``); a text that asks for one is asked back, never run without it
    unoffered: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: per input file argument, what keeps the method from reading a file as it is (a profile -> the reason, or
    #: None): two distance-modulus columns the fit cannot choose between; such a file is asked about, never run
    layout: dict[str, Callable[[FileProfile], str | None]] = field(default_factory=dict)
    #: groups of optional arguments of which the method's question needs one: an instrument method without an
    #: instrument (``instruments`` or ``instrument_file``) answers another question, so a reading without one asks
    one_of: tuple[tuple[str, ...], ...] = ()
    #: per argument, the arguments it replaces when set (the method ignores them then): a user's own density
    #: (``log_density``) replaces the built-in ``target`` that a word describing it ("banana-shaped") would name
    overrides: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: settings of other methods that this method's own arguments express: the theory spectra of "a closed
    #: universe" take it as parameters (``params``), so another method's ``model`` words are no sign of that method
    expresses: tuple[str, ...] = ()
    #: a notion of the field each task names in its own words ("the cracked batches", "hot boxes" for the rare class
    #: of anomaly detection): a marker written inside the argument patterns -> a function of the task's text and
    #: data that gives patterns of the task's own words for it.  The reader puts them in place of the marker; a
    #: marker left in place matches nothing a person writes
    terms: dict[str, Callable[[str, Sequence[FileProfile]], list[str]]] = field(default_factory=dict)
    #: words that say the text sets an argument whose values the phrases above spell out one by one (a symmetry
    #: group's generators: "repeats every sixth of a turn about the polar axis"): when none of those values is read,
    #: the argument is a question, never its default
    said_by: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def with_terms(self, phrases: dict[str, Any], text: str, profiles: Sequence[FileProfile]) -> dict[str, Any]:
        """``phrases`` (argument patterns as :func:`argument_phrases` merges them) with each marker of
        :attr:`terms` widened by the task's own words for it."""
        found = {marker: words for marker, reader in self.terms.items() if (words := reader(text, profiles))}
        if not found:
            return phrases

        def widen(entry: Any) -> Any:
            if isinstance(entry, str):
                for marker, words in found.items():
                    entry = entry.replace(marker, "|".join([re.escape(marker), *words]))
                return entry
            if isinstance(entry, tuple):
                return tuple(widen(e) for e in entry)
            if isinstance(entry, list):
                return [widen(e) for e in entry]
            if isinstance(entry, dict):
                return {k: widen(v) for k, v in entry.items()}
            return entry

        return {name: widen(spec) for name, spec in phrases.items()}

    def spell(self, argument: str, item: str) -> str | None:
        """The canonical value ``item`` spells for ``argument`` (None: no declared spelling matches it whole)."""
        for value, patterns in self.spellings.get(argument, {}).items():
            if any(re.fullmatch(p, re.sub(r"^(?:the|a|an)\s+", "", item.strip(" `'\"")), re.I) for p in patterns):
                return value
        return None


_WORDS: dict[str, FieldWords] = {}


def field_words(method: str, *, intents: Sequence[str] = (), cues: dict[str, float] | None = None,
                data: DataFit | None = None, arguments: dict[str, Any] | None = None,
                spellings: dict[str, dict[str, list[str]]] | None = None,
                unoffered: dict[str, dict[str, list[str]]] | None = None,
                layout: dict[str, Callable[[FileProfile], str | None]] | None = None,
                one_of: Sequence[Sequence[str]] = (),
                overrides: dict[str, Sequence[str]] | None = None, expresses: Sequence[str] = (),
                terms: dict[str, Callable[[str, Sequence[FileProfile]], list[str]]] | None = None,
                said_by: dict[str, Sequence[str]] | None = None) -> FieldWords:
    """Declare the words of ``method``'s field (patterns are validated here, once)."""
    for pattern in cues or {}:
        re.compile(pattern, re.I)
    for spec in (arguments or {}).values():
        for entry in ([p for ps in spec.values() for p in ps] if isinstance(spec, dict) else spec):
            pattern = entry[0] if isinstance(entry, tuple) else entry  # (pattern, value): the words set that value
            if re.compile(pattern, re.I).groups > 1:
                raise ValueError(f"{method}: argument pattern {pattern!r} may capture one value at most")
    for values in (spellings or {}).values():
        for patterns in values.values():
            for pattern in patterns:
                re.compile(pattern, re.I)
    for choices in (unoffered or {}).values():
        for patterns in choices.values():
            for pattern in patterns:
                re.compile(pattern, re.I)
    for marks in (said_by or {}).values():
        for pattern in marks:
            if re.compile(pattern, re.I).groups:
                raise ValueError(f"{method}: said_by pattern {pattern!r} marks where an argument is said; it captures nothing")
    entry = FieldWords(intents=tuple(intents), cues=dict(cues or {}), data=data, arguments=dict(arguments or {}),
                       spellings=dict(spellings or {}), unoffered=dict(unoffered or {}), layout=dict(layout or {}),
                       one_of=tuple(tuple(group) for group in one_of),
                       overrides={k: tuple(v) for k, v in (overrides or {}).items()}, expresses=tuple(expresses),
                       terms=dict(terms or {}), said_by={k: tuple(v) for k, v in (said_by or {}).items()})
    _WORDS[method] = entry
    return entry


def input_fit_of(short_name: str) -> Callable[[Sequence[FileProfile]], float] | None:
    """How well files fit the input of the method called ``short_name`` ("fit_supernovae"), for an argument
    documented as taking that method's input ("a supernova data file (as for fit_supernovae: ...)")."""
    return next((w.data for name, w in _WORDS.items() if name.rsplit(".", 1)[-1] == short_name and w.data), None)


def words_of(method: str) -> FieldWords:
    """The declared words of ``method`` (empty when none were declared)."""
    return _WORDS.get(method, FieldWords())


# -- what data look like ----------------------------------------------------------------------------------
_REDSHIFT = re.compile(r"^(z|zcmb|zhd|zhel|z_?cmb|z_?hd|z_?hel|redshift|zcmb_?\w*)$", re.I)
_DISTANCE = re.compile(r"^(mu|mu_?\w*|m_?b\w*|mb|dist\w*|distmod\w*|mag\w*)$", re.I)


def _tables(files: Sequence[FileProfile]) -> list[FileProfile]:
    return [f for f in files if f.columns]


def _binary(column: ColumnProfile) -> bool:
    return column.binary and column.count >= 10


def supernova_table(files: Sequence[FileProfile]) -> float:
    """A table with a redshift column and distance moduli or magnitudes (named, or the first numeric
    columns of a headerless file: z in (0, 3), then μ in 30–50 or m in 12–28)."""
    for f in _tables(files):
        names = [c.name for c in f.columns]
        if any(_REDSHIFT.match(n) for n in names) and any(_DISTANCE.match(n) for n in names):
            return 1.0
        numeric = [(c.minimum, c.maximum) for c in f.columns if c.numeric and c.minimum is not None
                   and c.maximum is not None]
        for (a_min, a_max), (b_min, b_max) in itertools.pairwise(numeric):
            if 0 <= a_min < a_max <= 3.5 and ((29 <= b_min and b_max <= 50) or (11 <= b_min and b_max <= 28)):
                return 1.0
    return -0.5 if files else -1.0


def chain_file(files: Sequence[FileProfile]) -> float:
    """A long table of parameter samples (many rows, a few numeric columns, maybe a weight)."""
    for f in files:
        if f.columns and f.rows >= 500 and all(c.numeric for c in f.columns) and 2 <= len(f.columns) <= 60:
            names = {c.name.lower() for c in f.columns}
            return 1.0 if names & {"weight", "weights", "loglike", "like", "lnlike", "post", "prior", "mult"} else 0.4
    return -0.5 if files else -1.0


def labelled_table(files: Sequence[FileProfile], *, rare: bool = False) -> float:
    """Numeric features with a binary label (``rare``: under 25% positives, as anomalies are)."""
    for f in files:
        if f.kind == "arrays" and "X" in f.arrays:
            y = f.column("y")
            if y is None:
                return 0.3 if rare else 0.0
            share = y.positive_share or 0.0
            return 1.0 if not rare or 0 < share < 0.25 else 0.2
        labels = [c for c in f.columns if _binary(c)]
        numeric = [c for c in f.columns if c.numeric and not c.binary]
        if labels and len(numeric) >= 2:
            if not rare:
                return 0.7
            return 1.0 if any(0 < (c.positive_share or 0) < 0.25 for c in labels) else 0.2
    return -0.5 if files else -1.0


def treatment_table(files: Sequence[FileProfile]) -> float:
    """A unit-level table with a binary (or continuous) treatment and a numeric outcome."""
    for f in _tables(files):
        if any(_binary(c) for c in f.columns) and sum(1 for c in f.columns if c.numeric) >= 3:
            return 1.0
        if sum(1 for c in f.columns if c.numeric) >= 3:
            return 0.3
    return -0.5 if files else -1.0


def regression_table(files: Sequence[FileProfile]) -> float:
    """A small numeric table (inputs and a response); the Bayesian tools also run without data."""
    for f in _tables(files):
        if sum(1 for c in f.columns if c.numeric) >= 2:
            return 0.5
    return -0.2 if files else 0.0


def no_data(files: Sequence[FileProfile]) -> float:
    """A simulation study: no input data, or none it could use."""
    return -0.4 if files else 0.3


def optional_table(files: Sequence[FileProfile]) -> float:
    return 0.2 if _tables(files) else 0.0
