"""Replay (``replay:<transcript.jsonl>``): serve a recorded run's responses in order, with no network.

Each request is checked against the recorded one by the hash of its canonical form (see
:mod:`cmbagent.models._transcript`).  On a divergence the replay raises :class:`ReplayDivergence` with a
short diff of the two requests; with ``lenient=True`` (``--replay-lenient``) it logs the diff, keeps it in
``divergences`` and serves the recorded response anyway.  Recorded failures are raised again as the same
typed errors, so a replay walks the same path as the run it reproduces.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from cmbagent.exceptions import (
    ConfigError,
    ModelConnectionError,
    ModelError,
    ModelHTTPError,
    ReplayDivergence,
)
from cmbagent.models._protocol import Model, ModelRequest, ModelResponse, StreamCallback
from cmbagent.models._structured import finish
from cmbagent.models._transcript import (
    TRANSCRIPT_VERSION,
    Scrubber,
    canonical_request,
    read_transcript,
    request_diff,
    request_hash,
    response_from_record,
)

__all__ = ["ReplayModel"]

log = logging.getLogger(__name__)


class ReplayModel(Model):
    """Serves the responses of ``path`` in order; one shared cursor for every agent."""

    def __init__(self, path: str | Path, *, lenient: bool = False):
        self.path = Path(path)
        if not self.path.is_file():
            raise ConfigError(f"replay transcript {self.path} does not exist; give the transcript.jsonl of a run")
        self.lenient = lenient
        self.divergences: list[str] = []
        self._records: list[dict[str, Any]] | None = None
        self._cursor = 0
        self._lock = threading.Lock()
        self.spec = f"replay:{self.path}"

    def _next(self, request: ModelRequest) -> dict[str, Any]:
        with self._lock:
            if self._records is None:
                records = list(read_transcript(self.path))
                old = next((r for r in records if r.get("v") != TRANSCRIPT_VERSION), None)
                if old is not None:
                    raise ConfigError(
                        f"replay of {self.path}: the transcript has format {old.get('v')!r}, this cmbagent "
                        f"replays format {TRANSCRIPT_VERSION} (request hashes over a canonical form); run the "
                        "task again to record a transcript that replays")
                self._records = records
            if self._cursor >= len(self._records):
                raise ReplayDivergence(
                    f"replay of {self.path}: the run asks for call {self._cursor + 1} (agent {request.agent!r}) "
                    f"but the transcript records only {len(self._records)}; re-run with a live model",
                    diff="",
                )
            record = self._records[self._cursor]
            self._cursor += 1
            return record

    @property
    def remaining(self) -> int:
        """Recorded calls not yet served."""
        return (len(self._records) if self._records is not None else 0) - self._cursor

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        record = self._next(request)
        canonical = canonical_request(request, Scrubber.from_sources())
        if request_hash(canonical) != record.get("request_hash"):
            diff = request_diff(record.get("request") or {}, canonical)
            message = (
                f"replay of {self.path}: call {record.get('seq', self._cursor - 1)} (agent {request.agent!r}) "
                f"differs from the recorded request:\n{diff}"
            )
            if not self.lenient:
                raise ReplayDivergence(message + "\n(pass --replay-lenient to continue anyway)", diff=diff)
            log.warning("%s", message)
            self.divergences.append(diff)
        error = record.get("error")
        if error:
            raise _recorded_error(error)
        response = response_from_record(record)
        if on_text is not None and response.text:
            on_text(response.text)
        return finish(request, response)


def _recorded_error(error: dict[str, Any]) -> Exception:
    message = f"(replayed {error.get('type', 'error')}) {error.get('message', '')}"
    if error.get("status_code") is not None:
        return ModelHTTPError(message, status_code=int(error["status_code"]))
    if error.get("url") is not None:
        return ModelConnectionError(message, url=error["url"])
    return ModelError(message)
