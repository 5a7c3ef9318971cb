"""MethodRunner stages only allowed files and validates arguments before any sandbox starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.exceptions import PathNotAllowed, UnknownMethodError, UserError
from cmbagent.interop import MethodRunner


def test_files_outside_the_data_folders_are_refused(tmp_path: Path, data_dir: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("token")
    runner = MethodRunner(workspace_root=tmp_path / "ws", data_roots=[data_dir])
    with pytest.raises(PathNotAllowed, match=r"outside the allowed folders.*--data-dir"):
        runner.run("cosmology.summarize_chain", {"chain": str(secret)})
    with pytest.raises(PathNotAllowed, match="outside the allowed folders"):
        runner.run("cosmology.summarize_chain", {"chain": "../secret.txt"})
    with pytest.raises(UserError, match="not found"):
        runner.run("cosmology.summarize_chain", {"chain": "missing.txt"})
    assert not (tmp_path / "ws").exists() or not any((tmp_path / "ws").iterdir())  # refused before a run folder
    with pytest.raises(UnknownMethodError):
        runner.run("cosmology.nope", {})
    with pytest.raises(UserError, match="unknown argument"):
        runner.run("cosmology.summarize_chain", {"chain": "chain.txt", "colour": "red"})


def test_staging_copies_files_and_keeps_other_values(tmp_path: Path, data_dir: Path) -> None:
    (data_dir / "sub").mkdir()
    (data_dir / "sub" / "chain.txt").write_text("other")
    runner = MethodRunner(workspace_root=tmp_path / "ws", data_roots=[data_dir])
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    staged = runner.stage("cosmology.summarize_chain", {"chain": "chain.txt", "other": "sub/chain.txt", "model": "flat_lcdm", "n": 3}, run_dir)
    assert staged == {"chain": "data/chain.txt", "other": "data/chain-2.txt", "model": "flat_lcdm", "n": 3}
    assert (run_dir / "data" / "chain-2.txt").read_text() == "other"
