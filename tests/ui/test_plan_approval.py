"""Plan approval from the browser: upload a task.md and its data, edit a step of the plan, approve.

Also: the page can be closed while the run goes on, and the session link brings the run back in another
browser context.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import Example

pytestmark = [pytest.mark.slow]

expect = pytest.importorskip(
    "playwright.sync_api",
    reason="playwright is not installed: `pip install playwright` (never `playwright install`)",
).expect

EDITED_TITLE = "Inspect the Pantheon+ table"


def test_edit_a_step_then_approve_and_return_with_the_session_link(
    serve_app: Any, new_page: Any, supernova_example: Example, artifacts: Path
) -> None:
    served = serve_app()
    _, page, requests = new_page()
    page.goto(served.url)
    page.locator(".cmb-session").wait_for()
    session_link = page.locator(".cmb-session a").get_attribute("href")
    assert session_link and session_link.startswith("?session=")

    page.locator("#cmb-settings").click()
    page.locator("#cmb-approve-plan input").check()
    files = [supernova_example.task, *supernova_example.data]
    page.locator("#cmb-files input[type=file]").set_input_files([str(f) for f in files])
    for path in files:  # the list may show a long name as stem and extension apart: match the stem
        page.locator("#cmb-files tr", has_text=path.stem).first.wait_for(state="attached", timeout=60_000)
    page.screenshot(path=str(artifacts / "09-attached.png"))
    page.locator("#cmb-task textarea").fill("Report the uncertainty of Omega_m as well.")
    page.locator("#cmb-send").click()

    # the run stops at the plan and asks: the plan is shown as an editable table
    approve = page.locator("#cmb-approve")
    approve.wait_for(state="visible", timeout=90_000)
    page.locator(".cmb-status[data-state='awaiting_approval']").wait_for(timeout=30_000)
    run_id = page.locator(".cmb-status").get_attribute("data-run")
    assert run_id
    run_dir = next(served.workspaces.glob(f"ui/*/{run_id}"))
    # the uploads went into the run (the data next to the task, as its front matter names it), nowhere else
    assert sorted(p.name for p in (run_dir / "data").rglob("*") if p.is_file()) == sorted(
        d.name for d in supernova_example.data
    )
    assert not (run_dir.parent / ".staging" / run_id).exists() or not any(
        (run_dir.parent / ".staging" / run_id).rglob("*.dat")
    )
    assert "Report the uncertainty of Omega_m" in (run_dir / "task.md").read_text(encoding="utf-8")
    page.screenshot(path=str(artifacts / "10-awaiting-approval.png"), full_page=True)

    # edit the first step's title in the table, then approve
    cell = page.locator("#cmb-plan-table [data-testid='cell-0-1']").first
    for _ in range(3):  # a loaded machine may miss the first double-click; the table must show the edit
        cell.dblclick()
        editor = cell.locator("textarea, input").first
        try:
            editor.wait_for(timeout=5_000)
        except Exception:
            continue
        editor.fill(EDITED_TITLE)
        editor.press("Enter")
        try:
            expect(cell).to_contain_text(EDITED_TITLE, timeout=5_000)
            break
        except AssertionError:
            continue
    expect(cell).to_contain_text(EDITED_TITLE)
    # typing the comment moves the focus off the table, which commits the edit to the table's value
    page.locator("#cmb-comment textarea").fill("Call the first step by what it reads.")
    page.wait_for_timeout(1_000)
    page.screenshot(path=str(artifacts / "11-plan-edited.png"), full_page=True)
    approve.click()

    page.locator(".cmb-approved").wait_for(timeout=60_000)
    assert "person (edited)" in page.locator(".cmb-approved").inner_text()
    page.locator(".cmb-step", has_text=EDITED_TITLE).first.wait_for(timeout=30_000)
    plan = json.loads((run_dir / "plan.json").read_text(encoding="utf-8"))
    assert plan["steps"][0]["title"] == EDITED_TITLE
    assert plan["steps"][1]["method"]["name"] == "cosmology.fit_supernovae"  # fields the table hides are kept
    approved = [
        json.loads(line)
        for line in (run_dir / "events.jsonl").read_text().splitlines()
        if '"plan_approved"' in line
    ]
    assert approved and approved[-1]["data"]["by"] == "person" and approved[-1]["data"]["edited"] is True
    assert approved[-1]["data"]["comment"] == "Call the first step by what it reads."
    assert requests.outside() == [], requests.outside()

    # close the tab: the run goes on; the session link opens it in another browser context
    page.close()
    _, page2, requests2 = new_page()
    page2.goto(served.url + session_link)
    page2.locator("#cmb-adopt").click()  # a session link asks before it switches the browser's session
    page2.locator(".cmb-session").wait_for()
    page2.locator(f".cmb-status[data-run='{run_id}']").wait_for(timeout=30_000)
    page2.locator("#cmb-report h1").first.wait_for(timeout=180_000)
    page2.locator(".cmb-status[data-state='done']").wait_for(timeout=30_000)
    assert EDITED_TITLE in page2.locator("#cmb-steps").inner_text()
    page2.screenshot(path=str(artifacts / "12-returned-with-session-link.png"), full_page=True)
    # the session link was adopted by a cookie and removed from the address bar
    assert "session=" not in page2.url
    assert requests2.outside() == [], requests2.outside()
    # the uploads are gone from Gradio's upload folder (they live only in the run now)
    leftovers = [p for p in Path(os.environ["GRADIO_TEMP_DIR"]).rglob("*.dat")]
    assert leftovers == []
