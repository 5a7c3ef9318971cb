"""Chunks keep their locators: PDF pages, markdown heading paths and line ranges, code lines, notebook cells."""

from __future__ import annotations

import itertools

from cmbagent.literature._chunk import (
    ChunkSettings,
    assign_ids,
    chunk_code,
    chunk_lines,
    chunk_markdown,
    chunk_pages,
)


def test_markdown_chunks_carry_heading_paths_and_exact_line_ranges() -> None:
    text = ("# Guide\n\nIntro line.\n\n## Install\n\nRun the installer.\n\n```\n# not a heading\n```\n\n"
            "### Linux\n\nUse apt.\n\n## Usage\n\nCall it.\n")
    chunks = chunk_markdown("g.md", text)
    by_heading = {c.heading: c for c in chunks}
    assert list(by_heading) == ["Guide", "Guide > Install", "Guide > Install > Linux", "Guide > Usage"]
    install = by_heading["Guide > Install"]
    assert "# not a heading" in install.text  # a '#' inside a code fence does not open a section
    lines = text.splitlines()
    for chunk in chunks:
        span = "\n".join(lines[chunk.line_start - 1:chunk.line_end]).strip()
        assert span == chunk.text, chunk.heading
    assert by_heading["Guide > Usage"].locator == "lines 17-19"


def test_long_prose_is_cut_with_overlap_and_every_chunk_fits() -> None:
    settings = ChunkSettings(max_chars=200, overlap_chars=60)
    text = "\n".join(f"Sentence number {i} says something about topic {i % 7}." for i in range(60))
    chunks = chunk_lines("t.txt", text, settings=settings)
    assert len(chunks) > 5
    assert all(len(c.text) <= 200 for c in chunks)
    for a, b in itertools.pairwise(chunks):
        assert b.line_start <= a.line_end  # consecutive chunks share lines
        assert b.line_start > a.line_start
    assert chunks[0].line_start == 1 and chunks[-1].line_end == 60


def test_a_single_huge_line_is_split_into_pieces_of_that_line() -> None:
    line = " ".join(["word"] * 1000)
    chunks = chunk_lines("big.txt", "before\n" + line + "\nafter", settings=ChunkSettings(max_chars=300, overlap_chars=0))
    assert all(len(c.text) <= 300 for c in chunks)
    assert {c.line_start for c in chunks} >= {1, 2} and chunks[-1].line_end == 3


def test_code_windows_are_whole_lines_with_overlap() -> None:
    code = "\n".join(f"x{i} = {i}" for i in range(100))
    chunks = chunk_code("m.py", code, settings=ChunkSettings(code_lines=40, code_overlap_lines=8))
    assert [(c.line_start, c.line_end) for c in chunks] == [(1, 40), (33, 72), (65, 100)]
    assert chunks[1].text.splitlines()[0] == "x32 = 32"


def test_pdf_chunks_never_cross_pages() -> None:
    chunks = chunk_pages("p.pdf", ["alpha text on page one", "", "gamma text on page three"])
    assert [(c.page, c.text) for c in chunks] == [(1, "alpha text on page one"), (3, "gamma text on page three")]
    assert chunks[1].locator == "p. 3, lines 1-1"


def test_ids_survive_edits_elsewhere_in_the_file() -> None:
    before = assign_ids(chunk_markdown("/d/a.md", "# A\n\nfirst section\n\n# B\n\nsecond section\n"))
    after = assign_ids(chunk_markdown("/d/a.md", "# A\n\nfirst section, edited\n\nnew line\n\n# B\n\nsecond section\n"))
    assert before[1].chunk_id == after[1].chunk_id  # unchanged text keeps its id although its lines moved
    assert before[1].line_start != after[1].line_start
    assert before[0].chunk_id != after[0].chunk_id
    other_file = assign_ids(chunk_markdown("/d/b.md", "# B\n\nsecond section\n"))
    assert other_file[0].chunk_id != before[1].chunk_id  # ids include the source
    twice = assign_ids(chunk_lines("/d/c.txt", "same\n\n" * 1) + chunk_lines("/d/c.txt", "same"))
    assert len({c.chunk_id for c in twice}) == 2  # repeated texts get distinct ids
