"""The user's own partial labels: 1 for confirmed anomalies, 0 for rows confirmed normal, blank for rows nobody
checked.  Before, a blank label was an error ("labels are NaN"), so the commonest weak supervision outside a
benchmark (a few inspected machines, the rest never looked at) could not be run at all."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cmbagent.audits._compare import loses_to_baseline
from cmbagent.audits._evidence import StepEvidence
from cmbagent.exceptions import DataError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.anomaly import load_anomaly_data, load_anomaly_rows
from tests.methods.anomaly._data import blobs

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::UserWarning")
FAST = {"epochs": 30, "n_estimators": 2}


def _inspected(tmp_path: Path, n_known: int = 6) -> tuple[Path, np.ndarray, np.ndarray]:
    """600 pumps, 30 of them failing; ``n_known`` failing and 60 sound ones were inspected, the rest are blank."""
    X, y = blobs(570, 30, d=5, seed=11)
    rng = np.random.default_rng(4)
    inspected = np.full(y.size, np.nan)
    known = rng.choice(np.flatnonzero(y == 1), n_known, replace=False)
    sound = rng.choice(np.flatnonzero(y == 0), 60, replace=False)
    inspected[known], inspected[sound] = 1, 0
    frame = pd.DataFrame(X.round(4), columns=[f"vib_{i}" for i in range(5)])
    frame["inspected"] = inspected
    path = tmp_path / "pumps.csv"
    frame.to_csv(path, index=False)
    return path, y, inspected


def test_blank_labels_are_rows_nobody_checked(tmp_path: Path) -> None:
    path, _, inspected = _inspected(tmp_path)
    X, y, names = load_anomaly_data(path, "inspected")
    assert "inspected" not in names and X.shape == (600, 5)
    assert y is not None and np.isnan(y).sum() == np.isnan(inspected).sum() == 534
    np.testing.assert_array_equal(y[~np.isnan(y)], inspected[~np.isnan(inspected)])


@pytest.mark.slow
def test_the_unchecked_rows_are_ranked_and_the_ranking_is_validated(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path, truth, inspected = _inspected(tmp_path)
    result = run_method("anomaly.wsad_dt", {"data": str(path), "label": "inspected", **FAST})
    values = result.values
    assert (values["n_confirmed_anomalies"], values["n_confirmed_normal"], values["n_unchecked"]) == (6, 60, 534)
    assert result.summary.startswith("Your labels in pumps") and "unchecked" in result.summary
    # the failing pumps nobody checked (24 of 534, 4.5%) are well ahead in the ranking of the unchecked rows
    scores = pd.read_csv(next(Path(a) for a in result.artifacts if a.endswith("_scores.csv")))
    assert len(scores) == 600 and set(scores["checked"]) == {"unchecked", "anomaly", "normal"}
    unchecked = scores[scores["checked"] == "unchecked"]["row"].to_numpy()
    assert set(unchecked) == set(np.flatnonzero(np.isnan(inspected)))
    assert truth[unchecked[:24]].mean() >= 0.3, truth[unchecked[:24]]
    assert values["top_unchecked_rows"] == unchecked[:10].tolist()
    # validation on a hidden third of the confirmed anomalies, beside IsolationForest without labels
    validation = values["validation"]
    assert validation["n_hidden"] == 2 and validation["median_percentile"] > 0.8
    assert 0.0 <= validation["median_percentile_iforest"] <= 1.0
    assert validation["auc_vs_confirmed_normal"] is not None
    check = next(c for c in result.checks if c.name == "hidden_anomalies_found")
    assert check.passed and "IsolationForest" in check.message
    # a short training ranks them lower than IsolationForest does without labels: the comparison is declared,
    # so the audit states it in the report
    assert result.diagnostics["comparison"] == {"method": "wsad_dt", "baselines": ["iforest"],
                                                "metrics": ["hidden_median_percentile", "auc_vs_confirmed_normal"]}
    found = list(loses_to_baseline(StepEvidence(step_id="s2", method="anomaly.wsad_dt", values=values,
                                                diagnostics=result.diagnostics)))
    assert values["iforest"]["hidden_median_percentile"] > values["wsad_dt"]["hidden_median_percentile"]
    assert [f.code for f in found][:1] == ["method.loses_to_baseline"] and "iforest" in found[0].message


def test_as_many_rows_are_listed_as_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"List the 25 most suspicious hours": the result lists ``n_listed`` unchecked rows, in the score file's order
    (it listed ten whatever was asked, and the run said done); a count below one says what to give."""
    monkeypatch.chdir(tmp_path)
    path, _, _ = _inspected(tmp_path)
    result = run_method("anomaly.wsad_dt", {"data": str(path), "label": "inspected", "n_listed": 25,
                                            "epochs": 5, "n_estimators": 2})
    scores = pd.read_csv(next(Path(a) for a in result.artifacts if a.endswith("_scores.csv")))
    unchecked = scores[scores["checked"] == "unchecked"]["row"].to_numpy()
    assert result.values["top_unchecked_rows"] == unchecked[:25].tolist()
    assert len(result.values["top_unchecked_scores"]) == 25
    with pytest.raises(Exception, match="n_listed must be at least 1"):
        run_method("anomaly.wsad_dt", {"data": str(path), "label": "inspected", "n_listed": 0})


def test_labels_that_cannot_be_read_say_what_to_write(tmp_path: Path) -> None:
    path, _, inspected = _inspected(tmp_path)
    frame = pd.read_csv(path)
    frame["inspected"] = np.where(np.isnan(inspected), -1, inspected)  # -1 for "unknown": not a label we read
    frame.to_csv(tmp_path / "minus.csv", index=False)
    with pytest.raises(DataError, match="blank where nobody checked; found values \\[-1"):
        load_anomaly_data(tmp_path / "minus.csv", "inspected")
    frame["inspected"] = np.where(inspected == 1, np.nan, inspected)  # only sound pumps confirmed
    frame.to_csv(tmp_path / "no_failures.csv", index=False)
    with pytest.raises(DataError, match="no row is marked 1"):
        run_method("anomaly.wsad_dt", {"data": str(tmp_path / "no_failures.csv"), "label": "inspected",
                                       "output_dir": str(tmp_path / "out"), **FAST})


def test_a_column_that_names_the_rows_is_no_feature_and_names_the_listing(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """"T001", "T002", … in a text column: the run stopped on "non-numeric feature columns ['turbine']", though
    the column only names the rows. It is no feature now, and the ranking is listed by those names."""
    monkeypatch.chdir(tmp_path)
    path, _, _ = _inspected(tmp_path)
    frame = pd.read_csv(path)
    frame.insert(0, "pump", [f"P-{i:03d}" for i in range(len(frame))])
    frame.to_csv(path, index=False)
    X, _, names, rows = load_anomaly_rows(path, "inspected")
    assert X.shape == (600, 5) and "pump" not in names and rows is not None and rows[:2] == ["P-000", "P-001"]
    result = run_method("anomaly.wsad_dt", {"data": str(path), "label": "inspected", "n_listed": 6,
                                            "epochs": 5, "n_estimators": 2})
    listed = result.values["top_unchecked_names"]
    assert listed == [f"P-{r:03d}" for r in result.values["top_unchecked_rows"]] and len(listed) == 6
    assert listed[0] in result.summary
    scores = pd.read_csv(next(Path(a) for a in result.artifacts if a.endswith("_scores.csv")))
    assert list(scores.columns) == ["row", "name", "score", "checked"]
    assert (scores["name"] == [f"P-{r:03d}" for r in scores["row"]]).all()
    # a second text column that names nothing is still an error that says what to do
    frame["site"] = ["north" if i % 2 else "south" for i in range(len(frame))]
    frame.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"non-numeric feature columns \['site'\]"):
        load_anomaly_rows(path, "inspected")
