"""The report has one home (:mod:`cmbagent.report`): the graph's report node, the run session and
``cmbagent report`` render a real run's report.md from the same pieces, byte for byte.

One offline run of ``examples/supernova.md`` (about 10 s on two busy cores): its report as the graph left it,
as ``cmbagent report`` renders it again from run.json, and as the session's writer renders it from the final
checkpointed state; then the report of the same run had it broken at the end (code's narrative), which
``cmbagent report`` renders again unchanged.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.api import solve
from cmbagent.cli import app
from cmbagent.planner import RunState
from cmbagent.report import (
    ReportView,
    audit_facts,
    final_status,
    requirement_checks,
    write_report,
)
from cmbagent.run import RunFolder
from cmbagent.session import RunSession
from cmbagent.state import RunStatus

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One offline run of the supernova example (each test works on a copy)."""
    ws = tmp_path_factory.mktemp("ws")
    result = solve(ROOT / "examples" / "supernova.md", workspace=ws, model="offline", sandbox="process")
    assert result.status == "done", result.error
    return result.run_dir


@pytest.fixture
def run(finished: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(finished, tmp_path / finished.name, symlinks=True))


def _rerendered(run: Path) -> bytes:
    (run / "report.md").unlink()
    result = CliRunner().invoke(app, ["report", str(run)])
    assert result.exit_code == 0, result.output
    return (run / "report.md").read_bytes()


def _final_state(run: Path) -> RunState:
    session = RunSession.open(run)
    try:
        return RunState.model_validate(dict(session.snapshot().values))
    finally:
        session.close()


def test_graph_session_and_cmbagent_report_render_one_report(run: Path) -> None:
    by_graph = (run / "report.md").read_bytes()
    assert b"## Key numbers" in by_graph and b"| Omega_m |" in by_graph and b"## Task requirements" in by_graph

    assert _rerendered(run) == by_graph

    # what the report node stored is what the report's home establishes from the run as it stands
    folder = RunFolder(run)
    state = _final_state(run)
    view = ReportView.model_validate(json.loads((run / "run.json").read_text())["report_inputs"])
    assert state.report is not None and view.draft == state.report.draft
    assert view.facts == audit_facts(folder) and view.facts.inputs
    checks = requirement_checks(folder, state, view.draft)
    assert checks == view.requirements and checks
    assert final_status(RunStatus.DONE, "", checks) == (RunStatus.DONE, "")

    # the session's writer, given the final state, renders the same bytes
    (run / "report.md").unlink()
    assert write_report(folder, state, costs=view.costs) == folder.report
    assert folder.report.read_bytes() == by_graph


def test_a_run_that_broke_gets_codes_report_and_cmbagent_report_keeps_it(run: Path) -> None:
    folder = RunFolder(run)
    state = _final_state(run)
    write_report(folder, state, costs={}, error="StorageError: the disk is full", requirements=state.report.requirements
                 if state.report else [])
    broken = folder.report.read_text(encoding="utf-8")
    assert "status **failed**" in broken and "> Stopped early: StorageError: the disk is full" in broken
    assert "The run ended with status 'failed' after 3 completed step(s). Key numbers: " in broken
    assert "Omega_m = 0.35" in broken.split("## Findings", 1)[0]  # code's summary states the key numbers
    assert "Reproducible:" not in broken  # no auditor was asked
    assert _rerendered(run) == broken.encode("utf-8")
