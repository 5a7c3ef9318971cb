"""Cutting documents into overlapping chunks that keep where they came from.

Every chunk remembers its locator: the PDF page, the markdown heading path and line range, the code line
range, the notebook cell.  That is what a citation points at, so chunks never cross a PDF page or a
notebook cell.  Sizes are in characters: all-MiniLM-L6-v2 reads at most 256 word pieces (about 1000
characters of English), so a chunk of ~700 characters is embedded whole.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

__all__ = [
    "Chunk",
    "ChunkSettings",
    "assign_ids",
    "chunk_code",
    "chunk_lines",
    "chunk_markdown",
    "chunk_pages",
]


@dataclass(frozen=True)
class ChunkSettings:
    """How big chunks are and how much consecutive chunks share."""

    max_chars: int = 700
    overlap_chars: int = 120
    code_lines: int = 40
    code_overlap_lines: int = 8


@dataclass(frozen=True)
class Chunk:
    """One piece of one source, with its locator.

    Attributes:
        source: the document's path (absolute) or a virtual source such as ``method:cosmology.fit_supernovae``.
        text: the chunk's text exactly as it appears in the source (after PDF text extraction).
        kind: ``pdf``, ``markdown``, ``text``, ``code``, ``notebook`` or ``method``.
        page: 1-based PDF page, else None.
        line_start: first line (1-based, inclusive) in the file or notebook cell, else None.
        line_end: last line (inclusive), else None.
        heading: markdown heading path (``Install > Linux``) or the notebook cell label.
        cell: 0-based notebook cell index, else None.
        chunk_id: stable id (see :func:`assign_ids`); empty until assigned.
    """

    source: str
    text: str
    kind: str
    page: int | None = None
    line_start: int | None = None
    line_end: int | None = None
    heading: str = ""
    cell: int | None = None
    chunk_id: str = ""
    extra: dict[str, str] = field(default_factory=dict, compare=False)

    @property
    def locator(self) -> str:
        """A short human locator: ``p. 3``, ``lines 10-42``, ``cell 4, lines 1-9``."""
        parts = []
        if self.page is not None:
            parts.append(f"p. {self.page}")
        if self.cell is not None:
            parts.append(f"cell {self.cell}")
        if self.line_start is not None:
            parts.append(f"lines {self.line_start}-{self.line_end}")
        return ", ".join(parts)

    def embedding_text(self) -> str:
        """What is embedded and BM25-indexed: the heading path gives a chunk its context."""
        return f"{self.heading}\n{self.text}" if self.heading else self.text


def assign_ids(chunks: Iterable[Chunk]) -> list[Chunk]:
    """Give each chunk an id derived from its source and text (and a counter for repeated texts).

    An id therefore survives re-indexing as long as the chunk's text is unchanged, even when an edit
    elsewhere in the file moved its lines: a citation keeps resolving until the cited text itself changes.
    """
    seen: dict[str, int] = {}
    out = []
    for chunk in chunks:
        digest = hashlib.sha256(f"{chunk.source}\0{chunk.text}".encode()).hexdigest()[:20]
        n = seen.get(digest, 0)
        seen[digest] = n + 1
        out.append(replace(chunk, chunk_id=digest if n == 0 else f"{digest}-{n}"))
    return out


def _windows(lines: list[str], max_chars: int, overlap_chars: int) -> Iterator[tuple[int, int]]:
    """Line windows ``[start, end)`` of at most ~max_chars each, the next starting ~overlap_chars back."""
    n = len(lines)
    start = 0
    while start < n:
        size = 0
        end = start
        while end < n and (end == start or size + len(lines[end]) + 1 <= max_chars):
            size += len(lines[end]) + 1
            end += 1
        yield start, end
        if end >= n:
            return
        back = end
        kept = 0
        while back - 1 > start and kept + len(lines[back - 1]) + 1 <= overlap_chars:
            back -= 1
            kept += len(lines[back]) + 1
        start = back if back > start else end


def _split_long_lines(lines: list[str], max_chars: int) -> list[tuple[int, str]]:
    """(original line number, piece): a line longer than max_chars is cut at spaces into pieces."""
    out: list[tuple[int, str]] = []
    for number, line in enumerate(lines, 1):
        if len(line) <= max_chars:
            out.append((number, line))
            continue
        words = line.split(" ")
        piece = ""
        for word in words:
            while len(word) > max_chars:  # a single enormous token (base64, minified code)
                if piece:
                    out.append((number, piece))
                    piece = ""
                out.append((number, word[:max_chars]))
                word = word[max_chars:]
            if piece and len(piece) + 1 + len(word) > max_chars:
                out.append((number, piece))
                piece = word
            else:
                piece = f"{piece} {word}" if piece else word
        if piece:
            out.append((number, piece))
    return out


def chunk_lines(
    source: str,
    text: str,
    *,
    kind: str = "text",
    settings: ChunkSettings = ChunkSettings(),
    first_line: int = 1,
    heading: str = "",
    page: int | None = None,
    cell: int | None = None,
) -> list[Chunk]:
    """Prose cut on line boundaries (long lines at spaces) into overlapping chunks with line ranges."""
    pieces = _split_long_lines(text.splitlines(), settings.max_chars)
    chunks = []
    for start, end in _windows([p for _, p in pieces], settings.max_chars, settings.overlap_chars):
        window = pieces[start:end]
        while window and not window[0][1].strip():  # blank lines do not count in a chunk's line range
            window = window[1:]
        while window and not window[-1][1].strip():
            window = window[:-1]
        body = "\n".join(p for _, p in window).strip()
        if not body:
            continue
        chunks.append(Chunk(source=source, text=body, kind=kind, page=page, heading=heading, cell=cell,
                            line_start=window[0][0] + first_line - 1, line_end=window[-1][0] + first_line - 1))
    return chunks


_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def chunk_markdown(source: str, text: str, *, settings: ChunkSettings = ChunkSettings()) -> list[Chunk]:
    """Markdown cut into sections at headings (not inside code fences); each chunk carries its heading path."""
    lines = text.splitlines()
    sections: list[tuple[str, int, list[str]]] = []  # (heading path, first line number, lines)
    path: list[tuple[int, str]] = []
    current: list[str] = []
    current_start = 1
    in_fence = False

    def close() -> None:
        if any(line.strip() for line in current):
            sections.append((" > ".join(title for _, title in path), current_start, list(current)))

    for number, line in enumerate(lines, 1):
        if _FENCE.match(line):
            in_fence = not in_fence
        match = None if in_fence else _HEADING.match(line)
        if match:
            close()
            level = len(match.group(1))
            path = [(lvl, title) for lvl, title in path if lvl < level] + [(level, match.group(2).strip())]
            current = [line]
            current_start = number
        else:
            if not current:
                current_start = number
            current.append(line)
    close()
    chunks: list[Chunk] = []
    for heading, start, body in sections:
        chunks.extend(chunk_lines(source, "\n".join(body), kind="markdown", settings=settings,
                                  first_line=start, heading=heading))
    return chunks


def chunk_code(
    source: str,
    text: str,
    *,
    settings: ChunkSettings = ChunkSettings(),
    kind: str = "code",
    first_line: int = 1,
    heading: str = "",
    cell: int | None = None,
) -> list[Chunk]:
    """Code cut into windows of whole lines (``code_lines`` long, ``code_overlap_lines`` shared).

    A window also stops at ``2 * max_chars`` characters so that wide files do not make chunks the
    embedding model would truncate to a fraction.
    """
    lines = text.splitlines()
    chunks: list[Chunk] = []
    n = len(lines)
    start = 0
    limit = 2 * settings.max_chars
    while start < n:
        end = start
        size = 0
        while end < n and end - start < settings.code_lines and (end == start or size + len(lines[end]) <= limit):
            size += len(lines[end]) + 1
            end += 1
        body = "\n".join(lines[start:end])
        if body.strip():
            chunks.append(Chunk(source=source, text=body[:limit], kind=kind, heading=heading, cell=cell,
                                line_start=start + first_line, line_end=end - 1 + first_line))
        if end >= n:
            break
        start = max(end - settings.code_overlap_lines, start + 1)
    return chunks


def chunk_pages(source: str, pages: list[str], *, settings: ChunkSettings = ChunkSettings()) -> list[Chunk]:
    """PDF text, page by page: a chunk never crosses a page, so its page number is exact."""
    chunks: list[Chunk] = []
    for number, text in enumerate(pages, 1):
        chunks.extend(chunk_lines(source, text, kind="pdf", settings=settings, page=number))
    return chunks
