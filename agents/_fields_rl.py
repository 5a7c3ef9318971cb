"""The words of reinforcement learning: how its scientists ask for the methods of the ``rl`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, no_data

field_words(
    "rl.diffusion_world_model",
    intents=(
        "Train a diffusion model of the environment's dynamics from logged episodes and use its synthetic transitions.",
        "Generate trajectories conditioned on the desired return and check they follow the dynamics.",
        "Offline reinforcement learning with data augmented by a learned world model.",
    ),
    cues={r"\bworld model\b": 3.0, r"\bdiffusion\b": 1.5, r"\binverse dynamics\b": 2.5, r"\boffline (?:RL|"
          r"reinforcement)\b": 2.5, r"\breturn[- ]to[- ]go\b": 2.5, r"\bpendulum\b": 1.0,
          r"\bsynthetic transitions\b": 2.0, r"\blogged episodes\b": 1.5},
    data=no_data,
)

field_words(
    "rl.distinguishability_queries",
    intents=(
        "Learn a reward function from human feedback: are 'how different are these' questions better than pairwise preferences?",
        "Compare preference queries with distinguishability queries for reward learning on the same budget.",
        "How should we ask labellers about pairs of trajectories to learn their reward most efficiently?",
    ),
    cues={r"\breward (?:learning|model|function)\b": 2.0, r"\bpairwise (?:comparisons|preferences)\b": 2.5,
          r"\bpreference(?:s| queries| strength)\b": 1.5, r"\bdistinguishab": 3.0, r"\bhuman feedback\b": 1.5,
          r"\blabell?ers?\b": 1.0, r"\bBradley[- ]Terry\b": 2.0},
    data=no_data,
)
