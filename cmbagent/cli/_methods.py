"""`cmbagent methods list|show|run`."""

from __future__ import annotations

from pathlib import Path

import typer

from cmbagent.cli._common import EXIT_FAILED, fail, print_json


def register(app: typer.Typer) -> None:
    methods = typer.Typer(help="List, describe and run the paper method tools.", no_args_is_help=True)
    app.add_typer(methods, name="methods")

    @methods.command("list")
    def list_methods(as_json: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
        """List the registered method tools."""
        from cmbagent.tools.methods import iter_methods, load_errors

        specs = list(iter_methods())
        if as_json:
            print_json([{"name": s.name, "family": s.family, "summary": s.summary} for s in specs])
            return
        for spec in specs:
            typer.echo(f"{spec.name:34s} {spec.summary}")
        for family, why in load_errors().items():
            typer.echo(f"(family {family!r} could not be loaded: {why})", err=True)

    @methods.command("show")
    def show_method(
        name: str = typer.Argument(..., help="Method name, e.g. cosmology.fit_supernovae."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ) -> None:
        """Describe one method: paper, arguments, example."""
        from cmbagent.exceptions import UserError
        from cmbagent.tools.methods import get_method

        try:
            spec = get_method(name)
        except UserError as exc:
            fail(str(exc))
        info = spec.describe()
        if as_json:
            print_json(info)
            return
        typer.echo(f"{spec.name} ({spec.family})\n\n{spec.description}\n")
        paper = spec.paper
        typer.echo(f"paper: {paper.title}" + (f" (arXiv:{paper.arxiv})" if paper.arxiv else ""))
        typer.echo("arguments:")
        required = set(spec.required)
        for arg, schema in spec.arguments.items():
            default = "" if arg in required else f" = {schema.get('default')!r}"
            doc = spec.argument_docs.get(arg, "")
            typer.echo(f"  {arg}{default}{'  (required)' if arg in required else ''}  {doc}")
        if spec.example:
            typer.echo(f"\nexample:\n  {spec.example}")

    @methods.command("run")
    def run_method_cmd(
        name: str = typer.Argument(..., help="Method name."),
        args: str = typer.Option("{}", "--args", help="Arguments as a JSON object."),
        data_dir: list[Path] = typer.Option(
            [], "--data-dir", help="A folder the arguments may name files in besides the working folder (repeatable)."),
        as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    ) -> None:
        """Run one method tool directly (in this process) and print its result.

        File arguments must lie in the working folder or a --data-dir folder (never /proc, /sys, /dev).
        """
        import json

        from cmbagent.exceptions import UserError
        from cmbagent.paths import PathPolicy
        from cmbagent.tools.methods import run_method

        try:
            arguments = json.loads(args)
        except json.JSONDecodeError as exc:
            fail(f"--args is not valid JSON ({exc.msg} at position {exc.pos}); pass an object like '{{\"data\": \"x.csv\"}}'")
        if not isinstance(arguments, dict):
            fail("--args must be a JSON object, e.g. '{\"data\": \"x.csv\"}'")
        try:
            result = run_method(name, arguments, paths=PathPolicy.for_cli(Path.cwd(), data_dirs=data_dir))
        except UserError as exc:
            fail(str(exc))
        if as_json:
            print(result.to_json())
        else:
            typer.echo(result.summary)
            for key, value in result.values.items():
                typer.echo(f"  {key}: {value}")
            for check in result.checks:
                typer.echo(f"  [{'pass' if check.passed else 'FAIL'}] {check.name}: {check.message}")
            for path in result.artifacts:
                typer.echo(f"  wrote {path}")
        if not result.ok:
            raise typer.Exit(EXIT_FAILED)
