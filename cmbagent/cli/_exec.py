"""`cmbagent exec FILE.py`: run a file as one cell, in the sandbox, the way agent-written code runs."""

from __future__ import annotations

from pathlib import Path

import typer

from cmbagent.cli._common import EXIT_FAILED, EXIT_OK, fail, print_json

__all__ = ["register"]


def _default_workspace() -> Path:
    import datetime
    import secrets

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("workspaces") / f"exec-{stamp}-{secrets.token_hex(2)}"


def register(app: typer.Typer) -> None:
    @app.command("exec")
    def exec_file(
        file: Path = typer.Argument(..., help="Python file to run as one cell."),
        workspace: Path | None = typer.Option(
            None, "--workspace", help="Run folder (created if missing; default: a new folder under ./workspaces)."
        ),
        timeout: float = typer.Option(600.0, "--timeout", help="Wall-clock limit of the cell in seconds."),
        sandbox: str = typer.Option("auto", "--sandbox", help="Isolation backend: auto, bwrap, process or docker."),
        as_json: bool = typer.Option(False, "--json", help="Print the typed result as one JSON object."),
    ) -> None:
        """Run FILE as one cell in a sandboxed kernel; exit 0 if it succeeded, 1 if it raised or was stopped."""
        import warnings

        from cmbagent.exceptions import ConfigError, KernelDied, SandboxUnavailable

        if sandbox not in ("auto", "bwrap", "process", "docker"):
            fail(f"--sandbox must be one of auto, bwrap, process, docker (got {sandbox!r})")
        if timeout <= 0:
            fail(f"--timeout must be a positive number of seconds (got {timeout})")
        try:
            code = file.read_text(encoding="utf-8", errors="surrogateescape")
        except FileNotFoundError:
            fail(f"{file} does not exist; pass the path of a Python file")
        except IsADirectoryError:
            fail(f"{file} is a folder; pass the path of a Python file")
        except OSError as exc:
            fail(f"cannot read {file}: {exc.strerror}")
        run_dir = (workspace or _default_workspace()).resolve()
        if run_dir.exists() and not run_dir.is_dir():
            fail(f"--workspace {run_dir} exists and is not a folder")

        from cmbagent.sandbox import UnisolatedSandboxWarning, open_sandbox

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", UnisolatedSandboxWarning)
            try:
                executor = open_sandbox(run_dir, sandbox)
            except (SandboxUnavailable, ConfigError) as exc:
                fail(str(exc))
            except KernelDied as exc:
                fail(str(exc), code=EXIT_FAILED)
        for warning in caught:
            typer.echo(f"warning: {warning.message}", err=True)
        try:
            result = executor.execute(code, timeout=timeout)
        finally:
            executor.close()
        if as_json:
            payload = result.model_dump(mode="json")
            payload.update(ok=result.ok, backend=getattr(getattr(executor, "backend", None), "name", sandbox),
                           workspace=str(run_dir), notebook=str(run_dir / "notebook.ipynb"))
            print_json(payload)
        else:
            if result.stdout.text:
                typer.echo(result.stdout.text, nl=not result.stdout.text.endswith("\n"))
            if result.stderr.text:
                typer.echo(result.stderr.text, err=True, nl=not result.stderr.text.endswith("\n"))
            for item in result.results:
                if "text/plain" in item:
                    typer.echo(item["text/plain"])
            for image in result.images:
                typer.echo(f"[image] {image}")
            if result.traceback:
                typer.echo(result.traceback, err=True)
            if result.status not in ("ok", "error"):
                typer.echo(f"[{result.status}] {result.message}", err=True)
        raise typer.Exit(EXIT_OK if result.ok else EXIT_FAILED)

