"""The words of language models: how its scientists ask for the methods of the ``lm`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, no_data

field_words(
    "lm.compositional_diversity",
    intents=(
        "Does seeing more combinations of the concepts in training help the model generalise to unseen combinations?",
        "How does combinatorial coverage of the training data drive compositional generalisation?",
        "Check whether the embeddings represent the two concepts additively.",
    ),
    cues={r"\bcompositional": 3.0, r"\bunseen combinations?\b": 2.5, r"\bcombinatorial coverage\b": 3.0,
          r"\badditive(?:ly)? (?:representation|structure|factori)": 2.0, r"\bconcepts?\b": 0.8},
    data=no_data,
)

field_words(
    "lm.jola",
    intents=(
        "Which attention heads need editing to adapt the frozen language model, with gates that switch heads off?",
        "Localise the attention heads responsible for the behaviour and edit their activations.",
        "Parameter-efficient adaptation by editing a few heads' outputs instead of fine-tuning.",
    ),
    cues={r"\battention heads?\b": 2.5, r"\bactivation edit": 3.0, r"\bgates?\b": 1.0,
          r"\bfrozen (?:language )?model\b": 1.5, r"\bparameter-efficient\b": 1.5, r"\bJoLA\b": 3.0},
    data=no_data,
)

field_words(
    "lm.knowledge_editing_stream",
    intents=(
        "Keep a language model up to date with a stream of new facts: retrieval, fine-tuning or replay?",
        "Compare continual fine-tuning with retrieval augmentation for updating facts over time, and measure forgetting.",
        "Lifelong knowledge editing benchmark with changing facts.",
    ),
    cues={r"\bknowledge edit": 3.0, r"\bfact updates?\b|\bnew facts\b|\bchanging facts\b": 2.0,
          r"\bcatastrophic forgetting\b|\bforget": 1.5, r"\bcontinual (?:learning|fine-tuning)\b": 1.5,
          r"\bretrieval[- ]augment": 1.5, r"\breplay\b": 1.0},
    data=no_data,
)

field_words(
    "lm.lora_symmetry",
    intents=(
        "Predict properties of LoRA adapters from their weights, using features that respect the adapters' symmetry.",
        "Are invariant features of low-rank adapters better inputs than the raw weights?",
    ),
    cues={r"\bLoRA\b": 3.0, r"\blow[- ]rank adapt": 3.0, r"\badapters?\b": 1.5, r"\bweight[- ]space\b": 2.0,
          r"\bsingular values\b": 1.0, r"\bsymmetr": 0.8},
    data=no_data,
)

field_words(
    "lm.nolima",
    intents=(
        "Needle in a haystack test where the question does not share words with the needle.",
        "How well does retrieval work over long contexts when the answer needs a latent association, not literal matching?",
        "Measure a model's effective context length with latent-association questions.",
    ),
    cues={r"\bneedle\b": 3.0, r"\bhaystack\b": 3.0, r"\blong[- ]context\b": 2.0, r"\bcontext (?:length|window)\b": 1.5,
          r"\bliteral (?:match|overlap)": 2.0, r"\blatent association": 2.5, r"\bBM25\b": 1.5},
    data=no_data,
)

field_words(
    "lm.number_token_loss",
    intents=(
        "Does adding a loss that knows how far apart numbers are help a small transformer do arithmetic?",
        "Train a model on multiplication problems with plain cross entropy and with a numeric loss on digit tokens.",
        "Compare the numeric error of a language model trained with and without a number-aware loss.",
    ),
    cues={r"\bnumber token\b": 3.0, r"\barithmetic\b": 2.0, r"\bmultiplication\b|\baddition problems\b": 1.5,
          r"\bdigits?\b": 1.0, r"\bcross[- ]entropy\b": 1.0, r"\bWasserstein\b": 1.5, r"\bnumeric(?:al)? error\b": 1.0},
    data=no_data,
)
