"""The numpy all-MiniLM-L6-v2 against the reference (sentence-transformers on the same packaged weights)."""

from __future__ import annotations

import numpy as np
import pytest

from cmbagent.literature import Embedder, MiniLMEmbedder, SentenceTransformerEmbedder

SENTENCES = [
    "Type Ia supernovae are standard candles for measuring the expansion of the universe.",
    "We fit a flat LCDM model with emcee.",
    "",
    "Anomaly detection with few labels " * 40,  # longer than the model's 256 word pieces: truncated alike
    "ünïcödé, punctuation!? and numbers 3.14159 and tokens like fit_supernovae()",
]


def test_vectors_are_unit_norm_and_semantic(embedder: MiniLMEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    vectors = embedder.embed(SENTENCES)
    assert vectors.shape == (5, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    query = embedder.embed(["how do exploding stars measure cosmic expansion"])[0]
    assert query @ vectors[0] > query @ vectors[1] + 0.2
    assert embedder.embed([]).shape == (0, 384)
    # batching and order do not change a text's vector
    assert np.allclose(embedder.embed(SENTENCES[::-1])[::-1], vectors, atol=1e-5)


@pytest.mark.slow
def test_numpy_forward_matches_sentence_transformers(embedder: MiniLMEmbedder) -> None:
    pytest.importorskip("sentence_transformers", reason="the reference embedder needs sentence-transformers")
    reference = SentenceTransformerEmbedder(threads=1).embed(SENTENCES)
    ours = embedder.embed(SENTENCES)
    cosine = np.sum(reference * ours, axis=1)
    assert cosine.min() > 0.99999, cosine
    assert np.abs(reference - ours).max() < 1e-4
