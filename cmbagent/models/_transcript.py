"""Transcripts: every model call appended to ``transcript.jsonl`` with secrets scrubbed.

One line per call::

    {"v": 2, "seq", "ts", "agent", "model" (spec), "model_id", "request" (canonical), "request_hash",
     "response": {"text", "tool_calls", "output", "finish_reason"}, "usage", "usage_source", "cost_usd",
     "latency_s", "timings", "error"}

``timings`` is the server's account of the call where it gives one (llama.cpp): ``prompt_tokens`` read,
``cached_tokens`` taken from its prompt cache, ``prefill_s``, ``generated_tokens`` and ``generation_s``.

``usage_source`` is "provider", or "tokenizer"/"estimate" for a reply that reported no usage.

``"prompts": "compact"`` marks a call whose prompt was rendered in the compact form (a model with
``compact_prompts``: a local llama.cpp server with a small context), so that its replay renders it the same way.

The canonical request is the request as JSON (messages, tools, settings, metadata, agent) with the output
schema given by name and JSON schema, in a canonical form: keys sorted at every depth, floats rounded to
:data:`FLOAT_DIGITS` significant digits, and long decimal numbers inside message text rounded to
:data:`TEXT_FLOAT_DIGITS` (a number a cell recomputes in a replay may differ in its last bits).  Its SHA-256
is the ``request_hash`` the ``replay:`` provider checks, so a replay is not broken by a dict built in
another order or by floating-point noise.  Transcripts of format 1 (no canonical form) are refused by the
replay provider.
Scrubbing replaces ``sk-...``-style tokens, Authorization/x-api-key header values and known key values
(environment variables named like keys, injected ``api_keys``), before anything reaches the disk; the
hash is taken after scrubbing so a replay without the keys hashes the same.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import json
import os
import re
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cmbagent.exceptions import ConfigError
from cmbagent.models._protocol import ModelRequest, ModelResponse, Timings, ToolCall, Usage
from cmbagent.paths import append_text

__all__ = [
    "FLOAT_DIGITS",
    "REDACTED",
    "TEXT_FLOAT_DIGITS",
    "TRANSCRIPT_VERSION",
    "Scrubber",
    "TranscriptWriter",
    "canonical_json",
    "canonical_request",
    "read_transcript",
    "request_diff",
    "request_hash",
    "response_from_record",
    "response_to_record",
]

REDACTED = "[REDACTED]"
#: the transcript line format; 2: request hashes over the canonical form (sorted keys, normalised floats)
TRANSCRIPT_VERSION = 2
#: significant digits a float keeps in the canonical request
FLOAT_DIGITS = 12
#: significant digits a long decimal number inside message text keeps in the canonical request
TEXT_FLOAT_DIGITS = 10
# a decimal number with more digits than TEXT_FLOAT_DIGITS can hold (not part of a word, version or path)
_TEXT_FLOAT = re.compile(r"(?<![\w.])-?\d+\.\d+(?:[eE][-+]?\d+)?(?![\w.])")
_KEY_NAME = re.compile(r"(API_KEY|_TOKEN|_SECRET|PASSWORD)$", re.IGNORECASE)
_PATTERNS = (
    # OpenAI / Anthropic style keys: sk-..., sk-proj-..., sk-ant-...
    (re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"), "sk-" + REDACTED),
    # header values written out in text or JSON
    (re.compile(r"(?i)(authorization|x-api-key|api[-_]key)(\"?\s*[:=]\s*\"?)(bearer\s+)?[^\s\",}]+"),
     r"\1\2\3" + REDACTED),
    (re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._\-]{8,}"), "Bearer " + REDACTED),
)


class Scrubber:
    """Removes secrets from text: known values first, then key-like patterns."""

    def __init__(self, secrets: Iterable[str] = ()):
        values = {s for s in secrets if isinstance(s, str) and len(s) >= 6}
        self._values = sorted(values, key=len, reverse=True)

    @classmethod
    def from_sources(cls, env: Mapping[str, str] | None = None, api_keys: Mapping[str, str] | None = None) -> Scrubber:
        env = os.environ if env is None else env
        secrets = [value for name, value in env.items() if _KEY_NAME.search(name)]
        secrets += list((api_keys or {}).values())
        return cls(secrets)

    def __call__(self, text: str) -> str:
        # patterns first: a key that looks like one scrubs the same with or without its value known,
        # so a replay (often without the keys) hashes requests exactly as the recording did
        for pattern, replacement in _PATTERNS:
            text = pattern.sub(replacement, text)
        for value in self._values:
            text = text.replace(value, REDACTED)
        return text

    def scrub_json(self, obj: Any) -> Any:
        """Scrub every string inside a JSON-able object."""
        if isinstance(obj, str):
            return self(obj)
        if isinstance(obj, list):
            return [self.scrub_json(item) for item in obj]
        if isinstance(obj, dict):
            return {key: self.scrub_json(value) for key, value in obj.items()}
        return obj


def _jsonable(obj: Any, *, sort_keys: bool = True) -> Any:
    return json.loads(json.dumps(obj, default=repr, sort_keys=sort_keys))


def _round_text_float(match: re.Match[str]) -> str:
    text = match.group(0)
    digits = len(text.split("e")[0].split("E")[0].replace("-", "").replace(".", "").lstrip("0"))
    if digits <= TEXT_FLOAT_DIGITS:
        return text
    return format(float(text), f".{TEXT_FLOAT_DIGITS}g")


def canonical_json(obj: Any) -> Any:
    """``obj`` (plain JSON) in canonical form: keys sorted, floats and long decimals in text normalised."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, int):
        return obj
    if isinstance(obj, float):
        if obj != obj or obj in (float("inf"), float("-inf")):
            return repr(obj)
        rounded = float(format(obj, f".{FLOAT_DIGITS}g"))
        return 0.0 if rounded == 0 else rounded
    if isinstance(obj, str):
        return _TEXT_FLOAT.sub(_round_text_float, obj)
    if isinstance(obj, dict):
        return {str(key): canonical_json(obj[key]) for key in sorted(obj, key=str)}
    if isinstance(obj, (list, tuple)):
        return [canonical_json(item) for item in obj]
    return obj


@functools.lru_cache(maxsize=256)
def _schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


def canonical_request(request: ModelRequest, scrub: Scrubber | None = None) -> dict[str, Any]:
    """The request as plain JSON, stable across processes (what is hashed and recorded)."""
    data = request.model_dump(mode="python", exclude={"output_schema"})
    schema = request.output_schema
    data["output_schema"] = None if schema is None else {"name": schema.__name__, "schema": _schema_json(schema)}
    data = _jsonable(data)
    return canonical_json((scrub or Scrubber()).scrub_json(data))


def request_hash(canonical: Mapping[str, Any]) -> str:
    text = json.dumps(canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def request_diff(recorded: Mapping[str, Any], current: Mapping[str, Any], *, max_lines: int = 40) -> str:
    """A short unified diff between a recorded and a new canonical request."""
    a = json.dumps(recorded, sort_keys=True, indent=1, ensure_ascii=False).splitlines()
    b = json.dumps(current, sort_keys=True, indent=1, ensure_ascii=False).splitlines()
    lines = list(difflib.unified_diff(a, b, "recorded", "now", n=1, lineterm=""))
    if len(lines) > max_lines:
        lines = [*lines[:max_lines], f"... ({len(lines) - max_lines} more diff lines)"]
    return "\n".join(lines)


def response_to_record(response: ModelResponse) -> dict[str, Any]:
    output = response.output
    if hasattr(output, "model_dump"):
        output = output.model_dump(mode="json")
    return {
        "text": response.text,
        "tool_calls": [call.model_dump(mode="json") for call in response.tool_calls],
        # keys keep the model's order: a replay serves exactly this object, and its order reaches later prompts
        "output": _jsonable(output, sort_keys=False),
        "finish_reason": response.finish_reason,
    }


def response_from_record(record: Mapping[str, Any]) -> ModelResponse:
    """Rebuild the raw response of a transcript line (``output`` stays JSON; the caller validates it)."""
    body = record.get("response") or {}
    return ModelResponse(
        text=body.get("text", ""),
        tool_calls=[ToolCall(**call) for call in body.get("tool_calls", [])],
        output=body.get("output"),
        usage=Usage(**(record.get("usage") or {}), source=record.get("usage_source") or "provider"),
        finish_reason=body.get("finish_reason"),
        model=record.get("model_id", ""),
        latency_s=0.0,
        timings=Timings(**record["timings"]) if isinstance(record.get("timings"), dict) else None,
    )


class TranscriptWriter:
    """Appends scrubbed call records to a JSONL file, one flushed line per call (thread-safe)."""

    def __init__(self, path: str | os.PathLike[str], scrub: Scrubber):
        self.path = Path(path)
        self.scrub = scrub
        self._lock = threading.Lock()
        self._seq = sum(1 for _ in read_transcript(self.path)) if self.path.exists() else 0

    def append(
        self,
        *,
        agent: str,
        spec: str,
        canonical: dict[str, Any],
        response: ModelResponse | None,
        cost_usd: float | None,
        latency_s: float,
        error: BaseException | None = None,
        compact: bool = False,
    ) -> dict[str, Any]:
        record: dict[str, Any] = {
            "v": TRANSCRIPT_VERSION,
            "seq": 0,
            "ts": round(time.time(), 3),
            "agent": agent,
            "model": spec,
            "model_id": response.model if response else "",
            "request": canonical,
            "request_hash": request_hash(canonical),
            "response": response_to_record(response) if response else None,
            "usage": response.usage.model_dump() if response else Usage().model_dump(),
            "usage_source": response.usage.source if response else "provider",
            "cost_usd": cost_usd,
            "latency_s": round(latency_s, 4),
            # the server's account of the call (llama.cpp): prompt tokens read and taken from its cache, seconds of
            # prefill and of generation
            "timings": response.timings.model_dump() if response is not None and response.timings else None,
            "error": None,
        }
        if compact:
            record["prompts"] = "compact"
        if error is not None:
            record["error"] = {
                "type": type(error).__name__,
                "message": str(error),
                "status_code": getattr(error, "status_code", None),
                "url": getattr(error, "url", None),
            }
        record = self.scrub.scrub_json(record)
        with self._lock:
            record["seq"] = self._seq
            self._seq += 1
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # flushed per line: a kill -9 loses nothing (power cuts are the checkpoints' job); never through
            # a link that code in the run folder may have planted
            append_text(self.path, json.dumps(record, ensure_ascii=False) + "\n")
        return record


def read_transcript(path: str | os.PathLike[str]) -> Iterator[dict[str, Any]]:
    """Yield the records of a transcript; a torn last line (a killed run) is skipped."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"transcript {path} does not exist; pass the transcript.jsonl of a finished run")
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            if number == len(lines):
                return
            raise ConfigError(f"{path}:{number} is not valid JSON ({exc.msg}); the transcript is damaged") from exc
