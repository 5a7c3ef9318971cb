"""The ``cmbagent`` command line.

Each group of commands lives in its own small module with a ``register(app)`` function.
Those modules import only typer at the top; everything heavy is imported inside the
command, so ``cmbagent --help`` stays fast.
"""

from __future__ import annotations

import importlib
import sys

import typer

from cmbagent._version import __version__

__all__ = ["app", "main"]

app = typer.Typer(
    name="cmbagent",
    help="Research automation: plan a scientific task, run it in a sandbox, critique it, report it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

# command modules, in the order their commands appear in --help
_COMMAND_MODULES = ("_run", "_methods", "_exec", "_models", "_agents", "_ui", "_doctor")


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"cmbagent {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version_callback, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """cmbagent: plan, code, execute, critique and report scientific tasks."""


def _register_commands() -> None:
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(f"cmbagent.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cmbagent.cli.{name}":
                continue
            raise
        module.register(app)


_register_commands()


def main() -> None:
    """Entry point of the console script; usage errors exit with code 2."""
    try:
        app(standalone_mode=True)
    except KeyboardInterrupt:
        sys.exit(130)
