"""The progress view renders the typed event stream: plain lines off a terminal, a live panel on one."""

from __future__ import annotations

import io
import time

from cmbagent.events import Event
from cmbagent.progress import PlainProgress, RichProgress, make_progress

PLAN = {"steps": [{"id": "s1", "title": "Fit", "agent": "engineer", "goal": "fit"},
                  {"id": "s2", "title": "Plot", "agent": "visualiser", "goal": "plot"}]}


def stream() -> list[Event]:
    raw = [
        ("run_started", {"task": "T", "model": "offline", "run_dir": "/r", "resumed": False}),
        ("plan_proposed", {"plan": PLAN, "round": 1}),
        ("plan_approved", {"plan": PLAN, "by": "auto", "edited": False, "comment": ""}),
        ("step_started", {"step_id": "s1", "title": "Fit", "agent": "engineer", "attempt": 1}),
        ("model_call", {"agent": "engineer", "model": "m", "cost_usd": 0.25}),
        ("cell_executed", {"step_id": "s1", "attempt": 1, "cell": "c.py", "status": "error", "duration_s": 0.1,
                           "error": "NameError: np", "images": []}),
        ("step_finished", {"step_id": "s1", "status": "done", "summary": "slope 2", "values": {}}),
        ("run_finished", {"status": "done", "report": "/r/report.md", "cost_usd": 0.25, "duration_s": 3.0}),
    ]
    return [Event(seq=n, ts=time.time(), type=t, run_id="r", data=d) for n, (t, d) in enumerate(raw)]  # type: ignore[arg-type]


def test_plain_lines() -> None:
    out = io.StringIO()
    progress = PlainProgress(out)
    for event in stream():
        progress(event)
    text = out.getvalue()
    assert "plan (round 1): s1 Fit [engineer]; s2 Plot [visualiser]" in text
    assert "cell c.py: error (0.1 s) NameError: np" in text
    assert "run done in 3.0 s, $0.2500; report: /r/report.md" in text
    assert progress.statuses == {"s1": "done", "s2": "pending"} and progress.cost == 0.25


def test_rich_live_view_tracks_state() -> None:
    out = io.StringIO()
    progress = RichProgress(out)
    for event in stream():
        progress(event)
    progress.close()
    assert progress.current == "s1" and progress.calls == 1
    assert "slope 2" in out.getvalue()


def test_make_progress_picks_plain_off_a_terminal() -> None:
    assert isinstance(make_progress(io.StringIO()), PlainProgress)
    assert make_progress(io.StringIO(), quiet=True) is None
