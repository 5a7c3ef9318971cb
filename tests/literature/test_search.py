"""BM25 scoring and reciprocal-rank fusion, on chunks made in memory."""

from __future__ import annotations

import numpy as np

from cmbagent.literature import Chunk
from cmbagent.literature._chunk import assign_ids
from cmbagent.literature._search import RRF_K, SearchTable, fuse
from cmbagent.literature._tokens import tokenize

TEXTS = [
    "Type Ia supernovae constrain dark energy and the matter density.",
    "Weak lensing measures the matter power spectrum; lensing lensing lensing.",
    "Isolation forests isolate outliers with random splits.",
    "def fit_supernovae(data): fit the supernova distances with emcee",
    "",
]


def _table() -> SearchTable:
    chunks = assign_ids(Chunk(source=f"/d/f{i}.md", text=t or "x", kind="markdown") for i, t in enumerate(TEXTS))
    return SearchTable.build(1, chunks)


def test_sparse_scores_equal_rank_bm25() -> None:
    table = _table()
    for query in ("matter", "supernova distances", "lensing lensing matter", "nothing-here", "fit_supernovae"):
        tokens = tokenize(query)
        expected = table.model.get_scores(tokens) if tokens else np.zeros(len(TEXTS))
        assert np.allclose(table.bm25_scores(tokens), expected), query


def test_bm25_ranking_and_rrf_fusion() -> None:
    table = _table()
    ranked = table.bm25("lensing matter", depth=10)
    assert [table.by_id[cid] for cid, _ in ranked][:2] == [1, 0]
    assert all(score > 0 for _, score in ranked)
    ids = [c.chunk_id for c in table.chunks]
    dense = [(ids[2], 0.9), (ids[0], 0.8)]
    lexical = [(ids[0], 5.0), (ids[1], 4.0)]
    hits = fuse(table, dense, lexical, k=3, mode="hybrid")
    assert [h.chunk.chunk_id for h in hits] == [ids[0], ids[2], ids[1]]  # in both rankings beats either one
    assert hits[0].score == 1 / (RRF_K + 2) + 1 / (RRF_K + 1)
    assert (hits[0].dense_rank, hits[0].bm25_rank) == (2, 1) and hits[1].bm25_rank is None
    assert [h.rank for h in hits] == [1, 2, 3]
    assert [h.chunk.chunk_id for h in fuse(table, dense, lexical, k=1, mode="dense")] == [ids[2]]
    assert [h.chunk.chunk_id for h in fuse(table, dense, lexical, k=5, mode="bm25")] == [ids[0], ids[1]]
