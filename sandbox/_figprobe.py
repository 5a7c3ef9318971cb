"""The figure probe: what every matplotlib figure showed when a cell saved it.

A PNG says nothing reliable about its axes labels or legend; the figure object does, but only until the cell
closes it.  So the kernel wraps ``matplotlib.figure.Figure.savefig`` (pyplot's ``savefig`` ends there too):
before a figure is written, :func:`describe` records its axes (labels, title, tick labels shown, series,
legend, whether anything is drawn) as one JSON line of ``.cmbagent/figures.jsonl`` in the working folder.
The audits (``plot.unreadable``) read those lines; nothing here judges a figure.

The wrap is installed without importing matplotlib: a meta-path hook patches ``matplotlib.figure`` when a cell
first imports it.  It writes only where ``.cmbagent/`` exists in the working folder (the sandbox makes it in
a run folder), so the host process of an in-memory executor records nothing outside runs.  The module is
self-contained (standard library only) because the kernel bootstrap executes its source before the kernel
starts, without importing cmbagent.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

__all__ = ["FIGURE_LOG", "describe", "describe_figure", "install"]

FIGURE_LOG = ".cmbagent/figures.jsonl"
_MAX_BYTES = 4 * 1024 * 1024  # the log of one run stops growing here
_MAX_AXES = 64


def _text(value: Any) -> str:
    return str(value or "").strip()[:200]


def _formatter_shows(axis: Any) -> tuple[bool, bool]:
    """(shows tick labels, the labels are words) for one axis, from its ticker and tick settings (no drawing)."""
    import re

    from matplotlib import ticker

    fmt = axis.get_major_formatter()
    if isinstance(fmt, ticker.NullFormatter) or isinstance(axis.get_major_locator(), ticker.NullLocator):
        return False, False
    params = axis.get_tick_params(which="major") if hasattr(axis, "get_tick_params") else {}
    on = [v for k, v in params.items() if k in ("labelbottom", "labeltop", "labelleft", "labelright")]
    if on and not any(on):
        return False, False
    try:
        ticks = axis.get_majorticklocs()
        labels = [str(t) for t in fmt.format_ticks(ticks)] if len(ticks) else []
    except Exception:  # a formatter that needs a drawn figure: assume numbers are shown
        return True, False
    plain = [re.sub(r"\\[A-Za-z]+|[${}]", "", t).strip() for t in labels]
    if not any(plain):
        return False, False
    return True, any(re.search(r"[A-Za-z]{2,}", t) for t in plain)


def _series(ax: Any) -> int:
    """Data series an eye must tell apart: containers (error bars, bars), scatters, lines of 3+ points."""
    import numpy as np
    from matplotlib.collections import PathCollection
    from matplotlib.lines import Line2D

    members: set[int] = set()
    count = 0
    for container in getattr(ax, "containers", []):
        count += 1
        stack = list(container)
        while stack:
            item = stack.pop()
            if isinstance(item, (list, tuple)):
                stack.extend(item)
            elif item is not None:
                members.add(id(item))
    for line in ax.lines:
        if id(line) in members or not isinstance(line, Line2D) or line.get_transform() != ax.transData:
            continue  # axhline/axvline live in axes coordinates: references, not data
        marker = line.get_marker() not in (None, "", "None", " ")
        points = int(np.shape(line.get_xydata())[0])
        if points >= 3 or (marker and points >= 1):
            count += 1
    for coll in ax.collections:
        if isinstance(coll, PathCollection) and id(coll) not in members and int(np.shape(coll.get_offsets())[0]) >= 2:
            count += 1
    return count


def describe(fig: Any) -> dict[str, Any]:
    """The facts about ``fig`` that decide whether a reader can read it (see the module docstring)."""
    axes = []
    for ax in fig.axes[:_MAX_AXES]:
        if not ax.get_visible() or getattr(ax, "_colorbar", None) is not None:
            continue
        blank = not ax.axison or (not ax.get_frame_on() and not ax.get_xticks().size and not ax.get_yticks().size)
        x_shows, x_words = _formatter_shows(ax.xaxis)
        y_shows, y_words = _formatter_shows(ax.yaxis)
        patches = [p for p in ax.patches if p.get_visible()]
        drawn = bool(ax.lines or ax.collections or patches or ax.images or ax.texts or ax.tables)
        legend = ax.get_legend()
        axes.append({
            "title": _text(ax.get_title()), "xlabel": _text(ax.get_xlabel()), "ylabel": _text(ax.get_ylabel()),
            "x_ticklabels": x_shows, "y_ticklabels": y_shows, "x_words": x_words, "y_words": y_words,
            "series": _series(ax), "legend": legend is not None and legend.get_visible(),
            "drawn": drawn, "blank": bool(blank),
        })
    sup = {name: _text(getattr(getattr(fig, f"_{name}", None), "get_text", lambda: "")())
           for name in ("suptitle", "supxlabel", "supylabel")}
    return {"axes": axes, "figure_legend": bool(getattr(fig, "legends", [])), **sup}


describe_figure = describe  # the public name (cmbagent.sandbox.describe_figure)


def _target(fname: Any, fig: Any, kwargs: dict[str, Any]) -> str | None:
    if not isinstance(fname, (str, os.PathLike)):
        return None  # a file object: nothing names it
    path = os.fspath(fname)
    if not os.path.splitext(path)[1]:
        import matplotlib

        path += "." + str(kwargs.get("format") or matplotlib.rcParams["savefig.format"])
    return os.path.abspath(path)


def _record(fig: Any, fname: Any, kwargs: dict[str, Any]) -> None:
    folder = os.path.join(os.getcwd(), os.path.dirname(FIGURE_LOG))
    if not os.path.isdir(folder) or os.path.islink(folder):
        return
    path = _target(fname, fig, kwargs)
    if path is None:
        return
    log = os.path.join(os.getcwd(), FIGURE_LOG)
    try:
        if os.path.islink(log) or (os.path.exists(log) and os.path.getsize(log) > _MAX_BYTES):
            return
        line = json.dumps({"path": path, **describe(fig)}) + "\n"
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
        try:
            os.write(fd, line.encode("utf-8"))
        finally:
            os.close(fd)
    except Exception:  # the probe must never break the cell that saves a figure
        return


def _patch(module: Any) -> None:
    figure = getattr(module, "Figure", None)
    if figure is None or getattr(figure.savefig, "_cmbagent_probe", False):
        return
    import functools

    original = figure.savefig

    @functools.wraps(original)  # pyplot checks the qualified name of what it wraps
    def savefig(self: Any, fname: Any, *args: Any, **kwargs: Any) -> Any:
        _record(self, fname, kwargs)
        return original(self, fname, *args, **kwargs)

    savefig._cmbagent_probe = True  # type: ignore[attr-defined]
    figure.savefig = savefig


class _Finder:
    """Patches ``matplotlib.figure`` right after its first import (meta-path hook; imports nothing itself)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "matplotlib.figure":
            return None
        import importlib.machinery

        sys.meta_path.remove(self)
        try:
            spec = importlib.machinery.PathFinder.find_spec(name, path)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            _patch(module)

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Record every figure saved from now on (idempotent; patches at once when matplotlib is loaded)."""
    if "matplotlib.figure" in sys.modules:
        _patch(sys.modules["matplotlib.figure"])
        return
    if not any(isinstance(f, _Finder) or type(f).__name__ == "_Finder" for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())


if __name__ == "cmbagent_figure_probe":  # executed by the kernel bootstrap
    install()
