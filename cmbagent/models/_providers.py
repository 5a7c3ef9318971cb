"""The one provider table: every model provider, its key, defaults, price list and factory.

Spec parsing, pricing, ``cmbagent models``, ``cmbagent doctor``, the UI and the error messages all read
this table, so a provider is described once.  A provider holds the credentials and the endpoint (key
variable, base URL); the *wire adapter* it builds (``openai.ChatCompletionsModel``,
``anthropic.AnthropicModel``) speaks one API and knows nothing about providers.  ``openai-compatible``
and ``local`` are rows that build the chat-completions adapter with other settings, not subclasses.

This module is the registry only: it imports no adapter.  Each built-in row is registered by the module
of its adapter (``openai``, ``anthropic``, ``compatible``, ``local``, ``replay``) through
:func:`register_provider`, as method families register themselves, and ``cmbagent.models`` imports those
modules in the table's order.  A package above ``cmbagent.models`` (or a third-party package) adds a provider
the same way, in a module named by an entry point of the ``cmbagent.providers`` group; that module is
imported the first time the table is read (one provider by name, or all of them for listings), so
``cmbagent.models`` never imports anything above it.  A bad row fails at registration with a
:class:`ConfigError` naming the fix.
"""

from __future__ import annotations

import importlib
import os
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING, Any, Literal

from cmbagent.exceptions import ConfigError

if TYPE_CHECKING:  # pragma: no cover
    from cmbagent.models._http import Connection
    from cmbagent.models._protocol import Model

__all__ = [
    "ENTRY_POINT_GROUP",
    "ParsedSpec",
    "Provider",
    "ProviderCall",
    "configured_providers",
    "default_model_spec",
    "fallback_provider",
    "get_provider",
    "how_to_configure",
    "provider_load_errors",
    "providers",
    "register_provider",
    "spec_forms",
]

ENTRY_POINT_GROUP = "cmbagent.providers"
_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
_VARIABLE = re.compile(r"^[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True)
class ParsedSpec:
    """A syntactically valid spec: ``provider``, ``model`` (or transcript path) and optional ``base_url``.

    A bare spec (``offline``, ``local``) has ``model`` equal to the provider name when the provider takes
    no model, and ``""`` when the model is optional (the provider's own default).
    """

    provider: str
    model: str
    base_url: str | None = None

    @property
    def spec(self) -> str:
        if self.model in ("", self.provider) and self.base_url is None:
            provider = get_provider(self.provider)
            if provider is not None and provider.model != "required":
                return self.provider
        suffix = f"@{self.base_url}" if self.base_url else ""
        return f"{self.provider}:{self.model}{suffix}"


@dataclass(frozen=True)
class ProviderCall:
    """What a provider's factory is given to build a model for one spec."""

    provider: Provider
    spec: ParsedSpec
    env: Mapping[str, str]
    api_keys: Mapping[str, str]
    max_retries: int
    timeout: float
    #: adapter options from the configuration: ``structured_output`` (a mode or "auto"), ``replay_lenient``
    options: Mapping[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        """The API key: a session key given for this provider, else its key variable (error naming it)."""
        given = self.api_keys.get(self.provider.name)
        if given:
            return given
        variable = self.provider.key_variable
        value = self.env.get(variable, "") if variable else ""
        if not value:
            fallback = fallback_provider()
            other = f", e.g. {fallback.name!r}" if fallback is not None else ""
            raise ConfigError(
                f"no API key for {self.provider.name}: set the environment variable {variable} "
                f"(or choose another model with --model{other})"
            )
        return value

    def optional_key(self) -> str:
        """The key when one is configured, else ``""`` (servers that need none)."""
        given = self.api_keys.get(self.provider.name)
        if given:
            return given
        variable = self.provider.key_variable
        return self.env.get(variable, "") if variable else ""

    def base_url(self) -> str:
        """``@<base_url>`` of the spec, else the provider's base-URL variable, else its default URL."""
        if self.spec.base_url:
            return self.spec.base_url
        variable = self.provider.base_url_variable
        url = (self.env.get(variable, "") if variable else "") or (self.provider.default_base_url or "")
        return url.rstrip("/")

    def connection(self, *, api_key: str, base_url: str) -> Connection:
        """The wire adapter's connection settings for this call."""
        from cmbagent.models._http import Connection

        return Connection(provider=self.provider.name, model=self.spec.model, api_key=api_key,
                          base_url=base_url, max_retries=self.max_retries, timeout=self.timeout,
                          key_variable=self.provider.key_variable or "")


@dataclass(frozen=True)
class Provider:
    """One row of the provider table.

    Attributes:
        name: The spec prefix (``openai`` in ``openai:gpt-4.1``).
        description: One line for listings.
        factory: Builds the :class:`Model` for a parsed spec; imports its SDK or adapter lazily.
        forms: The spec forms it accepts, shown in every spec error.
        example: A spec that works once configured.
        key_variable: Environment variable holding its API key.
        key_required: Whether a call needs that key (local servers usually do not).
        base_url_variable: Environment variable that moves its endpoint.
        default_base_url: Its endpoint when nothing else is given.
        default_model: The model used when its key is the first one set and no model is configured.
        ping_model: The cheapest model, for ``cmbagent doctor --ping``.
        pricing: Its section of ``prices.toml``; ``None`` for backends that cost nothing.
        model: Whether a spec names a model: "required" (``openai:<model>``), "optional" (``local`` or
            ``local:<path>``) or "none" (``offline``).
        takes_base_url: Whether ``<model>@<base_url>`` is accepted.
        fallback: The backend used when no provider's key is set (exactly one should say so).
        in_ui: Offered in the web UI's provider menu.
        hint: How to configure it, for "configure a model" messages (keyed providers get one generated).
        check: Returns why it cannot run on this machine (a missing optional package), or ``None``.
        pings: Whether ``cmbagent models ping`` makes a call (a rule-based backend has nothing to ping).
        serves_transcript: The spec's model part is the path of a recorded ``transcript.jsonl`` whose replies it
            serves (``replay``): a file of this machine, so only the person running cmbagent may name one — a
            task's front matter, an MCP client or a run folder the UI resumes may not — and a ping counts its
            recorded calls instead of making one.
        model_file: The spec's model part, when given, is the path of a model file of this machine
            (``local:<path.gguf>``): as with a transcript, only the person running cmbagent may name one — a task's
            front matter, an MCP client or a run folder the UI resumes may not — and the UI offers no model field
            for it (the provider serves what the operator installed).
    """

    name: str
    description: str
    factory: Callable[[ProviderCall], Model]
    forms: tuple[str, ...]
    example: str
    key_variable: str | None = None
    key_required: bool = True
    base_url_variable: str | None = None
    default_base_url: str | None = None
    default_model: str | None = None
    ping_model: str | None = None
    pricing: str | None = None
    model: Literal["required", "optional", "none"] = "required"
    takes_base_url: bool = False
    fallback: bool = False
    in_ui: bool = True
    hint: str | None = None
    check: Callable[[], str | None] | None = None
    pings: bool = True
    serves_transcript: bool = False
    model_file: bool = False

    @property
    def env_var(self) -> str | None:
        """The variable that configures it (its key, or its base URL when no key is needed)."""
        return self.key_variable if self.key_required else self.base_url_variable

    def unavailable(self) -> str | None:
        """Why this provider cannot run here, or ``None`` when it can."""
        return self.check() if self.check is not None else None


_LOCK = threading.RLock()
_TABLE: dict[str, Provider] = {}
_LOADED_ENTRIES: set[str] = set()
_LOAD_ERRORS: dict[str, str] = {}
_ALL_LOADED = False


def _problem(provider: Provider) -> str | None:
    if not isinstance(provider.name, str) or not _NAME.match(provider.name):
        return "its name must be lower-case letters, digits, '-' or '_', starting with a letter"
    if not callable(provider.factory):
        return "its factory must be callable"
    if not provider.forms or not all(f.startswith(provider.name) for f in provider.forms):
        return f"it needs at least one spec form, each starting with {provider.name!r}"
    for label, variable in (("key_variable", provider.key_variable), ("base_url_variable", provider.base_url_variable)):
        if variable is not None and not _VARIABLE.match(variable):
            return f"{label} {variable!r} is not an environment variable name"
    if provider.model not in ("required", "optional", "none"):
        return f"model must be 'required', 'optional' or 'none', not {provider.model!r}"
    if provider.model == "none" and provider.takes_base_url:
        return "a provider without a model name cannot take a base URL"
    if provider.serves_transcript and (provider.model != "required" or provider.pings):
        return "a provider that serves a transcript names it in every spec (model='required') and pings nothing"
    if provider.model_file and (provider.model == "none" or provider.takes_base_url or provider.serves_transcript):
        return "a provider whose model part is a model file has a model (model='required' or 'optional'), no base URL"
    if provider.default_model is not None and provider.key_variable is None:
        return "a default model needs a key variable (it is chosen when that key is set)"
    return None


def register_provider(provider: Provider, *, replace: bool = False) -> Provider:
    """Add ``provider`` to the table (checked now; a bad row raises :class:`ConfigError`).

    Args:
        provider: The row.
        replace: Allow replacing a registered provider of the same name (tests, a plugin that
            deliberately overrides a built-in); otherwise a second registration is an error.
    """
    problem = _problem(provider)
    if problem is not None:
        raise ConfigError(f"model provider {getattr(provider, 'name', provider)!r} cannot be registered: "
                          f"{problem}")
    with _LOCK:
        if provider.name in _TABLE and not replace and _TABLE[provider.name] is not provider:
            raise ConfigError(f"model provider {provider.name!r} is already registered; pick another name "
                              "or pass replace=True")
        _TABLE[provider.name] = provider
    return provider


def _load_entry(entry: EntryPoint) -> None:
    with _LOCK:
        if entry.name in _LOADED_ENTRIES:
            return
        _LOADED_ENTRIES.add(entry.name)
        try:
            importlib.import_module(entry.value.partition(":")[0])
        except ConfigError:
            raise
        except Exception as exc:  # a broken plugin must not take the other providers down
            _LOAD_ERRORS[entry.name] = f"{type(exc).__name__}: {exc}"


def _load_all() -> None:
    global _ALL_LOADED
    if _ALL_LOADED:
        return
    with _LOCK:
        for entry in entry_points(group=ENTRY_POINT_GROUP):
            _load_entry(entry)
        _ALL_LOADED = True


def providers() -> list[Provider]:
    """Every registered provider, in table order (built-ins first, then plugins)."""
    _load_all()
    with _LOCK:
        return list(_TABLE.values())


def get_provider(name: str) -> Provider | None:
    """The provider called ``name`` (importing only the plugin that declares it), or ``None``."""
    with _LOCK:
        if name in _TABLE:
            return _TABLE[name]
    for entry in entry_points(group=ENTRY_POINT_GROUP, name=name):
        _load_entry(entry)
    with _LOCK:
        return _TABLE.get(name)


def provider_load_errors() -> dict[str, str]:
    """Provider plugins that failed to import, with the reason (shown by ``cmbagent doctor``)."""
    _load_all()
    return dict(_LOAD_ERRORS)


def fallback_provider() -> Provider | None:
    """The backend used when no key is set (``offline``), if one is registered."""
    return next((p for p in providers() if p.fallback), None)


def spec_forms() -> list[str]:
    """Every accepted spec form, for error messages and ``cmbagent models``."""
    return [form for provider in providers() for form in provider.forms]


def default_model_spec(env: Mapping[str, str] | None = None) -> str:
    """The model used when none is configured: the first provider whose key is set, else the fallback."""
    env = os.environ if env is None else env
    for provider in providers():
        if provider.default_model and provider.key_variable and env.get(provider.key_variable):
            return f"{provider.name}:{provider.default_model}"
    fallback = fallback_provider()
    if fallback is None:
        raise ConfigError("no model is configured and no fallback backend is registered; "
                          + how_to_configure())
    return fallback.name


def how_to_configure() -> str:
    """The advice given where a real model is needed: one clause per provider, from the table."""
    clauses = []
    for provider in providers():
        if provider.hint:
            clauses.append(provider.hint)
        elif provider.default_model and provider.key_variable:
            clauses.append(f"`--model {provider.name}:{provider.default_model}` with {provider.key_variable} set")
    if not clauses:
        return "configure a language model with --model"
    listed = ", ".join(clauses[:-1]) + (", or " if len(clauses) > 1 else "") + clauses[-1]
    return f"configure a language model instead: {listed}"


def configured_providers(env: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Which providers are configured (for ``cmbagent models`` and ``doctor``); never reveals values.

    Each row: ``provider``, ``env_var`` (the variable that configures it), ``is_set`` (``None`` when no
    variable applies), ``description``, ``example``, ``ping_spec`` (a cheap spec to ping, or ``None``),
    ``default_model`` and ``unavailable`` (why it cannot run here, or ``None``).
    """
    env = os.environ if env is None else env
    rows: list[dict[str, Any]] = []
    for provider in providers():
        variable = provider.env_var
        rows.append({
            "provider": provider.name,
            "env_var": variable,
            "is_set": None if variable is None else bool(env.get(variable)),
            "description": provider.description,
            "example": provider.example,
            "ping_spec": f"{provider.name}:{provider.ping_model}" if provider.ping_model else None,
            "default_model": provider.default_model,
            "unavailable": provider.unavailable(),
        })
    return rows
