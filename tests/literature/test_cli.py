"""`cmbagent index` and `cmbagent search`: JSON output, exit codes, messages, and the progress bar on a TTY."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.cli import app

ENV = {"CMBAGENT_EMBED_THREADS": "1"}


def _invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env=ENV)
    return result.exit_code, result.stdout, result.stderr


def test_index_then_search_json(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# Lensing\n\nWeak lensing measures the matter power spectrum.\n")
    (notes / "b.txt").write_bytes(b"\x00binary")
    index_dir = str(tmp_path / "idx")
    code, out, err = _invoke("index", str(notes), "--index-dir", index_dir, "--collection", "notes", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["files"] == {"indexed": 1, "unchanged": 0, "removed": 0, "failed": 1, "skipped_other_types": 0}
    assert report["chunks"]["total"] == 1 and report["problems"][0]["path"].endswith("b.txt")

    code, out, err = _invoke("search", "matter power spectrum", "--index-dir", index_dir, "--collection", "notes",
                             "-k", "3", "--json")
    assert code == 0, err
    (hit,) = json.loads(out)
    assert hit["source"] == str(notes / "a.md") and hit["lines"] == [1, 3] and hit["heading"] == "Lensing"
    assert hit["score"] > 0 and "Weak lensing" in hit["text"] and hit["chunk_id"]

    code, out, err = _invoke("search", "matter power spectrum", "--index-dir", index_dir, "--collection", "notes")
    assert code == 0 and "1. " in out and "lines 1-3" in out and "[Lensing]" in out

    code, out, err = _invoke("index", str(notes), "--index-dir", index_dir, "--collection", "notes")
    assert code == 0 and "0 file(s)" in out and "1 unchanged" in out
    assert "not indexed: " in err and "binary file" in err


def test_exit_codes_for_nothing_indexed_and_missing_index(tmp_path: Path) -> None:
    blob = tmp_path / "blob.txt"
    blob.write_bytes(b"\x00" * 10)
    code, _, err = _invoke("index", str(blob), str(tmp_path / "missing"), "--index-dir", str(tmp_path / "idx"))
    assert code == 2
    assert "blob.txt: is a binary file" in err and "missing: does not exist" in err
    code, _, err = _invoke("search", "anything", "--index-dir", str(tmp_path / "none"))
    assert code == 2 and "there is no index at" in err and "cmbagent index" in err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = _invoke("index", str(blob), "--index-dir", str(blocker / "idx"))
    assert code == 2 and "not writable" in err
    code, _, err = _invoke("index", str(blob), "--index-dir", str(tmp_path / "i"), "--max-files", "0")
    assert code == 2 and "--max-files" in err
    code, _, err = _invoke("index", str(blob), "--index-dir", str(tmp_path / "i"), "--collection", "x")
    assert code == 2 and "collection name 'x' is not valid" in err


def test_index_dir_from_environment_and_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cmbagent.literature import default_index_dir

    assert default_index_dir(env={"CMBAGENT_INDEX_DIR": str(tmp_path / "e")}) == tmp_path / "e"
    config = tmp_path / "cmbagent.toml"
    assert default_index_dir(config={"index": {"dir": "rel"}}, config_path=config, env={}) == tmp_path / "rel"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_index_dir(env={}) == tmp_path / "xdg" / "cmbagent" / "index"


@pytest.mark.slow
def test_progress_bar_on_a_terminal(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    for i in range(3):
        (notes / f"n{i}.md").write_text(f"# Note {i}\n\nSomething about topic {i}.\n")
    leader, follower = pty.openpty()
    env = {**os.environ, **ENV, "COLUMNS": "120", "TERM": "xterm"}
    proc = subprocess.Popen([sys.executable, "-m", "cmbagent", "index", str(notes), "--index-dir", str(tmp_path / "i")],
                            stdout=subprocess.PIPE, stderr=follower, env=env)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            break
        try:
            data = os.read(leader, 4096)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        seen += data
    out, _ = proc.communicate(timeout=120)
    os.close(leader)
    assert proc.returncode == 0
    assert b"indexing" in seen and b"3/3" in seen  # rich's bar drew on the terminal
    assert b"indexed 3 file(s)" in out  # the summary still goes to stdout
