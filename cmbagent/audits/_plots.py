"""Figures a reader cannot read: unlabeled axes, several series without a legend, empty panels.

Judged from the figure probe's record of each figure at the moment it was saved (the matplotlib objects, not
the PNG's pixels; :mod:`cmbagent.sandbox._figprobe`).  An axis needs a label when it shows numeric tick
labels (an axis labelled by words on its ticks, or whose tick labels are hidden as in shared or corner plots,
does not); a figure-wide ``supxlabel``/``supylabel`` labels every panel, and one legend (in any panel or the
figure's) serves every panel.  A figure the step lists but that is
missing could not be inspected (a note, never a failure); one not saved through ``Figure.savefig`` (an inline
display, another library) has no record and is not judged.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import finding, step_audit
from cmbagent.state import Finding

__all__ = ["figure_problems"]



def figure_problems(record: dict[str, Any]) -> list[str]:
    """What makes one probed figure unreadable (empty when nothing does)."""
    problems: list[str] = []
    axes = [a for a in record.get("axes") or [] if isinstance(a, dict) and not a.get("blank")]
    many = len(axes) > 1
    # one legend serves every panel of a figure (panels that repeat the same series in the same colours)
    figure_legend = bool(record.get("figure_legend")) or any(a.get("legend") for a in axes)
    for n, ax in enumerate(axes, 1):
        where = f"panel {n}" + (f" ({ax['title']!r})" if ax.get("title") else "") if many else "the plot"
        if not ax.get("drawn"):
            problems.append(f"{where} is empty")
            continue
        for axis in ("x", "y"):
            if ax.get(f"{axis}_ticklabels") and not ax.get(f"{axis}_words") and not ax.get(f"{axis}label") \
                    and not record.get(f"sup{axis}label"):
                problems.append(f"{where} has no {axis}-axis label")
        if (ax.get("series") or 0) >= 2 and not ax.get("legend") and not figure_legend \
                and not (ax.get("x_words") or ax.get("y_words")):
            problems.append(f"{where} shows {ax['series']} series without a legend")
    return problems


@step_audit("plot.unreadable", "audit.failed")
def readable_figures(ev: StepEvidence) -> Iterator[Finding]:
    recorded = {r["path"]: r for r in ev.figure_records}
    for rel in ev.figures:
        if ev.run_dir is not None and not (ev.run_dir / rel).is_file():
            yield finding("audit.failed", f"the figure {rel} the step lists does not exist; it could not be inspected",
                          figure=rel)
            continue
        record = recorded.get(rel)
        if record is None:
            continue  # not saved through Figure.savefig (an inline display, another library): nothing to read
        problems = figure_problems(record)
        if problems:
            yield finding("plot.unreadable", f"{Path(rel).name}: " + "; ".join(problems[:6]), figure=rel,
                          problems=problems)
