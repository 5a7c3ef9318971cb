"""Reading a task: a markdown file (or text) with optional YAML front matter.

Everything here runs before a run folder exists, so a bad task fails with :class:`TaskError` (exit 2) and
leaves nothing behind.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cmbagent.exceptions import TaskError, UnknownMethodError

__all__ = ["FRONT_MATTER_KEYS", "Task", "load_task", "parse_task"]

#: front-matter keys a task may use
FRONT_MATTER_KEYS = (
    "title",
    "method",
    "arguments",
    "data",
    "budget_usd",
    "budget_tokens",
    "timeout",
    "max_steps",
    "n_reviews",
    "max_attempts",
    "model",
    "agent_models",
    "tags",
    "seed",
    "expected",
    "description",
)
_DATA_SUFFIXES = {
    ".dat", ".csv", ".tsv", ".txt", ".npy", ".npz", ".fits", ".fit", ".json", ".parquet", ".h5", ".hdf5",
    ".pkl", ".xlsx", ".cov", ".gz", ".zip", ".png", ".jpg",
}  # fmt: skip


@dataclass
class Task:
    """A parsed task. ``files`` maps the run-relative path (``data/...``) to the source file."""

    text: str
    title: str
    front_matter: dict[str, Any] = field(default_factory=dict)
    method: str | None = None
    arguments: dict[str, Any] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)
    source: Path | None = None

    @property
    def data_files(self) -> list[str]:
        return sorted(self.files)

    def settings(self) -> dict[str, Any]:
        """Run settings the front matter sets (budgets, limits, models)."""
        keys = ("budget_usd", "budget_tokens", "timeout", "max_steps", "n_reviews", "max_attempts", "model")
        return {k: self.front_matter[k] for k in keys if k in self.front_matter}

    def markdown(self) -> str:
        """The task as written into ``task.md`` (front matter with run-relative paths, then the text)."""
        meta = dict(self.front_matter)
        if self.arguments:
            meta["arguments"] = self.arguments
        if "data" in meta:
            meta["data"] = [p for p in self.files if p not in self.arguments.values()] or meta["data"]
        head = yaml.safe_dump(meta, sort_keys=False).strip() if meta else ""
        return (f"---\n{head}\n---\n" if head else "") + self.text.strip() + "\n"


def _split(text: str, where: str) -> tuple[dict[str, Any], str]:
    stripped = text.lstrip("\ufeff")
    if not stripped.startswith("---"):
        return {}, stripped
    match = re.match(r"^---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|$)", stripped, re.S)
    if match is None:
        raise TaskError(f"{where}: the front matter is not closed; end it with a line '---'")
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as exc:
        detail = str(exc).replace("\n", " ")
        raise TaskError(f"{where}: the front matter is not valid YAML ({detail}); fix the YAML between the '---' lines") from None
    if not isinstance(meta, dict):
        raise TaskError(f"{where}: the front matter must be a mapping such as 'title: ...'")
    return meta, stripped[match.end():]


def _check_keys(meta: dict[str, Any], where: str) -> None:
    for key in meta:
        if key not in FRONT_MATTER_KEYS:
            close = difflib.get_close_matches(str(key), FRONT_MATTER_KEYS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; allowed keys: {', '.join(FRONT_MATTER_KEYS)}"
            raise TaskError(f"{where}: unknown front-matter key {key!r}{hint}")
    if "arguments" in meta and not isinstance(meta["arguments"], dict):
        raise TaskError(f"{where}: 'arguments' must be a mapping such as '{{data: data/x.csv, model: flat_lcdm}}'")
    for key in ("budget_usd", "timeout"):
        if key in meta and (not isinstance(meta[key], (int, float)) or meta[key] <= 0):
            raise TaskError(f"{where}: {key!r} must be a positive number")
    for key in ("budget_tokens", "max_steps", "max_attempts"):
        if key in meta and (not isinstance(meta[key], int) or meta[key] <= 0):
            raise TaskError(f"{where}: {key!r} must be a positive integer")
    if "n_reviews" in meta and (not isinstance(meta["n_reviews"], int) or meta["n_reviews"] < 0):
        raise TaskError(f"{where}: 'n_reviews' must be an integer >= 0")


def _looks_like_path(value: str) -> bool:
    if "\n" in value or len(value) > 300 or value.startswith(("http://", "https://")):
        return False
    return Path(value).suffix.lower() in _DATA_SUFFIXES or ("/" in value and " " not in value)


def _resolve_file(value: str, base: Path, where: str, label: str) -> Path | None:
    candidate = Path(value).expanduser()
    if not candidate.is_absolute():
        candidate = base / candidate
    if candidate.is_file():
        return candidate.resolve()
    if _looks_like_path(value):
        raise TaskError(
            f"{where}: data file {value!r} ({label}) not found at {candidate}; paths are relative to the task file"
        )
    return None


def _run_path(source: Path, taken: dict[str, Path]) -> str:
    name = f"data/{source.name}"
    stem, suffix, n = source.stem, source.suffix, 1
    while name in taken and taken[name] != source:
        n += 1
        name = f"data/{stem}-{n}{suffix}"
    return name


def parse_task(
    text: str,
    *,
    base: Path | None = None,
    where: str = "task",
    extra_files: list[str | os.PathLike[str]] | None = None,
    check_method: bool = True,
) -> Task:
    """Parse task text; resolve data files against ``base`` (the task file's folder)."""
    base = base or Path.cwd()
    meta, body = _split(text, where)
    _check_keys(meta, where)
    if not body.strip() and not meta.get("description") and not meta.get("title"):
        raise TaskError(f"{where}: the task is empty; write what you want done (a sentence is enough)")
    if not body.strip():
        body = str(meta.get("description") or meta.get("title"))
    files: dict[str, Path] = {}
    arguments: dict[str, Any] = {}
    for key, value in dict(meta.get("arguments") or {}).items():
        if isinstance(value, str):
            found = _resolve_file(value, base, where, f"argument {key!r}")
            if found is not None:
                rel = _run_path(found, files)
                files[rel] = found
                arguments[key] = rel
                continue
        arguments[key] = value
    data = meta.get("data") or []
    if isinstance(data, str):
        data = [data]
    if not isinstance(data, list):
        raise TaskError(f"{where}: 'data' must be a file path or a list of file paths")
    for value in data:
        found = _resolve_file(str(value), base, where, "data")
        if found is None:
            raise TaskError(f"{where}: data file {value!r} not found; paths are relative to the task file")
        if found not in files.values():
            files[_run_path(found, files)] = found
    for value in extra_files or []:
        path = Path(value).expanduser().resolve()
        if not path.is_file():
            raise TaskError(f"data file {str(value)!r} not found; pass an existing file")
        if path not in files.values():
            files[_run_path(path, files)] = path
    method = meta.get("method")
    if method is not None:
        if not isinstance(method, str):
            raise TaskError(f"{where}: 'method' must be a method name such as 'cosmology.fit_supernovae'")
        if check_method:
            _check_method(method, where)
    title = str(meta.get("title") or _first_line(body))
    return Task(text=body.strip(), title=title, front_matter=meta, method=method, arguments=arguments,
                files=files, source=None)


def _check_method(name: str, where: str) -> None:
    from cmbagent.tools.methods import iter_methods

    names = [spec.name for spec in iter_methods()]
    if name not in names:
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else "; list them with `cmbagent methods list`"
        raise UnknownMethodError(f"{where}: unknown method {name!r}{hint}")


def _first_line(body: str) -> str:
    for line in body.splitlines():
        line = line.strip().lstrip("#").strip()
        if line:
            return line[:80]
    return "task"


def load_task(
    task: str | os.PathLike[str],
    *,
    extra_files: list[str | os.PathLike[str]] | None = None,
) -> Task:
    """A Path, or a string naming an existing file, is read as a task file; any other string is the task."""
    path: Path | None = None
    if isinstance(task, os.PathLike):
        path = Path(task)
        if not path.is_file():
            raise TaskError(f"task file {str(path)!r} not found; pass an existing markdown file or the task text")
    elif isinstance(task, str):
        if "\n" not in task and len(task) < 4096:
            candidate = Path(task).expanduser()
            try:
                if candidate.is_file():
                    path = candidate
                elif candidate.suffix.lower() in {".md", ".markdown", ".txt"} and " " not in task:
                    raise TaskError(f"task file {task!r} not found; check the path")
            except OSError:
                path = None
    else:
        raise TaskError(f"a task is text or a path, not {type(task).__name__}")
    if path is not None:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise TaskError(f"task file {str(path)!r} is not UTF-8 text") from None
        parsed = parse_task(text, base=path.resolve().parent, where=str(path), extra_files=extra_files)
        parsed.source = path.resolve()
        return parsed
    return parse_task(str(task), where="task", extra_files=extra_files)
