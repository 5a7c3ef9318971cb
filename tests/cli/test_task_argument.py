"""`cmbagent solve X`: a one-word X that reads as a path is a file name, never task text."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.cli import app
from cmbagent.exceptions import TaskError
from cmbagent.task import load_task


@pytest.mark.parametrize("name", ["examples/missing", "./task", "~/no-such-task", "task.md", "notes.txt"])
def test_a_missing_path_is_an_error_not_the_task(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(TaskError, match="not found; check the path"):
        load_task(name)


def test_a_folder_is_an_error_that_names_the_fix(tmp_path: Path) -> None:
    (tmp_path / "examples").mkdir()
    with pytest.raises(TaskError, match="is a folder; pass the task's markdown file"):
        load_task(str(tmp_path / "examples"))
    out = CliRunner().invoke(app, ["solve", str(tmp_path / "examples"), "--workspace", str(tmp_path / "ws")])
    assert out.exit_code == 2 and "is a folder" in out.output and not (tmp_path / "ws").exists()


def test_a_sentence_or_a_plain_word_is_still_task_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_task("Fit flat LCDM to the Pantheon+ supernovae.").text.startswith("Fit flat LCDM")
    assert load_task("supernovae").text == "supernovae"
