"""Retrieval quality on a QA set over the project's docs and a corpus of paper summaries (tests/data/corpus).

Recall@5 is the share of questions with an answering chunk among the first five hits. The hybrid ranking
must reach 0.9; dense-only and BM25-only are measured on the same index and printed beside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from cmbagent.literature import Hit, Index, MiniLMEmbedder, quote_in_text

ROOT = Path(__file__).resolve().parents[2]
QA = Path(__file__).with_name("qa.yaml")
DOCS = ["README.md", "docs/models.md", "docs/ui.md"]

pytestmark = pytest.mark.slow


def _answers(item: dict[str, Any], hit: Hit) -> bool:
    chunk = hit.chunk
    if not chunk.source.endswith("/" + item["file"]):
        return False
    if "span" in item:
        return quote_in_text(item["span"], chunk.text)
    start, end = chunk.line_start or 0, chunk.line_end or 0
    return any(start <= line <= end for line in item["lines"])


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory, paper_corpus: Path) -> Index:
    idx = Index(tmp_path_factory.mktemp("qa-index"), collection="qa-corpus", embedder=MiniLMEmbedder(threads=1))
    report = idx.ingest([ROOT / d for d in DOCS] + [paper_corpus / "paper_summaries.txt"])
    assert report.failed == 0 and report.indexed == len(DOCS) + 1, report.problems
    return idx


def test_qa_set_is_answerable(index: Index) -> None:
    """Every item's answer lies inside one chunk (a docs edit that breaks an item shows here, not as recall)."""
    items = yaml.safe_load(QA.read_text())
    assert len(items) >= 40
    table = index._search_table(index._open(create=False))
    for item in items:
        assert any(_answers(item, Hit(chunk=c, score=0.0, rank=0)) for c in table.chunks), item["q"]


def test_recall_at_5(index: Index) -> None:
    items = yaml.safe_load(QA.read_text())
    recall = {}
    misses: dict[str, list[str]] = {}
    for mode in ("hybrid", "dense", "bm25"):
        found = 0
        for item in items:
            hits = index.search(item["q"], k=5, mode=mode)
            if any(_answers(item, h) for h in hits):
                found += 1
            else:
                misses.setdefault(mode, []).append(item["q"])
        recall[mode] = found / len(items)
    print(f"\nrecall@5 over {len(items)} questions: " + ", ".join(f"{m} {r:.3f}" for m, r in recall.items()))
    assert recall["hybrid"] >= 0.9, (recall, misses.get("hybrid"))
