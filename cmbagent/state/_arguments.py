"""Method arguments as a schema a constrained decoder can follow: only the argument names a method has.

A plan step or a task brief names a method and its arguments.  Left as a free-form mapping, a small model
under a JSON grammar invents keys ("Mantel2015", "3") or repeats one until its token limit.  The schemas the
planner and the task analyst are asked for therefore close the ``arguments`` object: its properties are the
method's own arguments (with their types, enums and bounds, without the prose), ``additionalProperties`` is
false, and validation rejects any other name with a sentence naming the ones that exist.

:class:`ArgumentShapes` is the hashable form the schema factories take (they are cached); build it with
:meth:`ArgumentShapes.of` from ``{method name: its parameters' JSON schema}``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, Field

__all__ = ["ArgumentShapes", "bounded_list", "bounded_text", "unknown_arguments"]

#: longest free string argument a constrained decoder may write (file paths, column names, labels)
STRING_ARGUMENT_CHARS = 200
#: longest list argument a constrained decoder may write (ihdp's 25 covariates fit four times over)
LIST_ARGUMENT_ITEMS = 100
#: longest list of numbers a constrained decoder may write: a sweep (scales, widths, latencies, seeds, lengths) of
#: the examples has at most 8 values; SmolLM2's planner filled the 100 a list of names may take with made-up
#: initialisation scales (1,583 output tokens, 33 s of a theory_tubal_tensor_gd run).  Numbers the task states
#: are constants of the call, not written by the model, so a longer list a task gives is not cut.
NUMBER_LIST_ITEMS = 32
#: JSON-schema keywords a grammar uses; the rest (descriptions, titles, defaults, examples) only cost tokens
_KEEP = frozenset({"type", "enum", "const", "anyOf", "oneOf", "allOf", "items", "prefixItems", "properties",
                   "required", "additionalProperties", "minimum", "maximum", "exclusiveMinimum",
                   "exclusiveMaximum", "minItems", "maxItems", "minLength", "maxLength", "pattern"})


def _inline(node: Any, defs: Mapping[str, Any], depth: int = 0) -> Any:
    """``node`` with ``$ref``s to ``defs`` replaced by their targets and only grammar keywords kept."""
    if isinstance(node, list):
        return [_inline(item, defs, depth) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and depth < 8:
        return _inline(defs.get(ref.removeprefix("#/$defs/"), {}), defs, depth + 1)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key not in _KEEP:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _inline(child, defs, depth) for name, child in value.items()}
        else:
            out[key] = _inline(value, defs, depth)
    if out.get("type") == "string" and not {"enum", "const", "pattern", "maxLength"} & set(out):
        out["maxLength"] = STRING_ARGUMENT_CHARS  # a path or a name: SmolLM2 grew one to 4,000 tokens
    if out.get("type") == "array" and not {"maxItems", "prefixItems"} & set(out):
        items = out.get("items")
        numbers = isinstance(items, dict) and items.get("type") in ("number", "integer")
        # columns, files, names: a list a decoder must close; numbers: a sweep, shorter
        out["maxItems"] = NUMBER_LIST_ITEMS if numbers else LIST_ARGUMENT_ITEMS
    return out


@dataclass(frozen=True)
class ArgumentShapes:
    """Per method: its argument names and each one's grammar schema (JSON text, so the whole is hashable)."""

    shapes: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    required: tuple[tuple[str, tuple[str, ...]], ...] = ()  # per method: the arguments it cannot do without
    inputs: tuple[tuple[str, tuple[str, ...]], ...] = ()  # per method: its input-file arguments

    @classmethod
    def of(cls, parameters: Mapping[str, Mapping[str, Any]],
           inputs: Mapping[str, Iterable[str]] | None = None) -> ArgumentShapes:
        """From ``{method: parameters JSON schema}`` (a registry's ``schema["parameters"]`` per method) and
        ``{method: its input-file arguments}``."""
        shapes, required = [], []
        for method in sorted(parameters):
            schema = parameters[method]
            defs = schema.get("$defs", {})
            props = schema.get("properties", {})
            shapes.append((method, tuple((name, json.dumps(_inline(props[name], defs), sort_keys=True))
                                         for name in props)))
            required.append((method, tuple(schema.get("required", []))))
        files = tuple((m, tuple(names)) for m, names in sorted((inputs or {}).items()))
        return cls(tuple(shapes), tuple(required), files)

    def with_files(self, files: Iterable[str]) -> ArgumentShapes:
        """These shapes with every input-file argument one of ``files`` (the run's inputs and the files its steps
        wrote): nothing to invent (SmolLM2 passed ``data: "data_engineer"`` to a method whose planted check needs
        no file).  With no files, such an argument can only be null (a required one is then refused by the
        method with a sentence that names it)."""
        known = list(dict.fromkeys(files))
        inputs = dict(self.inputs)
        shapes = tuple((method, tuple((arg, json.dumps(_only(json.loads(shape), known), sort_keys=True))
                                      if arg in inputs.get(method, ()) else (arg, shape) for arg, shape in args))
                       for method, args in self.shapes)
        return ArgumentShapes(shapes, self.required, self.inputs)

    def __bool__(self) -> bool:
        return bool(self.shapes)

    def names(self, method: str) -> list[str] | None:
        """The argument names of ``method``; None if it is not known here."""
        for name, args in self.shapes:
            if name == method:
                return [arg for arg, _ in args]
        return None

    def all_names(self) -> list[str]:
        """Every argument name of every method, once each."""
        return sorted({arg for _, args in self.shapes for arg, _ in args})

    def closed(self, method: str, *, fixed: Mapping[str, Any] | None = None, complete: bool = False) -> dict[str, Any]:
        """The JSON schema of ``method``'s arguments object: its own names, typed, nothing else.

        ``fixed`` arguments (what the task's front matter states) are constants a decoder must write as given;
        with ``complete`` the method's required arguments must be there too (a call, not a sketch of one).
        """
        fixed = dict(fixed or {})
        for name, args in self.shapes:
            if name == method:
                props = {arg: ({"const": fixed[arg]} if arg in fixed else json.loads(shape)) for arg, shape in args}
                schema = closed_object(props)
                must = [a for a in props if a in fixed or (complete and a in dict(self.required).get(method, ()))]
                if must:
                    schema["required"] = must
                return schema
        return closed_object({})

    def any_method(self) -> dict[str, Any]:
        """An arguments object for a method not known in advance: any method's argument names, each typed as one
        of the methods that has it takes it (an untyped value is one a grammar lets a decoder write forever)."""
        kinds: dict[str, list[Any]] = {}
        for _, args in self.shapes:
            for arg, shape in args:
                options = kinds.setdefault(arg, [])
                if (parsed := json.loads(shape)) not in options:
                    options.append(parsed)
        return closed_object({name: options[0] if len(options) == 1 else {"anyOf": options}
                              for name, options in sorted(kinds.items())})

    def map_keys(self) -> list[str]:
        """The keys of every mapping argument (its closed properties, such as the parameters a prior is set on)."""
        keys: dict[str, None] = {}

        def visit(node: Any) -> None:
            if isinstance(node, dict):
                if node.get("type") == "object" and node.get("additionalProperties") is False:
                    keys.update(dict.fromkeys(node.get("properties", {})))
                for value in node.values():
                    visit(value)
            elif isinstance(node, list):
                for value in node:
                    visit(value)

        for _, args in self.shapes:
            for _, shape in args:
                visit(json.loads(shape))
        return list(keys)


def _only(shape: Any, files: list[str]) -> Any:
    """``shape`` with each string in it one of ``files`` (null where there are none)."""
    if not isinstance(shape, dict):
        return shape
    if "anyOf" in shape:
        options = [_only(option, files) for option in shape["anyOf"]]
        kept = [o for n, o in enumerate(options) if o not in options[:n]]
        return {"anyOf": kept} if len(kept) > 1 else kept[0]
    if shape.get("type") == "string":
        return {"type": "string", "enum": files} if files else {"type": "null"}
    if shape.get("type") == "array":
        items = _only(shape.get("items", {"type": "string"}), files)
        return {**shape, "items": items} if files else {"type": "array", "maxItems": 0}
    return shape


def closed_object(properties: Mapping[str, Any]) -> dict[str, Any]:
    """An object of only ``properties``, none required.  ``propertyNames`` marks it as a constrained mapping
    (OpenAI's strict mode would make every argument required, so such a schema is never sent as strict)."""
    return {"type": "object", "properties": copy.deepcopy(dict(properties)), "additionalProperties": False,
            "propertyNames": {"enum": list(properties)}}


def unknown_arguments(method: str, given: Iterable[str], known: Iterable[str] | None) -> str | None:
    """A sentence naming the arguments ``method`` does not take, or None when all are known (or the method's
    arguments are not known here)."""
    if known is None:
        return None
    known = list(known)
    wrong = [name for name in given if name not in known]
    if not wrong:
        return None
    return (f"{method} has no argument{'s' if len(wrong) > 1 else ''} {', '.join(map(repr, wrong))}; its arguments "
            f"are: {', '.join(known) or '(none)'}")


def bounded_text(model: type[BaseModel], name: str, limit: int) -> Any:
    """Field ``name`` of ``model`` (a string) with ``maxLength`` in its JSON schema only: a grammar-constrained
    decoder must close it within ``limit`` characters; a hosted model's longer reply still validates."""
    info = model.model_fields[name]
    extra: dict[str, Any] = {"maxLength": limit}
    if info.is_required():
        return (str, Field(description=info.description, json_schema_extra=extra))
    if info.annotation is not str:  # ``str | None``: the bound goes inside the string branch, where a grammar
        # converter looks (llama.cpp's ignores a maxLength beside ``anyOf``, and the text was unbounded)
        extra = {"anyOf": [{"type": "string", "maxLength": limit}, {"type": "null"}]}
    return (info.annotation, Field(default=info.default, description=info.description, json_schema_extra=extra))


def bounded_list(model: type[BaseModel], name: str, limit: int, items: int | None = None) -> Any:
    """Field ``name`` of ``model`` (a list of strings) whose items carry ``maxLength`` in the schema, and at most
    ``items`` of them in the schema (default: the field's own validated bound, kept)."""
    info = model.model_fields[name]
    own = next((m.max_length for m in info.metadata if hasattr(m, "max_length")), None)
    extra: dict[str, Any] = {} if items is None else {"maxItems": items}
    return (list[Annotated[str, Field(json_schema_extra={"maxLength": limit})]],
            Field(default_factory=list, max_length=own, description=info.description, json_schema_extra=extra))
