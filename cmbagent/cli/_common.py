"""Small helpers shared by the command modules (keep this import-light)."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_BUDGET = 3
EXIT_CANCELLED = 4
EXIT_UNMET = 5  # the run finished, but a requirement that contradicts the task stands (requirements.json)
EXIT_INTERRUPTED = 130  # SIGINT (Ctrl-C); SIGTERM exits 143
EXIT_TERMINATED = 143


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    """Print ``error: message`` to stderr and exit with ``code``."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, indent=None, default=str) + "\n")
    sys.stdout.flush()
