"""The live view of one run, streamed to one page.

An async generator per open page tails the run's ``events.jsonl`` (one ``stat`` every 50 ms; the run's
``EventLog`` flushes each line), folds new events into a :class:`RunView` and sends only the
sections whose HTML changed.  A page that starts following another run ends the previous stream; a stream
ends by itself once its run rests (finished, failed, waiting for a person).  Nothing here owns the run:
closing the page ends the stream, never the run.
"""

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import gradio as gr

from cmbagent.exceptions import PathError
from cmbagent.paths import read_beneath
from cmbagent.ui._render import (
    render_chat,
    render_downloads,
    render_gallery,
    render_plan,
    render_report,
    render_status,
    render_steps,
)
from cmbagent.ui._runs import ACTIVE, RunManager, read_run_json
from cmbagent.ui._sessions import Session
from cmbagent.ui._tasks import chat_messages, plan_to_table
from cmbagent.ui._view import EventTail, RunView

__all__ = ["SECTIONS", "LiveFeed", "blank_view", "load_plan"]

POLL_S = 0.05
TICK_S = 1.0
RESTING = ("done", "unmet", "failed", "budget_exhausted", "interrupted", "cancelled", "error", "awaiting_approval")
#: the view's sections, in the order of the outputs (then the approval group and the plan table)
SECTIONS = ("status", "chat", "plan", "steps", "gallery", "report", "downloads")
_PLAN_LIMIT = 4 << 20


def load_plan(run_dir: Path) -> dict[str, Any]:
    try:
        plan = json.loads(read_beneath(run_dir, "plan.json", limit=_PLAN_LIMIT))
    except (OSError, ValueError, PathError):
        return {}
    return plan if isinstance(plan, dict) else {}


def blank_view() -> tuple[Any, ...]:
    empty = '<div class="cmb-empty">No run yet: type a task, attach a task.md, or run an example.</div>'
    return (empty, render_chat([]), "", "", "", "", "", gr.update(visible=False), gr.skip())


#: an update of every output that changes none of them
NOTHING: tuple[Any, ...] = tuple(gr.skip() for _ in range(len(SECTIONS) + 2))


def _is_skip(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update" and len(value) == 1


class LiveFeed:
    """Streams run views to pages; remembers which run each page follows."""

    def __init__(self, manager: RunManager, session_of: Callable[[gr.Request], Session], *, prefix: str = ""):
        self.manager = manager
        self.session_of = session_of
        self.prefix = prefix
        self._followers: dict[str, int] = {}

    def run_state(self, session: Session, run_id: str, view: RunView) -> tuple[str, int | None, str | None]:
        """(state, place in the queue, error) from the live handle if there is one, else the run folder."""
        handle = self.manager.handle(session, run_id)
        if handle is not None and handle.state in ACTIVE:
            return handle.state, self.manager.queue_position(handle), None
        if handle is not None and handle.state == "error":
            return "error", None, handle.error
        if handle is not None and handle.result_status:
            return handle.result_status, None, handle.error
        info = read_run_json(session.root / run_id)
        status = str(info.get("status") or "")
        if status == "running":
            status = "interrupted"  # no live handle: the process that ran it is gone; it can be resumed
        return status or view.status, None, str(info["error"]) if info.get("error") else None

    async def follow(self, run_id: str | None, request: gr.Request) -> AsyncIterator[tuple[Any, ...]]:
        """Stream the view of one run to this page until the run rests or the page follows another."""
        session = self.session_of(request)
        page = request.session_hash or ""
        generation = self._followers.get(page, 0) + 1
        self._followers[page] = generation
        try:
            run_dir = session.run_dir(run_id or "")
            if run_dir is None:
                yield blank_view()
                yield NOTHING
                return
            async for update in self._stream(session, run_id or "", run_dir, page, generation):
                yield update
        finally:
            if self._followers.get(page) == generation:  # the page is gone or done: forget it
                del self._followers[page]

    async def _stream(
        self, session: Session, run_id: str, run_dir: Path, page: str, generation: int
    ) -> AsyncIterator[tuple[Any, ...]]:
        tail = EventTail(run_dir / "events.jsonl")
        view = RunView(run_id=run_id)
        sent: dict[str, Any] = {}
        table_plan_seq = -2
        last_tick = 0.0
        settled_at: float | None = None
        seen_handle: tuple[Any, ...] | None = None
        state = ""
        while self._followers.get(page) == generation:
            events = tail.read_new()
            for event in events:
                view.apply(event)
            handle = self.manager.handle(session, run_id)
            handle_key = (handle.state, handle.ended, handle.order) if handle else None
            now = time.time()
            if events or handle_key != seen_handle or now - last_tick >= TICK_S or not sent:
                last_tick, seen_handle = now, handle_key
                state, position, error = self.run_state(session, run_id, view)
                title = handle.title if handle else ""
                parts = {
                    "status": render_status(
                        view,
                        state=state,
                        queue_position=position,
                        error=error,
                        started=handle.started if handle else None,
                        ended=handle.ended if handle else None,
                        title=title,
                    ),
                    "chat": render_chat(chat_messages(view, state, title, error,
                                                      _reading(run_dir) if state == "awaiting_approval" else None)),
                    "plan": render_plan(view),
                    "steps": render_steps(view, run_dir, prefix=self.prefix),
                    "gallery": render_gallery(view, run_dir, prefix=self.prefix),
                    "report": render_report(run_id, run_dir, prefix=self.prefix),
                    "downloads": render_downloads(run_id, run_dir, prefix=self.prefix),
                }
                out: list[Any] = []
                for key in SECTIONS:
                    if sent.get(key) == parts[key]:
                        out.append(gr.skip())
                    else:
                        sent[key] = parts[key]
                        out.append(parts[key])
                waiting = state == "awaiting_approval"
                out.append(gr.skip() if sent.get("approval") == waiting else gr.update(visible=waiting))
                sent["approval"] = waiting
                table: Any = gr.skip()
                if waiting and view.plan_seq != table_plan_seq:  # a new plan: fill the table once, keep edits
                    table_plan_seq = view.plan_seq
                    table = plan_to_table(load_plan(run_dir) or view.plan or {})
                out.append(table)
                if not all(_is_skip(o) for o in out):
                    yield tuple(out)
            resting = state in RESTING and (handle is None or handle.state not in ACTIVE)
            if resting and not tail.changed():
                settled_at = settled_at or now
                if now - settled_at > 1.5:
                    break
            else:
                settled_at = None
            await asyncio.sleep(POLL_S)
        # Gradio ends a stream by sending its last update again: make that one change nothing, or it would
        # undo a person's edits of the plan table, or paint this run over the run the page follows now.
        yield NOTHING


def _reading(run_dir: Path) -> list[str]:
    """How the run read its task (run.json ``understanding``), for the approval message; [] when unreadable."""
    import json

    from cmbagent.report import reading_lines

    try:
        run = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return reading_lines(run.get("understanding")) if isinstance(run, dict) else []
