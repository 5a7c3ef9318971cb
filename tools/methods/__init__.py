"""Method tools: one module (or package) per paper method.

``from cmbagent.tools.methods import run_method, iter_methods`` for the registry;
``from cmbagent.tools.methods import cosmology`` for a family's plain Python functions.
"""

from __future__ import annotations

from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods._registry import (
    ArgumentProblem,
    Family,
    MethodSpec,
    Paper,
    argument_problems,
    check_paths,
    family,
    get_family,
    get_method,
    iter_families,
    iter_methods,
    load_errors,
    method,
    path_arguments,
    run_method,
    validate_arguments,
)
from cmbagent.tools.methods._result import Check, MethodFinding, MethodResult

__all__ = [
    "ArgumentProblem",
    "Check",
    "Family",
    "InputFile",
    "MethodFinding",
    "MethodResult",
    "MethodSpec",
    "OutputDir",
    "Paper",
    "argument_problems",
    "check_paths",
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
