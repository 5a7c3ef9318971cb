"""A run's configuration, resolved once from its sources with an explicit precedence, then frozen.

Each setting is taken from the highest source that sets it::

    flag given  >  environment  >  task front matter  >  config file (cmbagent.toml)  >  default

"Given" is known, not guessed from the value: a flag is a keyword argument that is not ``None`` (the CLI's
options default to ``None``), so ``solve(max_steps=12)`` beats a front matter ``max_steps: 5`` even though
12 is the default.  Not every source can set every setting:

=========================  ============================  =====================================
setting                    environment                   config file
=========================  ============================  =====================================
model (the default spec)   ``CMBAGENT_MODEL``            ``[models] default``
agent_models               ``CMBAGENT_MODEL_<AGENT>``    ``[models.agents]``
tiers                      ``CMBAGENT_TIER_<TIER>``      ``[models.tiers]``
budget usd/tokens/seconds  ``CMBAGENT_BUDGET_<KIND>``    ``[budget]``
max_steps, n_reviews,      —                             —
max_attempts
cell_timeout               ``CMBAGENT_CELL_TIMEOUT``     ``[run] cell_timeout``
collection (the index)     —                             ``[index] collection``
index_dir                  ``CMBAGENT_INDEX_DIR``        ``[index] dir``
=========================  ============================  =====================================

The task front matter may set ``model``, ``agent_models``, ``budget_usd``, ``budget_tokens``, ``timeout``,
``max_steps``, ``n_reviews``, ``max_attempts``, ``cell_timeout`` and ``collection`` (never the index folder).
The run settings (:class:`RunSettings`) declare their own sources with :class:`SetBy`, so the rows above for
them are read from the class, not kept by hand here; the sandbox, installs and plan approval are flags only.  A run with a
collection reads the knowledge index in ``index_dir`` (resolved to an absolute path when the run starts,
default the user data folder; see :mod:`cmbagent.literature`).  ``sources`` records where each setting came from; the
resolved config is stored in ``run.json`` and read back (typed) when a run resumes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cmbagent.exceptions import ConfigError, UserError

__all__ = ["SANDBOXES", "BudgetLimits", "RunConfig", "RunSettings", "SetBy", "Source"]

Source = Literal["flag", "env", "task", "config", "default"]
SANDBOXES = ("auto", "bwrap", "docker", "process")
_INDEX = ("collection", "index_dir")  # resolved together by _index_settings
_BUDGET_KEYS = {"usd": "budget_usd", "tokens": "budget_tokens", "seconds": "timeout"}  # kind -> front matter


class BudgetLimits(BaseModel):
    """USD, token and wall-clock limits of a run; ``None`` means unlimited."""

    model_config = ConfigDict(frozen=True)

    usd: float | None = Field(default=None, gt=0)
    tokens: int | None = Field(default=None, gt=0)
    seconds: float | None = Field(default=None, gt=0)


@dataclass(frozen=True)
class SetBy:
    """Where a run setting may come from besides a flag (a keyword of ``solve``, an option of the CLI, a field
    given to ``RunSettings``): the task's front matter (``task``), an environment variable (``env``) and
    ``[run] <name>`` of the config file (``config``).  A setting that lets a run reach beyond its folder
    (the sandbox, installs, plan approval) is a flag only: a task file someone sends must not switch it."""

    task: bool = False
    env: str | None = None
    config: bool = False


class RunSettings(BaseModel):
    """The one typed object of a run's settings, end to end: the API, the CLI, the UI and the batch worker build
    it (the fields they were given), :meth:`RunConfig.resolve` completes it from the other sources, ``run.json``
    stores it, and the graph's nodes read it from LangGraph's runtime context (``rt.settings``, where ``rt`` is
    the :class:`cmbagent.planner.Runtime` the session passes as ``context``).

    A new setting is a field here (with its :class:`SetBy`), read where it is used, and an option of the CLI
    (docs/extending.md, "Add a run setting")."""

    model_config = ConfigDict(frozen=True)

    max_steps: Annotated[int, SetBy(task=True)] = Field(default=12, ge=1)
    n_reviews: Annotated[int, SetBy(task=True)] = Field(default=1, ge=0)
    max_attempts: Annotated[int, SetBy(task=True)] = Field(default=3, ge=1)
    #: seconds one code cell may run before the kernel is interrupted and the attempt fails
    cell_timeout: Annotated[float, SetBy(task=True, env="CMBAGENT_CELL_TIMEOUT", config=True)] = Field(
        default=900.0, gt=0)
    approve_plan: bool = False
    #: let the task analyst's arguments decide what code's reading of the task left open; off, such a plan
    #: waits for a person (planner ``approve``; ``task.reading_unsettled`` is said either way)
    accept_analyst: bool = False
    sandbox: Literal["auto", "bwrap", "docker", "process"] = "auto"
    allow_install: bool = False  # pip installs into <run>/.overlay/site-packages (see planner/_install.py)
    collection: str | None = None  # the knowledge-index collection text steps retrieve from
    index_dir: str | None = None  # the index folder holding it (absolute; set with a collection)
    # limits of the graph's loops (flags only: the API's ``RunSettings``)
    max_replans: int = Field(default=3, ge=0)
    max_rejections: int = Field(default=2, ge=1)
    max_plan_repairs: int = Field(default=3, ge=0)
    heartbeat_s: float = Field(default=30.0, gt=0)  # a longer cell reports its elapsed time and last line this often

    @classmethod
    def given(cls, values: RunSettings | Mapping[str, Any] | None) -> dict[str, Any]:
        """The settings ``values`` gives (a flag each): a ``RunSettings``' fields that were set, or a mapping's
        entries that are not ``None`` (the CLI's options default to ``None``).  An unknown name is an error."""
        if values is None:
            return {}
        if isinstance(values, RunSettings):
            return {name: getattr(values, name) for name in values.model_fields_set}
        unknown = sorted(set(values) - set(cls.model_fields))
        if unknown:
            import difflib

            hints = [f"{u!r}" + (f" (did you mean {close[0]!r}?)" if (close := difflib.get_close_matches(
                u, list(cls.model_fields), n=1)) else "") for u in unknown]
            raise ConfigError(f"unknown run setting {', '.join(hints)}; the settings are {', '.join(cls.model_fields)}")
        return {k: v for k, v in values.items() if v is not None}

    @classmethod
    def front_matter_keys(cls) -> tuple[str, ...]:
        """The settings a task's front matter may set."""
        return tuple(name for name, info in cls.model_fields.items() if _set_by(info).task)


def _set_by(info: Any) -> SetBy:
    return next((m for m in info.metadata if isinstance(m, SetBy)), SetBy())


class RunConfig(BaseModel):
    """Everything a run is configured with (frozen; see the module docstring for where it comes from)."""

    model_config = ConfigDict(frozen=True)

    model: str = "offline"
    agent_models: dict[str, str] = Field(default_factory=dict)
    tiers: dict[str, str] = Field(default_factory=dict)
    model_retries: int | None = None
    model_timeout: float | None = None
    max_tokens: dict[str, int] = Field(default_factory=dict)  # output-token limits by agent or tier name
    structured_output: str = "auto"  # the structured-output mode forced on chat-completions servers
    budget: BudgetLimits = Field(default_factory=BudgetLimits)
    settings: RunSettings = Field(default_factory=RunSettings)
    sources: dict[str, Source] = Field(default_factory=dict)
    replay_of: str | None = None

    @classmethod
    def resolve(
        cls,
        *,
        flags: Mapping[str, Any],
        env: Mapping[str, str] | None = None,
        front_matter: Mapping[str, Any] | None = None,
        config_file: str | os.PathLike[str] | Mapping[str, Any] | None = None,
        models: Mapping[str, Any] | None = None,
    ) -> RunConfig:
        """Merge the sources.  ``flags`` holds only the settings that were given (``None`` means not given);
        ``models`` names injected model instances (specs equal to a name are not parsed)."""
        from cmbagent.models import Routing, load_config, parse_agent_models

        env = os.environ if env is None else env
        given = {k: v for k, v in flags.items() if v is not None}
        task = dict(front_matter or {})
        file = dict(config_file) if isinstance(config_file, Mapping) else load_config(config_file)
        sources: dict[str, Source] = {}

        # models: the task's front matter is a layer between the environment and the config file
        layered = {**file, "models": dict(file.get("models") or {})}
        models_table = layered["models"]
        from_task: set[str] = set()
        if task.get("model") is not None:
            models_table["default"] = task["model"]
            from_task.add("default")
        if task.get("agent_models"):
            task_agents = parse_agent_models(task["agent_models"])
            models_table["agents"] = {**dict(models_table.get("agents") or {}), **task_agents}
            from_task |= {f"agent:{k.strip().lower().replace('-', '_')}" for k in task_agents}
        routing = Routing.from_sources(config=layered, env=env, model=given.get("model"),
                                       agent_models=given.get("agent_models"), tiers=given.get("tiers"),
                                       models=models)
        for key, origin in routing.sources.items():
            sources[key] = "flag" if origin == "cli" else "task" if origin == "config" and key in from_task else origin  # type: ignore[assignment]

        budget: dict[str, Any] = {}
        table = dict(file.get("budget") or {})
        for kind, task_key in _BUDGET_KEYS.items():
            layers = (("flag", given.get(f"budget_{kind}" if kind != "seconds" else "timeout")),
                      ("env", env.get(f"CMBAGENT_BUDGET_{kind.upper()}") or None),
                      ("task", task.get(task_key)), ("config", table.get(kind)))
            origin, value = next(((o, v) for o, v in layers if v is not None), ("default", None))
            budget[kind] = value
            sources[f"budget.{kind}"] = origin  # type: ignore[assignment]

        settings = _run_settings(given, env, task, file, sources)
        settings.update(_index_settings(given, env, task, file, config_file, sources))
        try:
            return cls(model=routing.default, agent_models=dict(routing.agents), tiers=dict(routing.tiers),
                       model_retries=routing.max_retries, model_timeout=routing.timeout,
                       max_tokens=dict(routing.max_tokens), structured_output=routing.structured_output,
                       budget=BudgetLimits(**budget), settings=RunSettings(**settings), sources=sources)
        except ValidationError as exc:
            raise _config_error(exc, sources) from None

    def specs(self) -> list[str]:
        """Every distinct model spec this config routes to."""
        return sorted({self.model, *self.tiers.values(), *self.agent_models.values()})

    @property
    def vision(self) -> bool:
        """The plot critic sees the figures themselves when a vision model is routed to it."""
        return "vision" in self.tiers or "plot_critic" in self.agent_models

    def routing(self, models: Mapping[str, Any] | None = None) -> Any:
        """The :class:`cmbagent.models.Routing` of this config (``models``: injected instances by name)."""
        from cmbagent.models import Routing

        return Routing(default=self.model, tiers=dict(self.tiers), agents=dict(self.agent_models),
                       models=dict(models or {}), max_retries=self.model_retries, timeout=self.model_timeout,
                       max_tokens=dict(self.max_tokens), structured_output=self.structured_output,
                       sources={k: v for k, v in self.sources.items() if k == "default" or ":" in k})

    def budget_limits(self) -> Any:
        """The :class:`cmbagent.models.Budget` the model client enforces."""
        from cmbagent.models import Budget

        return Budget(usd=self.budget.usd, tokens=self.budget.tokens, seconds=self.budget.seconds)

    @classmethod
    def stored(cls, data: Mapping[str, Any], where: str) -> RunConfig:
        """The config a run stored in its ``run.json``."""
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise UserError(f"{where}: its configuration was written by an older cmbagent or edited by hand "
                            f"({_errors(exc)}); start the task again with `cmbagent solve`") from None


def _run_settings(given: Mapping[str, Any], env: Mapping[str, str], task: Mapping[str, Any],
                  file: Mapping[str, Any], sources: dict[str, Source]) -> dict[str, Any]:
    """Each :class:`RunSettings` field (but the index's) from the highest source its :class:`SetBy` allows."""
    table = file.get("run") or {}
    if not isinstance(table, Mapping):
        raise ConfigError("[run] in cmbagent.toml must be a table, e.g. [run]\ncell_timeout = 600")
    settable = {name for name, info in RunSettings.model_fields.items() if _set_by(info).config}
    unknown = sorted(set(table) - settable)
    if unknown:
        raise ConfigError(f"[run] in cmbagent.toml cannot set {', '.join(unknown)}; it sets {', '.join(sorted(settable))}")
    settings: dict[str, Any] = {}
    for name, info in RunSettings.model_fields.items():
        if name in _INDEX:
            continue
        where = _set_by(info)
        layers = (("flag", given.get(name)), ("env", (env.get(where.env) or None) if where.env else None),
                  ("task", task.get(name) if where.task else None), ("config", table.get(name)))
        origin, value = next(((o, v) for o, v in layers if v is not None), ("default", None))
        if value is not None:
            settings[name] = value
        sources[name] = origin  # type: ignore[assignment]
    return settings


def _index_settings(given: Mapping[str, Any], env: Mapping[str, str], task: Mapping[str, Any],
                    file: Mapping[str, Any], config_file: Any, sources: dict[str, Source]) -> dict[str, Any]:
    """``collection`` (flag > task > ``[index] collection``) and, with one, its absolute ``index_dir``."""
    table = file.get("index") or {}
    if not isinstance(table, Mapping):
        raise ConfigError("[index] in cmbagent.toml must be a table, e.g. [index]\ncollection = \"papers\"")
    layers = (("flag", given.get("collection")), ("task", task.get("collection")), ("config", table.get("collection")))
    origin, collection = next(((o, v) for o, v in layers if v is not None), ("default", None))
    sources["collection"] = origin  # type: ignore[assignment]
    if collection is None:
        return {}
    from cmbagent.literature import check_collection, default_index_dir

    if not isinstance(collection, str):
        raise ConfigError(f"collection must be a name such as 'papers' (got {collection!r})")
    check_collection(collection)
    if given.get("index_dir") is not None:
        folder, sources["index_dir"] = Path(str(given["index_dir"])).expanduser(), "flag"
    else:
        path = config_file if isinstance(config_file, (str, os.PathLike)) else None
        folder = default_index_dir(config=file, config_path=path, env=env)
        sources["index_dir"] = "env" if env.get("CMBAGENT_INDEX_DIR") else "config" if table.get("dir") else "default"
    return {"collection": collection, "index_dir": str(folder.resolve())}


def _errors(exc: ValidationError) -> str:
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors(include_url=False))


_ORIGIN = {"flag": "given as an option", "env": "from the environment", "task": "from the task's front matter",
           "config": "from [run] of the config file", "default": "the default"}


def _config_error(exc: ValidationError, sources: Mapping[str, Source]) -> ConfigError:
    """Each invalid setting with where its value came from (so the person knows which to fix)."""
    parts = []
    for e in exc.errors(include_url=False):
        name = str(e["loc"][-1]) if e["loc"] else ""
        origin = sources.get(name) or sources.get(".".join(str(p) for p in e["loc"]))
        where = f" ({_ORIGIN[origin]})" if origin else ""
        parts.append(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}{where}")
    return ConfigError(f"invalid run settings: {'; '.join(parts)}")
