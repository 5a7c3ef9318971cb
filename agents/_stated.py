"""A checklist with its own eyes: what the task states, read by rules that do not share the executor's reading.

The executor's reading (:mod:`cmbagent.agents._understand`, or a language model's brief) decides what runs; a
checklist derived from that same reading cannot notice what it missed (a covariance file the text names,
never passed to the fit).  The rules here read the task again, independently and more simply, for three
kinds of statement, and code checks each against what ran (:mod:`cmbagent.report._requirements`):

* **files** — every input file the text names, with the role the words of its sentence give it
  (``covariance``, ``test``, ``embeddings``, ``chain``, ``data``): it must be read by a step in that role;
* **numbers** — every number the text states as a setting (a prior, a threshold or cut, a seed, a number of
  folds, walkers, samples, steps, a sample size): it must appear in what ran (an argument, or a cell's code);
* **words** — model and estimand words ("constant w", "w0–wa", "curved", "effect on the treated",
  "logistic regression") that fix what must have run: the method's choice for that aspect must be one the
  words allow.

The vocabulary here is deliberately its own (not the methods' ``phrases``): two readings that disagree are
what makes a silent substitution visible.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from cmbagent.state import Requirement

__all__ = ["FILE_ROLES", "WORDS", "asked_about", "input_columns", "joined_thousands", "names_column", "stated_requirements"]

#: role words of a sentence that names a file, nearest to the name first
FILE_ROLES: dict[str, tuple[str, ...]] = {
    "covariance": ("covariance", "covariances", "covmat", "cov matrix", "error matrix", "systematics matrix",
                   "correlation matrix", "systematic errors", "systematic uncertainties"),
    "test": ("test set", "test data", "test table", "held-out", "held out", "holdout", "hold-out", "validation set",
             "evaluate on", "evaluation set"),
    "embeddings": ("embeddings", "embedding", "representations", "feature vectors"),
    "chain": ("chain", "chains", "posterior samples", "mcmc samples"),
    "instruments": ("instrument", "instruments"),
}
#: argument names (and words of their documentation) that take a file in each role
_ARGUMENT_ROLES = {"covariance": ("covariance", "cov"), "test": ("test",), "embeddings": ("embeddings", "embedding"),
                   "chain": ("chain",), "instruments": ("instrument",)}

#: a number is a setting when one of these words stands near it (the quantity names what it sets)
#: (quantity, cue, where the number stands: "after" the cue as in "seed 1" and "prior Ω_m = 0.3", "before" it as
#: in "5 folds" and "2000 steps", or "either"; "after" numbers may be joined to their cue by "of", "=", ":" and
#: a parameter's name)
_SETTINGS: tuple[tuple[str, str, str], ...] = (
    ("prior", r"(?<!\bits )\bpriors?\b|\bfrom (?:Planck|the CMB|another experiment|BBN|SH0ES)\b", "after"),
    ("seed", r"\b(?:random )?seeds?\b", "after"),
    ("threshold", r"\bthreshold\b|\bcut(?:off)?\b|\babove\b|\bbelow\b|\bgreater than\b|\bless than\b|[<>≤≥]",
     "after"),
    ("folds", r"\b-?folds?\b|\bcross[- ]fitting folds\b", "either"),
    ("walkers", r"\bwalkers\b", "either"),
    ("steps", r"\b(?:steps|iterations|epochs)\b", "either"),
    ("samples", r"\bsamples\b|\bdraws\b|\brepetitions\b|\breplicates\b|\bbootstrap (?:samples|replicates|draws)\b",
     "before"),
    ("labels", r"\blabell?ed\b", "before"),
    ("sample size", r"\bn\s*=|\bsample size\b", "after"),
)
#: a sentence that reports results or expectations, not settings ("mean AUC-PR over seeds 1–3: 0.887 vs 0.929")
_RESULTS = re.compile(r"\b(?:expect\w*|measured|published|reported|found|gives?|gave|scores?|scored|ranks?|"
                      r"ranked|obtained|achieved|reaches|reached|was|were)\b|\bvs\.?\b", re.I)
_NUMBER = r"(?<![\w.])[-+−]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)(?:[eE][-+]?\d+)?%?(?![\w])"
_NOT_SETTINGS = re.compile(r"\b(?:published|reported|expect(?:ed)?|true|truth|paper|report(?:s|ed)? (?:that|a)|"
                           r"\|[^|]*\||compare (?:with|to)|should (?:be|give)|about|roughly|approximately|≈|~)", re.I)

#: words that fix an aspect of what runs: (aspect, pattern, the values the words allow)
WORDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("model", r"\bw0\s*[-–—/,]?\s*(?:and\s+)?wa\b|\bw_?0\s*(?:and|,|/)\s*w_?a\b|\bevolving dark energy\b|\bCPL\b|"
              r"\bw\((?:a|z)\)", ("w0wacdm",)),
    ("model", r"\bconstant w\b|\bw\s*CDM\b|\bw\s+(?:is\s+)?(?:left\s+)?free\b|\bfree w\b|"
              r"\bconstant (?:dark[- ]energy )?equation[- ]of[- ]state\b|"
              r"\bw\b,?\s*\(?(?:taken|held|kept|assumed|treated) (?:as |to be )?constant\b|"
              # "letting w ... float", "the equation of state as one extra free constant"
              r"\b(?:let|lets|letting|allow|allowing) w\b[^.;]{0,70}\b(?:float|vary|free)\b|"
              r"\bequation[- ]of[- ]state (?:as|is|be) (?:one |an? )?(?:extra |additional |single )?free constant\b",
              ("wcdm", "w0wacdm")),
    ("model", r"\bcurved\b|\bcurvature\b|\bnon-?flat\b|(?:Ω|Omega)_?k\b|\bopen or closed\b|"
              # "Ω_Λ measured separately from Ω_m", "nothing assumed about the total density": not flat
              r"(?:Ω|Omega)_?(?:Λ|L|Lambda)\b[^.;]{0,40}\b(?:separately|independently) (?:from|of) (?:Ω|Omega)_?m\b|"
              r"\bwithout assuming anything about the total (?:\w+ )?density\b", ("lcdm",)),
    ("model", r"(?<!non-)(?<!non )\bflat (?:Λ|L|Lambda[- ]?)CDM\b", ("flat_lcdm",)),
    ("estimand", r"\b(?:effect|impact) on the treated\b|\bATT\b|\bATET\b", ("ATT", "att")),
    ("classifier", r"\blogistic regression\b", ("logistic",)),
    ("classifier", r"\brandom forest\b", ("random_forest",)),
    ("classifier", r"\b(?:linear )?SVM\b|\bsupport vector\b", ("linear_svm", "rbf_svm")),
)
_NEGATED = re.compile(r"\b(?:not|no|never|without|instead of|rather than|don't|do not|avoid|unlike)\b[^.;]{0,40}$",
                      re.I)


#: abbreviations whose full stop ends no sentence ("Betoule et al. (2014) compress ...")
_NOT_AN_END = r"(?<!\bal\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bcf\.)(?<!\bvs\.)(?<!\bFig\.)(?<!\bEq\.)"


def _sentences(text: str) -> list[str]:
    parts = re.split(rf"(?<=[.!?;]){_NOT_AN_END}\s+(?=[A-Z(*`\"'ΩΛ\d-])|\n\s*\n|\n\s*[-*]\s+|"
                     r"\n(?=[A-Z][\w ]{0,24}:\s)", text)  # a line opening with a label ("Expect: ...")
    out: list[str] = []
    for part in (p.strip() for p in parts if p.strip()):
        if out and out[-1].endswith(";") and out[-1].count("(") > out[-1].count(")"):
            out[-1] = f"{out[-1]} {part}"  # "(magnitudes and errors; 100 objects)": a bracket is one sentence's
        else:
            out.append(part)
    return out


def _quote(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clause_bounds(sentence: str, at: int, end: int, names: Sequence[str]) -> tuple[int, int, bool]:
    """The clause around the file name at ``at``…``end``: cut at , ; : and at the other files' names; and whether
    the name opens its clause (an apposition: "the covariance is in the second file, cov.txt")."""
    cuts = [m.start() for m in re.finditer(r"[,;:()]|\s(?:and|with|while|but|whereas)\s", sentence)]
    cuts += [m.start() for n in names for m in re.finditer(re.escape(n), sentence) if m.start() != at]
    left = max([c for c in cuts if c < at] + [0])
    right = min([c for c in cuts if c >= end] + [len(sentence)])
    opens = not re.search(r"[A-Za-z]{3,}", sentence[left:at].strip(" ,;:(`'\""))
    return left, right, opens


def _roles_in(text: str) -> list[str]:
    lowered = text.lower()
    return [role for role, words in FILE_ROLES.items()
            if any(re.search(rf"(?<![a-z]){re.escape(w)}(?![a-z])", lowered) for w in words)]


def _file_role(sentence: str, at: int, end: int, names: Sequence[str]) -> str:
    """The role the words of the file's own clause give it (an apposition takes the clause before it)."""
    left, right, opens = _clause_bounds(sentence, at, end, names)
    roles = _roles_in(sentence[left:right])
    if not roles and opens and left > 0:
        roles = _roles_in(sentence[max(0, sentence.rfind(",", 0, left - 1) + 1, sentence.rfind(";", 0, left - 1) + 1):left])
    return roles[0] if len(roles) == 1 else "data" if not roles else roles[0]


def _file_items(text: str, files: Mapping[str, str]) -> list[Requirement]:
    items: list[Requirement] = []
    every = [n for rel, shown in files.items() for n in {rel, shown, rel.rsplit("/", 1)[-1], shown.rsplit("/", 1)[-1]}]
    for rel, shown in files.items():
        names = {rel, shown, rel.rsplit("/", 1)[-1], shown.rsplit("/", 1)[-1]}
        for sentence in _sentences(text):
            hit = next((m for n in sorted(names, key=len, reverse=True)
                        for m in [re.search(rf"(?<![\w/.-]){re.escape(n)}(?![\w])", sentence)] if m), None)
            if hit is None:
                continue
            role = _file_role(sentence, hit.start(), hit.end(), [n for n in every if n not in names])
            items.append(Requirement(kind="file", text=_quote(sentence), source="rule", file=rel, role=role))
            break
    return items


def _as_number(raw: str) -> float | None:
    """A number as written: "3,000" and "1,200,000" with thousands separators, "0,5" with a decimal comma."""
    if re.fullmatch(r"[-+−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?%?", raw):
        raw = raw.replace(",", "")
    raw = raw.replace("−", "-").replace(",", ".") if raw.count(",") == 1 and "." not in raw else raw.replace("−", "-")
    try:
        return float(raw.rstrip("%")) / (100.0 if raw.endswith("%") else 1.0)
    except ValueError:
        return None


def _nearest_setting(text: str, start: int, end: int) -> str | None:
    """The setting whose cue stands next to the number at ``start``…``end`` on the side its phrasing puts it:
    "seed 4" and "a prior Ω_m = 0.3" (the number after the cue, up to 40 characters for a prior's parameter,
    12 otherwise), "5 folds" and "2000 steps" (the number right before the cue)."""
    best: tuple[int, str] | None = None
    for quantity, pattern, side in _SETTINGS:
        for match in re.finditer(pattern, text, re.I):
            if match.end() <= start and side in ("after", "either"):
                between = text[match.end():start]
                limit = 40 if quantity == "prior" else 12
                joined = re.fullmatch(r"[\s:=(]*(?:of|is|to|at|set to|equal to|=|:)?[\s:=(]*", between) is not None \
                    or (quantity == "prior" and not re.search(r"[;.]|,\s+(?!\d)", between))
                distance = len(between)
            elif match.start() >= end and side in ("before", "either"):
                between = text[end:match.start()]
                limit, distance = 14, len(between)
                joined = re.fullmatch(r"[\s-]*(?:[A-Za-z][\w-]*\s+)?", between) is not None  # "5 cross-fitting folds"
            else:
                continue
            if joined and distance <= limit and (best is None or distance < best[0]):
                best = (distance, quantity)
    return best[1] if best else None


#: a sentence whose subject is a cited work ("Betoule et al. (2014, A&A 568) compress ...", "Smith (2020)
#: finds ...") reports what that work did; its numbers set nothing of this run (a prior it gives is read above)
_CITED_SUBJECT = re.compile(r"\s*(?:[A-Z][\w'-]+\s+){1,3}(?:et al\.|and [A-Z][\w'-]+|&\s*[A-Z][\w'-]+)?\s*"
                            r"\(\d{4}[a-z]?\b[^)]*\)\s*(?![,;:])")

#: a normal distribution as written: N(μ, σ²), N(μ, σ^2), Normal(μ, σ)
_NORMAL = re.compile(r"(?<![\w])(?:N|𝒩|Normal|Gaussian)\s*\(\s*([-+−]?\d+(?:\.\d+)?)\s*,\s*(\d+(?:\.\d+)?)\s*"
                     r"(?:²|\^\s*2|\*\*\s*2)?\s*\)")
_PAIR = re.compile(r"(?<![\w.])([-+−]?\d+(?:\.\d+)?)\s*(?:±|\+/-|\+-)\s*(\d+(?:\.\d+)?)")


#: thousands set off by a space, as many write them ("cap the chain at 15 000 steps", "40 000 samples")
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])(?<![\d.]\s)(\d{1,3})([\u2009\u202f\u00a0 ])(\d{3})(?!\d|[.,]\d|\s\d)")


def _joined_thousands(match: re.Match[str]) -> str:
    """"15 000" as "15000": a thin or no-break space before any three digits; a plain one only after one or two digits
    and before hundreds ("40 000", "2 500"), so that a list written with spaces ("widths 120 240 480") stays a list."""
    head, space, tail = match.groups()
    if space == " " and (len(head) > 2 or not tail.endswith("00")):
        return match.group(0)
    return head + tail


def joined_thousands(text: str) -> str:
    """``text`` with thousands set off by a space written as one number ("1 500 gradient steps" as "1500 gradient
    steps"): a way of writing a number, which the checklist reads as the reader does."""
    return _SPACED_THOUSANDS.sub(_joined_thousands, text)


def _number_items(text: str, files: Mapping[str, str]) -> list[Requirement]:
    names = [n for rel, shown in files.items() for n in (rel, shown)]
    text = joined_thousands(text)  # "1 500 gradient steps" is one number, not the 500 of it
    items: list[Requirement] = []
    seen: set[tuple[str, float]] = set()
    sentences = _sentences(text)
    for n, sentence in enumerate(sentences):  # "m ± s" in a sentence that calls it a prior, or right before one
        following = sentences[n + 1] if n + 1 < len(sentences) else ""
        prior_here = re.search(r"(?<!\bits )(?<!\bits own )\bpriors?\b", sentence, re.I)  # "its prior" describes
        prior_next = re.search(r"\b(?:that|this|it|these|those|the same)\b[^.;]{0,40}\bpriors?\b", following, re.I)
        if prior_next or (prior_here and not _RESULTS.search(sentence) and not _NOT_SETTINGS.search(sentence)):
            for match in _PAIR.finditer(sentence):
                for raw in match.groups():
                    value = _as_number(raw)
                    if value is not None and ("prior", value) not in seen:
                        seen.add(("prior", value))
                        items.append(Requirement(kind="number", text=_quote(sentence), source="rule",
                                                 quantity="prior", value=value))
    for sentence in _sentences(text):
        clean = sentence
        for name in names:
            clean = clean.replace(name, " ")
        if _CITED_SUBJECT.match(sentence):
            continue  # "Betoule et al. (2014) compress ... at 0.01 ≤ z ≤ 1.3": what a cited work did, not a setting
        clean = re.sub(r"`[^`]*`|\b[\w-]+\.(?:csv|txt|dat|npz|npy|json|tsv)\b|\[\d+\]|\(\d{4}\)|"
                       r"\bet al\.\s*(?:\([^)]*\))?", " ", clean)
        for normal in _NORMAL.finditer(clean):  # its centre and its width (σ of "σ²"); a zero centre is no setting
            quantity = _nearest_setting(clean, normal.start(), normal.end())
            for value in [v for v in (_as_number(normal.group(1)), _as_number(normal.group(2))) if v]:
                if quantity is not None and (quantity, value) not in seen:
                    seen.add((quantity, value))
                    items.append(Requirement(kind="number", text=_quote(sentence), source="rule", quantity=quantity,
                                             value=value))
        clean = _NORMAL.sub(lambda m: " " * len(m.group(0)), clean)
        # "the first 1,200 of its 3,000 samples": the whole is what the data hold; the part is the setting (a share)
        clean = re.sub(r"(?<=\bof\s)((?:its|the|all|our|their)\s+)(\d[\d,]*)",
                       lambda m: m.group(1) + " " * len(m.group(2)), clean)
        for match in re.finditer(_NUMBER, clean):
            raw = match.group(0)
            left = clean[max(0, match.start() - 50):match.start()]
            quantity = _nearest_setting(clean, match.start(), match.end())
            if quantity is None or _NOT_SETTINGS.search(left[-30:]) or (quantity != "prior" and _RESULTS.search(clean)):
                continue
            value = _as_number(raw)
            after = clean[match.end():match.end() + 40]
            year = 1900 <= abs(value or 0) <= 2100 and "." not in raw and not re.match(  # "2000 gradient steps"
                r"\s*(?:[\w-]+\s+)?(?:steps|iterations|epochs|samples|draws|walkers|seeds?|folds?|repetitions)\b",
                after, re.I)
            if value is None or year:
                continue  # a year, not a setting
            if raw.endswith("%") and value in (0.68, 0.9, 0.95, 0.99):
                continue  # an interval's level: how to report, not a setting
            if (quantity, value) in seen:
                continue
            seen.add((quantity, value))
            items.append(Requirement(kind="number", text=_quote(sentence), source="rule", quantity=quantity,
                                     value=value))
    return items


def _word_items(text: str) -> list[Requirement]:
    items: list[Requirement] = []
    taken: set[str] = set()
    for aspect, pattern, allowed in WORDS:
        if aspect in taken:
            continue  # the most specific words of an aspect come first
        for sentence in _sentences(text):
            match = re.search(pattern, sentence, re.I)
            if match is None or _NEGATED.search(sentence[: match.start()]):
                continue
            items.append(Requirement(kind="word", text=_quote(sentence), source="rule", quantity=aspect,
                                     value=match.group(0), accepted=list(allowed)))
            taken.add(aspect)
            break
    return items


#: what an effect question asks about, in its own words: "how many extra words does each minute of therapy buy",
#: "the effect of the canopies on outage hours" (the checklist's own reading, not the reader's column roles)
_ASKED_ABOUT = (
    re.compile(r"\bhow\s+(?:much|many)\s+(?:extra\s+|more\s+|additional\s+|fewer\s+|less\s+)?"
               r"((?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z][\w-]*)\s+(?:does|did|do|would|will|can|could)\b", re.I),
    re.compile(r"\b(?:effects?|impacts?)\s+of\s+[^.;:?!,]{1,60}?\s+on\s+(?:the\s+|their\s+|its\s+|our\s+)?"
               r"((?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z][\w-]*)(?=\s*[.;:?!,(]|\s+(?:adjust|control|account|holding|for|in|"
               r"among|with|using|once|after|and)\b)", re.I),
)
_PLAIN = frozenset({"extra", "more", "additional", "fewer", "less", "each", "every", "daily", "weekly", "average",
                    "mean", "total", "their", "they", "this", "that", "these", "those", "much", "many", "does", "would"})


def asked_about(text: str) -> list[tuple[str, str]]:
    """The outcome an effect question names in its own words, per question: (the sentence, the words)."""
    found: list[tuple[str, str]] = []
    for sentence in _sentences(text):
        for pattern in _ASKED_ABOUT:
            match = pattern.search(sentence)
            if match is not None and not _NEGATED.search(sentence[:match.start()]):
                found.append((sentence, match.group(1)))
                break
    return found


def names_column(words: str, column: str) -> bool:
    """Whether the question's ``words`` name ``column`` ("words" names ``words_gained``, "outage hours" names
    ``outage_h``): a word of four letters or more shares its first five letters with a part of the name."""
    parts = [p.lower() for p in re.split(r"[_\W\d]+", column) if len(p) >= 4]
    stems = [w.lower() for w in re.findall(r"[A-Za-z]{4,}", words) if w.lower() not in _PLAIN]
    return any(p[:5] == w[:5] or (len(p) >= 4 and w.startswith(p)) or (len(w) >= 4 and p.startswith(w))
               for p in parts for w in stems)


def input_columns(arguments: Mapping[str, Any]) -> list[str]:
    """The columns a run reads as inputs of an effect: its treatment and its covariates."""
    found: list[str] = []
    for key in ("treatment", "covariates"):
        value = arguments.get(key)
        found += [c for c in (value if isinstance(value, list) else [value]) if isinstance(c, str)]
    return found


def _outcome_items(text: str) -> list[Requirement]:
    return [Requirement(kind="word", text=_quote(sentence), source="rule", quantity="outcome", value=words,
                        accepted=[words]) for sentence, words in asked_about(text)[:1]]


def stated_requirements(text: str, files: Mapping[str, str] | Sequence[str]) -> list[Requirement]:
    """The files, numbers and words ``text`` states (``files``: run-relative name -> the name as the task
    wrote it, or just the run-relative names), as unnumbered checklist items with ``source="rule"``."""
    shown = dict(files) if isinstance(files, Mapping) else {f: f for f in files}
    return [*_file_items(text, shown), *_number_items(text, shown), *_word_items(text), *_outcome_items(text)]


def argument_roles(name: str) -> set[str]:
    """The file roles a method argument called ``name`` plays (``data`` for any other file argument)."""
    found = {role for role, words in _ARGUMENT_ROLES.items() if any(w in name.lower() for w in words)}
    return found or {"data"}


def values_in(value: Any) -> list[float]:
    """Every number inside an argument's value (lists, mappings, numeric strings)."""
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [float(value)]
    if isinstance(value, str):
        number = _as_number(value.strip())
        if number is None and (fold := re.fullmatch(r"(?:rot:\w+|shift:\d+):(\d+)", value.strip())):
            k = int(fold.group(1))  # a k-fold rotation or torus shift: k, a k-th of a turn, 360/k degrees
            return [float(k), 1.0 / k, 360.0 / k] if k else []
        return [number] if number is not None else []
    if isinstance(value, Mapping):
        return [n for v in value.values() for n in values_in(v)]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in values_in(v)]
    return []
