"""Class stability: exact for linear models, a sound line search otherwise, and the width sweep."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.neighbors import KNeighborsClassifier

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.robustness import estimate_stability, linear_stability
from cmbagent.tools.methods.robustness.class_stability import norm_tracks_accuracy


def _two_class(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(-1.5, 1.0, (150, 2)), rng.normal(1.5, 1.0, (150, 2))])
    return X, np.r_[np.zeros(150, int), np.ones(150, int)]


def test_exact_value_for_a_linear_classifier_matches_the_closed_form() -> None:
    X, y = _two_class()
    clf = LogisticRegression().fit(X, y)
    est = estimate_stability(clf, X)
    w, b = clf.coef_[0], clf.intercept_[0]
    analytic = np.abs(X @ w + b) / np.linalg.norm(w)
    assert est.method == "exact_linear"
    np.testing.assert_allclose(est.distances, analytic, rtol=1e-12)
    np.testing.assert_array_equal(est.predicted, clf.predict(X))
    # Per class and overall summaries are means of the per-point distances.
    summary = est.summary()
    assert summary["overall"]["mean"] == pytest.approx(analytic.mean())
    assert summary["per_class"]["1"]["mean"] == pytest.approx(analytic[clf.predict(X) == 1].mean())


def test_multiclass_linear_distance_is_the_nearest_pairwise_boundary() -> None:
    W = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0]])
    b = np.array([0.0, 0.0, -3.0])
    x = np.array([[2.0, 0.5], [-0.5, -1.0]])
    dist, k = linear_stability(W, b, x)
    # Point 0 is class 0; boundaries: vs class 1 at x1 = 0 (distance 2); vs class 2 where x1 = 2*x2 - 3.
    d02 = abs(2.0 - (2 * 0.5 - 3.0)) / np.linalg.norm(W[0] - W[2])
    assert k.tolist() == [0, 1]
    assert dist[0] == pytest.approx(min(2.0, d02))
    # Moving exactly that far along the worst direction changes the prediction; a hair less does not.
    normal = (W[0] - W[2]) / np.linalg.norm(W[0] - W[2]) if d02 < 2.0 else np.array([-1.0, 0.0])
    scores = lambda p: (p @ W.T + b).argmax()  # noqa: E731
    assert scores(x[0] - 0.999 * dist[0] * normal) == 0
    assert scores(x[0] - 1.001 * dist[0] * normal) != 0


def test_line_search_recovers_the_exact_linear_value_and_never_undershoots() -> None:
    X, y = _two_class(1)
    clf = LogisticRegression().fit(X, y)
    exact = estimate_stability(clf, X[:60]).distances
    searched = estimate_stability(clf, X[:60], n_directions=256, exact_if_linear=False, random_state=0)
    assert searched.method == "line_search"
    assert np.all(searched.distances >= exact - 1e-6)  # a search along directions can only overestimate
    np.testing.assert_allclose(searched.distances, exact, rtol=0.01, atol=1e-4)
    assert searched.stderr > 0


def test_line_search_on_a_nonlinear_classifier_has_error_bars_and_names_bad_input() -> None:
    X, y = _two_class(2)
    knn = KNeighborsClassifier(5).fit(X, y)
    est = estimate_stability(knn, X[:40], n_directions=32)
    s = est.summary()["overall"]
    assert s["lower_68"] < s["mean"] < s["upper_68"] and est.censored == 0
    with pytest.raises(DataError, match="NaN"):
        estimate_stability(knn, np.full((3, 2), np.nan))
    with pytest.raises(UserError, match="no predict"):
        estimate_stability(object(), X)


def test_width_sweep_stability_rises_and_norm_does_not_track_accuracy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_method("robustness.class_stability", {"experiment": "width_sweep", "seed": 0})
    v = result.values
    stability = [s["mean"] for s in v["stability"]]
    print(
        "widths",
        v["widths"],
        "stability",
        np.round(stability, 3),
        "test acc",
        np.round(v["test_accuracy"], 3),
        "spectral complexity",
        np.round(v["spectral_complexity"], 0),
    )
    assert all(a == 1.0 for a in v["train_accuracy"])  # every model interpolates the noisy labels
    assert stability[-1] > stability[0] + 2 * (v["stability"][0]["std"] + v["stability"][-1]["std"])
    assert v["norm_tracks_test_accuracy"] is False
    assert result.ok and Path(result.artifacts[0]).is_file()


def test_norm_tracking_rule() -> None:
    assert norm_tracks_accuracy([5.0, 3.0, 2.0], [0.7, 0.8, 0.9]) is True  # norm falls as accuracy rises
    assert norm_tracks_accuracy([5.0, 2.0, 4.0], [0.7, 0.8, 0.85]) is False  # norm rises, accuracy too


def test_tool_on_a_csv_with_exact_and_black_box_models(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    X, y = _two_class(3)
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "label": y}).to_csv(tmp_path / "d.csv", index=False)
    linear = run_method("robustness.class_stability", {"data": str(tmp_path / "d.csv"), "model": "logistic"})
    assert linear.values["method"] == "exact_linear" and linear.ok
    assert linear.values["line_search_check"] >= linear.values["stability"]["mean"] - 1e-9
    assert set(linear.values["per_class"]) == {"0", "1"}
    forest = run_method(
        "robustness.class_stability",
        {"data": str(tmp_path / "d.csv"), "model": "random_forest", "n_directions": 16, "max_points": 40},
    )
    assert forest.values["method"] == "line_search" and forest.values["stability"]["std"] > 0
    assert all(Path(p).is_file() for p in linear.artifacts + forest.artifacts)
    with pytest.raises(UserError, match="needs a data file"):
        run_method("robustness.class_stability", {})
    pd.DataFrame({"a": [1.0, 2.0], "label": [1, 1]}).to_csv(tmp_path / "one.csv", index=False)
    with pytest.raises(DataError, match="single class"):
        run_method("robustness.class_stability", {"data": str(tmp_path / "one.csv")})


def test_a_column_that_names_the_rows_is_no_feature(tmp_path: Path) -> None:
    """A table with a column of lot codes ("L-000", "L-001", …) stopped on "non-numeric feature columns": the codes
    name the rows. They are left out of the features now; another text column is still an error."""
    from cmbagent.tools.methods.robustness._io import load_table

    X, y = _two_class(3)
    frame = pd.DataFrame(X, columns=["hue", "chroma"])
    frame.insert(0, "lot", [f"L-{i:03d}" for i in range(len(frame))])
    frame["passed"] = y
    path = tmp_path / "lots.csv"
    frame.to_csv(path, index=False)
    features, labels, names = load_table(str(path), "passed")
    assert names == ["hue", "chroma"] and features.shape == (300, 2) and labels.sum() == 150
    frame["dyer"] = ["ann" if i % 3 else "bo" for i in range(len(frame))]
    frame.to_csv(path, index=False)
    with pytest.raises(DataError, match=r"non-numeric feature columns \['dyer'\]"):
        load_table(str(path), "passed")
