"""What a batch runs: one item per task file, or one per point of a sweep's parameter grid.

A sweep file names one task and a grid; every combination of the grid's values is one run::

    task: supernova.md          # relative to the sweep file
    grid:
      seed: [0, 1, 2]           # sugar for arguments.seed (methods take their randomness from `seed`)
      model: [offline]          # the run's default model spec
      arguments.model: [flat_lcdm, flat_wcdm]   # a method argument
      max_steps: [4]            # any other front-matter key

An item's task is the task file with the item's values merged into its front matter, parsed against the
task file's own folder (so its data files resolve as they do for ``cmbagent solve``).
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, Field

from cmbagent.exceptions import FrontMatterError, TaskError, UserError
from cmbagent.state import slugify

__all__ = ["BatchItem", "collect_items", "item_task", "load_sweep"]

#: grid keys that are settings of the run rather than keys of the task's front matter (``mode``, ``repeat`` and
#: ``repairs`` are set by ``cmbagent eval``: a one-shot run, which repetition, its self-repair rounds)
RUN_KEYS = ("model", "mode", "repeat", "repairs")
_MAX_ITEMS = 10_000


class BatchItem(BaseModel):
    """One run of a batch: its task file, the grid values it applies, and its run folder (batch-relative)."""

    index: int
    name: str
    task: str
    params: dict[str, Any] = Field(default_factory=dict)

    @property
    def run_dir(self) -> str:
        return f"runs/{self.index:02d}-{self.name}"


def _task_files(path: Path) -> list[Path]:
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".md" and p.is_file()
                       and p.name.lower() != "readme.md")
        if not files:
            raise UserError(f"the folder {path} holds no task .md files")
        return files
    if path.is_file():
        return [path]
    raise UserError(f"task {path} not found; give task .md files or folders of them, or --sweep SWEEP.yaml")


def collect_items(tasks: list[str | os.PathLike[str]]) -> list[BatchItem]:
    """One item per task file (folders expand to the .md files in them, README.md excepted)."""
    items: list[BatchItem] = []
    for source in tasks:
        for path in _task_files(Path(source).expanduser()):
            items.append(BatchItem(index=len(items) + 1, name=slugify(path.stem, limit=32),
                                   task=str(path.resolve())))
    if not items:
        raise UserError("no tasks given; pass task files or folders, or --sweep SWEEP.yaml")
    return items


def _label(value: Any) -> str:
    text = value if isinstance(value, str) else yaml.safe_dump(value, default_flow_style=True).strip()
    return text.rsplit(":", 1)[-1] if isinstance(value, str) and ":" in value else text


def load_sweep(path: str | os.PathLike[str]) -> list[BatchItem]:
    """The items of a sweep file (see the module docstring); errors name the file and the fix."""
    sweep = Path(path).expanduser()
    try:
        data = yaml.safe_load(sweep.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the sweep file {sweep}: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        raise UserError(f"{sweep} is not valid YAML ({str(exc).splitlines()[0]}); fix it") from None
    if not isinstance(data, dict) or "task" not in data:
        raise UserError(f"{sweep}: a sweep is a mapping with `task: FILE.md` and `grid: {{key: [values]}}`")
    unknown = set(data) - {"task", "grid", "name"}
    if unknown:
        raise UserError(f"{sweep}: unknown key(s) {sorted(unknown)}; a sweep has task, grid and name")
    task = (sweep.parent / str(data["task"])).resolve()
    if not task.is_file():
        raise UserError(f"{sweep}: task {data['task']!r} not found (relative names are read from the sweep's folder)")
    grid = data.get("grid") or {}
    if not isinstance(grid, dict) or not all(isinstance(v, list) and v for v in grid.values()):
        raise UserError(f"{sweep}: grid must map each key to a non-empty list of values, e.g. `seed: [0, 1, 2]`")
    keys = [("arguments.seed" if k == "seed" else str(k)) for k in grid]
    for key in keys:
        if key.startswith("arguments.") and not key.removeprefix("arguments."):
            raise UserError(f"{sweep}: grid key {key!r} names no argument; write arguments.NAME")
    count = 1
    for values in grid.values():
        count *= len(values)
    if count > _MAX_ITEMS:
        raise UserError(f"{sweep}: the grid makes {count} runs, more than {_MAX_ITEMS}; split it")
    items = []
    for n, combo in enumerate(itertools.product(*grid.values()), 1):
        params = dict(zip(keys, combo, strict=True))
        label = "-".join(f"{key.removeprefix('arguments.')}-{_label(value)}" for key, value in params.items())
        items.append(BatchItem(index=n, name=slugify(label or task.stem, limit=40), task=str(task), params=params))
    return items


def item_task(item: BatchItem, *, data_dirs: list[str | os.PathLike[str]] | None = None) -> Any:
    """The :class:`cmbagent.task.Task` of ``item``: its task file with the item's grid values merged in."""
    from cmbagent.frontmatter import split_front_matter
    from cmbagent.task import load_task, parse_task

    overrides = {k: v for k, v in item.params.items() if k not in RUN_KEYS}
    if not overrides:
        return load_task(Path(item.task), data_dirs=data_dirs or ())
    path = Path(item.task)
    text = path.read_text(encoding="utf-8")
    try:
        meta, body = split_front_matter(text)
    except FrontMatterError as exc:
        raise TaskError(f"{path}: {exc}") from None
    meta = dict(meta or {})
    for key, value in overrides.items():
        if key.startswith("arguments."):
            arguments = dict(meta.get("arguments") or {})
            arguments[key.removeprefix("arguments.")] = value
            meta["arguments"] = arguments
        else:
            meta[key] = value
    variant = "---\n" + yaml.safe_dump(meta, sort_keys=False) + "---\n" + body
    parsed = parse_task(variant, base=path.parent, where=f"{path} ({item.name})", data_dirs=data_dirs or ())
    parsed.source = path.resolve()
    return parsed
