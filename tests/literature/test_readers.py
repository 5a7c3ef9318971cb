"""Bad input gives one clear message per file; everything else still gets read."""

from __future__ import annotations

import os
from pathlib import Path

from cmbagent.literature import ChunkSettings
from cmbagent.literature._readers import UnreadableFile, discover, read_chunks
from tests.literature._pdfs import blank_pdf, encrypted_pdf, text_pdf

SETTINGS = ChunkSettings()


def _reason(path: Path, max_bytes: int = 2**26) -> str:
    try:
        read_chunks(path, settings=SETTINGS, max_bytes=max_bytes)
    except UnreadableFile as exc:
        return str(exc)
    raise AssertionError(f"{path} was read")


def test_pdf_pages_are_kept(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "two.pdf", ["Page one is about dark energy.", "Page two is about spiking neurons."])
    chunks = read_chunks(pdf, settings=SETTINGS, max_bytes=2**26)
    assert [(c.page, c.kind, c.text) for c in chunks] == [
        (1, "pdf", "Page one is about dark energy."), (2, "pdf", "Page two is about spiking neurons.")]


def test_encrypted_pdfs(tmp_path: Path) -> None:
    source = text_pdf(tmp_path / "plain.pdf", ["Secret findings about galaxies."])
    locked = encrypted_pdf(tmp_path / "locked.pdf", source, password="hunter2")
    assert "encrypted PDF that needs a password" in _reason(locked)
    # an empty user password only restricts permissions: such a PDF opens without one
    open_one = encrypted_pdf(tmp_path / "open.pdf", source, password="")
    assert read_chunks(open_one, settings=SETTINGS, max_bytes=2**26)[0].text == "Secret findings about galaxies."


def test_broken_and_textless_pdfs(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\n this is not really a pdf \n%%EOF")
    assert "not a readable PDF" in _reason(broken)
    assert "without extractable text" in _reason(blank_pdf(tmp_path / "scan.pdf"))


def test_binary_non_utf8_empty_and_huge_files(tmp_path: Path) -> None:
    binary = tmp_path / "data.txt"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    assert "binary file" in _reason(binary)
    latin = tmp_path / "latin.md"
    latin.write_bytes("caf\xe9 ".encode("latin-1") * 200)
    assert "not UTF-8 text" in _reason(latin)
    empty = tmp_path / "empty.py"
    empty.write_text("\n\n")
    assert "no text to index" in _reason(empty)
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as handle:  # 1 GiB, sparse: nothing is written to disk
        handle.truncate(2**30)
    message = _reason(huge, max_bytes=64 * 2**20)
    assert "1024 MiB, over the 64 MiB limit" in message and "--max-file-size" in message


def test_notebook_cells_are_located(tmp_path: Path) -> None:
    import json

    nb = {"cells": [{"cell_type": "markdown", "source": ["# Fit\n", "We fit a line."]},
                    {"cell_type": "code", "source": "import numpy as np\nslope = 2.0\n"},
                    {"cell_type": "raw", "source": "ignored"}], "nbformat": 4}
    path = tmp_path / "fit.ipynb"
    path.write_text(json.dumps(nb))
    chunks = read_chunks(path, settings=SETTINGS, max_bytes=2**26)
    assert [(c.cell, c.heading, c.line_start, c.line_end) for c in chunks] == [(0, "Fit", 1, 2), (1, "Fit", 1, 2)]
    assert chunks[1].locator == "cell 1, lines 1-2"
    bad = tmp_path / "bad.ipynb"
    bad.write_text("{not json")
    assert "not a valid notebook" in _reason(bad)


def test_discover_walks_folders_and_refuses_one_with_too_many_files(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "a.md").write_text("# A\n")
    (docs / "sub" / "b.py").write_text("x = 1\n")
    (docs / "image.png").write_bytes(b"\x89PNG")
    (docs / ".git").mkdir()
    (docs / ".git" / "config.txt").write_text("hidden")
    (docs / "__pycache__").mkdir()
    (docs / "__pycache__" / "c.py").write_text("cached")
    os.symlink(docs, docs / "sub" / "loop")  # a link back up is not followed
    files, problems, other = discover([docs, tmp_path / "missing.md"], max_files=10)
    assert [f.name for f in files] == ["a.md", "b.py"]
    assert other == 1
    assert [(Path(p.path).name, p.reason) for p in problems] == [("missing.md", "does not exist; check the path")]

    crowded = tmp_path / "crowded"
    crowded.mkdir()
    for i in range(30):
        (crowded / f"n{i}.txt").write_text(f"note {i}")
    files, problems, _ = discover([crowded, docs], max_files=20)
    assert [f.name for f in files] == ["a.md", "b.py"]  # the other path is still indexed
    assert problems[0].path == str(crowded) and "more than 20 indexable files" in problems[0].reason
