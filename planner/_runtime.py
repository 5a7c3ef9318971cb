"""What the graph's nodes share and must not keep in checkpointed state: the run folder, the model client,
the sandbox, the event log and the run's settings.  One ``Runtime`` per process; resuming builds a new one.

The ``Runtime`` is the graph's LangGraph runtime context (``StateGraph(RunState, context_schema=Runtime)``):
the session passes it to ``graph.invoke(..., context=rt)`` and every node receives it as ``runtime.context``
(see :mod:`cmbagent.planner._graph`).  Its ``settings`` are the run's :class:`cmbagent.config.RunSettings`, the
very object the API, the CLI, the UI or the batch worker built and :meth:`cmbagent.config.RunConfig.resolve`
completed, not a copy."""

from __future__ import annotations

import contextvars
import functools
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from cmbagent.agents import (
    AgentContext,
    AgentRegistry,
    ReplanContext,
    StepContext,
    TaskContext,
    bind_schema,
    catalogue_lines,
    output_format,
)
from cmbagent.config import RunSettings
from cmbagent.events import EventLog, read_events
from cmbagent.exceptions import ConfigError, OutputValidationError
from cmbagent.models import (
    ImagePart,
    Message,
    ModelRequest,
    ModelResponse,
    ModelSettings,
    TextPart,
    output_budget,
)
from cmbagent.run import RunFolder
from cmbagent.sandbox import Executor
from cmbagent.state import IMAGE_SUFFIXES, ArgumentShapes, Plan, PlanStep

__all__ = ["CATALOGUE_LIMIT", "SHARED_MATERIAL", "Ask", "Client", "Runtime"]

T = TypeVar("T", bound=BaseModel)
#: the agents whose material (the call's context) the call just before or after them reads too: the task analyst
#: and the requirements analyst read the same task and data, the step critic and the science checker the same step.
#: Their requests say so (``ModelRequest.shared_material``), so a provider whose cache lives for one run can send
#: the material first and the next call reads it from the cache (``cmbagent.models.local``).  The others read
#: material of their own (the plot critic and the summariser share only the step's heading with the critics) and
#: keep the order the agents write; SmolLM2 given the summariser's instructions after its material began its
#: summary with their heading.
SHARED_MATERIAL = frozenset({"task_analyst", "requirements_analyst", "step_critic", "science_checker"})
#: the planner sees the whole method catalogue up to this many methods; past it, those nearest the task by
#: meaning (the catalogue is indexed, see cmbagent.literature.search_methods) plus the one the task names
CATALOGUE_LIMIT = 40


class Client(Protocol):
    """The part of :class:`cmbagent.models.ModelClient` the graph uses."""

    def request(self, *, agent: str, tier: str, request: ModelRequest) -> ModelResponse: ...

    def check_budget(self) -> None: ...


@dataclass(frozen=True)
class Ask:
    """One judgement for :meth:`Runtime.ask_many`: the arguments of :meth:`Runtime.ask`."""

    agent: str
    context: AgentContext
    expect: type[BaseModel]
    images: list[str] | None = None


#: what the run itself writes into a step's outputs (cell logs, install logs, a method's result, an answer)
_RECORDS = re.compile(r"(?:install-)?attempt-\d+\.txt|result\.json|answer\.md")


class Runtime:
    """Services for the nodes.  The executor opens lazily: planning never starts a kernel."""

    def __init__(
        self,
        *,
        folder: RunFolder,
        registry: AgentRegistry,
        client: Client,
        events: EventLog,
        open_executor: Callable[[], Executor],
        settings: RunSettings | None = None,
        vision: bool = False,
        preflight: Any = None,
        retriever: Any = None,
        method_index: Callable[[], Any] | None = None,
    ):
        self.folder = folder
        self.registry = registry
        self.client = client
        self.events = events
        self.settings = settings if settings is not None else RunSettings()
        self.vision = vision  # a vision model is routed to the plot critic: it sees the figures (RunConfig.vision)
        self.preflight = preflight  # pre-flight's reading of the task (cmbagent.preflight.Preflight), or None
        self._open_executor = open_executor
        self.retriever = retriever  # a planner._retrieval.Retriever over the run's knowledge index, or None
        self._method_index = method_index  # the catalogue's index, for catalogues past CATALOGUE_LIMIT
        self._executor: Executor | None = None
        self.turns = 0  # agent turns (model calls made by the graph), for the benchmark
        self._turn_lock = threading.Lock()
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
    def method_names(self) -> list[str]:
        from cmbagent.tools.methods import iter_methods

        return [spec.name for spec in iter_methods()]

    @functools.cached_property
    def argument_shapes(self) -> ArgumentShapes:
        """Each registered method's argument names and types, for the schemas of plans, briefs and calls (every
        mapping closed: a model writes only the keys a method names, see ``closed_mappings``)."""
        from cmbagent.tools.methods import iter_methods, path_arguments

        return ArgumentShapes.of({spec.name: spec.model_parameters for spec in iter_methods()},
                                 inputs={spec.name: [a for a, kind in path_arguments(spec.name).items() if kind == "input"]
                                         for spec in iter_methods()})

    def known_files(self, context: AgentContext) -> list[str] | None:
        """The files a call may name as a method's input, run-relative: the task's inputs, and for a step or a
        replan the files earlier steps wrote (their outputs, figures and results aside); None where the context
        knows no files."""
        brief = getattr(context, "brief", None)
        if isinstance(context, TaskContext):
            inputs = list(context.data_files)
        elif brief is not None:
            inputs = list(brief.data_files)
        else:
            return None
        if not isinstance(context, (StepContext, ReplanContext)):
            return inputs
        steps = self.folder.path / "steps"
        made = sorted(str(p.relative_to(self.folder.path)) for p in steps.glob("*/outputs/**/*")
                      if p.is_file() and not _RECORDS.fullmatch(p.name) and not p.name.lower().endswith(IMAGE_SUFFIXES))
        return [*inputs, *made[:40]]

    def plan_methods(self, task: Any) -> list[str] | None:
        """The methods plans may name for ``task``: only the one its front matter names, when it names a
        registered one (a small model otherwise picks any method of the catalogue), else every one (None)."""
        method = getattr(task, "method", None)
        return [method] if method and method in self.method_names else None

    def step_agents(self) -> set[str]:
        """Agents a plan may name here: the roster's step agents, without the index searchers when there is
        no index."""
        return self.registry.step_agents(index=self.retriever is not None)

    @functools.cached_property
    def index_description(self) -> str:
        """What the planner is told about the run's knowledge index ("" without one)."""
        return self.retriever.describe() if self.retriever is not None else ""

    def catalogue_for(self, context: AgentContext, only: list[str] | None = None) -> str:
        """The method catalogue a planning call sees: one line per method.

        With ``only`` (the methods the call's schema lets it name: the task's own method when its front matter
        names one) just those, since listing others only invites a plan the schema refuses (and costs a small
        local model ~1,500 prompt tokens a call).  Otherwise, up to :data:`CATALOGUE_LIMIT` methods, the whole
        registry; past it, the methods nearest the task by meaning (hybrid search of the indexed catalogue for
        the brief's words), so the prompt stays bounded however large the catalogue grows.
        """
        from cmbagent.tools.methods import get_method, iter_methods

        if only:
            return "\n".join(catalogue_lines([get_method(name) for name in only]))
        specs = list(iter_methods())
        brief = getattr(context, "brief", None)
        if len(specs) > CATALOGUE_LIMIT and brief is not None:
            from cmbagent.literature import method_index, search_methods

            query = " ".join(part for part in (brief.title, brief.objective, brief.domain) if part)
            index = self._method_index() if self._method_index is not None else method_index()
            names = [hit.name for hit in search_methods(query, k=CATALOGUE_LIMIT, index=index)]
            if brief.method and brief.method not in names:
                names = [brief.method, *names[:-1]]
            specs = [get_method(name) for name in names]
        return "\n".join(catalogue_lines(specs)) or "(no method tools installed)"

    def _room_of(self, context: AgentContext) -> int | None:
        """For a replan: how many new steps fit in the plan (None for any other call)."""
        if not isinstance(context, ReplanContext):
            return None
        return _room(context.plan, context.failed, len(context.new_ids), self.settings.max_steps)

    def compact(self, agent: str) -> bool:
        """Whether ``agent``'s model takes compact prompts and the small model's schemas (a local llama.cpp server
        with a small context, ``Model.compact_prompts``): what it writes is bounded to what the run uses of it."""
        return bool(getattr(self.client, "compact_prompts", lambda *_: False)(agent, self.registry.get(agent).tier))

    def ask(self, agent: str, context: AgentContext, expect: type[T], *, images: list[str] | None = None,
            methods: list[str] | None = None, fixed: dict[str, Any] | None = None, stated: int | None = None) -> T:
        """One judgement: render ``context`` into the agent's prompt, call its model, return its reply.

        ``expect`` is the output schema the node needs; the agent's prompt must declare it (or a subclass).
        Plans and replans are asked for with the roster's step agents and the registered methods as enums.
        ``images`` (run-relative paths) are attached as image parts; callers pass them only when a
        vision-capable model is configured for the agent.  ``methods`` narrows the methods a plan may name
        (default: every registered one); ``fixed`` are method arguments the task states (constants of a call);
        ``stated`` how many settings and files code's rules found stated in the task (the requirements list's size
        for a small model).
        """
        spec = self.registry.get(agent)
        declared = spec.schema
        if not issubclass(declared, expect):
            raise ConfigError(
                f"{spec.path}: agent {agent!r} declares output_schema {spec.output_schema}, but the graph asks it "
                f"for a {expect.__name__} here; declare {expect.__name__}"
            )
        # a local llama.cpp server with a small context takes compact prompts and the small model's schemas
        # (cmbagent.agents states each cut and each bound)
        compact = self.compact(agent)
        files = self.known_files(context)
        shapes = self.argument_shapes if files is None else self.argument_shapes.with_files(files)
        schema = bind_schema(declared, agents=sorted(self.step_agents()), methods=methods or self.method_names,
                             arguments=shapes,
                             named=_named_method(context) or (methods[0] if methods and len(methods) == 1 else None),
                             files=getattr(context, "data_files", None), max_steps=self.settings.max_steps,
                             method_agents=sorted(self.registry.step_agents("method")), fixed=fixed,
                             criteria=_criteria_of(context), new_steps=self._room_of(context),
                             citable=[p.chunk_id for p in getattr(context, "passages", None) or ()],
                             stated=stated, compact=compact)
        system = spec.render(
            output_format=output_format(schema, compact=compact),
            agents=self.registry.describe_step_agents(index=self.retriever is not None, compact=compact),
            methods=self.catalogue_for(context, methods) if spec.placeholders & {"methods"} else "",
            max_steps=self.settings.max_steps,
        )
        user = context.render(compact=compact)
        content: str | list[TextPart | ImagePart] = user
        if images:
            content = [TextPart(text=user), *(ImagePart(path=str(self.folder.path / rel)) for rel in images)]
        request = ModelRequest(
            messages=[Message(role="system", content=system), Message(role="user", content=content)],
            shared_material=agent in SHARED_MATERIAL,
            output_schema=schema,
            # the longest reply the bound schema allows: a plan's budget follows its steps, a critique's its criteria;
            # a small model's grammar holds it to the schema, at a token a character at worst (digits)
            settings=ModelSettings(max_tokens=output_budget(schema, chars_per_token=1) if compact
                                   else output_budget(schema)),
            agent=agent,
            context=context,
        )
        with self._turn_lock:
            self.turns += 1
        output = self.client.request(agent=agent, tier=spec.tier, request=request).output
        if not isinstance(output, expect):  # the client validated it against ``schema``; this is a bug guard
            raise OutputValidationError(f"agent {agent!r} returned {type(output).__name__}, not {expect.__name__}")
        return output

    def parallel(self, agents: list[str]) -> int:
        """How many calls of ``agents`` may run at once: the fewest any of their models takes (a llama.cpp server
        its slots, a hosted API several, a scripted, replayed or rule-based model one, so tests and replays keep
        their order)."""
        width = getattr(self.client, "parallel_calls", None)
        if width is None:
            return 1
        return max(1, min(int(width(agent, self.registry.get(agent).tier)) for agent in agents))

    def ask_many(self, asks: list[Ask]) -> list[BaseModel | OutputValidationError]:
        """Independent judgements (a step's critics), at once where their models allow (:meth:`parallel`); the
        replies in the order asked.  A judgement whose reply stayed invalid (it looped twice, or failed its repairs)
        is its :class:`OutputValidationError`, for the caller to set aside; any other error is raised."""
        def one(item: Ask) -> BaseModel | OutputValidationError:
            try:
                return self.ask(item.agent, item.context, item.expect, images=item.images)
            except OutputValidationError as exc:
                return exc

        width = min(len(asks), self.parallel([a.agent for a in asks])) if asks else 1
        if width <= 1:
            return [one(item) for item in asks]
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=width, thread_name_prefix="cmbagent-ask") as pool:
            futures = [pool.submit(contextvars.copy_context().run, one, item) for item in asks]
            return [future.result() for future in futures]


def _room(plan: Plan, failed: PlanStep, offered: int, max_steps: int) -> int:
    """How many steps a revision may add after ``failed``: the plan's room behind it, at most ``offered``."""
    ids = plan.ids
    at = ids.index(failed.id) + 1 if failed.id in ids else len(ids)
    return max(0, min(offered or max_steps, max_steps - at))


def _criteria_of(context: AgentContext) -> tuple[str, ...] | None:
    """The acceptance criteria of the step a critic judges (None: the context is not about a step)."""
    step = getattr(context, "step", None)
    criteria = getattr(step, "acceptance_criteria", None)
    return tuple(criteria) if isinstance(criteria, list) else None


def _named_method(context: AgentContext) -> str | None:
    """The method a call is about when code already knows it: the task's front matter (the analyst), the
    step's method (the method operator)."""
    method = getattr(context, "method", None)
    if isinstance(method, str) and method:
        return method
    if isinstance(method, dict) and isinstance(method.get("name"), str):  # a MethodContext's described method
        return str(method["name"])
    step = getattr(context, "step", None)
    call = getattr(step, "method", None)
    return getattr(call, "name", None)
