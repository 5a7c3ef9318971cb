"""Idea mode: an idea maker and an idea hater (autogen-agentchat) turn a task into ranked research ideas.

::

    from cmbagent.ideas import generate_ideas
    result = generate_ideas("examples/supernova.md", rounds=3, n_ideas=5, to_tasks="ideas/")
    result.ideas[0].idea.title, result.ideas[0].reasons, result.ideas_md

The team is a ``RoundRobinGroupChat`` of two AutoGen ``AssistantAgent``s whose model client
(:class:`AutoGenModelClient`) is an adapter over cmbagent's models layer: budgets, transcripts, ``replay:``
and the ``offline`` backend hold as in ``solve``.  AutoGen is imported only when a team runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cmbagent.ideas._output import RankedIdea, Round, write_idea_task
from cmbagent.ideas._run import IdeasResult, generate_ideas, replay_ideas

if TYPE_CHECKING:  # pragma: no cover
    from cmbagent.ideas._autogen import AutoGenModelClient

__all__ = ["AutoGenModelClient", "IdeasResult", "RankedIdea", "Round", "generate_ideas", "replay_ideas",
           "write_idea_task"]


def __getattr__(name: str) -> Any:
    if name == "AutoGenModelClient":
        from cmbagent.ideas._autogen import AutoGenModelClient

        return AutoGenModelClient
    raise AttributeError(f"module 'cmbagent.ideas' has no attribute {name!r}")
