"""Ranking: BM25 over an in-memory table of the collection, and reciprocal-rank fusion with dense hits.

Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009) adds ``1 / (60 + rank)`` over the rankings a
chunk appears in: it needs no score calibration between cosine similarities and BM25 scores, which live
on unrelated scales.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cmbagent.literature._chunk import Chunk
from cmbagent.literature._tokens import tokenize

__all__ = ["RRF_K", "Hit", "SearchTable", "fuse"]

RRF_K = 60


@dataclass(frozen=True)
class Hit:
    """One search result: the chunk, the score that ranked it, and its rank in each ranking (1-based)."""

    chunk: Chunk
    score: float
    rank: int
    dense_rank: int | None = None
    bm25_rank: int | None = None
    dense_score: float | None = None
    bm25_score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        c = self.chunk
        return {
            "rank": self.rank, "score": round(self.score, 6), "chunk_id": c.chunk_id, "source": c.source,
            "kind": c.kind, "page": c.page,
            "lines": [c.line_start, c.line_end] if c.line_start is not None else None,
            "cell": c.cell, "heading": c.heading, "locator": c.locator,
            "dense_rank": self.dense_rank, "bm25_rank": self.bm25_rank,
            "dense_score": None if self.dense_score is None else round(self.dense_score, 6),
            "bm25_score": None if self.bm25_score is None else round(self.bm25_score, 6),
            "text": c.text,
        }


@dataclass
class SearchTable:
    """Every chunk of a collection at one revision, with BM25 over their texts.

    ``rank_bm25.BM25Okapi`` computes the statistics (idf with its epsilon floor, document lengths, k1, b);
    its per-query scoring walks a Python dict per document, which takes hundreds of milliseconds at 10k
    chunks, so the same per-term weights are laid out once in a sparse term matrix and a query sums the
    columns of its terms (a test checks the scores equal ``BM25Okapi.get_scores``).
    """

    revision: int
    chunks: list[Chunk]
    by_id: dict[str, int]
    model: Any
    vocabulary: dict[str, int]
    weights: Any  # scipy.sparse CSC matrix, chunks x terms

    @classmethod
    def build(cls, revision: int, chunks: list[Chunk]) -> SearchTable:
        from rank_bm25 import BM25Okapi
        from scipy.sparse import csc_matrix

        corpus = [tokenize(f"{c.embedding_text()}\n{_source_words(c.source)}") for c in chunks]
        model = BM25Okapi(corpus) if any(corpus) else None
        vocabulary: dict[str, int] = {}
        rows: list[int] = []
        cols: list[int] = []
        values: list[float] = []
        if model is not None:
            vocabulary = {term: j for j, term in enumerate(model.idf)}
            for i, (freqs, length) in enumerate(zip(model.doc_freqs, model.doc_len, strict=True)):
                norm = model.k1 * (1 - model.b + model.b * length / model.avgdl)
                for term, tf in freqs.items():
                    rows.append(i)
                    cols.append(vocabulary[term])
                    values.append(model.idf[term] * tf * (model.k1 + 1) / (tf + norm))
        weights = csc_matrix((values, (rows, cols)), shape=(len(chunks), max(len(vocabulary), 1)))
        return cls(revision=revision, chunks=chunks, by_id={c.chunk_id: i for i, c in enumerate(chunks)},
                   model=model, vocabulary=vocabulary, weights=weights)

    def bm25_scores(self, tokens: list[str]) -> np.ndarray:
        """BM25 score of every chunk for the query ``tokens`` (a repeated token counts again, as in rank-bm25)."""
        columns = [self.vocabulary[t] for t in tokens if t in self.vocabulary]
        if not columns:
            return np.zeros(len(self.chunks))
        return np.asarray(self.weights[:, columns].sum(axis=1)).ravel()

    def kind_mask(self, kinds: frozenset[str]) -> np.ndarray:
        """True for the chunks of one of ``kinds`` (``pdf``, ``markdown``, ``code``, ...)."""
        return np.fromiter((c.kind in kinds for c in self.chunks), dtype=bool, count=len(self.chunks))

    def bm25(self, query: str, depth: int, kinds: frozenset[str] | None = None) -> list[tuple[str, float]]:
        """The ``depth`` best (chunk id, BM25 score) pairs with a positive score (of ``kinds`` only, if given)."""
        tokens = tokenize(query)
        if self.model is None or not tokens:
            return []
        scores = self.bm25_scores(tokens)
        if kinds is not None:
            scores = np.where(self.kind_mask(kinds), scores, 0.0)
        depth = min(depth, len(scores))
        top = np.argpartition(-scores, depth - 1)[:depth]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.chunks[i].chunk_id, float(scores[i])) for i in top if scores[i] > 0]


def _source_words(source: str) -> str:
    """The file name's words (``fit_supernovae.py`` -> ``fit supernovae py``) also count for BM25."""
    name = source.rsplit("/", 1)[-1]
    return name.replace("_", " ").replace("-", " ").replace(".", " ")


def fuse(
    table: SearchTable,
    dense: list[tuple[str, float]],
    lexical: list[tuple[str, float]],
    *,
    k: int,
    mode: str,
) -> list[Hit]:
    """The top ``k`` hits: by RRF in hybrid mode, else by the one ranking given."""
    dense_rank = {cid: r for r, (cid, _) in enumerate(dense, 1)}
    dense_score = dict(dense)
    bm25_rank = {cid: r for r, (cid, _) in enumerate(lexical, 1)}
    bm25_score = dict(lexical)
    if mode == "dense":
        ordered = [(cid, s) for cid, s in dense]
    elif mode == "bm25":
        ordered = [(cid, s) for cid, s in lexical]
    else:
        fused: dict[str, float] = {}
        for ranking in (dense_rank, bm25_rank):
            for cid, r in ranking.items():
                fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + r)
        # ties (same fused score) go to the better dense rank, then the chunk id: deterministic
        ordered = sorted(fused.items(), key=lambda item: (-item[1], dense_rank.get(item[0], 10**9), item[0]))
    hits: list[Hit] = []
    for cid, score in ordered:
        index = table.by_id.get(cid)
        if index is None:  # a chunk written after the table was built: seen at the next revision
            continue
        hits.append(Hit(chunk=table.chunks[index], score=float(score), rank=len(hits) + 1,
                        dense_rank=dense_rank.get(cid), bm25_rank=bm25_rank.get(cid),
                        dense_score=dense_score.get(cid), bm25_score=bm25_score.get(cid)))
        if len(hits) == k:
            break
    return hits
