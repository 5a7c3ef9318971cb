"""The user's own partial labels: a few rows someone checked, the rest never looked at.

This is how weak supervision arrives outside a benchmark: engineers inspected a handful of turbines and found
some broken (label 1) and some fine (label 0); every other row is blank.  The ADBench protocol does not apply
(it hides labels it knows, to measure), and neither does the unlabeled mode (it invents labels from an
IsolationForest).  Here every confirmed anomaly is a labeled anomaly, every other row is unlabeled, as WSAD-DT
trains, and every row is scored; the answer is the unchecked rows ranked by that score.

How far to trust the ranking is measured on the labels themselves: a third of the confirmed anomalies (at least
one) are hidden, the model is fitted without them, and the rank each gets among the rows the model saw as
unlabeled is reported beside the rank IsolationForest (no labels at all) gives it.  Where confirmed normal rows
exist, the AUC of the hidden anomalies against them is reported for both.  A ranking that does not put the hidden
anomalies above the middle is no answer, and the check says so; the two rankings are declared as a comparison,
so one that IsolationForest beats without labels is stated in the report (``method.loses_to_baseline``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.exceptions import DataError
from cmbagent.tools.methods._result import Check, MethodResult
from cmbagent.tools.methods.anomaly._protocol import write_scores

__all__ = ["own_labels_run"]


def _percentiles(scores: np.ndarray, rows: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """Each row's share of the ``pool`` rows it outscores (1: above all of them; 0.5: a random rank)."""
    return np.array([float(np.mean(scores[pool] < scores[r]) + 0.5 * np.mean(scores[pool] == scores[r]))
                     for r in rows])


def _auc(scores: np.ndarray, positives: np.ndarray, negatives: np.ndarray) -> float | None:
    if positives.size == 0 or negatives.size == 0:
        return None
    from sklearn.metrics import roc_auc_score

    truth = np.r_[np.ones(positives.size), np.zeros(negatives.size)]
    return float(roc_auc_score(truth, np.r_[scores[positives], scores[negatives]]))


def own_labels_run(X: np.ndarray, y: np.ndarray, name: str, seed: int, settings: dict[str, Any],
                   out: Path, *, n_listed: int = 10, row_names: list[str] | None = None) -> MethodResult:
    """Fit WSAD-DT with the confirmed anomalies of ``y`` (1) as its labels, NaN rows unchecked, 0 confirmed
    normal; score every row, rank the unchecked ones (the first ``n_listed`` in the result), and validate on a
    hidden third of the confirmed anomalies."""
    from sklearn.ensemble import IsolationForest
    from sklearn.preprocessing import MinMaxScaler

    from cmbagent.tools.methods.anomaly._wsad import WSADDT

    anomalies = np.flatnonzero(y == 1)
    normals = np.flatnonzero(y == 0)
    unchecked = np.flatnonzero(np.isnan(y))
    if anomalies.size == 0:
        raise DataError(f"{name}: no row is marked 1; mark the rows confirmed as anomalies with 1 (0 for rows "
                        "confirmed normal, blank for rows nobody checked)")
    if unchecked.size < 2 * int(settings["n_estimators"]):
        raise DataError(f"{name}: only {unchecked.size} unchecked rows; leave the rows nobody checked blank in the "
                        "label column, or give every label and let the ADBench protocol measure the method")
    Xs = MinMaxScaler().fit_transform(X)
    labels = (y == 1).astype(int)
    prior = -IsolationForest(n_estimators=100, random_state=seed).fit(Xs).score_samples(Xs)

    validation: dict[str, Any] = {}
    checks: list[Check] = []
    if anomalies.size >= 2:
        rng = np.random.default_rng(seed)
        hidden = np.sort(rng.choice(anomalies, max(1, anomalies.size // 3), replace=False))
        held_labels = labels.copy()
        held_labels[hidden] = 0
        held = WSADDT(random_state=seed, **settings).fit(Xs, held_labels).decision_function(Xs)
        pool = np.setdiff1d(np.flatnonzero(held_labels == 0), hidden)
        wsad_rank, forest_rank = _percentiles(held, hidden, pool), _percentiles(prior, hidden, pool)
        validation = {
            "n_hidden": int(hidden.size),
            "median_percentile": float(np.median(wsad_rank)),
            "median_percentile_iforest": float(np.median(forest_rank)),
            "auc_vs_confirmed_normal": _auc(held, hidden, normals),
            "auc_vs_confirmed_normal_iforest": _auc(prior, hidden, normals),
        }
        checks.append(Check(
            name="hidden_anomalies_found",
            passed=validation["median_percentile"] > 0.5,
            message=f"{hidden.size} confirmed anomalies hidden from the fit rank at a median percentile of "
                    f"{validation['median_percentile']:.2f} among the rows it saw as unlabeled (IsolationForest "
                    f"without labels: {validation['median_percentile_iforest']:.2f}; a random ranking: 0.50)",
        ))
    else:
        checks.append(Check(name="hidden_anomalies_found", passed=True,
                            message="one confirmed anomaly only: none can be hidden to validate the ranking"))

    model = WSADDT(random_state=seed, **settings).fit(Xs, labels)
    scores = model.decision_function(Xs)
    order = unchecked[np.argsort(-scores[unchecked], kind="stable")]
    flagged = int((scores[unchecked] > 0.5).sum())
    false_alarms = int((scores[normals] > 0.5).sum())
    path = out / f"wsad_dt_{name}_scores.csv"
    status = np.where(np.isnan(y), "unchecked", np.where(y == 1, "anomaly", "normal"))
    write_scores(path, scores, row_names, status)
    losses = model.loss_curve_
    checks += [
        Check(name="scores_finite", passed=bool(np.isfinite(scores).all()), message="all scores finite"),
        Check(name="training_loss_decreased", passed=bool(losses[-1] < losses[0]),
              message=f"loss {losses[0]:.3f} (first epoch) -> {losses[-1]:.3f} (last)"),
    ]
    values: dict[str, Any] = {
        "n_rows": int(X.shape[0]),
        "n_confirmed_anomalies": int(anomalies.size),
        "n_confirmed_normal": int(normals.size),
        "n_unchecked": int(unchecked.size),
        "n_flagged_unchecked": flagged,
        "n_confirmed_normal_flagged": false_alarms,
        "top_unchecked_rows": order[:n_listed].tolist(),
        "top_unchecked_scores": scores[order[:n_listed]].tolist(),
        "validation": validation,
    }
    if row_names is not None:
        values["top_unchecked_names"] = [row_names[i] for i in order[:n_listed]]
    leaders = (", ".join(row_names[r] for r in order[:5]) if row_names is not None else
               f"rows {', '.join(str(r) for r in order[:5])} (rows counted from 0 in file order)")
    trust = (f" Validation: {validation['n_hidden']} confirmed anomalies hidden from a fit rank at a median "
             f"percentile of {validation['median_percentile']:.2f} among unlabeled rows (IsolationForest "
             f"{validation['median_percentile_iforest']:.2f})." if validation else
             " With one confirmed anomaly the ranking cannot be validated.")
    summary = (f"Your labels in {name}: WSAD-DT learned from the {anomalies.size} confirmed anomalies and scored all "
               f"{X.shape[0]} rows; {flagged} of the {unchecked.size} unchecked rows score above 0.5, led by "
               f"{leaders}."
               f"{trust} {false_alarms} of the {normals.size} rows confirmed normal score above 0.5.")
    diagnostics: dict[str, Any] = {"device": str(model.device_), "settings": settings, "loss_curve": losses,
                                   "protocol": "own partial labels"}
    if validation:  # the comparison the audits read: a baseline that ranks better is stated in the report
        metrics = ["hidden_median_percentile"] + (["auc_vs_confirmed_normal"] if normals.size else [])
        values["wsad_dt"] = {"hidden_median_percentile": validation["median_percentile"],
                             "auc_vs_confirmed_normal": validation["auc_vs_confirmed_normal"]}
        values["iforest"] = {"hidden_median_percentile": validation["median_percentile_iforest"],
                             "auc_vs_confirmed_normal": validation["auc_vs_confirmed_normal_iforest"]}
        diagnostics["comparison"] = {"method": "wsad_dt", "baselines": ["iforest"], "metrics": metrics}
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[str(path)],
                        diagnostics=diagnostics)
