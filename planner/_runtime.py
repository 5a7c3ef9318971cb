"""What the graph's nodes share and must not keep in checkpointed state: the run folder, the model client,
the sandbox, the event log and the settings.  One ``Runtime`` per process; resuming builds a new one."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from cmbagent.agents import AgentRegistry
from cmbagent.events import EventLog, read_events
from cmbagent.models._protocol import ImagePart, Message, ModelRequest, ModelResponse, TextPart
from cmbagent.planner._context import output_format
from cmbagent.run import RunFolder
from cmbagent.sandbox._types import Executor

__all__ = ["Client", "GraphSettings", "Runtime"]


class Client(Protocol):
    """The part of :class:`cmbagent.models.ModelClient` the graph uses."""

    def request(self, *, agent: str, tier: str, request: ModelRequest) -> ModelResponse: ...

    def check_budget(self) -> None: ...


@dataclass(frozen=True)
class GraphSettings:
    """Limits of one run (typed, keyword-only at the API)."""

    max_steps: int = 12
    n_reviews: int = 1
    max_attempts: int = 3
    approve_plan: bool = False
    max_replans: int = 3
    max_rejections: int = 2
    max_plan_repairs: int = 3
    cell_timeout: float = 900.0
    vision: bool = False
    allow_install: bool = False  # pip installs into <run>/.overlay/site-packages (see planner/_install.py)


class Runtime:
    """Services for the nodes.  The executor opens lazily: planning never starts a kernel."""

    def __init__(
        self,
        *,
        folder: RunFolder,
        registry: AgentRegistry,
        client: Client,
        events: EventLog,
        settings: GraphSettings,
        open_executor: Callable[[], Executor],
    ):
        self.folder = folder
        self.registry = registry
        self.client = client
        self.events = events
        self.settings = settings
        self._open_executor = open_executor
        self._executor: Executor | None = None
        self.turns = 0  # agent turns (model calls made by the graph), for the benchmark
        # a node killed after emitting and before its checkpoint committed runs again on resume;
        # step ids are unique within a run, so each step's final event is written once
        self._finished = {e.data.get("step_id") for e in read_events(events.path) if e.type == "step_finished"}

    def step_finished(self, step_id: str, **data: Any) -> None:
        """Emit ``step_finished`` for ``step_id`` unless an earlier (killed) attempt of this node did."""
        if step_id in self._finished:
            return
        self._finished.add(step_id)
        self.events.emit("step_finished", step_id=step_id, **data)

    @property
    def executor(self) -> Executor:
        if self._executor is None:
            self._executor = self._open_executor()
            if self.settings.allow_install and self.overlay.is_dir():
                self.use_overlay()  # a resumed run's fresh kernel sees what earlier attempts installed
        return self._executor

    @property
    def overlay(self) -> Path:
        """The run's package overlay (absolute; the same path inside the sandbox)."""
        from cmbagent.planner._install import overlay_dir

        return overlay_dir(self.folder.path)

    def use_overlay(self) -> str | None:
        """Make the overlay importable in the kernel (idempotent; run after every install).

        Returns None on success, else the kernel's error (the retried cell then fails as before and the
        normal debugging path takes over, so this is not raised).
        """
        from cmbagent.planner._install import overlay_setup_code

        result = self.executor.execute(overlay_setup_code(self.overlay), timeout=60)
        return None if result.ok else f"{result.error_name or result.status}: {result.error_value or result.message}"

    def close(self) -> None:
        if self._executor is not None:
            executor, self._executor = self._executor, None
            executor.close()

    @functools.cached_property
    def catalogue(self) -> str:
        """The method catalogue the planner sees: one line per method (bounded by the registry size)."""
        from cmbagent.tools.methods import iter_methods

        lines = []
        for spec in iter_methods():
            args = ", ".join(f"{a}{'*' if a in spec.required else ''}" for a in spec.arguments)
            lines.append(f"- {spec.name}: {spec.summary} (arguments: {args})")
        return "\n".join(lines) or "(no method tools installed)"

    def ask(self, agent: str, sections: list[tuple[str, str]], metadata: dict[str, Any],
            images: list[str] | None = None) -> Any:
        """One judgement: render the agent's prompt and context, call its model, return the validated output.

        ``images`` (run-relative paths) are attached as image parts; callers pass them only when a
        vision-capable model is configured for the agent.
        """
        spec = self.registry.get(agent)
        schema: type[BaseModel] | None = spec.schema
        system = spec.render(
            output_format=output_format(schema),
            agents=self.registry.describe_step_agents(),
            methods=self.catalogue if spec.placeholders & {"methods"} else "",
            max_steps=self.settings.max_steps,
        )
        user = "\n\n".join(f"## {title}\n{body}" for title, body in sections if body)
        content: str | list[TextPart | ImagePart] = user
        if images:
            content = [TextPart(text=user), *(ImagePart(path=str(self.folder.path / rel)) for rel in images)]
        request = ModelRequest(
            messages=[Message(role="system", content=system), Message(role="user", content=content)],
            output_schema=schema,
            agent=agent,
            metadata={"agent": agent, **metadata},
        )
        self.turns += 1
        response = self.client.request(agent=agent, tier=spec.tier, request=request)
        return response.output
