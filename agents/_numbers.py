"""Every number a task states, accounted for before anything runs.

The checklist (:mod:`cmbagent.agents._stated`) reads numbers next to the words of known settings ("seed 4",
"5 folds"); a task written in the words of its own field states most of its settings otherwise ("four thousand
rank-4 adapters", "widths from 120 to 1920", "a quarter of the labels flipped", "step size 0.02").  When the
offline reader chose the method itself, a number it put into no argument is a setting it could not read, and
running would silently replace it with a default — so the reader asks instead.

What is *not* a setting and asks nothing: numbers inside names (``H0``, ``Pendulum-v1``, ``SALT2``, backticked
or file names), years, references ("Fig. 2", "Section 3", "[4]"), interval levels (95%), numbers in a sentence
that reports a result or a reference value, in one whose subject is a cited work, or one that describes the
data ("the table has 1,200 rows"), and any number equal to a value the run will use (an argument as read, a
default, or one the method's documentation states).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from cmbagent.agents._stated import _CITED_SUBJECT, _sentences, joined_thousands

__all__ = ["WORD_NUMBER", "StatedNumber", "documented", "stated_numbers", "unaccounted_numbers", "word_value"]

_ONES = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
         "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_FRACTIONS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "fifth": 0.2, "tenth": 0.1}
#: a mixed number in words: "three and a half", "three and three tenths" (whole numbers one to nine)
_MIXED = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine)\s+and\s+(a|one|two|three|four|five|six|seven|eight|"
                    r"nine)\s+(halves|half|thirds?|quarters?|tenths?|hundredths?)\b", re.I)
_WORD = "|".join([*_ONES, *_TENS, *_SCALES])
#: a number written in words: "four thousand", "two hundred", "twenty-five", "a hundred"
_WORDS = re.compile(rf"\b(?:(?:{_WORD}|a)(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))*)\b", re.I)
#: a number of two or more in words, as a count is written ("sixty", "two hundred", "four thousand"): not "one"
#: or "a", which are as often articles as counts (for :mod:`cmbagent.agents._understand`)
WORD_NUMBER = (rf"(?:(?:{_WORD}|a)(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))+|"
               rf"(?:{'|'.join(w for w in [*_ONES, *_TENS] if w != 'one')}))")
#: a fraction in words that sets a share: "a quarter of", "half of", "one tenth of"
_FRACTION = re.compile(r"\b(?:a|one)[\s-]+(half|third|quarter|fifth|tenth)\s+of\b|\bhalf\s+(?:of\s+)?the\b|"
                       # "firing threshold one half": "one" and a fraction is a number on its own
                       r"\bone[\s-]+(half|third|quarter|fifth|tenth)\b(?!\s+of\b)|"
                       # "keep half in the unlabelled pool": a share a request takes
                       r"\b(?:keep|drop|use|label|reveal|hold\s+(?:back|out)|set\s+aside)\s+(half)\b(?!\s+of\b)", re.I)
#: a rate as odds: "one in ten", "one answer in ten", "1 in 20" (N up to a thousand, not a year)
_ODDS = re.compile(rf"\b(?:one|1)\s+(?:[A-Za-z][\w-]*\s+){{0,3}}?in\s+(?:every\s+)?"
                   rf"((?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))*|[1-9]\d{{0,2}})\b(?![.,]\d)", re.I)
#: a rate as a ratio: "one old edit for every two new ones", "3 synthetic per 4 logged" (N / M)
_NUMBER_WORDS = rf"(?:{_WORD})(?:[\s-]+(?:and[\s-]+)?(?:{_WORD}))*|\d+(?:\.\d+)?"
_FOR_EVERY = re.compile(rf"\b({_NUMBER_WORDS})\s+(?:[A-Za-z][\w-]*\s+){{0,3}}?(?:for|per)\s+(?:every\s+|each\s+)?"
                        rf"({_NUMBER_WORDS})\b(?![.,]\d)", re.I)
#: a count of repetitions in a word: "redo the fold assignment twice" (not "twice as many", a ratio)
_TIMES = re.compile(r"\b(twice|thrice)\b(?!\s+as\b)", re.I)
#: a ratio in words: "half as many old edits as new ones", "twice as many", "three times as many" (N)
_AS_MANY = re.compile(rf"\b(half|twice|(?:{_NUMBER_WORDS})\s+times)\s+as\s+(?:many|much)\b", re.I)
#: a part of a whole: "1,200 of its 3,000" (a share, or a count of what is taken)
_PART_OF = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)\s+of\s+(?:its|the|all|our|their)\s+(\d{1,3}(?:,\d{3})+|\d+)"
                      r"(?![\w.,]\d)")
_DIGITS = re.compile(r"(?<![\w.^_/])[-+−]?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+−]?\d+)?(?:%|[kKM](?![\w]))?(?![\w])")
#: a word joined to a number by a hyphen gives it a setting's name ("rank-4", "k-5"); a model name ("GPT-4",
#: "Pendulum-v1") is a capitalised word or a letter-digit token, removed before numbers are read, and so is a
#: comparison with a reference ("the error |ATE − 4.016|")
_NAMES = re.compile(r"`[^`]*`|\|[^|\n]{1,60}\||https?://\S+|"
                    r"\b[\w.-]+\.(?:csv|tsv|txt|dat|npz|npy|json|fits|h5|hdf5|parquet|pt|gguf|yaml|yml|md|py|ipynb)\b|"
                    r"\b[A-Za-z]+[\w]*[-_]?v\d+(?:\.\d+)*\b|"
                    r"\b[A-Z][A-Za-z]*-\d[\w.]*|\b[^\W\d]\w*?\d\w*\b|\[\d+(?:[,–-]\s*\d+)*\]|"
                    r"\bet al\.,?\s*(?:\(?\d{4}[a-z]?\)?)?|\(\d{4}[a-z]?\)")
_REFERENCE = re.compile(r"\b(?:Sec(?:tion)?|Fig(?:ure)?|Tab(?:le)?|Eq(?:uation)?|Appendix|Chapter|Algorithm|"
                        r"Step|Part|Model|Task|Question|Experiment|page|p|pp|no|version|release|arXiv|"
                        r"Python)\.?\s*\(?$|§\s*$", re.I)
#: a sentence that gives a result or a reference value, not a setting
_REPORTED = re.compile(r"\b(?:expect(?!ed-)(?!ed\s+(?!to\b|values?\b|results?\b|answers?\b|numbers?\b|outcomes?\b|"
                       r"from\b|of\b|by\b|at\b|in\b|for\b|here\b|there\b)[a-z]{3,})\w*|"
                       r"measured|published|(?<!\band )(?<!\bbe )reported(?!\s+(?:with|alongside|together|beside|"
                       # "has to be found by line searches", "can one be found where ...": what the run must find
                       r"next\s+to)\b)|report(?:s|ed)? (?:that|a)|(?<!\bone )(?<!\bbest )(?<!\bpipeline )(?<!\bbe )found|obtained|"
                       r"achieved|true|(?<!\bground )truth|"
                       r"(?:result|answer|estimate|value|fit|effect|number|it|this|that|you)\s+should\s+(?:be|give|come\s+out)|"
                       r"was|were|gave|reaches|reached|got(?=[^.;]{0,40}?[=≈])|"
                       # a result's score, not "the propensity scores", which a setting clips
                       r"(?<!propensity )scor(?:e|es|ed)|compare (?:with|to)|tolerance|matches|agrees?|"
                       # "within 0.03 of the best" selects among candidates: a setting, not a result's tolerance
                       # ("within three hundredths (0.03) of the top one" too)
                       r"within(?!\s+(?:[a-z]+\s+){0,2}\(?[-+−]?[\d.,]+%?\)?\s+(?:[a-z]+\s+)?of\s+(?:the\s+)?(?:best|top|optimum|maximum|"
                       r"minimum|highest|lowest|leader|winner)\b)|"
                       r"(?<!\bthe )(?<!\bits )(?<!\btheir )(?<!\bour )quoted|claimed|showed)\b|≈|~|\bvs\.?", re.I)
#: the point at which a result is to be read off, after a verb that asks for the result ("write down D_ℓ^TT at
#: ℓ = 1000", "quote the survival at t = 5"): where to look, not a setting of the run
_READOUT = re.compile(r"\b(?:write\s+down|report|quote|give|tell\s+me|print|read\s+off|note\s+down|state)\b[^.;:]{0,60}?"
                      r"\bat\s+(?:(?:ℓ|ell|l|z|k|t|x|lag|time|redshift|multipole)\s*=?\s*)?$", re.I)
#: a sentence that describes the data rather than asks for something ("the table has 1,200 rows")
_DESCRIBES = re.compile(r"^\W*(?:and\s+|while\s+|but\s+)?(?:`[^`]+`|[\w/.-]+\.[a-z]{2,5})\s*(?::(?!\s*(?:please\s+)?(?:train|fit|run|use|estimate|"
                        r"compute|find|predict|compare|weight|rake|sample|score|test|check)\b)|is\b|are\b|holds\b)|"
                        r"^\W*(?:attached|enclosed)\s+(?:is|are)\b|"  # "Attached is a catalogue ... for 900 galaxies"
                        # "..., and data/edits.jsonl is a stream of twelve changes over three timesteps"
                        r"(?:`[^`]+`|(?<![\w/.-])[\w/.-]+\.(?:csv|tsv|txt|dat|npz|npy|json|jsonl|fits|gz))`?\s+(?:is|are)\s+"
                        r"(?:a|an|our|the)\b|"
                        # "the attached CSV is our combined sample: 160 supernovae with ..."
                        r"^\W*(?:the|our|my)\s+(?:attached|enclosed)\s+(?:[\w-]+\s+){1,2}?(?:is|are)\b|"
                        # what happened before: "Last time the run took 20 minutes", "in 2 of 3 earlier attempts"
                        r"\b(?:took|lasted)\b|\b(?:earlier|previous|prior|past)\s+(?:attempts?|runs?|tries|trials)\b|"
                        # "I ran the same fit twice with different seeds": what was done before, not a setting
                        r"^\W*(?:I|we|they)\s+(?:already\s+)?(?:ran|fitted|trained)\b|"
                        # "The file is data/dams.csv: one row per catchment, 320 of them"
                        r"^\W*(?:the|our|my)\s+(?:data\s+)?(?:file|table|extract|export|spreadsheet|sheet)\s+(?:is|are)\b|"
                        r"^\W*(?:(?:so|ok(?:ay)?|right|well),?\s+)?(?:here|below|above)\s*(?:is|are|'s)\b|"  # "Here are 60 ..."
                        r"\b(?:is|are)\s+(?:stored\s+|given\s+|listed\s+|kept\s+)?in\s+(?:the\s+file\s+)?"
                        r"(?:`|[\w/.-]+\.(?:csv|tsv|txt|dat|npz|npy|json|fits)\b)|"
                        r"\b(?:says|(?<!should )(?<!must )(?<!would )(?<!will )(?<!to )(?<!shall )ha(?:s|ve|d)(?!\s+to\b)|contains?|holds?|consists? of|comprises?|includes?|"
                        r"there (?:are|is|were)|"
                        # "the file lists 300 rows", not "list the 25 most suspicious hours" (a request)
                        r"recorded|collected|observed|spans?|spanning|covers?|covering|lists|listing|gives|"
                        # "half of the respondents got form A": who received what, in the data
                        r"(?<!\bhave )(?<!\bhas )(?<!\bhad )got|received|(?:saw|were\s+shown|was\s+shown)\s+(?:a|an|the|one)\b|"
                        # "collapsed = 1 marks the hive-weeks before a collapse, which is about one in twenty"
                        r"marks|which\s+(?:is|are|was|were)\s+(?:about|roughly|around|approximately|nearly|some)|"
                        # "columns" of a table, not a tubal factor's ("a factor with 20 tubal columns")
                        r"(?<!tubal )columns?|rows|entries|records|each row|per row|measured at)\b", re.I)
_LEVEL = re.compile(r"^\s*(?:per ?cent\s+|%\s*)?(?:confidence|credible|CL|C\.L\.|interval|level|band|region|"
                    r"contours?|limits?|upper|lower|quantiles?|percentile|ranges?)", re.I)
_MONTH = re.compile(r"\s*(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?(?:\s|$|,)|"
                    r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+$")
#: a definite count of what the data hold ("the 40 deep-field supernovae", "all 24 bins", "each of the 12 sites");
#: "the first 30%" is a setting (a burn-in, a cut), not a count
#: "the 20 most isolated rows", "the 5 best models": a selection the run makes, not a count of what the data hold
_SELECTS = re.compile(r"\s+(?:most|least|best|worst|top|highest|lowest|largest|smallest)\b|"
                      # "the 10 bins with the largest pulls", "the 5 sites that show the strongest effect"
                      r"\s+(?:[\w-]+\s+){1,2}?(?:with|having|that\s+(?:have|has|show|shows))\s+the\s+"
                      r"(?:most|least|best|worst|highest|lowest|largest|smallest|biggest|strongest|weakest)\b", re.I)
#: a sentence's first word that asks for something: "Evaluate 150 of the held-out grains" takes a number of them
_REQUEST_VERB = re.compile(r"(?:Evaluate|Score|Test|Use|Take|Keep|Sample|Draw|Pick|Select|Check|Hold|Label|Reveal|"
                           r"Simulate|Generate|Train|Fit|Run|Analy[sz]e|Compare|Measure|Probe|Attack|Perturb)", re.I)
_COUNTED = re.compile(r"\b(?:the|these|those|our|all|its|their|his|her)\s+$", re.I)
#: "45 storm petrels in `petrels.csv`", "240 image patches (`patches.csv`": what a named file holds
_IN_FILE = re.compile(r"\s*(?:(?!(?:in|from|of|to|below|above|than)\b)[A-Za-z][\w-]*\s+){1,4}"
                      r"(?:(?:in|from|of)\s+|\(\s*)"
                      r"(?:`[^`]+`|[\w/.-]+\.(?:csv|tsv|txt|dat|npz|json))")
_SIGMA = re.compile(r"^\s*(?:-\s*)?(?:σ|sigma)\b", re.I)


#: a word that names the item a number labels ("line 3", "Referee 2", "point 3 of the review", "wave 3", "run 14")
_LABEL = re.compile(r"\b(?:line|point|item|comment|referee|reviewer|wave|run|round|phase|station|block|zone|sector|"
                    r"ward|room|building|camp|cohort|batch|lot|well|field|plot|site|case|patient|sample|week|day|month|session|"
                    r"lecture|chapter|module|lab|exercise|problem|unit|part|route|aim|objective|ticket|issue|flight|drive|ablation|"
                    r"draft|revision|stage|leg|sprint|milestone|tranche|shift|trial|team|slide|sheet|cell|question|"
                    r"notebook|panel|squad|group|bay|gate|hangar|platform|assignment|season|homework|tutorial|practical|"
                    r"clinic|chamber|incubator|greenhouse|tank|pen|bench|rig|kiln|reactor|vessel|rack|shelf|pond|paddock|"
                    r"barn|hive|lane)\s*#?\s*$",
                    re.I)
#: a sentence that says its numbers are no input ("that is context, not an input", "those are not part of this")
_NOT_INPUT = re.compile(r"^\W*(?:context|background)\s*:|"  # "Context: 300 street segments, some converted ..."
                        r"\bnot\s+(?:an?\s+)?(?:input|setting|parameter)s?\b|\bnot\s+part\s+of\s+(?:this|the\s+"
                        r"(?:task|run|analysis|fit|data))\b|\b(?:is|as|for|just)\s+context\b|"
                        # "the blinding offset (0.0137 in S8) is still applied; don't try to remove it"
                        r"\b(?:don't|do\s+not)\s+(?:try\s+to\s+)?(?:remove|undo|correct|change|touch)\s+(?:it|this|that|them)\b|"
                        r"\bleave\s+(?:it|them)\s+(?:alone|as\s+(?:it\s+is|they\s+are))\b", re.I)
#: a setting's word: an aside that has one is no mere description ("(seed 4)", "(5 folds)", "(σ = 0.1)")
_SETTING_WORD = re.compile(r"\b(?:seeds?|folds?|steps?|walkers|draws|iterations|epochs|prior|threshold|cut|"
                           r"tolerance|level)\b|[=<>≤≥]|"
                           # a bound is a setting: "(its validation AUC no more than 0.01 short of the top one)"
                           r"\b(?:no|not)\s+more\s+than\b|\bat\s+(?:most|least)\b|\bshort\s+of\b", re.I)


#: Greek letters by the names an argument is called ("β" for ``beta``)
_GREEK_NAMES = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "η": "eta", "θ": "theta",
                "λ": "lambda", "μ": "mu", "ν": "nu", "ρ": "rho", "σ": "sigma", "τ": "tau", "ω": "omega"}


def _sets_argument(before: str, named: set[str]) -> bool:
    """Whether the text right before a number is an argument's symbol and an equals sign ("β = 1" where the
    method has ``beta``): a setting, though 0 and 1 after "=" are otherwise a formula's constants."""
    symbol = re.search(r"(?<![\w])([^\W\d_]+)\s*=\s*$", before)
    if symbol is None:
        return False
    word = symbol.group(1)
    return _GREEK_NAMES.get(word, word).lower() in named


def _aside(sentence: str, at: int) -> bool:
    """Whether position ``at`` lies inside brackets that describe the data ("(350 colonies over three apiaries)",
    "(the 150 SNe Ia that survived our cuts, of 231 followed)"): a count beside a noun, no setting's word."""
    opened = sentence.rfind("(", 0, at)
    if opened < 0 or sentence.rfind(")", 0, at) > opened:
        return False
    closed = sentence.find(")", at)
    inside = sentence[opened + 1:closed if closed >= 0 else len(sentence)]
    return not _SETTING_WORD.search(inside) and not _COUNT_NOUNS.search(inside) and bool(
        re.search(r"(?<![\d.])\d[\d,]*\s+(?:[A-Za-z][\w-]*\s+){0,2}?[A-Za-z]{3,}", inside))


#: a request's verb: a sentence that asks for something before it describes ("generate 2,500 adapters whose B has
#: 16 rows") states settings, whatever it also describes
_REQUEST = re.compile(r"(?:^\W*|[:;]\s+|\b(?:please|then|and|so|to|could\s+you|can\s+you)\s+)(?:generate|draw|fit|"
                      r"run|use|compute|estimate|train|simulate|sample|predict|make|set|take|apply|repeat|build|"
                      r"create|plant|spread|log|collect|roll\s+out|push|have|let|keep|hold|cap|limit|stop|halt|reveal|"
                      r"sweep|save|write|vary|try)\b", re.I)


#: where a sentence's clauses part: "...; use ...", "...: a 12 × 12 ...", "..., so reveal ...", "..., then fit ...",
#: a clause with a subject of its own (", and we start from scales of ..." after "U has 20 tubal columns"),
#: and a spaced dash that opens an aside ("trimmed at 0.05 and 0.95 — a few batches were all but certain"), not one
#: between numbers (a range)
_CLAUSE_BREAK = re.compile(r"[;:]\s+|,\s+and\s+(?=(?:we|I|you|then|please|let)\b)|(?:(?<![\d%])\s+[—–]\s+|\s+[—–]\s+(?![-−]?\d))|,\s+(?:so|then|and\s+then|but)\s+|\s+so\s+(?=[a-z])")


def _described(sentence: str) -> list[tuple[int, int]]:
    """The spans of the sentence's clauses that describe the data rather than ask for something ("the attached
    table has 150 ponds"): a description's words in a clause that opens with no request's verb.  A question
    asks ("how do the two compare when the labeler ... has rationality 4?"), it describes nothing."""
    if sentence.rstrip().endswith("?"):
        return []
    breaks = list(_CLAUSE_BREAK.finditer(sentence))
    bounds = [0, *[m.end() for m in breaks], len(sentence)]
    spans: list[tuple[int, int]] = []
    for n, (start, end) in enumerate(pairwise(bounds)):
        clause = sentence[start:end]
        described = _DESCRIBES.search(clause)
        request = _REQUEST.search(clause)
        # what follows a colon lists what the clause before it describes ("`x.csv`: 150 seedlings, ...",
        # "Attached is a catalogue: concentration, ..., for 900 galaxies"), and so does a dash ("the export is in
        # `milk.csv` — 520 cows across three farms")
        listed = n > 0 and breaks[n - 1].group(0).strip()[:1] in {":", "—", "–"} and (
            (spans and spans[-1][1] == start) or re.fullmatch(r"\W*(?:`[^`]+`|[\w/.-]+\.[a-z]{2,5})\W*",
                                                              sentence[bounds[n - 1]:start]))
        if (described is not None and (request is None or request.start() > described.start())) or \
                (listed and (request is None or request.start() > 0)):
            spans.append((start, end))
    return spans


#: where a sentence's clauses part for what they report: the breaks of :data:`_CLAUSE_BREAK` (a dash's aside that
#: reports, "— a few batches were all but certain to be vaccinated", leaves the setting before it stated), ", and", and a
#: purpose clause ("so I can quote ...", "so that we ...")
_REPORT_BREAK = re.compile(r"[;:]\s+|(?:(?<![\d%])\s+[—–]\s+|\s+[—–]\s+(?![-−]?\d))|,\s+(?:and|so|then|and\s+then|but|while|whereas)\s+|"
                           r"\s+so\s+(?:that\s+)?(?=(?:I|we|you|they|it|the)\b)|"
                           # the main clause after a subordinate one: "since the distance then has to be found by line
                           # searches, use 48 random directions"
                           r",\s+(?=(?:use|run|fit|take|keep|evaluate|set|draw|train|sample|repeat|cap|limit|stop|"
                           r"generate|compute|estimate|apply|give|let|make|try)\b)")


_PURPOSE = re.compile(r"\s+so\s+(?:that\s+)?(?=(?:I|we|you|they|it|the)\b)")


def _reported(sentence: str) -> list[tuple[int, int]]:
    """The spans of the sentence's clauses that give a result or a reference value (:data:`_REPORTED`)."""
    bounds = [0, *[m.end() for m in _REPORT_BREAK.finditer(sentence)], len(sentence)]
    # a purpose clause ends at its comma: "so the exact score can be checked, 600 optimisation steps, seed 2"
    for match in _PURPOSE.finditer(sentence):
        comma = sentence.find(", ", match.end())
        if comma >= 0:
            bounds.append(comma + 2)
    bounds = sorted(set(bounds))
    return [(start, end) for start, end in pairwise(bounds) if _REPORTED.search(sentence[start:end])]


@dataclass(frozen=True)
class StatedNumber:
    """A number the text states, as written, with the value(s) it may mean and its sentence."""

    raw: str
    values: tuple[float, ...]
    sentence: str
    start: int = 0  # where it stands in ``sentence``


def _number_value(raw: str) -> float | None:
    """A number written in digits or in words ("2", "two", "twenty-five")."""
    raw = raw.strip()
    if raw[:1].isdigit():
        return float(raw)
    return word_value(raw)


_DIGIT_WORDS = {"zero": "0", "nought": "0", "naught": "0", "oh": "0", **{w: str(v) for w, v in _ONES.items() if v < 10}}
_DIGIT_WORD = "|".join(_DIGIT_WORDS)
_SPELLED_DECIMAL = re.compile(rf"\b({_DIGIT_WORD})\s+point((?:[\s-]+(?:{_DIGIT_WORD})\b)+)", re.I)


def spelled_decimals(text: str) -> str:
    """``text`` with decimals spelled digit by digit written in figures: "a scalar spectral index of nought point nine
    five" reads "... of 0.95" (a number in words is still a number the task states)."""
    def figures(match: re.Match[str]) -> str:
        digits = "".join(_DIGIT_WORDS[w.lower()] for w in re.split(r"[\s-]+", match.group(2).strip()))
        return f"{_DIGIT_WORDS[match.group(1).lower()]}.{digits}"

    return _SPELLED_DECIMAL.sub(figures, text)


def word_value(words: str) -> float | None:
    """The value of a number written in words ("four thousand", "twenty-five"); None when it is not one."""
    total, current, seen = 0, 0, False
    tokens = re.split(r"[\s-]+", words.lower())
    for n, token in enumerate(tokens):
        if token in {"and", ""}:
            continue
        if token == "a":  # "a hundred" is 100; the article of "a three-dimensional box" adds nothing
            current = (current or 1) if n + 1 < len(tokens) and tokens[n + 1] in _SCALES else current
            continue
        if token in _ONES:
            current += _ONES[token]
        elif token in _TENS:
            current += _TENS[token]
        elif token in _SCALES:
            current = (current or 1) * _SCALES[token]
            if _SCALES[token] >= 1000:
                total, current = total + current, 0
        else:
            return None
        seen = True
    return float(total + current) if seen else None


def _meanings(raw: str) -> tuple[float, ...]:
    text = raw.replace("−", "-").replace(",", "")
    scale = {"k": 1000.0, "K": 1000.0, "M": 1e6}.get(text[-1:], 1.0)  # "4K tokens"
    try:
        value = float(text.rstrip("%kKM")) * scale
    except ValueError:
        return ()
    if scale == 1000.0:
        return (value, value * 1.024)  # "1K" tokens may be 1000 or 1024
    values = (value / 100.0, value) if text.endswith("%") else (value,)
    return values + ((-value,) if value < 0 else ())  # "120-1920" may be a range, not a negative number


#: what a run counts ("2000 steps", "three seeds"): a number before one of these is a setting, never a year
_COUNT_WORDS = (r"seeds?|folds?|walkers|chains|repeats|repetitions|runs|restarts|replicates|resamples|bootstraps?|"
                r"layers|heads|epochs|trials|components|clusters|neighbou?rs|splits|samples|draws|times|steps|"
                r"iterations|evaluations|queries|points|trees|estimators|units|tokens|particles|realisations|"
                r"realizations|simulations|permutations|batches|rounds|episodes|updates|passes")
_COUNT_NOUNS = re.compile(rf"[\s-]+(?:[\w-]+\s+)?(?:{_COUNT_WORDS})\b", re.I)


def _year(value: float, raw: str, before: str, after: str) -> bool:
    """"Planck 2018 TT", "in 2021.", "2019 and 2020" are years; "2000 steps" is a count, and so is the end of
    "120 to 1920"."""
    if not (value.is_integer() and 1900 <= value <= 2100 and raw.isdigit()):
        return False
    if _COUNT_NOUNS.match(after):
        return False  # a count of something: "2000 steps"; "1978 earnings" is a year
    if re.search(r"\b(?:generate|draw|simulate|sample|make|create|build|collect|log|record|keep|use)\s+$", before, re.I):
        return False  # what a request makes: "generate 2000 products of operands up to 30"
    if re.search(r"(?:ℓ|\bell|\bl_?max|\bmultipoles?|[=<>≤≥])\s*(?:=|of|to)?\s*$", before, re.I):
        return False  # a multipole or a value: "ℓ of 2000", "lmax = 2000"
    previous = re.search(r"(\d[\d,.]*)[kKM%]?\s*(?:to|and|or|–|-|,|up to|through)\s*$", before)
    return previous is None or re.fullmatch(r"(?:19|20)\d\d", previous.group(1)) is not None


#: a number and a half in words ("a prior standard deviation of one and a half", "two and a half times")
_AND_A_HALF = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine|ten)\s+and\s+a\s+half\b", re.I)
_DIGITS_SCALED = re.compile(r"(?<![\d.,])(\d+(?:\.\d+)?)\s+(thousand|million|billion)\b", re.I)


_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
#: a power of ten as typed or typeset: "10⁻⁵", "2 × 10⁻³", "10^-4", "10^{-4}", "3x10^5"
_POWER = re.compile(r"(?<![\w.])(?:(\d+(?:\.\d+)?)\s*[×x·*]\s*)?10\s*(?:\^\s*\{?\s*([-−+]?\d{1,3})\s*\}?|"
                    r"([⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3}))(?!\w|\.\d)")


def _power(match: re.Match[str]) -> str:
    if re.search(r"\b(?:ln|log|log10|exp)\s*\(\s*$", match.string[:match.start()]):
        return match.group(0)  # a factor of a parameter's name: "ln(10¹⁰ A_s) = 3.05"
    exponent = int((match.group(2) or match.group(3).translate(_SUPERSCRIPT)).replace("−", "-"))
    value = float(match.group(1) or 1) * 10.0 ** exponent
    return str(int(value)) if value.is_integer() and exponent >= 0 else f"{value:g}"


def scaled_digits(text: str) -> str:
    """``text`` with a number in digits and a scale word written as one number ("20 thousand sample points" as
    "20000 sample points", "1.5 million steps" as "1500000 steps") and a power of ten in digits ("10⁻⁵" as
    "1e-05", "2 × 10^-3" as "0.002") and a percentage as "N%" ("90 per cent"): what the reader and the number check both read, so neither takes the 20,
    the 10 or the 5 alone."""
    def whole(match: re.Match[str]) -> str:
        value = float(match.group(1)) * {"thousand": 1e3, "million": 1e6, "billion": 1e9}[match.group(2).lower()]
        return str(int(value)) if value == int(value) else match.group(0)
    text = re.sub(r"(?<=\d)\s*per\s?cent\b", "%", text, flags=re.I)  # "90 per cent", "2 percent": one spelling
    text = joined_thousands(text)  # "15 000 steps": one number
    text = _AND_A_HALF.sub(lambda m: f"{int(_ONES[m.group(1).lower()])}.5", text)  # "one and a half": 1.5
    text = re.sub(rf"\b({WORD_NUMBER})\s+per\s?cent\b",  # "forty percent" too
                  lambda m: f"{int(v)}%" if (v := word_value(m.group(1))) is not None and v == int(v) else m.group(0),
                  text, flags=re.I)
    # "thirty thousand accepted samples", "ℓ of two thousand": a number in words with a scale word, in digits
    text = _WORDS.sub(_scaled_word, text)
    return _DIGITS_SCALED.sub(whole, _POWER.sub(_power, text))


def _scaled_word(match: re.Match[str]) -> str:
    """Words of a number with a scale ("thirty thousand", "a hundred and fifty") as digits; a bare scale word
    ("how many thousand"), a small number ("three") or one followed by "of" ("two hundred of them" stays) as written."""
    words = match.group(0)
    tokens = re.split(r"[\s-]+", words.lower())
    first_scale = next((n for n, t in enumerate(tokens) if t in _SCALES), None)
    if first_scale is None or first_scale == 0 or re.match(r"[\s-]+of\b", match.string[match.end():]):
        return words
    value = word_value(words)
    return str(int(value)) if value is not None and value == int(value) else words


def stated_numbers(text: str, files: Iterable[str] = (), nouns: Iterable[str] = ()) -> list[StatedNumber]:
    """The numbers of ``text`` that may set something (see the module docstring for what is left out);
    ``nouns`` are the words of the method's argument names ("needles" of ``n_needles``): a small number
    written in words counts something only before one of them or a word of what a run repeats."""
    named = {n.lower() for n in nouns}
    # a method with an interval's level among its arguments (``confidence``) takes "at 99%" as a setting
    levels_set = bool(named & {"confidence", "level", "credibility"})
    counted = "|".join(re.escape(n[:-1] if n.endswith("s") and len(n) > 3 else n) for n in nouns if len(n) > 2)
    if "dim" in named:  # a dimension's argument (``dim``, ``input_dim``): "three-dimensional", "in four dimensions"
        counted = counted.replace("dim", r"dim(?:ension(?:al)?)?")
    counted_nouns = re.compile(rf"[\s-]+(?:[\w-]+\s+)?(?:(?:{_COUNT_WORDS})\b"
                               + (rf"|(?:{counted})(?:e?s)?\b)" if counted else ")"), re.I)
    counted_after = re.compile(rf"\b(?:(?:{_COUNT_WORDS})" + (rf"|(?:{counted})(?:e?s)?" if counted else "")
                               + r")\s*[,(]\s*$", re.I)
    text = scaled_digits(re.sub(r"```.*?```", " ", text, flags=re.S))
    out: list[StatedNumber] = []
    names = sorted({n for f in files for n in (f, f.rsplit("/", 1)[-1])}, key=len, reverse=True)
    text = re.sub(r"(?m)^\s*#.*$", " ", text)  # a heading names the task ("# IHDP replication 3")
    text = re.sub(r"(?m)^\s*\d+(?:\.\d+)+\.?\s+[A-Z][^\n.!?]{0,80}$", " ", text)  # a numbered section: "4.2 Constant w"
    for sentence in _sentences(text):
        flat = " ".join(sentence.split())
        if _CITED_SUBJECT.match(flat) or _NOT_INPUT.search(flat):
            continue
        # a clause that gives a result or a reference value sets nothing; the sentence's other clauses may ("go out to
        # ℓ = 3000, and get CLASS to redo it so I can quote how closely the two agree")
        described = [*_described(flat), *_reported(flat)]
        clean = flat
        for name in names:
            clean = clean.replace(name, " " * len(name))
        clean = _NAMES.sub(lambda m: " " * len(m.group(0)), clean)
        # "widths of 60, 240 and 960 (each four times the last)": how a list steps, not a setting
        clean = re.sub(r"\b(?:each|every\s+one)\s+(?:\w+|\d+(?:\.\d+)?)\s+times\s+(?:the\s+)?(?:last|previous|one\s+before(?:\s+it)?|"
                       r"preceding(?:\s+one)?)\b", lambda m: " " * len(m.group(0)), clean, flags=re.I)
        for match in _PART_OF.finditer(clean):  # "the first 1,200 of its 3,000 samples": a share, or the count
            part, whole = (float(g.replace(",", "")) for g in match.groups())
            if 0 < part <= whole and not any(a <= match.start() < b for a, b in described):
                out.append(StatedNumber(match.group(0), (part / whole, part), flat, match.start()))
                clean = clean[:match.start()] + " " * (match.end() - match.start()) + clean[match.end():]
        for match in [*_FOR_EVERY.finditer(clean), *_AS_MANY.finditer(clean)]:  # a ratio: N/M, not the N or M
            if match.re is _FOR_EVERY:
                n, m = (_number_value(g) for g in match.groups())
                value = n / m if n is not None and m and m >= 2 else None
            else:
                word = match.group(1).lower()
                value = 0.5 if word == "half" else 2.0 if word == "twice" else _number_value(word.rsplit(None, 1)[0])
            if value is not None and not any(a <= match.start() < b for a, b in described):
                out.append(StatedNumber(match.group(0), (value,), flat, match.start()))
                clean = clean[:match.start()] + " " * (match.end() - match.start()) + clean[match.end():]
        for match in _MIXED.finditer(clean):  # "three and three tenths effective species": 3.3
            ones, parts, unit = (match.group(i).lower() for i in (1, 2, 3))
            denominator = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
                           "tenth": 10, "tenths": 10, "hundredth": 100, "hundredths": 100}[unit]
            mixed = _ONES[ones] + (1 if parts in {"a", "one"} else _ONES[parts]) / denominator
            if not any(a <= match.start() < b for a, b in described):
                out.append(StatedNumber(match.group(0), (round(mixed, 6),), flat, match.start()))
                clean = clean[:match.start()] + " " * (match.end() - match.start()) + clean[match.end():]
        for match in _TIMES.finditer(clean):
            if not any(a <= match.start() < b for a, b in described):
                out.append(StatedNumber(match.group(0), (2.0 if match.group(1).lower() == "twice" else 3.0,), flat,
                                        match.start()))
        for match in _ODDS.finditer(clean):  # "one answer in ten", "1 in 20": a rate of 1/N, not the N
            n = word_value(match.group(1)) if not match.group(1)[0].isdigit() else float(match.group(1))
            if n is not None and n >= 2 and not any(a <= match.start() < b for a, b in described):
                out.append(StatedNumber(match.group(0), (1.0 / n,), flat, match.start()))
                clean = clean[:match.start()] + " " * (match.end() - match.start()) + clean[match.end():]
        for match in _DIGITS.finditer(clean):
            raw = match.group(0)
            values = _meanings(raw)
            before, after = clean[:match.start()], clean[match.end():]
            if not values or _REFERENCE.search(before[-14:]) or _year(values[0], raw, before[-16:], after[:40]):
                continue
            if re.fullmatch(r"\d+\.\d+", raw) and re.search(r"\b(?:written|given|numbered|indexed|denoted|labell?ed)\s+as\s+"
                                                           r"[a-z]+\.[a-z]+\b", flat, re.I):
                continue  # "two heads, written as layer.head: 0.2 and 2.1": pairs in the text's notation, read as such
            if re.search(r"\b(?:not\s+the\s+(?:usual|default|standard)|other\s+than|instead\s+of(?:\s+the\s+(?:usual|default))?|"
                         r"rather\s+than(?:\s+the\s+(?:usual|default))?)\s*(?:the\s+)?$", before, re.I):
                continue  # the value set aside: "a 99% interval, not the usual 95", "a ratio other than −1"
            if re.search(r"\b(?:run|part|round|wave|week|session|lecture|phase|chapter|step)\s+\d+\s+of\s*$", before, re.I):
                continue  # "run 1 of 3": the count of a series the task belongs to
            if re.search(r"^\W*if\b", flat, re.I) and re.search(r"\b(?:say|tell|report|flag|warn|mention|let\s+me\s+know)\b",
                                                                 flat[match.end():], re.I):
                continue  # a condition for what to report: "If R−1 is above 0.05, say which chain looks off"
            if re.search(r"\b(?:differ|deviate|depart|move\s+away)\w*\s+from\s*$", before) and values[0] in (-1.0, 0.0, 1.0):
                continue  # the value a free parameter is compared with: "w allowed to differ from −1"
            if re.search(r"(?:#|\bNo\.)\s*$", before):
                continue  # a ticket's or an item's number: "Ticket #4471", "No. 12"
            if _LABEL.search(before[-16:]) and not _COUNT_NOUNS.match(after) and not re.match(r"\s*[%×x]", after):
                continue  # a name: "line 3", "Referee 2", "point 3", "wave 3", "run 14" (not "run 500 steps")
            if re.match(r"\s*(?:times|[×x])\s+(?:the|its|their|our)\s+", after) and \
                    re.search(r"\([^()]*$", flat[:match.start()]):
                continue  # "widths 60 to 2880 (from one to 48 times the training-set size)": a gloss in multiples
            if _aside(flat, match.start()):
                continue  # "(350 colonies over three apiaries)": an aside on the data, with no setting's word
            if (re.search(r"\S\s+[A-Z][A-Za-z]+\s+$", before) or (re.fullmatch(r"\W*[A-Z][a-z]+\s+", before)
                    and re.match(r"\s+of\b", after) and not _REQUEST_VERB.fullmatch(before.strip(" \t*-")))) \
                    and not raw.startswith(("-", "+", "−")):
                continue  # part of a name: "Planck 2018", "Run 2"; "Wave 3 of ..." opening a sentence, not "Evaluate 150 of"
            if (raw.endswith("%") and not levels_set and _LEVEL.match(
                    re.sub(r"^(?:\s*(?:/|,|and|or)\s*\d+(?:\.\d+)?%)+", "", after))) \
                    or _SIGMA.match(after) or (values[0] in (68.0, 90.0, 95.0, 99.0) and not levels_set and re.match(
                        r"\s*(?:/|,|and|or)\s*(?:68|90|95|99|99\.7)(?:\.\d+)?\s*(?:%|per\s?cent)\s*(?:confidence|credible|CL\b|"
                        r"interval|level|band|region|contours?|limits?|ranges?|quantiles?)", after, re.I)):
                continue  # an interval's level or a significance: how to report, not a setting ("68 and 95% ranges":
                # the first level shares the second one's sign)
            if re.match(r"\s*[:.]\d", after) or re.search(r"\d[:/]$", before) or _MONTH.match(after) or \
                    _MONTH.search(before[-12:]):
                continue  # a time, a ratio written "3:1" or a date
            if re.search(r"[\w/.-]+\.[A-Za-z][A-Za-z0-9]{0,5}`?,\s*$", flat[:match.start()]) and \
                    re.match(r"\s+[A-Za-z]+\b", after):
                continue  # "an lcparam file, data/x.txt, 60 objects": an aside on what the file holds
            asked_for = re.search(r"\b(?:give|list|show|send|name|return|print|pick|flag|mark|rank)\s+(?:me\s+|us\s+|them\s+)?"
                                  r"(?:the|these|those)\s+$", before, re.I)  # "give me the 25 crossings it ranks ..."
            if (_COUNTED.search(before[-24:]) and not _SELECTS.match(after) and not asked_for) or \
                    _IN_FILE.match(flat[match.end():]):
                continue  # "the 450 supernovae", "all 24 bins", "45 petrels in `petrels.csv`": what the data hold
            # (a percentage is a level, not a point to read at, for a method that takes one: "report it at 99 per cent")
            percent = raw.endswith("%") or re.match(r"\s*per\s?cent\b", after, re.I) is not None
            if _READOUT.search(before) and not (levels_set and percent):
                continue  # where a result is read off: "write down D_ℓ^TT at ℓ = 1000", "report S(t) at t = 5"
            if (re.match(r"\s*(?:±|\+/-|\+-)\s*\d", after) or re.search(r"\d\s*(?:±|\+/-|\+-)\s*$", before)) \
                    and not re.search(r"\bpriors?\b|\bGaussian\b", flat, re.I):
                continue  # a measurement with its error ("w = −0.86 ± 0.21 there"): a result; a prior's is read above
            if re.match(r"\s*[×x]\s*\d+\s+(?:[\w-]+\s+){0,2}?covariance", after) or (re.search(
                    r"\d+\s*[×x]\s*$", before) and re.match(r"\s+(?:[\w-]+\s+){0,2}?covariance", after)):
                continue  # the size of a covariance ("its full 60 × 60 covariance"): what the data hold
            if re.match(r"-(?:off|year|old|day|week|month|hour|cm|mm|km|nm|GHz|MHz|kHz|Hz)\b|\([a-z]\)", after):
                continue  # "a 10%-off coupon", "a 5-year follow-up", "401(k)": part of a name
            if not before.strip() and re.match(r"[.)]", after):
                continue  # a list's marker: "1." or "2)"
            if not before.strip() and re.match(r"\s+[a-z]+s\s+(?:of|on|from|in|at|with)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s*[,;:(]",
                                               after):
                continue  # "40 trays of cuttings, rooted (1) or not (0)": a sentence that opens by describing the rows
            if re.search(r"\(\s*$", before) and re.match(r"\s*\)", after) and values[0] in range(1, 10) and (
                    re.search(r"\(\s*(?:1|a|i)\s*\)", flat) or re.search(rf"\(\s*{int(values[0]) + 1}\s*\)", flat)):
                continue  # an enumeration's marker inside a sentence: "(1) our responses, (2) the census shares"
            if values[0] in (0.0, 1.0) and re.search(r"\b(?:between|from)\s+0(?:\.0)?\s+(?:and|to)\s+1\b", flat):
                continue  # the range of a share or a probability: "a fraction between 0 and 1"
            if abs(values[-1]) in (0.0, 1.0) and (re.search(r"[=(−+×*/^<>≤≥–-]\s*$", before)
                                            or re.match(r"\s*[−+×*/^)–-]", after)) and not _sets_argument(before, named):
                continue  # a constant of a formula: "(1 − a)", "Ω_k = 0", "N(0, 3²)"; not "β = 1" for ``beta``
            if re.search(r"`[^`]+`\s*(?:is|are|=|==|equals)\s*$|\bcoded\s*(?:as\s*)?$", flat[:match.start()]) or (
                    values[0] in (0.0, 1.0) and re.search(r"\b[A-Za-z_]\w*\s*(?:is|=|==|equals)\s*$", flat[:match.start()])
                    and re.match(r"\s+(?:for|where|when|if|marks?|means?|on|in|at)\b", after)):
                continue  # how a column codes its values: "`tutored` is 1 for them", "statin is 1 for patients ..."
            if values[0] in (0.0, 1.0) and re.search(r"\b(?:is|=|==|equals)\s*[01]\s+(?:for|where|when|if|on|in|marks?|means?)\b"
                                                     r"[^.;]{0,80}\b(?:and|or|,)\s*$", flat[:match.start()]) \
                    and re.match(r"\s+(?:for|where|when|if|on|in|otherwise|else)\b", after):
                continue  # "... is 1 for shards of one layer and 0 for the other": the coding's other value
            if not any(a <= match.start() < b for a, b in described):
                out.append(StatedNumber(raw, values, flat, match.start()))
        for match in _WORDS.finditer(clean):
            words = match.group(0)
            if words.lower() in {"a", "an", "one", *_SCALES} or not re.search(rf"\b(?:{_WORD})\b", words, re.I):
                continue  # a lone "thousand" is a unit ("how many thousand of sales"), not a number
            value = word_value(words)
            if value is None:
                continue
            after = clean[match.end():]
            if _IN_FILE.match(flat[match.end():]):
                continue  # "Sixty firings in kiln.csv": what the data hold, as for a number in figures
            if _COUNTED.search(clean[:match.start()][-24:]) and not _SELECTS.match(after):
                continue  # "between the two waves": what the data hold (not "the twelve most suspicious hours")
            small = value < 20 and not re.search(r"\b(?:hundred|thousand|million)\b", words, re.I)
            # a small number word counts things ("two methods", "one-hidden-layer"); it is a setting only as a
            # count of what a run repeats ("three seeds", "five folds")
            chosen = re.match(r"\s+of\s+(?:the|its|their|our|these|those)\b", after, re.I) and re.search(
                r"\b(?:only|just|exactly|keep|reveal|label|use|take|pick|select|hold\s+(?:back|out))\s+$",
                clean[:match.start()], re.I)  # "with only eight of the training hot boxes revealed": a count taken
            # "hand me the twelve most suspicious hours": a selection the run makes
            chosen = chosen or (re.search(r"\bthe\s+$", clean[:match.start()], re.I) and _SELECTS.match(after))
            if small and not chosen and not counted_nouns.match(after) and not (
                    re.match(r"\s+(?:of\s+them|in\s+all|in\s+total|altogether)\b", after, re.I)
                    and counted_after.search(clean[:match.start()][-40:])):
                continue  # "the built-in needles, six of them": the count of a noun said just before it
            if not any(a <= match.start() < b for a, b in described):
                # "Eighty-percent intervals": the share as well as the number
                share = (value / 100.0,) if re.match(r"[\s-]*(?:%|per[\s-]?cent\b)", after, re.I) else ()
                out.append(StatedNumber(words, (value, *share), flat, match.start()))
        for match in _FRACTION.finditer(clean):
            word = (match.group(1) or match.group(2) or match.group(3) or "half").lower()
            if not any(a <= match.start() < b for a, b in described):
                out.append(StatedNumber(match.group(0), (_FRACTIONS[word],), flat, match.start()))
    return out


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


_STOP = {"a", "an", "the", "of", "with", "and", "or", "to", "in", "on", "at", "by", "for", "from", "is", "are", "each",
         "per", "its", "their", "our", "we", "it", "as", "be"}


def _neighbours(sentence: str, start: int, raw: str) -> set[str]:
    """The words right around a number in its clause (two on each side, stop words left out), lower-cased."""
    left = re.findall(r"[^\W\d_]+", re.split(r"[;:,()]", sentence[max(0, start - 30):start])[-1])[-2:]
    right = re.findall(r"[^\W\d_]+", re.split(r"[;:,()]", sentence[start + len(raw):start + len(raw) + 30])[0])[:2]
    return {w.lower() for w in [*left, *right] if w.lower() not in _STOP}


def documented(number: StatedNumber, documentation: str) -> bool:
    """Whether the method's own documentation states this number with one of the words around it in the task
    ("a noisy 2-D Gaussian mixture with 60 training points", "N(0, prior_std²) prior"): what the method does
    anyway, not a setting the reading missed."""
    words = {_stem(w) for w in _neighbours(number.sentence, number.start, number.raw)}
    # "intervals at 68% and 95%" against "(mean, std, 68%/95% intervals)": the pair the documentation states
    digits = re.match(r"\d+(?:\.\d+)?", number.raw.replace(",", ""))
    joined = r"\s*%?\s*(?:and|or|,|/)\s*"
    # ("between 0% and 100%" is the documentation's "from 0% to 100%"; a text's "from 0.1 to 0.9" is no documented pair)
    spanned = r"\s*%?\s*(?:and|or|,|/|to|–)\s*"
    before = re.search(rf"(\d+(?:\.\d+)?){joined}$", number.sentence[:number.start])
    after = re.match(rf"\s*%?{joined}(\d+(?:\.\d+)?)(?![\d.])", number.sentence[number.start + len(number.raw):])
    if digits is not None:
        pairs = [(before.group(1), digits.group(0))] if before else []
        pairs += [(digits.group(0), after.group(1))] if after else []
        if any(re.search(rf"(?<![\d.]){re.escape(a)}{spanned}{re.escape(b)}(?![\d.])", documentation) for a, b in pairs):
            return True
    # "Two models per seed" counts for each seed what "Each seed makes two runs" states
    each = re.match(r"\s+(?:[^\W\d_]+\s+)?per\s+([^\W\d_]+)", number.sentence[number.start + len(number.raw):])
    for match in re.finditer(rf"\b(?:each|every|per)\s+{re.escape(_stem(each.group(1).lower()))}s?\b[^.;]{{0,20}}?"
                             rf"\b(?:{'|'.join(_ONES)}|\d+)\b", documentation, re.I) if each is not None else ():
        said = match.group(0).rsplit(None, 1)[-1].lower()
        if any(_close(v, float(said) if said.isdigit() else _ONES.get(said, -1.0)) for v in number.values):
            return True
    for match in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.]\d)", documentation):
        if any(_close(v, float(match.group(0))) for v in number.values):
            if words & {_stem(w) for w in _neighbours(documentation, match.start(), match.group(0))}:
                return True
    for match in re.finditer(rf"\b(?:{'|'.join(_ONES)})\b", documentation, re.I):  # "the two concept labels"
        if any(_close(v, _ONES[match.group(0).lower()]) for v in number.values):
            if words & {_stem(w) for w in _neighbours(documentation, match.start(), match.group(0))}:
                return True
    return False


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _same_sentence(sentence: str, quote: str) -> bool:
    """Whether a reading's quote is the number's sentence (the two readers cut sentences a little differently:
    one may hold the other)."""
    a, b = " ".join(sentence.split()), " ".join(quote.split())
    return bool(a and b) and (a[:60] in b or b[:60] in a)


def _names_a_column(number: StatedNumber) -> bool:
    """Whether the number is what a column of its sentence is named after ("the applications in the first thirty
    days (applicants_30d)", "earnings in 78 (`re_78`)"): it describes the column, it sets nothing.  Two digits
    or more, joined to the column name's underscore."""
    value = number.values[-1]
    if not value.is_integer() or value < 10:
        return False
    digits = str(int(value))
    return re.search(rf"\b[A-Za-z]\w*_{digits}(?:[A-Za-z]\w*)?\b|\b{digits}_[A-Za-z]\w*\b", number.sentence) is not None


def unaccounted_numbers(text: str, used: Sequence[float], files: Iterable[str] = (),
                        gated: Sequence[tuple[float, str]] = (), documentation: str = "",
                        nouns: Iterable[str] = (), *,
                        placed: Sequence[tuple[float, str, str, bool]] = ()) -> list[StatedNumber]:
    """The stated numbers none of whose meanings is a value in ``used`` (the run's values as read), a value
    of ``gated`` whose pattern its sentence matches (an argument's default counts for a sentence that names the
    argument: "L0 weight 3" is not accounted for by some other argument's default of 3), a value of ``placed``
    (value, the sentence it was read from, a pattern of its argument's words) read from the number's own
    sentence or restated beside its argument's words, or a number the method's
    ``documentation`` states in the same words (:func:`documented`); once each."""
    out: list[StatedNumber] = []
    seen: set[str] = set()
    # a value read from a sentence accounts for one of its numbers: "between −2 and 2, latencies 1, 2, 4 and 8"
    # read as the latencies alone leaves a 2 of the sentence that nothing read
    spent: set[int] = set()
    for number in stated_numbers(text, files, nouns):
        if any(_close(v, u) for v in number.values for u in used) or number.raw in seen:
            continue
        if _names_a_column(number):
            continue
        if re.match(r"[-−–]\s*" + re.escape(number.raw.lstrip("-−–+ ")) + r"\s*(?:and|to|,)\s*\+?\s*"
                    + re.escape(number.raw.lstrip("-−–+ ")) + r"(?![\w.])", number.sentence[number.start:]):
            continue  # the lower bound of a symmetric range ("between −2 and 2"): one setting, its upper bound
        if re.match(r"(?:half|a\s+third|a\s+quarter|twice|double|three\s+times)\s+(?:(?:of\s+)?the|its|as\s+\w+\s+as\s+the)\s+"
                    r"(?:usual|default|normal|standard|typical)\b", number.sentence[number.start:], re.I) and any(
                any(_close(float(d), u) for u in [*used, *(p[0] for p in placed)])
                for d in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", number.sentence)):
            continue  # "a standard deviation of 1, half the usual strength": the value is given, the share explains it
        upper = re.match(re.escape(number.raw) + r"\s*(?:and|to|–|-)\s*(\d[\d,]*(?:\.\d+)?)(?![\w.])",
                         number.sentence[number.start:])
        if number.values[0] in (0.0, 1.0) and upper is not None and \
                any(_close(float(upper.group(1).replace(",", "")), u) for u in used):
            continue  # the lower end of a range whose upper end is read: "each between 0 and 30" (a largest operand)
        around = " ".join(sorted(_neighbours(number.sentence, number.start, number.raw)))
        if any(_close(v, u) and re.search(words, around, re.I)
               for v in number.values for u, _quote, words, _item in placed):
            continue  # restated beside its argument's words ("those two heads")
        here = [n for n, (u, quote, _words, _item) in enumerate(placed) if n not in spent and quote
                and any(_close(v, u) for v in number.values) and _same_sentence(number.sentence, quote)]
        if any(not placed[n][3] for n in here):
            continue  # a single value accounts for its restatements in its sentence ("a 5 × 5 grid (5 colours)")
        if here:
            spent.add(here[0])  # a list's item for one of them
            continue
        if any(_close(v, u) and re.search(pattern, number.sentence, re.I) for v in number.values
               for u, pattern in gated):
            continue
        if documentation and documented(number, documentation):
            continue
        if _derived(number, [*used, *(p[0] for p in placed if p[1] and _same_sentence(number.sentence, p[1]))]):
            continue
        seen.add(number.raw)
        out.append(number)
    return out


def _derived(number: StatedNumber, used: Sequence[float]) -> bool:
    """Whether the number is worked out from two others of its sentence, which it follows with "so" or "in all"
    ("two concepts, each taking five values, so 25 combinations in all"): arithmetic on settings, no setting. Only
    when the run reads the factors (a small one from the same sentence): a product of settings nothing read ("seven
    levels apiece, so 49 …") is a question, as it was the only sign that the seven went unread."""
    sentence, at = number.sentence, number.start
    if not re.search(r"\b(?:so|in\s+all|in\s+total|altogether|giving|which\s+makes)\b", sentence[max(0, at - 20):at + 60],
                     re.I):
        return False
    others = [float(m.group(0)) for m in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", sentence[:at])]
    others += [v for m in _WORDS.finditer(sentence[:at]) if (v := word_value(m.group(0))) is not None]
    value = number.values[0]
    return any(_close(a * b, value) and any(_close(a, u) for u in used) and any(_close(b, u) for u in used)
               for i, a in enumerate(others) for b in others[i:] if a > 1 and b > 1)
