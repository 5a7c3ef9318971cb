"""The idea team on autogen-agentchat: an idea maker and an idea hater taking turns in a ``RoundRobinGroupChat``.

::

    task message (the brief)  ->  maker: IdeaSet  ->  hater: IdeaReview  ->  maker: revised IdeaSet  -> ...

A round is one maker turn (the proposal, then revisions) and the hater's review of it.  The chat ends after
``rounds`` rounds (``MaxMessageTermination``) or as soon as the hater is satisfied (``FunctionalTermination``
on its review), so it always ends on a review.  Both agents are AutoGen ``AssistantAgent``s with structured
output (``output_content_type``) and a bounded context (``HeadAndTailChatCompletionContext``: the brief and the
last two messages, so the prompt of round 9 is no larger than that of round 2); their model client is
:class:`AutoGenModelClient`, so every call goes through cmbagent's models layer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel

from cmbagent.agents import (
    IdeaBrief,
    IdeaContext,
    IdeaReview,
    IdeaSet,
    bind_schema,
    load_registry,
    output_format,
)
from cmbagent.exceptions import BudgetExceeded, CmbagentError, ConfigError
from cmbagent.ideas._output import Round
from cmbagent.models import Message

__all__ = ["HATER", "MAKER", "TeamStopped", "run_team"]

MAKER, HATER = "idea_maker", "idea_hater"


class TeamStopped(Exception):
    """The team stopped before its end: ``cause`` is the typed error an agent's model call raised."""

    def __init__(self, cause: BaseException, rounds: list[Round]):
        super().__init__(str(cause))
        self.cause = cause
        self.rounds = rounds


def _latest(messages: Sequence[Message], kind: type[BaseModel]) -> Any:
    for message in reversed(messages):
        if message.role == "system":
            continue
        try:
            return kind.model_validate_json(message.text())
        except ValueError:
            continue
    return None


def context_builder(brief: IdeaBrief) -> Callable[[Sequence[Message]], IdeaContext]:
    """The typed context of a call from its messages: the brief (the task message) and the latest idea set
    and review among them."""
    task_text = brief.render()

    def context_of(messages: Sequence[Message]) -> IdeaContext:
        if not any(m.role == "user" and m.text() == task_text for m in messages):
            raise ConfigError("the idea team's messages lost their task message (the brief); keep it at the head "
                              "of each agent's model context")
        return IdeaContext(brief=brief, ideas=_latest(messages, IdeaSet), review=_latest(messages, IdeaReview))

    return context_of


async def run_team(client: Any, brief: IdeaBrief, *, methods: list[str], on_round: Callable[[Round], None],
                   ) -> list[Round]:
    """Run the chat to its end; returns every idea set and review in order (see the module docstring).

    Raises :class:`TeamStopped` when a model call failed (budget spent, provider error) with what was said
    before it.
    """
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.conditions import FunctionalTermination, MaxMessageTermination
    from autogen_agentchat.messages import StructuredMessage
    from autogen_agentchat.teams import RoundRobinGroupChat
    from autogen_core.model_context import HeadAndTailChatCompletionContext

    from cmbagent.ideas._autogen import AutoGenModelClient

    registry = load_registry()
    idea_schema = bind_schema(IdeaSet, agents=[], methods=methods, ideas=brief.n_ideas)
    review_schema = bind_schema(IdeaReview, agents=[], methods=methods, ideas=brief.n_ideas)
    context_of = context_builder(brief)
    clients: dict[str, AutoGenModelClient] = {}
    agents: list[Any] = []
    for name, schema in ((MAKER, idea_schema), (HATER, review_schema)):
        spec = registry.get(name)
        clients[name] = AutoGenModelClient(client, agent=name, tier=spec.tier, context_of=context_of)
        agents.append(AssistantAgent(
            name, model_client=clients[name], description=spec.description,
            system_message=spec.render(output_format=output_format(schema)), output_content_type=schema,
            model_context=HeadAndTailChatCompletionContext(head_size=1, tail_size=2)))

    def satisfied(messages: Sequence[Any]) -> bool:
        return any(isinstance(m, StructuredMessage) and isinstance(m.content, IdeaReview) and m.content.satisfied
                   for m in messages)

    rounds_limit = brief.rounds
    team = RoundRobinGroupChat(
        agents, termination_condition=MaxMessageTermination(1 + 2 * rounds_limit) | FunctionalTermination(satisfied),
        custom_message_types=[StructuredMessage[idea_schema], StructuredMessage[review_schema]])  # type: ignore[valid-type]
    said: list[Round] = []
    quiet = logging.getLogger("autogen_core")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # an agent's failure is ours to report (typed), not AutoGen's traceback
    try:
        async for message in team.run_stream(task=brief.render()):
            if not isinstance(message, StructuredMessage):
                continue
            content = message.content
            number = sum(1 for r in said if r.agent == MAKER) + (1 if isinstance(content, IdeaSet) else 0)
            entry = (Round(round=number, agent=message.source, ideas=content) if isinstance(content, IdeaSet)
                     else Round(round=number, agent=message.source, review=content))
            said.append(entry)
            on_round(entry)
    except RuntimeError:  # AutoGen wraps an agent's exception; the client kept the typed one
        cause = next((e for c in clients.values() for e in c.errors), None)
        if isinstance(cause, (BudgetExceeded, CmbagentError)):
            raise TeamStopped(cause, said) from cause
        raise
    finally:
        quiet.setLevel(level)
    return said
