"""The agent roster: one markdown prompt per agent (YAML front matter + template), validated at start-up.

Adding an agent is one prompt file in ``prompts/``; a file with bad front matter, an unknown output
schema, an unknown tier or an unknown template placeholder fails loudly with :class:`PromptError`
naming the file, before any run starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from cmbagent.agents._schemas import SCHEMAS
from cmbagent.exceptions import ConfigError, UnknownAgentError

__all__ = [
    "PLACEHOLDERS",
    "ROLES",
    "STEP_ROLES",
    "TIERS",
    "AgentRegistry",
    "AgentSpec",
    "PromptError",
    "load_registry",
]

ROLES = (
    "planning", "control", "code", "method", "text", "review", "repair", "critic", "summary", "report", "deterministic",
)
STEP_ROLES = ("code", "method", "text")  # roles a plan step may name
TIERS = ("strong", "fast", "vision", "none")
PLACEHOLDERS = frozenset({"agents", "methods", "max_steps", "output_format"})
_FIELDS = {"name", "role", "description", "tools", "output_schema", "tier"}
_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


class PromptError(ConfigError):
    """A prompt file that breaks the roster contract; the message names the file and the fix."""


@dataclass(frozen=True)
class AgentSpec:
    """Everything the graph needs to call one agent."""

    name: str
    role: str
    description: str
    tools: tuple[str, ...]
    output_schema: str | None
    tier: str
    template: str
    path: str = ""
    placeholders: frozenset[str] = field(default_factory=frozenset)

    @property
    def schema(self) -> type[BaseModel] | None:
        return SCHEMAS[self.output_schema] if self.output_schema else None

    @property
    def deterministic(self) -> bool:
        return self.role == "deterministic"

    def render(self, **values: Any) -> str:
        """The system prompt with its placeholders filled (missing ones become empty)."""
        return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), "")), self.template).strip()


def _split_front_matter(text: str, path: str) -> tuple[dict[str, Any], str]:
    if not text.startswith("---"):
        raise PromptError(f"{path}: a prompt file starts with YAML front matter between '---' lines")
    parts = text.split("\n---", 1)
    if len(parts) != 2:
        raise PromptError(f"{path}: the front matter is not closed by a '---' line")
    head = parts[0][3:]
    body = parts[1].split("\n", 1)[1] if "\n" in parts[1] else ""
    try:
        meta = yaml.safe_load(head) or {}
    except yaml.YAMLError as exc:
        raise PromptError(f"{path}: the front matter is not valid YAML ({exc})") from None
    if not isinstance(meta, dict):
        raise PromptError(f"{path}: the front matter must be a mapping of {sorted(_FIELDS)}")
    return meta, body


def parse_prompt(text: str, path: str) -> AgentSpec:
    """Parse and validate one prompt file."""
    meta, body = _split_front_matter(text, path)
    missing = sorted(_FIELDS - set(meta))
    if missing:
        raise PromptError(f"{path}: front matter lacks {', '.join(missing)}")
    extra = sorted(set(meta) - _FIELDS)
    if extra:
        raise PromptError(f"{path}: unknown front-matter key(s) {', '.join(extra)}; allowed: {sorted(_FIELDS)}")
    name = meta["name"]
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise PromptError(f"{path}: name {name!r} must be lower snake case")
    stem = Path(path).stem
    if stem != name:
        raise PromptError(f"{path}: name {name!r} must match the file name {stem!r}")
    role = meta["role"]
    if role not in ROLES:
        raise PromptError(f"{path}: role {role!r} is not one of {', '.join(ROLES)}")
    tier = meta["tier"]
    if tier not in TIERS:
        raise PromptError(f"{path}: tier {tier!r} is not one of {', '.join(TIERS)}")
    schema = meta["output_schema"]
    if role == "deterministic":
        if schema is not None or tier != "none":
            raise PromptError(f"{path}: a deterministic agent has output_schema: null and tier: none")
    elif schema not in SCHEMAS:
        raise PromptError(f"{path}: output_schema {schema!r} is not one of {', '.join(sorted(SCHEMAS))}")
    tools = meta["tools"] or []
    if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
        raise PromptError(f"{path}: tools must be a list of tool names")
    description = meta["description"]
    if not isinstance(description, str) or not description.strip():
        raise PromptError(f"{path}: description must be a non-empty sentence")
    if len(body.strip()) < 200:
        raise PromptError(f"{path}: the prompt body is too short to tell the agent its job; write it out")
    used = frozenset(_PLACEHOLDER.findall(body))
    unknown = sorted(used - PLACEHOLDERS)
    if unknown:
        raise PromptError(
            f"{path}: unknown placeholder(s) {', '.join(unknown)}; allowed: {', '.join(sorted(PLACEHOLDERS))}"
        )
    return AgentSpec(
        name=name,
        role=role,
        description=description.strip(),
        tools=tuple(tools),
        output_schema=schema,
        tier=tier,
        template=body.strip() + "\n",
        path=path,
        placeholders=used,
    )


class AgentRegistry:
    """The validated roster, keyed by agent name."""

    def __init__(self, specs: list[AgentSpec]):
        self._specs: dict[str, AgentSpec] = {}
        for spec in specs:
            if spec.name in self._specs:
                raise PromptError(f"{spec.path}: agent {spec.name!r} is defined twice")
            self._specs[spec.name] = spec

    def __iter__(self) -> Iterator[AgentSpec]:
        return iter(sorted(self._specs.values(), key=lambda s: (ROLES.index(s.role), s.name)))

    def __len__(self) -> int:
        return len(self._specs)

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def get(self, name: str) -> AgentSpec:
        try:
            return self._specs[name]
        except KeyError:
            raise UnknownAgentError(
                f"unknown agent {name!r}; the roster has: {', '.join(sorted(self._specs))}"
            ) from None

    def step_agents(self) -> set[str]:
        """Agents a plan step may name (code, method and text roles)."""
        return {s.name for s in self._specs.values() if s.role in STEP_ROLES}

    def describe_step_agents(self) -> str:
        return "\n".join(f"- {s.name} ({s.role}): {s.description}" for s in self if s.role in STEP_ROLES)


def load_registry(folder: str | Path | None = None) -> AgentRegistry:
    """Load and validate every ``*.md`` prompt in ``folder`` (default: the packaged prompts)."""
    if folder is not None:
        paths = sorted(Path(folder).glob("*.md"))
        return AgentRegistry([parse_prompt(p.read_text(encoding="utf-8"), str(p)) for p in paths])
    return _packaged_registry()


@lru_cache(maxsize=1)
def _packaged_registry() -> AgentRegistry:
    root = resources.files("cmbagent.prompts")
    specs = []
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".md") and entry.name.lower() != "readme.md":
            specs.append(parse_prompt(entry.read_text(encoding="utf-8"), f"prompts/{entry.name}"))
    if not specs:
        raise PromptError("no prompt files found in cmbagent.prompts; the package data is missing (reinstall)")
    return AgentRegistry(specs)
