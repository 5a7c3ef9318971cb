"""Every command's help: placeholders that say what a value is (``--model SPEC``), never a Python type."""

from __future__ import annotations

import re

import typer.main
from typer.testing import CliRunner

from cmbagent.cli import app

_PYTHON_TYPE = re.compile(r"<(?:str|int|float|bool|path|text|int range|float range|list\[[^\]]*\]|tuple\[[^\]]*\])>")


def _commands(command: object, path: list[str]) -> list[list[str]]:
    found = [path]
    for name, sub in getattr(command, "commands", {}).items():
        found += _commands(sub, [*path, name])
    return found


def test_help_shows_no_python_type_placeholders() -> None:
    runner = CliRunner()
    paths = _commands(typer.main.get_command(app), [])
    assert ["solve"] in paths and ["methods", "run"] in paths
    for path in paths:
        out = runner.invoke(app, [*path, "--help"])
        assert out.exit_code == 0, (path, out.output)
        assert not _PYTHON_TYPE.search(out.output), (path, _PYTHON_TYPE.findall(out.output))
    solve = runner.invoke(app, ["solve", "--help"]).output
    assert "--model SPEC" in solve and "--workspace DIR" in solve and "--budget-usd USD" in solve


def test_one_spelling_of_workspace() -> None:
    runner = CliRunner()
    for path in _commands(typer.main.get_command(app), []):
        assert "--workspaces" not in runner.invoke(app, [*path, "--help"]).output, path
