"""The method catalogue is indexed so the planner can retrieve methods by meaning."""

from __future__ import annotations

from pathlib import Path

from cmbagent.literature import (
    METHODS_COLLECTION,
    MiniLMEmbedder,
    method_documents,
    method_index,
    search_methods,
)
from tests.literature.conftest import CountingEmbedder


def test_methods_are_found_by_meaning_and_synced_incrementally(tmp_path: Path, embedder: MiniLMEmbedder) -> None:
    from cmbagent.tools.methods import iter_methods

    counting = CountingEmbedder(embedder)
    index = method_index(tmp_path, embedder=counting)
    names = {spec.name for spec in iter_methods()}
    assert index.collection_name == METHODS_COLLECTION
    assert {s.removeprefix("method:") for s in index.sources()} == names
    assert len(counting.texts) == len(names)

    expectations = {
        # paraphrases that share few words with the method's own summary
        "how fast is the universe's expansion accelerating, from exploding stars' brightness": "cosmology.fit_supernovae",
        "flag rare faulty items when only a handful of them are labelled": "anomaly.wsad_dt",
        "estimate the effect of a treatment while adjusting for confounders with machine learning": "causal.dml_ate",
        "could an analyst cherry-pick a pipeline to get the feature importance they want": "robustness.x_hacking",
    }
    for query, expected in expectations.items():
        hits = search_methods(query, k=3, index=index)
        assert hits[0].name == expected, (query, [h.name for h in hits])
        assert hits[0].spec.name == expected and hits[0].to_dict()["rank"] == 1

    counting.texts.clear()
    method_index(tmp_path, embedder=counting)  # registry unchanged: nothing is embedded again
    assert counting.texts == []


def test_method_documents_describe_each_method() -> None:
    docs = method_documents()
    chunk = docs["method:cosmology.fit_supernovae"][0]
    assert chunk.kind == "method" and chunk.heading == "cosmology.fit_supernovae"
    assert "Pantheon+" in chunk.text and "Argument data:" in chunk.text and "Keywords:" in chunk.text
