"""Choosing a method tool by what a task means, with a confidence, and asking when it is not clear.

A task written as a scientist writes it names no method: "did the programme raise earnings, adjusting for age
and schooling?" is a question for ``causal.dml_ate`` although it shares no keyword with it.  :func:`choose_method`
scores every registered method on three kinds of evidence:

* **meaning** — the task's sentences against the method's summary and the questions its field asks for it
  (:mod:`cmbagent.agents._fields`), by cosine similarity of the sentence embeddings of the all-MiniLM-L6-v2
  model the project ships (:class:`cmbagent.literature.MiniLMEmbedder`; without it the other two alone, and
  the choice says so);
* **words** — the method's keywords and the phrases of its field found in the text;
* **data** — whether the task's input files look like what the method reads (a redshift column, a binary
  treatment, a square covariance, a chain), and whether it needs data the task does not give.

The scores become probabilities (a softmax), and the choice is made only when the best method is clearly
ahead (:data:`CHOOSE`, :data:`MARGIN`).  Otherwise the task is ambiguous (``ask``: the caller asks the person,
naming the candidates and the front matter that pins each) or fits no method at all (``none``).  A language
model is offered the same candidates, never the whole catalogue, so it cannot pick a method of another field.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from cmbagent.agents._fields import words_of
from cmbagent.agents._patterns import compiled
from cmbagent.profiles import FileProfile

__all__ = ["CHOOSE", "MARGIN", "Candidate", "MethodChoice", "choose_method", "embedder", "sentences_of"]

#: the best method is chosen when its probability is at least this ...
CHOOSE = 0.6
#: ... and its score leads the runner-up's by this much (in score units; see :func:`_combine`)
MARGIN = 0.9
#: below these (best meaning similarity, best words score) no method fits the task
NONE_MEANING = 0.42
NONE_WORDS = 2.0
#: a task without a single word of the best method's field needs this much meaning
NONE_BARE = 0.5
_TEMPERATURE = 0.5
#: a task that disclaims the analysis a method would do: a look at the data, a plot, "no fit"
_DISCLAIMS = re.compile(r"\bno (?:\w+ )?(?:fit|fitting|modell?ing|analysis|detector|detection|inference)\b|"
                        r"\bbefore (?:any|we (?:go|start))\b[^.]{0,40}\b(?:fit\w*|hunt\w*|model\w*|analy\w*|"
                        r"detect\w*)|\bnothing more(?: yet)?\b|"
                        # "before we run anything on our bins, what is the difference between ...?"
                        r"\bbefore\s+(?:(?:we|I|you)\s+)?(?:run|running|fit|fitting|do|doing|start|starting)\s+"
                        r"(?:anything|any\s+(?:fits?|analys[ie]s|models?))\b|\bjust (?:the|a) (?:(?:quick|sanity|simple) )?(?:figure|plot|table)\b|"
                        # "a quick look at the table", "just a quick look"; not "a quick look at dark energy from our moduli"
                        r"\bjust\s+a\s+quick\s+look\b|\bquick\s+look\s+(?:at\s+)?(?:the|this|these|our|my|its)\s+(?:raw\s+)?"
                        r"(?:data|table|file|files|numbers|columns|distributions?|values|spreadsheet)\b", re.I)
#: analyses of other fields that no method tool does, by their usual names ("Krippendorff's alpha across the four
#: coders", "a Weibull fit of the bar strengths"): a task that asks for one is no task for a method whose own words
#: it barely uses, however well its table fits that method's input
_OTHER_ANALYSES = re.compile(
    r"\bKrippendorff|\b(?:Cohen|Fleiss)['’]?s?\s+kappa\b|\bintra-?class\s+correlation|\bCronbach|"
    r"\bHardy[-–\s]+Weinberg|\bWeibull|\bMichaelis[-–\s]+Menten|\bKaplan[-–\s]+Meier|\bCox\s+(?:proportional|regression|"
    r"model)|\blog-?rank\s+test|\bANOVA\b|\bt-tests?\b|\bMann[-–\s]+Whitney|\bWilcoxon|\bchi-?squared?\s+test|"
    r"\bGutenberg[-–\s]+Richter|\bb-values?\b|\breturn\s+(?:period|level)s?\b|\bGumbel\b|\bharmonic\s+analysis|"
    r"\btidal\s+(?:constituents|harmonics)|\bradiocarbon\s+(?:dates?\s+)?calibrat|\bBland[-–\s]+Altman|\bARIMA\b|"
    r"\bGranger\b|\bLomb[-–\s]+Scargle|\bkriging\b|\bprobit\b|\binter-?(?:rater|annotator|coder)\s+(?:agreement|reliability)|"
    # a jump at a cut-off and its manipulation test; the matter power spectrum and its halo-model versions
    r"\bregression\s+discontinuit|\bMcCrary\b|\bdensity\s+test\b|\bmatter\s+power\s+spectrum|\b(?:linear|non-?linear)\s+"
    r"P\(k\)|\bP\(k\)\s+of\s+the\s+matter\b|\bHMcode\b|\bhalo[- ]model\b|\btwo[- ]way\s+fixed[- ]effects?\b",
    re.I)
#: designs for panel data over time that no method tool estimates, whatever else the task says: the words of an
#: effect ("an overall average effect on teen employment") do not make a difference-in-differences a DML problem
_OTHER_DESIGNS = re.compile(
    r"\bdiff(?:erence)?[- ]in[- ]diff(?:erence)?s?\b|(?-i:\bDiD\b)|\bevent[- ](?:time|study)\s+(?:plot|design|estimat\w*|"
    r"coefficients?)\b|\bCallaway\b|"
    r"\bsynthetic\s+control\b|\binterrupted\s+time[- ]series\b", re.I)
#: a best method with more than this much of its own words is chosen even beside another field's analysis
OTHER_WORDS = 3.0
_W_MEANING, _W_WORDS, _W_DATA = 6.0, 1.0, 1.2
#: what a task puts off ("no summary statistics yet", "I don't want a fit for now"): the deferred words
_DEFERS = re.compile(r"\bno\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:yet|for now|at this stage)\b|"
                     r"\b(?:not|don't|do not)\s+(?:want|need)\s+(?:any\s+|the\s+|a\s+)?((?:[\w-]+\s+){0,2}?[\w-]+)\s+"
                     r"(?:yet|for now|at this stage)\b|"
                     # what the task says it does not need: "No means or intervals needed", "no fit required"
                     r"\bno\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:(?:is|are)\s+)?(?:needed|required|wanted|necessary)\b|"
                     # what the task declines in favour of something else: "No cosmological fit, just the conversion"
                     r"(?:^|[.;:!?]\s+)no\s+((?:[\w-]+\s+){0,2}?[\w-]+)\s*[,;:]\s*(?:just|only|merely)\b", re.I | re.M)


def _deferred(text: str, spec: Any) -> str | None:
    """The words of ``text`` that put off what ``spec`` does: a deferred phrase ("no summary statistics yet") or one
    not needed ("no means or intervals needed"), sharing a word stem with the method's name or summary
    ("Summarise an MCMC chain ...")."""
    own = {w[:6] for w in re.findall(r"[a-z]{5,}", f"{spec.name.replace('_', ' ')} {spec.summary}".lower())}
    # the verb of the method's name ("fit" of ``fit_supernovae``) names what it does, however short
    own |= {spec.name.split(".")[-1].split("_")[0]}
    for match in _DEFERS.finditer(text):
        deferred = next((g for g in match.groups() if g), "").lower()
        words = re.findall(r"[a-z]{5,}", deferred) + [w for w in re.findall(r"[a-z]{3,4}", deferred) if w in own]
        if any(w[:6] in own for w in words):
            return match.group(0)
    return None


@dataclass(frozen=True)
class Candidate:
    """One method's standing for a task."""

    method: str
    score: float
    probability: float
    meaning: float  # best cosine similarity of a task sentence with one of the method's texts
    words: float  # weighted count of the method's words in the task
    data: float  # -1 (its data are missing or of the wrong kind) … 1 (they look right)
    reasons: tuple[str, ...] = ()

    def line(self) -> str:
        why = "; ".join(self.reasons[:3])
        return f"{self.method} ({self.probability:.0%}{': ' + why if why else ''})"


@dataclass(frozen=True)
class MethodChoice:
    """What :func:`choose_method` made of a task: ``status`` is ``named`` (the front matter names the method),
    ``chosen`` (clearly one method), ``ask`` (several fit: ask which) or ``none`` (no method fits)."""

    status: Literal["named", "chosen", "ask", "none"]
    method: str | None
    candidates: tuple[Candidate, ...] = ()
    meaning_used: bool = True
    notes: tuple[str, ...] = field(default=())

    @property
    def confidence(self) -> float:
        if self.status == "named":
            return 1.0
        return self.candidates[0].probability if self.candidates else 0.0

    def top(self, k: int = 3, floor: float = 0.05) -> list[Candidate]:
        """The leading candidates (at most ``k``; each with at least ``floor`` probability, the first always)."""
        return [c for n, c in enumerate(self.candidates[:k]) if n == 0 or c.probability >= floor]

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "method": self.method, "confidence": round(self.confidence, 3),
                "meaning_used": self.meaning_used,
                "candidates": [{"method": c.method, "probability": round(c.probability, 3),
                                "meaning": round(c.meaning, 3), "words": round(c.words, 2), "data": round(c.data, 2),
                                "reasons": list(c.reasons)} for c in self.top(5, 0.0)]}


# -- embeddings ---------------------------------------------------------------------------------------------
_EMBEDDER: Any = None
_EMBEDDER_LOCK = threading.Lock()
_VECTORS: dict[str, np.ndarray] = {}


def embedder() -> Any:
    """The shared sentence embedder, or None when the model is not installed (``cmbagent[literature]``)."""
    global _EMBEDDER
    with _EMBEDDER_LOCK:
        if _EMBEDDER is None:
            from cmbagent.exceptions import ConfigError

            try:
                from cmbagent.literature import MiniLMEmbedder

                model = MiniLMEmbedder(threads=1)  # one thread: the same vectors, hence choices, everywhere
                model.embed(["probe"])  # loads the packaged model; ConfigError names the extra when it is absent
                _EMBEDDER = model
            except (ImportError, ConfigError):  # the extra is optional: the choice then says meaning was not used
                _EMBEDDER = False
    return _EMBEDDER or None


def _vectors(texts: Sequence[str]) -> np.ndarray | None:
    """Unit vectors of ``texts`` (cached per text in this process).  Each text is embedded on its own: in a batch
    its padding to the longest text changes the last digits, so a choice near a threshold would depend on what
    else this process read before (a task scored 0.4999 in one run and 0.510 in another)."""
    model = embedder()
    if model is None:
        return None
    for text in dict.fromkeys(texts):
        if text not in _VECTORS:
            _VECTORS[text] = model.embed([text])[0]
    return np.stack([_VECTORS[t] for t in texts]) if texts else np.zeros((0, 384), dtype=np.float32)


def sentences_of(text: str, limit: int = 40) -> list[str]:
    """The task's sentences and list items worth comparing (headings kept, code blocks and bare file lines
    dropped), at most ``limit``."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    parts = re.split(r"(?<=[.!?;:])\s+(?=[A-Z(*`\"'ΩΛ-])|\n\s*\n|\n\s*[-*]\s+|\n(?=#)|\n", text)
    out = []
    for part in parts:
        clean = part.strip().lstrip("#*-> ").strip()
        if len(re.findall(r"[A-Za-z]{3,}", clean)) >= 3:
            out.append(clean[:400])
    return out[:limit]


def _method_texts(spec: Any) -> list[str]:
    texts = [spec.summary, *words_of(spec.name).intents]
    if spec.keywords:
        texts.append(", ".join(spec.keywords[:12]))
    return texts


# -- the three kinds of evidence ----------------------------------------------------------------------------
def _cue_spans(specs: Sequence[Any], text: str) -> dict[str, list[tuple[int, int]]]:
    """Per method, where its field's specific phrases (weight 2 or more) match ``text``."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for spec in specs:
        spans[spec.name] = [m.span() for pattern, weight in words_of(spec.name).cues.items() if weight >= 2.0
                            for m in compiled(pattern, re.I).finditer(text)]
    return spans


def _word_hits(spec: Any, text: str, keyword_share: dict[str, int],
               claimed: Sequence[tuple[int, int]] = ()) -> tuple[float, list[str]]:
    """Weighted hits of the method's field phrases and keywords (a keyword shared by several methods counts
    less), and the phrases found.  A keyword met only inside another method's specific phrase (``claimed``) is
    that phrase's word, not this method's: "Planck 2018" in "everything else at the Planck 2018 baseline" (the
    spectra method's phrase) is no vote for the Planck fit."""
    score, found = 0.0, []
    for pattern, weight in words_of(spec.name).cues.items():
        match = compiled(pattern, re.I).search(text)
        if match:
            score += weight
            found.append(match.group(0).strip())
    seen = {f.lower() for f in found}
    for keyword in spec.keywords:
        if keyword.lower() in seen:
            continue
        hits = [m.span() for m in compiled(r"(?<![A-Za-z0-9])" + re.escape(keyword) + r"(?![A-Za-z0-9])", re.I).finditer(text)]
        # claimed: inside a longer phrase of another method (the same words as its phrase are both methods')
        if any(not any(a <= start and end <= b and b - a > end - start + 3 for a, b in claimed) for start, end in hits):
            score += 1.5 / keyword_share.get(keyword.lower(), 1)
            found.append(keyword)
    if compiled(r"\b" + re.escape(spec.name) + r"\b").search(text):
        score += 6.0
        found.append(spec.name)
    return score, found


def _data_fit(spec: Any, files: Sequence[FileProfile], required_inputs: bool) -> float:
    declared = words_of(spec.name).data
    if declared is not None:
        return float(declared(files))
    if required_inputs and not files:
        return -1.0
    return 0.0


def _combine(meaning: float, words: float, data: float) -> float:
    """One score: meaning dominates, words add with diminishing returns, data can veto (−1)."""
    return _W_MEANING * meaning + _W_WORDS * math.log1p(max(words, 0.0)) + _W_DATA * data


def choose_method(text: str, *, title: str = "", files: Sequence[FileProfile] | None = None,
                  named: str | None = None, methods: Sequence[Any] | None = None) -> MethodChoice:
    """The method ``text`` asks for, by meaning, words and data (see the module docstring).

    ``files`` are the profiles of the task's input files (None: unknown, so the data do not vote); ``named`` is the method the front matter names (it
    wins; the candidates are still ranked, so a mismatch can be reported); ``methods`` default to every
    registered one.
    """
    from cmbagent.tools.methods import iter_methods, path_arguments

    specs = list(methods if methods is not None else iter_methods())
    if not specs:
        return MethodChoice(status="none", method=None, notes=("no method tools are installed",))
    whole = f"{title}\n{text}".strip()
    share: dict[str, int] = {}
    for spec in specs:
        for keyword in {k.lower() for k in spec.keywords}:
            share[keyword] = share.get(keyword, 0) + 1
    sentences = sentences_of(whole) or [whole[:400]]
    method_texts = {spec.name: _method_texts(spec) for spec in specs}
    task_vectors = _vectors([*sentences, whole[:1500]])
    meaning_used = task_vectors is not None
    rows = []
    cue_spans = _cue_spans(specs, whole)
    for spec in specs:
        claimed = [span for name, spans in cue_spans.items() if name != spec.name for span in spans]
        words, found = _word_hits(spec, whole, share, claimed)
        required_inputs = any(kind == "input" and name in spec.required
                              for name, kind in path_arguments(spec.name).items())
        data = _data_fit(spec, files, required_inputs) if files is not None else 0.0
        meaning = 0.0
        if task_vectors is not None:
            sims = task_vectors @ _vectors(method_texts[spec.name]).T  # type: ignore[union-attr]
            ordered = np.sort(sims.ravel())[::-1]
            meaning = float(0.7 * ordered[0] + 0.3 * ordered[: min(3, ordered.size)].mean())
        reasons = []
        if found:
            reasons.append("words: " + ", ".join(f"'{w}'" for w in list(dict.fromkeys(found))[:4]))
        if meaning_used:
            reasons.append(f"meaning {meaning:.2f}")
        if data >= 0.7:
            reasons.append("the data look like its input")
        elif data <= -0.9:
            reasons.append("its input data are missing" if not files else "the data do not look like its input")
        rows.append((spec.name, _combine(meaning, words, data), meaning, words, data, tuple(reasons)))
    scores = np.array([r[1] for r in rows])
    probs = np.exp((scores - scores.max()) / _TEMPERATURE)
    probs /= probs.sum()
    ranked = sorted((Candidate(method=r[0], score=r[1], probability=float(p), meaning=r[2], words=r[3], data=r[4],
                               reasons=r[5]) for r, p in zip(rows, probs, strict=True)), key=lambda c: -c.score)
    notes: list[str] = []
    if not meaning_used:
        notes.append("the embedding model is not installed (pip install 'cmbagent[literature]'): the method was "
                     "chosen by words and data only")
    best = ranked[0]
    if named:
        if named != best.method and best.probability >= CHOOSE:
            notes.append(f"the front matter names {named}, but the task reads like {best.method}")
        return MethodChoice(status="named", method=named, candidates=tuple(ranked), meaning_used=meaning_used,
                            notes=tuple(notes))
    disclaimed = _DISCLAIMS.search(whole)
    deferred = _deferred(whole, next(spec for spec in specs if spec.name == best.method))
    if deferred:
        notes.append(f"the task puts off what {best.method} does (“{deferred}”)")
        return MethodChoice(status="none", method=None, candidates=tuple(ranked), meaning_used=meaning_used,
                            notes=tuple(notes))
    def asked(pattern: re.Pattern[str]) -> re.Match[str] | None:
        return next((m for m in pattern.finditer(whole) if not re.search(
            r"\b(?:not|no|rather\s+than|instead\s+of|without|beyond|unlike|than)\s+(?:an?\s+|the\s+)?(?:[\w'-]+\s+)?$",
            whole[max(0, m.start() - 30):m.start()], re.I)), None)

    other = asked(_OTHER_ANALYSES)
    design = asked(_OTHER_DESIGNS)
    if design is not None:
        notes.append(f"the task asks for {design.group(0).strip()} (“{_clip(whole, design.start())}”), a design for "
                     f"panel data over time that no method tool estimates")
        return MethodChoice(status="none", method=None, candidates=tuple(ranked), meaning_used=meaning_used,
                            notes=tuple(notes))
    if other is not None and best.words <= OTHER_WORDS:
        notes.append(f"the task asks for {other.group(0).strip()} (“{_clip(whole, other.start())}”), an analysis no "
                     f"method tool does; {best.method} matched it only weakly")
        return MethodChoice(status="none", method=None, candidates=tuple(ranked), meaning_used=meaning_used,
                            notes=tuple(notes))
    if (best.words < NONE_WORDS and (not meaning_used or best.meaning < NONE_MEANING) and not (
            best.words > 0 and best.data >= 0.7)) or (best.words == 0 and best.meaning < NONE_BARE) \
            or (best.words < NONE_WORDS and best.data <= -0.5) or (disclaimed and best.words < 6):
        # a field word and data of the right kind are enough; data alone, without a word of the field, are not;
        # nor a weak word with data of another kind; nor a task that says it wants no analysis ("no fit yet")
        notes += [f"the task says it wants no analysis yet (“{disclaimed.group(0)}”)"] if disclaimed else []
        # a field word and data of the right kind are enough; data alone, without a word of the field, are not
        return MethodChoice(status="none", method=None, candidates=tuple(ranked), meaning_used=meaning_used,
                            notes=tuple(notes))
    lead = best.score - ranked[1].score if len(ranked) > 1 else math.inf
    if best.probability >= CHOOSE and lead >= MARGIN and best.data > -0.9:
        return MethodChoice(status="chosen", method=best.method, candidates=tuple(ranked), meaning_used=meaning_used,
                            notes=tuple(notes))
    return MethodChoice(status="ask", method=None, candidates=tuple(ranked), meaning_used=meaning_used,
                        notes=tuple(notes))


def _clip(text: str, at: int, width: int = 90) -> str:
    """The sentence around position ``at``, cut to ``width`` characters."""
    start = max(text.rfind(". ", 0, at) + 2, 0) if text.rfind(". ", 0, at) >= 0 else 0
    end = text.find(". ", at)
    sentence = " ".join(text[start:end if end >= 0 else len(text)].split())
    return sentence if len(sentence) <= width else sentence[:width - 1] + "…"


def fingerprint() -> str:
    """A short hash of what the choice depends on (the catalogue's texts and the field words), for caches."""
    from cmbagent.tools.methods import iter_methods

    digest = hashlib.sha256()
    for spec in iter_methods():
        digest.update("\n".join(_method_texts(spec)).encode())
        digest.update(repr(sorted(words_of(spec.name).cues.items())).encode())
    return digest.hexdigest()[:12]
