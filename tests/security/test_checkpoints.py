"""Checkpoints live in the run folder, which sandboxed code can write: the host reads them strictly."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from cmbagent.checkpoints import checkpoint_serde, open_sqlite
from cmbagent.exceptions import CmbagentError, PathNotAllowed

CONSTRUCTED: list[str] = []


@dataclass
class Boom:
    """Stands for any callable a crafted checkpoint could name (``os.system`` with a command, say)."""

    command: str

    def __post_init__(self) -> None:
        CONSTRUCTED.append(self.command)


def test_a_crafted_checkpoint_cannot_make_the_host_call_code() -> None:
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    crafted = JsonPlusSerializer().dumps_typed({"state": Boom("touch /srv/pwned")})
    CONSTRUCTED.clear()
    loaded = checkpoint_serde().loads_typed(crafted)
    assert CONSTRUCTED == [], "the strict deserializer must not construct an unlisted type"
    assert not isinstance(loaded["state"], Boom)
    JsonPlusSerializer(allowed_msgpack_modules=True).loads_typed(crafted)  # what the permissive default does
    assert CONSTRUCTED == ["touch /srv/pwned"]


def test_a_checkpoint_file_replaced_by_a_link_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "host-file"
    target.write_text("not a database")
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoints.sqlite").symlink_to(target)
    with pytest.raises(PathNotAllowed):
        open_sqlite(run / "checkpoints.sqlite")
    os.unlink(run / "checkpoints.sqlite")
    open_sqlite(run / "checkpoints.sqlite").close()  # a fresh regular file is fine
    assert target.read_text() == "not a database"


def test_settings_the_runs_code_rewrote_in_run_json_are_refused_on_resume(tmp_path: Path) -> None:
    """run.json is writable by the run's sandboxed code: a rewritten sandbox backend (``process`` runs the next
    cells with the host's uid), budget, model or install switch must not take effect on ``cmbagent resume``."""
    import json

    from typer.testing import CliRunner

    from cmbagent.api import solve
    from cmbagent.cli import app
    from cmbagent.run import RunFolder
    from tests.planner._support import chain_task

    result = solve(chain_task(tmp_path), workspace=tmp_path / "ws", model="offline", approve_plan=True,
                   n_reviews=0, sandbox="process")
    assert result.status == "awaiting_approval"
    run_json = result.run_dir / "run.json"
    original = run_json.read_text()
    assert RunFolder(result.run_dir).config() == json.loads(original)["config"]
    for change in ({"sandbox": "process", "allow_install": True}, {"budget_usd": 1e9}):
        data = json.loads(original)
        data["config"]["settings"].update(change)
        run_json.write_text(json.dumps(data))
        outcome = CliRunner().invoke(app, ["resume", str(result.run_dir), "--approve"])
        assert outcome.exit_code == 2 and "changed" in outcome.output, outcome.output
    data = json.loads(original)
    data["config"]["model"] = "openai-compatible:m@http://attacker.example/v1"
    run_json.write_text(json.dumps(data))
    outcome = CliRunner().invoke(app, ["resume", str(result.run_dir), "--approve"])
    assert outcome.exit_code == 2 and "changed" in outcome.output, outcome.output
    assert json.loads(run_json.read_text())["status"] == "awaiting_approval"  # nothing ran


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::UserWarning")  # the original run uses the process backend, on purpose
def test_a_run_from_elsewhere_replays_in_an_isolating_sandbox_whatever_its_run_json_says(tmp_path: Path) -> None:
    """Replaying someone else's run folder is a use of replay; its run.json is theirs, so its sandbox is not."""
    import json

    from cmbagent.api import replay, solve
    from tests.planner._support import chain_task

    result = solve(chain_task(tmp_path), workspace=tmp_path / "ws", model="offline", n_reviews=0, sandbox="process")
    run_json = result.run_dir / "run.json"
    data = json.loads(run_json.read_text())
    data["config_seal"] = "0" * 64  # made elsewhere
    data["config"]["settings"].update(sandbox="process", allow_install=True)
    run_json.write_text(json.dumps(data))
    try:
        replayed, _ = replay(result.run_dir, workspace=tmp_path / "replays")
        folder = replayed.run_dir
    except CmbagentError:  # no isolating backend on this machine: the replay stops before any cell runs
        (folder,) = [p for p in (tmp_path / "replays").iterdir() if p.is_dir()]
    settings = json.loads((folder / "run.json").read_text())["config"]["settings"]
    assert settings["sandbox"] == "auto" and settings["allow_install"] is False
