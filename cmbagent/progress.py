"""Progress of a run on the terminal: a rich live view on a TTY, one plain line per event otherwise.

It is just an ``on_event`` listener over the typed events of ``cmbagent.events`` (the UI renders the same
stream), so it adds no bookkeeping of its own.
"""

from __future__ import annotations

import sys
import time
from abc import ABC, abstractmethod
from typing import IO, Any, ClassVar

from cmbagent.events import Event

__all__ = ["PlainProgress", "Progress", "RichProgress", "make_progress"]


class Progress(ABC):
    """Base listener: keeps the plan, step statuses, attempt, cost; subclasses render."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.plan: list[dict[str, Any]] = []
        self.statuses: dict[str, str] = {}
        self.current: str | None = None
        self.attempt = 0
        self.cost = 0.0
        self.calls = 0
        self.last = ""

    def __call__(self, event: Event) -> None:
        data = event.data
        if event.type in {"plan_proposed", "plan_approved"}:
            self.plan = list(data.get("plan", {}).get("steps", []))
            self.statuses = {s["id"]: self.statuses.get(s["id"], "pending") for s in self.plan}
        elif event.type == "step_started":
            self.current, self.attempt = data.get("step_id"), int(data.get("attempt", 1))
            self.statuses[str(self.current)] = "running"
        elif event.type == "step_finished":
            self.statuses[str(data.get("step_id"))] = str(data.get("status"))
        elif event.type == "replanned":
            for sid in data.get("skipped", []):
                self.statuses[sid] = "skipped"
        elif event.type == "model_call":
            self.calls += 1
            self.cost += float(data.get("cost_usd") or 0.0)
        self.render(event)

    @abstractmethod
    def render(self, event: Event) -> None:
        """Show ``event`` (called after the state above is updated)."""

    def close(self) -> None:  # noqa: B027 - optional hook: only live views have something to stop
        """Stop live rendering."""


_LINKED = {"reflink": "a copy-on-write clone", "cache": "hard-linked from the workspace's input cache",
           "copy": "copied"}


def _input_line(info: dict[str, Any]) -> str:
    from cmbagent.inputs import human_size

    text = f"  input {info.get('name')}: {human_size(int(info.get('bytes') or 0))}, {_LINKED.get(str(info.get('linked')), '')}"
    if info.get("large"):
        text += " — a large input: cells that read it may take minutes (a heartbeat shows every 30 s)"
    return text


def _line(event: Event) -> str | None:
    d = event.data
    t = event.type
    if t == "task_notes":
        return "\n".join(f"note: {note}" for note in d.get("notes", []))
    if t == "run_started":
        line = f"run {'resumed' if d.get('resumed') else 'started'}: {d.get('task')} (model {d.get('model')}) -> {d.get('run_dir')}"
        return line + "".join("\n" + _input_line(i) for i in d.get("inputs") or [])
    if t == "plan_proposed":
        steps = d.get("plan", {}).get("steps", [])
        return f"plan (round {d.get('round')}): " + "; ".join(f"{s['id']} {s['title']} [{s['agent']}]" for s in steps)
    if t == "plan_reviewed":
        return f"plan review {d.get('round')}: {'approved' if d.get('approved') else 'changes requested'}" + (
            "" if d.get("approved") else ": " + "; ".join(d.get("comments", []))[:300])
    if t == "plan_held":
        return "plan held for a person: code's reading of the task left these open, and the analyst's arguments " \
            "would decide them:" + "".join(f"\n  - {q}" for q in d.get("open", []))
    if t == "plan_approved":
        return f"plan approved by {d.get('by')}" + (" (edited)" if d.get("edited") else "")
    if t == "step_started":
        return f"step {d.get('step_id')} {d.get('title')} [{d.get('agent')}] attempt {d.get('attempt')}"
    if t == "cell_heartbeat":
        elapsed = float(d.get("elapsed_s") or 0)
        last = str(d.get("last_line") or "")
        return (f"  … step {d.get('step_id')} still running ({int(elapsed // 60)}m{int(elapsed % 60):02d}s)"
                + (f"; last output: {last[:160]}" if last else "; no output yet"))
    if t == "cell_executed":
        return f"  cell {d.get('cell')}: {d.get('status')} ({d.get('duration_s')} s)" + (
            f" {d.get('error')}"[:200] if d.get("error") else "")
    if t == "step_critiqued":
        return f"  critic: {'accepted' if d.get('accepted') else 'rejected'} — {d.get('verdict', '')}"[:300]
    if t == "step_finished":
        return f"step {d.get('step_id')} {d.get('status')}: {str(d.get('summary', ''))[:240]}"
    if t == "replanned":
        return f"replanned: {d.get('reason', '')}"[:300]
    if t == "budget_warning":
        return f"budget warning: {d.get('kind')} {d.get('spent')} of {d.get('limit')}"
    if t == "run_finished":
        cost = d.get("cost_usd")
        return f"run {d.get('status')} in {d.get('duration_s')} s" + (f", ${cost:.4f}" if cost else "") + (
            f"; report: {d.get('report')}" if d.get("report") else "")
    return None


class PlainProgress(Progress):
    """One line per event (logs, pipes, CI)."""

    def __init__(self, stream: IO[str] | None = None):
        super().__init__()
        self.stream = stream or sys.stdout

    def render(self, event: Event) -> None:
        line = _line(event)
        if line:
            self.stream.write(line + "\n")
            self.stream.flush()


class RichProgress(Progress):
    """A live panel: plan with step statuses, current step and attempt, elapsed time, cost."""

    _MARK: ClassVar[dict[str, str]] = {"pending": "·", "running": "▶", "done": "✓", "failed": "✗", "skipped": "↷"}

    def __init__(self, stream: IO[str] | None = None):
        super().__init__()
        from rich.console import Console
        from rich.live import Live

        self.console = Console(file=stream or sys.stdout)
        self.live = Live(console=self.console, refresh_per_second=4, transient=False)
        self.live.start()

    def _view(self) -> Any:
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text

        table = Table.grid(padding=(0, 1))
        for step in self.plan:
            status = self.statuses.get(step["id"], "pending")
            table.add_row(self._MARK.get(status, "?"), step["id"], Text(step["title"]), Text(step["agent"], style="dim"),
                          status)
        elapsed = time.monotonic() - self.started
        head = f"step {self.current or '-'} attempt {self.attempt}  |  {elapsed:.0f} s  |  {self.calls} model calls  |  ${self.cost:.4f}"
        return Panel(table if self.plan else Text("planning…"), title=Text(head), subtitle=Text(self.last[:100]))

    def render(self, event: Event) -> None:
        line = _line(event)
        if line and event.type not in {"step_started", "plan_proposed"}:
            self.live.console.print(line, markup=False, highlight=False)
        if line:
            self.last = line
        self.live.update(self._view())

    def close(self) -> None:
        self.live.stop()


def make_progress(stream: IO[str] | None = None, *, quiet: bool = False) -> Progress | None:
    """Rich on a terminal, plain lines otherwise, nothing when ``quiet``."""
    if quiet:
        return None
    out = stream or sys.stdout
    if out.isatty():
        return RichProgress(out)
    return PlainProgress(out)
