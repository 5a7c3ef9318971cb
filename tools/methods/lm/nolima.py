"""NoLiMa-style long-context evaluation beyond literal matching (Modarressi et al., arXiv 2502.05167).

A needle ("Actually, Yuki lives next to the Semper Opera House.") is hidden at one of 26 depths in a haystack
of public-domain prose; the question ("Which character has been to Dresden?") shares no content word with it,
so finding it needs a one-hop latent association.  Literal controls ask about the landmark itself.  A model's
reply scores 1 when it contains the gold answer (the ``contains`` metric); the base score is the mean over the
short lengths (250, 500 and 1K tokens), and the effective length is the longest length up to which every
score stays at or above 85% of the base score.  A BM25 retriever on the same items is the lexical baseline:
near-perfect on literal needles and at chance on latent ones.

The haystack is filtered first: sentences naming any needle's landmark, city or character are dropped.
Token counts use the given local tokenizer folder, or a words-and-punctuation approximation.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.exceptions import ConfigError, DataError, ModelError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import check_positive, output_path
from cmbagent.tools.methods.lm._io import load_records
from cmbagent.tools.methods.lm._nolima_data import CHARACTERS, LANDMARKS, NEEDLE_TEMPLATES

__all__ = [
    "Needle",
    "NoLiMaItem",
    "base_score",
    "bm25_answer",
    "builtin_needles",
    "contains",
    "effective_length",
    "generate_items",
    "load_haystack",
    "nolima",
    "read_items",
    "write_items",
]

PAPER = Paper(
    title="NoLiMa: Long-Context Evaluation Beyond Literal Matching",
    arxiv="2502.05167",
    authors="Ali Modarressi, Hanieh Deilamsalehy, Franck Dernoncourt, Trung Bui, Ryan A. Rossi, Seunghyun Yoon, "
    "Hinrich Schütze",
    year=2025,
    code="adobe-research/NoLiMa",
)

DEFAULT_LENGTHS = (250, 500, 1000, 2000, 4000, 8000, 16000, 32000)
BASE_LENGTHS = (250, 500, 1000)
PROMPT = (
    "You will answer a question based on the following book snippet:\n\n{haystack}\n\n"
    "Use the information provided in the book snippet to answer the question. Your answer should be short and "
    "based on either explicitly stated facts or strong, logical inferences.\n\nQuestion: {question}\n\n"
    "Return only the final answer with no additional explanation or reasoning."
)
_PIECE = re.compile(r"\w+|[^\w\s]")
_SENTENCE = re.compile(r"(?<=[.!?;])[\"')\]]*\s+")


@dataclass(frozen=True)
class Needle:
    """One needle with its questions; ``answer`` is what a correct reply contains."""

    id: str
    needle: str
    question: str
    literal_question: str | None
    answer: str
    avoid: tuple[str, ...]  # phrases that must not occur in the haystack (keys, values, names)


@dataclass(frozen=True)
class NoLiMaItem:
    needle_id: str
    kind: str  # "latent" or "literal"
    length: int
    depth: float
    question: str
    answer: str
    sentences: tuple[str, ...]  # the haystack with the needle inserted, one sentence per entry
    needle_index: int

    @property
    def context(self) -> str:
        return " ".join(self.sentences)

    @property
    def prompt(self) -> str:
        return PROMPT.format(haystack=self.context, question=self.question)

    @property
    def id(self) -> str:
        """Stable name of the item: needle, question kind, length and depth."""
        return f"{self.needle_id}|{self.kind}|{self.length}|{self.depth:.4f}"


def builtin_needles(n: int | None = None, *, seed: int = 0) -> list[Needle]:
    """Landmark → city needles; each gets a character name and one of the needle templates (seeded)."""
    rng = np.random.default_rng(seed)
    items = list(LANDMARKS.items())
    order = rng.permutation(len(items))[: n or len(items)]
    names = rng.permutation(len(CHARACTERS))
    needles = []
    for rank, index in enumerate(order):
        landmark, city = items[index]
        character = CHARACTERS[names[rank % len(CHARACTERS)]]
        text, latent, literal = NEEDLE_TEMPLATES[rank % len(NEEDLE_TEMPLATES)]
        fill = {"character": character, "landmark": landmark, "city": city}
        needles.append(Needle(id=f"{landmark}-{rank % len(NEEDLE_TEMPLATES)}", needle=text.format(**fill),
                              question=latent.format(**fill), literal_question=literal.format(**fill),
                              answer=character, avoid=(landmark, city)))
    return needles


def _user_needles(path: str) -> list[Needle]:
    rows = load_records(path, argument="needles", required=("needle", "question", "answer"))
    needles = []
    for row, record in enumerate(rows, 1):
        needle, question, answer = (str(record[k]).strip() for k in ("needle", "question", "answer"))
        if not needle or not question or not answer:
            raise DataError(f"needles: row {row} has an empty needle, question or answer")
        if answer.lower() not in needle.lower():
            raise DataError(f"needles: row {row}: the answer {answer!r} does not occur in its needle; "
                            "the contains metric needs the needle to state the answer")
        literal = str(record.get("literal_question") or "").strip() or None
        avoid = record.get("avoid") or []
        if isinstance(avoid, str):
            avoid = [w.strip() for w in avoid.split(";") if w.strip()]
        needles.append(Needle(id=str(record.get("id") or f"needle-{row}"), needle=needle, question=question,
                              literal_question=literal, answer=answer, avoid=tuple(str(a) for a in avoid)))
    return needles


def load_haystack(path: str | None = None) -> str:
    """The haystack text: a user's UTF-8 file, or the shipped public-domain novel (see data/SOURCES.md)."""
    if path is None:
        return files("cmbagent.tools.methods.lm").joinpath("data/alice_in_wonderland.txt").read_text("utf-8")
    file = Path(path)
    if not file.is_file():
        raise UserError(f"haystack: file {path!r} not found; pass a plain-text file or omit it for the shipped text")
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"haystack: {path!r} is not UTF-8 text ({exc})") from exc
    if len(_PIECE.findall(text)) < 200:
        raise DataError(f"haystack: {path!r} has fewer than 200 tokens of text; give a longer text")
    return text


def _sentences(text: str) -> list[str]:
    flat = re.sub(r"\s+", " ", text.replace("_", " ")).strip()
    return [s.strip() for s in _SENTENCE.split(flat) if len(s.strip()) > 1]


def _filter(sentences: list[str], needles: Sequence[Needle]) -> list[str]:
    banned = {w.lower() for needle in needles for w in (*needle.avoid, needle.answer)} | {c.lower() for c in CHARACTERS}
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(banned, key=len, reverse=True)) + r")\b",
                         re.IGNORECASE)
    return [s for s in sentences if not pattern.search(s)]


def _counter(tokenizer: str | None) -> Callable[[str], int]:
    if tokenizer is None:
        return lambda text: len(_PIECE.findall(text))
    try:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(tokenizer, local_files_only=True)
    except Exception as exc:  # translate loader failures at the boundary
        raise UserError(f"tokenizer: could not load a tokenizer from the local folder {tokenizer!r} ({exc})") from exc
    return lambda text: len(tok(text, add_special_tokens=False)["input_ids"])


def generate_items(needles: Sequence[Needle], haystack: str, *, lengths: Sequence[int], n_depths: int = 26,
                   literal: bool = True, seed: int = 0, tokenizer: str | None = None) -> Iterator[NoLiMaItem]:
    """Yield every (needle, question kind, length, depth) item lazily (a 32K item holds ~150 kB of text)."""
    pool = _filter(_sentences(haystack), needles)
    if len(pool) < 10:
        raise DataError("haystack: fewer than 10 sentences remain after removing those that name a needle's "
                        "keywords; give a longer or different text")
    count = _counter(tokenizer)
    sizes = [count(s) for s in pool]
    rng = np.random.default_rng(seed)
    depths = np.linspace(0.0, 1.0, n_depths)
    for needle in needles:
        start = int(rng.integers(len(pool)))
        for length in lengths:
            budget = length - count(needle.needle)
            chosen: list[str] = []
            used, i = 0, start
            while used < budget:
                chosen.append(pool[i % len(pool)])
                used += sizes[i % len(pool)]
                i += 1
            cumulative = np.cumsum([0, *[sizes[(start + j) % len(pool)] for j in range(len(chosen))]])
            for depth in depths:
                index = int(np.searchsorted(cumulative, depth * used, side="left"))
                index = min(index, len(chosen))
                sentences = (*chosen[:index], needle.needle, *chosen[index:])
                kinds = [("latent", needle.question)]
                if literal and needle.literal_question:
                    kinds.append(("literal", needle.literal_question))
                for kind, question in kinds:
                    yield NoLiMaItem(needle_id=needle.id, kind=kind, length=int(length), depth=float(depth),
                                     question=question, answer=needle.answer, sentences=sentences,
                                     needle_index=index)


def contains(reply: str, answer: str) -> bool:
    """NoLiMa's metric: the gold answer occurs in the reply (case-insensitive, as a whole word)."""
    return re.search(r"\b" + re.escape(answer.lower()) + r"\b", reply.lower()) is not None


ITEM_FIELDS = ("id", "needle_id", "kind", "length", "depth", "question", "answer", "needle_index", "sentences")


def write_items(items: Iterable[NoLiMaItem], path: str | Path) -> int:
    """Write items as JSON lines, xz-compressed when ``path`` ends in ``.xz``; returns how many were written.

    Each line is self-contained: ``id``, ``needle_id``, ``kind`` (latent/literal), ``length``, ``depth``,
    ``question``, ``answer`` (what a correct reply contains), ``needle_index`` and ``sentences`` (the haystack
    with the needle at that index; the context is the sentences joined by spaces) and ``prompt`` (the prompt a
    model is asked).  Consecutive items share most of their text, so xz shrinks them about 300-fold (56 MB to
    0.16 MB for 2,496 items up to 8K tokens).
    """
    import lzma

    target = Path(path)
    count = 0
    with (lzma.open(target, "wt", encoding="utf-8", preset=1) if target.suffix == ".xz"
          else target.open("w", encoding="utf-8")) as out:
        for item in items:
            row = {"id": item.id, "needle_id": item.needle_id, "kind": item.kind, "length": item.length,
                   "depth": item.depth, "question": item.question, "answer": item.answer,
                   "needle_index": item.needle_index, "sentences": list(item.sentences), "prompt": item.prompt}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    return count


def read_items(path: str) -> list[NoLiMaItem]:
    """Items written by :func:`write_items` (``.jsonl`` or ``.jsonl.xz``), checked line by line."""
    import lzma

    file = Path(path)
    if not file.is_file():
        raise UserError(f"items: file {path!r} not found; pass a file written with save_items=true")
    items = []
    try:
        with (lzma.open(file, "rt", encoding="utf-8") if file.suffix == ".xz"
              else file.open(encoding="utf-8")) as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                row = json.loads(line)
                missing = [k for k in ITEM_FIELDS if k not in row] if isinstance(row, dict) else list(ITEM_FIELDS)
                if missing:
                    raise DataError(f"items: line {number} of {path!r} lacks {missing}; write items with save_items")
                sentences = tuple(str(x) for x in row["sentences"])
                item = NoLiMaItem(needle_id=str(row["needle_id"]), kind=str(row["kind"]), length=int(row["length"]),
                                  depth=float(row["depth"]), question=str(row["question"]), answer=str(row["answer"]),
                                  sentences=sentences, needle_index=int(row["needle_index"]))
                if not 0 <= item.needle_index < len(sentences) or item.kind not in ("latent", "literal"):
                    raise DataError(f"items: line {number} of {path!r} has needle_index {item.needle_index} for "
                                    f"{len(sentences)} sentences or kind {item.kind!r}; the file is damaged")
                items.append(item)
    except (lzma.LZMAError, json.JSONDecodeError, UnicodeDecodeError, TypeError, ValueError) as exc:
        raise DataError(f"items: could not read {path!r} as saved NoLiMa items ({exc})") from exc
    if not items:
        raise DataError(f"items: {path!r} holds no items")
    return items


def _read_replies(path: str, items: Sequence[NoLiMaItem]) -> list[str]:
    """Another system's replies (CSV/JSONL with ``id`` and ``reply``), in the order of ``items``."""
    rows = load_records(path, argument="replies", required=("id", "reply"))
    by_id = {str(r["id"]): str(r["reply"] if r["reply"] is not None else "") for r in rows}
    ids = [item.id for item in items]
    missing = [i for i in ids if i not in by_id]
    unknown = sorted(set(by_id) - set(ids))
    if missing or unknown:
        raise DataError(f"replies: {len(missing)} item(s) without a reply (first {missing[:3]}) and {len(unknown)} "
                        f"reply id(s) that are no item (first {unknown[:3]}); give one row per item id of the items "
                        "scored (save them with save_items=true)")
    return [by_id[i] for i in ids]


# Lucene's default English stop words: BM25 baselines (Lucene, Pyserini) drop them before ranking
_STOP = frozenset("a an and are as at be but by for if in into is it no not of on or such that the their then there "
                  "these they this to was will with".split())


def _bm25_tokens(text: str) -> list[str]:
    return [w for w in (t.lower() for t in re.findall(r"\w+", text)) if w not in _STOP]


def bm25_answer(item: NoLiMaItem) -> str:
    """BM25 (rank-bm25 Okapi) over the item's sentences with the question as query; the reply is the top sentence.

    Ties at the top (e.g. no query word occurs anywhere) are broken by a seeded draw, so an uninformed
    retriever scores at chance rather than by the needle's position.
    """
    from rank_bm25 import BM25Okapi

    bm25 = BM25Okapi([_bm25_tokens(s) for s in item.sentences])
    scores = bm25.get_scores(_bm25_tokens(item.question))
    best = np.flatnonzero(scores == scores.max())
    # ties (e.g. no query word occurs anywhere) are broken at random: the retriever knows nothing then
    # a stable hash: Python's hash() of a string changes with every process (PYTHONHASHSEED), so it gave a
    # different tie-break, and a different score, on each run of the same seeded benchmark
    key = f"{item.question}\x00{item.length}\x00{round(item.depth, 6)}".encode()
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(key).digest()[:8], "little"))
    return item.sentences[int(rng.choice(best))]


def base_score(scores: dict[int, float], base_lengths: Sequence[int] = BASE_LENGTHS) -> float:
    """Mean score over the short lengths (250, 500, 1K); the shortest length's score when none of them was run."""
    short = [scores[length] for length in base_lengths if length in scores]
    return float(np.mean(short)) if short else float(scores[min(scores)])


def effective_length(scores: dict[int, float], base: float | None = None, *, threshold: float = 0.85
                     ) -> tuple[int | None, str]:
    """Longest length up to which every score is ≥ threshold × base; (None, "<L") when the shortest fails.

    Lengths used for the base score count too when they are in ``scores``; pass only the lengths to judge
    (e.g. 1K–32K, as in the paper's table) to reproduce its column.
    """
    if not scores:
        raise UserError("scores: no scores per length to judge")
    reference = base_score(scores) if base is None else float(base)
    best: int | None = None
    for length in sorted(scores):
        if scores[length] < threshold * reference:
            break
        best = length
    if best is None:
        return None, f"<{_label(min(scores))}"
    return best, _label(best)


def _label(length: int) -> str:
    return f"{length // 1000}K" if length >= 1000 and length % 1000 == 0 else str(length)


def _query_model(spec: str, items: list[NoLiMaItem], *, concurrency: int, max_tokens: int) -> list[str]:
    from cmbagent.models import Message, ModelRequest, ModelSettings, resolve

    if spec.strip() == "offline":
        raise UserError("model: 'offline' is the no-LLM planning backend, not a language model; pass a spec such as "
                        "openai-compatible:<model>@http://127.0.0.1:8000/v1 (or omit model for the BM25 baseline)")
    try:
        llm = resolve(spec)
    except ConfigError as exc:
        raise UserError(f"model: {exc}") from exc
    settings = ModelSettings(temperature=0.0, max_tokens=max_tokens)

    def ask(item: NoLiMaItem) -> str:
        request = ModelRequest(messages=[Message(role="user", content=item.prompt)], settings=settings, agent="nolima")
        return llm.request(request).text

    try:
        # the first request runs alone: adapters import their SDK lazily, and concurrent first imports race
        first = [ask(items[0])] if items else []
        with ThreadPoolExecutor(max_workers=concurrency) as pool:
            return first + list(pool.map(ask, items[1:]))
    except ModelError as exc:  # unreachable server, unknown model, refused request: the caller fixes the spec
        raise UserError(f"model: {exc}") from exc


def _tables(items: list[NoLiMaItem], correct: list[bool], kind: str) -> tuple[dict[int, float], dict[str, Any]]:
    by_length: dict[int, list[bool]] = {}
    grid: dict[int, dict[float, list[bool]]] = {}
    for item, ok in zip(items, correct, strict=True):
        if item.kind != kind:
            continue
        by_length.setdefault(item.length, []).append(ok)
        grid.setdefault(item.length, {}).setdefault(round(item.depth, 4), []).append(ok)
    scores = {length: 100.0 * float(np.mean(v)) for length, v in sorted(by_length.items())}
    heat = {str(length): {str(d): 100.0 * float(np.mean(v)) for d, v in sorted(row.items())}
            for length, row in sorted(grid.items())}
    return scores, heat


def _plot(path: str, heat: dict[str, Any], title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lengths = list(heat)
    depths = list(next(iter(heat.values())))
    matrix = np.array([[heat[length][d] for length in lengths] for d in depths])
    fig, ax = plt.subplots(figsize=(1.0 * len(lengths) + 2.5, 5))
    image = ax.imshow(matrix, vmin=0, vmax=100, cmap="RdYlGn", aspect="auto", origin="upper")
    ax.set_xticks(range(len(lengths)), [_label(int(length)) for length in lengths])
    step = max(1, len(depths) // 6)
    ax.set_yticks(range(0, len(depths), step), [f"{100 * float(depths[i]):.0f}%" for i in range(0, len(depths), step)])
    ax.set_xlabel("context length (tokens)")
    ax.set_ylabel("needle depth")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="score (contains, %)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


@method(
    "lm.nolima",
    paper=PAPER,
    keywords=["NoLiMa", "needle in a haystack", "long context", "effective length", "latent association",
              "literal matching", "BM25", "retrieval", "context window", "benchmark", "language model evaluation"],
    example="nolima(lengths=[250, 500, 1000, 2000, 4000], n_needles=8, n_depths=26)",
)
def nolima(
    model: str | None = None,
    lengths: list[int] | None = None,
    n_needles: int = 8,
    n_depths: int = 26,
    needles: InputFile | None = None,
    haystack: InputFile | None = None,
    literal_controls: bool = True,
    tokenizer: str | None = None,
    max_context: int | None = None,
    concurrency: int = 4,
    max_tokens: int = 64,
    save_items: bool = False,
    items: InputFile | None = None,
    replies: InputFile | None = None,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Run a NoLiMa-style needle-in-a-haystack benchmark with latent-association questions.

    Generates needles at ``n_depths`` depths in haystacks of each length, asks the question, scores replies with
    ``contains``, and reports the score per length and depth, the base score (250/500/1K) and the effective
    length (longest length keeping ≥ 85% of the base score). The BM25 baseline always runs on the same items;
    the language model runs when ``model`` is a spec of the models layer (e.g.
    ``openai-compatible:<model>@http://127.0.0.1:8000/v1`` for a local server, ``openai:<model>``). To score
    another system on the same items: ``save_items`` writes them (``nolima_items.jsonl.xz``: one JSON line per
    item with its id, prompt, sentences and answer), the system answers each prompt, and a rerun with ``items``
    and ``replies`` (one row per item id with its reply) scores the replies exactly as a model's.

    Args:
        model: Model spec to evaluate (omit for the BM25 baseline only).
        lengths: Context lengths in tokens (default 250, 500, 1K, 2K, 4K, 8K, 16K, 32K).
        n_needles: Number of built-in needles (landmark → city associations) to use.
        n_depths: Needle depths from 0% to 100% (the paper uses 26).
        needles: Optional CSV/JSONL of needles (needle, question, answer, optional literal_question and avoid).
        haystack: Optional plain-text file for the haystack (default: shipped public-domain novel).
        literal_controls: Also ask the literal questions (the control condition).
        tokenizer: Optional local tokenizer folder for exact token counts (default: words and punctuation).
        max_context: The evaluated model's context window in tokens; longer lengths are refused.
        concurrency: Parallel requests to the model.
        max_tokens: Reply length limit per request.
        save_items: Write the benchmark's items to output_dir/nolima_items.jsonl.xz (xz-compressed JSON lines).
        items: A file written by save_items to score instead of generating items (the generation arguments are
            then unused).
        replies: A file of another system's answers to the items (CSV/JSONL, one row per item: id and reply),
            scored like a model's.
        seed: Random seed (needle characters, haystack offsets).
        output_dir: Folder for the heat map and the saved items.
    """
    if model is not None and replies is not None:
        raise UserError("model, replies: give either a model to ask or the replies of another system, not both")
    if items is not None:
        if needles is not None or haystack is not None or lengths is not None:
            raise UserError("needles, haystack, lengths: the saved items fix them; omit them when passing items")
        benchmark = read_items(items)
        lengths = sorted({item.length for item in benchmark})
    else:
        lengths = sorted(DEFAULT_LENGTHS if lengths is None else {int(v) for v in lengths})
    if not lengths:
        raise UserError("lengths: give at least one context length")
    if lengths[0] < 50:
        raise UserError(f"lengths: {lengths[0]} is too short for a haystack; use 250 tokens or more")
    check_positive(n_depths, argument="n_depths", integer=True)
    check_positive(concurrency, argument="concurrency", integer=True)
    if max_context is not None and lengths[-1] + 150 > max_context:
        raise UserError(f"lengths: {lengths[-1]} tokens plus the prompt (~150 tokens) exceed max_context={max_context}; "
                        f"drop lengths above {max_context - 150}")
    start = time.perf_counter()
    if items is None:
        pool = _user_needles(needles) if needles is not None else builtin_needles(n_needles, seed=seed)
        if needles is None:
            check_positive(n_needles, argument="n_needles", integer=True)
        text = load_haystack(haystack)
        start = time.perf_counter()
        benchmark = list(generate_items(pool, text, lengths=lengths, n_depths=n_depths, literal=literal_controls,
                                        seed=seed, tokenizer=tokenizer))
        needle_texts = [n.needle for n in pool]
    else:
        needle_texts = list(dict.fromkeys(item.sentences[item.needle_index] for item in benchmark))
    n_pool = len({item.needle_id for item in benchmark})
    depths = len({round(item.depth, 4) for item in benchmark})
    bm25_correct = [contains(bm25_answer(item), item.answer) for item in benchmark]
    bm25_seconds = time.perf_counter() - start
    values: dict[str, Any] = {"n_items": len(benchmark)}
    checks: list[Check] = []
    kinds = ["latent", *(["literal"] if any(i.kind == "literal" for i in benchmark) else [])]
    for kind in kinds:
        scores, _ = _tables(benchmark, bm25_correct, kind)
        values[f"bm25_{kind}_scores"] = scores
        values[f"bm25_{kind}_mean"] = float(np.mean(list(scores.values())))
    # a retriever that picks a sentence at random finds the needle with probability 1 / (number of sentences)
    values["chance_scores"] = {length: 100.0 * float(np.mean([1 / len(i.sentences) for i in benchmark
                                                               if i.length == length])) for length in lengths}
    chance = float(np.mean(list(values["chance_scores"].values())))
    checks.append(Check(name="latent questions defeat lexical search",
                        passed=values["bm25_latent_mean"] <= chance + 5.0,
                        message=f"BM25 latent score {values['bm25_latent_mean']:.1f}% vs chance {chance:.1f}%"))
    if "literal" in kinds:
        checks.append(Check(name="BM25 finds literal needles", passed=values["bm25_literal_mean"] >= 95.0,
                            message=f"BM25 literal score {values['bm25_literal_mean']:.1f}%"))
    heat_title = "BM25 on latent questions"
    _, heat = _tables(benchmark, bm25_correct, "latent")
    summary_model = ""
    if model is not None or replies is not None:
        t0 = time.perf_counter()
        if model is not None:
            answers = _query_model(model, benchmark, concurrency=concurrency, max_tokens=max_tokens)
            system = model
        else:
            answers = _read_replies(str(replies), benchmark)
            system = f"the replies in {Path(str(replies)).name}"
        model_seconds = time.perf_counter() - t0
        correct = [contains(reply, item.answer) for reply, item in zip(answers, benchmark, strict=True)]
        for kind in kinds:
            scores, grid = _tables(benchmark, correct, kind)
            base = base_score(scores)
            judged = {k: v for k, v in scores.items() if k not in BASE_LENGTHS} or scores
            eff, label = effective_length(judged, base)
            values[f"{kind}_scores"] = scores
            values[f"{kind}_base_score"] = base
            values[f"{kind}_effective_length"] = eff
            values[f"{kind}_effective_length_label"] = label
            if kind == "latent":
                heat, heat_title = grid, f"{system if model else 'replies'} on latent questions"
        values["model_seconds"] = model_seconds
        summary_model = (f" {system}: latent base score {values['latent_base_score']:.1f}, effective length "
                         f"{values['latent_effective_length_label']}; scores per length "
                         + ", ".join(f"{_label(k)} {v:.1f}" for k, v in values["latent_scores"].items()) + ".")
        checks.append(Check(name="model answers at short contexts", passed=values["latent_base_score"] > 0,
                            message=f"latent base score {values['latent_base_score']:.1f}"))
    figure = output_path(output_dir, "nolima_heatmap.png")
    _plot(str(figure), heat, heat_title)
    artifacts = [str(figure)]
    saved = ""
    if save_items:
        path = output_path(output_dir, "nolima_items.jsonl.xz")
        write_items(benchmark, path)
        artifacts.append(str(path))
        values["items_file"] = str(path)
        saved = (f" The {len(benchmark)} items are saved in {path.name} (JSON lines: id, prompt, sentences, answer); "
                 "score another system's replies on them with items and replies (one row per id).")
    source = f"read from {Path(str(items)).name}" if items is not None else "generated"
    summary = (
        f"NoLiMa-style benchmark ({source}): {n_pool} needles × {depths} depths × {len(lengths)} lengths "
        f"({_label(lengths[0])}–{_label(lengths[-1])}), {len(benchmark)} items. BM25 baseline: "
        f"{values['bm25_latent_mean']:.1f}% on latent questions"
        + (f", {values['bm25_literal_mean']:.1f}% on literal controls" if "literal" in kinds else "")
        + "." + summary_model + saved
    )
    return MethodResult(
        summary=summary, values=values, checks=checks, artifacts=artifacts,
        diagnostics={"latent_heatmap": heat, "bm25_seconds": bm25_seconds,
                     "bm25_items_per_second": len(benchmark) / max(bm25_seconds, 1e-9),
                     "needles": needle_texts, "token_count": tokenizer or "words and punctuation"},
    )
