"""The typed event stream of a run (``events.jsonl``), rendered by the CLI progress view and the UI.

Every line is one JSON object ``{"seq", "ts", "type", "run_id", "data"}``.  ``data`` depends on the type:

=================  ============================================================================
type               data
=================  ============================================================================
task_notes         notes (list[str]): what pre-flight could read but not decide (live listener only)
run_started        task (title), model (default spec), run_dir, resumed (bool), inputs (list of
                   {name, bytes, large, linked}: the run's input files and how each reached data/)
plan_proposed      plan (Plan as dict), round
plan_reviewed      approved (bool), comments (list[str]), round
plan_held          open (list[str]): points code's reading of the task left open that the analyst's arguments
                   (arguments) would decide; the plan waits for a person (planner ``approve``)
plan_approved      plan, by ("auto" | "person"), edited (bool), comment
step_started       step_id, title, agent, attempt
cell_heartbeat     step_id, attempt, elapsed_s, last_line: a cell still running (every 30 s)
cell_executed      step_id, attempt, cell (path), status, duration_s, stdout_tail, error, images
finding            code, severity ("error" | "warning" | "note"), step_id (None: the run), message, evidence,
                   cell, settle, source ("audit" or a critic), attempt (for a step's findings)
step_critiqued     step_id, accepted (bool), verdict, issues (list[str])
step_finished      step_id, status ("done" | "failed" | "skipped"), summary, values
replanned          reason, skipped (list of step ids), new_steps (list of step ids)
budget_warning     kind ("usd" | "tokens" | "seconds"), spent, limit
model_call         agent, model, input_tokens, output_tokens, cost_usd, latency_s
text_delta         agent, text (streamed model text)
run_finished       status ("done" | "failed" | "budget_exhausted" | "interrupted"), report (path),
                   cost_usd, duration_s
ideas_started      task (title), model, run_dir, rounds, n_ideas       (idea mode, cmbagent.ideas)
idea_round         round, agent ("idea_maker" | "idea_hater"), ideas (IdeaSet) or review (IdeaReview)
ideas_finished     status, ideas (count), selected, cost_usd, duration_s, error, tasks (paths)
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

from cmbagent.paths import append_text, open_beneath

__all__ = ["EVENT_TYPES", "Event", "EventLog", "read_events"]

EventType = Literal[
    "task_notes",
    "run_started",
    "plan_proposed",
    "plan_reviewed",
    "plan_held",
    "plan_approved",
    "step_started",
    "cell_heartbeat",
    "cell_executed",
    "finding",
    "step_critiqued",
    "step_finished",
    "replanned",
    "budget_warning",
    "model_call",
    "text_delta",
    "run_finished",
    "ideas_started",
    "idea_round",
    "ideas_finished",
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
            append_text(self.path, line)  # never through a link code in the run may have planted
        if self.listener is not None:
            self.listener(event)
        return event


def read_events(path: str | os.PathLike[str]) -> Iterator[Event]:
    """Read events back; a torn last line (a kill mid-write) is ignored.

    The file is opened through no link (a run's code could replace its events with a link to a host file).
    """
    p = Path(path)
    try:
        handle = os.fdopen(open_beneath(p.parent, p.name), encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                yield Event.model_validate(json.loads(line))
            except (json.JSONDecodeError, ValueError):
                continue
