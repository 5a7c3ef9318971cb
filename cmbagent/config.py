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
collection (the index)     —                             ``[index] collection``
index_dir                  ``CMBAGENT_INDEX_DIR``        ``[index] dir``
=========================  ============================  =====================================

The task front matter may set ``model``, ``agent_models``, ``budget_usd``, ``budget_tokens``, ``timeout``,
``max_steps``, ``n_reviews``, ``max_attempts`` and ``collection`` (never the index folder).  A run with a
collection reads the knowledge index in ``index_dir`` (resolved to an absolute path when the run starts,
default the user data folder; see :mod:`cmbagent.literature`).  ``sources`` records where each setting came from; the
resolved config is stored in ``run.json`` and read back (typed) when a run resumes.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from cmbagent.exceptions import ConfigError, UserError

__all__ = ["SANDBOXES", "BudgetLimits", "RunConfig", "RunSettings", "Source"]

Source = Literal["flag", "env", "task", "config", "default"]
SANDBOXES = ("auto", "bwrap", "docker", "process")
_BUDGET_KEYS = {"usd": "budget_usd", "tokens": "budget_tokens", "seconds": "timeout"}  # kind -> front matter


class BudgetLimits(BaseModel):
    """USD, token and wall-clock limits of a run; ``None`` means unlimited."""

    model_config = ConfigDict(frozen=True)

    usd: float | None = Field(default=None, gt=0)
    tokens: int | None = Field(default=None, gt=0)
    seconds: float | None = Field(default=None, gt=0)


class RunSettings(BaseModel):
    """Limits and switches of the graph and the sandbox."""

    model_config = ConfigDict(frozen=True)

    max_steps: int = Field(default=12, ge=1)
    n_reviews: int = Field(default=1, ge=0)
    max_attempts: int = Field(default=3, ge=1)
    approve_plan: bool = False
    sandbox: Literal["auto", "bwrap", "docker", "process"] = "auto"
    allow_install: bool = False
    collection: str | None = None  # the knowledge-index collection text steps retrieve from
    index_dir: str | None = None  # the index folder holding it (absolute; set with a collection)


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

        settings: dict[str, Any] = {}
        for name in ("max_steps", "n_reviews", "max_attempts"):
            if name in given:
                settings[name], sources[name] = given[name], "flag"
            elif task.get(name) is not None:
                settings[name], sources[name] = task[name], "task"
            else:
                sources[name] = "default"
        for name in ("approve_plan", "sandbox", "allow_install"):
            if name in given:
                settings[name], sources[name] = given[name], "flag"
            else:
                sources[name] = "default"
        settings.update(_index_settings(given, env, task, file, config_file, sources))
        try:
            return cls(model=routing.default, agent_models=dict(routing.agents), tiers=dict(routing.tiers),
                       model_retries=routing.max_retries, model_timeout=routing.timeout,
                       max_tokens=dict(routing.max_tokens), structured_output=routing.structured_output,
                       budget=BudgetLimits(**budget), settings=RunSettings(**settings), sources=sources)
        except ValidationError as exc:
            raise _config_error(exc) from None

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


def _config_error(exc: ValidationError) -> ConfigError:
    return ConfigError(f"invalid run settings: {_errors(exc)}")
