"""Retrieval in runs: passages of the run's knowledge index for text steps, and the check of their citations.

Retrieval is code, not a model call: the query is the step's own words (title, goal, instructions), the
ranking the index's hybrid search, so the offline backend, a replay and a live model all see the same
passages for the same index.  An agent cites a passage by its chunk id and a word-for-word quote; code
resolves each citation against the index before a step's answer is accepted (a wrong one goes back to the
agent), and the report audits them again (``report.bad_citation``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cmbagent.agents import CitedSpan, Passage
from cmbagent.exceptions import PathError
from cmbagent.paths import read_beneath
from cmbagent.state import Citation, PlanStep, TaskBrief, citation_markers

__all__ = ["PACKAGE_PASSAGES", "PASSAGES", "SEARCH_PASSAGES", "Retriever", "step_query", "with_package_docs"]

PASSAGES = 4  # passages a researcher or domain expert gets for a text step
SEARCH_PASSAGES = 8  # passages an agent whose work is searching (literature/code retriever) gets
PACKAGE_PASSAGES = 4  # passages of indexed packages (cmbagent index --package) a code step's author gets
_PACKAGE_PASSAGE_CHARS = 1500
_EMBEDDER: list[Any] = []  # the package index's embedder, loaded once per process on first use


def step_query(step: PlanStep, brief: TaskBrief | None) -> str:
    """What a step searches for: its title, goal and instructions, else the task's objective."""
    words = " ".join(part for part in (step.title, step.goal, step.instructions) if part).strip()
    return words or (brief.objective if brief is not None else "")


class Retriever:
    """The knowledge index of one run (``solve --collection NAME``).

    Args:
        index: a :class:`cmbagent.literature.Index` (opened lazily; its embedder loads on the first search).
    """

    def __init__(self, index: Any) -> None:
        self.index = index

    @property
    def collection(self) -> str:
        return str(self.index.collection_name)

    def describe(self) -> str:
        """What the planner is told about the index."""
        sources = self.index.sources()
        kinds: dict[str, int] = {}
        for source in sources:
            kind = Path(source).suffix.lower().lstrip(".") or "text"
            kinds[kind] = kinds.get(kind, 0) + 1
        held = ", ".join(f"{n} .{kind}" for kind, n in sorted(kinds.items()))
        return (f"Collection {self.collection!r}: {self.index.count()} chunks from {len(sources)} file(s) ({held}). "
                "literature_retriever searches its papers, notes and text; code_retriever its code and notebooks.")

    def passages(self, query: str, *, kinds: tuple[str, ...] | None = None, k: int = PASSAGES) -> list[Passage]:
        """The ``k`` best chunks for ``query`` (of ``kinds`` only, when given), as prompt passages."""
        if not query.strip():
            return []
        return [Passage.of(hit.chunk) for hit in self.index.search(query, k=k, kinds=kinds)]

    def resolve(self, chunk_id: str) -> Any:
        """The chunk with this id, or None."""
        return self.index.get(chunk_id)

    def check(self, text: str, cited: list[CitedSpan]) -> tuple[list[Citation], list[str]]:
        """Resolve an answer's citations; returns them (with source and locator) and the problems found.

        A problem is a citation whose chunk is not in the index, a quote that is not in its chunk, or a
        ``[n]`` in the text with no n-th citation.  Problems go back to the agent.
        """
        from cmbagent.literature import quote_in_text

        resolved: list[Citation] = []
        problems: list[str] = []
        for n, span in enumerate(cited, 1):
            chunk = self.resolve(span.chunk_id)
            if chunk is None:
                problems.append(f"citation [{n}] names chunk {span.chunk_id!r}, which is not in the index; "
                                "cite a chunk id exactly as shown with a retrieved passage")
                continue
            if not quote_in_text(span.quote, chunk.text):
                problems.append(f"citation [{n}] quotes {span.quote[:200]!r}, which is not in chunk {span.chunk_id}; "
                                "copy a span of that passage word for word (at least 8 characters)")
                continue
            resolved.append(Citation(chunk_id=span.chunk_id, quote=span.quote, source=chunk.source,
                                     locator=chunk.locator))
        for n in sorted(set(citation_markers(text))):
            if not 1 <= n <= len(cited):
                problems.append(f"the text cites [{n}] but the answer lists {len(cited)} citation(s); "
                                "number citations 1, 2, ... in the order of the citations list")
        return resolved, problems


def with_package_docs(call: Any, context: Any) -> Any:
    """A code step's context plus the passages of indexed packages (``cmbagent index --package NAME``) that
    the step's last cell imports or its words name, bounded to :data:`PACKAGE_PASSAGES` passages; what was
    given is written to the step's ``package_docs.json``.

    The index folder is the run's knowledge index when it has one, else the default index folder.  No
    indexed package, or none that the step uses, leaves the context as it was (and loads no model).
    """
    from cmbagent.literature import MiniLMEmbedder, default_index_dir, indexed_packages, package_passages
    from cmbagent.run import write_json

    rt, step = call.rt, call.step
    folder = rt.retriever.index.folder if rt.retriever is not None else default_index_dir()
    if not indexed_packages(folder):
        return context
    last = call.state.last
    code = ""
    if last is not None and last.cell:
        try:
            code = read_beneath(rt.folder.path, last.cell).decode("utf-8", errors="replace")
        except (OSError, PathError):
            code = ""
    words = step_query(step, call.state.brief)
    if not _EMBEDDER:
        _EMBEDDER.append(MiniLMEmbedder(threads=1))
    found = package_passages(words, code=code, text=words, folder=folder, k=PACKAGE_PASSAGES, embedder=_EMBEDDER[0])
    if not found:
        return context
    used = [passage.record() for passage in found]
    write_json(call.files.path / "package_docs.json", used)
    return context.model_copy(update={"package_docs": [p.block(_PACKAGE_PASSAGE_CHARS) for p in found]})
