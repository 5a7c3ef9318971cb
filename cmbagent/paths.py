"""One path policy for every file name that comes from outside the program.

A task's front matter, a UI visitor's typed text, a method argument chosen by a model and ``cmbagent methods
run --args`` all name files.  Each such name is resolved here, and only here, against a :class:`PathPolicy`:

* relative names resolve against the policy's ``base`` (the task's folder, a UI submission's staging folder,
  the run folder), never against the process's working folder unless the policy says so;
* the name is first checked *lexically* (``..`` collapsed) against the allowed roots, so a name that points
  elsewhere is refused without touching the file system (no existence oracle, no hang on a FIFO);
* then it is resolved strictly (every symlink followed, ``..`` applied after links, as the kernel does) and
  the *real* path must lie inside a root's real path, so neither a symlink chain nor ``..`` can leave;
* ``/proc``, ``/sys`` and ``/dev`` are refused whatever the roots (``/proc/self/environ`` holds the
  deployment's API keys, ``/proc/self/root/...`` and ``/proc/self/fd/N`` re-enter the file system), and so is
  anything that is not a regular file or folder (FIFOs, sockets, devices);
* a hard link inside a root is accepted: it is indistinguishable from a file, and reads with the reader's
  own rights;
* a policy for a task author's names (:meth:`PathPolicy.for_cli`) also refuses hidden files and folders
  below its roots (``.ssh``, ``.env``): a task's folder tree can be a home folder.

A *private* policy (the UI, model-chosen arguments) never reveals the server: absolute and ``~`` names are
refused outright, a missing file and a forbidden one get the same message, and no message names a resolved
path or a root.  Every refusal is a :class:`~cmbagent.exceptions.PathNotAllowed` (a ``UserError``) whose message
ends with the policy's ``hint``: how the caller can fix it (``--data-dir DIR``, "attach the file instead").

Input files reach a run's ``data/`` through :func:`link_file` (a reflink, else a hard link into a content-
addressed cache shared by the workspace's runs, else a copy), so a large input is not copied into every run
(:mod:`cmbagent._linking`).

The helpers that read, copy and write files *beneath* a folder without following any symlink (``openat`` one
component at a time with ``O_NOFOLLOW``), for files that code in the sandbox could have replaced with a link
between a check and a use, live in :mod:`cmbagent._files` and are exported here.  This module and those two
import nothing of cmbagent above the error hierarchy and the config file's reader (:mod:`cmbagent.config_file`):
every layer, the language models included, may use them.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from cmbagent._files import (
    append_text,
    copy_file,
    iter_files_beneath,
    open_beneath,
    open_dir_beneath,
    path_kind,
    read_beneath,
    write_atomic,
)
from cmbagent._linking import INPUT_CACHE, link_file, prune_input_cache
from cmbagent.config_file import load_config
from cmbagent.exceptions import ConfigError, PathError, PathNotAllowed

__all__ = [
    "CLI_HINT",
    "FORBIDDEN_ROOTS",
    "INPUT_CACHE",
    "RUN_HINT",
    "UI_HINT",
    "InputFile",
    "OutputDir",
    "PathArg",
    "PathPolicy",
    "append_text",
    "config_data_dirs",
    "copy_file",
    "iter_files_beneath",
    "link_file",
    "open_beneath",
    "open_dir_beneath",
    "path_kind",
    "prune_input_cache",
    "read_beneath",
    "write_atomic",
]

#: never a data file, whatever the roots: kernel interfaces and devices
FORBIDDEN_ROOTS = (Path("/proc"), Path("/sys"), Path("/dev"))
CLI_HINT = "allow its folder with --data-dir DIR (or data_dirs under [paths] in cmbagent.toml)"
UI_HINT = "attach the file instead (paths on the server cannot be named here)"
RUN_HINT = "name a file inside the run folder, such as one under data/"

_MAX_NAME = 4096

Kind = Literal["file", "dir", "any"]


@dataclass(frozen=True)
class PathArg:
    """Marks a method argument that names a path (``Annotated[str, PathArg("input")]``).

    ``input``: a file the method reads (it must exist and be a regular file inside the roots);
    ``output``: a folder or file the method writes (it must resolve inside the roots; it may not exist yet).
    Every other string argument is still checked (see :func:`cmbagent.tools.methods.check_paths`); the
    marker makes the check strict and documents the argument.
    """

    kind: Literal["input", "output"]


#: a method argument naming a file the method reads
InputFile = Annotated[str, PathArg("input")]
#: a method argument naming a folder the method writes into
OutputDir = Annotated[str, PathArg("output")]


def _under(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def _forbidden(path: Path) -> bool:
    return any(_under(path, root) for root in FORBIDDEN_ROOTS)


@dataclass(frozen=True)
class _Root:
    given: Path  # absolute, lexically normalised, as configured (it may run through a symlink)
    real: Path  # the same folder with every symlink resolved


@dataclass(frozen=True)
class PathPolicy:
    """Where names from outside may point.  Build one with a factory (:meth:`for_cli`, :meth:`for_upload`,
    :meth:`for_run`) or directly; every root must exist.

    Attributes:
        roots: folders inside which names may resolve (a root may itself be a symlink; its target counts).
        files: single files allowed in addition (a file the person named on the command line).
        base: the folder relative names resolve against; ``None`` refuses relative names.
        hint: the sentence that tells the caller how to fix a refusal.
        private: never reveal the server in a message; refuse absolute and ``~`` names outright.
        hidden: whether a name may run through a hidden file or folder *below* a root (``.ssh``, ``.env``);
            a task's folder tree can be a home folder, whose dot-files hold credentials, not data.
    """

    roots: tuple[_Root, ...]
    files: tuple[_Root, ...] = ()
    base: Path | None = None
    hint: str = CLI_HINT
    private: bool = False
    hidden: bool = True
    _labels: tuple[str, ...] = field(default=(), compare=False)

    # -- construction ------------------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        roots: Iterable[str | os.PathLike[str]],
        *,
        base: str | os.PathLike[str] | None = None,
        files: Iterable[str | os.PathLike[str]] = (),
        hint: str = CLI_HINT,
        private: bool = False,
        hidden: bool = True,
    ) -> PathPolicy:
        """Check and resolve the roots; a root that is missing, not a folder or a kernel folder is a ConfigError."""
        checked: list[_Root] = []
        labels: list[str] = []
        for raw in roots:
            root = _root(raw, "folder")
            if root not in checked:
                checked.append(root)
                labels.append(str(raw))
        single = [_root(raw, "file") for raw in files]
        base_path = Path(os.path.normpath(Path(base).absolute())) if base is not None else None
        return cls(roots=tuple(checked), files=tuple(single), base=base_path, hint=hint, private=private,
                   hidden=hidden, _labels=tuple(labels))

    @classmethod
    def for_cli(
        cls,
        base: str | os.PathLike[str],
        *,
        data_dirs: Iterable[str | os.PathLike[str]] = (),
        files: Iterable[str | os.PathLike[str]] = (),
    ) -> PathPolicy:
        """A task run by a person: its own folder tree, the folders they allowed, the files they named; no
        hidden file or folder below those folders unless the person named it (a folder given is fine)."""
        return cls.build([base, *data_dirs], base=base, files=files, hint=CLI_HINT, hidden=False)

    @classmethod
    def for_upload(cls, staging: str | os.PathLike[str], *, hint: str = UI_HINT) -> PathPolicy:
        """A UI submission: only the files the visitor attached (its staging folder); nothing is revealed."""
        return cls.build([staging], base=staging, hint=hint, private=True)

    @classmethod
    def for_run(cls, run_dir: str | os.PathLike[str]) -> PathPolicy:
        """Arguments a model chose: inside the run folder only; nothing is revealed."""
        return cls.build([run_dir], base=run_dir, hint=RUN_HINT, private=True)

    def allowing(self, *, files: Iterable[str | os.PathLike[str]]) -> PathPolicy:
        """The same policy with single files added (files the caller named explicitly)."""
        extra = tuple(_root(raw, "file") for raw in files)
        return dataclasses.replace(self, files=self.files + extra)

    def for_own_names(self) -> PathPolicy:
        """The same roots for names the program built itself (a staged upload's absolute path), which may be
        absolute; names from a visitor or a model go through the policy itself."""
        return dataclasses.replace(self, private=False)

    # -- resolution --------------------------------------------------------------------------------------
    def resolve(self, name: str | os.PathLike[str], *, what: str = "file", kind: Kind = "file") -> Path:
        """The real path of an existing file (or folder) ``name`` may use; else :class:`PathNotAllowed`."""
        path = self._lexical(name, what)
        try:
            real = path.resolve(strict=True)
        except FileNotFoundError:
            raise self._missing(name, what) from None
        except (OSError, RuntimeError) as exc:  # a symlink loop, a name too long, no permission
            raise self._refuse(name, what, f"it cannot be resolved ({_reason(exc)})") from None
        self._check_real(name, what, real)
        mode = real.stat().st_mode
        wanted = {"file": stat.S_ISREG(mode), "dir": stat.S_ISDIR(mode),
                  "any": stat.S_ISREG(mode) or stat.S_ISDIR(mode)}[kind]
        if not wanted:
            expected = {"file": "a regular file", "dir": "a folder", "any": "a regular file or folder"}[kind]
            raise self._refuse(name, what, f"it is {path_kind(mode)}, not {expected}")
        return real

    def target(self, name: str | os.PathLike[str], *, what: str = "output") -> Path:
        """Where a file or folder that may not exist yet would be written; it must stay inside the roots."""
        path = self._lexical(name, what)
        try:
            real = path.resolve(strict=False)
        except (OSError, RuntimeError) as exc:
            raise self._refuse(name, what, f"it cannot be resolved ({_reason(exc)})") from None
        self._check_real(name, what, real)
        try:
            mode = real.stat().st_mode
        except OSError:
            return real
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise self._refuse(name, what, f"it is {path_kind(mode)}")
        return real

    def contains(self, name: str | os.PathLike[str], *, kind: Kind = "any") -> bool:
        """Whether :meth:`resolve` accepts ``name`` (no exception, no message)."""
        try:
            self.resolve(name, kind=kind)
        except PathError:
            return False
        return True

    def exists(self, name: str | os.PathLike[str]) -> bool:
        """Whether ``name`` is an existing regular file this policy accepts (used to tell a file name from a
        plain string); probes nothing outside the roots."""
        try:
            self.resolve(name, kind="file")
        except PathError:
            return False
        return True

    def relative(self, real: Path) -> str:
        """``real`` relative to the base (for messages and records), or its file name if it is elsewhere."""
        if self.base is not None:
            for candidate in (self.base, self.base.resolve()):
                if _under(real, candidate):
                    return real.relative_to(candidate).as_posix()
        return real.name

    # -- internals ---------------------------------------------------------------------------------------
    def _lexical(self, name: str | os.PathLike[str], what: str) -> Path:
        text = os.fspath(name) if isinstance(name, (str, os.PathLike)) else None
        if not isinstance(text, str) or not text.strip():
            raise PathNotAllowed(f"{what}: expected a file name, got {name!r}")
        if "\x00" in text or len(text) > _MAX_NAME:
            raise self._refuse(text, what, "it is not a valid file name")
        path = Path(text)
        if self.private and (path.is_absolute() or text.startswith("~")):
            raise self._refuse(text, what, "absolute paths are not accepted here")
        if not self.private:
            path = path.expanduser()
        if not path.is_absolute():
            if self.base is None:
                raise self._refuse(text, what, "a relative name needs a folder to resolve against")
            path = self.base / path
        lexical = Path(os.path.normpath(path))
        if _forbidden(lexical):
            raise self._refuse(text, what, f"{_first_parts(lexical)} is never readable as data")
        if not any(_under(lexical, r.given) or _under(lexical, r.real) for r in (*self.roots, *self.files)):
            raise self._outside(text, what)
        if not self.hidden and not any(lexical in (f.given, f.real) for f in self.files):
            self._check_visible(text, what, lexical, [p for r in self.roots for p in (r.given, r.real)])
        return path

    def _check_real(self, name: str | os.PathLike[str], what: str, real: Path) -> None:
        if _forbidden(real):
            raise self._refuse(name, what, f"it leads into {_first_parts(real)}, which is never readable as data")
        if any(real == f.real for f in self.files):
            return
        if not any(_under(real, r.real) for r in self.roots):
            raise self._outside(name, what, resolved=real)
        if not self.hidden:
            self._check_visible(name, what, real, [r.real for r in self.roots])

    def _check_visible(self, name: str | os.PathLike[str], what: str, path: Path, roots: list[Path]) -> None:
        """Refuse a path whose part below every root that holds it runs through a hidden file or folder."""
        below = [path.relative_to(root).parts for root in roots if _under(path, root)]
        if below and all(any(part.startswith(".") for part in parts) for parts in below):
            raise self._refuse(name, what, "it is, or lies in, a hidden file or folder (such as .ssh or .env), "
                                           "which holds settings and keys, not data")

    def _where(self) -> str:
        return ", ".join(self._labels) or "(none)"

    def _outside(self, name: str | os.PathLike[str], what: str, *, resolved: Path | None = None) -> PathNotAllowed:
        if self.private:
            return self._uniform(name, what)
        via = f" (it resolves to {resolved})" if resolved is not None and str(resolved) != str(name) else ""
        return PathNotAllowed(f"{what} {os.fspath(name)!r} is outside the allowed folders{via}; "
                              f"allowed: {self._where()}; {self.hint}")

    def _missing(self, name: str | os.PathLike[str], what: str) -> PathError:
        if self.private:
            return self._uniform(name, what)
        return PathError(f"{what} {os.fspath(name)!r} not found; relative names are read from "
                         f"{self.base}; check the name or {self.hint}")

    def _refuse(self, name: str | os.PathLike[str], what: str, why: str) -> PathNotAllowed:
        if self.private:
            return self._uniform(name, what)
        return PathNotAllowed(f"{what} {os.fspath(name)!r} cannot be used: {why}; {self.hint}")

    def _uniform(self, name: str | os.PathLike[str], what: str) -> PathNotAllowed:
        # one message for missing, outside, special and unresolvable names: nothing about the server leaks
        shown = os.fspath(name) if isinstance(name, (str, os.PathLike)) else repr(name)
        return PathNotAllowed(f"{what} {shown[:200]!r} is not one of the files available here; {self.hint}")


def _root(raw: str | os.PathLike[str], kind: str) -> _Root:
    given = Path(os.path.normpath(Path(raw).expanduser().absolute()))
    try:
        real = given.resolve(strict=True)
    except (OSError, RuntimeError):
        raise ConfigError(f"allowed {kind} {os.fspath(raw)!r} does not exist; create it or drop it") from None
    if _forbidden(real) or _forbidden(given):
        raise ConfigError(f"allowed {kind} {os.fspath(raw)!r} lies in /proc, /sys or /dev; those are never data")
    mode = real.stat().st_mode
    if kind == "folder" and not stat.S_ISDIR(mode):
        raise ConfigError(f"allowed folder {os.fspath(raw)!r} is not a folder; name its folder")
    if kind == "file" and not stat.S_ISREG(mode):
        raise ConfigError(f"file {os.fspath(raw)!r} is {path_kind(mode)}, not a regular file")
    return _Root(given=given, real=real)


def _first_parts(path: Path) -> str:
    return "/" + path.parts[1] if len(path.parts) > 1 else str(path)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, RuntimeError):
        return "a symlink loop"
    if isinstance(exc, OSError) and exc.errno is not None:
        return os.strerror(exc.errno).lower()
    return type(exc).__name__


def config_data_dirs(config: str | os.PathLike[str] | Mapping[str, Any] | None) -> list[Path]:
    """The extra data folders a config file allows: ``data_dirs`` under ``[paths]`` in ``cmbagent.toml``.

    Relative folders are read from the config file's own folder (from the working folder for a mapping).
    """
    if config is None:
        return []
    if isinstance(config, Mapping):
        table, folder = config, Path.cwd()
    else:
        table, folder = load_config(config), Path(config).expanduser().absolute().parent
    section = table.get("paths") or {}
    dirs = section.get("data_dirs", []) if isinstance(section, Mapping) else None
    if isinstance(dirs, str):
        dirs = [dirs]
    if not isinstance(dirs, list) or not all(isinstance(d, str) for d in dirs):
        raise ConfigError("[paths] data_dirs in the config file must be a list of folders, e.g. data_dirs = ['/srv/data']")
    return [folder / Path(d).expanduser() for d in dirs]
