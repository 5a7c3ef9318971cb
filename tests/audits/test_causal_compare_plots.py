"""causal.no_overlap, method.loses_to_baseline, plot.unreadable (figures probed as they are saved)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cmbagent.audits import audit_step
from cmbagent.sandbox import FIGURE_LOG, InMemoryExecutor
from tests.audits._evidence import audit, codes, evidence


def test_propensities_outside_the_band_and_a_separating_covariate() -> None:
    assert codes(audit(method="causal.dml_ate", diagnostics={"overlap": {"band": [0.01, 0.99], "share_outside": 0.2}},
                       values={"ate": {"mean": 1.0, "std": 0.1}})) == ["causal.no_overlap"]
    ate = {"ate": {"mean": 1.0, "std": 0.1}}
    (f,) = audit(method="causal.dml_ate", values=ate, diagnostics={"overlap": {"share_outside": 0.0,
                                                                               "covariate_auc": {"age": 0.62, "inc": 1.0}}})
    assert f.severity == "error" and "'inc'" in f.message
    assert audit(method="causal.dml_ate", values=ate, diagnostics={"overlap": {"share_outside": 0.01,
                                                                               "covariate_auc": {"age": 0.6}}}) == []


CARDIO = {"wsad_dt": {"auc_roc": 0.912, "auc_pr": 0.709}, "iforest": {"auc_roc": 0.93, "auc_pr": 0.655},
          "xgbod": {"auc_roc": 0.95, "auc_pr": 0.798}, "devnet": {"auc_roc": 0.94, "auc_pr": 0.794}, "n_test": 550}


def test_the_papers_method_below_its_baselines_is_stated() -> None:
    declared = {"comparison": {"method": "wsad_dt", "baselines": ["iforest", "xgbod", "devnet"],
                               "metrics": ["auc_pr", "auc_roc"]}}
    found = audit(method="anomaly.wsad_dt", values=CARDIO, diagnostics=declared)
    assert [(f.code, f.severity) for f in found] == [("method.loses_to_baseline", "note")] * 2
    pr, roc = found
    assert "best on AUC-PR: xgbod" in pr.message and "rank 3 of the 4 methods" in pr.message
    assert "the lowest" in roc.message  # cardio: WSAD-DT has the lowest AUC-ROC of the four
    winning = {**CARDIO, "wsad_dt": {"auc_roc": 0.99, "auc_pr": 0.9}}
    assert audit(method="anomaly.wsad_dt", values=winning, diagnostics=declared) == []


def test_lower_is_better_metrics_are_compared_the_right_way() -> None:
    values = {"number_token_loss": {"mae": 7.6}, "ce": {"mae": 10.4}}
    assert audit(method="lm.number_token_loss", values=values) == []
    assert codes(audit(method="lm.number_token_loss", values={**values, "ce": {"mae": 5.0}})) == \
        ["method.loses_to_baseline"]


FIGURES = """
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.plot([1, 2, 3], [1, 4, 9]); ax.plot([1, 2, 3], [2, 3, 4])
fig.savefig("figures/bad.png"); plt.close(fig)
fig, (a, b) = plt.subplots(1, 2)
a.plot([1, 2, 3], [1, 4, 9], label="data"); a.plot([1, 2, 3], [2, 3, 4], label="model"); a.legend()
a.set_xlabel("z"); a.set_ylabel("mu [mag]")
b.errorbar([0.3, 0.7], [0, 1], xerr=[0.1, 0.1], fmt="o"); b.set_yticks([0, 1], ["naive", "DML"])
b.set_xlabel("effect")
fig.savefig("figures/good.png"); plt.close(fig)
fig, (c, d) = plt.subplots(1, 2)
c.hist([1, 2, 2, 3]); c.set_xlabel("x"); c.set_ylabel("count")
fig.savefig("figures/empty_panel"); plt.close(fig)
"""


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("run")
    (run / "figures").mkdir()
    result = InMemoryExecutor(run).execute(FIGURES)
    assert result.ok, result.traceback
    return run


def test_the_probe_records_figures_when_they_are_saved(probed: Path) -> None:
    lines = [json.loads(line) for line in (probed / FIGURE_LOG).read_text().splitlines()]
    assert [os.path.basename(r["path"]) for r in lines] == ["bad.png", "good.png", "empty_panel.png"]
    assert lines[0]["axes"][0]["series"] == 2 and not lines[0]["axes"][0]["legend"]


@pytest.mark.parametrize(("figure", "problems"), [
    ("figures/bad.png", ["has no x-axis label", "has no y-axis label", "shows 2 series without a legend"]),
    ("figures/good.png", []),
    ("figures/empty_panel.png", ["panel 2 is empty"]),
])
def test_unreadable_figures(probed: Path, figure: str, problems: list[str]) -> None:
    from cmbagent.audits._evidence import figure_records

    found = audit_step(evidence(run_dir=probed, figures=[figure], figure_records=figure_records(probed, [figure]))).findings
    if not problems:
        assert found == []
        return
    (f,) = found
    assert f.code == "plot.unreadable" and f.severity == "warning"
    assert all(any(p in q for q in f.evidence["problems"]) for p in problems), f.evidence["problems"]


def test_a_missing_figure_is_a_note_not_a_crash(probed: Path) -> None:
    (f,) = audit_step(evidence(run_dir=probed, figures=["figures/never_written.png"])).findings
    assert (f.code, f.severity) == ("audit.failed", "note") and "does not exist" in f.message


def test_one_legend_serves_every_panel_of_a_figure() -> None:
    from cmbagent.audits._plots import figure_problems

    panel = {"xlabel": "step", "ylabel": "accuracy", "x_ticklabels": True, "y_ticklabels": True, "series": 3,
             "drawn": True, "legend": False}
    assert figure_problems({"axes": [{**panel, "legend": True}, panel, panel]}) == []
    assert figure_problems({"axes": [panel, panel]}) == ["panel 1 shows 3 series without a legend",
                                                         "panel 2 shows 3 series without a legend"]
