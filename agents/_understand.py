"""The offline backend's reading of a task's free text: method arguments stated in prose.

A new user writes "Fit flat LCDM to `data/sn.csv` with a Gaussian prior Ω_m = 0.30 ± 0.02" rather than front
matter.  :func:`understand` maps such prose onto the method's arguments, deterministically and only where the
text is unambiguous:

* ``name: value`` / ``name = value`` written out;
* the method's declared ``phrases`` (``@method(phrases=...)``): value patterns (``(\\d+) labeled anomalies``),
  choice patterns (``curved`` → ``lcdm``), and cues that say where a column argument is meant;
* choices of an enum argument named in the text (``flat LCDM`` is ``flat_lcdm``, the longest name wins over a
  name inside it, a negated mention — "not flat" — does not count);
* priors of a ``priors`` argument: flat (``Ω_m ∈ [0.1, 0.9]``) and Gaussian (``Ω_m = 0.30 ± 0.02``,
  ``N(0.3, 0.02)``), only in a sentence that says "prior";
* columns of the data (their names are given), for arguments documented as columns: the column named after
  the argument's cue, lists (with ranges such as ``x1–x25``), and columns the text says must *not* be used;
* data files: the run's input files onto the method's file arguments.

Everything it sets is recorded as a :class:`~cmbagent.state.Requirement` (what the task asked for, to be
checked at the end), and whatever it cannot map becomes a note that names the front-matter line to add.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from cmbagent.agents._datamap import (
    _AGENT,
    _LINK,
    Mapped,
    _content_fits,
    argument_role,
    column_role,
    identifier,
    list_end,
    map_column_list,
    map_columns,
    map_files,
    row_label,
    sentences,
)
from cmbagent.agents._numbers import WORD_NUMBER, scaled_digits, word_value
from cmbagent.agents._patterns import compiled
from cmbagent.profiles import FileProfile
from cmbagent.state import Requirement

__all__ = ["Understanding", "column_arguments", "sentences", "understand", "understand_task"]

_NUMBER = r"[-+−]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_NEGATION = re.compile(r"\b(?:(?<!yes/)(?<!yes-or-)(?<!yes or )no(?!/)|not|cannot|never|without|nor|except|excluding|exclude[sd]?|omit\w*|"
                       # "once R - 1 drops under 0.05": a value that falls, no exclusion
                       r"drop(?!s?\s+(?:below|under|beneath|past)\b|ped\s+(?:below|under|beneath|past)\b)\w*|"
                       r"skip(?:s|ped|ping)?|leav(?:e|ing) out|rather\s+than|instead\s+of|"
                       # "Nothing is labelled", "none of them has been checked"
                       r"(?:nothing|none(?:\s+of\s+(?:it|them|the\s+\w+))?)\s+(?:is|was|has\s+been|have\s+been|are|were)|"
                       # "nothing raked, no propensity model": what is not done, as a participle
                       # (the window ends before the participle)
                       r"nothing(?=\s+(?:[a-z]+ed\b|$)))\b|"
                       r"n't\b", re.I)
#: a clause that leaves columns out ("do not use mu0", "except x3"); "having no diploma" describes a column
_LEAVE_OUT = re.compile(r"\b(?:not|never|without|nor|except|excluding|exclude[sd]?|omit\w*|drop\w*|"
                        r"leav(?:e|ing) (?:[\w-]+ ){0,3}?out)\b|n't\b|\bno (?:other|more|further)\b|"
                        # "(kext is a nuisance parameter we marginalise)": a parameter left out of the summary
                        r"\bnuisance (?:parameters?|variables?)\b|\bmarginali[sz]\w* (?:over|out)\b", re.I)
#: a request's verb at the start of a clause
_REQUEST_VERB = (r"(?:estimate|fit|compute|run|use|give|report|train|find|compare|predict|weight|rake|take|apply|"
                 r"adjust|control|check|tell)\b")
_BOOKKEEPING = {"output_dir", "seed", "random_state"}
#: what an argument's documentation says 0 leaves out: "(0 skips the policy comparison)"
_SKIPS_AT_ZERO = re.compile(r"\b0\s+(?:skips|disables|turns off|switches off|leaves out|omits)\s+(?:the\s+)?"
                            r"((?:[\w+-]+\s*){1,3})", re.I)
#: a part of the work the text declines, and the words after it: "don't bother training the offline policies",
#: "skip the policy comparison", "no need for ...", "we can do without ..."
_DECLINED = re.compile(r"\b(?:skip(?:s|ping)?|omit(?:s|ting)?|leav(?:e|ing) out|(?:can\s+)?do without|"
                       r"no need (?:to|for)|(?:don't|do not|no need to)\s+(?!skip|omit|leave|drop|forget|neglect|ignore)"
                       r"(?:bother\s+(?:with\s+|to\s+)?|"
                       r"need\s+(?:to\s+)?|want\s+(?:to\s+)?)?|no\b(?!\s+(?:more|other|further|longer|less)\b))\s*"
                       r"((?:[\w+-]+\s+){0,4}[\w+-]+)", re.I)
#: a model spec written out (``openai:gpt-4o-mini``, ``openai-compatible:qwen@http://host:8000/v1``)
_MODEL_SPEC = re.compile(r"(?<![\w/-])((?:openai-compatible|openai|anthropic):[A-Za-z0-9][\w.:/-]*"
                         r"(?:@https?://[^\s`'\"<>)\]]+)?|local:[\w./-]+\.gguf)")
#: a served model's address: a local host, an IP address, a port or an API path (not a paper's link)
ENDPOINT = re.compile(r"https?://(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|[\w.-]+:\d{2,5}|[\w.-]+(?=/v\d\b))"
                      r"[^\s`'\"<>)\]]*", re.I)
#: the name a served model answers to, near its address
_SERVED = re.compile(r"\b(?:answers\s+to|serves?\s+it\s+(?:as|under)|served\s+(?:as|under)|model\s+(?:name|id)"
                     r"(?:\s+is)?|under\s+the\s+name|registered\s+as|listed\s+as)\s*[:=]?\s*[`'\"]?"
                     r"([A-Za-z][\w.:/-]*[A-Za-z0-9])", re.I)
_COUNT_WORDS = {"steps", "step", "number", "count", "size", "each", "gradient", "iterations", "train", "training",
                "runs", "using"}
#: a share as prose writes it: "a quarter", "half", "one fifth", "20%"
_SHARE_WORDS = r"(?:a|one)\s+(?:half|third|quarter|fifth|tenth)|half|\d+(?:\.\d+)?\s*%"
_GENERIC_CUES: dict[str, tuple[str, ...]] = {  # value patterns any method's argument of this name understands
    "seed": (r"\b(?:random )?seed\s*(?:=|:|of|is)?\s*(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
             r"twelve)\b",
             r"\bseed (?:the|its|our|each|every) [\w-]+(?: [\w-]+)? (?:with|at|to|=) (\d+)\b",
             r"\bseed (?:it|them|that|this) (?:with|at|to|=) (\d+)\b",  # "and seed it with 2"
             # "use 21 as the random seed", "take 7 for the seed"
             r"\b(?:use|take|pick|choose|with)\s+(\d+)\s+(?:as|for)\s+(?:the\s+|a\s+)?(?:random\s+)?seed\b"),
    "random_state": (r"\brandom[_ ]state\s*(?:=|:|of|is)?\s*(\d+)\b",),
    # "400 steps with Adam at 0.03", "SGD with a step size of 1e-3": the optimiser's rate
    "learning_rate": (r"\b(?:Adam|AdamW|SGD|RMSprop)\s+(?:optimi[sz]er\s+)?(?:at\s+|with\s+(?:a\s+)?(?:learning\s+rate|lr|step\s+size)"
                      r"\s+(?:of\s+)?|lr\s*=?\s*)(\d*\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.]|\.\d)",),
    # "a quarter of the points should be set aside for testing", "keep a fifth of them back for the test"
    "test_fraction": (rf"\b({_SHARE_WORDS})\s+of\s+(?:the\s+|all\s+)?(?:[\w-]+\s+){{0,2}}?(?:(?:should|must|will|can)\s+be\s+|"
                      r"are\s+|is\s+|to\s+be\s+)?(?:set|held|kept|put)\s+(?:aside|out|back)\b[^.;]{0,30}?\b(?:test|evaluat|"
                      r"validat|scor)",
                      rf"\b(?:keep|set|hold|put)\s+({_SHARE_WORDS})\s+of\s+(?:them|the\s+[\w-]+(?:\s+[\w-]+)?)\s+"
                      r"(?:aside|out|back)\b[^.;]{0,30}?\b(?:test|evaluat|validat|scor)"),
    # "write the outputs to wcdm_planck_run": a folder's name (with an underscore, hyphen or slash), not "a file"
    "output_dir": (r"\b(?:write|save|put|store|keep)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:outputs?|results?|files?|products?)"
                   r"\s+(?:to|in|into|under)\s+(?:the\s+)?(?:(?:output\s+)?(?:folder|directory|dir)\s+)?`?"
                   r"([A-Za-z][\w.-]*[_/-][\w./-]*?)`?(?=[\s,;]|\.(?:\s|$)|$)",),
    "n_folds": (r"\b(\d+)[- ]fold\b", r"\b(\d+) (?:cross-fitting |cross-validation )?folds\b"),
    "n_rep": (r"\b(\d+) (?:repetitions|repeated splits|sample splits)\b",
              r"\brepeat(?:ing)? the (?:sample[- ])?split(?:ting|s)? (\w+(?:[\s-]\w+)?) times\b",
              # "redo the random fold assignment four times", "redraw the cross-fitting partition 3 times"
              r"\b(?:repeat|redo|rerun|redraw|re-draw|reshuffle)(?:ing)?\s+the\s+(?:whole\s+|entire\s+)?(?:random\s+)?(?:sample[- ]|fold\s+|"
              r"cross[- ]fitting\s+)?(?:split(?:ting|s)?|assignment|partition(?:ing)?|folds)\s+(\w+(?:[\s-]\w+)?)\s+times\b"),
}


@dataclass
class Understanding:
    """What :func:`understand` made of a task."""

    arguments: dict[str, Any]
    requirements: list[Requirement] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what it could not map, naming the front-matter line to add
    missing: list[str] = field(default_factory=list)  # required arguments it could not fill (same wording)
    #: how sure each argument is (1 the front matter, ~0.95 written out, lower when inferred from the data)
    confidence: dict[str, float] = field(default_factory=dict)
    evidence: dict[str, str] = field(default_factory=dict)  # why each argument has its value
    #: what the reader would have had to guess: each a question naming the front-matter line that answers it
    questions: list[str] = field(default_factory=list)
    unplaced: list[str] = field(default_factory=list)  # input files no argument of the method takes
    #: what the text leaves open and code filled by a stated rule (argument -> how), shown as a note in the run
    assumed: dict[str, str] = field(default_factory=dict)
    #: numbers put into arguments by meaning (argument -> the clause and similarity), a note in the run
    by_meaning: dict[str, str] = field(default_factory=dict)

    @property
    def clear(self) -> bool:
        """Nothing required is missing and nothing had to be guessed."""
        return not self.missing and not self.questions


def clip_quote(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _norm(text: str) -> str:
    """Lower case, Λ as L and every space or hyphen as ``_``, character for character (``flat ΛCDM`` →
    ``flat_lcdm``), so positions in the result are positions in the text."""
    return re.sub(r"[\s\-]", "_", text.replace("Λ", "L").replace("λ", "l").lower())


def _types(schema: Mapping[str, Any]) -> set[str]:
    """The JSON types ``schema`` allows, and ``real items`` for an array of non-integer numbers (a range such as
    ``[s_min, s_max]``, whose "0 to 4" is its two ends, not every integer between)."""
    options = [schema, *schema.get("anyOf", [])]
    kinds = {o.get("type") for o in options if o.get("type")}
    if any(o.get("type") == "array" and (o.get("items") or {}).get("type") == "number" for o in options):
        kinds.add("real items")
    return {k for k in kinds if k}


def _choices(schema: Mapping[str, Any]) -> list[Any]:
    if "enum" in schema:
        return list(schema["enum"])
    return [c for option in schema.get("anyOf", []) for c in option.get("enum", [])]


_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30,
                 "fifty": 50, "hundred": 100, "a hundred": 100, "a thousand": 1000, "dozen": 12, "a dozen": 12}
_WORD_FRACTIONS = {"half": 0.5, "a half": 0.5, "third": 1 / 3, "a third": 1 / 3, "quarter": 0.25, "a quarter": 0.25,
                   "fifth": 0.2, "a fifth": 0.2, "tenth": 0.1, "a tenth": 0.1, "twentieth": 0.05,
                   "hundredth": 0.01, "two thirds": 2 / 3, "three quarters": 0.75,
                   "one half": 0.5, "one third": 1 / 3, "one quarter": 0.25, "one fifth": 0.2, "one tenth": 0.1}
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return bool(a == b)


def _number(raw: str, *, fraction: bool = False) -> float | None:
    """A number as prose writes it: ``2,000``, ``1e-6``, ``10⁻⁶``, ``30%`` (0.3 when ``fraction``), ``eight``,
    ``a fifth``, ``16K`` (thousands, as context lengths are written); None when ``raw`` is not one."""
    text = " ".join(raw.split()).strip("'\"`,.;:()").replace("−", "-").replace("–", "-").lower()  # "a\nquarter"
    text = re.sub(r"^\+\s*(?=\.?\d)", "", text)  # "Ω_K = +0.005": a sign said to stress it is positive
    if text in _WORD_FRACTIONS:
        return _WORD_FRACTIONS[text]
    odds = re.fullmatch(r"(one|a|1)\s+(?:\w+\s+)?in\s+(\w+)", text)  # "one in ten", "1 in 20", "one seam in five"
    if odds and fraction:
        whole = float(odds.group(2)) if odds.group(2).isdigit() else word_value(odds.group(2))
        return 1.0 / whole if whole and whole > 1 else None
    every = re.fullmatch(r"(?:one|a|1)\s+(?:\w+\s+){0,2}?(?:into|with|to|per|for)\s+every\s+(\w+)", text)
    if every:  # "one old edit into every two": a rate, whatever the argument's range
        whole = float(every.group(1)) if every.group(1).isdigit() else word_value(every.group(1))
        return 1.0 / whole if whole and whole > 1 else None
    if text in _WORD_NUMBERS:
        return float(_WORD_NUMBERS[text])
    portion = re.fullmatch(r"(?:a\s+|one\s+)?(half|third|quarter|fifth|tenth)\s+(?:a|of\s+(?:a|one))\s+per[\s-]?cent", text)
    if portion:  # "half a per cent": a fraction of one per cent
        parts = {"half": 2, "third": 3, "quarter": 4, "fifth": 5, "tenth": 10}[portion.group(1)]
        return 0.01 / parts if fraction else 1.0 / parts
    worded = re.fullmatch(r"([a-z]+(?:[\s-]+[a-z]+)*?)[\s-]*(?:%|per[\s-]?cent)", text)  # "eighty-percent intervals"
    if worded and (level := word_value(worded.group(1))) is not None:
        return level / 100.0 if fraction else level
    share = re.fullmatch(r"(\d[\d,]*)\s+of\s+(?:its|the|all|our|their)?\s*(\d[\d,]*)", text)
    if share and fraction:  # "the first 1,200 of its 3,000 samples": a share of 0.4
        part, whole = (float(g.replace(",", "")) for g in share.groups())
        return part / whole if 0 < part <= whole else None
    if re.fullmatch(r"[a-z]+(?:[\s-]+[a-z]+)*", text) and (words := word_value(text)) is not None:
        return words  # "two hundred", "four thousand", "twenty-five"
    if re.fullmatch(r"\d+(?:\.\d+)?\s?k", text):
        return float(text[:-1]) * 1000.0
    power = re.fullmatch(r"10(?:\^|\*\*)\{?([-+]?\d+)\}?", text) or (
        re.fullmatch(r"10([-+]?\d+)", text.translate(_SUPERSCRIPT)) if text != text.translate(_SUPERSCRIPT) else None)
    if power:
        return 10.0 ** int(power.group(1))
    percent = text.endswith("%") or text.endswith(" percent") or text.endswith(" per cent")
    text = re.sub(r"\s*(%|percent|per cent)$", "", text)
    if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", text):
        text = text.replace(",", "")
    if not re.fullmatch(r"-?\d+(\.\d*)?([eE][-+]?\d+)?|-?\.\d+", text):
        return None
    value = float(text)
    return value / 100.0 if percent and fraction else value


def _is_fraction(schema: Mapping[str, Any], doc: str = "") -> bool:
    """An argument whose values are fractions (its bounds lie in [0, 1], its default is a real between 0 and 1
    — "90% intervals" for a level of 0.95 are 0.9 — or its documentation says so: "Fraction of ...", "noise on
    the actions, as a fraction of the action range")."""
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    default = schema.get("default")
    return (high is not None and high <= 1) or (isinstance(default, float) and 0 < default < 1) or bool(re.match(r"(?:fraction|share|proportion|ratio|probability)\b",
                                                             doc.strip(), re.I)) or bool(
        re.search(r"\bin \(0, ?1\)|\be\.g\. 0?\.\d+ for \d+ ?%", doc)  # "in (0, 1)", "e.g. 0.1 for 10%"
        or re.search(r"\bas a (?:fraction|share|proportion) of\b", doc, re.I))


def _cast(raw: str, kinds: set[str], *, fraction: bool = False) -> Any:
    raw = raw.strip().strip("'\"`,.;").replace("−", "-")
    if "boolean" in kinds and raw.lower() in {"true", "false", "yes", "no"}:
        return raw.lower() in {"true", "yes"}
    if "array" in kinds:
        span = re.fullmatch(r"(\d+)\s*(?:–|—|-|…|\.\.\.?|\b(?:up\s+)?to\b|\bthrough\b)\s*(\d+)", raw)
        if span and "real items" in kinds:  # a range of reals: "0 to 4" is [0, 4]
            return [int(span.group(1)), int(span.group(2))]
        if span and 0 <= int(span.group(2)) - int(span.group(1)) <= 1000:  # "0 to 4", "0–4": every integer
            return list(range(int(span.group(1)), int(span.group(2)) + 1))
        # a comma followed at once by three digits is a thousands separator ("250, 500, 1,000 and 2,000"), not a break
        parts = [re.sub(r"^all\s+(?:the\s+)?", "", p.replace(",", ""))  # "75, 150 and all 300": the last is 300
                 for p in re.split(r"\s*(?:,(?!\d{3}(?!\d))|\band\b|\bor\b|;|/)\s*", raw) if p.strip()]
        values = [_number(p, fraction=fraction) for p in parts]
        if parts and all(v is not None for v in values):
            # (a whole number in words is whole: "one" is 1, not 1.0; "1e3" and "2.0" keep what they wrote)
            return [int(v) if v is not None and v == int(v) and "." not in p and not re.search(r"\d\s*[eE]", p) else v
                    for v, p in zip(values, parts, strict=True)]
    if kinds & {"integer", "number"}:
        value = _number(raw, fraction=fraction)
        if value is not None:
            if "integer" in kinds and value == int(value):
                return int(value)
            if "number" in kinds:
                return value
    return raw if "string" in kinds else None


def _string_items(schema: Mapping[str, Any]) -> bool:
    """A list of strings (names)."""
    items = [schema.get("items") or {}] + [o.get("items") or {} for o in schema.get("anyOf", [])]
    return "array" in _types(schema) and any(i.get("type") == "string" for i in items)


def _pairs(raw: str, parts: Sequence[str]) -> list[list[int]] | None:
    """Integer pairs whose parts are named ``parts`` (``("layer", "head")``), as prose lists them: "(0, 2) and
    (2, 1)" in that order, "L0H2", or each part by its word in any order ("head 2 of layer 0 and head 1 of
    layer 2"); None when a pair is left incomplete ("layers 0 and 2, heads 2 and 1" is not read)."""
    tuples = re.findall(r"[(\[]\s*(\d+)\s*,\s*(\d+)\s*[)\]]", raw)
    first, second = (p.lower() for p in parts)
    tuples = tuples or re.findall(rf"(?<![A-Za-z]){first[0]}(\d+)\s*[.:/-]?\s*{second[0]}(\d+)\b", raw, re.I)
    if not tuples and re.search(rf"\b{first}\s*([.:/])\s*{second}\b", raw, re.I):
        # the notation said first: "written as layer.head ...: 0.2 and 2.1"
        mark = re.escape(re.search(rf"\b{first}\s*([.:/])\s*{second}\b", raw, re.I).group(1))  # type: ignore[union-attr]
        tuples = re.findall(rf"(?<![\w.])(\d+){mark}(\d+)(?![\w.]|{mark}\d)", raw[re.search(
            rf"\b{first}\s*[.:/]\s*{second}\b", raw, re.I).end():])  # type: ignore[union-attr]
    if tuples:
        return [[int(a), int(b)] for a, b in tuples]
    pairs: list[list[int]] = []
    current: dict[str, int] = {}
    for match in re.finditer(rf"\b({first}|{second})\s*(?:=|:|#|no\.)?\s*(\d+)\b", raw, re.I):
        part = match.group(1).lower()
        if part in current:
            return None
        current[part] = int(match.group(2))
        if len(current) == 2:
            pairs.append([current[first], current[second]])
            current = {}
    return pairs if pairs and not current else None


_ORDINAL_INDEX = {"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "sixth": 5}


def _ordinal_parts(raw: str, parts: Sequence[str], count: int | None) -> str:
    """Ordinal words as zero-based indices, as :func:`_pairs` reads them: "head 0 of the first layer and head 1 of
    the last layer" is "head 0 of layer 0 and head 1 of layer 2" with three layers ("the last" stays unread when
    the count is unknown, and indices written as one-based are not guessed at)."""
    if re.search(r"\b(?:one|1)[- ]based\b|\bcounting\s+from\s+(?:one|1)\b", raw, re.I):
        return raw
    for part in parts:
        def index(m: re.Match[str], part: str = part) -> str:
            word = m.group(1).lower()
            at = count - 1 if word in {"last", "final", "top"} and count else _ORDINAL_INDEX.get(word)
            return f"{part} {at}" if at is not None else m.group(0)
        raw = re.sub(rf"\bthe\s+(first|second|third|fourth|fifth|sixth|last|final)\s+{part}\b", index, raw, flags=re.I)
    return raw


def _pairs_span(match: re.Match[str], parts: Sequence[str]) -> tuple[int, int]:
    """Where the pairs :func:`_pairs` read lie in ``match``'s capture: from the first number of a pair to the last
    (the rest of the clause, "edit vectors of standard deviation 3", is left for other arguments)."""
    first, second = (p.lower() for p in parts)
    pattern = rf"[(\[]\s*\d+\s*,\s*\d+\s*[)\]]|(?<![A-Za-z]){first[0]}\d+\s*[.:/-]?\s*{second[0]}\d+\b|" \
              rf"\b(?:{first}|{second})\s*(?:=|:|#|no\.)?\s*\d+\b" + \
              (r"|(?<![\w.])\d+[.:/]\d+(?![\w.]|[.:/]\d)" if re.search(rf"\b{first}\s*[.:/]\s*{second}\b", match.group(1), re.I)
               else "")
    found = list(re.finditer(pattern, match.group(1), re.I))
    if not found:
        return match.span(1)
    return match.start(1) + found[0].start(), match.start(1) + found[-1].end()


def _negated(text: str, start: int) -> bool:
    """Whether a negation comes shortly before ``start`` in the same sentence."""
    # a sentence, a list's item, a clause after ", so" ("not a yes/no, so fit the partially linear model"), or
    # brackets, which state a value of their own ("membranes that do not leak (β = 1)") and keep their negation to
    # themselves ("pipelines only (no TPE), 25 tries, seed 7")
    # "no membrane leak at all, reset to zero": "at all" closes its negation
    window = re.split(r"[.;!?](?:\s|$)|\n\s*\n|\n\s*(?:[-*•]|\d+[.)])\s|,\s*(?:so|but|hence|thus|therefore)\s|[()]|"
                      r"\bat\s+all\b",
                      text[max(0, start - 25):start])[-1]
    window = re.sub(r"\b(?:and|or)\s+without\b", " ", window)  # "with and without the loss" compares, negates nothing
    # "there is no need for a comparison with a second Boltzmann code": what is not needed, further back
    wider = re.split(r"[.;!?](?:\s|$)|\n\s*\n|,\s*(?:so|but|hence|thus|therefore)\s|[()]", text[max(0, start - 70):start])[-1]
    # ("skip the comparison against the other Boltzmann code")
    return bool(_NEGATION.search(window)) or re.search(r"\b(?:no|little)\s+need\s+(?:for|to)\b|\bneedn't\b|"
                                                       r"\b(?:not|un)\s*necessary\b|\b(?:skip|omit|drop|forgo)\w*\s+(?:the\s+|any\s+)?"
                                                       r"(?:comparison|cross[- ]?check|check|run)\b", wider, re.I) is not None


def _left_out(text: str, start: int, end: int) -> bool:
    """Whether the words at ``start:end`` are what a "leave ... out" around them leaves out ("Leave plain continual
    fine-tuning out"), or what a "skip" or "omit" right before them drops ("skip plain fine-tuning")."""
    before = text[max(0, start - 40):start]
    if re.search(r"\b(?:skip|omit|drop|exclude)\s+(?:the\s+|any\s+)?(?:[\w-]+\s+){0,1}$", before, re.I):
        return True  # "skip plain fine-tuning this time", "omit the replay strategy"
    # a modifier may stand between the words and their verb: "Plain fine-tuning without replay isn't needed"
    # leaves plain fine-tuning out, and the replay of that modifier is not what it leaves out
    if not re.search(r"\b(?:with|without)\s+$", before, re.I) and re.match(r"(?:\s+(?:with|without)\s+[\w-]+)?\s+(?:(?:is|are)\s+(?:out\s+of\s+scope|not\s+(?:needed|wanted|of\s+interest)|excluded|off\s+the\s+table|"
                r"left\s+out|dropped|skipped|omitted|benched|sitting\s+out)|(?:sits?|stays?)\s+(?:this\s+one\s+)?out|"
                r"(?:won't|will\s+not|can't|cannot|isn't|is\s+not|aren't|are\s+not)\s+(?:be\s+)?(?:deployable|usable|used|"
                r"needed|wanted|available|an\s+option|possible|relevant|of\s+interest))\b", text[end:end + 40], re.I):
        return True  # "retrieval is out of scope, so compare just those two", "DevNet won't be deployable",
        # "retrieval sits out"
    return bool(re.search(r"\bleav(?:e|ing)\s+(?:[\w-]+\s+){0,3}$", before, re.I)
                and re.match(r"\s+(?:\w+\s+)?out\b", text[end:end + 24]))


def _in_file_note(text: str, start: int) -> bool:
    """Whether ``start`` lies in brackets that describe a file ("(data/needles.csv: needle, question, plus literal
    questions)", "data/needles.csv (needle, ...)"): what the file holds, not what the run should do."""
    opened = text.rfind("(", 0, start)
    if opened < 0 or text.find(")", opened, start) != -1:
        return False
    return re.match(r"\(\s*`?[\w./-]+\.[A-Za-z0-9]{1,6}`?\s*[:,;]", text[opened:]) is not None or \
        re.search(r"[\w/.-]+\.[A-Za-z][A-Za-z0-9]{0,5}`?\s*$", text[:opened]) is not None  # "data/x.csv (needle, ...)"


def _words_pattern(value: str) -> str:
    """A pattern for the words of a choice as prose writes them: ``MountainCarContinuous-v0`` as "mountain car
    (continuous)", ``random_forest`` as "random forest(s)", ``Pendulum-v1`` as "pendulum", ``gradient_boosting``
    as "gradient-boosted (trees)"."""
    stem = re.sub(r"[-_]v\d+$", "", value)
    words = [w for w in re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", stem) if w]
    joined = r"[\s_-]*".join(re.escape(w[:-3]) + "(?:ing|ed)" if len(w) > 6 and w.endswith("ing") else re.escape(w)
                             for w in words)
    return rf"(?<![\w-]){joined}s?(?![\w])"


def argument_phrases(spec: Any) -> dict[str, Any]:
    """How prose states each argument of ``spec``: the method's own ``phrases`` first, then its field's
    (:func:`cmbagent.agents._fields.words_of`); value patterns of both are tried, the method's first."""
    from cmbagent.agents._fields import words_of

    merged: dict[str, Any] = dict(spec.phrases)
    for name, extra in words_of(spec.name).arguments.items():
        own = merged.get(name)
        if own is None:
            merged[name] = {k: tuple(v) for k, v in extra.items()} if isinstance(extra, Mapping) else tuple(extra)
        elif isinstance(own, Mapping) and isinstance(extra, Mapping):
            merged[name] = {**own, **{k: tuple(own.get(k, ())) + tuple(v) for k, v in extra.items()}}
        elif isinstance(own, tuple) and not isinstance(extra, Mapping):
            merged[name] = own + tuple(extra)
    return merged


def column_arguments(spec: Any) -> list[str]:
    """Arguments that name columns of the data: string or string-list arguments whose documentation opens by
    calling them a column (``Outcome column.``, ``Name of the CSV column that marks ...``).  A file argument is
    never one, though its documentation speak of columns (``CSV/TSV with the input columns and the response``)."""
    from cmbagent.tools.methods import path_arguments

    files = path_arguments(spec.name)
    out = []
    for name, schema in spec.arguments.items():
        if name in files:
            continue
        first = spec.argument_docs.get(name, "").split(". ")[0].lower()
        kinds = _types(schema)
        items = [schema.get("items", {})] + [o.get("items", {}) for o in schema.get("anyOf", [])]
        stringy = "string" in kinds or any(i.get("type") == "string" for i in items if i)
        if stringy and "column" in first and "path" not in first and "file" not in first:
            out.append(name)
    return out


#: a file's columns named in the text, in order: "[plot, clay_pct, rain_mm]", "the columns are, in this order: a, b, c"
_COLUMN_LIST = re.compile(r"\[\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*){1,60})\s*\]|"
                          r"\bcolumns?\s+(?:are|is|read)\b[^:.;]{0,40}:\s*(`?[A-Za-z_]\w*`?(?:\s*,\s*(?:and\s+)?`?[A-Za-z_]\w*`?){1,60})")


#: the same, one item per line after a sentence that says so: "Its six columns are, in order:\n- area_ha: farm area"
_COLUMN_ITEMS = re.compile(r"\bcolumns?\s+(?:are|is|read)\b[^:.;\n]{0,40}:[ \t]*\n(?:[ \t]*\n)?"
                           r"((?:[ \t]*(?:[-*•]|\d+[.)])[ \t]+`?[A-Za-z_]\w*`?[ \t]*(?:[:—–(-][^\n]*)?\n?){2,60})")


def headerless_names(text: str, profiles: Sequence[FileProfile]) -> tuple[str, list[str], str] | None:
    """The column names the text gives a file without a header row (a list of as many distinct names as the file
    has columns), as (file, names, the sentence); None when no single such file and list match."""
    bare = [p for p in profiles if p.kind in {"headerless", "matrix"} and not p.square and len(p.columns) >= 2]
    found = []
    lists = [(match, [n.strip(" `") for n in re.split(r",\s*(?:and\s+)?", match.group(1) or match.group(2))])
             for match in _COLUMN_LIST.finditer(text)]
    # "Its six columns are, in order:" and then one item per line, "- area_ha: farm area"
    for match in _COLUMN_ITEMS.finditer(text):
        lists.append((match, re.findall(r"(?m)^\s*(?:[-*•]|\d+[.)])\s+`?([A-Za-z_]\w*)`?", match.group(1))))
    for match, names in lists:
        fits = [p for p in bare if len(p.columns) == len(names)]
        if len(set(names)) == len(names) and len(fits) == 1:
            start = max(text.rfind(". ", 0, match.start()) + 2, 0)
            found.append((fits[0].name, names, text[start:match.end()]))
    return found[0] if len({(f, tuple(n)) for f, n, _ in found}) == 1 else None


def _prior_value(head: str, sentence: str) -> Any:
    """The prior ``sentence`` gives the parameter written as ``head``: a Gaussian ``{"mean", "std"}`` (``0.30 ±
    0.02``, ``N(0.3, 0.02)``), flat bounds ``[lower, upper]`` (``∈ [0.1, 0.9]``, ``between 0.1 and 0.9``), or None.
    An aside in brackets that gives no value ("the absolute magnitude (defined at H0 = 70) as a parameter, with a
    Gaussian prior of −19.25 ± 0.05 mag on it") stands between a parameter and its prior, so it is read without."""
    whole, sentence = sentence, re.sub(r"\s*\((?![\s−-]*\d)[^()±]{0,60}\)", " ", sentence)
    flat = re.search(head + r"\s*(?:[=:~∈]|\bin\b|\bwithin\b)?\s*(?:U\s*)?[\[(]\s*(" + _NUMBER
                     + r")\s*,\s*(" + _NUMBER + r")\s*[\])]", sentence, re.I)
    between = re.search(head + r"[^.;]{0,20}?\bbetween\s+(" + _NUMBER + r")\s+and\s+(" + _NUMBER + ")",
                        sentence, re.I) or re.search(  # "a flat prior on Ω_m restricted to 0.2–0.4"
        head + r"[^.;\d]{0,20}?\b(?:restricted|limited|bounded|confined|truncated)\s+to\s+(?:the\s+range\s+)?("
        + _NUMBER + r")\s*(?:–|—|-|to)\s*(" + _NUMBER + ")", sentence, re.I)
    gauss = re.search(head + r"\s*(?:[=:~]|\bof\b|\bis\b)?\s*(" + _NUMBER + r")\s*(?:±|\+/-|\+-)\s*("
                      + _NUMBER + ")", sentence, re.I) or re.search(
        head + r"\s*(?:[=:~]|\bis\b)?\s*(?:N|𝒩|Normal|Gaussian)\s*\(\s*(" + _NUMBER + r")\s*,\s*("
        + _NUMBER + r")\s*\)", sentence, re.I) or re.search(
        # "a Gaussian prior on Ω_m centred on 0.295 with a width of 0.015", "mean 0.3 and standard deviation 0.02"
        # "For τ, swap the default reionisation prior for a normal one centred on 0.06, σ = 0.01"
        head + r"[^.;\d]{0,70}?\b(?:cent(?:red|ered)\s+(?:on|at)|mean(?:\s+of)?)\s+(" + _NUMBER + r")\s*,?\s*(?:and\s+|with\s+)?"
        r"(?:an?\s+)?(?:width|standard\s+deviation|sigma|σ|std|spread|scale)\s*(?:of\s+|=\s*|:\s*|\s)(" + _NUMBER + ")",
        sentence, re.I) or re.search(
        # "a Gaussian prior on the matter density, 0.315 with a standard deviation of 0.007"
        # ("use τ = 0.055 with a Gaussian width of 0.007")
        head + r"[^.;\d]{0,30}?(" + _NUMBER + r")\s*,?\s*(?:with|and)\s+(?:an?\s+)?(?:Gaussian\s+|normal\s+)?(?:width|"
        r"standard\s+deviation|sigma|σ|std|spread)\s*(?:of\s+|=\s*|:\s*|\s)(" + _NUMBER + ")", sentence, re.I) or re.search(
        # "constrain Ω_m with a normal prior, 0.31 ± 0.02, standing in for external data"
        head + r"[^.;\d]{0,40}?\b(?:Gaussian|normal)\s+prior\s*(?:[,:(]\s*|of\s+|at\s+)(" + _NUMBER + r")\s*(?:±|\+/-|\+-)\s*("
        + _NUMBER + ")", sentence, re.I)
    if flat is None and between is None:  # "a flat prior from 60 to 80 km/s/Mpc", "w0 flat on −1.6 to −0.4"
        between = re.search(head + r"[^.;\d]{0,60}?\b(?:from|on|over)\s+(" + _NUMBER + r")\s*(?:to|–|—)\s*("
                            + _NUMBER + r")(?!\d|\.\d)", sentence, re.I)
    if gauss is None and flat is None and between is None:
        # the parameter after its prior: "a Gaussian prior of width 1 centred on zero on wa", "a normal prior centred
        # on 0.3 with width 0.02 for Ω_m"
        value = rf"({_NUMBER}|zero)"
        width = r"(?:width|standard\s+deviation|sigma|σ|std|spread|scale)\s*(?:of\s+|=\s*)?"
        centre = r"cent(?:red|ered)\s+(?:on|at)\s+"
        tail = r"\s+(?:on|for)\s+(?:the\s+)?" + head
        lead = r"\b(?:Gaussian|normal)\s+prior\s+(?:of\s+|with\s+)?(?:an?\s+)?"
        after = re.search(lead + width + value + r"\s*,?\s*(?:and\s+)?" + centre + value + tail, sentence, re.I)
        before = re.search(lead + centre + value + r"\s*,?\s*(?:and\s+|with\s+)?(?:an?\s+)?" + width + value + tail,
                           sentence, re.I)
        if after or before:
            std, mean = (after.group(1), after.group(2)) if after else (before.group(2), before.group(1))  # type: ignore[union-attr]
            return {"mean": 0.0 if mean.lower() == "zero" else float(mean.replace("−", "-")),
                    "std": float(std.replace("−", "-"))}
        # "a flat prior from 0.05 to 0.95 on Ω_m", "a uniform prior between 0.1 and 0.5 for it"
        between = re.search(r"\b(?:flat|uniform|top-?hat|box)\s+prior\s+(?:from|between|of|over|on)\s+(" + _NUMBER
                            + r")\s*(?:to|and|–|—)\s*(" + _NUMBER + r")(?![\d.])\s*(?:on|for)\s+(?:the\s+)?" + head,
                            sentence, re.I)
    match = gauss or flat or between
    if match is None:  # "cap the dark-energy density prior at 1.2 ... (keep 0 as the lower bound)": both edges said
        cap = re.search(r"\b(?:cap|limit|truncat)\w*\s+(?:the\s+)?" + head + r"(?:\s+prior)?\s+(?:at|to)\s+("
                        + _NUMBER + ")", whole, re.I)
        floor = re.search(r"(" + _NUMBER + r")\s+as\s+(?:the\s+|its\s+)?lower\s+(?:bound|edge|limit)\b", whole, re.I) \
            or re.search(r"\blower\s+(?:bound|edge|limit)\s+(?:of|at)\s+(" + _NUMBER + ")", whole, re.I)
        if cap is None or floor is None:
            return None
        return [float(floor.group(1).replace("−", "-")), float(cap.group(1).replace("−", "-"))]
    low, high = float(match.group(1).replace("−", "-")), float(match.group(2).replace("−", "-"))
    return {"mean": low, "std": high} if gauss else [low, high]


_DOC_STOP = re.compile(r"\b(?:of|per|between|in|on|at|for|from|with|to|by|as|that|which|when|if|and|or|e\.g)\b|"
                       r"[.(;,:=\[]|\s[—–-]\s")


def doc_name(doc: str) -> list[str]:
    """The words an argument's documentation calls it by ("Step size η on the loss" -> step size, "Pipeline
    evaluations per search" -> pipeline evaluations, "Number K of discrete instrument cells" -> discrete
    instrument cells): the first noun phrase, without a leading "Number of", symbols and participles in -ed; empty
    when the phrase is longer than three words (a sentence, not a name)."""
    first = re.sub(r"^(?:the|an?)\s+", "", doc.strip(), flags=re.I)
    first = re.sub(r"^(?:number|count)\s+(?:\S{1,2}\s+)?of\s+(?:the\s+)?", "", first, flags=re.I)
    cut = _DOC_STOP.search(first)
    words = [w for w in (first[:cut.start()] if cut else first).split()
             if re.fullmatch(r"[A-Za-z][A-Za-z-]+", w) and not re.search(r"(?<!e)ed$", w)]
    return words if 0 < len(words) <= 3 else []


class _Reader:
    """One pass over one task for one method (see :func:`understand`)."""

    def __init__(self, spec: Any, text: str, given: Mapping[str, Any], data_files: Sequence[str],
                 columns: Mapping[str, Sequence[str]], paths: Mapping[str, str],
                 profiles: Sequence[FileProfile] | None = None):
        # "20 thousand" is one number, 20000; a line wrapped inside a sentence is a space ("a constant\nequation of
        # state" is the phrase "a constant equation of state"), while paragraphs, list items and headings keep their breaks
        self.spec, self.text = spec, _unwrapped(scaled_digits(text))
        text = self.text
        self.phrases = argument_phrases(spec)
        from cmbagent.agents._fields import words_of

        self.words = words_of(spec.name)
        self.phrases = self.words.with_terms(self.phrases, text, profiles or ())  # the task's own words for the field's notions
        self.data_files, self.columns, self.paths = list(data_files), columns, paths
        self.profiles = list(profiles) if profiles is not None else None
        self.args: dict[str, Any] = dict(given)
        self.requirements: list[Requirement] = []
        self.notes: list[str] = []
        self.confidence: dict[str, float] = {name: 1.0 for name in given}
        self.evidence: dict[str, str] = {name: "the front matter" for name in given}
        self.questions: list[str] = []
        self.unplaced: list[str] = []
        self._data_file: str | None = None  # the file the ``data`` argument will read, once predicted
        self.assumed: dict[str, str] = {}
        self.sentences = sentences(text)
        self.lowered = text.lower()
        self.spent: list[tuple[int, int]] = []  # where the text gave a value already read for an argument
        self.unsettled: set[str] = set()  # column arguments the text gives two columns for: asked, not taken

    def record(self, name: str, value: Any, quote: str, *, relation: Literal["equals", "excludes"] = "equals",
               confidence: float = 0.95) -> None:
        if relation == "equals":
            self.args[name] = value
            self.confidence[name] = confidence
            self.evidence[name] = f"the text: “{clip_quote(quote)}”"
        self.requirements.append(Requirement(kind="argument", text=quote.strip()[:240], source="text",
                                             method=self.spec.name, argument=name, relation=relation,
                                             value=value))

    def sentence_of(self, start: int) -> str:
        offset = 0
        for sentence in self.sentences:
            at = self.text.find(sentence, offset)
            if at <= start < at + len(sentence):
                return sentence
            offset = max(offset, at)
        return self.text[max(0, start - 80):start + 80]

    # -- scalar values ------------------------------------------------------------------------------------
    def explicit(self, name: str, schema: Mapping[str, Any]) -> bool:
        """``name: value`` or ``name = value`` written out with the argument's own (snake-case) name."""
        # "model = x", "- model: x", "(model: x)"; not prose with a colon ("on the real model: build the teacher")
        match = next((m for m in re.finditer(rf"(?<![A-Za-z0-9_]){re.escape(name)}\s*[:=]\s*`?([^\s,;`]+)",
                                             self.text) if not _negated(self.text, m.start())
                      and (m.group(0)[len(name):].lstrip().startswith("=")
                           or not re.search(r"\b(?:the|a|an|our|my|their|its|this|that|real|actual|same)\s+$",
                                            self.text[max(0, m.start() - 20):m.start()], re.I))), None)
        if not match:  # "do not use model: wcdm" states no model
            return False
        if re.match(r"\s*(?:,|\band\b|\bor\b)\s*[-+−]?\d", self.text[match.end():]):
            # "widths: 60, 150, 600 and 2400": a list, which the numbers' reading takes whole; for one number ("vary
            # the number of measurements: 40, 80 and 120") it is another argument's sweep, not this value
            return False
        value = _cast(match.group(1), _types(schema))
        if value in (None, "") or (_choices(schema) and value not in _choices(schema)):
            return False
        doc = self.spec.argument_docs.get(name, "")
        # ("Local checkpoint folder ...": "Tiny random model: two layers" names no checkpoint)
        if (name in self.paths or re.search(r"\b(?:folder|file|path|directory)\b", doc.split(". ")[0], re.I)) \
                and not re.search(r"[./\\]", str(value)):
            return False  # "LoRA adapters: rank 4" names no folder of adapters
        columns = self.table_columns()
        if name in column_arguments(self.spec) and columns and value not in columns:
            return False  # "outcome: grain yield" describes the column; it does not name it
        self.record(name, value, self.sentence_of(match.start()))
        self.spent.append(match.span(1))
        return True

    def cued(self, name: str, schema: Mapping[str, Any]) -> bool:
        """A value the method's (or its field's) phrases capture ("(\\d+) labelled anomalies", "first (\\w+) of
        the chain"), cast to the argument's type (words and percentages as numbers); a boolean argument is
        set by a phrase without a group ("sample H0 as a parameter"), and a ``(pattern, value)`` pair sets its
        value ("standard-normal priors" is a prior width of 1).  A column argument takes a capture only as a
        column of the data (:meth:`column_of`); a number already read for another argument is not read again.
        A group named ``count`` gives a list of that many integers from 0 ("five seeds" -> [0, …, 4]); a list
        of pairs whose documentation names their parts ("[layer, head] pairs") is read from those words
        (:func:`_pairs`).  A phrase whose captured value has digits but cannot be read is a question, never a
        silent default."""
        declared = self.phrases.get(name)
        patterns = list(declared) if isinstance(declared, tuple) else []
        patterns += _GENERIC_CUES.get(name, ())
        kinds = _types(schema)
        fraction = _is_fraction(schema, self.spec.argument_docs.get(name, ""))
        is_column = name in column_arguments(self.spec)
        parts = re.search(r"\[(\w+),\s*(\w+)\]\s+pairs", self.spec.argument_docs.get(name, ""))
        unread = listed = None
        for entry in patterns:
            pattern, fixed = entry if isinstance(entry, tuple) else (entry, None)
            compiled = re.compile(pattern, re.I)
            if compiled.groups == 0 and ("boolean" in kinds or fixed is not None):
                match = next((m for m in compiled.finditer(self.text) if not _negated(self.text, m.start())
                              and not (fixed is not None and self.spent_at(m.span()))), None)
                if match is not None:
                    said = True if fixed is None else _cast(str(fixed), kinds)
                    self.record(name, said, self.sentence_of(match.start()), confidence=0.85)
                    if fixed is not None:
                        self.spent.append(match.span())
                    self.described_otherwise(name, said, patterns, kinds, match.start())
                    return True
                continue
            if compiled.groups != 1:
                continue
            for match in compiled.finditer(self.text):
                if re.fullmatch(r"\d[,.]", self.text[max(0, match.start(1) - 2):match.start(1)]):
                    continue  # the capture begins inside a number ("000" of "2,000")
                # a value said once for two arguments ("output and input dimension both 8") is read by each: its
                # patterns carry the comment (?#both)
                if _negated(self.text, match.start()) or (self.spent_at(match.span(1)) and "(?#both)" not in pattern):
                    continue
                value: Any
                if parts:
                    count = self.args.get(f"n_{parts.group(1)}s")  # "the last layer" of ``n_layers`` layers
                    said = re.search(rf"\b(\d+|{WORD_NUMBER})\s+{parts.group(1)}s\b", self.text, re.I)
                    count = count if isinstance(count, int) else word_value(said.group(1)) if said and \
                        not said.group(1).isdigit() else int(said.group(1)) if said else None
                    value = _pairs(_ordinal_parts(match.group(1), parts.groups(), int(count) if count else None),
                                   parts.groups())
                elif "count" in compiled.groupindex:
                    count = _cast(match.group(1), {"integer"})
                    value = list(range(count)) if isinstance(count, int) and 0 < count <= 1000 else None
                elif is_column and "array" not in kinds:
                    value = self.column_of(match.group(1))
                else:
                    raw = match.group(1)  # "(\d\d) % intervals": the sign is outside the capture
                    raw += "%" if re.match(r"\s*(?:%|per ?cent\b)", self.text[match.end(1):]) else ""
                    value = _cast(raw, kinds, fraction=fraction)
                    if value is None and _string_items(schema):  # "`sigma_8` and `S_8`" for a list of names
                        # (a gloss in brackets after a name is no item: "q_gallery (how people rate it) and ...")
                        items = re.sub(r"\s*\([^()]*\)", " ", match.group(1))
                        value = [p.strip(" `'\"") for p in re.split(r",|\band\b|;", items) if p.strip(" `'\"")]
                        if "`" not in match.group(1) and self.words.spellings.get(name):  # "Ω_m and σ_8"
                            # or the data's own names by their words: "the focal depth" as the chain's depth_km
                            spelled = [self.words.spell(name, item) or self.column_of(re.sub(
                                r"^(?:the|a|an|its|their)\s+", "", item.strip(), flags=re.I)) for item in value]
                            if not all(spelled) and len(value) >= 2:
                                listed = listed or match.group(1)
                            value = [self.as_written(v) for v in spelled if v] if all(spelled) else None
                    if isinstance(value, str) and not self.names_columns(name, value):
                        value = self.column_of(value)  # "where deprivation carries ...": the feature by its words
                    elif isinstance(value, list) and value and not self.names_columns(name, value) and \
                            (is_column or re.search(r"\bfeatures?\b", self.spec.argument_docs.get(name, "").split(". ")[0],
                                                    re.I)) and "`" not in match.group(1) and \
                            all(isinstance(v, str) for v in value):  # ("Age obviously cannot be changed": `age`)
                        found = [self.column_of(v) for v in value]  # "the would-you-return question"
                        table = self.table()
                        labels = {c.name for c in table.columns if row_label(c)} if table is not None else set()
                        # (a word that reads as the rows' label names no feature: "A cooperative cannot change ...")
                        value = found if all(found) and not labels & set(found) else None
                    if value == [] or (value is not None and not self.names_columns(name, value)):
                        value = None
                if value is not None:
                    self.record(name, value, self.sentence_of(match.start()), confidence=0.9)
                    self.spent.append(_pairs_span(match, parts.groups()) if parts else match.span(1))
                    self.described_otherwise(name, value, patterns, kinds, match.start())
                    return True
                if re.search(r"\d", match.group(1)):
                    unread = unread or match.group(1)
        if unread is not None or listed is not None:  # digits, or a list of names, the reading could not place
            self.questions.append(f"the text gives {name!r} as “{clip_quote(unread or listed or '', 80)}”, which the "
                                  f"offline backend could not read; add `{name}: <value>` under `arguments:` in the "
                                  "front matter")
        return False

    def described_otherwise(self, name: str, value: Any, patterns: Sequence[Any], kinds: set[str], at: int) -> None:
        """A question when the text also describes ``name`` by words that fix another value (a ``(pattern, value)``
        phrase): "a leak of β = 0.9 — perfect integrators that never lose charge" gives β twice, 0.9 and 1, and
        the run can take one."""
        for entry in patterns:
            if not isinstance(entry, tuple) or re.compile(entry[0]).groups:
                continue
            other = _cast(str(entry[1]), kinds)
            if other is None or _same_value(other, value):
                continue
            match = next((m for m in re.finditer(entry[0], self.text, re.I) if not _negated(self.text, m.start())
                          and not self.spent_at(m.span())), None)
            if match is None:
                continue
            self.questions.append(f"the text gives {name!r} as {value!r} (“{clip_quote(self.sentence_of(at), 70)}”) "
                                  f"and describes it as {other!r} (“{clip_quote(match.group(0), 60)}”); say which is "
                                  f"meant: add `{name}: <value>` under `arguments:` in the front matter")
            return

    def held_elsewhere(self) -> str | None:
        """Words for what another input file read already holds, which a list of the table's columns may name
        beside the columns: the vectors of an ``embeddings`` file."""
        if any(self.paths.get(n) == "input" and n == "embeddings" for n in self.args):
            return r"\b(?:embeddings?|(?:[\w-]+\s+)?vectors?|representations?)\b"
        return None

    def archive_features(self) -> list[str]:
        """The feature names an archive the method reads lists (``feature_names`` of an ``.npz`` with ``X``),
        where no table gives columns: what a feature argument must name."""
        if self.table_columns() or not self.profiles:
            return []
        chosen = self.data_file()
        archives = [p for p in self.profiles if p.kind == "arrays" and p.names.get("feature_names")]
        archive = next((p for p in archives if p.name == chosen), archives[0] if len(archives) == 1 else None)
        return list(archive.names["feature_names"]) if archive is not None else []

    def names_columns(self, name: str, value: Any) -> bool:
        """Whether a value captured for an argument that names columns (a column argument, or one documented as
        naming a feature) is made of the table's columns, or of an archive's feature names; "make it look
        unimportant" names no feature, nor does "CRP" when the archive calls it ``crp_mg_l``."""
        columns = self.table_columns() or self.archive_features()
        first = self.spec.argument_docs.get(name, "").split(". ")[0].lower()
        if not columns or not (name in column_arguments(self.spec) or re.search(r"\bfeatures?\b", first)):
            return True
        known = set(columns) | self.chain_names(columns)
        # a number is no column's name ("the same two questions sixty times each")
        return all(isinstance(v, str) and v in known for v in (value if isinstance(value, list) else [value]))

    def as_written(self, name: str) -> str:
        """A canonical parameter name as the data write it: ``sigma_8`` is the column ``sigma8`` of a chain whose
        header has no underscore (the name itself when no column differs from it only so)."""
        columns = self.table_columns()
        if name in columns:
            return name
        same = [c for c in columns if c.replace("_", "").lower() == name.replace("_", "").lower()]
        if len(same) == 1:
            return same[0]
        ours = self.chain_names([name])
        if ours and name not in self.chain_names(columns) and ours <= self.chain_names(columns):
            return ours.pop()  # the chain reader's name: CosmoSIS's "…--w" is w0
        return name

    def chain_names(self, columns: Sequence[str]) -> set[str]:
        """The names a chain's columns go by in :func:`cosmology.summarize_chain` (none for other methods)."""
        if self.spec.name != "cosmology.summarize_chain":
            return set()
        from cmbagent.tools.methods.cosmology import parameter_name

        return {parameter_name(c) for c in columns}

    def spent_at(self, span: tuple[int, int]) -> bool:
        """Whether the text at ``span`` was already read as another argument's value ("32 importance samples"
        sets the importance samples, not also the samples drawn)."""
        return any(a < span[1] and span[0] < b for a, b in self.spent)

    def column_of(self, words: str) -> str | None:
        """The column of the data that captured words name: the column itself ("`flux`"), or words that read as
        exactly one column ("the test heights" as ``height_m``); None when no data are known or it is unclear."""
        from cmbagent.agents._datamap import match_phrase

        columns = self.table_columns() or self.archive_features()
        words = words.strip(" `'\"")
        if words in columns:
            return words
        ranked = sorted(((match_phrase(words, c), c) for c in columns), reverse=True)
        if ranked and ranked[0][0] >= 0.85 and (len(ranked) == 1 or ranked[1][0] < 0.6):
            return ranked[0][1]
        if re.fullmatch(r"[A-Za-z][\w-]*(?:\s+[\w-]+){0,2}", words) and words.lower() not in {"it", "them", "the", "data"}:
            # the words the text glosses with a column in brackets: "hardness" after "the Vickers hardness afterwards
            # (hv)"; one column only
            glossed = {m.group(1) for m in re.finditer(rf"(?<![\w-]){re.escape(words)}(?![\w-])(?:\s+[\w-]+){{0,2}}?\s*"
                                                       r"\(\s*`?([A-Za-z_][\w.]*)`?\s*[),;]", self.text, re.I)
                       if m.group(1) in columns}
            if len(glossed) == 1:
                return glossed.pop()
        if re.fullmatch(r"[A-Z]{2,6}", words):
            # "PCT" for the one column the text writes out whose name starts so ("procalcitonin (`pct_ng_ml`)")
            led = [c for c in columns if re.split(r"[_\W]", c.lower())[0] == words.lower()
                   and re.search(rf"(?<![\w.-]){re.escape(c)}(?![\w-])", self.text)]
            if len(led) == 1:
                return led[0]
            # "CRP" after "C-reactive protein (`crp_mg_l`)": the column its gloss's initials name
            for gloss in re.finditer(r"((?:[A-Za-z][\w']*[\s-]+){2,6}?)\(\s*`?([A-Za-z_][\w.]*)`?\s*\)", self.text):
                tokens = re.split(r"[\s-]+", gloss.group(1).strip())[-len(words):]
                if gloss.group(2) in columns and "".join(t[0] for t in tokens).upper() == words:
                    return gloss.group(2)
        return None

    def named(self, name: str, schema: Mapping[str, Any]) -> bool:
        """A number the prose gives after the argument's own words ("width 4 and depth 1", "latencies 1 and 2",
        "latencies T = 1…6", "a box of 3.0") or, for a count (``n_instances``, ``epochs``), before them ("3
        instances", "50 epochs").  Only numeric arguments; two different values for one argument are a note,
        not a guess, and a value outside the argument's bounds is left alone."""
        kinds = _types(schema)
        items = [schema.get("items") or {}] + [o.get("items") or {} for o in schema.get("anyOf", [])]
        item_kinds = {str(i["type"]) for i in items if i.get("type") in ("integer", "number")}
        is_list = "array" in kinds and bool(item_kinds)
        if (not is_list and not kinds & {"integer", "number"}) or "boolean" in kinds:
            return False
        # "rank 2" could be ``true_rank`` as well as ``rank``: only the documentation's words name it then
        shared = any(other != name and other not in _BOOKKEEPING and f"_{name}_" in f"_{other}_"
                     for other in self.spec.arguments)
        words = name.removeprefix("n_").removeprefix("num_") if not is_list else name
        plural = words.endswith("s") and not words.endswith("ss")
        stem = re.sub(r"ies$", "y", words) if words.endswith("ies") else words[:-1] if plural else words
        spelled = "[ _-]".join(map(re.escape, stem.split("_")))
        forms = rf"(?:{spelled[:-1]}ies|{spelled})" if words.endswith("ies") else rf"{spelled}(?:s|es)?"
        # a number that is not the start of a range or a choice ("depth 1–3", "width 4 or 8": no single value)
        # (or a count in words: "sixty evaluations", "a budget of two hundred queries")
        number = (rf"(?<![\w.,])(\d{{1,3}}(?:,\d{{3}})+|\d+(?:\.\d+)?[kK](?=\s)|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|{WORD_NUMBER})"
                  r"(?![\w]|\.\d|\s*(?:[-–—…]|\.\.|\bto\b|\bor\b)\s*\d|"
                  # "and 6000 iterations" is another setting; "1 and 2." or "4, 8 and 16" a list
                  r"\s*(?:\band\b|,)\s*\d[\d.,]*\s*(?:$|[.;:,)\]]|\band\b|\bor\b))")
        found: dict[str, tuple[Any, int, tuple[int, int]]] = {}
        if is_list and shared:
            return False
        fraction = _is_fraction(schema, self.spec.argument_docs.get(name, ""))
        if is_list:
            join = r"\s*(?:,\s*(?:and\s+)?|\band\b|\bor\b)\s*"
            # "1 to 8", "one to five" (a range in words is written with "to" or "through")
            small = r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
            span = (rf"(\d+)\s*(?:…|\.\.\.?|–|—|-|\bto\b|\bthrough\b)\s*(\d+)|\b({small})\s+(?:to|through)\s+({small})\b")
            documented = doc_name(self.spec.argument_docs.get(name, ""))
            if len(documented) >= 2:  # "the initialisation scale over 1e-4, 1e-2 and 1" for scales documented so
                *lead, last = (re.escape(w) for w in documented)
                stem = last[:-1] if last.endswith("s") and not last.endswith("ss") else last
                forms = rf"(?:{forms}|{'[ _-]'.join([*lead, stem])}s?)"
            # an item with thousands separators is one number ("latencies 1 and 2, 20,000 sampled points")
            item = rf"(?:\d{{1,3}}(?:,\d{{3}})+(?![\d.])|{_NUMBER})"
            # "for k in {1, 2, 4}", "k ∈ {1, 2, 4}": a set written as in mathematics
            # "latencies T of 1, 2, 3 and 5" (a symbol), "training sizes for the learning curve: 100, 200, 375" (what
            # they are for, then a colon), "four seeds, 3 to 6" (a span after a comma)
            pattern = (rf"(?<![\w-]){forms}\s*(?:[A-Za-zΑ-ω](?:\s*=\s*|\s+(?=of\b)))?"
                       rf"(?:\s+(?:for|of|in)\s+(?:the\s+|each\s+)?[\w-]+(?:\s+[\w-]+)?\s*(?=:))?"
                       rf"(?:=|:|\bof\b|\bare\b|\bover\b|,(?=\s*\d+\s*(?:–|—|-|\bto\b|\bthrough\b)\s*\d)|"
                       rf"(?:\bin\b|∈)(?=\s*[\[{{]))?\s*[\[{{]?\s*(?:"
                       rf"{span}|({item}(?:\s*,\s*{item})*(?:{join}{item})?))(?!\w|\.\d)")
            for match in compiled(pattern, re.I).finditer(self.text):
                ends = next(((match.start(g), match.end(g + 1)) for g in (1, 3) if match.group(g)), None)
                numbers = ends or match.span(5)
                if _negated(self.text, match.start()) or self.spent_at(numbers):
                    continue
                if ends:
                    first, last = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
                    lo, hi = (int(v) if v.isdigit() else int(word_value(v) or 0) for v in (first, last))
                    value: Any = list(range(lo, hi + 1)) if 0 <= hi - lo <= 1000 else None
                else:
                    raw = re.findall(item, match.group(5))
                    cast = [_cast(r.replace(",", ""), item_kinds) for r in raw]
                    value = cast if all(c is not None for c in cast) else None
                if value:
                    found.setdefault(repr(value), (value, match.start(), numbers))
        else:
            count = words != name  # n_layers: "2 layers" or "layers: 2", while "layer 0" names one of them
            plurals = rf"(?:{spelled[:-1]}ies|{spelled}s|{spelled}es)" if count else forms
            patterns = [] if shared else [
                rf"(?<![\w-]){plurals}\s*(?:=|:|\bof\b|\bis\b|\bequal to\b|\bset to\b)?\s*{number}",
                # "keep concurrency at 2", "cap the walkers at 64", "lower the learning rate to 0.001"
                rf"\b(?:keep|hold|fix|set|leave|cap|limit|lower|raise|increase|decrease|reduce|drop|bump|change|bring)"
                rf"\w*\s+(?:the\s+|its\s+)?{plurals}\s+(?:at|to)\s+{number}"]
            parts = name.lower().split("_")
            if len(parts) == 2 and not count and not shared and all(len(p) >= 2 for p in parts):
                # the name's two words the other way round: "the weight of the L0 penalty (0.5)" for ``l0_weight``
                patterns.append(rf"\b{re.escape(parts[1])}\s+of\s+(?:the\s+)?{re.escape(parts[0])}(?:\s+[a-z]+)?\s*"
                                rf"(?:=|:|\(|\bto\b|\bat\b|\bof\b)?\s*{number}")
            if (plural or count) and not shared:  # a count: "3 instances", "50 epochs"
                # "1500 rank-3 adapters", but not "head 4 of layer 3"; "eleven needle depths" counts the depths
                # (another argument's noun) the needles only qualify
                heads = sorted({t.rstrip("s") for other in self.spec.arguments if other != name
                                for t in other.lower().split("_")[-1:] if len(t) >= 4 and t not in _FILLER_WORDS})
                qualifies = rf"(?![\s-]+(?:{'|'.join(map(re.escape, heads))})s?\b)" if heads else ""
                patterns.append(rf"(?<!-){number}\s+(?:(?!(?:of|in|on|at|for|per|from|to|by)\b)[A-Za-z][\w-]*\s+)?"
                                rf"{forms}\b{qualifies}")
            if name.startswith("max_") and not shared:  # a cap: "let the chains run to at most fifty thousand steps"
                cap = name.removeprefix("max_").replace("_", "[ _-]")
                # "context lengths up to 16K tokens" caps another argument's lengths, not ``max_tokens``
                owned = "".join(rf"(?<!{re.escape(t)} )(?<!{re.escape(t)}s )" for other in self.spec.arguments
                                if other != name for t in other.lower().rstrip("s").split("_")[-1:] if len(t) >= 4)
                patterns.append(rf"{owned}\b(?:at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|"
                                rf"a\s+cap\s+of|capped\s+at)\s+{number}\s+{cap}s?\b")
                patterns.append(rf"(?<![\w.,]){number}\s+{cap}s?\s+at\s+(?:the\s+)?most\b")  # "to 12000 steps at most"
                # "stop when R - 1 falls below 0.04 and in any case after 15000 accepted samples"
                patterns.append(rf"\bstop\b[^.;]{{0,60}}?\bafter\s+{number}\s+(?:accepted\s+|total\s+|MCMC\s+)?{cap}s?\b")
                # "Maximum context during training: 64 points"
                patterns.append(rf"\bmax(?:imum)?\s+{cap}s?(?:\s+(?:during|in|for|of|per)\s+[\w-]+)?\s*[:=]\s*{number}")
                # "cap the chain at forty thousand steps", "stop the sampler after 5000 steps"
                patterns.append(rf"\b(?:cap|limit|stop|truncate|end)\w*\s+(?:the\s+|each\s+|every\s+)?(?:chains?|runs?|"
                                rf"sampl(?:er|ing)|MCMC|walkers?|optimi[sz](?:er|ation)|training)\s+(?:at|to|after)\s+"
                                rf"{number}\s+{cap}s?\b")
            patterns += self.doc_patterns(name, number, kinds)
            for pattern in patterns:
                for match in compiled(pattern, re.I).finditer(self.text):
                    cast_value = _cast(match.group(1).replace(",", ""), kinds, fraction=fraction)
                    if cast_value is None or isinstance(cast_value, str) or _negated(self.text, match.start()) \
                            or self.spent_at(match.span(1)):
                        continue
                    previous = re.search(r"(\d[\d.]*)\s*(?:,|\bor|\band|\bto|[-–—…])\s*$", self.text[:match.start(1)])
                    if previous and not (re.search(r"(?:,|\band)\s*$", previous.group(0))
                                         and self.spent_at(previous.span(1))):
                        continue  # the end of a range or a choice ("4 or 8 neurons", "1–3 layers"): no one value,
                        # unless the number before it was another setting ("step size 0.02 and 6000 iterations")
                    if re.search(r"\b(?:the|these|those|our|its|their|both)\s+$", self.text[:match.start(1)], re.I):
                        continue  # a definite count describes ("the two evaluations we ran"), it does not ask
                    if self.file_size_aside(match.start(1)):
                        continue  # "data/hives.csv, one row per hive-day (1,000 rows)": what the file holds
                    low, high = schema.get("minimum", schema.get("exclusiveMinimum")), schema.get("maximum")
                    if (low is not None and cast_value < low) or (high is not None and cast_value > high):
                        continue
                    found.setdefault(repr(cast_value), (cast_value, match.start(), match.span(1)))
        if not found:
            return False
        if len(found) > 1:
            shown = ", ".join(found)
            self.notes.append(f"the text gives several values of {name!r} ({shown}); the offline backend used the "
                              f"method's default — add `{name}: <value>` under `arguments:` in the front matter")
            return False
        value, start, numbers = next(iter(found.values()))
        self.record(name, value, self.sentence_of(start))
        self.spent.append(numbers)
        return True

    def file_size_aside(self, at: int) -> bool:
        """Whether the number at ``at`` is all a bracket holds besides its noun, in a sentence that names a file:
        "data/hives.csv, one row per hive-day (1,000 rows)" says how big the file is, it sets nothing."""
        opened, closed = self.text.rfind("(", 0, at), self.text.find(")", at)
        if opened < 0 or closed < 0 or self.text.rfind(")", 0, at) > opened:
            return False
        if re.fullmatch(r"\(\s*\d[\d,]*\s+[A-Za-z-]+(?:\s+[A-Za-z-]+)?\s*\)", self.text[opened:closed + 1]) is not None \
                and re.search(r"[\w/-]+\.[A-Za-z][A-Za-z0-9]{1,5}\b", self.sentence_of(at)) is not None:
            return True
        # a bracket right after a file's name whose first part is the file's shape: "data/emb.npy (200 rows × 32
        # dimensions, same row order as ...)"
        first = self.text[opened + 1:closed].split(",")[0]
        return re.search(r"[\w/-]+\.[A-Za-z][A-Za-z0-9]{1,5}`?\s*$", self.text[max(0, opened - 80):opened]) is not None \
            and opened + 1 + len(first) > at and re.fullmatch(r"\s*\d[\d,]*\s+[A-Za-z-]+(?:\s*[×x]\s*\d[\d,]*\s+[A-Za-z-]+)*\s*",
                                                           first) is not None

    def doc_patterns(self, name: str, number: str, kinds: set[str]) -> list[str]:
        """Where the prose gives ``name`` a number in its documentation's words (:func:`doc_name`): after a name of
        two or three words ("step size 0.02" for a learning rate documented as the step size), and, for a count,
        before the name's last word when no other argument is called by it ("sixty evaluations" for pipeline
        evaluations, "six cells" for instrument cells); a dimension is counted in what it measures ("8 inputs"
        for the input dimension).  The words of another argument's name or documentation make it no name."""
        doc = self.spec.argument_docs.get(name, "")
        words = doc_name(doc)
        if not words or name in _BOOKKEEPING:  # a seed is a label, not a count ("three random problems")
            return []
        share = re.match(r"\s*(?:fraction|share|proportion|percentage) of (?:the )?((?:[A-Za-z-]+ ?){1,3})", doc, re.I)
        if share is not None:  # "Fraction of training anomalies labeled": "5% of the training faults"
            said = "|".join(re.escape(w[:-1] if w.endswith("s") and len(w) > 3 else w)
                            for w in share.group(1).split() if len(w) >= 4 and not re.search(r"(?<!e)ed$", w))
            if said:
                return [rf"(?<![\w.])(\d+(?:\.\d+)?\s*(?:%|percent|per cent))\s+of\s+(?:the\s+|all\s+)?"
                        rf"(?:[\w-]+\s+){{0,2}}?(?:{said})\w*"]
        others: set[str] = set()
        for other in self.spec.arguments:
            if other != name and other not in _BOOKKEEPING:
                others |= {w.lower().rstrip("s") for w in [*other.split("_"), *doc_name(
                    self.spec.argument_docs.get(other, ""))]}
        spelled = r"[\s_-]+".join(re.escape(w) for w in words)
        out = [rf"(?<![\w-]){spelled}\s*(?:=|:|\bof\b|\bis\b|\bset to\b)?\s*{number}"] if len(words) >= 2 else []
        if "integer" not in kinds:
            return out
        head = words[-1].lower()
        if head in {"dimension", "dimensions"} and len(words) >= 2:  # "Input dimension": "8 inputs"
            head = words[-2].lower()
        if head.rstrip("s") in others or len(head) < 4:
            return out
        stem = head[:-1] if head.endswith("s") and not head.endswith("ss") else head
        modifiers = "|".join(re.escape(w) for w in words[:-1] if w.lower() != head)
        between = rf"(?:(?:{modifiers})\s+)?" if modifiers else ""  # "500 training points" are not held-out points
        out.append(rf"(?<!-){number}\s+{between}{re.escape(stem)}(?:s|es)?\b")
        if modifiers and len(words) == 2 and "-" in words[0]:  # "250 held-out galaxies" are held-out points
            out.append(rf"(?<!-){number}\s+(?:{modifiers})\s+[A-Za-z]+\b")
            # "evaluate no more than 200 of the held-out pixels"
            out.append(rf"\b(?:no\s+more\s+than|not\s+more\s+than|at\s+most|up\s+to|only)\s+{number}\s+of\s+the\s+"
                       rf"(?:{modifiers})\s+[A-Za-z]+\b")
        return out

    def choice(self, name: str, schema: Mapping[str, Any]) -> bool:
        """An enum value the method's phrases describe (the first declared value whose phrase matches wins,
        and a note names the others; a boolean's phrases map True and False), else one named in the text (a
        name of three letters or fewer only in capitals or backticks: "MSE", not the word "was"); several names
        and no phrase: a note.  A numeric argument may be described the same way (values -> patterns: "a clean
        unlabelled set" -> 0).  When the phrases declare every value, they alone are read (a bare "random" in
        "answers at random" does not choose ``selection='random'``); a free string (a gymnasium id) the phrases
        describe twice is a note."""
        declared = self.phrases.get(name)
        numeric = isinstance(declared, dict) and bool(_types(schema) & {"integer", "number"})  # "clean" -> 0
        boolean = "boolean" in _types(schema) and isinstance(declared, dict)
        if not (_choices(schema) or "string" in _types(schema) or numeric or boolean):
            return False  # a mapping of phrases for a mapping argument (priors) names keys, not values
        for other, patterns in self.words.unoffered.get(name, {}).items():  # "Ω_k as a free seventh parameter"
            match = next((m for p in patterns for m in re.finditer(p, self.text, re.I)
                          if not _negated(self.text, m.start()) or re.search(r"assum", m.group(0))), None)
            if match is not None:
                offered = ", ".join(map(str, _choices(schema) or (declared if isinstance(declared, dict) else [])))
                self.questions.append(f"the task asks for {other} (“{clip_quote(self.sentence_of(match.start()), 90)}”), "
                                      f"which {self.spec.name} does not offer as `{name}` (it offers {offered}); say "
                                      "whether to go on without it, or use another method")
                return False
        hits: dict[Any, int] = {}
        for value, patterns in (declared.items() if isinstance(declared, dict) else ()):
            for pattern in patterns:
                match = next((m for m in re.finditer(pattern, self.text, re.I)
                              if not _negated(self.text, m.start()) and not _in_file_note(self.text, m.start())), None)
                if match is not None:
                    hits.setdefault(value, match.start())
                    break
        if hits:
            value, start = next(iter(hits.items()))
            if len(hits) > 1 and not _choices(schema):  # free strings (gymnasium ids) have no order of precedence
                named = ", ".join(map(str, hits))
                if numeric or boolean:  # both a switch's phrases, or two values' ("clean" and "5%"): which is meant
                    self.questions.append(f"the text describes several values of {name!r} ({named}); say which one "
                                          f"is meant: add `{name}: <one of {named}>` under `arguments:` in the front "
                                          "matter")
                    return False
                self.notes.append(f"the text names several values of {name!r} ({named}); the offline "
                                  f"backend used the method's default — add `{name}: <one of {named}>` "
                                  "under `arguments:` in the front matter")
                return False
            if len(hits) > 1:
                shown = ", ".join(map(str, hits))
                self.notes.append(f"the text describes several values of {name!r} ({shown}); the offline "
                                  f"backend used {value!r} — if that is wrong add `{name}: <value>` under "
                                  "`arguments:` in the front matter")
            self.record(name, value, self.sentence_of(start))
            return True
        choices = [c for c in _choices(schema) if isinstance(c, str) and c != "auto"]
        if choices and isinstance(declared, dict) and set(choices) <= set(declared):
            return False  # phrases for every value say how each is written: a bare "random" is not one of them
        normed = _norm(self.text)
        spans: list[tuple[int, int]] = []
        found: dict[str, int] = {}
        for choice in sorted(choices, key=len, reverse=True):  # "flat_lcdm" before the "lcdm" inside it
            for match in re.finditer(rf"(?<![a-z0-9_]){re.escape(_norm(choice))}(?![a-z0-9_])", normed):
                if any(a <= match.start() and match.end() <= b for a, b in spans):
                    continue
                spans.append((match.start(), match.end()))
                ticked = self.text[max(0, match.start() - 1):match.start()] == "`"
                if len(choice) <= 3 and not (self.text[match.start():match.end()].isupper() or ticked):
                    continue  # "was" and "add" in running prose are words, not the choices `was` and ADD
                if not _negated(normed, match.start()):
                    found.setdefault(choice, match.start())
        if not found:  # the choice's words ("mountain car" for MountainCarContinuous-v0, "logistic" for logistic)
            for choice in choices:
                match = next((m for m in re.finditer(_words_pattern(choice), self.text, re.I)
                              if not _negated(self.text, m.start())), None)
                if match is not None and len(choice) > 3:
                    found.setdefault(choice, match.start())
        if len(found) > 1:
            shown = ", ".join(sorted(found))
            self.notes.append(f"the text names several values of {name!r} ({shown}); the offline backend used the "
                              f"method's default — add `{name}: <one of {shown}>` under `arguments:` in the front "
                              "matter")
            return False
        if not found:
            return False
        value, start = next(iter(found.items()))
        self.record(name, value, self.sentence_of(min(start, len(self.text) - 1)))
        return True

    def choices(self, name: str, schema: Mapping[str, Any]) -> bool:
        """A list argument whose items are choices (``baselines``, ``strategies``, ``environments``): every
        choice the phrases (value -> patterns) or the choice's own words name, in the order the text names
        them ("compare with an isolation forest and XGBOD" -> ``["iforest", "xgbod"]``); "only" keeps them,
        "all" takes every choice.  A list of free strings (gymnasium ids, group generators) takes the values its
        phrases declare."""
        items: dict[str, Any] = schema.get("items") or next((o.get("items") for o in schema.get("anyOf", []) if o.get("items")), {})
        declared = self.phrases.get(name)
        values = [v for v in (items.get("enum") or []) if isinstance(v, str)]
        free = not values and items.get("type") == "string" and isinstance(declared, dict)
        if free and isinstance(declared, dict):  # a list of free strings (gymnasium ids): the values its phrases
            values = [str(v) for v in declared]  # declare, each as written out or in its phrases' words (not
            # "mountain car" in "continuous mountain car")
        if "array" not in _types(schema) or not values:
            return False
        found: dict[str, int] = {}
        for value in values:
            patterns = list(declared.get(value, ())) if isinstance(declared, dict) else []
            patterns += [rf"(?<![\w-]){re.escape(value)}(?![\w-])" if free else _words_pattern(value)]
            for pattern in patterns:
                matches = list(re.finditer(pattern, self.text, re.I))
                if any(_left_out(self.text, m.start(), m.end()) for m in matches):
                    break  # "leave plain continual fine-tuning out": not chosen, wherever else its words appear
                match = next((m for m in matches if not _negated(self.text, m.start())), None)
                if match is not None:
                    found.setdefault(value, match.start())
                    break
        # "against isolation forest and DevNet only (XGBOD is too slow)", "the only baselines we want are DevNet and
        # an isolation forest (the PCs choke on XGBOD)": a choice named in the aside after "only" is the one left out
        for aside in re.finditer(r"\bonly\b[^.;()]{0,80}?\(([^()]*)\)", self.text, re.I):
            found = {v: at for v, at in found.items() if not aside.start(1) <= at < aside.end(1)}
        for other, patterns in self.words.unoffered.get(name, {}).items():  # "compared with local outlier factor"
            match = next((m for p in patterns for m in re.finditer(p, self.text, re.I)
                          if not _negated(self.text, m.start())), None)
            if match is not None:
                self.questions.append(f"the task asks for {other} (“{clip_quote(self.sentence_of(match.start()), 90)}”), "
                                      f"which {self.spec.name} does not offer as `{name}` (it offers "
                                      f"{', '.join(values)}); say whether to go on without it, or use another method")
        if not found:
            return False
        chosen = sorted(found, key=found.__getitem__)
        first = min(found.values())
        self.record(name, chosen, self.sentence_of(first), confidence=0.85)
        return True

    def flag(self, name: str) -> bool:
        if self.switched(name):
            return True
        if not name.startswith(("free_", "fix_", "use_")):
            return False
        verb, subject = name.split("_", 1)
        match = re.search(rf"\b{verb}(?:ed)?\s+{re.escape(subject.replace('_', ' '))}\b", self.lowered)
        if match and not _negated(self.lowered, match.start()):
            self.record(name, True, self.sentence_of(match.start()))
            return True
        return False

    def switched(self, name: str) -> bool:
        """A boolean argument the text turns off or on in its own words: "skip the literal-question controls"
        (``literal_controls`` False), "include the lensing cross-check" (``cross_check`` True).  The name's words
        must all appear, in order, at most two words apart; a name of one short word is too vague to read."""
        schema = self.spec.arguments.get(name, {})
        if "boolean" not in _types(schema):
            return False
        tokens = [t for t in name.lower().split("_") if t not in {"use", "do", "with", "n", "is"}]
        if not tokens or (len(tokens) == 1 and len(tokens[0]) < 6):
            return False
        words = r"(?:[\s-]+[\w]+){0,2}?[\s-]+".join(
            rf"{re.escape(t[:-1] if t.endswith('s') and len(t) > 3 else t)}\w*" for t in tokens)
        off = re.search(rf"\b(?:skip|omit|leave out|drop|without|turn off|switch off|disable|no)\s+(?:the\s+|any\s+)?"
                        rf"{words}\b", self.text, re.I)
        on = re.search(rf"\b(?:include|add|with|turn on|switch on|enable|run|do)\s+(?:the\s+|a\s+|an\s+)?{words}\b",
                       self.text, re.I)
        if off is not None and (on is None or _negated(self.text, on.start())):
            self.record(name, False, self.sentence_of(off.start()), confidence=0.85)
            return True
        if on is not None and off is None and not _negated(self.text, on.start()):
            self.record(name, True, self.sentence_of(on.start()), confidence=0.85)
            return True
        return False

    # -- priors -------------------------------------------------------------------------------------------
    def priors(self, name: str) -> bool:
        """Flat and Gaussian priors in sentences that say "prior", for the parameters the phrases name; a prior
        sentence that gives no number ("take that as a Gaussian prior on Ω_m") takes the value the sentence
        before it states ("the CMB gives Ω_m = 0.315 ± 0.007")."""
        names = self.phrases.get(name)
        if not isinstance(names, dict):
            return False
        found: dict[str, Any] = {}
        quotes: list[str] = []
        heads = {param: "(?:" + "|".join(patterns) + r")(?![\w])" for param, patterns in names.items()}
        for n, sentence in enumerate(self.sentences):
            # "keep Ω_m uniform on 0.1–0.6": a flat prior said without the word
            # (or "with Ω_m confined to the range 0.05 to 0.6")
            if not re.search(r"\bpriors?\b|\b(?:uniform|flat)(?:ly)?\s+(?:on|in|over|between|from|within)\s+[-−]?\d|"
                             r"\b(?:confined|restricted|limited|bounded)\s+to\s+(?:the\s+range\s+)?[-−]?\d", sentence, re.I):
                continue
            back = n > 0 and re.search(r"\b(?:that|this|it|these|those|the same)\b", sentence, re.I)
            if not re.search(r"\d", sentence) and back:
                sentence = f"{self.sentences[n - 1]} {sentence}"
            for param, head in heads.items():
                said, value = sentence, _prior_value(head, sentence)
                if value is None and back and re.search(head, sentence, re.I):
                    # "BAO gives Ω_m = 0.300 ± 0.012. Combine that, as a Gaussian prior on Ω_m, with 40 SNe"
                    said = f"{self.sentences[n - 1]} {sentence}"
                    value = _prior_value(head, said)
                if value is None:
                    continue
                found[param] = value
                if said not in quotes:
                    quotes.append(said)
            if n > 0 and not any(re.search(head, sentence, re.I) for head in heads.values()) \
                    and re.search(r"\b(?:on|for|give|put|set|assign)\s+(?:it|that|this)\b|"
                                  r"\b(?:it|that|this)\s+(?:gets?|takes?|has)\s+an?\b", sentence, re.I):
                # "what matter density do these distances prefer? Put a flat prior from 0.05 to 0.95 on it": the one
                # parameter the sentence before names
                before = [param for param, head in heads.items() if re.search(head, self.sentences[n - 1], re.I)]
                value = _prior_value(r"\b(?:it|that|this)", sentence) if len(before) == 1 else None
                if value is not None and before[0] not in found:
                    found[before[0]] = value
                    quotes.append(f"{self.sentences[n - 1]} {sentence}")
        if not found:
            return False
        self.record(name, found, " ".join(quotes))
        return True

    def parent_graph(self, name: str) -> bool:
        """A causal graph said in plain sentences about the table's columns: "`a` is the only parent of `b`", "`b`
        depends only on `a` and `c`", "`a` drives `b`", "VO2max depends on age and BMI, and resting heart rate depends
        on VO2max" (columns by name or by their words, :meth:`column_of`). Read only when every sentence that speaks
        of causes (the field's words for ``name``) gives its edges in these forms with every node a column; anything
        else stays a question."""
        columns = self.table_columns()
        if not columns:
            return False

        def node(words: str) -> str | None:
            words = re.sub(r"^(?:the|a|an|its|their)\s+|\s+both$", "", words.strip(" `'\".,"), flags=re.I)
            exact = next((c for c in columns if c.lower() == words.lower()), None)
            if exact or not words or len(words.split()) > 3 or \
                    re.match(r"(?:how|what|which|whether|when|where|why)\b", words, re.I):
                return exact  # "how big the herd is" is a clause, not a name: the graph is asked
            from cmbagent.agents._datamap import match_phrase

            # a column by its words; in a graph's sentence a clear best ("the catch" for annual_catch_t) will do
            ranked = sorted(((match_phrase(words, c), c) for c in columns), reverse=True)
            clear = ranked and ranked[0][0] >= 0.75 and (len(ranked) == 1 or ranked[1][0] < 0.5)
            return self.column_of(words) or (ranked[0][1] if clear else None)

        def nodes(words: str) -> list[str] | None:
            items = [w for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", words.strip()) if w.strip(" .")]
            found = [node(i) for i in items]
            return [f for f in found if f] if items and all(found) else None

        forms = [(re.compile(r"^(?P<parents>.+?)\s+(?:is|are)\s+(?:the\s+)?(?:only\s+|sole\s+|single\s+)?parents?\s+of\s+"
                             r"(?P<child>.+)$", re.I)),
                 re.compile(r"^(?P<child>.+?)\s+(?:depends?\s+(?:only\s+|just\s+|solely\s+)?on|(?:is|are)\s+(?:caused|driven)\s+"
                            r"(?:only\s+)?by)\s+(?P<parents>.+)$", re.I),
                 re.compile(r"^(?P<parents>.+?)\s+(?:both\s+)?(?:drives?|causes?|feeds?(?:\s+into)?)\s+(?P<child>.+)$", re.I)]
        cues = [p for p in self.words.arguments.get(name, []) if isinstance(p, str)]
        graph: dict[str, list[str]] = {}
        quotes: list[str] = []
        for sentence in self.sentences:
            edges: list[tuple[str, list[str]]] = []
            bare = re.sub(r"\s*\([^()]*\)", "", sentence.rstrip(". "))  # "(a good year lets ...)" is an aside
            for clause in re.split(r";\s*|,\s*(?:and|while|whereas|so|then)\s+|\.\s+|\s+(?:where|in\s+which)\s+", bare):
                clause = clause.rsplit(":", 1)[-1].strip()  # "Physiology to respect: VO2max depends on ..."
                match = next((m for form in forms if (m := form.match(clause))), None)
                if match is None:  # "... depends on age, bmi, and sex": the list goes on (names only, no clause)
                    short = len(clause) <= 60 and all(len(i.split()) <= 3 for i in re.split(r",|\band\b", clause))
                    more = nodes(clause) if edges and short else None
                    if more:
                        edges[-1][1].extend(more)
                    continue
                if _negated(clause, match.start()):
                    continue
                children, parents = nodes(match.group("child")), nodes(match.group("parents"))
                if not children or len(children) != 1 or not parents:
                    return False  # a cause in words that name no column: asked, never half read
                edges.append((children[0], parents))
            if edges:
                for child, causes in edges:
                    listed = graph.setdefault(child, [])
                    listed += [p for p in causes if p != child and p not in listed]
                quotes.append(sentence)
            elif any(re.search(p, sentence, re.I) for p in cues):
                return False  # a sentence speaks of causes in words the forms do not read
        if not graph:
            return False
        self.record(name, graph, " ".join(quotes), confidence=0.9)
        return True

    def gaussian_prior(self, name: str) -> bool:
        """An argument documented as "Gaussian prior on the optical depth {"mean": m, "std": s}" from a sentence
        that speaks of a prior and gives the parameter — in the documentation's words or the argument's name
        ("tau", written τ too) — as ``0.0544 ± 0.0073`` or ``N(0.0544, 0.0073)``."""
        doc = self.spec.argument_docs.get(name, "")
        said = re.match(r"Gaussian\s+prior\s+on\s+(?:the\s+)?([A-Za-z][\w\s-]{2,40}?)\s*[{(;,.]", doc)
        if said is None:
            return False
        words = [re.escape(said.group(1).strip())]
        token = name.removesuffix("_prior")
        if token and token != name:
            words.append(rf"\b{re.escape(token)}\b")
            greek = {"tau": "τ", "sigma": "σ", "alpha": "α", "beta": "β", "gamma": "γ", "mu": "μ", "nu": "ν"}
            words += [greek[token]] if token in greek else []
        head = "(?:" + "|".join(words) + r")(?:\s+(?:of|at)\b)?(?:\s*(?:τ|\w{1,4})(?=\s*[=~:]))?"
        for sentence in self.sentences:
            # ("replace the low-ℓ EE information by a Gaussian on the reionisation optical depth, τ = 0.050 ± 0.008")
            if not re.search(r"\bpriors?\b|\bGaussian\b", sentence, re.I):
                continue
            value = _prior_value(head, sentence)
            if isinstance(value, dict):
                self.record(name, value, sentence)
                return True
        return False

    def parameter_values(self, name: str) -> bool:
        """A mapping of named values (``params`` of a CMB computation) from the heads its phrases give each key:
        "Σm_ν = 0.15 eV", "the summed neutrino mass to be 0.15", "a tensor-to-scalar ratio of r = 0.05",
        "fix the Hubble constant at H₀ = 68".  A value with an error ("0.3 ± 0.02"), a percentage, a sentence about
        a prior or a reported result ("Planck measured ...") sets nothing."""
        heads = self.phrases.get(name)
        if name == "priors" or not isinstance(heads, dict) or not all(isinstance(v, tuple) for v in heads.values()):
            return False
        found: dict[str, float] = {}
        quotes: list[str] = []
        tail = r"(?!\s*(?:±|\+/-|\+-|%)|\d|\.\d)"  # not a measurement, a share, or the start of a longer number
        for sentence in self.sentences:
            if re.search(r"\bpriors?\b|\b(?:measured|published|reported|found|expect\w*|should\s+(?:be|give))\b",
                         sentence, re.I):
                continue
            for key, patterns in heads.items():
                if key in found:
                    continue
                head = "(?:" + "|".join(patterns) + ")"
                match = re.search(head + r"\s*(?:\([^()]{0,20}\)\s*)?(?:[^\s=,;]{1,8}\s*)?(?:=|≈)\s*(" + _NUMBER + ")"
                                  + tail, sentence, re.I) or re.search(
                    # "the summed neutrino mass raised to 0.12 eV", "the Hubble constant dropped to 54 km/s/Mpc"
                    head + r"\s+(?:to\s+be|of|at|is|equal\s+to|(?:raised|increased|lowered|dropped|reduced|set|changed|"
                    r"moved|bumped|lifted|cut)\s+to|(?:held|kept|fixed|pinned|set)\s+at)\s+(?:[^\s=,;]{1,8}\s*=\s*)?(" + _NUMBER + ")" + tail,
                    sentence, re.I) or re.search(
                    # "fix the Hubble constant to 65 km/s/Mpc"
                    r"\b(?:fix|set|pin|put|hold|keep|take)\w*\s+(?:the\s+)?" + head + r"\s+(?:to|at|equal\s+to)\s+(" + _NUMBER
                    + ")" + tail, sentence, re.I)
                if match is None:  # "scalar tilt 0.97", "Hubble constant 67 km/s/Mpc": a head of words, then the value
                    bare = re.search(head + r"\s+(" + _NUMBER + ")" + tail, sentence, re.I)
                    match = bare if bare is not None and len(bare.group(0).split()) >= 3 else None
                if match is None or _negated(sentence, match.start()):
                    continue
                value = _number(match.group(1))
                if value is None:
                    continue
                found[key] = int(value) if value == int(value) and "." not in match.group(1) else value
                if sentence not in quotes:
                    quotes.append(sentence)
        if not found:
            return False
        self.record(name, found, " ".join(quotes))
        return True

    # -- columns ------------------------------------------------------------------------------------------
    def data_file(self) -> str | None:
        """The file the ``data`` argument reads: as read, else as the files' roles will place it (several tables:
        "compare the assistant's answers (answers.csv) with the weighted public" reads the survey, not the first
        file by name); None when nothing places it surely."""
        chosen = self.args.get("data")
        if isinstance(chosen, str) or self.profiles is None or "data" not in self.paths:
            return chosen if isinstance(chosen, str) else None
        if self._data_file is None:
            inputs = {n: k for n, k in self.paths.items() if k == "input"}
            mapped, _ = map_files(self.text, self.profiles, inputs, self.spec.argument_docs, self.spec.required,
                                  self.args)
            self._data_file = next((m.value for m in mapped if m.argument == "data" and m.sure), "")
        return self._data_file or None

    def table_columns(self) -> list[str]:
        placed = self.data_file()
        if placed and self.columns.get(placed):
            return list(self.columns[placed])
        for rel in self.data_files:
            if self.columns.get(rel):
                return list(self.columns[rel])
        return []

    def column_mentions(self, clause: str, columns: Sequence[str]) -> list[tuple[float, str, bool]]:
        """``(position, column, backticked)`` of every column named in ``clause`` as a whole word (not inside
        ``pre-treatment``), in order, with ranges such as ``x1–x25`` expanded."""
        hits: list[tuple[float, str, bool]] = []
        for match in re.finditer(r"\b([A-Za-z_]\w*?)(\d+)`?\s*(?:–|-|—|to|…|\.\.\.?|,\s*…,?|,\s*\.\.\.,)\s*`?\1(\d+)\b",
                                 clause):  # "x1–x25", "`letter_f0` … `letter_f5`"
            stem, lo, hi = match.group(1), int(match.group(2)), int(match.group(3))
            names = [f"{stem}{i}" for i in range(lo, hi + 1)]
            if lo < hi and all(n in columns for n in names):
                hits += [(match.start() + i / 1000, n, False) for i, n in enumerate(names)]  # keep the range's order
        ranged = {n for _, n, _ in hits}
        table = self.table()
        for column in columns:
            if column in ranged:
                continue
            profile = table.column(column) if table is not None else None
            for match in re.finditer(rf"(?<![\w.-]){re.escape(column)}(?![\w-])", clause):
                ticked = clause[max(0, match.start() - 1):match.start()] == "`"
                # a column that names the rows, met as a plain word ("the income each household had" and a
                # `household` column of row numbers, "route length" and `route` of "R000", ...), is the word; a name no prose would use
                # (`elevation_m`, whole metres all distinct) is the column, whatever it holds
                if not ticked and profile is not None and row_label(profile) and column.isalpha():
                    continue
                hits.append((match.start(), column, ticked))
        return sorted(hits)

    def declared_cues(self, name: str) -> list[str]:
        """The patterns without a group the method's or its field's phrases give ``name``."""
        declared = self.phrases.get(name)
        own = [p for p in declared if isinstance(p, str) and re.compile(p).groups == 0] \
            if isinstance(declared, tuple) else []
        return [*own, *self.words.said_by.get(name, ())]

    def cues(self, name: str) -> list[str]:
        patterns = self.declared_cues(name)
        words = name.replace("_column", "").replace("_", " ")
        singular = words[:-1] if words.endswith("s") else words
        return [*patterns, rf"\b{re.escape(singular)}s?\b"]

    def fits(self, name: str, column: str) -> bool:
        """Whether ``column``'s content can play the role of the column argument ``name`` (unknown: yes)."""
        table = self.table()
        profile = table.column(column) if table is not None else None
        doc = self.spec.argument_docs.get(name, "")
        binary = bool(re.match(r"binary\b", doc.strip(), re.I))  # "Binary treatment column."
        return profile is None or _content_fits(column_role(name, doc), profile, binary_treatment=binary)

    def asked(self, name: str) -> str | None:
        """The sentence in which the text asks for the argument ``name`` by one of its declared cues (patterns
        without a group, in the method's or its field's phrases), or None."""
        for pattern in self.declared_cues(name):
            match = next((m for m in re.finditer(pattern, self.text, re.I) if not _negated(self.text, m.start())), None)
            if match is not None:
                return self.sentence_of(match.start())
        return None

    def model_spec(self, name: str, schema: Mapping[str, Any]) -> bool:
        """A model to evaluate, for an argument documented as a model spec: a spec written out
        (``openai:gpt-4o-mini``), or a served model's endpoint and the name it answers to ("an OpenAI-compatible
        endpoint at http://127.0.0.1:8080/v1 (it answers to qwen2.5-7b-instruct)") as
        ``openai-compatible:<name>@<url>``.  An endpoint without a name is a question."""
        if "string" not in _types(schema) or not re.search(r"\bmodel spec", self.spec.argument_docs.get(name, ""), re.I):
            return False
        # a spec shown as an example of how to do it later ("To evaluate a model, give the tool a model spec, e.g.
        # `cmbagent methods run lm.nolima --args '{"model": "openai-compatible:..."}'`") is no model to evaluate now
        written = next((m for m in _MODEL_SPEC.finditer(self.text) if not _illustrative(self.sentence_of(m.start()),
                                                                                          m.group(1))), None)
        if written is not None:
            # "on openai:gpt-4o-mini: context lengths of ...": the sentence's colon is not the spec's
            self.record(name, written.group(1).rstrip(".,;:"), self.sentence_of(written.start()))
            return True
        url = next((m for m in ENDPOINT.finditer(self.text)
                    if not _illustrative(self.sentence_of(m.start()), m.group(0))), None)
        if url is None:
            return False
        address = url.group(0).rstrip(".,;:")
        near = [m for m in _SERVED.finditer(self.text) if abs(m.start() - url.start()) <= 300]
        if not near:
            self.questions.append(f"the task gives the endpoint {address} but not the name its model answers to; add "
                                  f"`{name}: openai-compatible:<model name>@{address}` under `arguments:`")
            return True
        served = min(near, key=lambda m: abs(m.start() - url.start())).group(1)
        self.record(name, f"openai-compatible:{served}@{address}", self.sentence_of(url.start()), confidence=0.85)
        return True

    def skipped(self, name: str, schema: Mapping[str, Any]) -> bool:
        """A count whose documentation says what 0 leaves out ("0 skips the policy comparison"), declined in the
        text's words ("don't bother training the offline policies", "no need for the policy comparison"): 0."""
        if not _types(schema) & {"integer", "number"}:
            return False
        what = _SKIPS_AT_ZERO.search(self.spec.argument_docs.get(name, ""))
        if what is None:
            return False
        stems = {w[:5] for w in re.findall(r"[a-z]{4,}", f"{what.group(1)} {name.replace('_', ' ')}".lower())
                 if w not in _COUNT_WORDS}
        for match in _DECLINED.finditer(self.text):
            if _negated(self.text, match.start()):
                continue  # "don't skip the policy comparison"
            if {w[:5] for w in re.findall(r"[a-z]{4,}", match.group(1).lower())} & stems:
                self.record(name, 0, self.sentence_of(match.start()), confidence=0.85)
                return True
        return False

    def unreadable(self, name: str, schema: Mapping[str, Any]) -> None:
        """A cue of an argument that is neither a boolean nor a column marks where the text states it in a form
        the reader cannot turn into a value (a causal graph in words, a matrix as equations): a question."""
        said = None if "boolean" in _types(schema) else self.asked(name)
        if said is not None:
            doc = self.spec.argument_docs.get(name, "").split(". ")[0].rstrip(".")
            self.questions.append(f"the text states {name!r} (“{clip_quote(said, 100)}”) in a form the offline "
                                  f"reader cannot read; add `{name}: <{doc.lower() or 'value'}>` under `arguments:` "
                                  "in the front matter")

    def worded_items(self, segment: str, columns: Sequence[str], taken: set[str], named: set[str],
                     offset: int) -> list[tuple[float, str, bool]]:
        """The items of a listed segment that are no column's name but name one in words ("age band" for
        ``age_band``): the one column they fit clearly (:func:`match_phrase` ≥ 0.6, ahead of the next by 0.05)."""
        from cmbagent.agents._datamap import match_phrase

        out: list[tuple[float, str, bool]] = []
        # "island" holds no "and"; a bracket opens an item ("the margins in m.csv (age group and settlement type)")
        for item in re.finditer(r"[^,;()]+?(?=,|;|\(|\)|\band\b|\bor\b|$)", segment):
            words = re.sub(r"^\s*(?:and|or)\s+", "", item.group(0)).strip(" .`'\"")
            if not words or any(re.search(rf"(?<![\w.-]){re.escape(c)}(?![\w-])", words) for c in columns):
                continue
            if len(words.split()) > 6:
                continue  # a clause, not a column's name in words ("og using a transformer fitted in advance ...")
            gloss = re.match(r"\s*\(\s*`?([\w.-]+)`?\s*\)", segment[item.end():])
            if gloss and gloss.group(1) in columns:
                continue  # "earnings in 2020 (`earn20`)": the bracket names the column the words mean
            # a column the text writes out by its name elsewhere ("having a heat pump (heat_pump)") is referred to by
            # that name: "heating degree days" is not it
            written = {c for c in columns if re.search(rf"(?<![\w.-]){re.escape(c)}(?![\w-])", self.text)}
            ranked = sorted(((match_phrase(words, c), c) for c in columns
                             if c not in taken and c not in named and c not in written), reverse=True)
            if ranked and ranked[0][0] >= 0.6 and (len(ranked) == 1 or ranked[1][0] < ranked[0][0] - 0.05):
                out.append((offset + item.start() + 0.5, ranked[0][1], False))
        return out

    def layouts(self) -> None:
        """A file the method cannot read as it is (its field's ``layout`` checks) is a question: running would fail
        on it, or read a column the text did not choose."""
        for name, check in self.words.layout.items():
            placed = self.args.get(name)
            profile = next((p for p in self.profiles or () if p.name == placed), None)
            reason = check(profile) if profile is not None else None
            if reason:
                self.questions.append(f"{placed}: {reason}")

    @staticmethod
    def unplaced_items(segment: str, columns: Sequence[str], placed: Sequence[float],
                       free: Sequence[str] | None = None) -> list[str]:
        """The items of a listed segment that name no column, by name or in words (``placed``: where
        :meth:`worded_items` placed one; ``free``: the columns no other argument took, which words may still
        mean): a noun phrase of up to six words ("education"), not a pronoun or what a file holds."""
        from cmbagent.agents._datamap import match_phrase

        items = list(re.finditer(r"[^,;]+?(?=,|;|\band\b|\bor\b|$)", segment))
        named = [i for i in items if any(i.start() <= at < i.end() for at in placed) or any(
            re.search(rf"(?<![\w.-]){re.escape(c)}(?![\w-])", i.group(0), re.I) for c in columns)]
        if len(items) < 2 or not named or any(
                len(re.sub(r"^\s*(?:and|or)\s+(?:the\s+)?", "", i.group(0)).split()) > 6 for i in items):
            return []  # a list of short items, some of them columns ("on education and district")
        out = []
        for item in items:
            words = re.sub(r"^\s*(?:and|or)\s+", "", item.group(0)).strip(" .`'\"")
            words = re.sub(r"^(?:the|a|an|their|its|our)\s+", "", words, flags=re.I)
            words = re.sub(r"\s*\([^()]{0,40}\)", "", words)  # "the locomotion (lameness) score"
            if re.match(r"(?:with|without|for|in|at|on|by|from|to|into|using|via|as|per|over|under)\b", words, re.I):
                continue  # "…, with an interval": a phrase about the whole, not an item
            if not words or item in named or any(match_phrase(words, c) >= 0.5 for c in (
                    columns if free is None else free)):
                continue
            if re.fullmatch(r"[A-Za-z][\w-]*(?:\s+[A-Za-z0-9][\w-]*){0,5}", words) and words.lower() not in {
                    "them", "these", "those", "it", "that", "this", "both", "each", "everything", "all", "so", "then", "others",
                    "the rest", "more", "less", "similar"} and not re.search(
                    r"\b(?:labels?|columns?|values?|variables?|rows?|data|files?|features?|names?|measurements?)$",
                    words, re.I):  # what a file holds, not one of its columns
                out.append(words)
        return out

    def anaphoric_list(self, col_args: Sequence[str], given: Mapping[str, Any], *, cued_only: bool = False) -> None:
        """A list of columns named once and then referred to by its count ("four site measurements: water_temp_c,
        ph, canopy_pct and elevation_m ... a regression of infection on those four"): the one list argument left
        unread takes the columns of the one clause that names exactly that many."""
        unread = [n for n in col_args if n not in self.args and n not in given and "array" in _types(self.spec.arguments[n])]
        columns = self.table_columns()
        if not unread or not columns:
            return
        for match in re.finditer(rf"\b(?:on|of|using|with|from|in|for)\s+(?:those|these|the|all)\s+"
                                 rf"(\d+|{WORD_NUMBER}|two|three|four|five|six|seven|eight|nine|ten)\b", self.text, re.I):
            count = word_value(match.group(1)) if not match.group(1).isdigit() else float(match.group(1))
            if count is None or count < 2:
                continue
            if re.match(r"[^.;:]{0,80}:\s*\S", self.text[match.end():]):
                continue  # "on the two questions we asked both times: the AI tools item and ...": they follow
            if re.match(r"\s*\)", self.text[match.end():]) or (re.match(r"\w+\s+the\b", match.group(0), re.I)
                                                               and re.match(r"\s*[,.;:!?]", self.text[match.end():])):
                continue  # "repeat the split twice (median of the two)": an aside on another count, not columns
            # the list argument the anaphor's sentence cues ("rake it ... on those three variables"), or the one left
            said = self.sentence_of(match.start())
            targets = unread if len(unread) == 1 and not cued_only else [
                n for n in unread if any(re.search(p, said, re.I) for p in self.declared_cues(n))]
            if not targets and (not cued_only or len(unread) == 1):  # the one list of input columns left ("using those
                # four measurements" when the other lists left are weights or row numbers)
                targets = [n for n in unread if n in column_arguments(self.spec) and column_role(
                    n, self.spec.argument_docs.get(n, "")) in {"features", "covariates"}]
            if len(targets) != 1:
                continue
            lists = []
            for sentence in self.sentences:
                # a bracket that names columns is a list of its own ("with age, schooling and past earnings (`age`,
                # `education_yr`, `prior_earnings`), whether they took part, ...")
                brackets = [m.group(1) for m in re.finditer(r"\(([^()]*`[^()]*)\)", sentence)]
                for clause in [*re.split(r"[;:]\s|\.\s", sentence), *brackets]:
                    at = self.text.find(clause)
                    if 0 <= at < match.start() < at + len(clause):  # "shares by region and apiary_size, by raking
                        clause = clause[:match.start() - at]      # on those two": the words before it count too
                    mentions = list(self.column_mentions(clause, columns))
                    named = list(dict.fromkeys(c for _, c, _ in mentions))
                    # items in words after the clause's last preposition ("census shares by age band, district
                    # and tenure")
                    bare = re.sub(r"\([^()]*\)", lambda m: " " * len(m.group(0)), clause)  # "(%)" is no item
                    for tail in re.finditer(r"\b(?:by|on|for|across|with|records?|recording|includ\w+|cover\w*)\s+"
                                            r"([^;:]+)", bare):
                        if len(named) >= count:
                            break
                        mentions += self.worded_items(tail.group(1), columns, set(), set(named), tail.start(1))
                        named = list(dict.fromkeys(c for _, c, _ in sorted(mentions)))
                    # ("age_months, spo2, feeding_pct and admitted ... a regression of admission on those three
                    # inputs": the column another argument took is not one of them)
                    free = [c for c in named if c not in {v for v in self.args.values() if isinstance(v, str)}]
                    named = named if len(named) == int(count) else free
                    if len(named) == int(count) and 0 <= at and at + len(clause) <= match.start():
                        lists.append((named, sentence))
            # the one such list, or the nearest when it stands in the anaphor's own sentence
            if len(lists) > 1 and lists[-1][1] == said:
                lists = lists[-1:]
            if len(lists) == 1:
                named, sentence = lists[0]
                self.record(targets[0], named, f"{sentence} … {said}", confidence=0.85)
                return

    def disjoint_lists(self, col_args: Sequence[str], given: Mapping[str, Any]) -> None:
        """A column one argument takes alone (the outcome, the treatment) is no member of a list the reading
        built ("What did it do to `earn22`, adjusting for age and school?" adjusts for age and school only)."""
        single = {v for k, v in self.args.items()
                  if k in col_args and k not in _SHARED_COLUMNS and isinstance(v, str)}
        for name in col_args:
            value = self.args.get(name)
            if name in given or not isinstance(value, list) or not single & set(value):
                continue
            kept = [v for v in value if v not in single]
            self.args[name] = kept
            for requirement in self.requirements:
                if requirement.argument == name and requirement.relation == "equals":
                    requirement.value = kept

    def columns_for(self, name: str, schema: Mapping[str, Any], taken: set[str], *, exclusions_only: bool = False) -> None:
        """The columns a column argument means: per clause that cues it, the columns it names (the one nearest
        after the cue for a single column); a clause that says "not" gives columns the argument must exclude."""
        columns = self.table_columns()
        if not columns:
            return
        is_list = "array" in _types(schema)
        chosen: list[str] = []
        excluded: list[str] = []
        quotes: dict[str, list[str]] = {"in": [], "out": []}
        for sentence in self.sentences:
            # a parenthesis stays with the words it explains ("the effect of the uptake (`d`) on `y`"), unless it
            # leaves columns out ("adjusting for `age` (not `age_sq`)"): that is a clause of its own
            # so does an aside right after "only" ("from a and b only (c made no difference)")
            def leaves_out(m: re.Match[str]) -> bool:
                return bool(_LEAVE_OUT.search(m.group(0))) or re.search(r"\bonly\s*$", m.string[:m.start()]) is not None

            asides = [m.group(0) for m in re.finditer(r"\([^()]*\)", sentence) if leaves_out(m)]
            plain = re.sub(r"\([^()]*\)", lambda m: " " if leaves_out(m) else m.group(0), sentence)
            # a colon before a request's verb parts two clauses ("don't just compare the means: estimate ...,
            # adjusting for ...": the negation is the first clause's)
            for clause in [*re.split(r";\s|\s[—–]\s|,\s+(?=but\b)|:\s+(?=(?:please\s+|then\s+)?" + _REQUEST_VERB + ")",
                                     plain), *asides]:
                cue = next((m for p in self.cues(name) if (m := re.search(p, clause, re.I))), None)
                if cue is None:
                    if is_list and clause in asides:  # "(`mu0`, `mu1` are simulation outputs; leave them out)"
                        dropped = [c for _, c, _ in self.column_mentions(clause, columns) if c not in excluded]
                        excluded += dropped
                        quotes["out"] += [sentence] if dropped else []
                    continue
                # a column named like the cue word itself ("average treatment effect") is no mention, unless it
                # is written as a column (`treatment`)
                # (a column in a bracket the cue holds is its gloss: "did the prescribed burns (rx_burn = 1) reduce")
                mentions = [m for m in self.column_mentions(clause, columns)
                            if m[1] not in taken and (not cue.start() <= m[0] < cue.end() or (m[2] and m[0] == cue.start())
                                                      or re.search(r"\([^()]*$", clause[cue.start():int(m[0])]))]
                own = [m for m in mentions if m[2] and m[0] == cue.start()]  # the cue is the column: `treatment`
                inside = next((p for p in re.finditer(r"\([^()]*\)", clause)
                               if p.start() < cue.start() < p.end()), None)
                if inside is not None:  # a cue inside brackets names what they hold ("(retest column `x`)"), or,
                    # when they hold none, the column they follow ("`dosed` (1 if given the drug)")
                    mentions = [m for m in mentions if inside.start() < m[0] < inside.end()] or [
                        m for m in mentions if re.fullmatch(r"`?\s*", clause[int(m[0]) + len(m[1]):inside.start()])]
                if not is_list:  # a column whose content cannot play the role (a number as the text) is not meant
                    mentions = [m for m in mentions if self.fits(name, m[1])]
                    # nor one of the adjustment set after it ("average treatment effect by double ML, adjusting for
                    # `age_yr` and `pool_hours_wk`": age is no treatment)
                    adjusting = _ADJUSTING.search(clause, cue.end())
                    if adjusting is not None:
                        mentions = [m for m in mentions if m[0] < adjusting.start()]
                    # "did the prescribed burns (rx_burn = 1) reduce how badly ...": what stands before a verb of change
                    # is its agent, not what it changes
                    if name == "outcome" and re.fullmatch(_CHANGE_VERB, cue.group(0), re.I) and _AGENT.search(clause):
                        mentions = [m for m in mentions if m[0] >= cue.end()]
                leave = _LEAVE_OUT.search(clause)
                if leave:  # what follows the negation is left out; what comes before it ("`black`, ..., not
                    # having a degree") stands, unless the cue itself is negated: then every column of the clause
                    # is left out ("do not adjust for `x`", "`mu0` and `mu1` must not be used as covariates")
                    negated_cue = cue.start() >= leave.start()
                    if is_list and (out := [m for m in mentions if negated_cue or m[0] >= leave.start()]):
                        excluded += [c for _, c, _ in out if c not in excluded]
                        quotes["out"].append(sentence)
                    if negated_cue:
                        continue
                    mentions = [m for m in mentions if m[0] < leave.start()]
                if is_list and re.search(r"\b(?:all|every|the)\s+(?:other|remaining)\s+columns?\b", clause, re.I):
                    mentions = [(0.0, c, False) for c in columns if c not in taken]
                if not mentions:
                    continue
                if is_list:
                    # "adjusting for `a`, `b`": the columns after the cue; else those just before it, since the last
                    # comma ("`a` and `b` are covariates"), not the outcome a sentence named first
                    end = cue.end() + list_end(clause[cue.end():])  # "on sex and region, starting from ..."
                    after_cue = [m for m in mentions if cue.start() <= m[0] < end]
                    since = max(clause.rfind(", ", 0, cue.start()), clause.rfind("; ", 0, cue.start()), 0)
                    # "We use dist_km, crossings and slope as instruments": a comma inside the list is no boundary
                    named_here = {c for _, c, _ in mentions}
                    while since > 0 and any(re.search(rf"(?<![\w-])`?{re.escape(c)}`?\s*$", clause[:since]) for c in named_here) \
                            and any(re.match(rf"[,;]\s*`?{re.escape(c)}`?(?![\w-])", clause[since:]) for c in named_here):
                        since = max(clause.rfind(", ", 0, since), 0)
                    mentions = after_cue or [m for m in mentions if m[0] >= since]
                    if not mentions:
                        continue
                    # "adjusting for annual rainfall, mean slope and forest cover (`annual_rain_mm`, `mean_slope_pct`,
                    # `forest_cover_pct`)": the bracket names the columns the words describe
                    glossed = _glossed(clause[cue.end():end], columns)
                    if after_cue and not glossed:  # "on age band, region and tenure": an item written in words is a column too
                        worded = self.worded_items(clause[cue.end():end], columns, taken,
                                                   {c for _, c, _ in mentions}, cue.end())
                        if leave:  # "on mite load and winter stores, leaving apiary altitude out": words left out
                            excluded += [c for at, c, _ in worded if at >= leave.start() and c not in excluded]
                            worded = [w for w in worded if w[0] < leave.start()]
                        mentions = sorted([*mentions, *worded])
                        # "rake on education and district" where no file has education: running on district alone
                        # would drop what the text listed, so it is a question
                        # (a list the front matter gives stands: its words in the text are no question)
                        # (a column of another given table is that table's: "margins ... (variable, level, share)")
                        elsewhere = {c.name.lower() for p in self.profiles or () if p.kind == "table"
                                     and p is not self.table() for c in p.columns}
                        for item in [] if self.confidence.get(name) == 1.0 else self.unplaced_items(
                                clause[cue.end():end], columns, [m[0] - cue.end() for m in worded],
                                free=[c for c in columns if c not in taken and not re.search(
                                    rf"(?<![\w.-]){re.escape(c)}(?![\w-])", self.text)]):
                            if item.strip(" `'\"").lower() in elsewhere:
                                continue
                            self.questions.append(
                                f"the text lists “{item}” for {name!r} (“{clip_quote(clause.strip(), 90)}”), but no "
                                f"column of the data holds it (columns: {', '.join(columns[:14])}); name the column, "
                                f"or say to go on without it: add `{name}: [<column>, ...]` under `arguments:` in "
                                "the front matter")
                    chosen += [c for c in dict.fromkeys(c for _, c, _ in mentions) if c not in chosen]
                    quotes["in"].append(sentence)
                    continue
                # "with two labels each: `species` and `sex`": a plural cue followed by a list of columns that could
                # each play the role names no one of them
                pair = re.match(r"[^.;()`]{0,24}?[:\s]\s*`?([\w.-]+)`?\s*(?:,|\band\b|\bor\b)\s*(?:also\s+)?`?([\w.-]+)`?",
                                clause[cue.end():])
                if pair and (re.search(r"s$", cue.group(0)) or re.search(
                        r"\b(?:two|both|either|several|three)\s+(?:[\w-]+\s+)?$", clause[:cue.start()], re.I)) \
                        and {pair.group(1), pair.group(2)} <= {m[1] for m in mentions} and pair.group(1) != pair.group(2):
                    self.unsettled.add(name)
                    self.questions.append(f"which column is {name!r}? the text names {pair.group(1)} and "
                                          f"{pair.group(2)} for it (“{clip_quote(clause.strip(), 90)}”); add "
                                          f"`{name}: <column>` under `arguments:` in the front matter")
                    return
                # a column after the cue is its object only when nothing stands between them but a few words:
                # in "the effect of protection on biomass, adjusting for depth_m" depth_m is no outcome
                mentions = [m for m in mentions if m[0] < cue.end() or m[2] or _close_after(clause[cue.end():int(m[0])])]
                if not mentions:
                    continue
                ticked = [m for m in mentions if m[2]] or mentions
                after = [m for m in ticked if m[0] >= cue.end()]
                linked = [m for m in mentions if m[0] < cue.start() and re.fullmatch(
                    rf"`?\s+(?:column\s+|field\s+)?{_LINK}\b[^,;()`]{{0,50}}|`,\s+(?:our|the|its|their|his|her|a|an)\b[^,;()`]{{0,40}}",
                    clause[int(m[0]) + len(m[1]):cue.start()])]
                # "`y_factual` is their observed outcome", "`predicted_days`, our model's forecast of ...": the column
                # the cue describes comes before it
                chosen = [own[0][1] if own else linked[-1][1] if linked
                          else min(after or ticked, key=lambda m: abs(m[0] - cue.end()))[1]]
                quotes["in"].append(sentence)
                break
            if chosen and not is_list:
                break
        chosen = [c for c in chosen if c not in excluded]
        if exclusions_only:
            chosen = []
        if excluded:
            self.record(name, excluded, " ".join(dict.fromkeys(quotes["out"])), relation="excludes")
        if chosen:
            self.record(name, chosen if is_list else chosen[0], " ".join(dict.fromkeys(quotes["in"])))
            if not is_list:
                taken.add(chosen[0])

    # -- files --------------------------------------------------------------------------------------------
    def files(self) -> None:
        """Input files onto file arguments.  With the files' profiles (what they hold), by the role the text and
        the data give each file (:func:`cmbagent.agents._datamap.map_files`): a covariance to ``covariance``, a
        test table to ``test``; a file no argument takes is kept in ``unplaced``.  Without them (names only), a
        file whose name recalls an argument goes to it, the first free file to a required one."""
        if self.profiles is not None:
            inputs = {n: k for n, k in self.paths.items() if k == "input"}
            mapped, self.unplaced = map_files(self.text, self.profiles, inputs, self.spec.argument_docs,
                                              self.spec.required, self.args)
            listed = {n for n in inputs if n not in self.args and "array" in _types(self.spec.arguments[n])}
            mapped = [self.designated(m, bool(listed)) for m in mapped]
            # a list of files (``more_chains``) takes the files that number the one another argument took
            mapped = [m for m in mapped if m.argument not in listed or m.sure]
            for item in mapped:
                if item.sure:
                    self.args[item.argument] = item.value
                    self.confidence[item.argument], self.evidence[item.argument] = item.confidence, item.evidence
                    self.requirements.append(Requirement(kind="argument", text=f"input file {item.value}",
                                                         source="text", method=self.spec.name,
                                                         argument=item.argument, value=item.value))
                else:
                    options = ", ".join([item.value, *item.alternatives])
                    role = argument_role(item.argument, self.spec.argument_docs.get(item.argument, ""))
                    role = item.argument.replace("_", " ") if role == "data" and item.argument != "data" else role
                    self.questions.append(
                        f"which file is the {role} ({options})? add `{item.argument}: <file>` under `arguments:` in "
                        "the front matter")
            self.counted_runs(listed)
            taken = {f for v in self.args.values() for f in ([v] if isinstance(v, str) else v if isinstance(v, list) else [])
                     if isinstance(f, str)}
            self.unplaced = [f for f in self.unplaced if f not in taken]
            self.numbered_files(listed)
            return
        used = {v for v in self.args.values() if isinstance(v, str)}
        free = [f for f in self.data_files if f not in used]
        for name, kind in self.paths.items():
            if kind != "input" or name in self.args or not free:
                continue
            stem = name.split("_")[0][:3].lower()
            named = [f for f in free if stem in f.rsplit("/", 1)[-1].lower()]
            if named:
                chosen = named[0]
            elif name in self.spec.required:
                # a file that recalls another file argument is kept for it
                others = [o.split("_")[0][:3].lower() for o, k in self.paths.items() if k == "input" and o != name]
                plain = [f for f in free if not any(o in f.rsplit("/", 1)[-1].lower() for o in others)]
                chosen = (plain or free)[0]
            else:
                continue
            self.record(name, chosen, f"input file {chosen}", confidence=0.7)
            free.remove(chosen)

    def designated(self, item: Mapped, more: bool) -> Mapped:
        """A tie between files that differ only by their number ("chain1.txt" … "chain4.txt"), settled by the text
        naming the first of them the main one ("File one is the primary; files two to four are its sister runs"),
        or, where the method takes further files of the kind in a list (``more_chains``), by the first the text
        names ("three chains of one run: a_1.txt, a_2.txt and a_3.txt"); the others go to the list."""
        options = [item.value, *item.alternatives]
        if item.sure or len(options) < 2 or not self.profiles or "array" in _types(self.spec.arguments[item.argument]):
            return item
        shapes = {_numbered_shape(f) for f in options}
        options = [p.name for p in self.profiles if _numbered_shape(p.name) in shapes]
        said = re.search(r"\b(?:file|chain|run)\s+(?:one|1|#1|number\s+one)\b[^.;]{0,30}?\b(?:is|as)\s+(?:the\s+)?"
                         r"(?:primary|main|reference|principal|master|baseline)\b|\bthe\s+first\s+(?:file|chain|run)\s+"
                         r"(?:is\s+)?(?:the\s+)?(?:primary|main|reference|principal|master|baseline)\b|"
                         # "the first one being the run I'd like treated as the main chain"
                         r"\bthe\s+first(?:\s+one)?\s+(?:being|is)\b[^.;]{0,50}?\b(?:primary|main|reference|principal|master|"
                         r"baseline)\s+(?:chain|run|file)\b", self.text, re.I)
        if len(shapes) != 1 or (said is None and not more):
            return item
        order = [p.name for p in self.profiles]
        named = {f: self.text.find(f.rsplit("/", 1)[-1]) for f in options}
        first = min(options, key=lambda f: (named[f] if named[f] >= 0 else len(self.text),
                                            order.index(f) if f in order else len(order)))
        why = f"“{clip_quote(said.group(0), 60)}”" if said else "the first of the numbered files the text gives"
        return Mapped(item.argument, first, 0.85, f"{first}: {why}", tuple(f for f in options if f != first))

    def counted_runs(self, listed: set[str]) -> None:
        """Unnamed files that differ only by their number or letter ("…_seedA.txt", "…_seedB.txt"), given in order,
        that the text counts as runs of one kind and whose first it makes the main one ("The two chain files are
        attached, the first one being the main chain"): the first goes to the single-file argument of that kind
        (``chain``), the rest to the list (``more_chains``)."""
        if len(listed) != 1 or not self.profiles:
            return
        more = next(iter(listed))
        single = [n for n, k in self.paths.items() if k == "input" and n != more and n in self.spec.required
                  and (n not in self.args or isinstance(self.args[n], str))]
        # the single argument may hold the first file already (it went to the one input the method needs)
        placed = [self.args[n] for n in single if n in self.args]
        files = [p.name for p in self.profiles if p.name in self.unplaced or p.name in placed]
        if len(single) != 1 or len(files) < 2 or len({_numbered_shape(f) for f in files}) != 1 or \
                any(f.rsplit("/", 1)[-1] in self.text for f in files) or (placed and placed[0] != files[0]):
            return
        word = re.escape(single[0].split("_")[0])
        count = rf"(?:{len(files)}|{_NUMBER_WORDS.get(len(files), '(?!)')})"
        # "the two chain files", "three independent calibration chains"
        said = re.search(rf"\b(?:the\s+|these\s+|both\s+)?{count}\s+(?:[\w-]+\s+){{0,2}}?{word}(?:s|\s+files)?\b",
                         self.text, re.I)
        first = re.search(r"\bthe\s+first(?:\s+one|\s+file)?\s+(?:being|is)\b[^.;]{0,50}?\b(?:primary|main|reference|"
                          r"principal|master|baseline)\b", self.text, re.I)
        # "take the file from run a as the main one": the first file given is the one whose letter or number it names
        named = re.search(r"\b(?:take|use|treat|keep)\s+(?:the\s+)?(?:file|chain|one|run)\s+(?:from|of)\s+(?:run|seed|chain)\s+"
                          r"([A-Za-z0-9]{1,3})\s+as\s+the\s+(?:main|primary|reference|principal|first)\b", self.text, re.I)
        if first is None and named is not None and re.search(
                rf"[_-]{re.escape(named.group(1))}\.[A-Za-z0-9]+$", files[0], re.I):
            first = named
        if said is None or first is None:
            return
        why = f"“{clip_quote(said.group(0), 40)}”, “{clip_quote(first.group(0), 60)}”"
        if not placed:
            self.record(single[0], files[0], why, confidence=0.85)
        self.record(more, files[1:], why, confidence=0.85)

    def numbered_files(self, listed: set[str]) -> None:
        """Files that differ from a placed input only by their number or run letter ("chain_2.txt", "chain_3.txt"
        beside "chain_1.txt") go, in the order the text names them, to the one list-of-files argument left (``more_chains``:
        "three separate chains of one run")."""
        unread = [n for n in listed if n not in self.args]
        if len(unread) != 1 or not self.unplaced:
            return

        def pattern(file: str) -> str:  # "chain_2.txt" beside "chain_1.txt"
            return re.sub(r"\d+", "#", file.rsplit("/", 1)[-1])

        # files told apart by a letter ("chain_b.txt" beside "chain_a.txt") are runs of one analysis only where the
        # text treats them together (pools them, compares their convergence); "the one with the recalibrated
        # temperature scale" of "runA" and "runB" picks one
        together = re.search(r"\bpool\w*|\bcombin\w*|\bGelman|\bR\s*[-−–]\s*1\b|\bconverge\w*|\bagree\w*",
                             self.text, re.I) is not None
        shape = _numbered_shape if together else pattern
        placed = {shape(v) for k, v in self.args.items() if self.paths.get(k) == "input" and isinstance(v, str)}
        siblings = [f for f in self.unplaced if shape(f) in placed]
        if not siblings:
            return
        where = {f: (self.text.find(f.rsplit("/", 1)[-1]) % (len(self.text) + 1), f) for f in siblings}
        siblings.sort(key=lambda f: where[f])
        self.record(unread[0], siblings, f"files numbered like the {shape(siblings[0])} one: {', '.join(siblings)}",
                    confidence=0.85)
        self.unplaced = [f for f in self.unplaced if f not in siblings]

    def table(self) -> FileProfile | None:
        """The profile of the table the method reads (its ``data`` argument's file, else the first table)."""
        if not self.profiles:
            return None
        chosen = self.data_file()
        tables = [p for p in self.profiles if p.kind == "table" and p.columns]
        return next((p for p in tables if p.name == chosen), tables[0] if tables else None)

    def data_columns(self, col_args: Sequence[str]) -> None:
        """Column arguments the prose did not write out, from the data: the column the text names or describes
        for the role ("the effect of the programme on 1978 earnings" → ``re78``), checked against its content
        (a treatment is 0/1); a list from the phrase after its cue ("adjusting for age, years of schooling").
        An argument the text asks for that cannot be mapped surely becomes a question."""
        table = self.table()
        if table is None:
            return
        taken = {v for k, v in self.args.items() if k in col_args and isinstance(v, str)}
        binary = self.args.get("model") == "irm" or bool(  # "auto" takes a continuous treatment too (partially linear)
            re.match(r"binary\b", self.spec.argument_docs.get("treatment", "").strip(), re.I))  # "Binary treatment column."
        # a column of another input file ("Column of a reference-sample population table with its weights") is
        # never one of the data table's (:meth:`other_table_columns` reads it)
        foreign = {n for n in col_args if not re.search(r"\bof\s+data\b", self.spec.argument_docs.get(n, ""))
                   and any(re.search(rf"\b{re.escape(o.replace('_', ' '))}\b", self.spec.argument_docs.get(n, ""), re.I)
                           for o, kind in self.paths.items() if kind == "input" and o != "data")}
        # a single column of no known role is cued by its own words (and its field's), never by a list's
        # ("using", "based on" cue features, not a survey's ``wave`` or ``ballot``)
        scalars = {n: role if (role := column_role(n, self.spec.argument_docs.get(n, ""))) != "features" else n
                   for n in col_args
                   if n not in self.args and n not in foreign and "array" not in _types(self.spec.arguments[n])}
        cues = {n: self.declared_cues(n) for n in col_args}  # the field's words for each column's role
        # the columns the text adjusts for are not the treatment or the outcome ("adjusting for ... whether they
        # live alone" leaves ``smsReminder`` as the only 0/1 column left to be the treatment)
        adjusted = {c for k, v in self.args.items() if k in col_args and isinstance(v, list) for c in v}
        self.ordinal_columns(col_args, table)
        for name in col_args:
            if "array" in _types(self.spec.arguments[name]) and name not in self.args and \
                    column_role(name, self.spec.argument_docs.get(name, "")) == "covariates":
                item = map_column_list(self.text, table, name, "covariates", taken=set(taken), cues=cues[name],
                                       elsewhere=self.held_elsewhere())
                adjusted |= set(item.value) if item is not None and item.sure else set()
        for mapped in map_columns(self.text, table, scalars, taken=taken | adjusted, binary_treatment=binary,
                                  cues=cues):
            if mapped.confidence < 0.7 and column_role(mapped.argument, self.spec.argument_docs.get(
                    mapped.argument, "")) == "target" and (last := self.named_last(table)) is not None and \
                    last[0] != mapped.value:
                # a response named only beside the word "regressor" ("... when phi advances ..., so build a
                # regressor") gives way to the column one sentence names last, after every input
                mapped = Mapped(mapped.argument, last[0], 0.8, f"named last of {table.name}'s columns, after the "
                                f"inputs: “{clip_quote(last[1], 120)}”")
            self.take(mapped, table, required=mapped.argument in self.spec.required)
        for name, role in scalars.items():  # a label the method would find by itself, among several 0/1 columns
            binary_columns = [c.name for c in table.columns if c.binary and c.name not in taken | adjusted]
            if name not in self.args and role in {"label", "treatment"} and len(binary_columns) > 1 and \
                    not any(q.startswith(f"which column is {name!r}") for q in self.questions):
                self.questions.append(f"which column is {name!r}? the table has several 0/1 columns "
                                      f"({', '.join(binary_columns[:6])}); add `{name}: <column>` under "
                                      "`arguments:` in the front matter")
        self.absent_defaults(col_args, table)
        for name in scalars:  # the text asks for the column ("starting from the design weights") but names none
            said = self.asked(name) if name not in self.args and name not in self.spec.required else None
            if said is not None and scalars[name] == "label" and not any(c.binary for c in table.columns):
                said = None  # no 0/1 column to be the labels: the method goes without ("Nothing is labelled")
            labelled = said is not None and any(re.search(p + r"\s*#?\d", said, re.I) for p in self.declared_cues(name))
            if said is not None and not labelled and not any(f"{name!r}" in q for q in self.questions):
                options = ", ".join(table.column_names[:14]) + (", ..." if len(table.column_names) > 14 else "")
                self.questions.append(f"which column is {name!r}? the text asks for it (“{clip_quote(said, 90)}”) but "
                                      f"names none the reader could tell; columns of {table.name}: {options}; add "
                                      f"`{name}: <column>` under `arguments:` in the front matter")
        for name in col_args:
            if "array" not in _types(self.spec.arguments[name]) or self.confidence.get(name) == 1.0:
                continue  # the front matter's list stands
            listed = {c for k, v in self.args.items() if k in col_args and k != name and isinstance(v, list) for c in v}
            item = map_column_list(self.text, table, name, column_role(name, self.spec.argument_docs.get(name, "")),
                                   taken=set(taken) | {v for k, v in self.args.items() if isinstance(v, str)} | listed,
                                   cues=cues[name], elsewhere=self.held_elsewhere())  # a column another list took
            # plays that role, not this one
            if item is None:
                if column_role(name, self.spec.argument_docs.get(name, "")) == "covariates" and name not in self.args:
                    self.adjustment_set(name, table)
                continue
            named = self.args.get(name)
            if isinstance(named, list):  # the names written out are a part of what the phrase lists
                if not set(named) < set(item.value):
                    continue
                self.requirements = [r for r in self.requirements if not (r.argument == name and r.relation == "equals")]
            self.take(item, table, required=name in self.spec.required)
        self.one_named_column_left(col_args, table)
        # a list the text asks for by its words, in a sentence naming a column called after it ("answered the
        # question again (q_curfew_retest), so please give the test–retest κ"), that nothing read as that list
        for name in col_args:
            stem = name.lower().rstrip("s")
            if "array" in _types(self.spec.arguments[name]) and name not in self.args and len(stem) >= 4 \
                    and (said := self.asked(name)) is not None and not any(f"{name!r}" in q for q in self.questions) \
                    and any(stem in c.lower() and re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", said)
                            for c in table.column_names):
                options = ", ".join(table.column_names[:14]) + (", ..." if len(table.column_names) > 14 else "")
                self.questions.append(f"which columns is {name!r}? the text asks for it (“{clip_quote(said, 90)}”) "
                                      f"but names none the reader could tell; columns of {table.name}: {options}; add "
                                      f"`{name}: [<column>, ...]` under `arguments:` in the front matter")

    def ordinal_columns(self, col_args: Sequence[str], table: FileProfile) -> None:
        """An adjustment set or an input list given by the columns' places in the table: "control for the first four
        columns", "adjust for the last two columns" (in the table's order, the text's header names included)."""
        lists = [n for n in col_args if n not in self.args and "array" in _types(self.spec.arguments[n])
                 and column_role(n, self.spec.argument_docs.get(n, "")) in {"covariates", "features"}]
        if len(lists) != 1:
            return
        for match in re.finditer(r"\b(?:control(?:ling)?|adjust(?:ing)?|condition(?:ing)?|account(?:ing)?)\s+for\s+the\s+"
                                 rf"(first|last)\s+({WORD_NUMBER}|\d+)\s+columns\b", self.text, re.I):
            count = word_value(match.group(2)) if not match.group(2).isdigit() else float(match.group(2))
            names = table.column_names
            if count is None or not 1 <= count < len(names) or _negated(self.text, match.start()):
                continue
            chosen = names[:int(count)] if match.group(1).lower() == "first" else names[-int(count):]
            self.record(lists[0], list(chosen), self.sentence_of(match.start()), confidence=0.9)
            return

    def one_named_column_left(self, col_args: Sequence[str], table: FileProfile) -> None:
        """An outcome the text names as a column but with no cue for its role ("`tt_improvement_s` is how many
        seconds they took off their time trial", the treatment and the adjustment set read elsewhere): the one
        numeric column the text writes out that no argument took and that names no rows."""
        open_ = [n for n in col_args if n not in self.args and n in self.spec.required
                 and "array" not in _types(self.spec.arguments[n])
                 and column_role(n, self.spec.argument_docs.get(n, "")) in {"outcome", "target"}]
        if len(open_) != 1:
            return
        # (a headerless file's ``column_names`` name every column, and take none)
        used = {c for k, v in self.args.items() if k != "column_names"
                for c in ([v] if isinstance(v, str) else v if isinstance(v, list) else []) if isinstance(c, str)}
        # (written in backticks, or as a name no prose would use: "- use_m3_ha: seasonal water use per hectare")
        left = [c for c in table.columns if c.name not in used and c.numeric and not c.constant and not row_label(c)
                and re.search(rf"`{re.escape(c.name)}`" + (rf"|(?<![\w.-]){re.escape(c.name)}(?![\w-])"
                                                          if re.search(r"_|\d", c.name) else ""), self.text)]
        if len(left) == 1:
            self.take(Mapped(open_[0], left[0].name, 0.8, f"the one column of {table.name} the text writes out that "
                             "no other argument took"), table, required=True)

    def bracketed_columns(self, col_args: Sequence[str], given: Mapping[str, Any]) -> None:
        """The answer columns of a survey introduced in brackets ("report support for metering (q_meter_support)
        and whether bills feel fair (q_bill_fair)"): the one unread list argument documented as the columns that
        hold answers takes the categorical data columns the text names so, when no other argument took them."""
        table = self.table()
        unread = [n for n in col_args if n not in self.args and n not in given and "array" in _types(self.spec.arguments[n])
                  and re.search(r"\bthe answers\b", self.spec.argument_docs.get(n, "").split(".")[0], re.I)]
        if table is None or len(unread) != 1:
            return
        used = {c for v in self.args.values() for c in (v if isinstance(v, list) else [v]) if isinstance(c, str)}
        named = [m.group(1) for m in re.finditer(r"\w\s+\(`?([A-Za-z_]\w*)`?\)", self.text)]
        columns = [c for c in dict.fromkeys(named) if (col := table.column(c)) is not None and not col.numeric
                   and c not in used]
        if len(columns) >= 2:
            self.record(unread[0], columns, "; ".join(self.sentence_of(self.text.find(f"({c}")) for c in columns[:1]),
                        confidence=0.85)

    def other_table_columns(self, col_args: Sequence[str]) -> None:
        """A column argument of another input file ("Column of a reference-sample population table with its
        weights"): the one column of that file, and not of the data table, that a sentence speaking of the
        argument names ("Second file: a reference sample, its weights in pw")."""
        if not self.profiles:
            return
        data = self.table()
        for name in col_args:
            doc = self.spec.argument_docs.get(name, "")
            if name in self.args or "array" in _types(self.spec.arguments[name]):
                continue
            for other, value in list(self.args.items()):
                if name in self.args:
                    break
                profile = next((p for p in self.profiles if p.name == value), None)
                if other == "data" or self.paths.get(other) != "input" or profile is None or \
                        not re.search(rf"\b{re.escape(other.replace('_', ' '))}\b", doc, re.I):
                    continue
                own = [c for c in profile.column_names if data is None or c not in data.column_names]
                words = [w for w in name.split("_") if w != other and len(w) > 2]
                for sentence in self.sentences:  # the column within a few words after the argument's word
                    # (each mention, overlapping: "its own weights (ref.csv, weight column `ref_wt`)")
                    near = " ".join(m.group(1) for w in words for m in re.finditer(
                        rf"(?=(\b{re.escape(w)}s?\b(?:\W+\w+){{0,5}}))", sentence, re.I))  # "its weights in pw"
                    # or a few words before it: "use its pw column as the population weights"
                    near += " " + " ".join(m.group(0) for w in words for m in re.finditer(
                        rf"(?:\w+\W+){{1,5}}?(?={re.escape(w)}s?\b)", sentence, re.I))
                    named = [c for c in own if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", near)]
                    if len(named) == 1:
                        self.record(name, named[0], sentence, confidence=0.8)
                        break

    def absent_defaults(self, col_args: Sequence[str], table: FileProfile) -> None:
        """A column argument still at a default the method's table does not have (``target='y'`` for a table
        of ``depth_cm`` and ``temperature_c``) cannot run as it stands: the only column of a one-column table
        is it, otherwise it is a question."""
        if table.name not in self.args.values():
            return  # the method does not read this table
        names = table.column_names
        open_ = [n for n in col_args if n not in self.args and "array" not in _types(self.spec.arguments[n])
                 and isinstance(self.spec.arguments[n].get("default"), str)
                 and self.spec.arguments[n]["default"] not in names]
        if len(open_) == 1 and len(names) == 1:
            self.take(Mapped(open_[0], names[0], 0.8, f"the only column of {table.name} is {names[0]}"), table,
                      required=True)
            return
        if len(open_) == 1 and self.remaining_target(open_[0], table):
            return
        # "prompts ... in the `clock` column and the total duration in minutes in the `minutes` column": the prompt
        # read, the one other column the text writes out is the answer
        held = {c for k, v in self.args.items() if k != "column_names"
                for c in ([v] if isinstance(v, str) else v if isinstance(v, list) else []) if isinstance(c, str)}
        left = [c for c in names if c not in held]
        if len(open_) == 1 and len(left) == 1 and len(names) >= 2 and self.fits(open_[0], left[0]) and \
                re.search(rf"`{re.escape(left[0])}`", self.text):
            self.take(Mapped(open_[0], left[0], 0.8, f"{left[0]} is the one column of {table.name} the text writes out "
                                                     "that no other argument took"), table, required=True)
            return
        for name in open_:
            if any(q.startswith(f"which column is {name!r}") for q in self.questions):
                continue  # asked already (a label among several 0/1 columns)
            shown = ", ".join(names[:14]) + (", ..." if len(names) > 14 else "")
            self.questions.append(f"which column is {name!r} (the default {self.spec.arguments[name]['default']!r} "
                                  f"is not a column of {table.name})? columns: {shown}; add `{name}: <column>` "
                                  "under `arguments:` in the front matter")

    def remaining_target(self, name: str, table: FileProfile) -> bool:
        """The target of a regression whose inputs default to every other column ("Input columns (default: every
        column except the target)"), when the text shows which column is the response: the one column left when
        the inputs were read, or the table's last column when one sentence names every column with it last
        ("unit vectors (ux, uy, uz) and gain is gain_db", "angles theta1 and theta2, energy e_kcal") — inputs first,
        the response last, in the text and in the table alike."""
        inputs = next((n for n, doc in self.spec.argument_docs.items() if n != name and "array" in _types(
            self.spec.arguments.get(n, {})) and re.search(r"\b(?:every|all)\s+(?:other\s+)?columns?\s+(?:except|but)\s+"
                                                          r"the\s+" + re.escape(name.split("_")[0]), doc, re.I)), None)
        if inputs is None:
            return False
        columns = [c.name for c in table.columns if not row_label(c) and not c.constant]  # "K000", "K001": labels
        if isinstance(self.args.get(inputs), list):
            left = [c for c in columns if c not in self.args[inputs] and table.column(c) is not None
                    and table.column(c).numeric]  # type: ignore[union-attr]
            if len(left) == 1:
                self.take(Mapped(name, left[0], 0.8, f"the one column of {table.name} the inputs leave"), table,
                          required=True)
                return True
            return False
        last = self.named_last(table)
        if last is None:
            return False
        self.take(Mapped(name, last[0], 0.8, f"named last of {table.name}'s columns, after the inputs: "
                         f"“{clip_quote(last[1], 120)}”"), table, required=True)
        return True

    def named_last(self, table: FileProfile) -> tuple[str, str] | None:
        """The table's last column and the sentence, when one sentence names every column but the row labels with
        that column last ("angles theta1 and theta2, energy e_kcal"): the response of a regression, written after
        its inputs in the text and in the table alike."""
        columns = [c.name for c in table.columns if not row_label(c) and not c.constant]  # "K000", "K001": labels
        if not columns or columns[-1] != table.column_names[-1]:
            return None
        for sentence in self.sentences:  # (one column besides the rows' labels: the one the text names)
            at = {c: m.start() for c in columns
                  if (m := re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", sentence)) is not None}
            if len(at) == len(columns) and max(at, key=at.__getitem__) == columns[-1]:
                return columns[-1], sentence
        return None

    def adjustment_set(self, name: str, table: FileProfile) -> None:
        """An adjustment set the text leaves open: every other column of the table but identifiers (a distinct
        integer per row, or a name like ``id``) and constants — the analysis a careful user starts from, stated
        as an assumption (``assumed``), never as something the task asked."""
        if re.search(r"\bDefault:", self.spec.argument_docs.get(name, "")):
            return  # the method has its own rule ("Default: the population table's variables"): it applies it
        used = {v for v in self.args.values() if isinstance(v, str)}
        used |= {c for v in self.args.values() if isinstance(v, list) for c in v if isinstance(c, str)}  # instruments
        chosen = [c.name for c in table.columns if c.name not in used and not c.constant and c.numeric
                  and not identifier(c)]
        if not chosen:
            return
        self.assumed[name] = (f"the task names no adjustment set; every other numeric column of {table.name} was "
                              f"used ({', '.join(chosen[:12])}{', ...' if len(chosen) > 12 else ''}); identifiers "
                              "and constant columns were left out")
        self.args[name] = chosen
        self.confidence[name] = 0.6
        self.evidence[name] = self.assumed[name]

    def take(self, item: Any, table: FileProfile, *, required: bool) -> None:
        if item.argument in self.unsettled:
            return  # already asked: the text named two columns for it
        if item.sure:
            self.args[item.argument] = item.value
            self.confidence[item.argument], self.evidence[item.argument] = item.confidence, item.evidence
            self.requirements.append(Requirement(kind="argument", text=item.evidence[:240], source="text",
                                                 method=self.spec.name, argument=item.argument, value=item.value))
        elif required or (isinstance(item.value, list) and item.alternatives) or self.asked(item.argument):
            # a list the text writes out with items no column fits is asked about even where the method has a
            # default: running on the default would drop what the text listed
            options = ", ".join(table.column_names[:14]) + (", ..." if len(table.column_names) > 14 else "")
            what = ("which columns" if isinstance(item.value, list) else "which column") + \
                   f" is {item.argument!r}"
            unsure = f" (not sure of: {', '.join(map(str, item.alternatives))})" if isinstance(item.value, list) \
                and item.alternatives else f" (best guess {item.value!r}, {item.confidence:.0%} sure)"
            self.questions.append(f"{what}{unsure}? columns of {table.name}: {options}; add "
                                  f"`{item.argument}: {'[<column>, ...]' if isinstance(item.value, list) else '<column>'}`"
                                  " under `arguments:` in the front matter")

    def decided_elsewhere(self) -> None:
        """A setting the text points to but does not give ("the cosmology we settled on in Tuesday's call", "the cuts
        we agreed last week"): running on defaults would answer another question, so it is asked, unless the values
        follow it ("the cosmology we settled on: H0 = 70, ...")."""
        for match in _ELSEWHERE.finditer(self.text):
            flat = " ".join(self.sentence_of(match.start()).split())
            if re.match(r"\s*(?:(?:on|upon|at|in|with|last|earlier)\s+)?(?:[\w']+\s+){0,3}?[\w']*\s*"
                        r"(?:[:(—–]|,?\s*namely\b|,?\s*i\.e\.)\s*[^.;)]{0,40}?(?:=|\d)", self.text[match.end():]):
                continue  # "the cosmology we settled on: H0 = 70, ...": the values follow
            self.questions.append(f"the text refers to {match.group(0).strip()!r} (“{clip_quote(flat, 90)}”) without "
                                  "giving it; state the values in the task, or add them under `arguments:` in the "
                                  "front matter")

    def overridden(self, given: Mapping[str, Any]) -> None:
        """Drop what the text's words set for an argument that another set argument replaces (``FieldWords.overrides``):
        the method would ignore it, and the words described the user's own input ("a banana-shaped posterior" in a
        file of their own), not a built-in choice."""
        for name, replaced in self.words.overrides.items():
            if name not in self.args:
                continue
            for other in replaced:
                if other in self.args and other not in given:
                    del self.args[other]
                    self.confidence.pop(other, None)
                    self.evidence.pop(other, None)
                    self.notes.append(f"`{other}` is not set: `{name}` replaces it")

    def design_weights(self, col_args: Sequence[str]) -> None:
        """The data's own weights asked for in words ("using the survey weights", "with the design weights") where
        no rule placed them: the one weight-named column of the data, or a question when it has several ("w_base",
        "w_trimmed") — running unweighted, or on a guessed column, would answer another question."""
        from cmbagent.agents._datamap import _WEIGHT_NAME

        said = next((m for m in re.finditer(r"\b(?:survey|design|base|sampling|respondent|their|its\s+own)\s+weights?\b|"
                                            r"\bthe\s+weights?\b(?!\s+(?:it|them|of\s+the\s+reference))",
                                            self.text, re.I) if not _negated(self.text, m.start())), None)
        placed = self.data_file()
        profile = next((p for p in self.profiles or () if p.name == placed), None)
        if said is None or profile is None:
            return
        for name in col_args:
            if name in self.args or not name.startswith("design") or not name.endswith("weight"):
                continue
            weights = [c.name for c in profile.columns if c.numeric and (_WEIGHT_NAME.search(c.name) or re.match(r"w_[a-z]", c.name))]
            if len(weights) == 1:
                self.record(name, weights[0], self.sentence_of(said.start()), confidence=0.85)
            elif weights:
                self.questions.append(f"the task asks for “{said.group(0)}” and {placed} has {len(weights)} weight "
                                      f"columns ({', '.join(weights)}); add `{name}: <column>` under `arguments:` in "
                                      "the front matter")

    def labelled_rows(self, col_args: Sequence[str]) -> None:
        """A list of input columns left to its default "all but the label" where the table also holds a column that
        names its rows ("P000", "P001", ...: a pond id): the default would take the names as an input and the run
        would stop on them, so the list is every other numeric column, said in a note."""
        placed = self.data_file()
        profile = next((p for p in self.profiles or () if p.name == placed), None)
        if profile is None:
            return
        for name in col_args:
            doc = self.spec.argument_docs.get(name, "")
            if name in self.args or "array" not in _types(self.spec.arguments[name]) or \
                    not re.search(r"default:?\s+(?:all|every)\s+(?:other\s+)?(?:columns?\s+)?(?:but|except)\s+the\s+(?:label|target)",
                                  doc, re.I):
                continue
            labels = [c for c in profile.columns if row_label(c) or identifier(c)]
            if not labels:
                continue
            used = {v for k, v in self.args.items() if k in col_args and isinstance(v, str)}
            inputs = [c.name for c in profile.columns if c.numeric and c not in labels and c.name not in used]
            if not inputs or not used:
                continue
            self.record(name, inputs, f"every numeric column of {placed} but {', '.join(sorted(used))} and the row "
                        f"names in {', '.join(c.name for c in labels)}", confidence=0.8)
            self.notes.append(f"`{name}` is every numeric column but the label: {', '.join(c.name for c in labels)} "
                              "names the rows")

    def input_count(self) -> None:
        """A count of inputs ("Number of inputs of a regression family") the text leaves unsaid, where the input
        columns were read: the run needs the two to agree, so the count is the columns'."""
        columns = next((v for n, v in self.args.items() if isinstance(v, list) and re.match(
            r"Input columns\b", self.spec.argument_docs.get(n, ""))), None)
        for name, doc in self.spec.argument_docs.items():
            if name in self.args or not columns or not re.match(r"Number of inputs\b", doc):
                continue
            self.record(name, len(columns), f"the {len(columns)} input columns read: {', '.join(map(str, columns))}",
                        confidence=0.85)

    def outcome_range(self) -> None:
        """The range of the outcome column as the text describes that column ("active_min, which by construction lies
        between 0 and 300"), for an argument that takes the outcome's bounds (``outcome_support``): the column read
        as the outcome, not whichever column the words follow."""
        name = "outcome_support"
        outcome = self.args.get("outcome")
        if name not in self.spec.arguments or name in self.args or not isinstance(outcome, str):
            return
        number = r"(-?\d+(?:\.\d+)?)"
        # "er_visit (0/1, so bounded by 0 and 1)"
        match = re.search(rf"(?<![\w-])`?{re.escape(outcome)}`?(?![\w-])[^.;]{{0,40}}?\b(?:lies|lie|runs?|ranges?|goes|"
                          rf"(?:is\s+)?bounded|stays?)\s+(?:\w+\s+)?(?:between|from|by)\s+{number}\s+(?:and|to)\s+"
                          rf"{number}\b", self.text, re.I)
        if match is None or _negated(self.text, match.start()):
            return
        low, high = float(match.group(1)), float(match.group(2))
        if low < high:
            value = [int(v) if v.is_integer() else v for v in (low, high)]
            self.record(name, value, self.sentence_of(match.start()), confidence=0.9)

    def one_of(self) -> None:
        """A question for each group of optional arguments the method's question needs one of (``FieldWords.one_of``)
        when the reading found none: without an instrument, an instrument method would run and answer another
        question."""
        for group in self.words.one_of:
            if any(name in self.args for name in group):
                continue
            columns = self.table_columns()
            ways = "; ".join(f"`{name}: {'[<column>, ...]' if 'array' in _types(self.spec.arguments[name]) and columns else '<value>'}`"
                             f" ({self.spec.argument_docs.get(name, '').split('. ')[0].rstrip('.').lower()})"
                             for name in group)
            shown = f" columns of {self.data_files[0]}: {', '.join(columns[:12])};" if columns and self.data_files else ""
            self.questions.append(f"{self.spec.name} needs one of {', '.join(map(repr, group))}, and the text gives "
                                  f"none;{shown} add one under `arguments:` in the front matter: {ways}")

    def missing(self) -> list[str]:
        out = []
        columns = self.table_columns()
        for name in self.spec.required:
            if name in self.args:
                continue
            if self.paths.get(name) == "input":
                how = "<file path, relative to the task file>"
            elif name in column_arguments(self.spec) and columns:
                shown = ", ".join(columns[:12]) + (", ..." if len(columns) > 12 else "")
                how = f"<column>   (columns of {self.data_files[0]}: {shown})" if "array" not in _types(
                    self.spec.arguments[name]) else f"[<column>, ...]   (columns: {shown})"
            else:
                doc = self.spec.argument_docs.get(name, "").split(". ")[0].rstrip(".")
                how = f"<{doc.lower() or 'value'}>"
            out.append(f"{self.spec.name} needs {name!r}, which the offline backend could not find in the task's "
                       f"text; add `{name}: {how}` under `arguments:` in the front matter")
        return out


def understand(method: str, text: str, given: Mapping[str, Any], data_files: Sequence[str], *,
               columns: Mapping[str, Sequence[str]] | None = None,
               profiles: Sequence[FileProfile] | None = None) -> Understanding:
    """Arguments of ``method`` from the front matter (``given``, kept as they are), then from the text, then
    from the data files; the requirements the task states; and notes on what could not be mapped.

    ``profiles`` (what each input file holds, :func:`cmbagent.inputs.profile_inputs`) let the reader map
    files by role and columns by content; each argument gets a confidence, and what it would have had to
    guess becomes a question (``questions``) instead of an argument."""
    from cmbagent.tools.methods import get_method, path_arguments

    spec = get_method(method)
    named_columns: tuple[str, list[str], str] | None = None
    if profiles is not None and "column_names" in spec.arguments and "column_names" not in given:
        named_columns = headerless_names(text, profiles)
        if named_columns is not None:  # read the file with the names the text gives it, as the method will
            file, names = named_columns[0], named_columns[1]
            profiles = [replace(p, kind="table", columns=tuple(replace(c, name=n) for c, n in zip(p.columns, names,
                                                                                                 strict=True)))
                        if p.name == file else p for p in profiles]
    if profiles is not None and not columns:
        columns = {p.name: p.column_names for p in profiles if p.column_names}
    reader = _Reader(spec, text, given, data_files, columns or {}, path_arguments(method), profiles)
    if named_columns is not None:
        reader.record("column_names", named_columns[1], named_columns[2])
    for name, value in given.items():
        if name not in _BOOKKEEPING - {"seed", "random_state"}:
            reader.requirements.append(Requirement(kind="argument", text=f"{name}: {value}", source="front_matter",
                                                   method=method, argument=name, value=value))
    col_args = column_arguments(spec)
    taken: set[str] = {v for k, v in given.items() if k in col_args and isinstance(v, str)}
    # file arguments come from the run's input files; the words written for an argument (its name and a value,
    # its phrases) read their numbers first, so that "32 importance samples" is not also 32 samples drawn
    if "output_dir" in spec.arguments and "output_dir" not in reader.args:  # "write the outputs to wcdm_run"
        folder = re.search(_GENERIC_CUES["output_dir"][0], reader.text, re.I)
        if folder is not None and not re.search(r"\.[A-Za-z]{2,5}$", folder.group(1)):  # a folder, not a file
            reader.record("output_dir", folder.group(1).rstrip("/"), reader.sentence_of(folder.start()))
    todo = [name for name in spec.arguments if name not in reader.args and name not in reader.paths
            and (name not in _BOOKKEEPING or name in _GENERIC_CUES)]
    todo = [name for name in todo if not (reader.explicit(name, spec.arguments[name])
                                          or reader.cued(name, spec.arguments[name]))]
    for name in todo:
        schema = spec.arguments[name]
        if reader.named(name, schema):
            continue
        if name == "priors" and reader.priors(name):
            continue
        if name == "parents" and reader.parent_graph(name):
            continue
        if "object" in _types(schema) and reader.parameter_values(name):
            continue
        if reader.gaussian_prior(name) or reader.model_spec(name, schema):
            continue
        if name in col_args:
            continue  # columns come after every scalar argument (their values must not be taken twice)
        if reader.choices(name, schema) or reader.choice(name, schema) or reader.flag(name) \
                or reader.skipped(name, schema):
            continue
        reader.unreadable(name, schema)
    # a list given by the columns' places ("control for the first three columns") is what it says, whatever words of
    # its sentence the lists' rules would read
    if (first_table := reader.table()) is not None:
        reader.ordinal_columns(col_args, first_table)
    # a column an argument's words already named (the outcome "to `earn22`") is no list's member, and a list the
    # words named ("(question ai_regulation)") is no single column's ("with a split ballot")
    taken |= {v for k, v in reader.args.items() if k in col_args and isinstance(v, str)}
    taken |= {c for k, v in reader.args.items() if k in col_args and k not in given and isinstance(v, list) for c in v}
    for name in col_args:  # scalar column arguments first, so a list does not swallow the outcome
        if name not in reader.args and name not in reader.paths and "array" not in _types(spec.arguments[name]):
            reader.columns_for(name, spec.arguments[name], taken)
    # a subgroup's column may also be weighted on ("rake on region and age_band ..., overall and by age_band")
    shared = {v for k, v in reader.args.items() if k in _SHARED_COLUMNS and isinstance(v, str)}
    for name in col_args:
        if name not in reader.paths and "array" in _types(spec.arguments[name]):  # given lists: only what to exclude
            reader.columns_for(name, spec.arguments[name], taken - shared, exclusions_only=name in reader.args)
    reader.anaphoric_list(col_args, given)
    reader.files()
    reader.layouts()
    reader.data_columns(col_args)
    # again, with the columns the data gave the single roles left out, for a list the anaphor's sentence asks for
    reader.anaphoric_list(col_args, given, cued_only=True)
    reader.other_table_columns(col_args)
    reader.bracketed_columns(col_args, given)
    reader.disjoint_lists(col_args, given)
    reader.labelled_rows(col_args)
    reader.design_weights(col_args)
    reader.outcome_range()
    reader.input_count()
    reader.one_of()
    reader.decided_elsewhere()
    reader.overridden(given)
    return Understanding(arguments=reader.args, requirements=reader.requirements, notes=reader.notes,
                         missing=reader.missing(), confidence=reader.confidence, evidence=reader.evidence,
                         questions=reader.questions, unplaced=reader.unplaced, assumed=reader.assumed)


def illustrative_at(text: str, start: int) -> bool:
    """Whether what stands at ``start`` of ``text`` is an example in its sentence (:func:`_illustrative`)."""
    before = re.split(r"(?<!\be\.g)(?<!\bi\.e)[.!?]\s|\n\s*\n", text[max(0, start - 300):start])[-1]
    return _illustrative(before, "")


def _illustrative(sentence: str, value: str) -> bool:
    """Whether ``value`` stands in ``sentence`` as an example of how one could do something ("e.g.", "for example",
    "such as", or inside a command line shown to the reader), not as what to do."""
    at = sentence.find(value)
    before = sentence[:at] if value and at >= 0 else sentence
    return bool(re.search(r"\b(?:e\.g\.|i\.e\.|for\s+example|for\s+instance|such\s+as)|\bcmbagent\s+\w+\s+run\b|--args\b",
                          before, re.I))


#: where a clause turns to the adjustment set: "adjusting for", "controlling for", "once ... accounted for"
_ADJUSTING = re.compile(r"\b(?:adjust\w*|controll?\w*|account\w*|correct\w*|condition\w*)\s+(?:only\s+)?for\b|"
                        r"\btak\w*\s+[^.;]{0,60}?\binto\s+account\b", re.I)


#: a setting decided somewhere the text does not show: "the cosmology we settled on", "the cuts we agreed last week"
_ELSEWHERE = re.compile(r"\b(?:the|our|those|these)\s+(?:[\w-]+\s+){0,2}?(?:cosmology|parameters|parameter\s+values|values|"
                        r"settings|set-?up|configuration|priors?|cuts|covariates|model|chain|run|fit|file|version)\s+"
                        r"(?:that\s+)?(?:we|you|they|I|he|she|(?-i:[A-Z][a-z]+)|the\s+(?:group|team|collaboration|committee|"
                        r"referee|reviewers?|PI|supervisor|advisor))\s+(?:settled|agreed|decided|chose|picked|fixed|"
                        r"discussed|arrived|quoted|cited|proposed|suggested|recommended|circulated|presented|preferred|"
                        r"used\s+in|showed\s+in|put\s+in)\b|"
                        # "at our best-fit cosmology from last week's run": values of another run, not given here
                        r"\b(?:our|the|their|your)\s+best[- ]fit\s+(?:cosmology|parameters|model|values|point)\s+(?:from|of)\s+"
                        r"(?:last\s+\w+['’]s|yesterday['’]s|an\s+earlier|the\s+(?:previous|earlier|last))\b", re.I)
_CHANGE_VERB = r"(?:rais|lower|increas|reduc|improv|boost|affect|chang|cut)\w*"


def _unwrapped(text: str) -> str:
    """``text`` with each line break inside a paragraph as a space (same length, so positions stay): not a blank
    line, a list item's or a heading's break, or one after a line that ends a sentence or a heading."""
    return re.sub(r"(?<=[^\n.:!?])\n(?![ \t]*(?:[-*•+]|\d+[.)]|#|\n|$))", " ", text)


_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _numbered_shape(name: str) -> str:
    """A file's name with its number, or the one letter that tells runs apart, as ``#``: "chain_2.txt" and
    "growth_seedB.txt" have the shapes "chain_#.txt" and "growth_seed#.txt"."""
    base = name.rsplit("/", 1)[-1]
    return re.sub(r"\d+|(?<=[a-z_-])[A-Z](?=\.[^.]+$)|(?<=[_-])[a-z](?=\.[^.]+$)", "#", base)


def _glossed(segment: str, columns: Sequence[str]) -> bool:
    """Whether ``segment`` holds a bracket of two or more column names, with or without backticks ("plot size, soil
    nitrogen and distance to market (plot_ha, soil_n_ppm, dist_market_km)"): the columns the words before describe."""
    known = set(columns)
    for bracket in re.finditer(r"\(([^()]{3,300})\)", segment):
        inside = re.sub(r"^\s*(?:the\s+)?columns?\s*:?\s*", "", bracket.group(1), flags=re.I)  # "(columns `a`, `b`)"
        items = [i.strip(" `'\"") for i in re.split(r"\s*(?:,\s*and\b|,|\band\b|;)\s*", inside) if i.strip()]
        if len(items) >= 2 and all(i in known for i in items):
            return True
    return False


def _close_after(gap: str) -> bool:
    """Whether the words between a single column's cue and a column name leave the name the cue's object: no
    comma, semicolon or bracket between them, no "on" that opens the next role ("the effect of the programme on
    earn22": earn22 is no treatment), and at most four words ("on the log of", "of being"); a bracket that opens on
    the name says which column the cue's words mean ("the income they actually realised (realised_income)")."""
    if re.fullmatch(r"(?:\s+[A-Za-z-]+){0,4}\s*\(\s*`?", gap):  # "actually harvested (harvested_yield)"
        return True
    return not re.search(r"[,;:()]|\b(?:on|upon)\s", gap) and len(re.findall(r"[^\W\d_][\w'-]*", gap)) <= 4


#: words of an argument's name that name no thing it counts (``max_steps`` counts steps)
_FILLER_WORDS = frozenset({"max", "min", "num", "number", "size", "rate", "weight", "column", "columns", "data",
                           "file", "dir", "seed", "type", "mode", "name"})


#: column arguments whose column may also be a member of a list argument: a survey's subgroup is often one of
#: the variables it is weighted on
_SHARED_COLUMNS = frozenset({"subgroup"})

#: the public name (``cmbagent.agents.understand_task``)
understand_task = understand
