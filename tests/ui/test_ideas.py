"""The Ideas tab from the browser: upload a task.md with its data, watch the idea maker and the idea hater's
rounds appear, then turn the best idea into a run that the Run tab follows to its report (offline model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cmbagent.ui._ideas import render_ideas
from tests.ideas.test_team import _task

pytestmark = [pytest.mark.slow]


def test_ideas_from_an_upload_become_a_run(serve_app: Any, new_page: Any, artifacts: Path, tmp_path: Path) -> None:
    task = _task(tmp_path)
    served = serve_app()
    _, page, requests = new_page()
    page.goto(served.url)
    page.locator(".cmb-session").wait_for()
    page.get_by_role("tab", name="Ideas").click()
    page.locator("#cmb-ideas-files input[type=file]").set_input_files([str(task), str(tmp_path / "trial.csv")])
    for name in ("task", "trial"):
        page.locator("#cmb-ideas-files tr", has_text=name).first.wait_for(state="attached", timeout=60_000)
    page.locator("#cmb-ideas-go").click()

    # the rounds stream in, then the ranking
    page.locator(".cmb-idea-round[data-agent='idea_maker']").first.wait_for(timeout=120_000)
    page.locator(".cmb-idea-round[data-agent='idea_hater']").first.wait_for(timeout=60_000)
    page.locator(".cmb-ideas-status[data-state='done']").wait_for(timeout=60_000)
    first = page.locator(".cmb-ideas-table tr[data-rank='1']")
    first.wait_for(timeout=30_000)
    assert "causal.dml_ate" in first.inner_text()
    page.screenshot(path=str(artifacts / "20-ideas.png"), full_page=True)
    (folder,) = list(served.workspaces.glob("ui/*/.ideas/*"))
    ranked = json.loads((folder / "ideas.json").read_text())["ideas"]
    assert len(ranked) >= 3 and all(r["idea"]["method"] == "causal.dml_ate" for r in ranked)

    # the idea becomes a run: the Run tab follows it to its report
    page.locator("#cmb-ideas-to-run").click()
    page.locator(".cmb-plan table").wait_for(timeout=90_000)
    assert "causal.dml_ate" in page.locator(".cmb-plan").inner_text()
    page.locator(".cmb-status[data-state='done']").wait_for(timeout=240_000)
    run_id = page.locator(".cmb-status").get_attribute("data-run")
    run_dir = next(served.workspaces.glob(f"ui/*/{run_id}"))
    assert run_dir.parent == folder.parent.parent  # a run of the same session, listed on the Runs page
    best = ranked[0]["idea"]
    written = (run_dir / "task.md").read_text()
    assert f"title: {best['title']}" in written
    changed = {k: v for k, v in best["arguments"].items() if k not in ("data", "outcome", "treatment", "covariates")}
    assert all(f"{k}: {v}" in written for k, v in changed.items() if isinstance(v, str)), written
    assert (run_dir / "report.md").is_file()
    assert requests.outside() == []


def test_the_view_escapes_what_models_wrote() -> None:
    rounds = [{"round": 1, "agent": "idea_maker", "ideas": {"ideas": [
        {"title": "<script>alert(1)</script>", "method": "m.x", "question": "<img src=x onerror=1>"}]}}]
    view = render_ideas(rounds, "running", None, {})
    assert "<script>" not in view and "<img" not in view and "&lt;script&gt;" in view
