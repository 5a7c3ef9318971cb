"""Tools agents can call: typed Python functions whose JSON schema is derived from the signature."""

from __future__ import annotations

from cmbagent.tools._schema import function_schema, parse_docstring

__all__ = ["function_schema", "parse_docstring"]
