"""The index: a chromadb ``PersistentClient`` collection of chunks, their vectors, and a manifest.

::

    index = Index(folder, collection="papers", embedder=MiniLMEmbedder())
    report = index.ingest([Path("papers/"), Path("notes.md")])   # incremental; deleted files pruned
    hits = index.search("dual-tailed kernel anomaly detection", k=5)
    hits[0].chunk.chunk_id, hits[0].chunk.source, hits[0].chunk.page, hits[0].chunk.text

Vectors are computed here (never by chromadb's default embedder, which downloads a model) and handed to
chromadb with each chunk; the collection is created with ``embedding_function=None`` and cosine space.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cmbagent.exceptions import ConfigError, UserError
from cmbagent.literature._chunk import Chunk, ChunkSettings, assign_ids
from cmbagent.literature._config import DEFAULT_COLLECTION, check_collection
from cmbagent.literature._embed import Embedder, MiniLMEmbedder
from cmbagent.literature._manifest import Manifest
from cmbagent.literature._readers import KINDS, Problem, UnreadableFile, discover, read_bytes, read_chunks
from cmbagent.literature._search import Hit, SearchTable, fuse

__all__ = ["DEFAULT_MAX_FILES", "DEFAULT_MAX_FILE_BYTES", "Index", "IngestReport", "Progress"]

DEFAULT_MAX_FILES = 10_000
DEFAULT_MAX_FILE_BYTES = 64 * 2**20
_PAGE = 2000  # rows per chromadb call (well under its batch limit)

#: progress callback: (files done, files total, current file)
Progress = Callable[[int, int, str], None]


@dataclass
class IngestReport:
    """What one ``ingest`` did; ``ok`` is False when nothing at all could be indexed."""

    collection: str
    index_dir: str
    indexed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped_other_types: int = 0
    chunks_added: int = 0
    chunks_removed: int = 0
    chunks_total: int = 0
    seconds: float = 0.0
    embed_seconds: float = 0.0
    problems: list[Problem] = field(default_factory=list)

    @property
    def failed(self) -> int:
        return len(self.problems)

    @property
    def ok(self) -> bool:
        return self.indexed + self.unchanged > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "collection": self.collection, "index_dir": self.index_dir, "ok": self.ok,
            "files": {"indexed": self.indexed, "unchanged": self.unchanged, "removed": self.removed,
                      "failed": self.failed, "skipped_other_types": self.skipped_other_types},
            "chunks": {"added": self.chunks_added, "removed": self.chunks_removed, "total": self.chunks_total},
            "seconds": round(self.seconds, 3), "embed_seconds": round(self.embed_seconds, 3),
            "problems": [{"path": p.path, "reason": p.reason} for p in self.problems],
        }


def _metadata(chunk: Chunk) -> dict[str, Any]:
    meta: dict[str, Any] = {"source": chunk.source, "kind": chunk.kind, "heading": chunk.heading}
    for key in ("page", "line_start", "line_end", "cell"):
        value = getattr(chunk, key)
        if value is not None:
            meta[key] = int(value)
    return meta


def chunk_from_record(chunk_id: str, text: str, meta: dict[str, Any]) -> Chunk:
    def number(key: str) -> int | None:
        value = meta.get(key)
        return None if value is None else int(value)

    return Chunk(source=str(meta.get("source", "")), text=text, kind=str(meta.get("kind", "text")),
                 page=number("page"), line_start=number("line_start"), line_end=number("line_end"),
                 heading=str(meta.get("heading", "")), cell=number("cell"), chunk_id=chunk_id)


class Index:
    """One collection of one index folder.

    Args:
        folder: the index folder (created on the first write, never by a search).
        collection: the collection name (``default`` unless given).
        embedder: the embedding model; its ``name`` is recorded and checked on every later open.
        chunking: chunk sizes.
    """

    def __init__(
        self,
        folder: str | os.PathLike[str],
        *,
        collection: str = DEFAULT_COLLECTION,
        embedder: Embedder | None = None,
        chunking: ChunkSettings | None = None,
    ) -> None:
        self.folder = Path(folder).expanduser().resolve()
        self.collection_name = check_collection(collection)
        self.embedder = embedder or MiniLMEmbedder()
        self.chunking = chunking or ChunkSettings()
        self.manifest = Manifest(self.folder)
        self._client: Any = None
        self._collection: Any = None
        self._table: SearchTable | None = None
        self._lock = threading.RLock()

    # ----------------------------------------------------------------- opening
    def _ensure_writable(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=self.folder, prefix=".write-probe-"):
                pass
        except OSError as exc:
            raise ConfigError(
                f"the index folder {self.folder} is not writable ({exc.strerror or exc}); choose another with "
                "--index-dir or CMBAGENT_INDEX_DIR (or [index] dir in cmbagent.toml)"
            ) from None

    def _open(self, *, create: bool) -> Any:
        if self._collection is not None:
            return self._collection
        if not create and not self.manifest.exists():
            raise UserError(f"there is no index at {self.folder}; build one with `cmbagent index PATH...` "
                            "(or point --index-dir / CMBAGENT_INDEX_DIR at an existing one)")
        recorded = self.manifest.embedder(self.collection_name) if self.manifest.exists() else None
        if recorded is None and not create:
            known = ", ".join(self.manifest.collections()) or "none"
            raise UserError(f"the index at {self.folder} has no collection {self.collection_name!r} (it has: "
                            f"{known}); build it with `cmbagent index PATH... --collection {self.collection_name}`")
        if recorded is not None and recorded != self.embedder.name:
            raise ConfigError(f"collection {self.collection_name!r} was built with the {recorded} embedder, not "
                              f"{self.embedder.name}; re-index it into a new collection")
        import chromadb
        from chromadb.config import Settings

        self._client = chromadb.PersistentClient(
            path=str(self.folder), settings=Settings(anonymized_telemetry=False, allow_reset=False))
        self._collection = self._client.get_or_create_collection(
            self.collection_name, embedding_function=None, configuration={"hnsw": {"space": "cosine"}},
            metadata={"embedder": self.embedder.name})
        self.manifest.ensure_collection(self.collection_name, self.embedder.name)
        return self._collection

    # ----------------------------------------------------------------- writing
    def ingest(
        self,
        paths: Sequence[str | os.PathLike[str]],
        *,
        max_files: int = DEFAULT_MAX_FILES,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        progress: Progress | None = None,
    ) -> IngestReport:
        """Index files and folders; unchanged files are skipped, deleted files' chunks removed."""
        started = time.perf_counter()
        self._ensure_writable()
        report = IngestReport(collection=self.collection_name, index_dir=str(self.folder))
        files, problems, report.skipped_other_types = discover([Path(p) for p in paths], max_files=max_files)
        report.problems.extend(problems)
        with self._lock:
            collection = self._open(create=True)
            known = self.manifest.files(self.collection_name)
            for source in sorted(known):
                if not source.startswith("method:") and not Path(source).exists():
                    report.chunks_removed += self._delete_source(collection, source)
                    self.manifest.forget(self.collection_name, source)
                    report.removed += 1
            for done, path in enumerate(files):
                if progress is not None:
                    progress(done, len(files), str(path))
                try:
                    data = read_bytes(path, max_bytes=max_file_bytes)
                    digest = hashlib.sha256(data).hexdigest()
                    if known.get(str(path)) == digest:
                        report.unchanged += 1
                        continue
                    chunks = read_chunks(path, settings=self.chunking, max_bytes=max_file_bytes, data=data)
                except UnreadableFile as exc:
                    report.problems.append(Problem(str(path), str(exc)))
                    continue
                added, removed, embed_s = self._replace_source(collection, str(path), chunks)
                self.manifest.record(self.collection_name, str(path), digest, added[1])
                report.indexed += 1
                report.chunks_added += added[0]
                report.chunks_removed += removed
                report.embed_seconds += embed_s
            if progress is not None:
                progress(len(files), len(files), "")
            report.chunks_total = int(collection.count())
        report.seconds = time.perf_counter() - started
        return report

    def sync_documents(self, documents: dict[str, list[Chunk]]) -> IngestReport:
        """Make the collection hold exactly ``documents`` (virtual sources such as ``method:NAME``).

        A source whose chunk texts are unchanged is left alone; sources not in ``documents`` are removed.
        """
        started = time.perf_counter()
        self._ensure_writable()
        report = IngestReport(collection=self.collection_name, index_dir=str(self.folder))
        with self._lock:
            collection = self._open(create=True)
            known = self.manifest.files(self.collection_name)
            for source in sorted(set(known) - set(documents)):
                report.chunks_removed += self._delete_source(collection, source)
                self.manifest.forget(self.collection_name, source)
                report.removed += 1
            for source, chunks in sorted(documents.items()):
                digest = hashlib.sha256("\0".join(c.embedding_text() for c in chunks).encode()).hexdigest()
                if known.get(source) == digest:
                    report.unchanged += 1
                    continue
                added, removed, embed_s = self._replace_source(collection, source, chunks)
                self.manifest.record(self.collection_name, source, digest, added[1])
                report.indexed += 1
                report.chunks_added += added[0]
                report.chunks_removed += removed
                report.embed_seconds += embed_s
            report.chunks_total = int(collection.count())
        report.seconds = time.perf_counter() - started
        return report

    def _delete_source(self, collection: Any, source: str) -> int:
        existing = collection.get(where={"source": source}, include=[])["ids"]
        for start in range(0, len(existing), _PAGE):
            collection.delete(ids=existing[start:start + _PAGE])
        return len(existing)

    def _replace_source(self, collection: Any, source: str, chunks: Iterable[Chunk]) -> tuple[tuple[int, int], int, float]:
        """Store ``chunks`` as the whole content of ``source``; embed only chunks whose id is new.

        Returns ((chunks embedded, chunks now held), chunks deleted, seconds spent embedding).
        """
        fresh = assign_ids(replace(c, source=source) for c in chunks)
        existing = set(collection.get(where={"source": source}, include=[])["ids"])
        new = [c for c in fresh if c.chunk_id not in existing]
        kept = [c for c in fresh if c.chunk_id in existing]
        stale = sorted(existing - {c.chunk_id for c in fresh})
        for start in range(0, len(stale), _PAGE):
            collection.delete(ids=stale[start:start + _PAGE])
        for start in range(0, len(kept), _PAGE):  # same text, possibly moved lines: metadata only
            part = kept[start:start + _PAGE]
            collection.update(ids=[c.chunk_id for c in part], metadatas=[_metadata(c) for c in part])
        embed_s = 0.0
        for start in range(0, len(new), _PAGE):
            part = new[start:start + _PAGE]
            t0 = time.perf_counter()
            vectors = self.embedder.embed([c.embedding_text() for c in part])
            embed_s += time.perf_counter() - t0
            collection.upsert(ids=[c.chunk_id for c in part], documents=[c.text for c in part],
                              metadatas=[_metadata(c) for c in part], embeddings=vectors)
        return (len(new), len(fresh)), len(stale), embed_s

    # ----------------------------------------------------------------- reading
    def count(self) -> int:
        return int(self._open(create=False).count())

    def sources(self) -> list[str]:
        """The sources this collection holds."""
        self._open(create=False)
        return sorted(self.manifest.files(self.collection_name))

    def get(self, chunk_id: str) -> Chunk | None:
        """The chunk with this id, or None (a citation that does not resolve)."""
        got = self._open(create=False).get(ids=[chunk_id], include=["documents", "metadatas"])
        if not got["ids"]:
            return None
        return chunk_from_record(got["ids"][0], got["documents"][0], got["metadatas"][0] or {})

    def _search_table(self, collection: Any) -> SearchTable:
        revision = self.manifest.revision(self.collection_name)
        table = self._table
        if table is None or table.revision != revision:
            ids: list[str] = []
            texts: list[str] = []
            metas: list[dict[str, Any]] = []
            total = int(collection.count())
            for offset in range(0, total, _PAGE):
                got = collection.get(include=["documents", "metadatas"], limit=_PAGE, offset=offset)
                ids += got["ids"]
                texts += got["documents"]
                metas += [m or {} for m in got["metadatas"]]
            table = SearchTable.build(revision, [chunk_from_record(i, t, m) for i, t, m in zip(ids, texts, metas, strict=True)])
            self._table = table
        return table

    def search(self, query: str, *, k: int = 8, mode: str = "hybrid", candidates: int = 50,
               kinds: Iterable[str] | None = None) -> list[Hit]:
        """The ``k`` best chunks for ``query``.

        Args:
            query: the question or keywords.
            k: hits to return.
            mode: ``hybrid`` (dense and BM25 rankings fused by reciprocal rank), ``dense`` or ``bm25``.
            candidates: how deep each ranking is read before fusing.
            kinds: only chunks of these kinds (``pdf``, ``markdown``, ``text``, ``code``, ``notebook``,
                ``method``); a code-finding agent searches code and notebooks, a literature agent the rest.
        """
        if not isinstance(query, str) or not query.strip():
            raise UserError("the query is empty; pass the words or question to search for")
        if k < 1:
            raise UserError(f"k must be at least 1 (got {k})")
        if mode not in ("hybrid", "dense", "bm25"):
            raise UserError(f"mode must be hybrid, dense or bm25 (got {mode!r})")
        wanted = frozenset(kinds) if kinds is not None else None
        known = {*KINDS.values(), "method"}
        unknown = sorted((wanted or frozenset()) - known)
        if unknown:
            raise UserError(f"unknown chunk kind(s) {', '.join(unknown)}; kinds are {', '.join(sorted(known))}")
        with self._lock:
            collection = self._open(create=False)
            table = self._search_table(collection)
        if not table.chunks:
            raise UserError(f"collection {self.collection_name!r} at {self.folder} is empty; index some files "
                            "with `cmbagent index PATH...`")
        depth = max(candidates, k)
        dense: list[tuple[str, float]] = []
        held = len(table.chunks) if wanted is None else int(table.kind_mask(wanted).sum())
        if mode in ("hybrid", "dense") and held:
            vector = self.embedder.embed([query])
            where = {"kind": {"$in": sorted(wanted)}} if wanted is not None else None
            got = collection.query(query_embeddings=vector, n_results=min(depth, held), where=where,
                                   include=["distances"])
            dense = [(i, 1.0 - float(d)) for i, d in zip(got["ids"][0], got["distances"][0], strict=True)]
        lexical = table.bm25(query, depth, wanted) if mode in ("hybrid", "bm25") else []
        return fuse(table, dense, lexical, k=k, mode=mode)

    def verify_quote(self, chunk_id: str, quote: str) -> bool:
        """True when ``quote`` appears in chunk ``chunk_id`` (see :func:`quote_in_text`)."""
        from cmbagent.literature._quotes import quote_in_text

        chunk = self.get(chunk_id)
        return chunk is not None and quote_in_text(quote, chunk.text)
