"""Replay (``replay:<transcript.jsonl>``): serve a recorded run's responses in order, with no network.

Calls a run made side by side (a step's critics, on a model that takes several at once) finish in any order; a
request is matched by its hash among the next few unserved records, so their replay finds them.  Each request is
checked against the recorded one by the hash of its canonical form (see
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
from cmbagent.models._protocol import Model, ModelRequest, ModelResponse, StreamCallback, keep_partial
from cmbagent.models._providers import Provider, ProviderCall, register_provider
from cmbagent.models._repetition import RepetitionDetected
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
#: how far ahead of the first unserved record a request is looked for (calls made side by side finish in any order)
_WINDOW = 8


class ReplayModel(Model):
    """Serves the responses of ``path`` in order; one shared cursor for every agent."""

    #: recorded replies are served as recorded (a cut the recording made is replayed as that error)
    guarded = False

    def __init__(self, path: str | Path, *, lenient: bool = False):
        self.path = Path(path)
        if not self.path.is_file():
            raise ConfigError(f"replay transcript {self.path} does not exist; give the transcript.jsonl of a run")
        self.lenient = lenient
        self.divergences: list[str] = []
        self._records: list[dict[str, Any]] | None = None
        self._cursor = 0  # the first record not served yet
        self._served: set[int] = set()
        self._lock = threading.Lock()
        self.spec = f"replay:{self.path}"

    def _load(self) -> list[dict[str, Any]]:
        if self._records is None:
            records = list(read_transcript(self.path))
            old = next((r for r in records if r.get("v") != TRANSCRIPT_VERSION), None)
            if old is not None:
                raise ConfigError(
                    f"replay of {self.path}: the transcript has format {old.get('v')!r}, this cmbagent "
                    f"replays format {TRANSCRIPT_VERSION} (request hashes over a canonical form); run the "
                    "task again to record a transcript that replays")
            self._records = records
        return self._records

    @property
    def compact_prompts(self) -> bool:  # type: ignore[override]  # read from the record, not set
        """Whether the next recorded call was asked in the compact form of prompts (a local model's), so the
        replay renders its prompt as the recording did."""
        with self._lock:
            records = self._load()
            return self._cursor < len(records) and records[self._cursor].get("prompts") == "compact"

    def _next(self, request: ModelRequest, digest: str) -> dict[str, Any]:
        with self._lock:
            self._load()
            assert self._records is not None
            if self._cursor >= len(self._records):
                raise ReplayDivergence(
                    f"replay of {self.path}: the run asks for call {self._cursor + 1} (agent {request.agent!r}) "
                    f"but the transcript records only {len(self._records)}; re-run with a live model",
                    diff="",
                )
            # calls made side by side (a step's critics) were recorded in the order they finished: the request is
            # matched among the next few unserved records, so a replay that asks in the graph's order finds them
            ahead = [n for n in range(self._cursor, min(len(self._records), self._cursor + _WINDOW))
                     if n not in self._served]
            at = next((n for n in ahead if self._records[n].get("request_hash") == digest), ahead[0])
            self._served.add(at)
            while self._cursor in self._served:
                self._cursor += 1
            return self._records[at]

    @property
    def remaining(self) -> int:
        """Recorded calls not yet served."""
        return (len(self._records) if self._records is not None else 0) - len(self._served)

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        canonical = canonical_request(request, Scrubber.from_sources())
        digest = request_hash(canonical)
        record = self._next(request, digest)
        if digest != record.get("request_hash"):
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
            failure = _recorded_error(error)
            if record.get("response"):  # what the cut call had produced, on record again (text, usage)
                keep_partial(failure, response_from_record(record))
            raise failure
        response = response_from_record(record)
        if on_text is not None and response.text:
            on_text(response.text)
        return finish(request, response)


def _recorded_error(error: dict[str, Any]) -> Exception:
    if error.get("type") == "RepetitionDetected":  # the client asks again naming it: the same words, the same hash
        return RepetitionDetected(str(error.get("message", "")), unit="", kind="recorded", count=0, chars=0)
    message = f"(replayed {error.get('type', 'error')}) {error.get('message', '')}"
    if error.get("status_code") is not None:
        return ModelHTTPError(message, status_code=int(error["status_code"]))
    if error.get("url") is not None:
        return ModelConnectionError(message, url=error["url"])
    return ModelError(message)


# -- the provider row (the table in :mod:`cmbagent.models._providers`)
def _replay(call: ProviderCall) -> ReplayModel:
    return ReplayModel(call.spec.model, lenient=bool(call.options.get("replay_lenient")))


register_provider(Provider(
    name="replay", description="replays a recorded transcript.jsonl, no network", factory=_replay,
    forms=("replay:<transcript.jsonl>",), example="replay:workspaces/<run>/transcript.jsonl", in_ui=False,
    pings=False, serves_transcript=True,
))
