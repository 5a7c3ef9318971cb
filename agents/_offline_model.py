"""The deterministic ``offline`` backend: no language model, every judgement made by a rule.

A rule answers one output schema (optionally for one agent role) from the typed context of the call — the
same object the prompt was rendered from (:mod:`cmbagent.agents._context`).  So a new agent needs no offline
edit (it reuses its schema's rule), and a new output schema needs one rule.  The backend maps the task to the
method catalogue, fills method arguments from the front matter and the text, writes the cells that inspect
the data or run the method, critiques by the severity of the audits' findings (an error rejects), and summarises and reports
from the result values and the findings.  It is honest about its reach: a task it cannot map raises
:class:`TaskError` naming how to configure a real model.  Its calls go through ``ModelClient`` like any
model's, so they land in ``transcript.jsonl`` and a run replays.
"""

from __future__ import annotations

import os
import time

from pydantic import BaseModel

from cmbagent.agents._context import AgentContext
from cmbagent.agents._rulebook import RULES, Rule, offline_rule
from cmbagent.exceptions import ConfigError
from cmbagent.models import Model, ModelRequest, ModelResponse, StreamCallback, Usage

__all__ = ["OfflineModel", "offline_rule", "rule_for"]


def rule_for(schema: type[BaseModel], role: str | None = None) -> Rule:
    """The rule for ``schema`` or the nearest base class it was bound from (role-specific rules first)."""
    from cmbagent.agents import _offline_ideas, _offline_rules  # noqa: F401  (register the rules)

    for cls in schema.__mro__:
        for key in ((cls, role), (cls, None)):
            if key in RULES:
                return RULES[key]
    raise ConfigError(
        f"the offline backend has no rule for output schema {schema.__name__}; add one with "
        f"@offline_rule({schema.__name__}) in cmbagent/agents/_offline_rules.py, or route this agent to a model"
    )


class OfflineModel(Model):
    """Rule-based answers for every agent of the roster (see the module docstring)."""

    spec = "offline"
    #: rules, not a language model: nothing to guard against repetition
    guarded = False

    def __init__(self) -> None:
        # tests may slow the backend down to hit kill points deterministically; never set in production
        self._delay = float(os.environ.get("CMBAGENT_OFFLINE_DELAY", "0") or 0)
        self._delay_agents = set(filter(None, os.environ.get("CMBAGENT_OFFLINE_DELAY_AGENTS", "").split(",")))

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        agent = request.agent
        if self._delay and (not self._delay_agents or agent in self._delay_agents):
            time.sleep(self._delay)
        schema = request.output_schema
        context = request.context
        if schema is None or not isinstance(context, AgentContext):
            raise ConfigError(
                f"the offline backend answers agent calls that ask for a structured output and carry their typed "
                f"context (ask(agent, context)); the call of {agent or 'an unnamed agent'!r} has "
                f"{'no output schema' if schema is None else 'no context'}"
            )
        output = rule_for(schema, _role(agent))(context)
        if not isinstance(output, schema):
            output = schema.model_validate(output.model_dump())
        return ModelResponse(text=output.model_dump_json(), output=output, usage=Usage(), model="offline",
                             cost_usd=0.0)


def _role(agent: str) -> str | None:
    from cmbagent.agents._registry import load_registry

    registry = load_registry()
    return registry.get(agent).role if agent in registry else None
