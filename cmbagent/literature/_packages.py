"""Installed packages as an index: the docstrings, signatures and source of the code agents call.

``cmbagent index --package camb`` walks the installed package's ``.py`` files with :mod:`ast` (nothing is
imported, so indexing runs no package code) and makes one chunk per public function, class and method: its
qualified name and signature, its docstring, and the head of its source (bounded).  The chunks live in
their own collection (``pkg-<name>``) of the index folder, one document per module file, so re-indexing
after an upgrade embeds only what changed.

In a run, :func:`package_passages` gives a cell's author the passages of the indexed packages its code
imports (or its step names), found by the step's words and the names the code calls, bounded in number and
characters.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cmbagent.exceptions import UserError
from cmbagent.literature._chunk import Chunk
from cmbagent.literature._config import default_index_dir
from cmbagent.literature._embed import Embedder
from cmbagent.literature._store import Index, IngestReport

__all__ = ["PACKAGE_PREFIX", "PackagePassage", "imported_packages", "index_package", "indexed_packages",
           "package_documents", "package_passages"]

PACKAGE_PREFIX = "pkg-"
SOURCE_LINES = 25  # lines of a function's source kept after its docstring
MAX_FILES = 2000
_DOC_CHARS = 1800


def _collection(name: str) -> str:
    return PACKAGE_PREFIX + name.lower().replace("_", "-")


def _package_root(name: str) -> tuple[Path, list[Path]]:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise UserError(f"{name!r} is not an importable top-level package name (e.g. camb, classy, cobaya)")
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise UserError(f"package {name!r} is not installed in this environment; install it first "
                        f"(pip install {name}) or check the spelling")
    if spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        files = sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)
    elif spec.origin and spec.origin.endswith(".py"):
        root, files = Path(spec.origin).parent, [Path(spec.origin)]
    else:
        raise UserError(f"package {name!r} has no Python source to index (a compiled extension: {spec.origin})")
    if len(files) > MAX_FILES:
        raise UserError(f"package {name!r} has {len(files)} Python files, more than the {MAX_FILES} indexed at once")
    return root, files


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    try:
        return f"({ast.unparse(node.args)})" + (f" -> {ast.unparse(node.returns)}" if node.returns else "")
    except (ValueError, AttributeError):
        return "(...)"


def _chunks_of_module(path: Path, module: str, text: str) -> list[Chunk]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.splitlines()
    out: list[Chunk] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if node.name.startswith("_") and node.name != "__init__":
                continue
            qual = f"{prefix}.{node.name}"
            doc = ast.get_docstring(node) or ""
            if isinstance(node, ast.ClassDef):
                head = f"class {qual}" + (f"({', '.join(ast.unparse(b) for b in node.bases)})" if node.bases else "")
            else:
                head = f"def {qual}{_signature(node)}"
            end = node.end_lineno or node.lineno
            body_start = (node.body[0].end_lineno or node.lineno) if doc and node.body else node.lineno
            src = "\n".join(lines[body_start:min(end, body_start + SOURCE_LINES)]) if not isinstance(node, ast.ClassDef) else ""
            if doc or src.strip():
                piece = head + ("\n" + doc[:_DOC_CHARS] if doc else "") + ("\n# source\n" + src if src.strip() else "")
                out.append(Chunk(source=str(path), text=piece, kind="code", line_start=node.lineno, line_end=end,
                                 heading=qual))
            if isinstance(node, ast.ClassDef):
                visit(node.body, qual)

    mod_doc = ast.get_docstring(tree)
    if mod_doc:
        out.append(Chunk(source=str(path), text=f"module {module}\n{mod_doc[:_DOC_CHARS]}", kind="code",
                         line_start=1, line_end=1 + mod_doc.count("\n"), heading=module))
    visit(tree.body, module)
    return out


def package_documents(name: str, modules: Sequence[str] | None = None) -> dict[str, list[Chunk]]:
    """The chunks of every public function, class and method of an installed package, by module file
    (only the modules named in ``modules`` and their submodules, when given: ``["camb.results"]``)."""
    root, files = _package_root(name)
    base = root.parent if root.name == name else root
    docs: dict[str, list[Chunk]] = {}
    for path in files:
        if any(part in {"tests", "test"} for part in path.relative_to(base).parts[:-1]):
            continue  # a package's own tests are not its API
        rel = path.relative_to(base).with_suffix("")
        module = ".".join(p for p in rel.parts if p != "__init__")
        if modules and not any(module == m or module.startswith(m + ".") for m in modules):
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        chunks = _chunks_of_module(path, module, text)
        if chunks:
            docs[str(path)] = chunks
    if not docs:
        which = f" in modules {', '.join(modules)}" if modules else ""
        raise UserError(f"package {name!r} has no public functions or classes with docstrings to index{which}")
    return docs


def index_package(name: str, folder: str | os.PathLike[str] | None = None, *,
                  embedder: Embedder | None = None, modules: Sequence[str] | None = None) -> IngestReport:
    """Index an installed package into the ``pkg-<name>`` collection (only changed modules are embedded;
    with ``modules``, the collection holds those modules only)."""
    index = Index(Path(folder) if folder is not None else default_index_dir(), collection=_collection(name),
                  embedder=embedder)
    return index.sync_documents(package_documents(name, modules))


def indexed_packages(folder: str | os.PathLike[str] | None = None) -> list[str]:
    """The packages indexed in ``folder`` (collection names without the prefix, ``-`` for ``_``)."""
    from cmbagent.literature._manifest import Manifest

    manifest = Manifest(Path(folder) if folder is not None else default_index_dir())
    if not manifest.exists():
        return []
    return sorted(c.removeprefix(PACKAGE_PREFIX).replace("-", "_") for c in manifest.collections()
                  if c.startswith(PACKAGE_PREFIX))


def imported_packages(code: str) -> set[str]:
    """Top-level packages a cell imports (``import camb.model``, ``from camb import ...`` -> ``camb``)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return {m.group(1) for m in re.finditer(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", code, re.M)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module.split(".")[0])
    return found


def _called_names(code: str) -> list[str]:
    """Attribute and function names the code calls (``camb.get_results`` -> ``get_results``), for the query."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            fn = node.func
            name = fn.attr if isinstance(fn, ast.Attribute) else fn.id if isinstance(fn, ast.Name) else ""
            if name and name not in names:
                names.append(name)
    return names


@dataclass(frozen=True)
class PackagePassage:
    """One retrieved passage of a package's code: which package, its chunk, and how it is shown."""

    package: str
    chunk: Chunk

    def block(self, max_chars: int) -> str:
        where = f"{self.chunk.heading} ({Path(self.chunk.source).name}, {self.chunk.locator})"
        text = self.chunk.text if len(self.chunk.text) <= max_chars else self.chunk.text[:max_chars] + " …"
        return f"[{self.package}: {where}]\n{text}"

    def record(self) -> dict[str, Any]:
        """What a run records about a passage it used: package, qualified name, file, lines, chunk id."""
        return {"package": self.package, "name": self.chunk.heading, "source": self.chunk.source,
                "locator": self.chunk.locator, "chunk_id": self.chunk.chunk_id}


def package_passages(query: str, *, code: str = "", text: str = "", folder: str | os.PathLike[str] | None = None,
                     k: int = 4, embedder: Embedder | None = None, max_packages: int = 3) -> list[PackagePassage]:
    """Passages of the indexed packages that ``code`` imports or ``text`` names, best first, ``k`` at most.

    The query is ``query`` (the step's words) plus the names ``code`` calls, so a cell calling
    ``results.get_cmb_power_spectra`` finds that method's docstring.  Returns [] when no imported or named
    package is indexed.  ``k`` passages are shared between the packages (at least one each).
    """
    available = indexed_packages(folder)
    if not available:
        return []
    wanted = [p for p in sorted(imported_packages(code)) if p in available]
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text.lower()))
    wanted += [p for p in available if p not in wanted and p.lower() in words]
    wanted = wanted[:max_packages]
    if not wanted:
        return []
    full = " ".join([query, *_called_names(code)]).strip()
    if not full:
        return []
    per = max(1, k // len(wanted))
    out: list[PackagePassage] = []
    for package in wanted:
        index = Index(Path(folder) if folder is not None else default_index_dir(), collection=_collection(package),
                      embedder=embedder)
        out += [PackagePassage(package, hit.chunk) for hit in index.search(full, k=per)]
    return out[:max(k, len(wanted))]


