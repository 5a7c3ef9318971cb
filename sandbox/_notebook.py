"""``notebook.ipynb``: every executed cell with its outputs, in order, rewritten after each cell.

The file is replaced atomically (write a sibling, then ``os.replace``), so a run killed at any moment
keeps every cell recorded before the kill and never leaves a half-written notebook (no fsync: a killed
process loses nothing the kernel's page cache holds, and fsync would cost more than a trivial cell).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cmbagent.sandbox._types import CellResult

__all__ = ["NotebookRecorder"]


class NotebookRecorder:
    """Appends executed cells to a notebook file; continues an existing one (a resumed run)."""

    def __init__(self, path: Path) -> None:
        import nbformat

        self.path = path
        self._nbformat = nbformat
        if path.exists():
            try:
                self._nb = nbformat.read(str(path), as_version=4)
            except Exception:  # a corrupt notebook must not stop the run: keep it aside, start afresh
                path.replace(path.with_suffix(".ipynb.corrupt"))
                self._nb = self._new()
        else:
            self._nb = self._new()
        # each cell serialised once; the file is re-assembled from these strings (nbformat.write would
        # re-validate the whole notebook after every cell, costing more than a trivial cell's round trip)
        self._cell_json = [json.dumps(cell, ensure_ascii=False, sort_keys=True) for cell in self._nb.cells]

    def _new(self) -> Any:
        nb = self._nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nb.metadata["language_info"] = {"name": "python"}
        return nb

    @property
    def cell_count(self) -> int:
        return len(self._nb.cells)

    def append(self, code: str, result: CellResult, outputs: list[dict[str, Any]]) -> None:
        """Record one cell. ``outputs`` are nbformat output dicts (already bounded by the caller)."""
        v4 = self._nbformat.v4
        cell = v4.new_code_cell(source=code, execution_count=result.execution_count)
        nb_outputs = []
        for out in outputs:
            kind = out["output_type"]
            if kind == "stream":
                nb_outputs.append(v4.new_output("stream", name=out["name"], text=out["text"]))
            elif kind in ("display_data", "execute_result"):
                extra = {"execution_count": result.execution_count} if kind == "execute_result" else {}
                nb_outputs.append(v4.new_output(kind, data=out["data"], metadata=out.get("metadata", {}), **extra))
            elif kind == "error":
                nb_outputs.append(v4.new_output("error", ename=out["ename"], evalue=out["evalue"],
                                                traceback=out["traceback"]))
        if result.status not in ("ok", "error"):
            nb_outputs.append(v4.new_output("stream", name="stderr", text=f"[cmbagent] {result.message}\n"))
        cell.outputs = nb_outputs
        cell.metadata["cmbagent"] = {"status": result.status, "duration_s": round(result.duration_s, 3),
                                     "images": result.images}
        self._nb.cells.append(cell)
        self._cell_json.append(json.dumps(cell, ensure_ascii=False, sort_keys=True))
        self._write()

    def _write(self) -> None:
        head = {k: v for k, v in self._nb.items() if k != "cells"}
        text = json.dumps(head, ensure_ascii=False, sort_keys=True)
        text = text[:-1] + ', "cells": [\n' + ",\n".join(self._cell_json) + "\n]}\n"
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            fh.write(text.encode("utf-8", errors="replace"))  # lone surrogates from bad bytes become "?"
        os.replace(tmp, self.path)
