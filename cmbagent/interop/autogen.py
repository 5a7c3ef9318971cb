"""Our method tools as AutoGen ``FunctionTool`` objects.

::

    from autogen_agentchat.agents import AssistantAgent
    from cmbagent.interop.autogen import method_tools

    agent = AssistantAgent("analyst", model_client=client, tools=method_tools())

Each tool has the method's own signature (so AutoGen derives the same JSON schema as our registry), runs
the method in cmbagent's sandbox exactly as a method step of ``solve`` does (see ``MethodRunner``) and
returns the ``MethodResult`` as JSON.  Tool names are the method names with ``.`` replaced by ``__``
(``cosmology__fit_supernovae``), since model APIs allow only letters, digits, ``_`` and ``-`` there.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import Any, get_type_hints

from cmbagent.interop._sandboxed import MethodRunner

__all__ = ["method_tool", "method_tools", "tool_name"]


def tool_name(method: str) -> str:
    """``cosmology.fit_supernovae`` -> ``cosmology__fit_supernovae``."""
    return method.replace(".", "__")


def _description(spec: Any) -> str:
    paper = spec.paper
    cite = f" Paper: {paper.title}" + (f" (arXiv:{paper.arxiv})." if paper.arxiv else ".")
    return (f"{spec.summary}{cite} Runs in cmbagent's sandbox; file arguments are paths in the allowed data "
            "folders; returns the MethodResult as JSON (summary, values, diagnostics, checks, artifacts).")


def method_tool(name: str, *, runner: MethodRunner | None = None) -> Any:
    """One registered method as an AutoGen ``FunctionTool``."""
    try:
        from autogen_core.tools import FunctionTool
    except ImportError as exc:
        from cmbagent.exceptions import ConfigError

        raise ConfigError("AutoGen is not installed; pip install 'cmbagent[interop]'") from exc
    from cmbagent.tools.methods import get_method

    spec = get_method(name)
    runner = runner or MethodRunner()
    hints = get_type_hints(spec.function)
    parameters = [
        inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default, annotation=hints[p.name])
        for p in inspect.signature(spec.function).parameters.values()
    ]

    def call(**kwargs: Any) -> str:
        return runner.run(spec.name, kwargs).to_json()

    call.__name__ = tool_name(spec.name)
    call.__doc__ = spec.description
    call.__signature__ = inspect.Signature(parameters, return_annotation=str)  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": str}
    return FunctionTool(call, description=_description(spec), name=tool_name(spec.name))


def method_tools(
    names: Iterable[str] | None = None,
    *,
    runner: MethodRunner | None = None,
) -> list[Any]:
    """AutoGen tools for every registered method (or those in ``names``), sharing one sandbox runner."""
    from cmbagent.tools.methods import iter_methods

    runner = runner or MethodRunner()
    chosen = list(names) if names is not None else [spec.name for spec in iter_methods()]
    return [method_tool(name, runner=runner) for name in chosen]
