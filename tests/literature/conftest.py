"""Shared fixtures: one embedder per test process (its weights load once), small corpora."""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.literature import MiniLMEmbedder

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "data" / "corpus"


@pytest.fixture(scope="session")
def embedder() -> MiniLMEmbedder:
    """The real model, one BLAS thread (two test workers share two cores)."""
    return MiniLMEmbedder(threads=1)


@pytest.fixture(scope="session")
def paper_corpus() -> Path:
    """tests/data/corpus: one paragraph about each of 24 papers (tests/data/SOURCES.md)."""
    return CORPUS


class CountingEmbedder:
    """The real embedder, counting the texts it is asked to embed (to see what incremental indexing skips)."""

    def __init__(self, inner: MiniLMEmbedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self.texts: list[str] = []

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.texts.extend(texts)
        return self.inner.embed(texts)
