"""Our method tools in other agent frameworks.

* :mod:`cmbagent.interop.autogen` — ``method_tools()``: AutoGen ``FunctionTool`` objects.
* :mod:`cmbagent.interop.mcp` — ``build_server()``: an MCP server (``cmbagent mcp``).

Both run methods through :class:`MethodRunner`: arguments validated on the host, data files copied into
a fresh run folder, the method called in the sandbox exactly as a method step of ``solve``.
"""

from __future__ import annotations

from cmbagent.cells import method_cell  # the one method cell, the same a method step of ``solve`` runs
from cmbagent.interop._sandboxed import MethodRunner

__all__ = ["MethodRunner", "method_cell"]
