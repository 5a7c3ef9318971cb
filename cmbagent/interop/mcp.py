"""An MCP server (the ``mcp`` SDK, 2.x) exposing our methods, runs and the knowledge index.

Tools: ``methods_list``, ``method_show``, ``method_run`` (sandboxed exactly as a method step of ``solve``),
``solve`` (starts a run in the background and returns its id), ``run_status``, ``run_report`` and
``search``.  ``cmbagent mcp`` serves it over stdio (for a desktop client that launches it) or streamable
HTTP on 127.0.0.1; it refuses other addresses unless told ``--allow-remote``, because it has no
authentication of its own.

``solve``, ``run_status`` and ``run_report`` are a thin layer over the public API (``cmbagent.solve``
and the run folder it writes), so they follow that API as it evolves.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from cmbagent.exceptions import CmbagentError, UserError
from cmbagent.interop._sandboxed import MethodRunner

__all__ = ["ServerSettings", "build_server"]

F = TypeVar("F", bound=Callable[..., Any])
_START_WAIT_S = 60.0  # how long `solve` waits for the run folder (or an early error) before returning


class ServerSettings:
    """What a server instance may touch, fixed when it starts (keyword-only, like solve's settings).

    Args:
        workspace_root: where runs and method-run folders go.
        data_roots: folders whose files tools may name (task files, data arguments); default: cwd.
        sandbox: isolation backend for method runs and solve (``auto``).
        model: model spec for ``solve`` when the call names none (None: the usual routing).
        index_dir: the knowledge index folder for ``search``.
        collection: the default collection for ``search``.
    """

    def __init__(
        self,
        *,
        workspace_root: str | os.PathLike[str] | None = None,
        data_roots: Sequence[str | os.PathLike[str]] | None = None,
        sandbox: str = "auto",
        model: str | None = None,
        index_dir: str | os.PathLike[str] | None = None,
        collection: str = "default",
    ) -> None:
        from cmbagent.run import default_workspace

        self.workspace_root = Path(workspace_root or default_workspace()).expanduser().resolve()
        self.data_roots = [Path(p).expanduser().resolve() for p in (data_roots or [Path.cwd()])]
        self.sandbox = sandbox
        self.model = model
        self.index_dir = Path(index_dir).expanduser() if index_dir is not None else None
        self.collection = collection


def _tool_errors(fn: F) -> F:
    """Our errors become MCP tool errors whose message (which says the fix) reaches the client."""
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except CmbagentError as exc:
            raise ToolError(str(exc)) from exc

    return wrapper  # type: ignore[return-value]


class _Runs:
    """Runs started by this server: one background thread each, the run folder as the record."""

    def __init__(self, settings: ServerSettings) -> None:
        self.settings = settings
        self._threads: dict[str, threading.Thread] = {}
        self._errors: dict[str, str] = {}
        self._lock = threading.Lock()

    def start(self, task: str, model: str | None, budget_usd: float | None) -> dict[str, Any]:
        from cmbagent.paths import PathPolicy
        from cmbagent.run import new_run_id
        from cmbagent.task import check_model_choice, load_task

        if model is not None:  # the caller's choice, like a task's: a model, never a server, transcript or file
            check_model_choice(model, where="solve: model")
        roots = self.settings.data_roots
        policy = PathPolicy.for_cli(roots[0], data_dirs=roots[1:])
        source: str | Path = task
        if "\n" not in task and len(task) < 4096:
            if policy.exists(task):
                source = policy.resolve(task, what="task file")
            elif Path(task).suffix.lower() in {".md", ".markdown", ".txt"} and " " not in task:
                policy.resolve(task, what="task file")  # raises: missing, or outside the data folders
        parsed = load_task(source, paths=policy)  # files the task names must lie in the data folders too
        run_dir = self.settings.workspace_root / new_run_id(parsed.title)
        run_id = run_dir.name
        thread = threading.Thread(target=self._solve, name=f"solve-{run_id}", daemon=True,
                                  args=(run_id, source, policy, run_dir, model or self.settings.model, budget_usd))
        with self._lock:
            self._threads[run_id] = thread
        thread.start()
        deadline = time.monotonic() + _START_WAIT_S
        while time.monotonic() < deadline and thread.is_alive() and not (run_dir / "run.json").is_file():
            time.sleep(0.05)
        if run_id in self._errors and not (run_dir / "run.json").is_file():
            raise UserError(self._errors[run_id])
        return self.status(run_id)

    def _solve(self, run_id: str, task: str | Path, policy: Any, run_dir: Path, model: str | None,
               budget_usd: float | None) -> None:
        import cmbagent

        try:
            cmbagent.solve(task, run_dir=run_dir, model=model, budget_usd=budget_usd, sandbox=self.settings.sandbox,
                           paths=policy)
        except Exception as exc:  # recorded for run_status; the thread has no one else to tell
            self._errors[run_id] = str(exc) if isinstance(exc, CmbagentError) else f"{type(exc).__name__}: {exc}"

    def folder(self, run: str) -> Path:
        """A run of this server's workspace by id (or by its path inside the workspace)."""
        root = self.settings.workspace_root
        candidate = Path(run).expanduser()
        path = (candidate if candidate.is_absolute() else root / candidate).resolve()
        if not path.is_relative_to(root) or path == root:
            raise UserError(f"run {run!r} is not in this server's workspace {root}; pass the run id solve returned")
        if not path.is_dir() and run not in self._threads:
            raise UserError(f"no run {run!r} in {root}; pass the run id that solve returned")
        return path

    def status(self, run: str) -> dict[str, Any]:
        from cmbagent.run import RunFolder

        path = self.folder(run)
        thread = self._threads.get(path.name)
        running = bool(thread and thread.is_alive())
        info: dict[str, Any] = {"run_id": path.name, "run_dir": str(path), "running": running}
        if (path / "run.json").is_file():
            data = RunFolder(path).read_run()
            info.update({key: data.get(key) for key in ("status", "title", "steps_done", "cost_usd", "duration_s",
                                                         "stop_reason", "error") if key in data})
        else:
            info["status"] = "starting" if running else "failed"
        if path.name in self._errors:
            info["status"] = "failed" if info.get("status") in (None, "running", "starting") else info["status"]
            info["error"] = self._errors[path.name]
        elif not running and info.get("status") == "running" and thread is not None:
            info["status"] = "interrupted"
        info["report"] = (path / "report.md").is_file()
        return info

    def report(self, run: str) -> str:
        from cmbagent.exceptions import PathError
        from cmbagent.paths import read_beneath

        folder = self.folder(run)
        try:  # through no link: the run's code could have put one to a file of this machine in its place
            return read_beneath(folder, "report.md").decode("utf-8", errors="replace")
        except (FileNotFoundError, PathError):
            state = self.status(run)
            raise UserError(f"run {state['run_id']} has no report yet (status {state.get('status')}); "
                            "ask run_status until it is done") from None


def build_server(settings: ServerSettings | None = None) -> Any:
    """The MCP server object (``mcp.server.mcpserver.MCPServer``) with every tool registered."""
    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError as exc:
        from cmbagent.exceptions import ConfigError

        raise ConfigError("the MCP SDK is not installed; pip install 'cmbagent[interop]'") from exc
    from cmbagent._version import __version__

    settings = settings or ServerSettings()
    runner = MethodRunner(workspace_root=settings.workspace_root, sandbox=settings.sandbox,
                          data_roots=settings.data_roots)
    runs = _Runs(settings)
    indexes: dict[str, Any] = {}
    index_lock = threading.Lock()
    server: Any = MCPServer(
        "cmbagent", version=__version__, log_level="WARNING",
        instructions="Research automation: paper method tools (run sandboxed), whole analyses (solve), and a "
                     "local literature/code index (search).")

    @server.tool()
    @_tool_errors
    def methods_list(family: str | None = None) -> list[dict[str, Any]]:
        """The registered method tools (name, family, one-line summary), optionally of one family."""
        from cmbagent.tools.methods import iter_methods

        return [{"name": s.name, "family": s.family, "summary": s.summary}
                for s in iter_methods() if family is None or s.family == family]

    @server.tool()
    @_tool_errors
    def method_show(name: str) -> dict[str, Any]:
        """One method's paper, description, JSON-schema parameters and usage example."""
        from cmbagent.tools.methods import get_method

        return dict(get_method(name).describe())

    @server.tool()
    @_tool_errors
    def method_run(name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run a method in the sandbox; file arguments are paths in the server's data folders.

        Returns the MethodResult: summary, values, diagnostics, checks and artifacts (host paths).
        """
        return dict(runner.run(name, arguments or {}).model_dump(mode="json"))

    @server.tool()
    @_tool_errors
    def solve(task: str, model: str | None = None, budget_usd: float | None = None) -> dict[str, Any]:
        """Start a whole analysis (plan, code, run, critique, report) in the background.

        ``task`` is the markdown task text or the path of a task file in the data folders; ``model`` names a
        model of a provider the server is configured for (no base URL, transcript or model file).  Returns
        the run id; poll ``run_status`` and read ``run_report`` when it is done.
        """
        return runs.start(task, model, budget_usd)

    @server.tool()
    @_tool_errors
    def run_status(run: str) -> dict[str, Any]:
        """Status of a run this server started: running or not, status, steps done, cost, errors."""
        return runs.status(run)

    @server.tool()
    @_tool_errors
    def run_report(run: str) -> str:
        """The markdown report of a finished run."""
        return runs.report(run)

    @server.tool()
    @_tool_errors
    def search(query: str, k: int = 8, collection: str | None = None, mode: str = "hybrid") -> list[dict[str, Any]]:
        """Search the local knowledge index: hits with chunk id, source, page or lines, score and text."""
        from cmbagent.literature import Index, MiniLMEmbedder, default_index_dir

        name = collection or settings.collection
        with index_lock:
            index = indexes.get(name)
            if index is None:
                index = Index(settings.index_dir or default_index_dir(), collection=name, embedder=MiniLMEmbedder())
                indexes[name] = index
        return [hit.to_dict() for hit in index.search(query, k=k, mode=mode)]

    return server
