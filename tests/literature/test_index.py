"""The index end to end with the real model and chromadb: ingest, search, incremental updates, errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cmbagent.exceptions import ConfigError, UserError
from cmbagent.literature import Index, MiniLMEmbedder
from tests.literature._pdfs import encrypted_pdf, text_pdf
from tests.literature.conftest import CountingEmbedder

NOTES = {
    "cosmo.md": "# Cosmology\n\n## Supernovae\n\nType Ia supernovae are standard candles; their distances constrain "
                "dark energy.\n\n## Lensing\n\nWeak gravitational lensing measures the matter power spectrum.\n",
    "anomaly.md": "# Anomalies\n\nIsolation forests score outliers by how quickly random splits isolate them.\n",
    "fit.py": "import numpy as np\n\n\ndef fit_line(x, y):\n    \"\"\"Least-squares slope and intercept.\"\"\"\n"
              "    return np.polyfit(x, y, 1)\n",
}


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, text in NOTES.items():
        (folder / name).write_text(text)
    return folder


def test_ingest_search_and_resolve(tmp_path: Path, corpus: Path, embedder: MiniLMEmbedder) -> None:
    text_pdf(corpus / "paper.pdf", ["Introduction to neural networks.", "Spiking neurons fire when the membrane "
                                    "potential crosses a threshold."])
    index = Index(tmp_path / "index", collection="notes", embedder=embedder)
    report = index.ingest([corpus])
    assert report.ok and report.indexed == 4 and report.failed == 0
    assert report.chunks_total == index.count() == report.chunks_added
    assert 0 < report.embed_seconds <= report.seconds

    (hit,) = index.search("what measures the matter power spectrum?", k=1)
    assert hit.chunk.source == str(corpus / "cosmo.md")
    assert hit.chunk.heading == "Cosmology > Lensing" and hit.chunk.locator == "lines 7-9"
    assert hit.dense_rank == 1 and hit.bm25_rank == 1
    pdf_hit = index.search("when do spiking neurons fire", k=1)[0]
    assert (Path(pdf_hit.chunk.source).name, pdf_hit.chunk.page) == ("paper.pdf", 2)
    code_hit = index.search("least squares slope", k=1, mode="bm25")[0]
    assert code_hit.chunk.kind == "code" and (code_hit.chunk.line_start, code_hit.chunk.line_end) == (1, 6)
    dense_only = index.search("finding outliers", k=1, mode="dense")[0]
    assert Path(dense_only.chunk.source).name == "anomaly.md" and dense_only.bm25_rank is None

    resolved = index.get(hit.chunk.chunk_id)
    assert resolved == hit.chunk
    assert index.get("no-such-chunk") is None
    assert index.verify_quote(hit.chunk.chunk_id, "Weak gravitational lensing measures")
    assert not index.verify_quote(hit.chunk.chunk_id, "Strong lensing measures")
    as_dict = hit.to_dict()
    assert as_dict["lines"] == [7, 9] and as_dict["chunk_id"] == hit.chunk.chunk_id and as_dict["text"]


def test_reindexing_is_incremental(tmp_path: Path, corpus: Path, embedder: MiniLMEmbedder) -> None:
    counting = CountingEmbedder(embedder)
    index = Index(tmp_path / "index", embedder=counting)
    first = index.ingest([corpus])
    assert first.indexed == 3 and len(counting.texts) == first.chunks_added
    lensing_id = index.search("matter power spectrum lensing", k=1)[0].chunk.chunk_id

    counting.texts.clear()
    again = Index(tmp_path / "index", embedder=counting).ingest([corpus])  # a new process, same folder
    assert (again.indexed, again.unchanged, again.chunks_added) == (0, 3, 0) and counting.texts == []

    cosmo = corpus / "cosmo.md"
    cosmo.write_text(cosmo.read_text().replace("## Supernovae\n\n", "## Supernovae\n\nA new first line.\n\n"))
    counting.texts.clear()
    edited = index.ingest([corpus])
    assert (edited.indexed, edited.unchanged) == (1, 2)
    assert len(counting.texts) == 1 and "A new first line" in counting.texts[0]  # only the changed chunk
    moved = index.get(lensing_id)  # the untouched section keeps its id; its lines moved
    assert moved is not None and moved.locator == "lines 9-11"

    (corpus / "anomaly.md").unlink()
    pruned = index.ingest([corpus])
    assert pruned.removed == 1 and pruned.chunks_removed == 1
    assert all(Path(s).name != "anomaly.md" for s in index.sources())
    assert all(Path(h.chunk.source).name != "anomaly.md" for h in index.search("isolation forest outliers", k=5))


def test_bad_files_are_reported_and_the_rest_indexed(tmp_path: Path, corpus: Path, embedder: MiniLMEmbedder) -> None:
    locked = encrypted_pdf(corpus / "locked.pdf", text_pdf(tmp_path / "p.pdf", ["classified"]), password="pw")
    (corpus / "blob.txt").write_bytes(b"\x00\xff" * 50)
    report = Index(tmp_path / "index", embedder=embedder).ingest([corpus, tmp_path / "nope"])
    assert report.ok and report.indexed == 3
    reasons = {Path(p.path).name: p.reason for p in report.problems}
    assert set(reasons) == {"locked.pdf", "blob.txt", "nope"}
    assert "password" in reasons["locked.pdf"] and "binary" in reasons["blob.txt"]
    assert str(locked) in {p.path for p in report.problems}

    nothing = Index(tmp_path / "index2", embedder=embedder).ingest([corpus / "blob.txt"])
    assert not nothing.ok and nothing.failed == 1


def test_index_folder_and_query_errors(tmp_path: Path, corpus: Path, embedder: MiniLMEmbedder) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(ConfigError, match=r"is not writable.*--index-dir"):
        Index(blocker / "index", embedder=embedder).ingest([corpus])
    if os.geteuid() != 0:  # root writes anywhere, so only a non-root run can check a read-only folder
        readonly = tmp_path / "ro"
        readonly.mkdir(mode=0o500)
        with pytest.raises(ConfigError, match="not writable"):
            Index(readonly, embedder=embedder).ingest([corpus])

    with pytest.raises(UserError, match=r"there is no index at .*cmbagent index"):
        Index(tmp_path / "nowhere", embedder=embedder).search("anything")
    assert not (tmp_path / "nowhere").exists()  # a search creates nothing
    Index(tmp_path / "index", collection="papers", embedder=embedder).ingest([corpus])
    with pytest.raises(UserError, match=r"no collection 'default' .*it has: papers"):
        Index(tmp_path / "index", embedder=embedder).search("anything")
    index = Index(tmp_path / "index", collection="papers", embedder=embedder)
    for bad in ("", "   "):
        with pytest.raises(UserError, match="query is empty"):
            index.search(bad)
    with pytest.raises(UserError, match="mode must be"):
        index.search("x", mode="fuzzy")
    with pytest.raises(ConfigError, match="collection name"):
        Index(tmp_path / "index", collection="a/b")

    class OtherModel(CountingEmbedder):
        name = "another-model"

    other = OtherModel(embedder)
    other.name = "another-model"
    with pytest.raises(ConfigError, match="built with the all-MiniLM-L6-v2 embedder"):
        Index(tmp_path / "index", collection="papers", embedder=other).search("x")


def test_chromadb_is_configured_without_telemetry_or_its_own_embedder(tmp_path: Path, corpus: Path,
                                                                     embedder: MiniLMEmbedder) -> None:
    index = Index(tmp_path / "index", embedder=embedder)
    index.ingest([corpus])  # under the suite's network guard: any download attempt would fail the test
    assert index._client.get_settings().anonymized_telemetry is False
    config = index._collection.configuration_json
    assert config["hnsw"]["space"] == "cosine"
    assert config.get("embedding_function") in (None, {"type": "legacy"})  # none of chromadb's embedders
