"""The method catalogue as an index, so the planner can pick methods by meaning.

Each registered method becomes one virtual document (``method:<name>``): its name, family title,
summary, description, paper, keywords and argument docs.  :func:`search_methods` syncs the collection
with the registry (only changed methods are embedded again) and ranks methods for a task text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cmbagent.literature._chunk import Chunk
from cmbagent.literature._config import METHODS_COLLECTION, default_index_dir
from cmbagent.literature._embed import Embedder
from cmbagent.literature._store import Index

__all__ = ["MethodHit", "method_documents", "method_index", "search_methods"]


@dataclass(frozen=True)
class MethodHit:
    """A method that matches a query: its registered name, the fused score and the rank."""

    name: str
    score: float
    rank: int
    spec: Any  # MethodSpec

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "score": round(self.score, 6), "rank": self.rank,
                "summary": self.spec.summary, "family": self.spec.family}


def _method_text(spec: Any) -> str:
    from cmbagent.tools.methods import get_family

    paper = spec.paper
    lines = [
        f"{spec.name}: {spec.summary}",
        f"Family: {get_family(spec.family).title}",
        spec.description.removeprefix(spec.summary).strip(),  # the summary is its first line
        f"Paper: {paper.title}" + (f" (arXiv:{paper.arxiv})" if paper.arxiv else ""),
    ]
    if spec.keywords:
        lines.append("Keywords: " + ", ".join(spec.keywords))
    for arg, doc in spec.argument_docs.items():
        lines.append(f"Argument {arg}: {doc}")
    return "\n".join(line for line in lines if line)


def method_documents() -> dict[str, list[Chunk]]:
    """One whole-method chunk per registered method, keyed by its virtual source ``method:<name>``."""
    from cmbagent.tools.methods import iter_methods

    docs = {}
    for spec in iter_methods():
        source = f"method:{spec.name}"
        docs[source] = [Chunk(source=source, text=_method_text(spec), kind="method", heading=spec.name)]
    return docs


def method_index(
    folder: str | os.PathLike[str] | None = None, *, embedder: Embedder | None = None
) -> Index:
    """The catalogue's index, synced with the registry (only changed methods are embedded again)."""
    index = Index(Path(folder) if folder is not None else default_index_dir(), collection=METHODS_COLLECTION,
                  embedder=embedder)
    index.sync_documents(method_documents())
    return index


def search_methods(
    query: str,
    *,
    k: int = 5,
    index: Index | None = None,
    folder: str | os.PathLike[str] | None = None,
) -> list[MethodHit]:
    """The ``k`` registered methods that best match ``query`` (hybrid dense + BM25 ranking).

    Pass ``index`` (from :func:`method_index`) to reuse one across calls, as the planner does.
    """
    from cmbagent.tools.methods import get_method

    index = index or method_index(folder)
    hits: list[MethodHit] = []
    for hit in index.search(query, k=k):
        name = hit.chunk.source.removeprefix("method:")
        hits.append(MethodHit(name=name, score=hit.score, rank=len(hits) + 1, spec=get_method(name)))
    return hits
