"""``notebook.ipynb``: every executed cell with its outputs, in order, on disk after each cell.

The file is JSON whose last bytes are always the closing ``\\n]}\\n`` of the cell list. A new cell is
written with one ``pwrite`` over that footer (the cell, then a fresh footer), so each cell costs O(1)
whatever the notebook's length, and a process killed at any moment (kill -9 included) leaves every
earlier cell on disk: a single small write is never half-done by a killed process. A notebook that
exists when the executor starts (a resumed run) is continued.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cmbagent.exceptions import PathError
from cmbagent.paths import read_beneath, write_atomic
from cmbagent.sandbox._types import CellResult

__all__ = ["NotebookRecorder"]

_FOOTER = b"\n]}\n"
_METADATA = {
    "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
    "language_info": {"name": "python"},
}


def _dumps(obj: Any) -> bytes:
    # lone surrogates (undecodable bytes a cell printed) become "?", so the file is always valid UTF-8
    return json.dumps(obj, ensure_ascii=False, sort_keys=True).encode("utf-8", errors="replace")


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


class NotebookRecorder:
    """Appends executed cells to a notebook file (nbformat 4.5)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        cells: list[dict[str, Any]] = []
        if os.path.lexists(path):
            try:  # through no link: the run's code could have put one to a notebook of the host in its place
                cells = json.loads(read_beneath(path.parent, path.name))["cells"]
            except (ValueError, KeyError, TypeError, PathError):  # a corrupt notebook must not stop the run
                path.replace(path.with_suffix(".ipynb.corrupt"))
        self.cell_count = len(cells)
        self._ids = {str(c.get("id")) for c in cells}
        head = _dumps({"metadata": _METADATA, "nbformat": 4, "nbformat_minor": 5})[:-1] + b', "cells": [\n'
        body = b",\n".join(_dumps(c) for c in cells)
        write_atomic(path, head + body + _FOOTER)  # a random exclusive temporary name: no planted link followed
        self._end = len(head) + len(body)  # offset of the footer

    def append(self, code: str, result: CellResult, outputs: list[dict[str, Any]]) -> None:
        """Record one cell. ``outputs`` are nbformat-shaped output dicts (already bounded by the caller)."""
        nb_outputs: list[dict[str, Any]] = []
        for out in outputs:
            kind = out["output_type"]
            if kind == "stream":
                nb_outputs.append({"output_type": "stream", "name": out["name"], "text": _lines(out["text"])})
            elif kind in ("display_data", "execute_result"):
                item = {"output_type": kind, "data": out["data"], "metadata": out.get("metadata", {})}
                if kind == "execute_result":
                    item["execution_count"] = result.execution_count
                nb_outputs.append(item)
            elif kind == "error":
                nb_outputs.append({"output_type": "error", "ename": out["ename"], "evalue": out["evalue"],
                                   "traceback": out["traceback"]})
        if result.status not in ("ok", "error"):
            nb_outputs.append({"output_type": "stream", "name": "stderr", "text": [f"[cmbagent] {result.message}\n"]})
        cell_id = f"cell-{self.cell_count + 1:04d}"
        while cell_id in self._ids:
            cell_id += "x"
        self._ids.add(cell_id)
        cell = {
            "cell_type": "code",
            "id": cell_id,
            "execution_count": result.execution_count,
            "metadata": {"cmbagent": {"status": result.status, "duration_s": round(result.duration_s, 3),
                                      "images": result.images}},
            "outputs": nb_outputs,
            "source": _lines(code),
        }
        data = (b",\n" if self.cell_count else b"") + _dumps(cell)
        # never through a link code in the run planted, nor into a FIFO (O_NONBLOCK: ENXIO instead of a hang)
        fd = os.open(self.path, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        try:
            os.pwrite(fd, data + _FOOTER, self._end)
        finally:
            os.close(fd)
        self._end += len(data)
        self.cell_count += 1
