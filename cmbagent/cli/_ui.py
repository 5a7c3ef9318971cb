"""`cmbagent ui`: serve the chat UI."""

from __future__ import annotations

from pathlib import Path

import typer

from cmbagent.cli._common import fail


def register(app: typer.Typer) -> None:
    @app.command("ui")
    def ui(
        host: str = typer.Option(
            "127.0.0.1", "--host", help="Interface to listen on (0.0.0.0 to serve a network)."
        ),
        port: int = typer.Option(7860, "--port", help="Port to listen on."),
        workspace: Path = typer.Option(
            Path("workspaces"),
            "--workspace",
            help="Root folder of the run folders (one sub-folder per browser session).",
        ),
        max_concurrent_runs: int = typer.Option(
            2,
            "--max-concurrent-runs",
            min=1,
            help="Runs executing at once; later ones wait in a visible queue.",
        ),
        auth: str | None = typer.Option(None, "--auth", help="Require a login, given as USER:PASS."),
        allow_model_host: list[str] = typer.Option(
            [],
            "--allow-model-host",
            help="A host visitors may point an OpenAI-compatible base URL at (repeatable): a name, an IP, a "
            "network such as 10.0.0.0/8, or * for any. Default: loopback only (CMBAGENT_UI_MODEL_HOSTS).",
        ),
    ) -> None:
        """Serve the Gradio chat UI: type or upload a task, watch it run, approve the plan, download results."""
        from cmbagent.exceptions import UserError
        from cmbagent.ui import UISettings, parse_auth, parse_hosts, serve

        try:
            settings = UISettings.from_env(workspaces=workspace, max_concurrent_runs=max_concurrent_runs)
            if auth:
                settings.auth = parse_auth(auth)
            if allow_model_host:
                settings.model_hosts = parse_hosts(allow_model_host)
        except (UserError, ValueError) as exc:
            fail(str(exc))
        typer.echo(f"cmbagent UI on http://{host}:{port}/  (runs under {settings.workspaces.resolve()})")
        serve(settings, host=host, port=port)
