"""The offline backend's rule book: which rule answers which output schema (and role).

A leaf of its own so that the rule modules (``_offline_rules.py``, ``_offline_ideas.py``) register into it
without importing the backend (:mod:`cmbagent.agents._offline_model`), which loads them on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from cmbagent.exceptions import ConfigError

__all__ = ["RULES", "Rule", "offline_rule"]

Rule = Callable[[Any], BaseModel]
R = TypeVar("R", bound=Rule)

#: (output schema, role or None) -> the rule that answers it
RULES: dict[tuple[type[BaseModel], str | None], Rule] = {}


def offline_rule(schema: type[BaseModel], *, role: str | None = None) -> Callable[[R], R]:
    """Register the rule that answers ``schema`` (for agents of ``role`` only, when given)."""

    def decorator(fn: R) -> R:
        key = (schema, role)
        if key in RULES:
            raise ConfigError(f"the offline backend has two rules for {schema.__name__}"
                              + (f" (role {role})" if role else "") + "; keep one")
        RULES[key] = fn
        return fn

    return decorator
