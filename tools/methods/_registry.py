"""Registry of method tools.

A method is a typed function with a Google-style docstring, registered with :func:`method`.
Its JSON schema comes from the signature.  Built-in families are found through the
``cmbagent.methods`` entry-point group exactly as third-party plugins are, so a plugin
package only has to declare ``[project.entry-points."cmbagent.methods"]``.
"""

from __future__ import annotations

import importlib
import inspect
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, TypeVar, get_type_hints

from pydantic import ValidationError, create_model

from cmbagent.exceptions import MethodRegistrationError, UnknownMethodError, UserError
from cmbagent.tools._schema import function_schema, parse_docstring
from cmbagent.tools.methods._result import MethodResult

__all__ = ["MethodSpec", "Paper", "get_method", "iter_methods", "load_errors", "method", "run_method"]

ENTRY_POINT_GROUP = "cmbagent.methods"
_NAME = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")
F = TypeVar("F", bound=Callable[..., MethodResult])


@dataclass(frozen=True)
class Paper:
    title: str
    arxiv: str | None = None
    authors: str | None = None
    year: int | None = None
    code: str | None = None


@dataclass(frozen=True)
class MethodSpec:
    """Everything known about one registered method."""

    name: str
    family: str
    function: Callable[..., MethodResult]
    summary: str
    description: str
    paper: Paper
    keywords: tuple[str, ...]
    example: str
    schema: dict[str, Any]
    argument_docs: dict[str, str] = field(default_factory=dict)

    @property
    def module(self) -> str:
        return self.function.__module__

    @property
    def arguments(self) -> dict[str, Any]:
        """Argument name -> JSON-schema property."""
        return dict(self.schema["parameters"].get("properties", {}))

    @property
    def required(self) -> list[str]:
        return list(self.schema["parameters"].get("required", []))

    def describe(self) -> dict[str, Any]:
        """A JSON-able description (used by `cmbagent methods show` and the planner's catalogue)."""
        return {
            "name": self.name,
            "family": self.family,
            "summary": self.summary,
            "description": self.description,
            "paper": self.paper.__dict__,
            "keywords": list(self.keywords),
            "example": self.example,
            "parameters": self.schema["parameters"],
        }


_REGISTRY: dict[str, MethodSpec] = {}
_LOAD_ERRORS: dict[str, str] = {}
_LOADED = False


def method(
    name: str,
    *,
    paper: Paper,
    keywords: list[str] | tuple[str, ...] = (),
    example: str = "",
) -> Callable[[F], F]:
    """Register a method tool.

    Args:
        name: ``family.method`` in lower snake case, e.g. ``cosmology.fit_supernovae``.
        paper: the paper whose method this is.
        keywords: words a task might use when it wants this method (the offline planner matches them).
        example: a short usage example (a call of the Python function).
    """
    if not _NAME.match(name):
        raise MethodRegistrationError(f"method name {name!r} must look like 'family.method' in lower snake case")

    def decorator(fn: F) -> F:
        if not fn.__doc__:
            raise MethodRegistrationError(f"method {name}: {fn.__qualname__} needs a Google-style docstring")
        try:
            schema = function_schema(fn)
            hints = get_type_hints(fn)
        except TypeError as exc:
            raise MethodRegistrationError(f"method {name}: {exc}") from exc
        if "return" not in hints or hints["return"] is not MethodResult:
            raise MethodRegistrationError(f"method {name}: {fn.__qualname__} must be annotated '-> MethodResult'")
        existing = _REGISTRY.get(name)
        if existing is not None and (existing.module, existing.function.__qualname__) != (
            fn.__module__,
            fn.__qualname__,
        ):
            raise MethodRegistrationError(
                f"method {name} is registered twice ({existing.module} and {fn.__module__}); rename one"
            )
        description, arg_docs = parse_docstring(fn.__doc__)
        summary = description.split("\n\n")[0].replace("\n", " ").strip()
        _REGISTRY[name] = MethodSpec(
            name=name,
            family=name.split(".")[0],
            function=fn,
            summary=summary,
            description=description,
            paper=paper,
            keywords=tuple(keywords),
            example=example,
            schema={**schema, "name": name},
            argument_docs=arg_docs,
        )
        fn.__cmbagent_method__ = name  # type: ignore[attr-defined]
        return fn

    return decorator


_LOADED_FAMILIES: set[str] = set()
# Loading imports modules that register themselves; runs started from several threads at once (the UI)
# must not see a half-loaded registry.
_LOAD_LOCK = threading.RLock()


def _load_entry(entry: Any) -> None:
    with _LOAD_LOCK:
        if entry.name in _LOADED_FAMILIES:
            return
        try:
            importlib.import_module(entry.value)
        except MethodRegistrationError:
            raise
        except Exception as exc:  # a broken plugin must not take the others down
            _LOAD_ERRORS[entry.name] = f"{type(exc).__name__}: {exc}"
        _LOADED_FAMILIES.add(entry.name)


def _load_family(family: str) -> None:
    """Import only the plugin that provides ``family`` (fast path for ``get_method``)."""
    for entry in entry_points(group=ENTRY_POINT_GROUP, name=family):
        _load_entry(entry)


def _load_plugins() -> None:
    global _LOADED
    if _LOADED:
        return
    with _LOAD_LOCK:
        if _LOADED:
            return
        for entry in entry_points(group=ENTRY_POINT_GROUP):
            _load_entry(entry)
        _LOADED = True


def load_errors() -> dict[str, str]:
    """Method families that failed to import, with the reason (shown by `cmbagent doctor`)."""
    _load_plugins()
    return dict(_LOAD_ERRORS)


def iter_methods() -> Iterator[MethodSpec]:
    """All registered methods, sorted by name."""
    _load_plugins()
    for name in sorted(_REGISTRY):
        yield _REGISTRY[name]


def get_method(name: str) -> MethodSpec:
    """The spec of ``name``; raises :class:`UnknownMethodError` listing the known names."""
    if name not in _REGISTRY:
        _load_family(name.split(".")[0])
    if name not in _REGISTRY:
        _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY)) or "(none)"
        raise UnknownMethodError(f"unknown method {name!r}; known methods: {known}") from None


def validate_arguments(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """Check ``arguments`` against the method's signature; a mistake raises :class:`UserError`."""
    spec = get_method(name)
    signature = inspect.signature(spec.function)
    hints = get_type_hints(spec.function)
    unknown = sorted(set(arguments) - set(signature.parameters))
    if unknown:
        raise UserError(
            f"method {name}: unknown argument(s) {', '.join(unknown)}; "
            f"valid arguments: {', '.join(signature.parameters)}"
        )
    fields: dict[str, Any] = {}
    for pname, parameter in signature.parameters.items():
        default = ... if parameter.default is parameter.empty else parameter.default
        fields[pname] = (hints[pname], default)
    model = create_model(f"{spec.function.__name__}_arguments", **fields)
    try:
        validated = model(**arguments)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors(include_url=False)
        )
        raise UserError(f"method {name}: invalid arguments: {problems}") from None
    return {key: getattr(validated, key) for key in arguments} | {
        key: getattr(validated, key) for key in signature.parameters if key not in arguments
    }


def run_method(name: str, arguments: dict[str, Any] | None = None) -> MethodResult:
    """Validate ``arguments`` and call the method; the result carries the method's name."""
    spec = get_method(name)
    kwargs = validate_arguments(name, dict(arguments or {}))
    result = spec.function(**kwargs)
    if not isinstance(result, MethodResult):
        raise MethodRegistrationError(f"method {name} returned {type(result).__name__}, not MethodResult")
    if not result.method:
        result.method = name
    return result
