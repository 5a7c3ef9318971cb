"""Where a run's LangGraph checkpoints live: SQLite in the run folder (the embedded default) or PostgreSQL.

::

    CMBAGENT_CHECKPOINTS=postgresql://cmbagent@/runs?host=/run/postgresql cmbagent solve task.md
    # or, in cmbagent.toml:   [checkpoints]  url = "postgresql://..."

The run folder keeps every file either way; with PostgreSQL only the graph state moves to the server, so
processes on several machines (a shared UI, batch workers) resume each other's runs from one database.
``run.json`` records the kind, the URL *without its password* and the thread id; a resume needs the same
database (from the environment or the config file) and refuses another one with a message naming both.

A run is worked on by one process at a time: besides the run folder's lock (:mod:`cmbagent.control`), a
PostgreSQL session holds an advisory lock on the run's thread for as long as it works on it, so two machines
sharing the database but not a file system cannot both continue one run.
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from cmbagent.exceptions import ConfigError, PathNotAllowed, UserError

__all__ = [
    "CheckpointStore", "checkpoint_serde", "checkpoint_url", "corrupt_checkpoints", "describe_url", "open_sqlite",
    "open_store", "redact", "resolve_url", "thread_for",
]

ENV = "CMBAGENT_CHECKPOINTS"
_SCHEMES = ("postgresql://", "postgres://")
_SETUP_LOCK = 0x636D6261  # "cmba": one process at a time creates or migrates the tables


def checkpoint_url(config_file: str | os.PathLike[str] | Mapping[str, Any] | None = None,
                   env: Mapping[str, str] | None = None) -> str | None:
    """The PostgreSQL URL runs should checkpoint to, or ``None`` for SQLite in the run folder.

    ``CMBAGENT_CHECKPOINTS`` beats ``[checkpoints] url`` of the config file; ``sqlite`` (or empty) in either
    means the embedded default.
    """
    env = os.environ if env is None else env
    value = env.get(ENV)
    if value is None and config_file is not None:
        from cmbagent.models import load_config

        table = dict(config_file) if isinstance(config_file, Mapping) else load_config(config_file)
        value = (table.get("checkpoints") or {}).get("url")
    if value is None or str(value).strip().lower() in {"", "sqlite"}:
        return None
    url = str(value).strip()
    if not url.startswith(_SCHEMES):
        raise ConfigError(f"{ENV} / [checkpoints] url must be a postgresql:// URL or 'sqlite' (got {redact(url)!r})")
    return url


def resolve_url(given: str | None, config_file: str | os.PathLike[str] | Mapping[str, Any] | None = None) -> str | None:
    """``given`` (a URL; ``""`` or ``sqlite``: the embedded default) when not ``None``, else
    :func:`checkpoint_url` of the environment and ``config_file``."""
    return checkpoint_url(env={ENV: given}) if given is not None else checkpoint_url(config_file)


def redact(url: str) -> str:
    """``url`` without its password (what run.json, logs and messages may show)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def describe_url(url: str | None) -> dict[str, Any]:
    """The ``checkpoints`` entry of run.json for a store at ``url`` (no secret in it)."""
    return {"kind": "sqlite", "file": "checkpoints.sqlite"} if url is None else {"kind": "postgres", "url": redact(url)}


def thread_for(run_id: str, url: str | None) -> str:
    """The checkpoint thread of a new run: its id, made unique in a database that many run folders share
    (two folders called ``run`` under different workspaces must not meet in one thread)."""
    return run_id if url is None else f"{run_id}.{secrets.token_hex(4)}"


def _plain(value: Any) -> Any:
    """``value`` with every pydantic object and enum replaced by its JSON form."""
    from enum import Enum

    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return tuple(_plain(item) for item in value)
    return value


def checkpoint_serde() -> Any:
    """The checkpoint serializer: plain JSON data in, LangGraph's strict deserializer out.

    The graph's typed state objects are dumped (JSON mode) on the way in and validated again by its state
    model on the way out, so a checkpoint names no class; reading one revives only LangGraph's built-in safe
    types (its default would import and call any callable a checkpoint names), and a refactor that moves a
    class cannot break a resume.
    """
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    class PlainStrict(JsonPlusSerializer):
        def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
            return super().dumps_typed(_plain(obj))

    return PlainStrict(allowed_msgpack_modules=None)


class CheckpointStore:
    """An open LangGraph checkpointer for one run (``saver``), and what closing it must release."""

    def __init__(self, saver: Any, kind: str, where: str, conn: Any):
        self.saver = saver
        self.kind = kind
        self.where = where
        self._conn = conn

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.close()
            except Exception:  # closing after a lost connection or a full disk: nothing left to release
                pass


def open_store(folder_path: Path, stored: Mapping[str, Any] | None, *, url: str | None, thread: str) -> CheckpointStore:
    """Open the checkpointer a run folder's ``run.json`` names (``stored``; absent: SQLite in the folder).

    ``url`` is the database the caller is configured with; a run stored in PostgreSQL needs one, and the same
    one it was started with.
    """
    kind = str((stored or {}).get("kind") or "sqlite")
    if kind == "sqlite":
        return open_sqlite(folder_path / "checkpoints.sqlite")
    if kind != "postgres":
        raise UserError(f"{folder_path}/run.json names checkpoints of kind {kind!r}; this cmbagent knows sqlite "
                        "and postgres")
    recorded = str((stored or {}).get("url") or "")
    if url is None:
        raise UserError(f"the checkpoints of {folder_path} live in PostgreSQL ({recorded}); set {ENV} to that "
                        "database's URL (with its password) to continue the run")
    if redact(url) != recorded:
        raise UserError(f"the checkpoints of {folder_path} live in {recorded}, but {ENV} names {redact(url)}; "
                        "point it at the run's own database")
    return _open_postgres(url, thread)


def open_sqlite(path: Path) -> CheckpointStore:
    """The run's ``SqliteSaver``.

    WAL with ``synchronous=NORMAL``: every committed checkpoint survives a kill -9 of the process (the graph
    runs with ``durability="sync"``, so a step's checkpoint is committed before the next step starts); only an
    operating-system crash could lose the last commits, at a fraction of the fsync cost.

    The run folder is writable by sandboxed code, so the file is untrusted: it must be a regular file (not a
    link to a file of the host), it is read with :func:`checkpoint_serde`, and a file that is not
    a database (truncated, overwritten) is reported by name instead of crashing the resume.
    """
    from langgraph.checkpoint.sqlite import SqliteSaver

    for name in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            mode = os.lstat(name).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISREG(mode):
            raise PathNotAllowed(f"{name} is not a regular file (replaced by a link?); refusing to open it")
    conn = sqlite3.connect(str(path), check_same_thread=False)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check").fetchall()]
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise corrupt_checkpoints(path, exc) from exc
    if problems != ["ok"]:
        conn.close()
        raise corrupt_checkpoints(path, "; ".join(problems[:3]))
    return CheckpointStore(SqliteSaver(conn, serde=checkpoint_serde()), "sqlite", str(path), conn)


def corrupt_checkpoints(path: Path, exc: BaseException | str) -> UserError:
    """The error for a checkpoint file that cannot be read (the rest of the run folder is untouched)."""
    return UserError(
        f"the checkpoint file {path} cannot be read ({exc}); it was truncated or overwritten. The run folder's "
        "other files (steps/, figures/, report, transcript) are intact; start the task again with `cmbagent "
        "solve` (or `cmbagent replay` the run folder to redo it from its transcript without model calls)")


def _open_postgres(url: str, thread: str) -> CheckpointStore:
    """A ``PostgresSaver`` on its own autocommit connection (each checkpoint is committed as it is written),
    the tables created or migrated once under an advisory lock, and the run's thread locked for this session."""
    try:
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row
    except ImportError as exc:
        raise ConfigError("PostgreSQL checkpoints need langgraph-checkpoint-postgres and psycopg: "
                          "pip install 'cmbagent[postgres]'") from exc
    where = redact(url)
    try:
        conn = psycopg.connect(url, autocommit=True, prepare_threshold=0, row_factory=dict_row, connect_timeout=10)
    except psycopg.Error as exc:
        raise ConfigError(f"cannot connect to the checkpoint database {where}: {_first_line(exc)}; check {ENV} "
                          "and that the server is running") from exc
    try:
        saver = PostgresSaver(conn, serde=checkpoint_serde())
        with conn.cursor() as cur:
            cur.execute("SELECT pg_advisory_lock(%s)", (_SETUP_LOCK,))
        try:
            saver.setup()
        finally:
            with conn.cursor() as cur:
                cur.execute("SELECT pg_advisory_unlock(%s)", (_SETUP_LOCK,))
        with conn.cursor() as cur:
            cur.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0)) AS got", (thread,))
            row = cur.fetchone()
        if not row or not row["got"]:
            raise UserError(f"another process is working on this run (its checkpoint thread {thread} is locked in "
                            f"{where}); wait for it to finish, or stop it with `cmbagent cancel RUN_DIR`")
    except UserError:
        conn.close()
        raise
    except psycopg.Error as exc:
        conn.close()
        raise ConfigError(f"the checkpoint database {where} refused to set up: {_first_line(exc)}") from exc
    return CheckpointStore(saver, "postgres", where, conn)


def _first_line(exc: BaseException) -> str:
    return re.sub(r"\s+", " ", str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)
