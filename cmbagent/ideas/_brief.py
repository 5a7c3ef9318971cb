"""The idea team's brief, built by code from a task: its words, its data (columns read from the files), the
method catalogue (by meaning once it is large) and, with a knowledge index, the passages nearest the task."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cmbagent.agents import DataFile, IdeaBrief, Passage, catalogue_lines, clip, match_method
from cmbagent.task import Task

__all__ = ["CATALOGUE_LIMIT", "build_brief", "read_data_file"]

CATALOGUE_LIMIT = 40  # as for the planner: past it, the methods nearest the task by meaning
_TABLES = {".csv", ".tsv", ".dat", ".txt"}
_COUNT_LIMIT = 256 << 20  # rows are counted in files up to this size
PASSAGES = 6


def read_data_file(path: Path, rel: str) -> DataFile:
    """Size, and for a text table its columns (the header line) and rows (lines after it)."""
    size = path.stat().st_size
    if path.suffix.lower() not in _TABLES:
        return DataFile(path=rel, bytes=size)
    with open(path, encoding="utf-8", errors="replace") as handle:
        header = ""
        for line in handle:
            if line.strip():
                header = line.strip()
                break
        rows = sum(1 for line in handle if line.strip()) if size <= _COUNT_LIMIT else None
    header = header.lstrip("#").strip()
    sep = "," if "," in header else "\t" if "\t" in header else None
    columns = [c.strip().strip('"') for c in header.split(sep)] if header else []
    if columns and all(_number(c) for c in columns):  # no header: the first line is data
        columns, rows = [], None if rows is None else rows + 1
    return DataFile(path=rel, bytes=size, rows=rows, columns=columns)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _catalogue(task: Task, method: str | None, index_dir: str | None) -> list[str]:
    from cmbagent.tools.methods import get_method, iter_methods

    specs = list(iter_methods())
    if len(specs) > CATALOGUE_LIMIT:
        from cmbagent.literature import method_index, search_methods

        hits = search_methods(f"{task.title}\n{clip(task.text, 2000)}", k=CATALOGUE_LIMIT,
                              index=method_index(index_dir))
        names = [hit.name for hit in hits]
        if method and method not in names:
            names = [method, *names[:-1]]
        specs = [get_method(name) for name in names]
    return catalogue_lines(specs)


def build_brief(task: Task, run_dir: Path, *, n_ideas: int, rounds: int, index: Any = None,
                index_dir: str | None = None) -> IdeaBrief:
    """The brief of ``task`` whose data lies in ``run_dir`` (its ``data/`` copies); ``index`` adds passages."""
    method = match_method(f"{task.title}\n{task.text}", task.method)
    passages: list[Passage] = []
    if index is not None:
        hits = index.search(f"{task.title}\n{clip(task.text, 2000)}", k=PASSAGES)
        passages = [Passage.of(hit.chunk) for hit in hits]
    return IdeaBrief(title=task.title, text=task.text, method=method,
                     arguments=dict(task.arguments) if task.method else {},
                     data=[read_data_file(run_dir / rel, rel) for rel in task.data_files],
                     methods=_catalogue(task, method, index_dir), passages=passages, n_ideas=n_ideas,
                     rounds=rounds)
