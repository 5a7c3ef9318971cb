"""Reinforcement-learning method tools (registered on import; `cmbagent methods list` shows them).

* ``rl.distinguishability_queries`` — reward learning from distinguishability queries (which of two pairs is
  easier to compare, then a preference on it) against pairwise comparisons, with simulated labelers, on a
  tabular gridworld and gymnasium classic-control tasks (Feng et al., ICML 2025).
* ``rl.diffusion_world_model`` — a return-conditioned diffusion world model over future (state, reward)
  windows with an inverse dynamics model, feeding synthetic transitions to TD3+BC (DAWM, arXiv 2509.19538).

The Python API: the preference likelihoods and the reward model (``LinearRewardModel``, ``Labeler``), the
world model's parts (``WindowDiffusion``, ``InverseDynamics``, ``TD3BC``) and the tools as plain functions.
Environments are gymnasium's classic-control tasks only (nothing downloads).
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.rl._diffusion import InverseDynamics, WindowDiffusion
from cmbagent.tools.methods.rl._offline import TD3BC, returns_to_go
from cmbagent.tools.methods.rl._preferences import Answers, Labeler, LinearRewardModel
from cmbagent.tools.methods.rl.diffusion_world_model import diffusion_world_model
from cmbagent.tools.methods.rl.distinguishability_queries import (
    compare_query_types,
    distinguishability_queries,
    run_queries,
)

FAMILY = family(
    "rl",
    title="Reinforcement learning",
    expert="rl_engineer",
    description="Reward learning from human-style preference queries and diffusion world models for offline "
    "reinforcement learning on classic-control tasks.",
)

__all__ = [
    "FAMILY",
    "TD3BC",
    "Answers",
    "InverseDynamics",
    "Labeler",
    "LinearRewardModel",
    "WindowDiffusion",
    "compare_query_types",
    "diffusion_world_model",
    "distinguishability_queries",
    "returns_to_go",
    "run_queries",
]
