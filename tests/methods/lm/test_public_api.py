"""The lm family's public surface and registration."""

from __future__ import annotations

import cmbagent.tools.methods.lm as lm
from cmbagent.tools.methods import get_family, iter_methods


def test_public_names_are_pinned() -> None:
    assert set(lm.__all__) == {
        "FAMILY", "EditRetriever", "HardConcrete", "JoLAEditor", "NumberTokenLoss", "additive_r2", "base_score",
        "bm25_answer", "compositional_diversity", "contains", "effective_length", "invariant_features", "jola",
        "knowledge_editing_stream", "lora_symmetry", "nolima", "number_token_loss", "number_values_from_vocab",
        "read_adapters", "score_embeddings",
    }


def test_family_registers_through_the_entry_point() -> None:
    names = {spec.name for spec in iter_methods() if spec.family == "lm"}
    assert names == {"lm.jola", "lm.number_token_loss", "lm.nolima", "lm.knowledge_editing_stream",
                     "lm.compositional_diversity", "lm.lora_symmetry"}
    assert get_family("lm").expert == "llm_engineer"
