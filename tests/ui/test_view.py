"""The event tail and the view it folds into, and the HTML drawn from it (escaped, session routes only)."""

from __future__ import annotations

import json
from pathlib import Path

from cmbagent.events import EventLog
from cmbagent.ui._render import render_gallery, render_plan, render_report, render_status, render_steps
from cmbagent.ui._tasks import chat_messages
from cmbagent.ui._view import EventTail, RunView


def _log(run_dir: Path) -> EventLog:
    run_dir.mkdir(parents=True, exist_ok=True)
    return EventLog(run_dir / "events.jsonl", run_dir.name)


def test_tail_reads_only_whole_new_lines(tmp_path: Path) -> None:
    log = _log(tmp_path / "run")
    tail = EventTail(log.path)
    assert tail.read_new() == []
    log.emit("run_started", task="t", model="offline", run_dir="x", resumed=False)
    assert [e.type for e in tail.read_new()] == ["run_started"]
    with open(log.path, "a") as handle:  # a writer half-way through a line
        handle.write('{"seq": 1, "ts": 1.0, "type": "plan_rev')
    assert tail.read_new() == [] and tail.changed()
    with open(log.path, "a") as handle:
        handle.write('iewed", "run_id": "run", "data": {"approved": true, "comments": [], "round": 1}}\n')
    assert [e.type for e in tail.read_new()] == ["plan_reviewed"]
    assert not tail.changed()


def test_view_folds_a_run_and_escapes_what_it_shows(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    log = _log(run_dir)
    plan = {
        "steps": [
            {"id": "s1", "title": "<script>alert(1)</script>", "goal": "g", "agent": "engineer"},
            {"id": "s2", "title": "Fit", "goal": "g2", "agent": "method_operator"},
        ]
    }
    (run_dir / "steps" / "01-x" / "cells").mkdir(parents=True)
    (run_dir / "steps" / "01-x" / "cells" / "attempt-1.py").write_text("print('<b>hi</b>')\n")
    (run_dir / "figures" / "01-x").mkdir(parents=True)
    (run_dir / "figures" / "01-x" / "fig.png").write_bytes(b"\x89PNG")
    log.emit("run_started", task="Fit SN", model="offline", run_dir=str(run_dir), resumed=False)
    log.emit("plan_proposed", plan=plan, round=1)
    log.emit("plan_reviewed", approved=False, comments=["add a plot"], round=1)
    log.emit("plan_approved", plan=plan, by="person", edited=True, comment="ok")
    log.emit("step_started", step_id="s1", title=plan["steps"][0]["title"], agent="engineer", attempt=1)
    log.emit(
        "cell_executed",
        step_id="s1",
        attempt=1,
        cell="steps/01-x/cells/attempt-1.py",
        status="ok",
        duration_s=0.5,
        stdout_tail="<b>hi</b>",
        error=None,
        images=[],
    )
    log.emit(
        "model_call",
        agent="engineer",
        model="m",
        input_tokens=10,
        output_tokens=5,
        cost_usd=0.25,
        latency_s=1,
    )
    log.emit("step_critiqued", step_id="s1", accepted=False, verdict="not yet", issues=["no plot"])
    log.emit(
        "step_finished",
        step_id="s1",
        status="failed",
        summary="failed",
        values={"Omega_m": {"mean": 0.3, "std": 0.02}},
    )
    log.emit("replanned", reason="s1 failed", skipped=["s2"], new_steps=[])

    view = RunView(run_id="run")
    for event in EventTail(log.path).read_new():
        view.apply(event)
    assert view.cost_usd == 0.25 and view.tokens == 15
    assert list(view.steps) == ["s1", "s2"]
    assert view.steps["s1"].status == "failed" and view.steps["s2"].status == "skipped"

    html = render_plan(view) + render_steps(view, run_dir) + render_status(view, state="running")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>hi</b>" not in html
    assert "add a plot" in html and "Replanned" in html and "not accepted" in html and "0.3 ± 0.02" in html
    assert 'data-last-seq="9"' in html
    assert "/cmbagent/files/run/figures/01-x/fig.png" in html  # the step's figure, through the session route
    assert "/cmbagent/files/run/figures/01-x/fig.png" in render_gallery(view, run_dir)
    said = " ".join(m["content"] for m in chat_messages(view, "running", "", None))
    assert "Reviewer asked for changes: add a plot" in said and "✗ Step 1" in said


def test_the_step_view_shows_the_latest_attempts_findings(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    log = _log(run_dir)
    log.emit("step_started", step_id="s1", title="Fit", agent="method_operator", attempt=1)
    base = {"step_id": "s1", "evidence": {}, "source": "audit", "settle": ""}
    log.emit("finding", attempt=1, code="value.not_finite", severity="error", message="x is NaN",
             cell="steps/01-fit/cells/attempt-1.py", **base)
    log.emit("finding", attempt=2, code="fit.chi2_low", severity="warning", message="<b>chi2</b> too low",
             cell="steps/01-fit/cells/attempt-2.py", **{**base, "settle": "use the covariance"})
    log.emit("finding", code="report.unsupported_number", severity="error", message="the summary states 7.31",
             step_id=None, cell=None, evidence={}, source="audit", settle="")
    view = RunView(run_id="run")
    for event in EventTail(log.path).read_new():
        view.apply(event)
    assert [f["code"] for f in view.steps["s1"].findings] == ["fit.chi2_low"]  # attempt 2 replaced attempt 1
    html = render_steps(view, run_dir)
    assert 'data-code="fit.chi2_low"' in html and "value.not_finite" not in html
    assert "&lt;b&gt;chi2&lt;/b&gt;" in html and "To settle it: use the covariance" in html
    assert "/cmbagent/files/run/steps/01-fit/cells/attempt-2.py" in html
    assert "Report findings" in html and "the summary states 7.31" in html


def test_report_links_point_at_the_session_route(tmp_path: Path) -> None:
    run_dir = tmp_path / "r1"
    run_dir.mkdir()
    (run_dir / "report.md").write_text(
        "![fit](figures/a.png) [cell](steps/01/cells/a.py) [web](https://example.org) [up](../../etc/passwd)"
    )
    text = render_report("r1", run_dir)
    assert "](/cmbagent/files/r1/figures/a.png)" in text
    assert "](/cmbagent/files/r1/steps/01/cells/a.py)" in text
    assert "](https://example.org)" in text
    assert "/cmbagent/files/r1/../" not in text
    assert json.dumps(text)  # plain text, ready for the Markdown component


def test_status_shows_the_queue_place_and_errors() -> None:
    view = RunView(run_id="r1", title="Fit")
    html = render_status(view, state="queued", queue_position=3)
    assert "place 3 in the queue" in html and 'data-state="queued"' in html
    html = render_status(view, state="error", error="TaskError: <name a method>")
    assert "TaskError: &lt;name a method&gt;" in html


def test_a_running_cell_shows_its_heartbeat_until_it_finishes(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    log = _log(run_dir)
    log.emit("run_started", task="Fit", model="offline", run_dir=str(run_dir), resumed=False)
    log.emit("step_started", step_id="s1", title="Fit", agent="method_operator", attempt=1)
    log.emit("cell_heartbeat", step_id="s1", attempt=1, elapsed_s=95.0, last_line="<chain> step 4000")
    view, tail = RunView(), EventTail(run_dir / "events.jsonl")
    for event in tail.read_new():
        view.apply(event)
    html = render_steps(view, run_dir)
    assert "cell running for 1 min 35 s" in html and "&lt;chain&gt; step 4000" in html
    log.emit("cell_executed", step_id="s1", attempt=1, cell=None, status="ok", duration_s=96.0, stdout_tail="",
             error=None, images=[])
    for event in tail.read_new():
        view.apply(event)
    assert "cell running for" not in render_steps(view, run_dir)


def test_a_figure_written_again_gets_a_new_address_so_the_browser_fetches_it_again(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    _log(run_dir)
    figures = run_dir / "figures" / "02-plot"
    figures.mkdir(parents=True)
    png = figures / "residuals.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n")  # listed while the cell is still writing it: only the signature so far
    view = RunView(run_id="run")
    half = render_gallery(view, run_dir)
    assert "/cmbagent/files/run/figures/02-plot/residuals.png?v=8-" in half
    assert render_gallery(view, run_dir) == half  # nothing changed: the same HTML, so the page is not redrawn
    with open(png, "ab") as handle:
        handle.write(b"\x00" * 120)
    whole = render_gallery(view, run_dir)
    assert whole != half and "residuals.png?v=128-" in whole
