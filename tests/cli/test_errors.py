"""How the command line reports an error: ``error: ...`` on stderr, or with ``--json`` one JSON object
``{"status": "error", "error": ..., "fix": ...}`` on stdout, the exit code kept; renamed options still work."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main
from typer.testing import CliRunner

from cmbagent.cli import app
from cmbagent.cli._common import CommandGroup, split_fix
from cmbagent.exceptions import UserError


def _commands(command: Any, path: list[str]) -> list[tuple[list[str], Any]]:
    found = [(path, command)]
    for name, sub in getattr(command, "commands", {}).items():
        found += _commands(sub, [*path, name])
    return found


JSON_COMMANDS = [path for path, command in _commands(typer.main.get_command(app), [])
                 if any("--json" in getattr(p, "opts", ()) for p in getattr(command, "params", ()))]


def _one_error(result: Any) -> dict[str, Any]:
    """The single JSON object a failed ``--json`` command printed on stdout."""
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, result.stdout
    payload = json.loads(lines[0])
    assert payload["status"] == "error" and payload["error"] and payload["fix"], payload
    return payload


def test_every_command_with_json_output_is_covered() -> None:
    names = {" ".join(p) for p in JSON_COMMANDS}
    assert {"solve", "resume", "replay", "runs", "batch", "cancel", "methods run", "models ping", "exec",
            "search", "index", "ideas", "doctor", "agents"} <= names, names


@pytest.mark.parametrize("path", JSON_COMMANDS, ids=[" ".join(p) for p in JSON_COMMANDS])
def test_a_usage_error_under_json_is_one_object_on_stdout(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--json", "--no-such-option"])
    assert result.exit_code == 2, result.output
    payload = _one_error(result)
    assert "--no-such-option" in payload["error"] and "--help" in payload["fix"]
    assert "Usage:" not in result.stderr  # not the text form as well


def test_a_close_misspelling_gets_a_did_you_mean() -> None:
    result = CliRunner().invoke(app, ["methods", "list", "--json", "--jsn"])
    assert result.exit_code == 2
    assert _one_error(result)["fix"] == "did you mean --json?"
    unknown = CliRunner().invoke(app, ["slove", "task.md", "--json"])
    assert unknown.exit_code == 2 and "Did you mean 'solve'?" in _one_error(unknown)["error"]


def test_a_bad_value_under_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["solve", "task.md", "--max-steps", "0", "--json"])
    assert result.exit_code == 2 and "--max-steps" in _one_error(result)["error"]


def test_a_command_error_splits_what_is_wrong_from_what_to_do(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.md")
    result = CliRunner().invoke(app, ["solve", missing, "--json", "--workspace", str(tmp_path / "ws")])
    assert result.exit_code == 2
    payload = _one_error(result)
    assert payload["error"] == f"task file {missing!r} not found"
    assert payload["fix"].startswith("check the path")
    assert not (tmp_path / "ws").exists()
    text = CliRunner().invoke(app, ["solve", missing, "--workspace", str(tmp_path / "ws")])
    assert text.exit_code == 2 and "{" not in text.stdout
    assert f"error: task file {missing!r} not found; check the path" in text.stderr


def test_a_bad_method_call_under_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["methods", "run", "cosmology.fit_supernovae", "--args", "{bad", "--json"])
    assert result.exit_code == 2
    payload = _one_error(result)
    assert payload["error"].startswith("--args is not valid JSON") and payload["fix"].startswith("pass an object")


def test_a_provider_error_keeps_its_type(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["models", "ping", "gpt-4.1", "--json"])
    assert result.exit_code == 2
    payload = _one_error(result)
    assert payload["type"] == "ConfigError" and "Valid forms" in payload["error"]


def test_nothing_to_cancel_is_a_failure_with_its_reason(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"run_id": "run", "status": "done"}))
    result = CliRunner().invoke(app, ["cancel", str(run), "--wait", "0", "--json"])
    assert result.exit_code == 1
    payload = _one_error(result)
    assert payload["error"] == f"nothing to cancel: {run} is not running (status done)"
    assert payload["fix"] == "it has stopped already"
    text = CliRunner().invoke(app, ["cancel", str(run), "--wait", "0"])
    assert text.exit_code == 1 and "not running (status done); it has stopped already" in text.stderr


def _toy(raises: BaseException) -> typer.Typer:
    """A command line built the way cmbagent's is, whose one command raises ``raises``."""
    toy = typer.Typer(cls=CommandGroup)

    @toy.command("go")
    def go(as_json: bool = typer.Option(False, "--json")) -> None:
        raise raises

    @toy.command("other")
    def other() -> None:
        """A second command, so that ``go`` is a sub-command as in the real app."""

    return toy


def test_a_user_error_a_command_lets_through_exits_2_in_both_forms() -> None:
    toy = _toy(UserError("the frobnicator is off; turn it on"))
    as_json = CliRunner().invoke(toy, ["go", "--json"])
    assert as_json.exit_code == 2
    assert _one_error(as_json) == {"status": "error", "error": "the frobnicator is off", "fix": "turn it on"}
    text = CliRunner().invoke(toy, ["go"])
    assert text.exit_code == 2 and text.stderr == "error: the frobnicator is off; turn it on\n"


def test_a_bug_under_json_is_still_one_object_and_the_traceback_goes_to_stderr() -> None:
    toy = _toy(RuntimeError("boom"))
    as_json = CliRunner().invoke(toy, ["go", "--json"])
    assert as_json.exit_code == 1
    payload = _one_error(as_json)
    assert payload["error"] == "internal error: RuntimeError: boom" and "bug" in payload["fix"]
    assert "Traceback" in as_json.stderr
    text = CliRunner().invoke(toy, ["go"])  # without --json a bug is a traceback, as before
    assert isinstance(text.exception, RuntimeError)


def test_the_removed_workspaces_option_still_works_with_a_warning(tmp_path: Path) -> None:
    # --max-concurrent-runs 0 stops the command at parsing, after --workspaces has been accepted
    result = CliRunner().invoke(app, ["ui", "--workspaces", str(tmp_path), "--max-concurrent-runs", "0"])
    assert result.exit_code == 2
    assert "--workspaces is deprecated and is removed in 0.2.0; use --workspace" in result.stderr
    assert "No such option" not in result.stderr and "--max-concurrent-runs" in result.stderr
    equals = CliRunner().invoke(app, ["ui", f"--workspaces={tmp_path}", "--max-concurrent-runs", "0"])
    assert "No such option" not in equals.stderr and "deprecated" in equals.stderr
    assert "--workspaces" not in CliRunner().invoke(app, ["ui", "--help"]).stdout  # one spelling in help


@pytest.mark.parametrize(("message", "error", "fix"), [
    ("x not found; check the path", "x not found", "check the path"),
    ("a; b; do c", "a; b", "do c"),
    ("pass an object like '{\"a\": 1; \"b\": 2}'", "pass an object like '{\"a\": 1; \"b\": 2}'", None),
    ("bad value (got 1; expected 2)", "bad value (got 1; expected 2)", None),
    ("no fix here", "no fix here", None),
    ("cannot run:\n  - a: bad\n  - b: bad\nfix the front matter", "cannot run:\n  - a: bad\n  - b: bad",
     "fix the front matter"),
    ("Valid forms:\n  openai:<model>\n  offline", "Valid forms:\n  openai:<model>\n  offline", None),
])
def test_split_fix(message: str, error: str, fix: str | None) -> None:
    assert split_fix(message) == (error, fix)
