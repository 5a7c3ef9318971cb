"""Reading a task: a markdown file (or text) with optional YAML front matter.

Everything here runs before a run folder exists, so a bad task fails with :class:`TaskError` (exit 2) and
leaves nothing behind.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cmbagent.config import RunSettings
from cmbagent.exceptions import FrontMatterError, TaskError, UnknownMethodError
from cmbagent.frontmatter import load_yaml, split_front_matter
from cmbagent.paths import PathPolicy

__all__ = ["FRONT_MATTER_KEYS", "Task", "check_model_choice", "load_task", "load_yaml", "parse_task"]

#: the run settings a task's front matter may set, as :class:`cmbagent.config.RunSettings` declares them
_SETTINGS = RunSettings.front_matter_keys()
#: front-matter keys a task may use
FRONT_MATTER_KEYS = (
    "title",
    "method",
    "arguments",
    "data",
    "budget_usd",
    "budget_tokens",
    "timeout",
    *_SETTINGS,
    "model",
    "agent_models",
    "tags",
    "seed",
    "expected",
    "description",
    "collection",
)
_DATA_SUFFIXES = {
    ".dat", ".csv", ".tsv", ".txt", ".npy", ".npz", ".fits", ".fit", ".json", ".parquet", ".h5", ".hdf5",
    ".pkl", ".xlsx", ".cov", ".gz", ".zip", ".png", ".jpg", ".jsonl", ".py",
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
        keys = ("budget_usd", "budget_tokens", "timeout", *_SETTINGS, "model")
        return {k: self.front_matter[k] for k in keys if k in self.front_matter}

    def markdown(self) -> str:
        """The task as written into ``task.md`` (front matter with run-relative paths, then the text)."""
        meta = dict(self.front_matter)
        if self.arguments:
            meta["arguments"] = self.arguments
        unnamed = [p for p in self.files if p not in self.arguments.values()]
        if "data" in meta or unnamed:  # files the text named are listed too: the run folder's task.md reads alone
            meta["data"] = unnamed or meta["data"]
        head = yaml.safe_dump(meta, sort_keys=False).strip() if meta else ""
        return (f"---\n{head}\n---\n" if head else "") + self.text.strip() + "\n"


def _split(text: str, where: str) -> tuple[dict[str, Any], str]:
    try:
        meta, body = split_front_matter(text)
    except FrontMatterError as exc:
        raise TaskError(f"{where}: {exc}") from None
    return meta or {}, body


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
    return (Path(value).suffix.lower() in _DATA_SUFFIXES or ("/" in value and " " not in value)
            or value.startswith(("~", ".")))


def _resolve_file(value: str, policy: PathPolicy, where: str, label: str, *, must: bool = False) -> Path | None:
    """The real path of the file ``value`` names, or None when it is a plain string (not a file name).

    A value names a file when the method declares the argument a path (``must``), when it looks like a path,
    or when it is an existing file the policy allows; every such name goes through the path policy.
    """
    if must or _looks_like_path(value) or policy.exists(value):
        return policy.resolve(value, what=f"{where}: {label}: data file")
    return None


_TEXT_PATH = re.compile(r"`([^`\n]{1,300})`|(?<![\w/.~-])((?:\.{1,2}/|~/)?[\w.+-]+(?:/[\w.+-]+)*\.[A-Za-z0-9]{1,6})(?![\w/])")


def _text_files(body: str, policy: PathPolicy) -> list[Path]:
    """Existing files the task's text names (in backticks, or as a name with a data suffix), read where the
    policy allows; a name that does not exist or lies outside is just text (nothing is refused or probed
    outside the allowed folders)."""
    found: list[Path] = []
    for match in _TEXT_PATH.finditer(body):
        name = (match.group(1) or match.group(2) or "").strip()
        if not name or (match.group(2) and Path(name).suffix.lower() not in _DATA_SUFFIXES):
            continue
        if " " in name or name.startswith(("http://", "https://")) or not policy.exists(name):
            continue
        real = policy.resolve(name, what="data file")
        if real not in found:
            found.append(real)
    return found


def _nested_strings(value: Any) -> list[str]:
    """One-line strings inside lists and mappings (the ones that could be file names)."""
    if isinstance(value, str):
        return [value] if "\n" not in value and len(value) < 4096 else []
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in _nested_strings(item)]


def _check_model_choice(meta: dict[str, Any], where: str) -> None:
    """A task's ``model`` and ``agent_models`` go through :func:`check_model_choice`."""
    specs = [("model", meta.get("model"))]
    agent_models = meta.get("agent_models")
    if agent_models is not None and not isinstance(agent_models, dict):
        raise TaskError(f"{where}: 'agent_models' must be a mapping such as '{{planner: openai:gpt-4.1}}'")
    specs += [(f"agent_models.{k}", v) for k, v in (agent_models or {}).items()]
    for key, spec in specs:
        if spec is not None:
            check_model_choice(spec, where=f"{where}: {key}")


def check_model_choice(spec: object, *, where: str = "model") -> None:
    """A model spec chosen by someone other than the person running cmbagent (a task's front matter, an MCP
    client) may pick a model, but not where requests go nor a file: no base URL, no transcript
    (``replay:<path>``), no model file (``local:<path.gguf>``); those are the person's own flags.

    Otherwise a task from someone else could make this machine send its content (and maybe a key) to a server
    of their choosing, or open a file outside every allowed folder.  Raises :class:`TaskError`.
    """
    from cmbagent.models import get_provider, parse_spec

    if not isinstance(spec, str):
        raise TaskError(f"{where} must be a model spec such as 'openai:gpt-4.1'")
    parsed = parse_spec(spec)
    row = get_provider(parsed.provider)
    if parsed.base_url or (row is not None and (row.serves_transcript or (row.model_file and parsed.model))):
        raise TaskError(
            f"{where} {spec!r} chooses a model server, a transcript or a model file, which a task may not do; "
            "remove it and pass --model yourself (e.g. --model 'openai-compatible:NAME@http://127.0.0.1:11434/v1')"
        )


def _path_arguments(method: Any) -> dict[str, str]:
    """Arguments the method declares as paths (``InputFile``/``OutputDir``): name -> input|output."""
    if not isinstance(method, str):
        return {}
    from cmbagent.tools.methods import path_arguments

    try:
        return path_arguments(method)
    except UnknownMethodError:
        return {}


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
    paths: PathPolicy | None = None,
    data_dirs: Sequence[str | os.PathLike[str]] = (),
) -> Task:
    """Parse task text; every file it names goes through a path policy.

    Without ``paths``: relative names are read from ``base`` (the task file's folder; the working folder for
    task text), and names may point inside that folder tree, the ``data_dirs`` and the ``extra_files``
    only.  With ``paths`` (the UI, replays), that policy alone decides, ``extra_files`` included.
    """
    meta, body = _split(text, where)
    _check_keys(meta, where)
    _check_model_choice(meta, where)
    for value in extra_files or []:
        if paths is None and not Path(value).expanduser().is_file():
            raise TaskError(f"data file {str(value)!r} not found; pass an existing file")
    policy = paths if paths is not None else PathPolicy.for_cli(
        base or Path.cwd(), data_dirs=data_dirs, files=[Path(v).expanduser() for v in extra_files or []])
    if not body.strip() and not meta.get("description") and not meta.get("title"):
        raise TaskError(f"{where}: the task is empty; write what you want done (a sentence is enough)")
    if not body.strip():
        body = str(meta.get("description") or meta.get("title"))
    method = meta.get("method")
    marked = _path_arguments(method) if check_method else {}
    files: dict[str, Path] = {}
    arguments: dict[str, Any] = {}
    for key, value in dict(meta.get("arguments") or {}).items():
        if marked.get(key) == "output":
            if isinstance(value, str) and (Path(value).is_absolute() or ".." in Path(value).parts
                                           or value.startswith("~")):
                raise TaskError(f"{where}: argument {key!r} ({value!r}) is a folder inside the run folder; "
                                "give a relative name such as figures/")
        elif isinstance(value, str):
            found = _resolve_file(value, policy, where, f"argument {key!r}", must=marked.get(key) == "input")
            if found is not None:
                rel = _run_path(found, files)
                files[rel] = found
                arguments[key] = rel
                continue
        else:  # names inside lists and mappings are not copied; none may point outside the roots either
            for text in _nested_strings(value):
                policy.target(text, what=f"{where}: argument {key!r}")
        arguments[key] = value
    data = meta.get("data") or []
    if isinstance(data, str):
        data = [data]
    if not isinstance(data, list):
        raise TaskError(f"{where}: 'data' must be a file path or a list of file paths")
    for value in data:
        found = policy.resolve(str(value), what=f"{where}: data file")
        if found not in files.values():
            files[_run_path(found, files)] = found
    for found in _text_files(body, policy):  # files the prose names that exist where the task may read
        if found not in files.values():
            files[_run_path(found, files)] = found
    for value in extra_files or []:
        # the caller's own names (a --data flag, a staged upload): checked against the roots, may be absolute
        path = policy.for_own_names().resolve(Path(value).expanduser(), what="data file")
        if path not in files.values():
            files[_run_path(path, files)] = path
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


def _first_line(body: str, limit: int = 80) -> str:
    """A title for a task without one: its first line's first sentence, cut at a word before ``limit``
    characters and before a bracket the cut would leave open ("… (the `re78` column" is not a title)."""
    for line in body.splitlines():
        line = line.strip().lstrip("#").strip()
        if not line:
            continue
        sentence = re.split(r"(?<=[.?!])\s+(?=[A-Z])", line)[0]
        if len(sentence) <= limit:
            return sentence
        cut = sentence[:limit - 1].rsplit(" ", 1)[0].rstrip(",;:—–- ")
        opened = max(cut.rfind("("), cut.rfind("["))
        if opened > max(cut.rfind(")"), cut.rfind("]")) and opened > limit // 3:
            cut = cut[:opened].rstrip(",;:—–- ")
        return cut + "…"
    return "task"


def load_task(
    task: str | os.PathLike[str],
    *,
    extra_files: list[str | os.PathLike[str]] | None = None,
    data_dirs: Sequence[str | os.PathLike[str]] = (),
    paths: PathPolicy | None = None,
) -> Task:
    """A Path, or a string naming an existing file, is read as a task file; any other string is the task.

    ``data_dirs`` are folders the task may read besides its own folder tree (``--data-dir``).  ``paths``
    replaces the whole policy (the UI passes its staging folder): then the task must be a ``Path`` the
    policy allows, and a string is always the task's text, never a file name.
    """
    path: Path | None = None
    if isinstance(task, os.PathLike):
        path = Path(task)
        if paths is not None:  # the caller's own name for the task file (not a visitor's): may be absolute
            path = paths.for_own_names().resolve(path, what="task file")
        elif not path.is_file():
            raise TaskError(f"task file {str(path)!r} not found; pass an existing markdown file or the task text")
    elif isinstance(task, str):
        if paths is None and "\n" not in task and len(task) < 4096:
            candidate = Path(task).expanduser()
            try:
                if candidate.is_file():
                    path = candidate
                elif candidate.is_dir():
                    raise TaskError(f"{task!r} is a folder; pass the task's markdown file (for example "
                                    f"{str(candidate / 'task.md')!r}) or the task text")
                elif _names_a_path(task):
                    raise TaskError(f"task file {task!r} not found; check the path (task text is a sentence, "
                                    "such as 'Fit flat LCDM to data/sn.csv.')")
            except OSError:
                path = None
    else:
        raise TaskError(f"a task is text or a path, not {type(task).__name__}")
    if path is not None:
        try:
            with os.fdopen(_open_task(path), encoding="utf-8") as handle:
                text = handle.read()
        except UnicodeDecodeError:
            raise TaskError(f"task file {str(path)!r} is not UTF-8 text") from None
        where = path.name if paths is not None and paths.private else str(path)
        parsed = parse_task(text, base=path.resolve().parent, where=where, extra_files=extra_files,
                            paths=paths, data_dirs=data_dirs)
        if paths is None or not paths.private:
            parsed.source = path.resolve()
        return parsed
    return parse_task(str(task), where="task", extra_files=extra_files, paths=paths, data_dirs=data_dirs)


def _names_a_path(text: str) -> bool:
    """A one-word argument that reads as a file name (a folder part, a ``~``/``.`` start or an extension), not
    as a task: ``examples/missing``, ``./task``, ``task.md``; never a sentence."""
    if any(c.isspace() for c in text.strip()):
        return False
    return "/" in text or os.sep in text or text.startswith(("~", ".")) or bool(re.search(r"\.[A-Za-z]\w{0,7}$", text))


def _open_task(path: Path) -> int:
    """Open a task file for reading; a FIFO, device or folder is refused (a FIFO would block forever)."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise TaskError(f"task file {str(path)!r} cannot be read ({exc.strerror}); check the path") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise TaskError(f"task file {str(path)!r} is not a regular file; pass a markdown file")
    os.set_blocking(fd, True)
    return fd
