"""The public names of the literature and interop packages (what sections 2 and 3 will build on)."""

from __future__ import annotations

import cmbagent.interop
import cmbagent.literature


def test_public_names() -> None:
    assert set(cmbagent.literature.__all__) == {
        "DEFAULT_COLLECTION", "DEFAULT_MAX_FILES", "DEFAULT_MAX_FILE_BYTES", "ENV_INDEX_DIR", "KINDS",
        "METHODS_COLLECTION", "Chunk", "ChunkSettings", "Embedder", "Hit", "Index", "IngestReport", "MethodHit",
        "MiniLMEmbedder", "Problem", "SentenceTransformerEmbedder", "check_collection", "default_index_dir",
        "method_documents", "method_index", "quote_in_text", "search_methods",
        "PackagePassage", "imported_packages", "index_package", "indexed_packages", "package_documents",
        "package_passages",
    }
    assert set(cmbagent.interop.__all__) == {"MethodRunner", "method_cell"}
    for name in cmbagent.literature.__all__:
        assert hasattr(cmbagent.literature, name), name


def test_hits_carry_what_a_citation_needs() -> None:
    from cmbagent.literature import Chunk, Hit

    chunk = Chunk(source="/p/paper.pdf", text="quoted words here", kind="pdf", page=3, line_start=4, line_end=9,
                  chunk_id="abc123")
    payload = Hit(chunk=chunk, score=0.03, rank=1, dense_rank=1, bm25_rank=2).to_dict()
    assert {k: payload[k] for k in ("chunk_id", "source", "page", "lines", "locator", "text")} == {
        "chunk_id": "abc123", "source": "/p/paper.pdf", "page": 3, "lines": [4, 9], "locator": "p. 3, lines 4-9",
        "text": "quoted words here"}
