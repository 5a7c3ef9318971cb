"""The agent roster: one markdown prompt per agent (YAML front matter + template), validated at start-up.

Adding an agent is one prompt file in ``prompts/``; a file with bad front matter, an unknown output
schema, tier, tool or template placeholder fails loudly with :class:`PromptError` naming the file, before
any run starts.

Every agent of the roster is a model call the graph makes (the sandbox and the end of a run are code, not
agents).  ``tools:`` names what code gives the agent beyond its prompt and context; the one kind of tool there
is searches the run's knowledge index (:data:`SEARCH_TOOLS`), and an agent without one has ``tools: []``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cmbagent.agents._schemas import ROLE_SCHEMAS, SCHEMAS
from cmbagent.cells import RESULT_BEGIN, RESULT_END
from cmbagent.exceptions import ConfigError, FrontMatterError, UnknownAgentError
from cmbagent.frontmatter import split_front_matter

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
    "planning", "control", "code", "method", "text", "review", "repair", "critic", "summary", "report", "ideas",
)
STEP_ROLES = tuple(ROLE_SCHEMAS)  # roles a plan step may name: code, method, text
TIERS = ("strong", "fast", "vision")
PLACEHOLDERS = frozenset({"agents", "methods", "max_steps", "output_format", "result_begin", "result_end"})
_FIELDS = {"name", "role", "description", "tools", "output_schema", "tier"}
#: the tools a prompt may name: each makes code search the run's knowledge index for the agent's text steps
#: (more passages, of these chunk kinds only) and leaves the agent out of plans of runs without an index
SEARCH_TOOLS: dict[str, tuple[str, ...]] = {"search_literature": ("pdf", "markdown", "text"),
                                            "search_code": ("code", "notebook")}
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
    output_schema: str
    tier: str
    template: str
    path: str = ""
    placeholders: frozenset[str] = field(default_factory=frozenset)

    @property
    def schema(self) -> type[BaseModel]:
        return SCHEMAS[self.output_schema]

    @property
    def search_kinds(self) -> tuple[str, ...] | None:
        """The chunk kinds its search tools cover (None: it has no search tool, so it needs no index)."""
        kinds = [kind for tool in self.tools if tool in SEARCH_TOOLS for kind in SEARCH_TOOLS[tool]]
        return tuple(dict.fromkeys(kinds)) if kinds else None

    def render(self, **values: Any) -> str:
        """The system prompt with its placeholders filled (missing ones become empty; the result markers
        always come from :mod:`cmbagent.cells`)."""
        values = {"result_begin": RESULT_BEGIN, "result_end": RESULT_END, **values}
        return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), "")), self.template).strip()


def _split_front_matter(text: str, path: str) -> tuple[dict[str, Any], str]:
    try:
        meta, body = split_front_matter(text)
    except FrontMatterError as exc:
        raise PromptError(f"{path}: {exc}") from None
    if meta is None:
        raise PromptError(f"{path}: a prompt file starts with YAML front matter between '---' lines")
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
    if schema not in SCHEMAS:
        raise PromptError(f"{path}: output_schema {schema!r} is not one of {', '.join(sorted(SCHEMAS))}")
    elif role in ROLE_SCHEMAS and schema != ROLE_SCHEMAS[role].__name__:
        raise PromptError(f"{path}: a {role} agent answers with output_schema {ROLE_SCHEMAS[role].__name__}, "
                          f"not {schema}; the graph's {role} steps read that schema")
    tools = meta["tools"] or []
    if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
        raise PromptError(f"{path}: tools must be a list of tool names")
    unknown_tools = [t for t in tools if t not in SEARCH_TOOLS]
    if unknown_tools:
        raise PromptError(
            f"{path}: unknown tool(s) {', '.join(unknown_tools)}; a prompt may name only the knowledge-index "
            f"searches ({', '.join(SEARCH_TOOLS)}); what else an agent gets follows from its role (a code "
            "agent's cell runs in the sandbox, a planner is shown the method catalogue through {{ methods }}), "
            "so write tools: [] for it"
        )
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

    def step_agents(self, *roles: str, index: bool = True) -> set[str]:
        """Agents a plan step may name (code, method and text roles), or only those of ``roles``.

        Without a knowledge index (``index=False``) agents whose work is searching it are left out.
        """
        wanted = roles or STEP_ROLES
        return {s.name for s in self._specs.values() if s.role in wanted and s.role in STEP_ROLES
                and (index or s.search_kinds is None)}

    def describe_step_agents(self, *, index: bool = True, compact: bool = False) -> str:
        """The roster a planner is shown: one line per step agent with its role and description, or with
        ``compact`` (a model that takes compact prompts, whose grammar enforces the agent names) one line per role
        naming its agents."""
        shown = [s for s in self if s.role in STEP_ROLES and (index or s.search_kinds is None)]
        if compact:
            return "\n".join(f"- {role}: {', '.join(s.name for s in shown if s.role == role)}"
                             for role in dict.fromkeys(s.role for s in shown))
        return "\n".join(f"- {s.name} ({s.role}): {s.description}" for s in shown)


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
