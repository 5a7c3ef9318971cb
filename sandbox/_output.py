"""Collecting a cell's outputs from Jupyter messages: bounded text, rich results and image files."""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path
from typing import Any

from cmbagent.sandbox._types import StreamText

__all__ = ["IMAGE_TYPES", "TEXT_TYPES", "BoundedText", "save_image", "strip_ansi", "text_bundle"]

# mime type -> file extension, in order of preference when one output carries several
IMAGE_TYPES: dict[str, str] = {"image/png": "png", "image/svg+xml": "svg", "image/jpeg": "jpg"}
TEXT_TYPES = ("text/plain", "text/markdown", "text/html", "text/latex", "application/json")

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def strip_ansi(text: str) -> str:
    """Drop terminal colour codes (IPython colours tracebacks); models and files want plain text."""
    return _ANSI.sub("", text)


class BoundedText:
    """Keeps the first ``head`` and last ``tail`` bytes of a stream and counts what falls between.

    Works in UTF-8 bytes so the bound is a real memory bound; text that is not valid Unicode (lone
    surrogates from undecodable bytes) is replaced, never raised on.
    """

    def __init__(self, head: int, tail: int) -> None:
        self._head_limit = head
        self._tail_limit = tail
        self._head = bytearray()
        self._tail = bytearray()
        self._dropped = 0

    def write(self, text: str) -> None:
        data = text.encode("utf-8", errors="replace")
        room = self._head_limit - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if not data:
            return
        self._tail += data
        if len(self._tail) > 2 * self._tail_limit + 65536:  # trim in batches: amortised O(1) per byte
            excess = len(self._tail) - self._tail_limit
            self._dropped += excess
            del self._tail[:excess]

    def last_line(self, limit: int = 300) -> str:
        """The last non-empty line written so far (for heartbeats), at most ``limit`` characters."""
        data = bytes(self._tail[-4096:]) if self._tail else bytes(self._head[-4096:])
        lines = [line.strip() for line in data.decode("utf-8", errors="replace").splitlines() if line.strip()]
        return lines[-1][-limit:] if lines else ""

    def skip(self, count: int) -> None:
        """Count ``count`` bytes dropped upstream (by the kernel); later text belongs to the tail."""
        self._dropped += count
        self._head_limit = len(self._head)

    def result(self) -> StreamText:
        """The kept text, with a marker line where bytes were dropped."""
        excess = len(self._tail) - self._tail_limit
        dropped = self._dropped
        tail = bytes(self._tail)
        if excess > 0:
            dropped += excess
            tail = tail[excess:]
        head = self._head.decode("utf-8", errors="replace")
        if dropped:
            marker = f"\n[... {dropped} bytes of output dropped ...]\n"
            return StreamText(text=head + marker + tail.decode("utf-8", errors="replace"), dropped_bytes=dropped)
        return StreamText(text=head + tail.decode("utf-8", errors="replace"))


def save_image(data: dict[str, Any], figures: Path, stem: str) -> Path | None:
    """Write the preferred image in a display ``data`` bundle to ``figures/<stem>.<ext>``.

    The name is stable (cell number and output index chosen by the caller); an existing file is never
    overwritten: a numeric suffix is added instead.
    """
    for mime, ext in IMAGE_TYPES.items():
        if mime not in data:
            continue
        payload = data[mime]
        if isinstance(payload, list):  # nbformat allows multiline strings
            payload = "".join(payload)
        raw = payload.encode("utf-8") if mime == "image/svg+xml" else base64.b64decode(payload)
        figures.mkdir(parents=True, exist_ok=True)
        path = figures / f"{stem}.{ext}"
        n = 1
        while os.path.lexists(path):
            n += 1
            path = figures / f"{stem}-{n}.{ext}"
        with open(path, "xb") as handle:  # exclusive: never through a (dangling) link code in the run planted
            handle.write(raw)
        return path
    return None


def text_bundle(data: dict[str, Any], limit: int) -> dict[str, Any]:
    """The text kinds of a display bundle, each cut to ``limit`` characters (head kept)."""
    out: dict[str, Any] = {}
    for mime in TEXT_TYPES:
        if mime not in data:
            continue
        value = data[mime]
        if isinstance(value, list):
            value = "".join(value)
        if isinstance(value, str) and len(value) > limit:
            value = value[:limit] + f"\n[... {len(value) - limit} characters dropped ...]"
        out[mime] = value
    return out
