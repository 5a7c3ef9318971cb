"""Method arguments from the data itself: which file plays which role, which column is which, with a confidence.

The prose reader (:mod:`cmbagent.agents._understand`) finds what the text writes out; a scientist often writes
less: "the systematic covariance is in the second file", "the effect of the programme on 1978 earnings
(`re78`)", "adjusting for age, years of schooling and marital status".  This module maps such text onto the
method's file and column arguments by the role the words give each file and column *and* by what the data
hold (a square symmetric block of numbers is a covariance, a 0/1 column can be a treatment or a label), and
gives every mapping a confidence in [0, 1].  Mappings below :data:`ASK_BELOW` are not used: the reader asks.

Confidence scale (documented in ``docs/understanding.md``): 1.0 the front matter; ~0.95 a column or file the
text names in the clause that gives its role; ~0.8 a file or column the data and a field word agree on; ~0.6
one the data alone suggest (the only 0/1 column); below :data:`ASK_BELOW` a guess, never used.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cmbagent.agents._fields import input_fit_of
from cmbagent.agents._numbers import word_value
from cmbagent.profiles import ColumnProfile, FileProfile

__all__ = ["ASK_BELOW", "Mapped", "argument_role", "argument_words", "column_role", "file_roles", "identifier", "list_end", "map_column_list", "map_columns",
           "map_files", "match_phrase", "sentences"]

#: mappings less sure than this are questions, not arguments
ASK_BELOW = 0.6

#: what a file is for, as words write it (text near the file's name, the file's name, an argument's doc)
FILE_ROLE_WORDS: dict[str, str] = {
    "covariance": r"covarian|\bcov(?:mat|matrix)?\b|_cov\b|cov_|error matrix|systematic|correlated (?:errors|"
                  r"uncertainties)",
    "test": r"\btest(?:ing)?\b|held[- ]?out|hold[- ]?out|validation|evaluat",
    "embeddings": r"embedding|representation|latent feature|feature vectors|\bembedded\s+(?:each|every|all|the)\b|"
                  # "a numpy array with a 16-dimensional vector per listing, computed from the photos by a network"
                  r"\b\d+-dimensional\s+vectors?\b|\bvectors?\s+(?:per|for\s+each|for\s+every)\s+[a-z]+\b",
    "instruments": r"\binstrument|\blotter(?:y|ies) (?:numbers?|draws?|results?)",
    "chain": r"\bchains?\b|posterior samples|mcmc samples|importance[- ]samples|nested[- ]sampling (?:output|samples)|"
             # "the CosmoSIS run in x.txt.gz": a sampler's run is its chain
             r"\b(?:CosmoSIS|Cobaya|MontePython|CosmoMC|emcee|MCMC|sampler(?:'s)?)\s+(?:run|output)\b",
    "labels": r"\blabels? (?:file|table)\b|concept labels",
    "targets": r"\btargets? (?:file|table)\b|propert(?:y|ies) of (?:each|the) adapter|"
               r"\b(?:each|every|per)[- ]adapter\b|\b(?:loss(?:es)?|accurac(?:y|ies)|scores?|metrics?) (?:that )?"
               r"(?:each|every)\b",
    # "bury the needles in our logbook, data/log.txt": the file the needles go in is the haystack
    # "the needle test with our own filler text": the test's name, not the needles' file
    "needles": r"\bneedles?\b(?!\s+(?:in|into|inside|within|tests?|benchmarks?|tasks?|experiments?|probes?)\b)",
    "haystack": r"\bhaystack\b|background text|\bfiller(?: text)?\b|\bpadding text\b|"
                r"\b(?:default|shipped|built-in|stock)\s+novel\b|\bneedles?\s+(?:in|into|inside|within)\b",
    "code": r"\blog[_ ]?prob|\bdensity function\b|python file",
    "adapters": r"\badapters?\b",
}
_ROLE_PATTERNS = {role: re.compile(p, re.I) for role, p in FILE_ROLE_WORDS.items()}
#: roles a file's own name gives it, besides the words above ("shape_labels.csv" holds labels)
_NAME_ROLES = {"labels": re.compile(r"\blabels?\b", re.I), "targets": re.compile(r"\btargets?\b", re.I)}

#: the subject of "how much does X change Y": X is what was done (the treatment), Y what it changed; the cue is X
#: itself, so its own words name the column ("how much does terracing change yield" names `terraced`)
_AGENT_OF_CHANGE = (
    r"(?:(?:" + "|".join(rf"(?<=\bhow much {verb} )" for verb in ("does", "did", "do", "would", "will"))
    + r")(?:the |a |an |their |its |each )?[\w-]+(?: [\w-]+){0,5}?(?:\s*\([^()]{1,40}\))?(?=\s+(?:change|raise|lift|increase|lower|reduce|cut"
    r"|affect|improve|boost|shift|alter|move|add to|take off)\b)"
    # the indirect question: "quantify how much the installed battery capacity on a feeder changes the minutes"
    r"|(?<=\bhow much )(?:the |a |an |their |its )?[\w-]+(?: [\w-]+){0,5}?(?=\s+(?:changes|changed|raises|raised"
    r"|lifts|increases|increased|lowers|lowered|reduces|reduced|cuts|affects|affected|improves|improved|boosts"
    r"|boosted|shifts|shifted|alters|altered|moves|moved|adds to|added to)\b)"
    # the yes/no question: "did planting a winter cover crop reduce soil loss", "does the new feed cut mortality", "did
    # the prescribed burns (rx_burn = 1) reduce ..." (the bracket that names the column is the agent's)
    r"|(?:" + "|".join(rf"(?<=\b{aux} )" for aux in ("did", "does", "do", "will"))
    + r")(?:the |a |an |their |its |each )?[\w-]+(?: [\w-]+){0,5}?(?:\s*\([^()]{1,40}\))?(?=\s+(?:change|raise|lift|increase|lower|reduce|cut"
    r"|affect|improve|boost|shift|alter|hurt|harm|worsen|prevent|shorten|lengthen|slow|cause|lead to|result in"
    # "how many extra pain days does each kilogram of backpack add", "... do the flower strips give us"
    r"|add|give|buy|bring)\b)"
    # the counterfactual: "would soil loss have been lower without the cover crop?"
    r"|(?<=\bwithout )(?:the |a |an |their |its )?[\w-]+(?: [\w-]+){0,3}?(?=\s*\?)"
    # the possessor of an effect: "the crop's effect on soil loss", "a cover-crop effect on erosion"
    r"|(?:(?<=\bthe )|(?<=\ba )|(?<=\ban ))(?:[\w-]+ )?[\w-]+(?:'s)?(?=\s+effects?\s+on\b))")
_AGENT = re.compile(_AGENT_OF_CHANGE, re.I)

#: the direction of a measured column: "(higher is worse)", "larger values mean better"
_DIRECTION = r"(?:higher|lower|larger|smaller|bigger)\s+(?:values?\s+)?(?:is|are|means?)\s+(?:worse|better)"

#: words that say which column plays an argument's role ("cue"), per kind of column argument
COLUMN_CUES: dict[str, str] = {
    "treatment": r"\btreat\w*|\bassign\w*|\bprogram\w*|\bintervention\w*|\bexposure\b|\bexposed\b|\bpolicy\b|"
                 r"\beligib\w*|\bparticipat\w*|\benrol\w*|\breceiv\w*|\btook part\b|\bsubsid\w*|\btutor\w*|"
                 r"\bcampaign\b|\bvoucher\w*|\btraining\b|\btherapy\b|\bdrug\b|\bflag\b|\bvaccin\w*|"
                 r"\b(?:set|chosen|decided|applied|given) by\b|"  # "`dose` was set by the farmers"
                 r"\bgot\b|\bwere (?:sent|given|offered)\b|"  # "some patients got SMS reminders (`sms` = 1)"
                 # a dose: "the gain per extra day at altitude", "(days_at_altitude, a continuous dose)"
                 r"\bper\s+(?:extra|additional)\b|\bdose\b|"
                 + _AGENT_OF_CHANGE,
    "outcome": r"\boutcomes?\b|\bwould\s+(?=(?:[\w-]+\s+){1,4}?ha(?:ve|s)\s+been\b)|\beffects? (?:of [^.;]{1,60}? )?on\b|\bimpacts? on\b|\brais(?:e|es|ed)\b|"
               r"\blower(?:s|ed)?\b|\bincreas(?:e|es|ed)\b|\breduc(?:e|es|ed)\b|\bchange[sd]?\b|\bresponse\b|\bresult\b|\b(?:do|does|did) to\b|"
               # not what decided the treatment: "prior marks and attendance affected who got tutored"
               r"\baffect(?:s|ed)?\b(?!\s+(?:who|whether|which\s+[\w-]+)\s+(?:\w+\s+)?(?:got|was|were|received|took))|"
               r"\binfluence (?:on)?\b|\bimprov(?:e|es|ed)\b|\bboost(?:s|ed)?\b|"
               # the direction of a measured outcome: "the dnbr column (higher is worse)"
               rf"\b{_DIRECTION}\b|"
               r"\badds? to\b|\bgains? in\b|\bbuys?\b|\bbought\b|\bhow (?:much|many) (?:extra|more|additional|fewer|less)\b|"
               # "whether spraying cut the new lesions", "how many claims per parcel did a rain garden prevent"
               r"\bcut(?:s)?\s+(?=the\b|their\b|its\b)|\bhow many\b(?=\s+[a-z]+\s+(?:[\w-]+\s+){0,3}?(?:did|does|do|would|will)\b)|"
               # a dose and its response: "does a longer shift cause more dispensing errors"
               r"\b(?:cause[sd]?|lead(?:s|ing)?\s+to|led\s+to|result(?:s|ed)?\s+in)\s+(?=(?:more|less|fewer|higher|lower|"
               r"longer|shorter|bigger|smaller|greater|worse|better)\b)",
    "covariates": r"\badjust\w* for\b|\bcontrol\w* for\b|\baccount\w* for\b|\bcovariates?\b|\bconfounders?\b|"
                  r"\bcondition\w* on\b|\bholding [^.;]{0,20}constant\b|\bbackground (?:variables|characteristics)\b|"
                  # "the conditional effect of the pass on active minutes given age and car ownership"
                  r"\bgiven\b(?=\s+[\w-]+(?:\s*,|\s+and\b))|"
                  r"\b(?:knew|know|known|measured|recorded) (?:about|before)\b[^.:]{0,80}:|\bpre-?treatment\b[^.:]{0,40}:|"
                  r"\bbaseline (?:variables|characteristics|covariates)\b|"
                  # "take walking time, height and age into account": the list is what lies between
                  r"\btak(?:e|es|ing|en)\s+(?=(?:[^.?!;\s]+\s+){1,12}?into\s+account\b)|"
                  # "using the image features plus footfall and shop count as controls"
                  r"\b(?:using|use|with)\s+(?=(?:[^.?!;\s]+\s+){1,12}?as\s+(?:the\s+|our\s+)?(?:controls|covariates|"
                  r"confounders|adjustment\s+set)\b)|"
                  # "once hedgerow length and field area are allowed for", "once altitude and rainfall are taken into
                  # account"
                  r"\b(?:once|after|when|with)\s+(?=(?:[^.?!;\s]+\s+){1,12}?(?:are|is|have\s+been|has\s+been)\s+"
                  r"(?:(?:allowed|accounted|adjusted|controlled|corrected)\s+for|taken\s+into\s+account)\b)",
    "label": r"\blabels?\b|\bclass(?:es)?\b|\bdiagnos\w*|\banomal\w*|\bfault\w*|\bflag\w*|\bfraud\w*|"
             r"\btarget\b|\bmarks?\b|\bcategor\w*|\bwhether\b|\bsays? which\b|\btells? (?:us )?which\b|"
             r"\bindicates?\b|\bwhich (?:are|is|were) (?:bad|good|faulty|defective|positive|anomal\w*)",
    "target": r"\bpredict\w*|\bresponse\b|\btarget\b|\bas a function of\b|\bregress\w*|\boutcome\b|\by\b",
    "features": r"\bregress(?:ion|ed|ing)?\s+of\s+[^.;]{1,80}?\s+on\b|\bfeatures?\b|\bbased on\b|\busing\b|"
                r"\binputs?\b|\bpredictors?\b",
    "instruments": r"\binstruments?\b|\bencourag\w*|\blotter\w*|\brandomi[sz]ed offer\b",
    # "our model's arrears_risk": what a model gives is its prediction
    "prediction": r"\bpredict\w*|\brisk score\b|\bscores?\b|\bmodel['’]s\b",
    "text": r"\btext\b|\bnotes?\b|\bdescriptions?\b|\breviews?\b|\bnarratives?\b",
    "prompt": r"\bprompts?\b|\binstructions?\b|\bquestions?\b",
    "answer": r"\banswers?\b|\bresults?\b",
}
#: how common column names and prose words relate (abbreviations a data set uses for what prose calls them)
SYNONYMS: dict[str, tuple[str, ...]] = {
    "education": ("educ", "edu", "schooling", "school", "years of school", "education"),
    "earnings": ("re", "earn", "wage", "income", "inc", "salary", "pay"),
    "income": ("inc", "income", "earn", "wage"),
    "married": ("marr", "married", "marital", "spouse"),
    "degree": ("degree", "nodegree", "diploma", "graduate"),
    "ethnicity": ("black", "hisp", "hispanic", "race", "ethnic", "white", "asian"),
    "age": ("age", "years old"),
    "female": ("female", "sex", "gender", "male", "woman", "women"),
    "unemployed": ("u", "unemp", "unemployed", "jobless"),
    "children": ("kids", "children", "nkids", "child"),
    "household": ("fsize", "hhsize", "household", "family size"),
    "home": ("hown", "home", "homeowner", "owns a home"),
    "pension": ("db", "pension", "defined benefit"),
    "score": ("score", "test", "grade", "marks"),
}


@dataclass(frozen=True)
class Mapped:
    """One argument as mapped from text and data: its value, how sure, and why."""

    argument: str
    value: Any
    confidence: float
    evidence: str
    alternatives: tuple[str, ...] = field(default=())

    @property
    def sure(self) -> bool:
        return self.confidence >= ASK_BELOW


# -- files ------------------------------------------------------------------------------------------------
def argument_role(name: str, doc: str) -> str:
    """The role of a file argument from its name and its documentation's first sentence (``data`` when none)."""
    if name in _ROLE_PATTERNS or name.rstrip("s") + "s" in _ROLE_PATTERNS:
        return name if name in _ROLE_PATTERNS else name.rstrip("s") + "s"
    first = f"{name.replace('_', ' ')} {doc.split('. ')[0]}"
    for role, pattern in _ROLE_PATTERNS.items():
        if pattern.search(first):
            return role
    return "data"


def _file_pattern(name: str) -> re.Pattern[str]:
    base = name.rsplit("/", 1)[-1]
    stem = base.rsplit(".", 1)[0]
    return re.compile(rf"(?<![\w/.-])(?:[\w./-]*/)?{re.escape(base)}(?![\w])|`{re.escape(stem)}`")


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence holding position ``at`` starts (after ". ", "? ", "! " or a blank line)."""
    return max((i + (1 if mark != "\n\n" else 2) for mark in (". ", "? ", "! ", "\n\n") if (i := text.rfind(mark, 0, at)) >= 0),
               default=0)


def _sentence_end(text: str, at: int) -> int:
    """Where the sentence holding position ``at`` ends (or the text's length)."""
    return min((i for i in (text.find(mark, at) for mark in (". ", "? ", "! ", "\n\n")) if i >= 0), default=len(text))


def _mentions(text: str, name: str, others: Sequence[str] = ()) -> list[tuple[str, str]]:
    """For each place ``text`` names the file ``name``: the words before it back to the sentence's start or the
    previous file named in it, and the words after it up to the sentence's end or the next file named."""
    marks = sorted((m.start(), m.end()) for other in others if other != name
                   for m in _file_pattern(other).finditer(text))
    out = []
    for match in _file_pattern(name).finditer(text):
        begin = max([_sentence_start(text, match.start()), *(e for s, e in marks if e <= match.start())])
        ends = [_sentence_end(text, match.end()), *(s for s, e in marks if s >= match.end())]
        after = re.split(r"[,;]|\s(?:and|but|with|while)\s", text[match.end():min(ends, default=len(text))])[0]
        before = text[begin:match.start()]
        previous = [(s, e) for s, e in marks if e <= match.start()]
        if previous and previous[-1][1] == begin and re.match(r"`?\s*(?:has|have|holds?|contains?|gives|is|are)\b", before):
            # "vecs.npy has one embedding per item and labels.csv what ...": the clause describes the file before
            before = re.split(r"\band\b", before)[-1]
        if previous and re.fullmatch(r"`?\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+)`?", before):
            # "the margins are in a.csv and b.csv": a file joined to the one before shares its words
            start = previous[-1][0]
            begin_prev = max([text.rfind(". ", 0, start) + 1, text.rfind("\n\n", 0, start) + 1,
                              *(e for s, e in marks if e <= start)])
            before = text[begin_prev:start] + before
        out.append((before, after))
    return out


def _pronoun_casts(text: str, name: str, others: Sequence[str] = ()) -> list[str]:
    """The roles a sentence gives the file ``name`` by a pronoun after it ("data/log.txt is a log we wrote; use it
    as the haystack"): the words after "as", where no other file is named in between."""
    marks = sorted(m.start() for other in others if other != name for m in _file_pattern(other).finditer(text))
    out = []
    for match in _file_pattern(name).finditer(text):
        ends = [i for i in (text.find(". ", match.end()), text.find("\n\n", match.end())) if i >= 0]
        ends += [s for s in marks if s >= match.end()]
        rest = text[match.end():min(ends, default=len(text))]
        cast = re.search(r"\b(?:use|take|treat|read)\s+(?:it|this(?:\s+file)?|that(?:\s+file)?)\s+as\s+"
                         r"(?:the\s+|a\s+|an\s+|our\s+|its\s+)?((?:[\w-]+\s+){0,2}[\w-]+)", rest)
        if cast:
            out.append(cast.group(1))
    return out


_ORDINALS = ("first", "second", "third", "fourth")
_FILE_WORD = r"(?:file|table|data ?set|spreadsheet|csv|tsv|jsonl|ndjson|json|npz|npy|txt|catalog(?:ue)?|export|sheet)"
#: the text pointing at an input file it does not name: "the attached table", "the second file"
_POINTED = re.compile(rf"\b(?:the|this|that|my|our)\s+(?:[\w-]+\s+){{0,2}}?{_FILE_WORD}s?\s+(?:(?:I|we)\s+)?"
                      r"(?:provided|attached|supplied|uploaded|enclosed|sent|given|shared)\b|"
                      rf"\b(?:attached|provided|supplied|uploaded|enclosed)\s+(?:\.?[\w-]+\s+){{0,2}}?{_FILE_WORD}\b|"
                      r"\bthe (first|second|third|fourth|only) (?:file|table)\b|"
                      r"\b(?:attached|enclosed)\s+(?:is|are)\b|\bI(?:'ve| have)? attached\b|\battaching\b", re.I)


def _referred(text: str, name: str, profiles: Sequence[FileProfile]) -> bool:
    """Whether the text points at the file ``name`` without naming it: "the attached table", "the one-column
    table provided", "Attached is a morphology catalogue" (any file), "the second file" (the second input, in the
    order the files were given)."""
    for match in _POINTED.finditer(text):
        ordinal = (match.group(1) or "").lower()
        if ordinal in _ORDINALS:
            index = _ORDINALS.index(ordinal)
            if index < len(profiles) and profiles[index].name == name:
                return True
        else:
            return True
    return False


_ORDINAL_MENTION = re.compile(
    rf"\b(?:the\s+)?(?:first|second|third|fourth)\s+(?:[\w-]+\s+){{0,2}}?{_FILE_WORD}s?\b|"
    r"\bthe\s+(?:first|second|third|fourth)\s+(?:one\s+)?(?=(?:to|for|is|holds?|has|gives|contains|with)\b)|"
    r"(?<=[,;]\s)the\s+(?:first|second|third|fourth)\s+(?=(?:the|an?)\s)", re.I)  # "..., the second the test readings"
#: a file called by what it holds: "The labels file", "the answers table"
_ROLE_FILE = re.compile(rf"\b[Tt]he\s+(?:[\w-]+\s+){{1,2}}?{_FILE_WORD}\b(?!\s*(?:name|path|format)s?\b)")
_ANY_ORDINAL = re.compile(r"\b(?:the\s+)?(?:first|second|third|fourth)\b", re.I)
_EXTENSION_MENTION = re.compile(r"\b(?:the|this|my|our)\s+(?:attached\s+|enclosed\s+|provided\s+)?"
                                r"(csv|tsv|jsonl|ndjson|json|npz|npy|txt)\b(?!\s*(?:file|table)s?\b)", re.I)


def _pointed_mentions(text: str, name: str, profiles: Sequence[FileProfile]) -> list[tuple[str, str]]:
    """The places the text points at the file ``name`` without naming it, as :func:`_mentions` gives them: by
    its place in the order the files were given ("The second file holds the lottery draws", "First file: our
    online panel", "two tables: the first to train on, the second to test on"), or by its type when it is the only
    file of that type ("the attached jsonl").  The words after an ordinal run to the next ordinal or the sentence's
    end: "the second file holds, for each applicant, the twelve lottery numbers" is one mention."""
    index = next((i for i, p in enumerate(profiles) if p.name == name), None)
    if index is None or len(profiles) < 1:
        return []
    found: list[tuple[int, int]] = []
    ordinals = list(_ORDINAL_MENTION.finditer(text)) if len(profiles) > 1 else []
    for match in ordinals:
        ordinal = re.search(r"first|second|third|fourth", match.group(0), re.I)
        if ordinal is not None and _ORDINALS.index(ordinal.group(0).lower()) == index:
            found.append((match.start(), match.end()))
    suffix = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if sum(1 for p in profiles if p.name.lower().endswith("." + suffix)) == 1:
        found += [(m.start(), m.end()) for m in _EXTENSION_MENTION.finditer(text) if m.group(1).lower() == suffix]
    # "The labels file begins with a render_id column": a file called by its role in a sentence that names none,
    # whose columns there are this file's alone
    holds = {c.lower() for c in profiles[index].column_names}
    called: list[str] = []
    elsewhere = {c.lower() for p in profiles if p.name != name for c in p.column_names}
    for match in _ROLE_FILE.finditer(text):
        sentence = text[match.end():_sentence_end(text, match.end())]
        if any(_file_pattern(p.name).search(text, _sentence_start(text, match.start()), _sentence_end(text, match.end()))
               for p in profiles):
            continue  # a sentence that names a file speaks of that one
        said = {w.lower() for w in re.findall(r"`?([A-Za-z_]\w*)`?", sentence)}
        if said & holds and not said & elsewhere:
            called.append(match.group(0))  # its own words ("The labels file") say its role; what follows describes it
    out = [(words, "") for words in called]
    for start, end in found:
        begin = max(text.rfind(". ", 0, start) + 1, text.rfind("\n\n", 0, start) + 1)
        ends = [i for i in (text.find(". ", end), text.find("\n\n", end)) if i >= 0]
        ends += [m.start() for m in _ANY_ORDINAL.finditer(text) if m.start() >= end]
        out.append((text[begin:start], text[end:min(ends, default=len(text))]))
    return out


def _stem(word: str) -> str:
    word = word.lower().removesuffix("'s").removesuffix("’s")
    return word[:-1] if len(word) > 4 and word.endswith("s") else word


_GENERIC_WORDS = {"file", "path", "data", "table", "tables", "csv", "input", "column", "columns", "with", "each",
                  "from", "that", "which", "optional", "default", "rows", "values", "value", "without", "their",
                  "when", "given", "else", "only", "used", "otherwise", "this", "these", "those", "none"}


def argument_words(name: str, doc: str) -> tuple[set[str], set[str]]:
    """What the text calls a file argument that no general role names (``population``, ``model_answers``): the
    words of its name, and the content words of its documentation's first sentence ("Population to weight to: a
    margins table ... (census shares ...), or a reference sample"), each stemmed."""
    own = {_stem(w) for w in name.split("_") if len(w) > 2 and w.lower() not in _GENERIC_WORDS}
    first = doc.split(". ")[0]
    described = {_stem(w) for w in re.findall(r"[A-Za-z][a-z]{3,}", first) if w.lower() not in _GENERIC_WORDS}
    return own, described - own


def _words_say(context: str, own: set[str], described: set[str]) -> bool:
    """Whether a file's mention speaks of the argument: a word of its name, or two words of its description."""
    words = {_stem(w) for w in re.findall(r"[A-Za-z][\w’']+", context)}
    return bool(words & own) or len(words & described) >= 2


_COUNTED_FILES = re.compile(r"\b(two|three|four|five|six|\d)\s+(?:data\s+)?files\s+(?:are\s+|were\s+)?(?:attached|enclosed|"
                            r"included|given|passed|provided|here|below|sent)\s*(?:[:—–]|,\s+in\s+(?:this\s+)?order:?)\s*"
                            r"([^.\n]+(?:\([^()]*\)[^.\n]*)*)", re.I)


_DESCRIBED = r"\s+(?:one\s+|file\s+)?(?:is|holds|has|contains|gives)\s+((?:[^.()]|\([^()]*\))+?)"
_ORDINAL_FILES = re.compile(rf"\b[Tt]he\s+first{_DESCRIBED}(?:,\s*(?:and\s+)?|;\s*|\.\s+)[Tt]he\s+second{_DESCRIBED}"
                            rf"(?:(?:,\s*(?:and\s+)?|;\s*|\.\s+)[Tt]he\s+third{_DESCRIBED})?(?=\.(?:\s|$)|$)")


def _enumerated_files(text: str, names: Sequence[str]) -> dict[str, str]:
    """The files a sentence counts out in order without naming them ("Three files are attached: our user survey, an
    extract from the register, and the answers we got from a chatbot"), each with its description, when the count
    and the items agree with the files given (in the order given, as ``--data`` passes them)."""
    flat = " ".join(text.split())
    match = _COUNTED_FILES.search(flat)
    if match is None:
        # "two files attached ... The first is a sales table (...), the second is a numpy array with ..."
        ordinals = _ORDINAL_FILES.search(flat)
        described = [d for d in ordinals.groups() if d] if ordinals else []
        return dict(zip(names, described, strict=True)) if described and len(described) == len(names) else {}
    count = int(match.group(1)) if match.group(1).isdigit() else word_value(match.group(1))
    listing = re.sub(r"\([^()]*\)", " ", match.group(2))  # "(one answer per row, no shares)" is no item
    items = [i.strip() for i in re.split(r",\s*(?:and\s+)?|;\s*|\s+and\s+(?=(?:the|an?|our|my|their)\b)", listing)
             if i.strip()]
    if count != len(names) or len(items) != len(names):
        return {}
    return dict(zip(names, items, strict=True))


#: a file that a sample is weighted towards: "the rounds need to be adjusted, each on its own, towards the national
#: health panel in <file>", "rake the poll to <file>" (the words before the file's mention)
_WEIGHTED_TOWARDS = re.compile(r"\b(?:weight|reweight|rak|adjust|calibrat|post-?stratif|balanc|benchmark)\w*\b[^.;:]{0,60}?"
                               r"\bto(?:wards?)?\s+(?!be\b)[^.;:]{0,50}$", re.I)
#: an argument documented as what the data are weighted to ("Population to weight to: a margins table ...")
_WEIGHTED_TO_DOC = re.compile(r"\bweight\w*\s+(?:it\s+|them\s+)?to(?:wards?)?\b", re.I)


def file_roles(text: str, profiles: Sequence[FileProfile],
               own_roles: Mapping[str, tuple[set[str], set[str], str]] | None = None) -> dict[str, dict[str, float]]:
    """Per input file, the roles it may play with the weight of the evidence: the words around its mention in
    the text (0.6), its file name (0.3), its content (a symmetric square matrix is a covariance: 0.5; an array
    file without labels can be embeddings or instruments: 0.2; a table: data 0.3).  ``own_roles`` are file
    arguments no general role names (argument -> its words, from :func:`argument_words`, and its documentation):
    the words around a mention (0.6 / 0.5) or in the file name (0.3), and a table whose columns the
    documentation lists ("columns question and answer, optional share": 0.5)."""
    roles: dict[str, dict[str, float]] = {}
    own_roles = own_roles or {}
    for profile in profiles:
        found: dict[str, float] = {}
        base = profile.name.rsplit("/", 1)[-1]
        names = [p.name for p in profiles]
        counted_out = _enumerated_files(text, names).get(profile.name)
        described = [(counted_out, "")] if counted_out else []  # "Three files are attached: our survey, the register, ..."
        for before, after in [*_mentions(text, profile.name, names), *_pointed_mentions(text, profile.name, profiles),
                              *described]:
            said = {role for role, pattern in _ROLE_PATTERNS.items() if pattern.search(before)}
            said |= {role for role, (own, described, _) in own_roles.items() if _words_say(before, own, described)}
            if _WEIGHTED_TOWARDS.search(before):  # what the sample is weighted to: as sure as "as the <role>"
                for role in (r for r, (_, _, doc) in own_roles.items() if _WEIGHTED_TO_DOC.search(doc.split(". ")[0])):
                    found[role] = max(found.get(role, 0.0), 0.7)
            weight = 0.6
            # "use the logbook at logbook.txt as the haystack": the role right after the name outweighs the sentence's
            # earlier words ("the needle benchmark ... with our own filler text")
            cast = re.match(r"`?\s*,?\s*as\s+(?:the\s+|a\s+|an\s+|our\s+|its\s+)?((?:[\w-]+\s+){0,2}[\w-]+)", after)
            if cast:
                named = {role for role, pattern in _ROLE_PATTERNS.items() if pattern.search(cast.group(1))}
                named |= {role for role, (own, described, _) in own_roles.items()
                          if _words_say(cast.group(1), own, described)}
                if named:
                    said, weight = named, 0.7
            if not said:  # "bins_b.txt holds the covariance": the words after the name
                said = {role for role, pattern in _ROLE_PATTERNS.items() if pattern.search(after)}
                said |= {role for role, (own, described, _) in own_roles.items() if _words_say(after, own, described)}
                weight = 0.5
            for role in said:
                found[role] = max(found.get(role, 0.0), weight)
        for words in _pronoun_casts(text, profile.name, names):  # "...; use it as the haystack"
            named = {role for role, pattern in _ROLE_PATTERNS.items() if pattern.search(words)}
            named |= {role for role, (own, described, _) in own_roles.items() if _words_say(words, own, described)}
            for role in named:
                found[role] = max(found.get(role, 0.0), 0.7)
        readable = re.sub(r"(?<=[A-Za-z])(?=\d)", " ", re.sub(r"[_.\-]+", " ", base.rsplit(".", 1)[0]))  # "chain1": "chain 1"
        for role, (own, _, doc) in own_roles.items():
            kin = re.search(r"\bas\s+for\s+([a-z_]+)", doc)  # "a supernova data file (as for fit_supernovae: ...)"
            fit = input_fit_of(kin.group(1)) if kin else None
            if fit is not None and fit([profile]) >= 0.7:
                found[role] = found.get(role, 0.0) + 0.5
            if {_stem(w) for w in readable.split()} & own:  # a name alone is too little to give a file to
                found[role] = found.get(role, 0.0) + 0.2  # an optional argument (the threshold is 0.25)
            listed = [c for c in profile.column_names if re.search(rf"\b{re.escape(c)}\b", doc)]
            if len(listed) >= 2 and len(listed) >= 0.5 * len(profile.column_names):
                found[role] = found.get(role, 0.0) + 0.5
        for role, pattern in _ROLE_PATTERNS.items():
            if pattern.search(readable) or pattern.search(base) or (role in _NAME_ROLES
                                                                   and _NAME_ROLES[role].search(readable)):
                found[role] = found.get(role, 0.0) + 0.3
        chain_like = input_fit_of("summarize_chain")  # a sampler's output (a weight column, parameter columns)
        if chain_like is not None and chain_like([profile]) >= 0.7:
            found["chain"] = found.get("chain", 0.0) + 0.3
        if profile.covariance_like:
            found["covariance"] = found.get("covariance", 0.0) + 0.5
        elif profile.kind == "arrays" and "y" not in profile.arrays and "X" not in profile.arrays:
            for role in ("embeddings", "instruments"):
                found[role] = found.get(role, 0.0) + 0.2
        if profile.kind in {"table", "headerless", "arrays"} or (profile.kind == "matrix" and not profile.square):
            found["data"] = found.get("data", 0.0) + 0.3
        if base.endswith(".py"):
            found["code"] = found.get("code", 0.0) + 0.5
        roles[profile.name] = found
    return roles


def map_files(text: str, profiles: Sequence[FileProfile], arguments: Mapping[str, str],
              docs: Mapping[str, str], required: Sequence[str], given: Mapping[str, Any]) -> tuple[list[Mapped], list[str]]:
    """Input files onto the method's input-file ``arguments`` (name -> role), and the files no argument took.

    A file goes to the argument whose role its evidence supports most; the ``data`` argument takes the table
    nothing else claims.  A file the text names for a role no argument has (a covariance for a method without
    one) stays unplaced, so the reader can say so instead of dropping it silently.
    """
    used = {v for v in given.values() if isinstance(v, str)}
    free = [p.name for p in profiles if p.name not in used]
    # an argument that takes a folder ("Folder with band powers in the Planck plik_lite layout") takes no file
    folders = {name for name in arguments if re.match(r"\s*(?:folder|directory)\b", docs.get(name, ""), re.I)}
    wanted = {name: argument_role(name, docs.get(name, "")) for name in arguments
              if name not in given and name not in folders}
    # a second table argument no general role names (``population`` beside ``data``) plays its own role
    main = "data" if "data" in wanted else next((n for n in wanted if n in required), None)
    own_roles = {name: (*argument_words(name, docs.get(name, "")), docs.get(name, "")) for name, role in wanted.items()
                 if role == "data" and name != main}
    wanted.update({name: name for name in own_roles})
    roles = file_roles(text, profiles, own_roles)
    mapped: list[Mapped] = []
    # specific roles first (covariance, test, ...), the plain data argument last
    for name, role in sorted(wanted.items(), key=lambda item: item[1] == "data"):
        scored = sorted(((roles.get(f, {}).get(role, 0.0), f) for f in free), reverse=True)
        if role == "data":  # the table no other role claims more strongly, and that holds the columns the text
            # names (`enrolled`, `earn22`): a notes file beside it is not the data
            held = _named_columns(text, profiles)
            most = max(held.values(), default=0)
            scored = sorted(((s - 0.5 * max((v for r, v in roles.get(f, {}).items() if r != "data"), default=0.0)
                              + (0.3 if most and held.get(f, 0) == most else 0.0), f)
                             for s, f in scored), reverse=True)
        if not scored or scored[0][0] <= (0.25 if name in own_roles else 0):
            continue
        best, chosen = scored[0]
        runner = scored[1][0] if len(scored) > 1 else 0.0
        if role != "data":  # a file another argument's role fits better is no rival for this one ("the chatbot's answer
            # shares" are the model's answers, whatever words of the population's documentation they share)
            runner = max((sc for sc, f in scored[1:] if sc >= max(
                (roles.get(f, {}).get(r, 0.0) for n, r in wanted.items() if n != name and r != "data"), default=0.0)),
                default=0.0)
        confidence = min(1.0, 0.35 + best) if role != "data" else min(1.0, 0.55 + best)
        if runner >= best - 0.1 and runner > 0:  # two files fit as well: not sure which
            confidence = min(confidence, 0.45)
        if role == "data" and name not in required and not (_mentions(text, chosen) or _referred(text, chosen, profiles)
                                                            or _pointed_mentions(text, chosen, profiles)):
            continue  # an optional data argument gets a file only when the text names it or points at it
        evidence = f"{chosen} looks like the {role} ({_why(roles.get(chosen, {}), role)})"
        mapped.append(Mapped(name, chosen, round(confidence, 2), evidence,
                             tuple(f for s, f in scored[1:3] if s > 0)))
        if confidence >= ASK_BELOW:
            free.remove(chosen)
    placed = {m.value for m in mapped if m.sure}
    unplaced = [p.name for p in profiles if p.name not in placed and p.name not in used]
    return mapped, unplaced


def _named_columns(text: str, profiles: Sequence[FileProfile]) -> dict[str, int]:
    """Per table, how many of the names the text writes in backticks are its columns."""
    ticked = set(re.findall(r"`([^`\s]+)`", text))
    return {p.name: len(ticked & set(p.column_names)) for p in profiles if p.column_names}


def _why(evidence: Mapping[str, float], role: str) -> str:
    weight = evidence.get(role, 0.0)
    return "named so in the text" if weight >= 0.6 else "by its name or content"


# -- columns ----------------------------------------------------------------------------------------------
def column_role(name: str, doc: str) -> str:
    """The kind of a column argument (``treatment``, ``outcome``, ``covariates``, ``label``, ...), from its name
    and documentation's first sentence, less what it says in brackets ("Input columns (default: every column
    except the target)" are features, not the target); whole words, so the ``features`` "in the order used by
    classifier_weights" are no class label."""
    lowered = f"{name} {re.sub(r'[(][^()]*[)]', ' ', doc.split('. ')[0])}".replace("_", " ").lower()
    for role, words in (("covariates", ("covariate", "confounder")), ("treatment", ("treatment",)),
                        ("instruments", ("instrument",)), ("outcome", ("outcome",)),
                        ("label", ("label", "class", r"anomal\w*")), ("prediction", ("prediction",)),
                        ("text", ("text column",)), ("prompt", ("prompt",)), ("answer", ("answer",)),
                        ("features", ("feature",)), ("target", ("target", "response"))):
        if any(re.search(rf"\b{w}(?:e?s)?\b", lowered) for w in words):
            return role
    return "target" if name in {"y", "response"} else "features"


def _tokens(text: str) -> list[str]:
    return [t for t in re.findall(r"[a-z]+|\d+", text.lower()) if t not in {"the", "of", "a", "an", "in", "and",
                                                                          "their", "his", "her", "its", "s"}]


def _stem_of(word: str) -> str:
    """A word without its inflection: "crazing" and "craze" are both "craz"."""
    return re.sub(r"(?:ation|ing|ion|ed|es|er|e|s)$", "", word) if len(word) > 4 else word


def match_phrase(phrase: str, column: str) -> float:
    """How well a prose phrase ("years of schooling", "earnings in 1974", "not having a degree") names the
    column ``column`` (``educ``, ``re74``, ``nodegree``): 1 the same name; 0.9 a word of the phrase begins
    with the column name or the reverse (4+ letters); 0.85 synonyms; 0.8 a year in the phrase ending in the
    column's number when their letters agree or the number is unique; 0.75 a long word inside the name."""
    phrase_l, col = phrase.lower().strip(" `'\""), column.lower()
    if phrase_l == col or phrase_l.replace(" ", "_") == col or phrase_l.replace(" ", "") == col:
        return 1.0
    # a possessor is not what the phrase names: "a route's average lateness" names the lateness, not the route
    words = _tokens(re.sub(r"\b[a-z]+['’]s\b", " ", phrase_l)) or _tokens(phrase_l)
    col_letters = re.sub(r"[^a-z]", "", col)
    col_digits = re.findall(r"\d+", col)
    name_parts = [t for t in re.split(r"[_\W\d]+", col) if t] or [""]
    score = 0.0
    for word in words:
        if word.isdigit():
            if col_digits and (word == col_digits[-1] or (len(word) == 4 and word.endswith(col_digits[-1])
                                                         and len(col_digits[-1]) == 2)):
                score = max(score, 0.6)
            continue
        if len(word) >= 4 and len(col_letters) >= 3 and (word.startswith(col_letters) or col_letters.startswith(word)
                                                        or (len(name_parts[0]) >= 3 and word.startswith(name_parts[0]))
                                                        or word[:5] == col_letters[:5]
                                                        or (len(name_parts[0]) >= 4 and _stem_of(word) == _stem_of(name_parts[0]))):
            score = max(score, 0.9)  # "fertiliser" names ``fert_kg``, "tutoring" ``tutored``, "crazing" ``craze_pct``
        elif len(word) >= 4 and len(col_letters) >= 3 and word[:4] == col_letters[:4]:
            score = max(score, 0.7)  # four letters alike only: "distance" is not ``district``
        elif len(word) >= 5 and word in col_letters:
            score = max(score, 0.75)
        for key, forms in SYNONYMS.items():
            if (word == key or word in forms or any(word.startswith(f) for f in forms if len(f) >= 4)) and (
                    col_letters in forms or any(col_letters.startswith(f) for f in forms if len(f) >= 3)):
                score = max(score, 0.85)
    # a camelCase or snake_case name is words too: "age" names ``patientAgeYears``, "days covered" ``daysCovered``
    tokens = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+", column)
    parts = {t.lower() for t in tokens if len(t) >= 3}
    if len(tokens) > 1 and len(tokens[0]) == 2 and re.search(rf"\b{re.escape(tokens[0].upper())}\b", phrase):
        score = max(score, 0.8)  # "substrate EC" names ``ec_ms_cm``: an acronym as the name's first word
    if len(tokens) > 1 and len(tokens[0]) == 3 and tokens[0].lower() in words:
        score = max(score, 0.8)  # "year-two GPA" names ``gpa_y2``: a short word that is the name's first part
    # an acronym the name holds, written out: "sea-surface temperature" names ``sst_c``, "body mass index" ``bmi``
    letters = [w for w in words if not w.isdigit()]
    initials = {"".join(w[0] for w in letters[i:j]) for i in range(len(letters)) for j in range(i + 2, len(letters) + 1)}
    if initials & {t.lower() for t in tokens if len(t) >= 2}:
        score = max(score, 0.85)
    if len(parts) > 1:
        singular = {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words}
        # a part a word begins with counts too: "lateness" names ``mins_late``
        hits = sum(1 for p in parts if p in words or (p[:-1] if p.endswith("s") and len(p) > 3 else p) in singular
                   or (len(p) >= 4 and any(w.startswith(p) for w in words)))
        if hits:
            score = max(score, min(0.95, 0.8 + 0.05 * (hits - 1)))
    if len(words) == 1 and len(name_parts) > 1 and len(words[0]) >= 4 and name_parts[-1] in {words[0], words[0][:-1]}:
        score = max(score, 0.85)  # the name's head noun alone: "round" for ``survey_round``, "strips" ``flower_strip``
    if score >= 0.6 and col_digits and not any(w.isdigit() for w in words) and len(col_letters) <= 3:
        score *= 0.8  # "earnings" alone could be any of re74, re75, re78
    if col_digits and any(w.isdigit() and (w == col_digits[-1] or w.endswith(col_digits[-1])) for w in words):
        score = min(1.0, score + 0.25) if score >= 0.6 else max(score, 0.6)
    return _in_time(phrase_l, col, score)


#: the times a phrase or a column name can point to: "this season's yield", "last season's yield" (``prev_yield_t``)
_TIMES = {"now": {"this", "current", "curr"}, "before": {"last", "previous", "prev", "prior", "earlier", "lagged", "lag",
                                                         "past"},
          "after": {"next", "following", "future", "later"}}


def _in_time(phrase: str, column: str, score: float) -> float:
    """``score`` where the phrase's time and the column's agree; none where they differ ("this season's yield" is not
    ``prev_yield_t``), less where only the phrase has one ("last season's yield" is more likely ``prev_yield_t``
    than ``yield_t_ha``)."""
    said = {t for t, words in _TIMES.items() if any(re.search(rf"\b{w}\b", phrase) for w in words)}
    named = {t for t, words in _TIMES.items() if set(re.split(r"[_\W\d]+", column)) & words}
    if said and named and not said & named:
        return 0.0
    if said - {"now"} and not named:
        return 0.7 * score
    return score


_LIST_END = re.compile(r"\.\s|\.$|\b(?:give|report|and then|then|so that|to estimate)\b|"
                       # "from elevation_m and debris_cm (the `stake` column is only a label)": an aside on another column
                       r"\s*\((?=[^()]{0,40}\b(?:is|are)\s+(?:only|just|merely|an?\s+(?:id|identifier|row\s+label))\b)|"
                       # "Inputs: n_links, caps_ratio and exclaim, nothing else": the list is closed, not an item
                       r",?\s+(?:and\s+|but\s+)?(?:nothing|none|no\s+others?)\s+(?:else|more|besides)\b|"
                       r"(?:\s+(?:are|is|have\s+been|has\s+been)\s+taken)?\s+into\s+account\b|"
                       r"\s+(?:are|is|have\s+been|has\s+been)\s+(?:allowed|accounted|adjusted|controlled|corrected)\s+for\b|"
                       # "margins for age band and home island, and a file of answers ...": the next file's description
                       r",?\s+and\s+(?:a|an|the|one)\s+(?:[\w-]+\s+){0,2}?(?:file|table|list|sheet|archive|csv)\b|"
                       # (", and use `years_farmed` as the instrument": a new instruction after "and")
                       r",\s+(?:and\s+(?:then\s+)?)?(?:estimate|compute|fit|plot|compare|show|use|run|test|bootstrap|bound|"
                       r"find|quote|check|predict|learn|train|summari[sz]e)\b|"
                       r",\s+(?:starting|beginning|using|keeping|taking|while|where|which)\b|"
                       # "a logistic regression of rooted on light and water, from the amortised network"
                       r",\s+(?:from|via|through)\s+(?:the|a|an|our)\b|"
                       # "adjusting for age and the acuity score, since the sickest ...": a reason, not an item
                       r",\s+(?:since|because|as|so|given\s+that|otherwise|but|though|although)\s|"
                       # "the photo vectors as well as floor area, rather than floor area alone": the set it replaces
                       r",?\s+(?:rather\s+than|instead\s+of|not\s+just)\b|"
                       # "on age_band, region and owns_dog using logistic weights that start from base_wt"
                       r"\s(?:using|with|via|by\s+means\s+of|through)\s+(?:a\s+|an\s+|the\s+)?(?:\w+[\s-]+){0,3}?"
                       r"(?:weights?|weighting|model|regression|method|procedure|raking|calibration|transformer|network|"
                       r"regressor|classifier)\b|"
                       # "balance region and sex with CBPS (...)": the method by its name
                       r"\s(?:using|with|via|by)\s+(?:CBPS|IPW|raking|post-?stratification|entropy\s+balancing)\b")


def list_end(tail: str) -> int:
    """Where a list that begins ``tail`` ends: at a sentence's end, a new instruction ("give", ", estimate the
    effect") or a clause that qualifies the whole ("..., starting from the design weights")."""
    end = _LIST_END.search(tail)
    return end.start() if end else len(tail)


def _levels_named(items: Sequence[str], names: Sequence[str], taken: set[str]) -> list[str]:
    """Items of a list with a slash: "urban/rural" is one variable named by its two levels when one of its parts
    names a column and the other names none; "age/sex" is two."""
    out: list[str] = []
    for item in items:
        parts = [p.strip() for p in item.split("/") if p.strip()]
        if len(parts) < 2:
            out.append(item)
            continue
        named = [p for p in parts if any(match_phrase(p, n) >= 0.6 for n in names if n not in taken)]
        out += named if named else parts
    return out


_ID_NAME = re.compile(r"(?:\w*_)?id|index|row|unit|pupil|person|subject|n", re.I)


def identifier(column: ColumnProfile) -> bool:
    """A column that names rows rather than measuring them: called an id (``id``, ``case_id``, ``index``, ``row``)
    unless its values are a few categories (a ``person`` column of "1sg", "2sg", ... is a grammatical concept), or
    holding a distinct integer in every row of more than twenty."""
    categories = column.unique <= 20 and column.count >= 3 * column.unique
    return (bool(_ID_NAME.fullmatch(column.name)) and not categories) or (
        column.integer and column.unique == column.count and column.count > 20)


def row_label(column: ColumnProfile) -> bool:
    """A column that names the rows: an :func:`identifier`, or text distinct in every row of more than twenty
    (``route`` holding "R000", "R001", ...)."""
    return identifier(column) or (not column.numeric and column.unique == column.count > 20)


def _content_fits(role: str, column: ColumnProfile, *, binary_treatment: bool) -> bool:
    if role == "treatment":
        return column.binary if binary_treatment else column.numeric and not column.constant
    if role in {"outcome", "target", "prediction"}:
        return column.numeric and not column.constant
    if role == "label":
        return column.binary or (column.unique <= 20 and column.count > column.unique)
    if role == "text":  # free text has words: a column of codes ("S000", "S001") is an identifier, not notes
        return not column.numeric and (not column.examples or any(" " in e.strip() for e in column.examples))
    if role in {"prompt", "answer"}:
        return not column.numeric or role == "answer"
    return not column.constant


def _named(clause: str, column: str) -> bool:
    return bool(re.search(rf"(?<![\w.-]){re.escape(column)}(?![\w-])", clause))


def sentences(text: str) -> list[str]:
    """The text cut into sentences and list items (a decimal point, "et al." and "e.g." end no sentence)."""
    parts = re.split(r"(?<=[.!?;])(?<!\bal\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bcf\.)(?<!\bvs\.)(?<!\bFig\.)(?<!\bEq\.)"
                     r"(?<!\bno\.)(?<!\bSec\.)(?<!\bp\.)\s+(?=[A-Z(*`\"'ΩΛ\d-])"
                     r"|(?<=[?!])\s+(?=[a-z])"  # "... change readmission within 72 hours? data/icu.csv has ..."
                     # "... whether they reduced basement flooding. parcels.csv has one row per parcel"
                     r"|(?<=[a-z0-9)]\.)\s+(?=[\w/-]+\.(?:csv|tsv|txt|dat|npz|npy|json)\b)"
                     r"|\n\s*\n|\n\s*[-*]\s+|\n(?=#)", text)
    return [p.strip() for p in parts if p and p.strip()]


def _clauses(text: str) -> list[str]:
    """The text's clauses, each on one line (a line break inside a sentence is a space)."""
    out = []
    for sentence in sentences(text):
        out += [" ".join(c.split()) for c in re.split(r";\s|\s[—–]\s", sentence) if c.strip()]
    return out


_LINK = r"(?:is|are|was|were|marks|records|gives|holds|contains|counts|says|flags|tells)"
_WORD_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"
_STOP = {"the", "their", "his", "her", "its", "of", "in", "on", "and", "for", "with", "whether", "they", "that",
         "which", "who", "this", "these", "those", "each", "per", "from", "how", "much", "many", "what"}


def glossary(text: str, columns: Sequence[str]) -> dict[str, str]:
    """What the text says each backticked column is: the words just before it ("net total financial assets
    `net_tfa`"), in brackets right after it ("`inc` (income)") or after a linking verb ("`treated` marks who
    enrolled in the programme") — so a role phrase elsewhere ("the effect of eligibility on net financial assets")
    can find the column by its description, not only by its name."""
    out: dict[str, list[str]] = {}
    flat = " ".join(text.split())
    for column in columns:
        for match in re.finditer(rf"`{re.escape(column)}`", flat):
            before = re.search(r"([A-Za-z0-9()' -]{3,60})$", flat[:match.start()])
            if before:
                words = re.split(r"\b(?:and|or|the covariates|covariates|with|whether)\b|[(),;:]", before.group(1))[-1]
                out.setdefault(column, []).append(" ".join(words.split()[-6:]))
            after = flat[match.end():]
            bracket = re.match(r"\s*\(([^()`]{2,60})\)", after)
            if bracket:
                out.setdefault(column, []).append(bracket.group(1))
            linked = re.match(rf"\s*{_LINK}\s+([^,;.()`]{{3,80}})", after)
            if linked:
                out.setdefault(column, []).append(linked.group(1))
        # "each patient's weekly minutes of supervised physio are in physio_min_wk": a description the column holds,
        # backticked or not
        for match in re.finditer(rf"([A-Za-z0-9' -]{{3,80}}?)\s+(?:is|are)\s+(?:recorded\s+|given\s+|stored\s+|kept\s+)?"
                                 rf"in\s+(?:the\s+)?(?:column\s+)?`?{re.escape(column)}`?(?![\w-])", flat):
            words = re.split(r"\b(?:and|or|with|whether)\b", match.group(1))[-1]
            out.setdefault(column, []).append(" ".join(words.split()[-6:]))
    # "[plot, clay_pct, ..., yield_t_ha] — that is the plot code, clay content in per cent, ..., and this season's
    # yield": a list of names, then their descriptions in the same order
    for match in re.finditer(r"\[\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*){1,40})\s*\]\s*[—–-]*\s*,?\s*"
                             r"(?:that\s+is|i\.e\.|namely|meaning|in\s+words)[:,]?\s+([^.]{10,600})", flat, re.I):
        names = [n.strip() for n in match.group(1).split(",")]
        said = [w.strip() for w in re.split(r",\s*(?:and\s+)?|\s+and\s+(?=the\b|this\b|last\b|its\b)", match.group(2))]
        if len(said) == len(names):
            for name, words in zip(names, said, strict=True):
                if name in columns:
                    out.setdefault(name, []).append(" ".join(words.split()[:8]))
    return {c: " ".join(parts) for c, parts in out.items()}


def _root(word: str) -> str:
    """A word's first five letters once an ending that only inflects it is gone ("newly" and "new", "decayed" and
    "decay")."""
    bare = re.sub(r"(?:ly|ed|ing|es|s)$", "", word)
    return (bare if len(bare) >= 3 else word)[:5]


def describes(phrase: str, description: str) -> float:
    """How well a role phrase ("net financial assets") matches a column's description ("net total financial
    assets"): the share of the phrase's content words found in the description (by their roots, :func:`_root`),
    0.9 for all of them; 0 below half."""
    words = [w for w in re.findall(r"[a-z]{3,}", phrase.lower()) if w not in _STOP]
    have = {_root(w) for w in re.findall(r"[a-z]{3,}", description.lower()) if w not in _STOP}
    if not words or not have:
        return 0.0
    # "this season's yield" is not "last season's maize yield": a time the phrase names must not be another one
    when = re.compile(r"\b(?:this|last|next|previous|prior|current|following|coming|later|earlier)\b")
    said, told = set(when.findall(phrase.lower())), set(when.findall(description.lower()))
    if said and told and not said & told:
        return 0.0
    share = sum(_root(w) in have for w in words) / len(words)
    return 0.9 * share if share >= 0.5 else 0.0


def _coordinated(clause: str, cue: re.Match[str]) -> str | None:
    """The word a cue is paired with by "and"/"or" ("both enrolment and completion", "completion or enrolment"),
    or None."""
    before = re.search(r"\b([A-Za-z][\w-]+)\s+(?:and|or)\s+$", clause[:cue.start()])
    after = re.match(r"\s+(?:and|or)\s+([A-Za-z][\w-]+)\b", clause[cue.end():])
    word = (after.group(1) if after else None) or (before.group(1) if before else None)
    return None if word is None or word.lower() in {"both", "either", "the", "a", "an"} else word


def _role_phrase(clause: str, cue: re.Match[str]) -> str:
    """The words after a role cue up to the next comma, bracket or verb-like break ("on earnings in 1978")."""
    tail = clause[cue.end():]
    # a question's verb ends it too: "how much extra yield does one more kg of nitrogen buy" -> "yield"
    # "the training on later earnings": what comes after "on" is another role's (the outcome's) phrase
    stop = re.search(r"[,;()`]|\s(?:ha(?:ve|s)\s+been|and|adjust\w*|control\w*|with|using|for|given|while|does|do|did|would|will|"
                     r"could|can|on|upon)\s|"
                     # "the drop in lesions per extra hour of pruning": the dose's words are another role's
                     r"\sper\s+(?:extra|additional|more)\s|"
                     # the indirect question's subject: "how many extra shoots per square metre the moorings buy us"
                     r"\s(?=(?:the|a|an|our|their|its)\s+(?:[\w-]+\s+){0,2}?(?:buy|buys|bought|give|gives|gave|add|adds|"
                     r"added|bring|brings|brought)\b)", tail)
    return tail[: stop.start()] if stop else tail[:80]


def _cue_pattern(role: str, name: str, cues: Sequence[str] = ()) -> re.Pattern[str]:
    """The words that cue a column argument: its role's, and the ones its method's field declares."""
    return re.compile("|".join([COLUMN_CUES.get(role, rf"\b{re.escape(name)}\b"), *cues]), re.I)


def map_columns(text: str, table: FileProfile, arguments: Mapping[str, str], *, taken: set[str],
                binary_treatment: bool = True, cues: Mapping[str, Sequence[str]] | None = None) -> list[Mapped]:
    """Scalar column arguments (name -> role) of one table, mapped by where the text names them, by the phrase it
    uses for them and by their content; see the module docstring for the confidence scale.  ``cues`` adds, per
    argument, the words its method's field uses for it."""
    clauses = _clauses(text)
    described = glossary(text, table.column_names)
    mapped: list[Mapped] = []
    ties: dict[str, tuple[list[tuple[str, float]], dict[str, str]]] = {}
    for name, role in arguments.items():
        # an earlier argument's column is not free, and a column that numbers the rows ("pupil is just a number")
        # plays no role, unless the text writes it as a column (`pupil`)
        columns = [c for c in table.columns if c.name not in taken
                   and not (identifier(c) and f"`{c.name}`" not in text)]
        cue_pattern = _cue_pattern(role, name, (cues or {}).get(name, ()))
        scores: dict[str, float] = {}
        why: dict[str, str] = {}
        # the role's words end where another role's list begins ("..., adjusting for age, ...")
        others = re.compile(COLUMN_CUES["covariates"] if role != "covariates" else r"(?!)", re.I)
        # "with the fault flag as the label" when two columns are fault flags: the clause that gives the role says
        # no more than that, whatever another clause's words lean to
        stated_tie: set[str] = set()
        for clause in clauses:
            cue = cue_pattern.search(clause)
            if cue is None:
                continue
            # "how much does terracing change yield": the cue is the treatment's own words, what follows is the outcome
            agent = _AGENT.match(clause, cue.start()) if role == "treatment" else None
            own_words = agent is not None and agent.end() == cue.end()
            if own_words:
                phrase, segment = cue.group(0), ""  # what follows "how much does X change" is the outcome's
            else:
                phrase = _role_phrase(clause, cue)
                stop = others.search(clause, cue.end())
                segment = clause[cue.end(): stop.start() if stop else len(clause)]
            # the first column named after the cue that can play the role ("kg per plant, `fruit_kg`": the
            # identifier `plant` cannot be an outcome)
            named_after = sorted((segment.find(c.name), c.name) for c in columns if _named(segment, c.name)
                                 and _content_fits(role, c, binary_treatment=binary_treatment))
            # "the minutes of outage per customer (the SAIDI column)": the brackets say which column the words mean
            bracket = re.search(r"\(\s*(?:the\s+)?`?([\w-]+)`?\s+column\s*\)|\(\s*column\s+`?([\w-]+)`?\s*\)", segment)
            if bracket is not None:
                said = bracket.group(1) or bracket.group(2)
                fitting = sorted(((1.0 if said.lower() == c.name.lower() else 0.95 if said.lower() == re.split(
                    r"[_\W]", c.name.lower())[0] else match_phrase(said, c.name), c.name) for c in columns), reverse=True)
                if fitting and fitting[0][0] >= 0.85 and (len(fitting) == 1 or fitting[1][0] < 0.85):
                    named_after = [(bracket.start(), fitting[0][1])]
            # (a column written plainly too: "predicted_risk is the model's score")
            link = re.search(rf"(?:`([^`]+)`|(?<![\w`-])([A-Za-z]\w*_\w+))\s+{_LINK}\b[^,;()`]{{0,50}}$", clause[:cue.start()])
            if link and (link.group(1) or link.group(2)) in {c.name for c in columns}:
                named_after = []  # "`got_loan` marks the farms that received ...": the cue describes got_loan
            # "`pass_given` (1 got it, 0 not), `visits_month` ...": a cue inside the bracket after a column describes it
            # (or "(pruning_hours, a continuous dose)": a cue in a bracket that opens with a column's name)
            glossed = re.search(r"`?([\w-]+)`?\s*\([^()]*$", clause[:cue.start()])
            glossed_column = glossed.group(1) if glossed and glossed.group(1) in {c.name for c in columns} else None
            opened = re.search(r"\(\s*`?([\w-]+)`?\s*[,;:]?[^()]*$", clause[:cue.start()])
            if glossed_column is None and opened and opened.group(1) in {c.name for c in columns}:
                glossed_column = opened.group(1)
            # "predicted_risk is the model's score": a cue inside a column's name names that column, not the next one
            word_start = cue.start() - (len(clause[:cue.start()]) - len(clause[:cue.start()].rstrip(_WORD_CHARS)))
            word_end = cue.start() + (len(clause[cue.start():]) - len(clause[cue.start():].lstrip(_WORD_CHARS)))
            if clause[word_start:word_end] in {c.name for c in columns}:
                named_after = []
            # "(the `smart_meter` flag)": a cue right after a column's name is that column's noun
            noun = re.search(r"`([\w-]+)`\s+$|(?<![\w-])([A-Za-z]\w*_[\w-]+)\s+$", clause[:cue.start()])
            if glossed_column is None and noun and (noun.group(1) or noun.group(2)) in {c.name for c in columns}:
                glossed_column = noun.group(1) or noun.group(2)
            if glossed_column is not None:
                named_after = []
            # "did the prescribed burns (rx_burn = 1) reduce ...": a column named in the agent of change is no outcome
            agents = [m.span() for m in _AGENT.finditer(clause)] if role == "outcome" else []
            for column in columns:
                value, reason = 0.0, ""
                said_at = [m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(column.name)}(?![\w-])", clause)]
                if agents and said_at and all(any(a <= at < b for a, b in agents) for at in said_at):
                    continue
                if named_after and column.name == named_after[0][1]:
                    value, reason = 0.95, f"named in “{clause.strip()[:90]}”"
                elif any(column.name == n for _, n in named_after):
                    value, reason = 0.75, f"named in “{clause.strip()[:90]}”"
                elif _named(clause, column.name):
                    value, reason = 0.6, f"named in “{clause.strip()[:90]}”"
                similar = match_phrase(phrase, column.name) if phrase.strip() else 0.0
                # the treatment's own words name it well or not at all: "the after-school programme" is not
                # ``free_school_meals`` for sharing "school"
                if 0.85 * similar > value and similar >= (0.85 if own_words else 0.6):
                    value, reason = 0.85 * similar, f"“{phrase.strip()[:40]}” reads as {column.name}"
                told = describes(phrase, described.get(column.name, "")) if phrase.strip() else 0.0
                if told > value:  # "on net financial assets" and "net total financial assets `net_tfa`"
                    value, reason = told, f"“{phrase.strip()[:40]}” is how the text describes {column.name}"
                plain = rf"|(?<![\w`-]){re.escape(column.name)}" if "_" in column.name else ""
                linked = re.search(rf"(?:`{re.escape(column.name)}`{plain})\s+{_LINK}\b[^,;()`]{{0,50}}$",
                                   clause[:cue.start()])
                if linked and 0.97 > value:  # "`y_factual` is their observed outcome"
                    value, reason = 0.97, f"“{linked.group(0)[:60]}{cue.group(0)}”"
                # a direction ("severity (higher is worse)") says how a column reads, which an outcome needs and a
                # covariate has too: a hint the question's own words for its outcome outweigh
                direction = re.fullmatch(_DIRECTION, cue.group(0), re.I) is not None
                # (a cue that is itself a column's name names that column: "a unit vector (x, y, z)" glosses no `x` by "y")
                if column.name == glossed_column and (0.7 if direction else 0.97) > value and \
                        cue.group(0) not in table.column_names:
                    value, reason = (0.7 if direction else 0.97), f"the bracket after {column.name} says “{cue.group(0)}”"
                if role in {"treatment", "instruments", "prediction"} and len(cue.group(0)) >= 5:  # "tutoring" names `tutored`
                    own = match_phrase(cue.group(0), column.name)
                    if own >= 0.85 and 0.85 * own > value:
                        value, reason = 0.85 * own, f"“{cue.group(0)}” names {column.name}"
                        # "columns for both enrolment and completion": the cue is one of two words that each name
                        # a column fit for the role, which says no more than that both are there
                        other = _coordinated(clause, cue)
                        rival = [c.name for c in columns if c.name != column.name and other and match_phrase(
                            other, c.name) >= 0.85 and _content_fits(role, c, binary_treatment=binary_treatment)]
                        if rival:
                            stated_tie |= {column.name, *rival}
                if value > scores.get(column.name, 0.0):
                    scores[column.name], why[column.name] = value, reason
            said = re.search(rf"(?:[\w-]+\s+){{1,3}}as\s+(?:the\s+|its\s+|our\s+)?{re.escape(role)}s?\b", clause, re.I)
            if said is not None and not any(_named(said.group(0), c.name) for c in columns):
                here = sorted(((match_phrase(said.group(0)[:said.group(0).lower().rfind(" as ")], c.name), c.name)
                               for c in columns if _content_fits(role, c, binary_treatment=binary_treatment)),
                              reverse=True)
                if len(here) > 1 and here[1][0] >= 0.6 and here[1][0] >= here[0][0] - 0.05:
                    stated_tie |= {c for v, c in here if v >= here[0][0] - 0.05}
        if len(stated_tie) > 1:
            top = max([scores.get(c, 0.0) for c in stated_tie] + [0.6])
            for c in stated_tie:
                scores[c], why[c] = top, why.get(c) or f"the text gives the {role} as words {c} shares with others"
        for column in columns:  # "`night_incidents` per year (the outcome)": a bracket that gives the role itself
            if _bracketed_role(text, column.name, role):
                scores, why = {column.name: 0.98}, {column.name: f"the text calls {column.name} the {role}"}
                break
        for column in columns:  # a column named after the role itself ("treatment", "outcome", "label", "y")
            if re.fullmatch(rf"{role}s?|{name}|{role[:5]}\w*", column.name, re.I) and scores.get(column.name, 0) < 0.7:
                scores[column.name], why[column.name] = 0.7, f"the column is called {column.name}"
            elif name.endswith("weight") and _WEIGHT_NAME.search(column.name) and column.numeric and \
                    scores.get(column.name, 0) < 0.7 and cue_pattern.search(text):  # "the design weights": `wt_frame`
                scores[column.name], why[column.name] = 0.7, f"{column.name} is named as a weight"
        fits = {c.name: c for c in columns if _content_fits(role, c, binary_treatment=binary_treatment)}
        if name.endswith("weight") and any(_WEIGHT_NAME.search(c) for c in fits):
            fits = {k: c for k, c in fits.items() if _WEIGHT_NAME.search(k)}  # weights are the columns named so
        scores = {k: v for k, v in scores.items() if k in fits}
        if role == "treatment":  # a 0/1 column is the usual treatment: it wins a tie
            scores = {k: v + (0.04 if fits[k].binary else 0.0) for k, v in scores.items()}
        if not scores and role in {"treatment", "label"}:
            binary = [c for c in fits.values() if c.binary]
            if len(binary) == 1:  # surer when the text names it ("with early_type = 1 for ellipticals")
                named = _named(text, binary[0].name)
                # blank in some rows, as the labels of a few checked rows are ("the handful we know are broken")
                checked = role == "label" and binary[0].missing > 0
                scores[binary[0].name] = 0.75 if named else 0.7 if checked else 0.55
                why[binary[0].name] = f"the only 0/1 column is {binary[0].name}" + (
                    ", and the text names it" if named else
                    f", blank in {binary[0].missing} rows as labels of the rows checked are" if checked else "")
        if not scores and role == "text" and len(fits) == 1 and cue_pattern.search(text):
            only = next(iter(fits.values()))  # the text asks for its notes, and one column holds free text
            scores[only.name], why[only.name] = 0.75, f"{only.name} is the only column of free text"
        if not scores:
            continue
        ranked = sorted(scores.items(), key=lambda kv: -kv[1])
        best, confidence = ranked[0][0], min(1.0, ranked[0][1])
        if len(ranked) > 1 and ranked[1][1] >= confidence - 0.05:
            confidence = min(confidence, 0.5)
            ties[name] = (ranked, why)
        mapped.append(Mapped(name, best, round(confidence, 2), why[best], tuple(k for k, _ in ranked[1:3])))
        if confidence >= ASK_BELOW:
            taken.add(best)
    return [_settle_tie(m, *ties[m.argument], taken) if m.argument in ties else m for m in mapped]


#: a role as a bracket after a column names it: "(the outcome)", "(our treatment)", "(= the label)"
_ROLE_BRACKET = {"outcome": r"outcome|response|dependent\s+variable", "treatment": r"treatment|exposure|intervention",
                 "label": r"labels?|class(?:\s+label)?", "target": r"target|response"}


def _bracketed_role(text: str, column: str, role: str) -> bool:
    """Whether a bracket that holds only ``role``'s word follows ``column``'s name within three words
    ("`night_incidents` per year (the outcome)"): the text says which column plays it."""
    words = _ROLE_BRACKET.get(role)
    if words is None:
        return False
    return re.search(rf"(?<![\w-])`?{re.escape(column)}`?(?:\s+[\w-]+){{0,3}}\s*\(\s*(?:=\s*)?(?:the|our|my|its)?\s*"
                     rf"(?:{words})\s*\)", text, re.I) is not None


def _settle_tie(mapped: Mapped, ranked: list[tuple[str, float]], why: Mapping[str, str], taken: set[str]) -> Mapped:
    """A tie between two columns of which another argument has since taken one for sure: the other is meant ("does
    a heavier backpack lead to more back pain": "back" reads as `backpack_kg` as well as "pain" as `pain_days`,
    but the treatment's own words took `backpack_kg`)."""
    top = ranked[0][1]
    tied = [(c, v) for c, v in ranked if v >= top - 0.05]
    free = [(c, v) for c, v in tied if c not in taken]
    rest = [v for c, v in ranked if c not in taken and (c, v) not in free]
    if len(tied) < 2 or len(free) != 1 or free[0][1] < ASK_BELOW or (rest and rest[0] >= free[0][1] - 0.05):
        return mapped
    column, value = free[0]
    taken.add(column)
    others = ", ".join(c for c, _ in tied if c != column)
    return Mapped(mapped.argument, column, round(min(1.0, value), 2),
                  f"{why[column]}; the tie with {others} is settled by another argument's taking it",
                  tuple(c for c, _ in ranked if c != column)[:2])


def _leftover_by_meaning(items: Sequence[str], columns: Sequence[str]) -> list[str]:
    """The columns that items no rule could map ("how wooded the corridor is") name, when the rest of the reading
    leaves exactly as many columns as items (at most three): the one-to-one assignment whose sentence embeddings
    (:func:`cmbagent.agents._meaning.embedder`) agree clearly — every pair at least 0.2 and the whole ahead of any
    other assignment by 0.1.  Empty when that is not so, or without the embedding model: the list is asked about."""
    from itertools import permutations

    if not items or len(items) != len(columns) or len(items) > 3:
        return []
    from cmbagent.agents._meaning import _vectors

    words = [re.sub(r"[_\W]+", " ", c).strip() for c in columns]
    vectors = _vectors([*items, *words])
    if vectors is None:
        return []
    similar = vectors[:len(items)] @ vectors[len(items):].T
    scored = sorted(((sum(float(similar[i, j]) for i, j in enumerate(order)), order)
                     for order in permutations(range(len(columns)))), reverse=True)
    best, order = scored[0]
    if any(similar[i, j] < 0.2 for i, j in enumerate(order)) or (len(scored) > 1 and scored[1][0] > best - 0.1):
        return []
    return [columns[j] for j in order]


#: a column named as a weight (``wt_frame``, ``base_weight``, ``wgt``): weights, never a variable to weight on
_WEIGHT_NAME = re.compile(r"(?:^|_)(?:wt|wgt|weights?)(?:_|$)", re.I)


#: a possessive of the model just before a cue: what follows describes the model's file ("an assistant's answer
#: shares when it was prompted to reply as someone living in each region"), not the table's columns
_MODEL_OWNS = re.compile(r"\b(?:assistant|model|chatbot|bot|LLM|AI|GPT)['’]s\s+$", re.I)


#: a list of columns followed by the role it plays: "with building density, elevation and river distance as controls"
_LIST_AS_ROLE = re.compile(r"\b(?:with|using|taking|treating|and)\s+((?:[\w`'-]+\s+){0,3}[\w`'-]+(?:\s*,\s*(?:and\s+)?"
                           r"(?:[\w`'-]+\s+){0,3}[\w`'-]+|\s+and\s+(?:[\w`'-]+\s+){0,3}[\w`'-]+)+)\s+as\s+(?:the\s+|our\s+)?"
                           r"(?:controls|covariates|confounders|adjustment\s+set)\b", re.I)


def map_column_list(text: str, table: FileProfile, name: str, role: str, *, taken: set[str],
                    cues: Sequence[str] = (), elsewhere: str | None = None) -> Mapped | None:
    """A list argument (covariates, features) from the phrase after its cue (its role's words or ``cues``):
    "adjusting for age, years of schooling and earnings in 1974 and 1975" — each item mapped with
    :func:`match_phrase`; the list's confidence is its least sure item's.  "all other columns" takes every
    column not taken."""
    cue_pattern = _cue_pattern(role, name, cues)
    # "one row per applicant" lists no `applicant`: a column called an id, or a first column numbering the rows
    names = [c.name for i, c in enumerate(table.columns)
             if not (identifier(c) and (i == 0 or _ID_NAME.fullmatch(c.name)))
             and not (role == "covariates" and _WEIGHT_NAME.search(c.name) and not _named(text, c.name))
             # a text label distinct in every row ("F0", "F1", ...) names the rows: no covariate of them
             and not (role == "covariates" and row_label(c) and f"`{c.name}`" not in text)]
    for clause in _clauses(text):
        cue = cue_pattern.search(clause)
        # "with building density, elevation and river distance as controls": the list before its role's words
        before = _LIST_AS_ROLE.search(clause) if role == "covariates" else None
        if before is not None and (cue is None or cue.start() < before.start(1)):
            cue = before
            clause = clause[:before.end(1)]
        if cue is None or _MODEL_OWNS.search(clause[:cue.start()]):
            continue  # "the assistant's answer shares": the model's file, not this table's columns
        tail = clause[cue.end():] if cue is not before else before.group(1)
        tail = tail[:list_end(tail)]
        # "on mite load and winter stores, leaving apiary altitude out": what the list leaves out is no item
        dropped = re.search(r",?\s*\b(?:leaving|leave|except|excluding|but\s+not|without)\b", tail, re.I)
        tail = tail[:dropped.start()] if dropped else tail
        cast = re.search(r"\s+as\s+(?:the\s+|our\s+)?(?:controls|covariates|confounders|adjustment\s+set)\b", tail)
        tail = tail[:cast.start()] if cast else tail  # "using age, distance and income as controls, with ..."
        # "four features in `screen.csv`: years of experience, ...": the list follows the file's colon
        tail = re.sub(r"`?[\w./-]+\.(?:csv|tsv|txt|dat|npz|npy|parquet|json|xlsx|dta|gz)\b`?", " ", tail)
        head, colon, rest = tail.partition(": ")
        tail = rest if colon and "," not in head else tail
        # "commute time in minutes, tenure in years and pay grade (columns `commute_min`, `tenure_yr`, `pay_grade`)":
        # a bracket that holds nothing but column names is the list the words before it describe
        for held in re.finditer(r"\(\s*(?:the\s+)?(?:columns?\s*:?\s*)?([^()]*(?:,|\band\b)[^()]*)\)", tail):
            inside = [i.strip(" .`'\"") for i in re.split(r",|\band\b", held.group(1)) if i.strip(" .`'\"")]
            if len(inside) >= 2 and all(i in names for i in inside):
                tail = held.group(1)
                break
        bracket = re.match(r"[^,;()]*\(([^()]*(?:,|\band\b)[^()]*)\)", tail)
        if bracket is not None and len(tail[:bracket.start(1)].split()) >= 2:
            tail = bracket.group(1)  # "the same two questions (service reliability and fares), one row per ...":
            # the list is what the brackets hold
        if re.search(r"\b(?:all|every|the)\s+(?:other|remaining|rest of the)\s+(?:columns?|variables?|features?|"
                     r"covariates?)\b|\beverything else\b", tail, re.I):
            return Mapped(name, [n for n in names if n not in taken], 0.85, f"“{clause.strip()[:90]}”")
        items = [i.strip(" .`'\"") for i in re.split(r",|\band\b|\bor\b|\bas well as\b", tail) if i.strip(" .`'\"")]
        # "(150 nests" counts the rows: no column of them
        items = [i for i in items if not re.match(r"\(?\s*\d[\d,]*\s+[A-Za-z]", i)]
        # what another input holds ("adjust for the photo vectors as well as floor area" with the vectors given as the
        # embeddings file): read there, no column of this table
        items = [i for i in items if not (elsewhere and re.search(elsewhere, i, re.I))]
        if not items:
            continue
        chosen: list[str] = []
        sure = 1.0
        unmapped: list[str] = []
        items = [*_levels_named(items, names, taken)]
        for item in items:
            if re.fullmatch(r"\d{2,4}", item):  # "earnings in 1974 and 1975": the year continues the last item
                previous = items[items.index(item) - 1] if items.index(item) else ""
                item = re.sub(r"\d{2,4}", item, previous) if re.search(r"\d{2,4}", previous) else item
            ranked = sorted(((match_phrase(item, n), n) for n in names if n not in taken and n not in chosen),
                            reverse=True)
            tied = [n for s, n in ranked if ranked and s >= 0.6 and s >= ranked[0][0] - 0.05]
            if len(tied) > 1 and re.search(r"\b(?:both|all|each|every|columns|variables)\b", item, re.I):
                chosen += tied  # "both pre-programme earnings columns": every column the words fit equally
                sure = min(sure, ranked[0][0])
            elif ranked and ranked[0][0] >= 0.6 and (len(ranked) == 1 or ranked[1][0] < ranked[0][0] - 0.05):
                chosen.append(ranked[0][1])
                sure = min(sure, ranked[0][0])
            elif len(item.split()) <= 6:
                unmapped.append(item)
                chosen.append(f"\0{item}")  # its place in the list, should meaning place it
        if unmapped and len(chosen) > len(unmapped):
            left = [n for n in names if n not in taken and n not in chosen and not _named(text, n)]
            placed = dict(zip(unmapped, _leftover_by_meaning(unmapped, left), strict=False))
            if placed:
                chosen = [placed[c[1:]] if c.startswith("\0") else c for c in chosen]
                sure = min(sure, 0.75)
                unmapped = []
        chosen = [c for c in chosen if not c.startswith("\0")]
        if chosen:
            confidence = sure if not unmapped else min(sure, 0.4)
            note = f"“{clause.strip()[:90]}”" + (f"; not mapped: {', '.join(unmapped)}" if unmapped else "")
            return Mapped(name, chosen, round(confidence, 2), note, tuple(unmapped))
    return None
