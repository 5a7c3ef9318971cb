"""Derive a JSON schema from a typed Python function and its Google-style docstring.

The signature is the single source of truth: a tool's schema is never hand-written.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, get_type_hints

from pydantic import ConfigDict, create_model

__all__ = ["function_schema", "parse_docstring"]

_SECTION = re.compile(r"^\s*(Args|Arguments|Parameters|Returns|Raises|Example|Examples|Yields|Note|Notes):\s*$")
_ARG = re.compile(r"^\s*(\*{0,2}\w+)\s*(\([^)]*\))?\s*:\s*(.*)$")


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its description and per-argument texts."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    description: list[str] = []
    args: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    for line in lines:
        match = _SECTION.match(line)
        if match:
            section = match.group(1)
            current = None
            continue
        if section is None:
            description.append(line)
        elif section in {"Args", "Arguments", "Parameters"}:
            arg = _ARG.match(line)
            indent = len(line) - len(line.lstrip())
            if arg and indent <= 4:
                current = arg.group(1).lstrip("*")
                args[current] = arg.group(3).strip()
            elif current and line.strip():
                args[current] = (args[current] + " " + line.strip()).strip()
    return "\n".join(description).strip(), args


def function_schema(fn: Callable[..., Any], *, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """Return ``{"name", "description", "parameters"}`` for ``fn``.

    Every parameter must carry a type annotation; ``*args``/``**kwargs`` are not allowed
    because a model cannot fill them meaningfully.
    """
    signature = inspect.signature(fn)
    hints = get_type_hints(fn, include_extras=True)
    description, arg_docs = parse_docstring(fn.__doc__)
    fields: dict[str, Any] = {}
    for name, parameter in signature.parameters.items():
        if name in skip:
            continue
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            raise TypeError(f"{fn.__qualname__}: *args/**kwargs cannot be described to a model; name each argument")
        if name not in hints:
            raise TypeError(f"{fn.__qualname__}: argument {name!r} needs a type annotation")
        default = ... if parameter.default is parameter.empty else parameter.default
        from pydantic import Field

        fields[name] = (hints[name], Field(default, description=arg_docs.get(name) or None))
    model = create_model(
        f"{fn.__name__}_arguments", __config__=ConfigDict(arbitrary_types_allowed=False), **fields
    )
    parameters = model.model_json_schema()
    parameters.pop("title", None)
    return {"name": fn.__name__, "description": description, "parameters": parameters}
