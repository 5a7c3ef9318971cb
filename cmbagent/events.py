"""The typed event stream of a run (``events.jsonl``), rendered by the CLI progress view and the UI.

Every line is one JSON object ``{"seq", "ts", "type", "run_id", "data"}``.  ``data`` depends on the type:

=================  ============================================================================
type               data
=================  ============================================================================
run_started        task (title), model (default spec), run_dir, resumed (bool)
plan_proposed      plan (Plan as dict), round
plan_reviewed      approved (bool), comments (list[str]), round
plan_approved      plan, by ("auto" | "person"), edited (bool), comment
step_started       step_id, title, agent, attempt
cell_executed      step_id, attempt, cell (path), status, duration_s, stdout_tail, error, images
step_critiqued     step_id, accepted (bool), verdict, issues (list[str])
step_finished      step_id, status ("done" | "failed" | "skipped"), summary, values
replanned          reason, skipped (list of step ids), new_steps (list of step ids)
budget_warning     kind ("usd" | "tokens" | "seconds"), spent, limit
model_call         agent, model, input_tokens, output_tokens, cost_usd, latency_s
text_delta         agent, text (streamed model text)
run_finished       status ("done" | "failed" | "budget_exhausted" | "interrupted"), report (path),
                   cost_usd, duration_s
=================  ============================================================================
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = ["EVENT_TYPES", "Event", "EventLog", "read_events"]

EventType = Literal[
    "run_started",
    "plan_proposed",
    "plan_reviewed",
    "plan_approved",
    "step_started",
    "cell_executed",
    "step_critiqued",
    "step_finished",
    "replanned",
    "budget_warning",
    "model_call",
    "text_delta",
    "run_finished",
]
EVENT_TYPES: tuple[str, ...] = EventType.__args__  # type: ignore[attr-defined]


class Event(BaseModel):
    seq: int
    ts: float
    type: EventType
    run_id: str
    data: dict[str, Any] = Field(default_factory=dict)


class EventLog:
    """Append-only ``events.jsonl`` writer.

    Each line is written whole and flushed, so a kill -9 loses nothing emitted; surviving a power cut is the
    job of the SQLite checkpoints, and an fsync per event would dominate the graph's per-turn overhead.
    """

    def __init__(self, path: str | os.PathLike[str], run_id: str, *, listener: Callable[[Event], None] | None = None):
        self.path = Path(path)
        self.run_id = run_id
        self.listener = listener
        self._lock = threading.Lock()
        self._seq = sum(1 for _ in read_events(self.path)) if self.path.exists() else 0

    def emit(self, type: str, **data: Any) -> Event:
        with self._lock:
            event = Event(seq=self._seq, ts=time.time(), type=type, run_id=self.run_id, data=data)  # type: ignore[arg-type]
            self._seq += 1
            line = event.model_dump_json() + "\n"
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(line)
                handle.flush()
        if self.listener is not None:
            self.listener(event)
        return event


def read_events(path: str | os.PathLike[str]) -> Iterator[Event]:
    """Read events back; a torn last line (a kill mid-write) is ignored."""
    p = Path(path)
    if not p.exists():
        return
    with open(p, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                yield Event.model_validate(json.loads(line))
            except (json.JSONDecodeError, ValueError):
                continue
