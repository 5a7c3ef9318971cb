"""X-hacking: a feature with a redundant proxy can be hidden, one without cannot; redundancy flags it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.robustness import XHackingSearch, make_proxy_data, vulnerability_scores

SEEDS = range(5)
TRIALS = 30  # per search (random and TPE), as in the measurements of the issue note


def _success_rate(rho: float) -> tuple[float, list[dict]]:
    outcomes, details = [], []
    for seed in SEEDS:
        X, y, names = make_proxy_data(1000, rho=rho, seed=seed)
        search = XHackingSearch(X, y, names, target=0, goal="hide", threshold=0.10, tolerance=0.02, seed=seed)
        for params in search.default_pipelines():
            search.evaluate(params, "default")
        reports = {
            "random": search.search_report(search.random_search(TRIALS)),
            "tpe": search.search_report(search.tpe_search(TRIALS)),
        }
        success = any(r["success"] for r in reports.values())
        outcomes.append(success)
        details.append(
            {
                "seed": seed,
                "success": success,
                "to_success": {k: r["evaluations_to_success"] for k, r in reports.items()},
                "spread": round(search.detection_report()["spread"], 3),
            }
        )
    return float(np.mean(outcomes)), details


@pytest.mark.slow
def test_a_feature_with_a_redundant_proxy_can_be_hidden() -> None:
    rate, details = _success_rate(0.95)
    print("rho=0.95 success", rate, details)
    assert rate >= 0.8


@pytest.mark.slow
def test_a_feature_without_a_proxy_cannot_be_hidden() -> None:
    rate, details = _success_rate(0.5)
    print("rho=0.5 success", rate, details)
    assert rate <= 0.2


def test_vulnerability_ranks_the_proxied_feature_highest() -> None:
    X, _, names = make_proxy_data(800, rho=0.95, seed=0)
    scores = vulnerability_scores(X)
    print(dict(zip(names, scores.round(3), strict=False)))
    # x0 and its proxy predict each other (R^2 ~ rho^2); the independent features are not redundant at all.
    assert scores[0] == pytest.approx(scores.max(), abs=0.02) and scores[0] > 0.85
    assert set(np.argsort(-scores)[:2]) == {0, 1}
    assert np.all(scores[2:] < 0.05)
    X_low, _, _ = make_proxy_data(800, rho=0.5, seed=0)
    assert vulnerability_scores(X_low)[0] < 0.35


def test_tool_reports_search_pipelines_and_detection(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    X, y, names = make_proxy_data(600, rho=0.95, seed=1)
    frame = pd.DataFrame(X, columns=names).assign(outcome=y)
    frame.to_csv(tmp_path / "proxy.csv", index=False)
    result = run_method(
        "robustness.x_hacking",
        {"data": str(tmp_path / "proxy.csv"), "target_feature": "x0", "n_trials": 12, "search": "both"},
    )
    v = result.values
    assert set(v["searches"]) == {"random", "tpe"}
    assert all(s["evaluations"] == 12 for s in v["searches"].values())
    assert v["success"] == any(s["success"] for s in v["searches"].values())
    assert (
        v["detection"]["n_defensible"] >= 1
        and 0 <= v["detection"]["share_min"] <= v["detection"]["share_max"] <= 1
    )
    assert max(v["vulnerability"], key=v["vulnerability"].get) in {"x0", "proxy"}
    if v["success"]:
        assert result.diagnostics["pipelines_found"][0]["target_share"] < 0.10
    assert Path(result.artifacts[0]).is_file() and result.ok


def test_bad_input_is_named(tmp_path: Path) -> None:
    X, y, names = make_proxy_data(100, seed=0)
    frame = pd.DataFrame(X, columns=names).assign(outcome=y)
    frame.to_csv(tmp_path / "ok.csv", index=False)
    with pytest.raises(UserError, match="target feature 'nope' does not exist"):
        run_method("robustness.x_hacking", {"data": str(tmp_path / "ok.csv"), "target_feature": "nope"})
    frame.assign(outcome=np.arange(100) % 3).to_csv(tmp_path / "three.csv", index=False)
    with pytest.raises(DataError, match="binary"):
        run_method("robustness.x_hacking", {"data": str(tmp_path / "three.csv"), "target_feature": "x0"})
    frame.assign(x2=np.where(np.arange(100) == 5, np.nan, frame["x2"])).to_csv(
        tmp_path / "nan.csv", index=False
    )
    with pytest.raises(DataError, match=r"NaN/inf feature values \(columns \['x2'\]\)"):
        run_method("robustness.x_hacking", {"data": str(tmp_path / "nan.csv"), "target_feature": "x0"})
    frame.assign(x3="text").to_csv(tmp_path / "text.csv", index=False)
    with pytest.raises(DataError, match="non-numeric"):
        run_method("robustness.x_hacking", {"data": str(tmp_path / "text.csv"), "target_feature": "x0"})
    with pytest.raises(UserError, match="threshold"):
        XHackingSearch(X, y, names, 0, threshold=1.5)
