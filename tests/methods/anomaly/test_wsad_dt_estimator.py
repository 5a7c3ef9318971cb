"""WSADDT follows the scikit-learn contract and really separates anomalies."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.preprocessing import MinMaxScaler

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods.anomaly import WSADDT, DevNet
from cmbagent.tools.methods.anomaly.wsad_dt import pick_device
from tests.methods.anomaly._data import blobs

FAST = {"epochs": 15, "n_estimators": 3, "batch_size": 64, "n_threads": 1}


def _weak(y: np.ndarray, n_labeled: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    partial = np.zeros_like(y)
    partial[rng.choice(np.flatnonzero(y == 1), n_labeled, replace=False)] = 1
    return partial


def test_init_stores_parameters_unmodified_and_fit_adds_underscore_attributes() -> None:
    model = WSADDT(hidden=(7, 5), epochs=3, random_state=11)
    assert model.hidden == (7, 5) and model.epochs == 3 and model.random_state == 11
    assert not any(k.endswith("_") for k in vars(model))
    X, y = blobs(200, 20)
    model.fit(MinMaxScaler().fit_transform(X), _weak(y, 5))
    fitted = {k for k in vars(model) if k.endswith("_")}
    assert {"weights_", "centroids_", "device_", "n_features_in_", "loss_curve_"} <= fitted
    assert model.get_params()["hidden"] == (7, 5)
    assert tuple(model.centroids_.shape) == (model.n_estimators, 2, model.latent_dim)


def test_scores_rank_unlabeled_anomalies_and_are_reproducible() -> None:
    X, y = blobs(seed=1)
    Xs = MinMaxScaler().fit_transform(X)
    partial = _weak(y, 5)
    a = WSADDT(random_state=3, **FAST).fit(Xs, partial)
    scores = a.decision_function(Xs)
    assert scores.shape == (len(y),) and np.all((scores >= 0) & (scores <= 1))
    hidden = partial == 0  # rows whose label the model never saw, incl. 35 unlabeled anomalies
    assert roc_auc_score(y[hidden], scores[hidden]) > 0.9
    assert set(np.unique(a.predict(Xs))) <= {0, 1}
    # The training loss falls: the dual-tailed objective is being optimised, not ignored.
    assert a.loss_curve_[-1] < a.loss_curve_[0]
    b = WSADDT(random_state=3, **FAST).fit(Xs, partial)
    np.testing.assert_allclose(b.decision_function(Xs), scores, rtol=1e-5, atol=1e-6)
    c = WSADDT(random_state=4, **FAST).fit(Xs, partial)
    assert not np.allclose(c.decision_function(Xs), scores)


def test_ensemble_members_see_disjoint_unlabeled_parts() -> None:
    X, y = blobs(300, 20)
    model = WSADDT(random_state=0, **FAST).fit(MinMaxScaler().fit_transform(X), _weak(y, 4))
    members = model.member_scores(X[:50])
    assert members.shape == (3, 50)
    # Members are trained on different data, so they disagree somewhat but agree on the ranking.
    assert not np.allclose(members[0], members[1])
    assert np.corrcoef(members[0], members[1])[0, 1] > 0.5


def test_heavy_tailed_kernel_decays_slower_than_light_tailed() -> None:
    import torch

    model = WSADDT()
    d2 = torch.tensor([0.0, 4.0, 25.0, 100.0])
    heavy = model._student_t(d2)
    light = torch.exp(-model.gamma_anomaly * d2)
    assert heavy[0] == light[0] == 1.0
    assert torch.all(heavy[1:] > light[1:])  # far from a centroid the Student-t keeps a gradient
    assert heavy[-1] / heavy[-2] > light[-1] / light[-2]


@pytest.mark.parametrize(
    ("X", "y", "match"),
    [
        (np.zeros((20, 3)), np.zeros(20), "no anomalies are labeled"),
        (np.zeros((20, 3)), np.ones(20), "every row is labeled as an anomaly"),
        (np.full((20, 3), np.nan), np.r_[np.ones(2), np.zeros(18)], "NaN"),
        (np.array([["a", "b"]] * 20), np.r_[np.ones(2), np.zeros(18)], "non-numeric"),
        (np.zeros((20, 3)), np.r_[np.ones(2), np.zeros(17)], "one label per row"),
        (np.zeros((20, 3)), np.r_[np.full(2, 2), np.zeros(18)], "0 .unlabeled"),
    ],
)
def test_bad_input_names_the_problem(X: np.ndarray, y: np.ndarray, match: str) -> None:
    with pytest.raises(DataError, match=match):
        WSADDT(epochs=1).fit(X, y)


def test_bad_parameters_and_unfitted_use_are_user_errors() -> None:
    X, y = blobs(100, 10)
    with pytest.raises(UserError, match="n_estimators"):
        WSADDT(n_estimators=0).fit(X, _weak(y, 2))
    with pytest.raises(UserError, match="anomaly_share"):
        WSADDT(anomaly_share=1.5).fit(X, _weak(y, 2))
    with pytest.raises(UserError, match="not fitted"):
        WSADDT().decision_function(X)
    with pytest.raises(UserError, match="no parameter"):
        WSADDT().set_params(bogus=1)


def test_device_is_cuda_only_when_available() -> None:
    import torch

    assert pick_device().type == ("cuda" if torch.cuda.is_available() else "cpu")
    assert pick_device("cpu").type == "cpu"


def test_devnet_baseline_learns_from_labels() -> None:
    X, y = blobs(seed=2)
    Xs = MinMaxScaler().fit_transform(X)
    partial = _weak(y, 5)
    model = DevNet(random_state=0, n_threads=1).fit(Xs, partial)
    scores = model.decision_function(Xs)
    hidden = partial == 0
    assert roc_auc_score(y[hidden], scores[hidden]) > 0.9
    with pytest.raises(DataError, match="labeled anomaly"):
        DevNet().fit(Xs, np.zeros(len(y)))
