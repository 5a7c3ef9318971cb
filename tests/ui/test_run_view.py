"""The supernova example, run offline from the browser: plan, streaming steps, figures, report, downloads.

One real ``solve`` run (offline model) per test; the browser is Debian's chromium driven by Playwright.
"""

from __future__ import annotations

import json
import re
import statistics
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import Example, grep_tree, random_secret

pytestmark = [pytest.mark.slow]


def _latencies(page: Any, events_path: Path) -> tuple[list[float], list[float]]:
    """Seconds from each event's write (its ``ts``) to the first screen state that includes it.

    Returns all events, and those written after the view first showed the run (the streaming case; the
    first few are written while the page is still asking for the run's view).
    """
    seen = page.evaluate("window.__cmbSeen")
    first_shown = min((t for t, seq in seen if seq >= 0), default=float("inf"))
    lines = events_path.read_text(encoding="utf-8").splitlines()
    everything, streaming = [], []
    for event in (json.loads(line) for line in lines if line.strip()):
        shown = [t for t, seq in seen if seq >= event["seq"]]
        if shown:
            everything.append(min(shown) - event["ts"])
            if event["ts"] > first_shown:
                streaming.append(min(shown) - event["ts"])
    return everything, streaming


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "median_s": round(statistics.median(ordered), 3),
        "p95_s": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
        "max_s": round(ordered[-1], 3),
        "n": len(ordered),
    }


def _omega_m_on_disk(run_dir: Path) -> float:
    for step_json in sorted(run_dir.glob("steps/*/step.json")):
        values = json.loads(step_json.read_text(encoding="utf-8")).get("values") or {}
        omega = values.get("Omega_m")
        if isinstance(omega, dict) and "mean" in omega:
            return float(omega["mean"])
    raise AssertionError(f"no step of {run_dir} recorded Omega_m")


def test_supernova_example_runs_live_in_the_browser(
    serve_app: Any, new_page: Any, supernova_example: Example, artifacts: Path, tmp_path: Path
) -> None:
    served = serve_app()
    _, page, requests = new_page()
    secret = random_secret()

    started = time.monotonic()
    page.goto(served.url)
    page.locator(".cmb-session").wait_for()
    page.locator("#cmb-run-example").wait_for(state="visible")
    interactive_s = time.monotonic() - started
    page.screenshot(path=str(artifacts / "01-start.png"))

    # a key typed into the settings: used for this run only, never stored
    page.locator("#cmb-settings").click()
    page.locator("#cmb-api-key input").fill(secret)
    page.locator("#cmb-run-example").click()

    page.locator(".cmb-plan table").wait_for(timeout=60_000)
    plan_text = page.locator(".cmb-plan").inner_text()
    assert "cosmology.fit_supernovae" in plan_text
    page.screenshot(path=str(artifacts / "02-plan.png"), full_page=True)

    # steps stream in: a step is shown running while a later one is still pending
    page.locator(".cmb-step-running").first.wait_for(timeout=60_000)
    assert page.locator(".cmb-step-pending, .cmb-step-running").count() >= 1
    page.screenshot(path=str(artifacts / "03-steps-streaming.png"), full_page=True)

    # code cells come collapsed and highlighted; one opened by hand stays open while the view keeps updating
    first_cell = page.locator("details.cmb-cell").first
    first_cell.wait_for(state="attached", timeout=120_000)
    assert first_cell.evaluate("el => el.open") is False
    assert first_cell.locator("pre span[style*='color']").count() > 0
    cell_id = first_cell.get_attribute("id")
    first_cell.locator("summary").click()

    # a figure, served by the session-checked route, actually loads
    figure = page.locator(".cmb-gallery img").first
    figure.wait_for(timeout=120_000)
    # the tiles load lazily, as a browser loads any lazy image: only once they are near the viewport, which a long
    # list of steps above the gallery can push it out of, so look at it as a user would
    figure.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.cmb-gallery img')].some(i => i.complete && i.naturalWidth > 0)",
        timeout=30_000,
    )

    # the final report, rendered, with the measured Omega_m
    page.locator("#cmb-report h1").first.wait_for(timeout=180_000)
    page.locator(".cmb-status[data-state='done']").wait_for(timeout=30_000)
    # the report's key-numbers table row for Omega_m (the task text quoted in the report has other numbers)
    row = page.locator(
        "#cmb-report tr", has=page.locator("td", has_text=re.compile(r"^\s*Omega_m\s*$"))
    ).first
    match = re.match(r"\s*([0-9.]+)\s*±\s*([0-9.]+)", row.locator("td").nth(1).inner_text())
    assert match, row.inner_text()
    run_id = page.locator(".cmb-status").get_attribute("data-run")
    assert run_id
    run_dir = next(served.workspaces.glob(f"ui/*/{run_id}"))
    omega_m = float(match.group(1))
    assert omega_m == pytest.approx(_omega_m_on_disk(run_dir), abs=6e-4)
    assert 0.2 < omega_m < 0.5
    assert page.locator(f"[id='{cell_id}']").evaluate("el => el.open") is True
    page.screenshot(path=str(artifacts / "04-report.png"), full_page=True)

    # downloads: the run folder as a zip, and the notebook
    with page.expect_download() as info:
        page.locator("[data-testid='download-zip']").click()
    archive = tmp_path / "run.zip"
    info.value.save_as(archive)
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        for required in ("report.md", "notebook.ipynb", "events.jsonl", "run.json", "plan.json", "task.md"):
            assert f"{run_id}/{required}" in names, sorted(names)[:40]
        assert any(re.match(rf"{re.escape(run_id)}/figures/.+\.png$", n) for n in names)
        assert any(re.match(rf"{re.escape(run_id)}/steps/[^/]+/cells/.+\.py$", n) for n in names)
        assert zipped.read(f"{run_id}/report.md") == (run_dir / "report.md").read_bytes()
    with page.expect_download() as info:
        page.locator("[data-testid='download-notebook']").click()
    notebook = tmp_path / "notebook.ipynb"
    info.value.save_as(notebook)
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    assert any(c["cell_type"] == "code" for c in cells)

    # the key typed into the page is nowhere on disk: not in the workspace, not in Gradio's upload folder
    assert grep_tree(served.workspaces, secret.encode()) == []
    assert grep_tree(Path(__import__("os").environ["GRADIO_TEMP_DIR"]), secret.encode()) == []

    # nothing left the machine
    assert requests.outside() == [], requests.outside()

    latencies, streaming = _latencies(page, run_dir / "events.jsonl")
    assert latencies and streaming, "no event was observed on screen"
    numbers = {
        "first_page_interactive_s": round(interactive_s, 3),
        "event_to_screen_all_events": _summary(latencies),
        "event_to_screen_while_streaming": _summary(streaming),
    }
    (artifacts / "performance.json").write_text(json.dumps(numbers, indent=2), encoding="utf-8")
    print("UI performance:", json.dumps(numbers))


def test_a_task_the_offline_backend_cannot_map_says_how_to_fix_it(
    serve_app: Any, new_page: Any, artifacts: Path
) -> None:
    served = serve_app()
    _, page, requests = new_page()
    page.goto(served.url)
    page.locator(".cmb-session").wait_for()
    page.locator("#cmb-task textarea").fill("Write me a poem about the sea.")
    page.locator("#cmb-task textarea").press("Enter")
    page.locator(".cmb-status[data-state='error']").wait_for(timeout=60_000)
    message = page.locator(".cmb-status div.cmb-error").inner_text()
    assert "offline backend" in message and "method" in message
    page.screenshot(path=str(artifacts / "05-offline-cannot-map.png"))
    assert requests.outside() == []
