"""The ``anomaly.wsad_dt`` method tool: WSAD-DT against baselines under the ADBench protocol."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.tools.methods._registry import Paper, method
from cmbagent.tools.methods._result import Check, MethodResult

__all__ = ["wsad_dt"]

BASELINES = ("iforest", "xgbod", "devnet")
PAPER = Paper(
    title="Weakly Supervised Anomaly Detection via Dual-Tailed Kernel",
    authors="Walid Durani, Tobias Nitzl, Claudia Plant, Christian Böhm",
    year=2025,
    code="https://github.com/Walid10010/Weakly-Supervised-Anomaly-Detection-via-Dual-Tailed-Kernel",
)


@method(
    "anomaly.wsad_dt",
    paper=PAPER,
    keywords=[
        "anomaly",
        "outlier",
        "weakly supervised",
        "labeled anomalies",
        "adbench",
        "dual-tailed kernel",
        "wsad-dt",
        "devnet",
        "xgbod",
        "isolation forest",
        "auc-pr",
        "fraud",
        "novelty",
    ],
    example='wsad_dt(data="6_cardio.npz", n_labeled=10, seed=1)',
)
def wsad_dt(
    data: str,
    n_labeled: int = 10,
    label_ratio: float | None = None,
    label_column: str | None = None,
    seed: int = 1,
    unlabeled_anomalies: float = 1.0,
    baselines: list[str] | None = None,
    n_estimators: int = 5,
    epochs: int = 100,
    xgbod_max_rows: int | None = 3000,
    device: str = "auto",
    output_dir: str = "figures",
) -> MethodResult:
    """Weakly supervised anomaly detection with WSAD-DT, compared with IsolationForest, XGBOD and DevNet.

    With labels (an ``.npz`` with arrays X and y, or a CSV with a 0/1 label column) the ADBench protocol is
    run: stratified 70/30 split seeded by ``seed``, MinMax scaling fitted on the training part, only
    ``n_labeled`` training anomalies keep their label; AUC-ROC and AUC-PR are reported on the test split
    for WSAD-DT and every baseline on the same split. Without labels the model is fitted on all rows with
    the ``n_labeled`` highest IsolationForest scores as pseudo-labeled anomalies, and every row is scored.

    Args:
        data: Path to an .npz (arrays X and optionally y) or a CSV file (numeric features, optional label column).
        n_labeled: Number of training anomalies whose label is revealed (ADBench weak supervision).
        label_ratio: Fraction of training anomalies labeled instead of a count (ceil, at least one).
        label_column: Name of the CSV label column; found automatically if named y/label/class/target/anomaly.
        seed: Seed of the split, the labeled subset and every model.
        unlabeled_anomalies: Fraction of the unlabeled training anomalies kept as unlabeled training rows: 1 is
            the ADBench protocol, 0 the WSAD-DT paper's experiments (clean unlabeled set).
        baselines: Baselines to run on the same split, from iforest, xgbod, devnet (default: all three).
        n_estimators: WSAD-DT ensemble members (disjoint parts of the unlabeled rows).
        epochs: WSAD-DT training epochs.
        xgbod_max_rows: Subsample XGBOD's training rows to this many (all labeled anomalies kept); null for all.
        device: Torch device: auto (CUDA when available), cpu or cuda.
        output_dir: Folder for the figures and the score file.
    """
    from cmbagent.tools.methods.anomaly._protocol import load_anomaly_data

    chosen = list(BASELINES) if baselines is None else [b.lower() for b in baselines]
    unknown = sorted(set(chosen) - set(BASELINES))
    if unknown:
        raise UserError(f"unknown baseline(s) {unknown}; choose from {list(BASELINES)}")
    if label_ratio is None and n_labeled < 1:
        raise UserError(
            f"n_labeled must be >= 1 (got {n_labeled}); WSAD-DT needs at least one labeled anomaly"
        )
    X, y, _ = load_anomaly_data(data, label_column)
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    settings = {"n_estimators": n_estimators, "epochs": epochs, "device": device}
    if y is None:
        return _unlabeled(X, Path(data).stem, n_labeled, seed, settings, out)
    split_args = {
        "n_labeled": None if label_ratio is not None else n_labeled,
        "label_ratio": label_ratio,
        "seed": seed,
        "unlabeled_anomalies": unlabeled_anomalies,
    }
    return _protocol_run(X, y, Path(data).stem, split_args, chosen, xgbod_max_rows, settings, out)


def _protocol_run(
    X: np.ndarray,
    y: np.ndarray,
    name: str,
    split_args: dict[str, Any],
    baselines: list[str],
    xgbod_max_rows: int | None,
    settings: dict[str, Any],
    out: Path,
) -> MethodResult:
    from cmbagent.tools.methods.anomaly._protocol import adbench_split, run_baseline, score_metrics
    from cmbagent.tools.methods.anomaly._wsad_dt import WSADDT

    split = adbench_split(X, y, **split_args)
    seed = split.seed
    start = time.perf_counter()
    model = WSADDT(random_state=seed, **settings).fit(split.X_train, split.y_train_partial)
    scores = {"wsad_dt": model.decision_function(split.X_test)}
    timings = {"wsad_dt": time.perf_counter() - start}
    values: dict[str, Any] = {"wsad_dt": score_metrics(split.y_test, scores["wsad_dt"])}
    for b in baselines:
        values[b], timings[b] = run_baseline(b, split, xgbod_max_rows=xgbod_max_rows)
    values |= {
        "n_labeled": split.n_labeled,
        "n_unlabeled_train_anomalies": int(split.y_train_true.sum()) - split.n_labeled,
        "n_train": int(split.X_train.shape[0]),
        "n_test": int(split.X_test.shape[0]),
        "test_anomaly_rate": float(split.y_test.mean()),
    }
    artifacts = [str(_plot_scores(out / f"wsad_dt_{name}_seed{seed}.png", split, model, scores["wsad_dt"]))]
    losses = model.loss_curve_
    checks = [
        Check(
            name="scores_finite",
            passed=bool(np.isfinite(scores["wsad_dt"]).all()),
            message="all test scores finite",
        ),
        Check(
            name="training_loss_decreased",
            passed=bool(losses[-1] < losses[0]),
            message=f"loss {losses[0]:.3f} (first epoch) -> {losses[-1]:.3f} (last)",
        ),
        Check(
            name="better_than_random",
            passed=values["wsad_dt"]["auc_roc"] > 0.5,
            message=f"test AUC-ROC {values['wsad_dt']['auc_roc']:.3f} (random ranking: 0.5)",
        ),
    ]
    table = ", ".join(f"{k} {values[k]['auc_pr']:.3f}" for k in ["wsad_dt", *baselines])
    protocol = "ADBench protocol" if split_args["unlabeled_anomalies"] == 1.0 else "ADBench split"
    summary = (
        f"{protocol} on {name} (seed {seed}, {split.n_labeled} labeled training anomalies, "
        f"{split.X_train.shape[0]} train / {split.X_test.shape[0]} test rows{'; ' + split.note if split.note else ''}). "
        f"Test AUC-PR: {table}. WSAD-DT test AUC-ROC {values['wsad_dt']['auc_roc']:.3f}; "
        f"ensemble of {model.n_estimators} members trained on {model.device_}."
    )
    diagnostics = {
        "timings_s": timings,
        "device": str(model.device_),
        "split_note": split.note,
        "loss_curve": losses,
        "settings": settings,
        "xgbod_max_rows": xgbod_max_rows,
    }
    return MethodResult(
        summary=summary, values=values, diagnostics=diagnostics, checks=checks, artifacts=artifacts
    )


def _unlabeled(
    X: np.ndarray, name: str, n_labeled: int, seed: int, settings: dict[str, Any], out: Path
) -> MethodResult:
    from sklearn.ensemble import IsolationForest
    from sklearn.preprocessing import MinMaxScaler

    from cmbagent.tools.methods.anomaly._wsad_dt import WSADDT

    if X.shape[0] < 2 * n_labeled + int(settings["n_estimators"]):
        raise UserError(f"only {X.shape[0]} rows; need well over n_labeled={n_labeled} rows to pseudo-label")
    Xs = MinMaxScaler().fit_transform(X)
    prior = -IsolationForest(n_estimators=100, random_state=seed).fit(Xs).score_samples(Xs)
    pseudo = np.zeros(X.shape[0], dtype=int)
    pseudo[np.argsort(-prior)[:n_labeled]] = 1
    model = WSADDT(random_state=seed, **settings).fit(Xs, pseudo)
    scores = model.decision_function(Xs)
    path = out / f"wsad_dt_{name}_scores.csv"
    order = np.argsort(-scores)
    np.savetxt(
        path,
        np.column_stack([np.arange(X.shape[0]), scores]),
        delimiter=",",
        header="row,score",
        comments="",
        fmt=["%d", "%.6f"],
    )
    values = {
        "n_rows": int(X.shape[0]),
        "n_pseudo_labeled": n_labeled,
        "n_flagged": int((scores > 0.5).sum()),
        "top_rows": order[:10].tolist(),
        "top_scores": scores[order[:10]].tolist(),
        "rank_correlation_with_iforest": float(_spearman(scores, prior)),
    }
    checks = [
        Check(name="scores_finite", passed=bool(np.isfinite(scores).all()), message="all scores finite"),
        Check(
            name="pseudo_labels",
            passed=True,
            message=f"no labels given: the {n_labeled} top IsolationForest rows served as labeled anomalies",
        ),
    ]
    summary = (
        f"No labels in {name}: WSAD-DT was fitted with the {n_labeled} highest IsolationForest scores as "
        f"pseudo-labeled anomalies and scored all {X.shape[0]} rows; {values['n_flagged']} rows score above 0.5. "
        "Without labels no accuracy can be reported."
    )
    return MethodResult(
        summary=summary,
        values=values,
        checks=checks,
        artifacts=[str(path)],
        diagnostics={"device": str(model.device_), "settings": settings},
    )


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    return float(np.corrcoef(ra, rb)[0, 1])


def _plot_scores(path: Path, split: Any, model: Any, score: np.ndarray) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from sklearn.metrics import precision_recall_curve, roc_curve

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    prec, rec, _ = precision_recall_curve(split.y_test, score)
    fpr, tpr, _ = roc_curve(split.y_test, score)
    axes[0].plot(rec, prec)
    axes[0].axhline(split.y_test.mean(), ls=":", c="gray", label="random")
    axes[0].set(xlabel="recall", ylabel="precision", title="WSAD-DT precision-recall (test)")
    axes[0].legend()
    axes[1].plot(fpr, tpr)
    axes[1].plot([0, 1], [0, 1], ls=":", c="gray")
    axes[1].set(xlabel="false positive rate", ylabel="true positive rate", title="ROC (test)")
    bins = np.linspace(0, 1, 41)
    axes[2].hist(score[split.y_test == 0], bins=bins, alpha=0.6, density=True, label="normal")
    axes[2].hist(score[split.y_test == 1], bins=bins, alpha=0.6, density=True, label="anomaly")
    axes[2].set(xlabel="score 1 - q_normal", title="test score distribution")
    axes[2].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
