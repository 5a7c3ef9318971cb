"""The reproducibility verdict is code's where code knows it (``cmbagent.report.checked_audit``).

SmolLM2's auditor wrote "Reproducible: yes" and six findings "S.B.4178992129391394" into a report; a run with an
unseeded cell or no notebook is not reproducible whatever a model says, and a finding that is no sentence is
not one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.api import solve
from cmbagent.report import checked_audit
from cmbagent.state import AuditFacts, AuditReport
from tests.planner._support import brain

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_code_overrides_a_yes_that_the_facts_contradict() -> None:
    facts = AuditFacts(cells=["steps/01-a/cells/attempt-1.py"], unseeded_cells=["steps/01-a/cells/attempt-1.py"],
                       notebook=True)
    said = AuditReport(reproducible=True, findings=["S.B.4178992129391394", "S.B.4178992129391394",
                                                    "All inputs are hashed."])
    checked = checked_audit(said, facts)
    assert checked.reproducible is False
    assert checked.findings[0].startswith("code's check overrides the auditor's 'reproducible'")
    assert "steps/01-a/cells/attempt-1.py uses randomness without a visible seed" in checked.findings[0]
    assert checked.findings[1:] == ["All inputs are hashed."]
    assert checked_audit(said, facts.model_copy(update={"unseeded_cells": [], "notebook": False})).reproducible \
        is False


def test_the_auditor_may_still_say_no_where_code_found_nothing() -> None:
    facts = AuditFacts(cells=["c.py"], notebook=True)
    said = AuditReport(reproducible=False, findings=["The data download is not pinned to a version."])
    assert checked_audit(said, facts) == said
    assert checked_audit(AuditReport(reproducible=True), facts).reproducible is True


def test_the_report_says_codes_verdict(tmp_path: Path) -> None:
    from cmbagent.state import PlanDraft, StepDraft

    junk = AuditReport(reproducible=True, findings=["S.B.4178992129391394"] * 6)
    draft = PlanDraft(steps=[StepDraft(title="Part 1", goal="Write part one of the essay.", agent="researcher")])
    result = solve("Write one part.", workspace=tmp_path, model="scripted", n_reviews=0, sandbox="process",
                   models={"scripted": brain(planner=lambda r: draft, reproducibility_auditor=lambda r: junk)})
    assert result.status == "done", result.error
    report = (result.run_dir / "report.md").read_text()
    section = report.split("## Reproducibility", 1)[1].split("##", 1)[0]
    assert "S.B.4178992129391394" not in section
    assert "Reproducible: " in section
