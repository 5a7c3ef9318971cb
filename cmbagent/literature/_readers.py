"""Finding indexable files and turning each into chunks; every file that cannot be read says why.

A bad file never stops the others: :func:`read_chunks` raises :class:`UnreadableFile` with a message
for that file, and the caller records it as a :class:`Problem` and goes on.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

from cmbagent.literature._chunk import (
    Chunk,
    ChunkSettings,
    chunk_code,
    chunk_lines,
    chunk_markdown,
    chunk_pages,
)

__all__ = ["KINDS", "Problem", "UnreadableFile", "discover", "kind_of", "read_bytes", "read_chunks"]

KINDS = {
    ".pdf": "pdf",
    ".md": "markdown", ".markdown": "markdown",
    ".txt": "text", ".rst": "text", ".tex": "text",
    ".py": "code",
    ".ipynb": "notebook",
}  # fmt: skip
# folders a recursive walk never enters: version control, environments, caches, build output
_SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", ".ipynb_checkpoints", "build", "dist"}
_SNIFF_BYTES = 8192


@dataclass(frozen=True)
class Problem:
    """A path that was not indexed, and why (the message says what to do about it)."""

    path: str
    reason: str


class UnreadableFile(Exception):
    """This one file cannot be indexed; the message says why."""


def kind_of(path: Path) -> str | None:
    return KINDS.get(path.suffix.lower())


def discover(paths: list[Path], *, max_files: int) -> tuple[list[Path], list[Problem], int]:
    """Files to index under ``paths``: (files, problems, number of files of other types passed over).

    Folders are walked recursively without following links, skipping hidden folders and the usual
    environment/cache folders.  A folder holding more than ``max_files`` indexable files is refused as a
    whole (the walk stops there), because indexing an arbitrary first part of it would be a surprise.
    """
    files: list[Path] = []
    problems: list[Problem] = []
    other = 0
    seen: set[Path] = set()
    for given in paths:
        path = given.expanduser()
        if not path.exists():
            problems.append(Problem(str(given), "does not exist; check the path"))
            continue
        if path.is_file():
            resolved = path.resolve()
            if resolved not in seen:
                seen.add(resolved)
                files.append(resolved)
            continue
        if not path.is_dir():
            problems.append(Problem(str(given), "is neither a file nor a folder (a device or socket?)"))
            continue
        found: list[Path] = []
        too_many = False
        for root, dirs, names in os.walk(path, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
            for name in sorted(names):
                if name.startswith("."):
                    continue
                candidate = Path(root, name)
                if kind_of(candidate) is None:
                    other += 1
                    continue
                found.append(candidate)
                if len(found) > max_files:
                    too_many = True
                    break
            if too_many:
                break
        if too_many:
            problems.append(Problem(str(given), f"holds more than {max_files} indexable files; index its "
                                                f"subfolders one by one or raise --max-files"))
            continue
        for candidate in found:
            resolved = candidate.resolve()
            if resolved not in seen and resolved.is_file():
                seen.add(resolved)
                files.append(resolved)
    return files, problems, other


def _decode(data: bytes, path: Path) -> str:
    if b"\0" in data[:_SNIFF_BYTES]:
        raise UnreadableFile("is a binary file, not text; only PDF, markdown, text, Python and notebooks are indexed")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        if text.count("\ufffd") > max(8, len(text) // 100):
            raise UnreadableFile(f"is not UTF-8 text (invalid byte at offset {exc.start}); convert it to UTF-8 "
                                 "or leave it out") from None
        return text


def _pdf_pages(path: Path) -> list[str]:
    import logging

    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # malformed-but-readable PDFs log noisily
    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")
            except (DependencyError, NotImplementedError) as exc:
                raise UnreadableFile(f"is an encrypted PDF this installation cannot decrypt ({exc})") from None
            if not opened:
                raise UnreadableFile("is an encrypted PDF that needs a password; decrypt it first "
                                     "(e.g. qpdf --decrypt --password=... in.pdf out.pdf)")
        pages = []
        for page in reader.pages:
            try:
                pages.append(page.extract_text() or "")
            except Exception:  # one broken page: keep the page numbering, lose only its text
                pages.append("")
    except UnreadableFile:
        raise
    except FileNotDecryptedError:
        raise UnreadableFile("is an encrypted PDF that needs a password; decrypt it first") from None
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise UnreadableFile(f"is not a readable PDF ({type(exc).__name__}: {exc}); re-export or repair it") from None
    if not any(p.strip() for p in pages):
        raise UnreadableFile("is a PDF without extractable text (a scan?); OCR it first, e.g. with ocrmypdf")
    return pages


def _notebook_chunks(source: str, text: str, settings: ChunkSettings) -> list[Chunk]:
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableFile(f"is not a valid notebook (JSON error at line {exc.lineno}: {exc.msg})") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise UnreadableFile("is not a Jupyter notebook (no 'cells' list)")
    chunks: list[Chunk] = []
    heading = ""
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            continue
        body = cell.get("source", "")
        body = "".join(body) if isinstance(body, list) else str(body)
        if not body.strip():
            continue
        if cell.get("cell_type") == "markdown":
            for chunk in chunk_markdown(source, body, settings=settings):
                chunks.append(replace(chunk, kind="notebook", cell=index))
                heading = chunk.heading or heading
        elif cell.get("cell_type") == "code":
            chunks.extend(chunk_code(source, body, settings=settings, kind="notebook", cell=index, heading=heading))
    return chunks


def read_chunks(path: Path, *, settings: ChunkSettings, max_bytes: int, data: bytes | None = None) -> list[Chunk]:
    """The chunks of one file (``data``: its bytes when the caller already read them).

    Raises:
        UnreadableFile: the file cannot be indexed; the message says why and what to do.
    """
    source = str(path)
    kind = kind_of(path)
    if data is None:
        data = read_bytes(path, max_bytes=max_bytes)
    if kind == "pdf":
        return chunk_pages(source, _pdf_pages(path), settings=settings)
    text = _decode(data, path)
    if kind == "notebook":
        chunks = _notebook_chunks(source, text, settings)
    elif kind == "markdown":
        chunks = chunk_markdown(source, text, settings=settings)
    elif kind == "code":
        chunks = chunk_code(source, text, settings=settings)
    else:
        chunks = chunk_lines(source, text, settings=settings)
    if not chunks:
        raise UnreadableFile("has no text to index (empty)")
    return chunks


def read_bytes(path: Path, *, max_bytes: int) -> bytes:
    """The file's bytes, refusing files over ``max_bytes`` before reading them."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise UnreadableFile(f"is {size / 2**20:.0f} MiB, over the {max_bytes / 2**20:.0f} MiB limit; "
                                 "raise --max-file-size to index it")
        return path.read_bytes()
    except UnreadableFile:
        raise
    except PermissionError:
        raise UnreadableFile("cannot be read (permission denied)") from None
    except IsADirectoryError:
        raise UnreadableFile("is a folder") from None
    except OSError as exc:
        raise UnreadableFile(f"cannot be read ({exc.strerror})") from None

