"""Method tools: one module (or package) per paper method.

``from cmbagent.tools.methods import run_method, iter_methods`` for the registry;
``from cmbagent.tools.methods import cosmology`` for a family's plain Python functions.
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import (
    MethodSpec,
    Paper,
    get_method,
    iter_methods,
    load_errors,
    method,
    run_method,
    validate_arguments,
)
from cmbagent.tools.methods._result import Check, MethodResult

__all__ = [
    "Check",
    "MethodResult",
    "MethodSpec",
    "Paper",
    "get_method",
    "iter_methods",
    "load_errors",
    "method",
    "run_method",
    "validate_arguments",
]
