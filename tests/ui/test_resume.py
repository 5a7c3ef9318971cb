"""The Runs page: a run whose process was killed shows as interrupted, and Resume finishes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cmbagent.ui._sessions import SessionStore
from tests.ui.conftest import Example

pytestmark = [pytest.mark.slow]


def _events(run_dir: Path) -> list[dict[str, Any]]:
    path = run_dir / "events.jsonl"
    if not path.is_file():
        return []
    return [
        json.loads(line)
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip().endswith("}")
    ]


def test_an_interrupted_run_is_listed_and_resumed(
    serve_app: Any, new_page: Any, supernova_example: Example, artifacts: Path, tmp_path: Path
) -> None:
    served = serve_app()
    _, page, requests = new_page()
    page.goto(served.url)
    page.locator(".cmb-session").wait_for()
    token = (page.locator(".cmb-session a").get_attribute("href") or "").split("session=", 1)[1]
    run_dir = SessionStore(served.workspaces).session(token).root / "20990101-000000-supernova-killed"

    # a run of this session, started outside the server and killed with SIGKILL in its second step
    log = open(tmp_path / "solve.log", "wb")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cmbagent",
            "solve",
            str(supernova_example.task),
            "--run-dir",
            str(run_dir),
            "--model",
            "offline",
            "--sandbox",
            os.environ.get("CMBAGENT_TEST_SANDBOX", "auto"),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 120
        while not any(
            e["type"] == "step_started" and e["data"].get("step_id") == "s2" for e in _events(run_dir)
        ):
            assert process.poll() is None, (tmp_path / "solve.log").read_text(errors="replace")[-2000:]
            assert time.monotonic() < deadline, "the run never reached its second step"
            time.sleep(0.1)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        log.close()
    assert json.loads((run_dir / "run.json").read_text())["status"] == "running"  # killed mid-run

    page.get_by_role("tab", name="Runs").click()
    page.locator("#cmb-refresh").click()
    page.locator("#cmb-runs", has_text="interrupted").wait_for(timeout=30_000)
    page.screenshot(path=str(artifacts / "30-runs-interrupted.png"), full_page=True)
    page.locator("#cmb-resume").click()

    page.locator(f".cmb-status[data-run='{run_dir.name}']").wait_for(timeout=30_000)
    page.locator("#cmb-report h1").first.wait_for(timeout=180_000)
    page.locator(".cmb-status[data-state='done']").wait_for(timeout=30_000)
    page.screenshot(path=str(artifacts / "31-resumed-done.png"), full_page=True)

    events = _events(run_dir)
    resumed_at = next(
        i for i, e in enumerate(events) if e["type"] == "run_started" and e["data"].get("resumed")
    )
    after = events[resumed_at:]
    assert not any(
        e["type"] == "step_started" and e["data"].get("step_id") == "s1" for e in after
    )  # s1 not redone
    assert any(e["type"] == "run_finished" and e["data"]["status"] == "done" for e in after)
    assert requests.outside() == []
