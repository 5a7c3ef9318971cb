"""The ``cmbagent`` command line.

Each group of commands lives in its own small module with a ``register(app)`` function.
Those modules import only typer at the top; everything heavy is imported inside the
command, so ``cmbagent --help`` stays fast.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import typer

from cmbagent._version import __version__
from cmbagent.cli._common import CommandGroup

__all__ = ["app", "main"]

app = typer.Typer(
    cls=CommandGroup,  # renamed options; one way of reporting errors, as JSON under --json (_common.py)
    name="cmbagent",
    help="Research automation: plan a scientific task, run it in a sandbox, critique it, report it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

# command modules, in the order their commands appear in --help
_COMMAND_MODULES = ("_run", "_batch", "_eval", "_ideas", "_methods", "_exec", "_literature", "_interop", "_models",
                    "_agents", "_ui", "_doctor")


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


#: what a value is, in help, by parameter name (others: the name in capitals); never a Python type
_PLACEHOLDERS = {
    "model": "SPEC", "agent_model": "AGENT=SPEC", "config": "FILE", "workspace": "DIR", "run_dir": "DIR",
    "data": "FILE", "data_dir": "DIR", "budget_usd": "USD", "budget_tokens": "TOKENS", "timeout": "SECONDS",
    "sandbox": "BACKEND", "max_steps": "N", "n_reviews": "N", "max_attempts": "N", "edit": "PLAN.json",
    "reject": "COMMENT", "task": "TASK", "spec": "SPEC", "port": "PORT", "host": "HOST", "auth": "USER:PASS",
}


class _Command(typer.core.TyperCommand):
    """A command whose help lists arguments by their placeholder only (typer adds the Python type, ``<str>``)."""

    def format_options(self, ctx: Any, formatter: Any) -> None:
        import re

        args, opts = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if param.param_type_name == "argument":
                args.append((re.sub(r" <[^<>]*>$", "", record[0]), record[1]))
            else:
                opts.append(record)
        if args:
            with formatter.section("Arguments"):
                formatter.write_dl(args)
        if opts:
            with formatter.section("Options"):
                formatter.write_dl(opts)


def _name_placeholders(typer_app: typer.Typer) -> None:
    """Give every option and argument that takes a value a placeholder (``--model SPEC``) unless it names its
    own, so help never shows a Python type (``<str>``, ``<list[Path]>``, ``<int range>``); sub-groups too."""
    import inspect
    import typing

    from typer.models import ParameterInfo

    callbacks = [typer_app.registered_callback.callback] if typer_app.registered_callback else []
    for command in typer_app.registered_commands:
        if command.cls in (None, typer.core.TyperCommand):
            command.cls = _Command
        callbacks.append(command.callback)
    for callback in callbacks:
        if callback is None:
            continue
        hints = typing.get_type_hints(callback)
        for name, parameter in inspect.signature(callback).parameters.items():
            info = parameter.default
            if isinstance(info, ParameterInfo) and info.metavar is None and hints.get(name) is not bool:
                info.metavar = _PLACEHOLDERS.get(name, name.upper())
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            _name_placeholders(group.typer_instance)


_register_commands()
_name_placeholders(app)


def main() -> None:
    """Entry point of the console script; usage errors exit with code 2."""
    try:
        app(standalone_mode=True)
    except KeyboardInterrupt:
        sys.exit(130)
