"""Two people at once: neither sees the other's runs or files; no route serves a file outside one's own runs."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.ui.conftest import Example

pytestmark = [pytest.mark.slow]


def _submit_waiting_run(page: Any, url: str) -> None:
    """Submit the example with plan approval on: a real run that stops, cheaply, at its plan."""
    page.goto(url)
    page.locator(".cmb-session").wait_for()
    page.locator("#cmb-settings").click()
    page.locator("#cmb-approve-plan input").check()
    page.locator("#cmb-run-example").click()


def _waiting_run_id(page: Any) -> str:
    page.locator(".cmb-status[data-state='awaiting_approval']").wait_for(timeout=90_000)
    run_id = page.locator(".cmb-status").get_attribute("data-run")
    assert run_id
    return str(run_id)


def _runs_page_text(page: Any) -> str:
    page.get_by_role("tab", name="Runs").click()
    page.locator("#cmb-refresh").click()
    page.wait_for_timeout(800)
    return str(page.locator("#cmb-runs").inner_text())


def test_two_sessions_cannot_see_each_others_runs_or_files(
    serve_app: Any, new_page: Any, supernova_example: Example, artifacts: Path
) -> None:
    served = serve_app(max_concurrent_runs=2)
    ctx_a, page_a, requests_a = new_page()
    ctx_b, page_b, requests_b = new_page()
    _submit_waiting_run(page_a, served.url)  # both people start a run; the two run at once
    _submit_waiting_run(page_b, served.url)
    run_a, run_b = _waiting_run_id(page_a), _waiting_run_id(page_b)
    dir_a = next(served.workspaces.glob(f"ui/*/{run_a}"))
    dir_b = next(served.workspaces.glob(f"ui/*/{run_b}"))
    assert dir_a.parent != dir_b.parent  # one folder per browser session

    # the Runs page lists one's own runs only
    text_a, text_b = _runs_page_text(page_a), _runs_page_text(page_b)
    assert run_a in text_a and run_b not in text_a
    assert run_b in text_b and run_a not in text_b
    page_a.screenshot(path=str(artifacts / "20-runs-page-a.png"), full_page=True)
    page_b.screenshot(path=str(artifacts / "21-runs-page-b.png"), full_page=True)

    def status(context: Any, path: str) -> int:
        return int(context.request.get(served.url + path, max_redirects=0).status)

    # one's own files are served; the other's are not, under any spelling
    own = context_json = ctx_a.request.get(served.url + f"cmbagent/files/{run_a}/plan.json")
    assert own.status == 200 and json.loads(own.body())["steps"]
    del context_json
    assert status(ctx_b, f"cmbagent/files/{run_a}/plan.json") == 404
    assert status(ctx_b, f"cmbagent/download/{run_a}.zip") == 404
    key_a = dir_a.parent.name
    for path in (
        f"cmbagent/files/{run_b}/%2e%2e/%2e%2e/{key_a}/{run_a}/plan.json",
        f"cmbagent/files/{run_b}/..%2f..%2f{key_a}%2f{run_a}%2fplan.json",
        f"cmbagent/files/{run_b}/{dir_a}/plan.json".replace("//", "/"),
        f"cmbagent/files/{run_b}/%2Fetc%2Fpasswd",
        f"cmbagent/files/..%2f{key_a}/{run_a}/plan.json",
        "cmbagent/files/.staging/x",
    ):
        assert status(ctx_b, path) == 404, path
    # a link planted inside one's own run (say, by agent code) does not lead out of it
    (dir_b / "figures" / "leak.json").symlink_to(dir_a / "plan.json")
    (dir_b / "figures" / "passwd").symlink_to("/etc/passwd")
    assert status(ctx_b, f"cmbagent/files/{run_b}/figures/leak.json") == 404
    assert status(ctx_b, f"cmbagent/files/{run_b}/figures/passwd") == 404

    # Gradio's own file route serves nothing from the workspaces, nothing outside its cache, no remote URL
    for path in (
        f"gradio_api/file={dir_a / 'plan.json'}",
        f"gradio_api/file={dir_b / 'plan.json'}",
        "gradio_api/file=/etc/passwd",
        f"gradio_api/file={Path(__file__).resolve()}",
        "gradio_api/file=http://example.com/",
        "gradio_api/file=https://example.com/index.html",
    ):
        assert status(ctx_a, path) in (403, 404), path
        assert status(ctx_b, path) in (403, 404), path

    # a browser with no session sees nothing at all
    ctx_c, _, _ = new_page()
    assert status(ctx_c, f"cmbagent/files/{run_a}/plan.json") == 404
    assert status(ctx_c, f"cmbagent/download/{run_b}.zip") == 404

    # and the zip of one's own run holds no linked-in file
    import io
    import zipfile

    body = ctx_b.request.get(served.url + f"cmbagent/download/{run_b}.zip").body()
    names = zipfile.ZipFile(io.BytesIO(body)).namelist()
    assert f"{run_b}/plan.json" in names
    assert not any(name.endswith(("leak.json", "passwd")) for name in names)

    assert requests_a.outside() == [] and requests_b.outside() == []
    assert os.environ["GRADIO_ANALYTICS_ENABLED"] == "False"
