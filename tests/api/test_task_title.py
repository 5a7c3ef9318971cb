"""A task without a title is named by its first sentence, cut at a word and never inside an open bracket."""

from __future__ import annotations

from pathlib import Path

from cmbagent.task import load_task


def _title(tmp_path: Path, body: str) -> str:
    path = tmp_path / "task.md"
    path.write_text(body)
    return load_task(path).title


def test_the_first_sentence_is_the_title(tmp_path: Path) -> None:
    assert _title(tmp_path, "How do people get to work? Our poll is attached.\n") == "How do people get to work?"


def test_a_long_first_sentence_is_cut_at_a_word_before_an_open_bracket(tmp_path: Path) -> None:
    body = ("Our coaching programme reached 800 employees last year (the camelCase columns are in staff.csv, one "
            "row per person) and we want its effect on quarterly sales.\n")
    title = _title(tmp_path, body)
    assert title == "Our coaching programme reached 800 employees last year…"
    assert len(title) <= 80 and title.count("(") == title.count(")")
