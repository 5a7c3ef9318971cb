"""Follow a run's ``events.jsonl`` and fold it into a view model the renderers draw.

The tail reads only the bytes appended since its last call and leaves a line without its newline for the
next call (a writer may be half-way through it), so a view built while a run is going and one built from the
finished file are the same.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.events import Event
from cmbagent.exceptions import PathError
from cmbagent.paths import open_beneath

__all__ = ["CellView", "EventTail", "RunView", "StepView"]

_TEXT_KEEP = 4000


class EventTail:
    """Incremental reader of one ``events.jsonl``."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.offset = 0
        self._inode: int | None = None

    def changed(self) -> bool:
        """Cheap check (one stat) whether there is anything new to read."""
        try:
            st = self.path.lstat()
        except OSError:
            return False
        return st.st_size != self.offset or st.st_ino != self._inode

    def read_new(self) -> list[Event]:
        # the run folder is writable by sandboxed code: the file is opened without following a link, so a
        # link planted in its place cannot make this server read (and show) one of its own files
        try:
            handle = os.fdopen(open_beneath(self.path.parent, self.path.name), "rb")
        except (OSError, PathError):
            return []
        with handle:
            st = os.fstat(handle.fileno())
            if self._inode is not None and (st.st_ino != self._inode or st.st_size < self.offset):
                self.offset = 0  # the file was replaced: start over (the view is rebuilt by the caller)
            self._inode = st.st_ino
            if st.st_size == self.offset:
                return []
            handle.seek(self.offset)
            chunk = handle.read(st.st_size - self.offset)
        end = chunk.rfind(b"\n")
        if end < 0:
            return []
        self.offset += end + 1
        events = []
        for line in chunk[: end + 1].splitlines():
            if not line.strip():
                continue
            try:
                events.append(Event.model_validate(json.loads(line)))
            except (json.JSONDecodeError, ValueError):
                continue
        return events


@dataclass
class CellView:
    cell: str
    status: str
    attempt: int
    duration_s: float | None
    stdout_tail: str
    error: str | None
    images: list[str]
    seq: int
    ts: float


@dataclass
class StepView:
    step_id: str
    title: str = ""
    agent: str = ""
    goal: str = ""
    status: str = "pending"
    attempt: int = 0
    cells: list[CellView] = field(default_factory=list)
    critiques: list[dict[str, Any]] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)  # the latest audited attempt's
    findings_attempt: int = 0
    summary: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    heartbeat: dict[str, Any] = field(default_factory=dict)  # the running cell's last sign of life
    seq: int = -1
    ts: float = 0.0


@dataclass
class RunView:
    """Everything the live view shows, folded from the events in order."""

    run_id: str = ""
    title: str = ""
    model: str = ""
    started_ts: float | None = None
    plan: dict[str, Any] | None = None
    plan_round: int = 0
    plan_seq: int = -1
    reviews: list[dict[str, Any]] = field(default_factory=list)
    approval: dict[str, Any] | None = None
    steps: dict[str, StepView] = field(default_factory=dict)
    replans: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)
    cost_usd: float = 0.0
    tokens: int = 0
    model_calls: int = 0
    text_agent: str = ""
    text: str = ""
    figures: list[str] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)  # about the run (its report), not one step
    finished: dict[str, Any] | None = None
    last_seq: int = -1
    last_ts: float = 0.0
    count: int = 0

    def apply(self, event: Event) -> None:
        d = event.data
        self.run_id = self.run_id or event.run_id
        self.last_seq, self.last_ts, self.count = event.seq, event.ts, self.count + 1
        kind = event.type
        if kind == "run_started":
            self.title = str(d.get("task") or self.title)
            self.model = str(d.get("model") or self.model)
            if self.started_ts is None:
                self.started_ts = event.ts
            if d.get("resumed"):
                self.finished = None
        elif kind == "plan_proposed":
            self.plan, self.plan_round, self.plan_seq = (
                d.get("plan") or {},
                int(d.get("round") or 0),
                event.seq,
            )
            self._sync_plan_steps()
        elif kind == "plan_reviewed":
            self.reviews.append({**d, "seq": event.seq, "ts": event.ts})
        elif kind == "plan_approved":
            self.approval = {**d, "seq": event.seq}
            if d.get("plan"):
                self.plan, self.plan_seq = d["plan"], event.seq
                self._sync_plan_steps()
        elif kind == "step_started":
            step = self._step(str(d.get("step_id")))
            step.title = str(d.get("title") or step.title)
            step.agent = str(d.get("agent") or step.agent)
            step.status, step.attempt, step.seq, step.ts = (
                "running",
                int(d.get("attempt") or 1),
                event.seq,
                event.ts,
            )
        elif kind == "cell_heartbeat":
            step = self._step(str(d.get("step_id")))
            step.heartbeat = {"elapsed_s": d.get("elapsed_s"), "last_line": str(d.get("last_line") or "")}
            step.seq, step.ts = event.seq, event.ts
        elif kind == "cell_executed":
            step = self._step(str(d.get("step_id")))
            step.heartbeat = {}
            images = [str(p) for p in d.get("images") or []]
            step.cells.append(
                CellView(
                    cell=str(d.get("cell") or ""),
                    status=str(d.get("status") or ""),
                    attempt=int(d.get("attempt") or 1),
                    duration_s=d.get("duration_s"),
                    stdout_tail=str(d.get("stdout_tail") or ""),
                    error=d.get("error"),
                    images=images,
                    seq=event.seq,
                    ts=event.ts,
                )
            )
            step.seq, step.ts = event.seq, event.ts
            for image in images:
                if image not in self.figures:
                    self.figures.append(image)
        elif kind == "finding":
            item = {**d, "seq": event.seq}
            if d.get("step_id"):
                step = self._step(str(d["step_id"]))
                attempt = int(d.get("attempt") or step.findings_attempt or 1)
                if attempt > step.findings_attempt:  # a new attempt's audit replaces the previous one's
                    step.findings, step.findings_attempt = [], attempt
                if not any(f.get("code") == d.get("code") and f.get("message") == d.get("message")
                           for f in step.findings):
                    step.findings.append(item)
            else:
                self.findings.append(item)
        elif kind == "step_critiqued":
            step = self._step(str(d.get("step_id")))
            step.critiques.append({**d, "seq": event.seq})
            step.seq, step.ts = event.seq, event.ts
        elif kind == "step_finished":
            step = self._step(str(d.get("step_id")))
            step.status = str(d.get("status") or "done")
            step.summary = str(d.get("summary") or "")
            step.values = dict(d.get("values") or {})
            step.seq, step.ts = event.seq, event.ts
        elif kind == "replanned":
            self.replans.append({**d, "seq": event.seq})
            for skipped in d.get("skipped") or []:
                self._step(str(skipped)).status = "skipped"
        elif kind == "budget_warning":
            self.warnings.append({**d, "seq": event.seq})
        elif kind == "model_call":
            self.model_calls += 1
            self.cost_usd += float(d.get("cost_usd") or 0.0)
            self.tokens += int(d.get("input_tokens") or 0) + int(d.get("output_tokens") or 0)
        elif kind == "text_delta":
            agent = str(d.get("agent") or "")
            if agent != self.text_agent:
                self.text_agent, self.text = agent, ""
            self.text = (self.text + str(d.get("text") or ""))[-_TEXT_KEEP:]
        elif kind == "run_finished":
            self.finished = {**d, "seq": event.seq, "ts": event.ts}
            if d.get("cost_usd") is not None:
                self.cost_usd = max(self.cost_usd, float(d["cost_usd"]))

    def _step(self, step_id: str) -> StepView:
        if step_id not in self.steps:
            self.steps[step_id] = StepView(step_id=step_id)
        return self.steps[step_id]

    def _sync_plan_steps(self) -> None:
        """Show the plan's steps (pending) before they start, in the plan's order."""
        steps = (self.plan or {}).get("steps") or []
        ordered: dict[str, StepView] = {}
        for raw in steps:
            if not isinstance(raw, dict) or not raw.get("id"):
                continue
            step = self.steps.get(str(raw["id"])) or StepView(step_id=str(raw["id"]))
            step.title = step.title or str(raw.get("title") or "")
            step.agent = step.agent or str(raw.get("agent") or "")
            step.goal = str(raw.get("goal") or step.goal)
            ordered[step.step_id] = step
        for step_id, step in self.steps.items():  # steps that ran but left the plan (replanned away)
            if step_id not in ordered and (step.cells or step.status != "pending"):
                ordered[step_id] = step
        self.steps = ordered

    @property
    def status(self) -> str:
        if self.finished:
            return str(self.finished.get("status") or "done")
        return "running" if self.count else "starting"
