"""The file routes: a session's own run files and its run folders as zips, nothing else.

Kept apart from ``_server`` so FastAPI can read the handlers' type hints (no postponed annotations here).
"""

import mimetypes
import os
import shutil
import tempfile
import time
import zipfile
from collections.abc import Iterator, MutableMapping
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO
from urllib.parse import quote

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response, StreamingResponse
from starlette.background import BackgroundTask

from cmbagent.paths import iter_files_beneath
from cmbagent.ui._sessions import Session, SessionStore
from cmbagent.ui._settings import UISettings, session_from_cookies

__all__ = ["add_file_routes"]

_INLINE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml", "application/pdf"}
_TEXT_SUFFIXES = {
    ".md",
    ".py",
    ".txt",
    ".json",
    ".jsonl",
    ".csv",
    ".log",
    ".yaml",
    ".yml",
    ".tex",
    ".dat",
    ".ipynb",
}
# a file opened directly runs no script and loads nothing (an agent-written SVG or HTML stays inert)
_ZIP_EPOCH = 315532800  # 1980-01-01: the earliest time a zip entry can carry
_FILE_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox"


def _zip_run(run_dir: Path) -> Path:
    """The run folder as a zip in a temporary file: only regular files, each reached through no symlink
    (:func:`cmbagent.paths.iter_files_beneath`), so a link planted by the run's code, or swapped in while
    the zip is written, cannot put a file of the server into it."""
    base = run_dir.resolve()
    handle = tempfile.NamedTemporaryFile(prefix="cmbagent-run-", suffix=".zip", delete=False)
    handle.close()
    with zipfile.ZipFile(handle.name, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for rel, source in iter_files_beneath(base):
            if rel.endswith(("-wal", "-shm", "-journal")):
                continue
            st = os.fstat(source.fileno())
            stamp = time.localtime(max(st.st_mtime, _ZIP_EPOCH))[:6]
            info = zipfile.ZipInfo(f"{base.name}/{rel}", date_time=stamp)
            info.external_attr = (st.st_mode & 0xFFFF) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w") as target:
                shutil.copyfileobj(source, target, 1 << 20)
    return Path(handle.name)


def _disposition(name: str, download: bool) -> str:
    """A Content-Disposition whose file name (chosen by the run's code) cannot break the header."""
    kind = "attachment" if download else "inline"
    return f"{kind}; filename*=utf-8''{quote(name, safe='')}"


def _chunks(handle: BinaryIO, size: int) -> Iterator[bytes]:
    """The file's first ``size`` bytes (its length when the headers were sent; a log may grow meanwhile)."""
    with handle:
        while size > 0 and (chunk := handle.read(min(size, 1 << 16))):
            size -= len(chunk)
            yield chunk


def _mounted_gradio(app: Any) -> Any:
    for route in getattr(app, "routes", []):
        inner = getattr(route, "app", None)
        if inner is not None and hasattr(inner, "tokens") and hasattr(inner, "cookie_id"):
            return inner
    return None


def _gradio_user(gradio_app: Any, cookies: MutableMapping[str, str]) -> str | None:
    cookie_id = gradio_app.cookie_id
    token = cookies.get(f"access-token-{cookie_id}") or cookies.get(f"access-token-unsecure-{cookie_id}")
    user = gradio_app.tokens.get(token) if token else None
    return str(user) if user else None


def add_file_routes(app: FastAPI, store: SessionStore, settings: UISettings, *, prefix: str = "") -> None:
    """Add ``/cmbagent/files/<run>/<path>`` and ``/cmbagent/download/<run>.zip`` to ``app``."""

    def authorised(request: Request) -> Session:
        if settings.auth is not None:
            gradio_app = _mounted_gradio(app)
            if gradio_app is None or not _gradio_user(gradio_app, request.cookies):
                raise HTTPException(401, "log in first")
        session = session_from_cookies(store, request.cookies)
        if session is None:
            raise HTTPException(404, "not found")
        return session

    @app.get(prefix + "/cmbagent/files/{run_id}/{relative:path}")
    @app.head(prefix + "/cmbagent/files/{run_id}/{relative:path}")
    def run_file(run_id: str, relative: str, request: Request) -> Response:
        session = authorised(request)
        handle = session.open_file(run_id, relative)  # no symlink followed anywhere on the way
        if handle is None:
            raise HTTPException(404, "not found")
        name = PurePosixPath(relative).name
        media, _ = mimetypes.guess_type(name)
        download = request.query_params.get("download") == "1"
        if PurePosixPath(name).suffix.lower() in _TEXT_SUFFIXES:
            media = "text/plain; charset=utf-8"
        elif media not in _INLINE_TYPES:
            media, download = "application/octet-stream", True
        size = os.fstat(handle.fileno()).st_size
        headers = {
            "Content-Security-Policy": _FILE_CSP,
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, no-cache",
            "Content-Disposition": _disposition(name, download),
            "Content-Length": str(size),
        }
        if request.method == "HEAD":
            handle.close()
            response = Response(status_code=200, media_type=media)
            response.headers.update(headers)
            return response
        return StreamingResponse(_chunks(handle, size), media_type=media, headers=headers)

    @app.get(prefix + "/cmbagent/download/{run_id}.zip")
    def run_zip(run_id: str, request: Request) -> FileResponse:
        session = authorised(request)
        run_dir = session.run_dir(run_id)
        if (
            run_dir is None
            or not run_dir.is_dir()
            or not run_dir.resolve().is_relative_to(session.root.resolve())
        ):
            raise HTTPException(404, "not found")
        archive = _zip_run(run_dir)
        return FileResponse(
            archive,
            media_type="application/zip",
            filename=f"{run_id}.zip",
            background=BackgroundTask(archive.unlink, missing_ok=True),
            headers={"Cache-Control": "private, no-store"},
        )
