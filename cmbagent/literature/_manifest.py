"""The manifest: which files an index holds, with their content hashes, in one small SQLite file.

It makes re-indexing incremental (a file whose hash is unchanged is not read into chunks again) and
lets a deleted file's chunks be found and removed.  Each collection also has a revision number that
grows on every change, so a search process knows when its in-memory BM25 table is stale.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["Manifest"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS collections (
    name TEXT PRIMARY KEY, embedder TEXT NOT NULL, revision INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS files (
    collection TEXT NOT NULL, source TEXT NOT NULL, sha256 TEXT NOT NULL, n_chunks INTEGER NOT NULL,
    indexed_at REAL NOT NULL, PRIMARY KEY (collection, source));
"""


class Manifest:
    """Rows of ``manifest.sqlite`` in the index folder; every call opens its own short connection."""

    FILENAME = "manifest.sqlite"

    def __init__(self, folder: Path) -> None:
        self.path = folder / self.FILENAME

    def exists(self) -> bool:
        return self.path.is_file()

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A connection that commits on success and is always closed."""
        connection = sqlite3.connect(self.path, timeout=30)
        try:
            with connection:
                connection.executescript(_SCHEMA)
                yield connection
        finally:
            connection.close()

    def embedder(self, collection: str) -> str | None:
        with self._connect() as db:
            row = db.execute("SELECT embedder FROM collections WHERE name = ?", (collection,)).fetchone()
        return None if row is None else str(row[0])

    def ensure_collection(self, collection: str, embedder: str) -> None:
        with self._connect() as db:
            db.execute("INSERT OR IGNORE INTO collections (name, embedder) VALUES (?, ?)", (collection, embedder))

    def collections(self) -> list[str]:
        with self._connect() as db:
            return [str(r[0]) for r in db.execute("SELECT name FROM collections ORDER BY name")]

    def revision(self, collection: str) -> int:
        with self._connect() as db:
            row = db.execute("SELECT revision FROM collections WHERE name = ?", (collection,)).fetchone()
        return -1 if row is None else int(row[0])

    def bump(self, collection: str) -> None:
        with self._connect() as db:
            db.execute("UPDATE collections SET revision = revision + 1 WHERE name = ?", (collection,))

    def files(self, collection: str) -> dict[str, str]:
        """source -> content hash."""
        with self._connect() as db:
            rows = db.execute("SELECT source, sha256 FROM files WHERE collection = ?", (collection,))
            return {str(s): str(h) for s, h in rows}

    def record(self, collection: str, source: str, sha256: str, n_chunks: int) -> None:
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                       (collection, source, sha256, n_chunks, time.time()))
            db.execute("UPDATE collections SET revision = revision + 1 WHERE name = ?", (collection,))

    def forget(self, collection: str, source: str) -> None:
        with self._connect() as db:
            db.execute("DELETE FROM files WHERE collection = ? AND source = ?", (collection, source))
            db.execute("UPDATE collections SET revision = revision + 1 WHERE name = ?", (collection,))
