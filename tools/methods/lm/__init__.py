"""Language-model method tools (registered on import; `cmbagent methods list` shows them).

* ``lm.jola`` — joint localisation and activation editing of attention heads (Lai et al., arXiv 2502.01179).
* ``lm.number_token_loss`` — Number Token Loss (NTL-MSE, NTL-WAS) as a torch loss and its effect on numeric
  error (Zausinger et al., arXiv 2411.02083).
* ``lm.nolima`` — NoLiMa-style long-context benchmark with latent-association needles, the ``contains`` metric,
  effective length and a BM25 baseline (Modarressi et al., arXiv 2502.05167).
* ``lm.knowledge_editing_stream`` — lifelong knowledge editing on a stream of fact edits: retrieval
  augmentation vs continual fine-tuning vs replay (WikiBigEdit, Thede et al., arXiv 2503.05683).
* ``lm.compositional_diversity`` — compositional generalisation from combinatorial coverage of (n, k) concept
  grids and additive factorisation of representations (Uselis et al., arXiv 2507.07102).
* ``lm.lora_symmetry`` — invariant vs raw-weight features of LoRA adapters under the (B, A) → (BG, G⁻¹A)
  symmetry.

The Python API: ``NumberTokenLoss`` for any training loop, ``JoLAEditor`` for any local causal LM,
``effective_length``/``contains`` for NoLiMa scores, and the tools as plain functions.
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.lm.compositional_diversity import (
    additive_r2,
    compositional_diversity,
    score_embeddings,
)
from cmbagent.tools.methods.lm.jola import HardConcrete, JoLAEditor, jola
from cmbagent.tools.methods.lm.knowledge_editing_stream import EditRetriever, knowledge_editing_stream
from cmbagent.tools.methods.lm.lora_symmetry import invariant_features, lora_symmetry, read_adapters
from cmbagent.tools.methods.lm.nolima import base_score, bm25_answer, contains, effective_length, nolima
from cmbagent.tools.methods.lm.number_token_loss import (
    NumberTokenLoss,
    number_token_loss,
    number_values_from_vocab,
)

FAMILY = family(
    "lm",
    title="Language models",
    expert="llm_engineer",
    description="Editing, training losses, long-context and knowledge-editing benchmarks, and representation "
    "analyses of language models.",
)

__all__ = [
    "FAMILY",
    "EditRetriever",
    "HardConcrete",
    "JoLAEditor",
    "NumberTokenLoss",
    "additive_r2",
    "base_score",
    "bm25_answer",
    "compositional_diversity",
    "contains",
    "effective_length",
    "invariant_features",
    "jola",
    "knowledge_editing_stream",
    "lora_symmetry",
    "nolima",
    "number_token_loss",
    "number_values_from_vocab",
    "read_adapters",
    "score_embeddings",
]
