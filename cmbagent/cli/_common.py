"""Small helpers shared by the command modules (keep this import-light), and how every command reports an error.

An error is printed one way everywhere (docs/architecture.md, Rules 4): ``error: <message>`` on stderr, or,
when the command line has ``--json``, one JSON object on stdout::

    {"status": "error", "error": "task file 'x.md' not found", "fix": "check the path (...)"}

with the exit code kept (2 for the caller's mistake, 1 for a failure). ``fix`` is the part of the message
after its last ``; `` (messages read "what is wrong; what to do"), or what to do in general when the message
states none. The root command (:class:`CommandGroup`) makes usage errors, an uncaught :class:`UserError`
and, under ``--json``, any other exception take the same way, so no command needs code of its own for it.

Options renamed in a release keep working for one more (:data:`RENAMED_OPTIONS`), with a warning on stderr.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, NoReturn

import typer
import typer.core

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_BUDGET = 3
EXIT_CANCELLED = 4
EXIT_UNMET = 5  # the run finished, but a requirement that contradicts the task stands (requirements.json)
EXIT_INTERRUPTED = 130  # SIGINT (Ctrl-C); SIGTERM exits 143
EXIT_TERMINATED = 143

#: ``(command, old option) -> (new option, release that drops the old one)``; the command is the top-level
#: command name (``ui``), and the old spelling is rewritten to the new one with a warning
RENAMED_OPTIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("ui", "--workspaces"): ("--workspace", "0.2.0"),
}



@dataclass(frozen=True)
class _Invocation:
    json: bool = False
    command: str = "cmbagent"


#: the command line being run (set by the root command as it parses; read by :func:`fail`)
_NOW: ContextVar[_Invocation | None] = ContextVar("cmbagent_cli_invocation", default=None)


def _now() -> _Invocation:
    return _NOW.get() or _Invocation()


def wants_json(args: Sequence[str]) -> bool:
    """Whether a command line asks for JSON output (``--json`` before any ``--``)."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def json_mode() -> bool:
    """Whether the command running now was given ``--json``."""
    return _now().json


def split_fix(message: str) -> tuple[str, str | None]:
    """``"what is wrong; what to do"`` -> both parts; ``(message, None)`` when the message states no fix.

    The split is at the last ``; `` outside brackets and quotes of a one-line message; a message of several
    lines (a list of problems) states its fix on its last line, unless that line is indented (part of a list).
    """
    text = message.strip()
    if "\n" in text:
        head, _, last = text.rpartition("\n")
        fix = last if last[:1].isalpha() else ""
        return (head.rstrip(), fix.strip()) if fix.strip() else (text, None)
    depth, quote, cut = 0, "", -1
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"`" and (i == 0 or not text[i - 1].isalnum()):
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0 and text[i + 1 : i + 2] == " ":
            cut = i
    if cut <= 0 or not text[cut + 2 :].strip():
        return text, None
    return text[:cut].rstrip(), text[cut + 2 :].strip()


def _general_fix(code: int) -> str:
    command = _now().command
    if code == EXIT_USAGE:
        return f"correct the command line as the error says (`{command} --help` lists its arguments)"
    return "see the error: it names what failed; run the command again once that is fixed"


def error_payload(message: str, code: int, fix: str | None = None, **extra: Any) -> dict[str, Any]:
    """The JSON object of an error: ``status``, ``error``, ``fix``, then anything ``extra`` adds."""
    error, stated = split_fix(message)
    if fix is None:
        fix = stated or _general_fix(code)
    else:
        error = message.strip()
    return {"status": "error", "error": error, "fix": fix, **extra}


def fail(message: str, code: int = EXIT_USAGE, *, fix: str | None = None, **extra: Any) -> NoReturn:
    """Report an error and exit with ``code``: ``error: message`` on stderr, or one JSON object on stdout
    under ``--json`` (``extra`` keys are added to that object). ``fix`` says what to do when ``message``
    does not; it is then printed after the message."""
    if json_mode():
        print_json(error_payload(message, code, fix, **extra))
    else:
        typer.echo(f"error: {message}" + (f"; {fix}" if fix else ""), err=True)
    raise typer.Exit(code)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=None, default=str) + "\n")
    sys.stdout.flush()


def _renamed(command: str, args: list[str]) -> list[str]:
    out: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            return out + args[i:]
        name, eq, value = arg.partition("=")
        renamed = RENAMED_OPTIONS.get((command, name))
        if renamed is not None:
            new, until = renamed
            typer.echo(f"warning: {name} is deprecated and is removed in {until}; use {new}", err=True)
            arg = f"{new}{eq}{value}"
        out.append(arg)
    return out


def _usage_fix(exc: Exception) -> str:
    """What to do about a usage error of the command-line parser (an unknown option: the close spellings)."""
    possibilities = sorted(getattr(exc, "possibilities", None) or [])
    if len(possibilities) == 1:
        return f"did you mean {possibilities[0]}?"
    if possibilities:
        return f"use one of {', '.join(possibilities)}"
    ctx = getattr(exc, "ctx", None)
    command = getattr(ctx, "command_path", None) or _now().command
    return f"`{command} --help` lists the arguments and options"


class CommandGroup(typer.core.TyperGroup):
    """The root command: renamed options, and one way of reporting every error (see the module docstring)."""

    # typer's parser errors (unknown option, bad value, missing argument, unknown command) are
    # ``typer.TyperException``s with ``exit_code`` and ``format_message()``; ``typer.Exit`` ends a command.

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _NOW.set(_Invocation(json=wants_json(args), command=ctx.command_path or "cmbagent"))
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as exc:  # a bad root option (no command is known yet)
            _usage_error(exc)

    def resolve_command(self, ctx: Any, args: list[str]) -> tuple[Any, Any, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        if name:
            _NOW.set(_Invocation(json=json_mode(), command=f"{ctx.command_path} {name}"))
        return name, command, _renamed(name or "", rest)

    def invoke(self, ctx: Any) -> Any:
        from cmbagent.exceptions import UserError

        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort):
            raise
        except typer.TyperException as exc:  # a command's usage error
            _usage_error(exc)
        except UserError as exc:  # the caller's mistake that a command let through: exit 2, as everywhere
            fail(str(exc))
        except Exception as exc:
            if not json_mode():
                raise
            traceback.print_exc(file=sys.stderr)
            print_json(error_payload(f"internal error: {type(exc).__name__}: {exc}", EXIT_FAILED,
                                     "this is a bug in cmbagent: report it with the traceback printed on stderr"))
            raise typer.Exit(EXIT_FAILED) from exc


def _usage_error(exc: typer.TyperException) -> NoReturn:
    """Under ``--json``, a parser error as one JSON object (exit code kept); otherwise typer prints it."""
    if not json_mode():
        raise exc
    code = int(getattr(exc, "exit_code", EXIT_USAGE))
    message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
    print_json(error_payload(message, code, _usage_fix(exc)))
    raise typer.Exit(code) from exc
