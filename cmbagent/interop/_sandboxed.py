"""Running one method tool in the sandbox on behalf of another agent framework (AutoGen, MCP).

It does what a method step of ``solve`` does: the caller's arguments are validated on the host, the
data files they name are copied into a fresh run folder's ``data/``, and a cell that calls
``run_method`` runs in a sandboxed kernel (``auto``: bubblewrap, else Docker) with only that folder
writable; the result comes back as the method's ``MethodResult``.

Names in a call go through the project's path policy (``cmbagent.paths``) with the allowed data folders
(``data_roots``; by default the current working folder) as roots, so a remote caller cannot have the host
copy, say, ``~/.ssh`` into a run; inside the run the method sees only run-folder names.
"""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cmbagent.cells import method_cell
from cmbagent.exceptions import ModelRetry, PathError, UserError
from cmbagent.paths import PathPolicy, copy_file, read_beneath
from cmbagent.tools.methods import MethodResult

__all__ = ["MethodRunner"]

_RESULT_FILE = "method_result.json"


class MethodRunner:
    """Runs method tools sandboxed, each call in a new run folder under ``workspace_root``.

    Args:
        workspace_root: where the run folders go (default: ``./workspaces`` in a checkout, else
            ``~/.cmbagent/workspaces``, as for ``solve``).
        sandbox: isolation backend, as ``solve``'s ``sandbox`` (``auto`` by default).
        data_roots: folders whose files a call may name (default: the current working folder).
        timeout: wall-clock limit of one method run in seconds.
    """

    def __init__(
        self,
        *,
        workspace_root: str | os.PathLike[str] | None = None,
        sandbox: str = "auto",
        data_roots: Sequence[str | os.PathLike[str]] | None = None,
        timeout: float = 1800.0,
    ) -> None:
        from cmbagent.run import default_workspace

        self.workspace_root = Path(workspace_root or default_workspace()).expanduser().resolve()
        self.sandbox = sandbox
        self.data_roots = [Path(p).expanduser().resolve() for p in (data_roots or [Path.cwd()])]
        self.timeout = timeout

    def _new_run_dir(self, name: str) -> Path:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        run_dir = self.workspace_root / f"tool-{stamp}-{name.replace('.', '-')}-{secrets.token_hex(2)}"
        run_dir.mkdir(parents=True)
        return run_dir

    def policy(self) -> PathPolicy:
        """The path policy for names in calls: the data folders, relative names against the first one."""
        return PathPolicy.for_cli(self.data_roots[0], data_dirs=self.data_roots[1:])

    def stage(self, name: str, arguments: dict[str, Any], run_dir: Path, policy: PathPolicy | None = None,
              ) -> dict[str, Any]:
        """Copy the files that top-level string arguments name into ``run_dir/data``; point the arguments there.

        Every argument is first checked against :meth:`policy` (``check_paths``: declared input files must
        exist inside the data folders, and no string may name anything outside them).
        """
        from cmbagent.tools.methods import check_paths

        policy = policy or self.policy()
        check_paths(name, arguments, policy)
        staged: dict[str, Any] = {}
        taken: set[str] = set()
        for key, value in arguments.items():
            if not isinstance(value, str) or "\n" in value or not value.strip() or not policy.exists(value):
                staged[key] = value
                continue
            resolved = policy.resolve(value, what=f"argument {key!r}")
            target = f"data/{resolved.name}"
            n = 1
            while target in taken:
                n += 1
                target = f"data/{resolved.stem}-{n}{resolved.suffix}"
            taken.add(target)
            copy_file(resolved, run_dir / target)
            staged[key] = target
        return staged

    def run(self, name: str, arguments: dict[str, Any] | None = None) -> MethodResult:
        """Validate, stage, run ``name`` in a sandboxed kernel and return its result.

        Raises:
            UserError: an unknown method, invalid arguments, or a name outside the data folders
                (``PathNotAllowed``).
            ModelRetry: the method raised inside the sandbox (the message quotes its error).
            SandboxUnavailable: no isolating backend works here.
        """
        from cmbagent.sandbox import UnisolatedSandboxWarning, open_sandbox
        from cmbagent.tools.methods import check_paths, get_method, validate_arguments

        spec = get_method(name)
        arguments = dict(arguments or {})
        if not isinstance(arguments, dict):
            raise UserError(f"method {name}: arguments must be an object")
        validate_arguments(spec.name, arguments)
        policy = self.policy()  # a missing data folder is a ConfigError before any run folder exists
        check_paths(spec.name, arguments, policy)  # so is a name outside the data folders
        run_dir = self._new_run_dir(spec.name)
        staged = self.stage(spec.name, arguments, run_dir, policy)
        validate_arguments(spec.name, staged, paths=PathPolicy.for_run(run_dir))
        with warnings.catch_warnings():
            if self.sandbox == "process":  # asked for explicitly; the warning was the caller's to heed
                warnings.simplefilter("ignore", UnisolatedSandboxWarning)
            executor = open_sandbox(run_dir, self.sandbox)
        try:
            cell = executor.execute(method_cell(spec.name, staged, _RESULT_FILE), timeout=self.timeout)
        finally:
            executor.close()
        if not cell.ok:
            detail = f"{cell.error_name or cell.status}: {cell.error_value or cell.message}".strip()
            tail = "\n".join((cell.traceback or "").strip().splitlines()[-6:])
            raise ModelRetry(f"method {spec.name} failed in the sandbox ({detail}); fix the arguments or data"
                             + (f"\n{tail}" if tail else ""))
        try:  # through no link: code in the run folder could have replaced the file with one
            text = read_beneath(run_dir, _RESULT_FILE).decode("utf-8")
        except (OSError, PathError):
            raise ModelRetry(f"method {spec.name} wrote no result file; fix the arguments or data") from None
        result = MethodResult.from_json(text)
        result.artifacts = [str((run_dir / a).resolve()) if not Path(a).is_absolute() else a
                            for a in result.artifacts]
        backend = getattr(getattr(executor, "backend", None), "name", self.sandbox)
        result.diagnostics = {**result.diagnostics, "sandbox": {"backend": backend, "run_dir": str(run_dir)}}
        return result
