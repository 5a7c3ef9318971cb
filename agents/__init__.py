"""The agent roster: specs loaded from ``prompts/*.md``, their structured-output schemas and sanity checks."""

from __future__ import annotations

from cmbagent.agents._registry import (
    ROLES,
    STEP_ROLES,
    AgentRegistry,
    AgentSpec,
    PromptError,
    load_registry,
    parse_prompt,
)
from cmbagent.agents._schemas import SCHEMAS

__all__ = [
    "ROLES",
    "SCHEMAS",
    "STEP_ROLES",
    "AgentRegistry",
    "AgentSpec",
    "PromptError",
    "load_registry",
    "parse_prompt",
]
