"""Registry of method tools.

A method is a typed function with a Google-style docstring, registered with :func:`method`.
Its JSON schema comes from the signature.  Built-in families are found through the
``cmbagent.methods`` entry-point group exactly as third-party plugins are, so a plugin
package only has to declare ``[project.entry-points."cmbagent.methods"]``.
"""

from __future__ import annotations

import copy
import functools
import importlib
import inspect
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Annotated, Any, TypeVar, get_args, get_origin, get_type_hints

from pydantic import ValidationError, create_model

from cmbagent.exceptions import MethodRegistrationError, UnknownMethodError, UserError
from cmbagent.paths import PathArg, PathPolicy
from cmbagent.tools._schema import function_schema, parse_docstring
from cmbagent.tools.methods._result import MethodResult

__all__ = [
    "ArgumentProblem",
    "Family",
    "MethodSpec",
    "Paper",
    "argument_problems",
    "check_paths",
    "closed_mappings",
    "family",
    "get_family",
    "get_method",
    "iter_families",
    "iter_methods",
    "load_errors",
    "method",
    "path_arguments",
    "run_method",
    "validate_arguments",
]

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
    #: how a task's prose states arguments (see :func:`method`, ``phrases``)
    phrases: dict[str, Any] = field(default_factory=dict)

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

    @functools.cached_property
    def model_parameters(self) -> dict[str, Any]:
        """The parameters' JSON schema as a model may write them: every mapping closed (see
        :func:`closed_mappings`).  ``schema`` keeps the signature's own form (documentation, MCP, validation)."""
        return closed_mappings(self.schema["parameters"])

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


@dataclass(frozen=True)
class Family:
    """Facts about a method family, declared once in the family's ``__init__`` with :func:`family`."""

    name: str
    title: str
    expert: str = "researcher"  # the agent that interprets this family's results in a run
    description: str = ""


def closed_mappings(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """``parameters`` (a method's JSON schema) with every mapping a model could write closed.

    A grammar-constrained decoder writes an open mapping's keys as free strings, and a small model loops there:
    SmolLM2 filled ``priors`` with keys ``"priors.data"``, ``"priors.priors.data"``, ... for 6,850 tokens.  A
    mapping whose keys the signature enumerates (``dict[Literal["Omega_m", "w0"], ...]``: JSON schema
    ``propertyNames.enum``) becomes an object of exactly those optional keys, each with the value's schema (llama.cpp
    compiles fixed properties into a grammar; it ignores ``propertyNames`` and ``maxProperties``).  A mapping whose
    keys the method cannot name (``dict[str, ...]``: feature names, file names) is not a model's to write: it
    becomes null, and a task states it in its front matter (a constant of the call).  An object of named fields
    (a ``TypedDict``) is closed too.
    """
    schema = copy.deepcopy(dict(parameters))

    def visit(node: Any) -> Any:
        if isinstance(node, list):
            return [visit(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: ({name: visit(sub) for name, sub in value.items()} if key in ("properties", "$defs")
                      and isinstance(value, dict) else visit(value)) for key, value in node.items()}
        mapped = node.get("additionalProperties")
        if node.get("type") == "object" and isinstance(mapped, dict) and not node.get("properties"):
            keys = (node.get("propertyNames") or {}).get("enum")
            if not keys:
                return {"type": "null"}
            kept = {k: v for k, v in node.items() if k not in ("additionalProperties", "propertyNames", "properties")}
            return {**kept, "properties": {str(key): copy.deepcopy(mapped) for key in keys},
                    "additionalProperties": False, "maxProperties": len(keys)}
        if isinstance(node.get("properties"), dict) and "additionalProperties" not in node:
            node["additionalProperties"] = False  # a TypedDict's keys are its own (JSON Schema would leave it open)
        if "anyOf" in node:  # a null left twice by an optional open mapping (``dict[str, X] | None``)
            options = [o for n, o in enumerate(node["anyOf"]) if o not in node["anyOf"][:n]]
            if len(options) == 1:
                node = {**{k: v for k, v in node.items() if k != "anyOf"}, **options[0]}
            else:
                node["anyOf"] = options
        return node

    return visit(schema)


_REGISTRY: dict[str, MethodSpec] = {}
_FAMILIES: dict[str, Family] = {}
_FAMILY_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def family(name: str, *, title: str, expert: str = "researcher", description: str = "") -> Family:
    """Declare a method family's facts (call it in the family package's ``__init__``).

    Args:
        name: the family name, the part before the dot in its methods' names (e.g. ``cosmology``).
        title: a human title (e.g. "Supernova cosmology").
        expert: the agent that interprets this family's results (a roster name such as ``cosmologist``).
        description: one sentence on what the family covers.
    """
    if not _FAMILY_NAME.match(name):
        raise MethodRegistrationError(f"family name {name!r} must be lower snake case")
    declared = Family(name=name, title=title, expert=expert, description=description)
    existing = _FAMILIES.get(name)
    if existing is not None and existing != declared:
        raise MethodRegistrationError(f"family {name} is declared twice with different facts; declare it once")
    _FAMILIES[name] = declared
    return declared
_LOAD_ERRORS: dict[str, str] = {}
_LOADED = False


Phrases = Mapping[str, Sequence[str] | Mapping[str, Sequence[str]]]


def _check_phrases(name: str, phrases: Phrases, schema: dict[str, Any]) -> dict[str, Any]:
    """Validate ``phrases`` against the method's arguments: known names, compiling patterns, known choices."""
    properties = schema["parameters"].get("properties", {})
    checked: dict[str, Any] = {}
    for arg, spec in phrases.items():
        if arg not in properties:
            raise MethodRegistrationError(f"method {name}: phrases name {arg!r}, which is not an argument")
        patterns = [p for values in spec.values() for p in values] if isinstance(spec, Mapping) else list(spec)
        for pattern in patterns:
            try:
                compiled = re.compile(pattern, re.I)
            except re.error as exc:
                raise MethodRegistrationError(f"method {name}: phrase {pattern!r} for {arg!r} is not a valid "
                                              f"regular expression ({exc})") from None
            if not isinstance(spec, Mapping) and compiled.groups > 1:
                raise MethodRegistrationError(f"method {name}: phrase {pattern!r} for {arg!r} may capture one "
                                              "value (one group) at most")
        choices = _choices(properties[arg])
        if isinstance(spec, Mapping) and choices:
            unknown = sorted(set(spec) - set(choices))
            if unknown:
                raise MethodRegistrationError(f"method {name}: phrases map to {unknown} for {arg!r}, which accepts "
                                              f"{choices}")
        checked[arg] = {k: tuple(v) for k, v in spec.items()} if isinstance(spec, Mapping) else tuple(spec)
    return checked


def _choices(schema: dict[str, Any]) -> list[Any]:
    if "enum" in schema:
        return list(schema["enum"])
    return [c for option in schema.get("anyOf", []) for c in option.get("enum", [])]


def method(
    name: str,
    *,
    paper: Paper,
    keywords: list[str] | tuple[str, ...] = (),
    example: str = "",
    phrases: Phrases | None = None,
) -> Callable[[F], F]:
    """Register a method tool.

    Args:
        name: ``family.method`` in lower snake case, e.g. ``cosmology.fit_supernovae``.
        paper: the paper whose method this is.
        keywords: words a task might use when it wants this method (the offline planner matches them).
        example: a short usage example (a call of the Python function).
        phrases: how a task's prose states an argument, for the offline backend's reading of free text
            (regular expressions, matched case-insensitively). Per argument either a list of patterns —
            a pattern with one group captures the value (``r"(\\d+) labell?ed anomal"`` for ``n_labeled``),
            one without a group marks where the argument is meant (``r"adjust(?:ing)? for"`` for
            ``covariates``: the data's columns named after it) — or a mapping of values to patterns
            (``{"lcdm": [r"curved", r"non-flat"]}`` for ``model``; for a ``priors`` mapping, parameter
            names to the ways prose writes them).
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
        checked_phrases = _check_phrases(name, phrases or {}, schema)
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
            phrases=checked_phrases,
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


def _markers(hint: Any) -> set[str]:
    """The :class:`PathArg` kinds inside a type hint (through ``Optional``, unions and containers)."""
    found: set[str] = set()
    if get_origin(hint) is Annotated:
        found |= {m.kind for m in hint.__metadata__ if isinstance(m, PathArg)}
    for arg in get_args(hint):
        found |= _markers(arg)
    return found


def path_arguments(name: str) -> dict[str, str]:
    """Arguments of method ``name`` declared as paths: argument -> ``input`` or ``output``."""
    spec = get_method(name)
    hints = get_type_hints(spec.function, include_extras=True)
    out: dict[str, str] = {}
    for arg, hint in hints.items():
        kinds = _markers(hint)
        if kinds:
            out[arg] = "input" if "input" in kinds else "output"
    return out


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (bytes, bytearray)):  # a str argument takes bytes as the same name
        yield bytes(value).decode("utf-8", errors="replace")
    elif isinstance(value, os.PathLike):
        yield os.fspath(value)
    elif isinstance(value, dict):  # keys too: a mapping from file names to settings is a plausible argument
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _strings(item)


def check_paths(name: str, arguments: dict[str, Any], paths: PathPolicy) -> None:
    """Refuse arguments that name files outside ``paths``; raises :class:`~cmbagent.exceptions.PathNotAllowed`.

    The rule, and why it needs no guessing: an argument declared ``InputFile`` must be an existing regular
    file inside the roots; one declared ``OutputDir`` must resolve inside them.  *Every other* string, at any
    depth, must also resolve inside the roots when read as a path: a plain word (``flat_lcdm``) trivially
    does (it would name ``<base>/flat_lcdm``), while an absolute name, a ``..`` that climbs out, ``~`` or a
    symlink that leads out is refused.  So a method whose author forgot the marker is still covered, and no
    heuristic decides what "looks like" a file.  Only multi-line text (a prompt, a formula block) is not read
    as a name: no file name holds a newline.  (Text that must start with ``/`` would need its own marker.)
    """
    declared = path_arguments(name)
    for arg, value in arguments.items():
        kind = declared.get(arg)
        label = f"method {name}: argument {arg!r}"
        if kind == "input" and isinstance(value, str):
            paths.resolve(value, what=label, kind="file")
            continue
        for text in _strings(value):
            if "\n" not in text and len(text) < 4096:  # the kernel refuses longer names itself (PATH_MAX)
                paths.target(text, what=label)


@dataclass(frozen=True)
class ArgumentProblem:
    """One thing wrong with a method call's arguments (see :func:`argument_problems`)."""

    argument: str
    kind: str  # unknown | invalid | missing
    message: str  # what is wrong and how to fix it, naming the argument

    def __str__(self) -> str:
        return self.message


def _argument_model(spec: MethodSpec) -> tuple[inspect.Signature, Any]:
    signature = inspect.signature(spec.function)
    hints = get_type_hints(spec.function, include_extras=True)
    fields: dict[str, Any] = {}
    for pname, parameter in signature.parameters.items():
        default = ... if parameter.default is parameter.empty else parameter.default
        fields[pname] = (hints[pname], default)
    return signature, create_model(f"{spec.function.__name__}_arguments", **fields)


def argument_problems(name: str, arguments: Mapping[str, Any], *, require: bool = True) -> list[ArgumentProblem]:
    """Every problem of ``arguments`` against method ``name``'s signature, all at once: unknown names (with
    the closest valid one), values of the wrong type, and — with ``require`` — missing required arguments.

    Used before a run starts (every problem listed in one error) and by :func:`validate_arguments`.
    """
    import difflib

    spec = get_method(name)
    signature, model = _argument_model(spec)
    valid = list(signature.parameters)
    problems: list[ArgumentProblem] = []
    for arg in sorted(set(arguments) - set(valid)):
        close = difflib.get_close_matches(arg, valid, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]!r}?" if close else f"valid arguments: {', '.join(valid)}"
        problems.append(ArgumentProblem(arg, "unknown", f"{name} has no argument {arg!r}; {hint}"))
    known = {k: v for k, v in arguments.items() if k in signature.parameters}
    try:
        model(**known)
    except ValidationError as exc:
        for err in exc.errors(include_url=False):
            arg = str(err["loc"][0]) if err["loc"] else ""
            where = ".".join(str(p) for p in err["loc"])
            if err["type"] == "missing":
                if require:
                    doc = spec.argument_docs.get(arg, "").split(". ")[0]
                    problems.append(ArgumentProblem(arg, "missing", f"{name} needs argument {arg!r}"
                                                    + (f" ({doc.rstrip('.')})" if doc else "")))
                continue
            shown = repr(err.get("input"))
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            problems.append(ArgumentProblem(arg, "invalid", f"argument {where!r} of {name}: {err['msg']} "
                                                            f"(got {shown})"))
    return problems


def validate_arguments(name: str, arguments: dict[str, Any], *, paths: PathPolicy | None = None) -> dict[str, Any]:
    """Check ``arguments`` against the method's signature; a mistake raises :class:`UserError`.

    With ``paths`` every argument that names a file is checked against that path policy too (see
    :func:`check_paths`): the graph passes the run folder for arguments a model chose, ``cmbagent methods
    run`` the working folder and the ``--data-dir`` folders.
    """
    spec = get_method(name)
    signature, model = _argument_model(spec)
    unknown = sorted(set(arguments) - set(signature.parameters))
    if unknown:
        hints = [p.message.split("; ", 1)[1] for p in argument_problems(name, {k: None for k in unknown},
                                                                          require=False) if p.kind == "unknown"]
        close = [h for h in hints if h.startswith("did you mean")]
        raise UserError(
            f"method {name}: unknown argument(s) {', '.join(unknown)}; "
            + (" ".join(f"{u}: {h}" for u, h in zip(unknown, hints, strict=True)) + "; " if close else "")
            + f"valid arguments: {', '.join(signature.parameters)}"
        )
    try:
        validated = model(**arguments)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors(include_url=False)
        )
        raise UserError(f"method {name}: invalid arguments: {problems}") from None
    given = {key: getattr(validated, key) for key in arguments}
    if paths is not None:
        check_paths(name, given, paths)  # the values the method gets, after pydantic's conversions
    return given | {key: getattr(validated, key) for key in signature.parameters if key not in arguments}


def get_family(name: str) -> Family:
    """The declared facts of family ``name`` (a family that declares none gets the defaults)."""
    if name not in _FAMILIES:
        _load_family(name)
    return _FAMILIES.get(name) or Family(name=name, title=name.replace("_", " ").capitalize())


def iter_families() -> Iterator[Family]:
    """The families that have registered methods, sorted by name."""
    _load_plugins()
    for name in sorted({spec.family for spec in _REGISTRY.values()}):
        yield get_family(name)


def run_method(
    name: str, arguments: dict[str, Any] | None = None, *, paths: PathPolicy | None = None
) -> MethodResult:
    """Validate ``arguments`` (against the path policy ``paths`` too, when given) and call the method; the
    result carries the method's name."""
    spec = get_method(name)
    kwargs = validate_arguments(name, dict(arguments or {}), paths=paths)
    result = spec.function(**kwargs)
    if not isinstance(result, MethodResult):
        raise MethodRegistrationError(f"method {name} returned {type(result).__name__}, not MethodResult")
    if not result.method:
        result.method = name
    return result
