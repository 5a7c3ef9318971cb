"""`cmbagent agents`: the validated roster."""

from __future__ import annotations

import typer

from cmbagent.cli._common import fail, print_json


def register(app: typer.Typer) -> None:
    @app.command("agents")
    def agents_cmd(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
        """List the agents of the roster (validated prompt files)."""
        from cmbagent.agents import PromptError, load_registry

        try:
            registry = load_registry()
        except PromptError as exc:
            fail(str(exc))
        if as_json:
            print_json([{"name": s.name, "role": s.role, "tier": s.tier, "output_schema": s.output_schema,
                         "tools": list(s.tools), "description": s.description, "prompt": s.path} for s in registry])
            return
        typer.echo(f"{len(registry)} agents")
        for spec in registry:
            typer.echo(f"{spec.name:24s} {spec.role:13s} {spec.tier:7s} {spec.output_schema:16s} {spec.description}")
