"""The pathology suite: complete offline tasks, each planted with one mistake a referee would stop, and clean
tasks beside them.  Every pathology must raise its code; no clean task may raise an ``error`` finding.

Each task runs end to end (plan, cells in an in-memory executor, critics, report) with the offline backend;
tasks whose mistake is a model's (a cell, a narrative) script only that agent (``_scripts.py``).  The data are
made once per test module from the data the examples ship (``_data.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pathologies._data import build
from tests.pathologies._harness import Case, cases, run_case

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning",
                                                            "ignore::RuntimeWarning")]

CASES = cases()


@pytest.fixture(scope="module")
def suite_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("pathology-data"))


def test_the_suite_has_twelve_pathologies_and_six_clean_tasks() -> None:
    pathologies = [c for c in CASES if c.expect]
    assert len(pathologies) >= 12 and len(CASES) - len(pathologies) >= 6
    assert len({c.expect for c in pathologies}) >= 12  # distinct codes, not one code twelve times


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_task(case: Case, suite_data: Path, tmp_path: Path) -> None:
    missing = [n for n in case.needs if not (suite_data / n).is_file()]
    if missing:
        pytest.fail(f"the suite's data lacks {missing}: tests/pathologies/_data.py must write it")
    outcome = run_case(case, suite_data, tmp_path)
    listed = [(f["severity"], f["code"], f["step_id"], f["message"][:160]) for f in outcome.findings]
    if case.expect is None:
        assert outcome.errors == [], listed
        assert outcome.status == "done", (outcome.status, listed)
        return
    assert case.expect in outcome.codes, listed
    # the same finding is in the event stream and near the top of the report, linked to its step
    assert case.expect in {e["data"]["code"] for e in outcome.events}
    top = outcome.report.split("## Key numbers")[0]
    assert "## Findings" in top and f"`{case.expect}`" in top, outcome.report[:3000]


def test_critics_that_reject_without_reasons_do_not_stop_a_method_step(suite_data: Path, tmp_path: Path) -> None:
    """The rejections a tiny local model gives (well formed, about nothing in the result) are set aside: the
    fit is done with its numbers, the critics' error finding is kept as a warning, and the report says why."""
    case = next(c for c in CASES if c.name == "critic_unsupported")
    outcome = run_case(case, suite_data, tmp_path)
    listed = [(f["severity"], f["code"], f["message"][:160]) for f in outcome.findings]
    assert outcome.status == "done" and outcome.errors == [], listed
    set_aside = [f for f in outcome.findings if f["code"] == "critic.unsupported"]
    assert {f["source"] for f in set_aside} == {"step_critic", "science_checker"}
    assert all(f["severity"] == "warning" and "'c1'" in f["message"] for f in set_aside)
    # their finding (the same one twice, recorded once) is quoted in the first one's warning, not counted
    assert "error: cmbagent_result" in next(f["message"] for f in set_aside if f["source"] == "step_critic")
    assert not [f for f in outcome.findings if f["code"] == "cmbagent_result"]
    assert "Omega_m" in outcome.report and "named nothing of its result" in outcome.report
    # one attempt: nothing was retried on the strength of those rejections
    attempts = {e["data"].get("attempt") for e in outcome.events}
    assert attempts <= {1, None}, attempts
