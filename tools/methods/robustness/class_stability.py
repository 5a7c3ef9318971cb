"""Class stability: the expected distance of an input to the classifier's decision boundary.

For a classifier ``f`` and an input ``x`` predicted as class ``k``, the stability at ``x`` is the
Euclidean distance from ``x`` to the nearest point that ``f`` assigns to another class; class stability
is its expectation over the data (overall, and per predicted class). Large stability means predictions
survive large perturbations; the law of robustness says a model with few parameters that interpolates
noisy labels is forced to have small stability, while wide models can interpolate and stay stable.

* Linear models (decision scores ``s_k = w_k.x + b_k``): a class region is an intersection of
  half-spaces, so the distance to its complement is exact,
  ``min_{j != k} (s_k - s_j) / ||w_k - w_j||`` (binary: ``|w.x + b| / ||w||``).
* Any other classifier (only ``predict`` is needed): a line search along ``n_directions`` random unit
  directions: a grid in ``t`` finds the first label change of ``x + t u``, bisection refines it, and the
  minimum over directions is an upper bound on the distance that tightens as directions are added.
  Directions with no change up to ``max_distance`` are censored at ``max_distance`` and counted.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods._registry import Paper, method
from cmbagent.tools.methods._result import Check, MethodResult
from cmbagent.tools.methods.robustness._io import load_table
from cmbagent.tools.methods.robustness._stability import (
    StabilityEstimate,
    estimate_stability,
    linear_stability,
)

__all__ = ["StabilityEstimate", "class_stability", "estimate_stability", "linear_stability", "norm_tracks_accuracy"]


PAPER = Paper(title="Class stability: expected distance to the decision boundary (workshop paper)")
ModelName = Literal["logistic", "linear_svm", "mlp", "random_forest", "rbf_svm"]


@method(
    "robustness.class_stability",
    paper=PAPER,
    phrases={  # how prose names the classifier (the first value whose phrase matches wins)
        "model": {"logistic": [r"\blogistic regression\b", r"\blogit\b"],
                  "linear_svm": [r"\blinear SVM\b", r"\blinear support vector"],
                  "rbf_svm": [r"\bRBF\b", r"\bkernel SVM\b", r"\bGaussian[- ]kernel SVM\b"],
                  "random_forest": [r"\brandom forests?\b"],
                  "mlp": [r"\bMLP\b", r"\bneural[- ]net(?:work)?s?\b", r"\bmulti-?layer perceptron\b"]},
        "label_column": [r"\blabels?\b", r"\bclass(?:es)?\b", r"\bsays? which\b", r"\bmarks?\b"],
    },
    keywords=[
        "class stability",
        "decision boundary",
        "margin",
        "robustness",
        "distance to boundary",
        "law of robustness",
        "width",
        "overparameterization",
        "generalization",
        "norm-based capacity",
    ],
    example='class_stability(experiment="width_sweep", widths=[60, 120, 240, 960, 3840])',
)
def class_stability(
    data: InputFile | None = None,
    label_column: str | None = None,
    model: ModelName = "logistic",
    experiment: Literal["stability", "width_sweep"] = "stability",
    widths: list[int] | None = None,
    noise: float = 0.15,
    n_directions: int = 64,
    max_points: int = 300,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Class stability (expected distance to the decision boundary) of a classifier, or the width sweep.

    ``experiment="stability"`` fits ``model`` on 70% of ``data`` and estimates, on up to ``max_points`` of
    the held-out rows, each point's distance to the decision boundary: exact for linear models, otherwise
    a line search along ``n_directions`` random directions (an upper bound; mean with its standard error).
    Results are per predicted class and overall. ``experiment="width_sweep"`` trains one-hidden-layer
    ReLU networks of the given widths (random hidden layer, minimum-norm interpolating output layer) on a
    noisy 2-D Gaussian mixture with 60 training points and plots stability, test accuracy and a norm-based
    capacity measure (spectral complexity / margin) against width.

    Args:
        data: Path to an .npz (X, y) or CSV file with numeric features and a class label column (stability experiment).
        label_column: Name of the CSV label column; found automatically if named y/label/class/target.
        model: Classifier to fit: logistic, linear_svm (exact distances), mlp, random_forest or rbf_svm.
        experiment: "stability" for a data set, "width_sweep" for the synthetic width experiment.
        widths: Hidden widths for the sweep (default 60, 120, 240, 960, 3840: 1x to 64x the training points).
        noise: Fraction of flipped training labels in the sweep's mixture.
        n_directions: Random directions per point for the line search.
        max_points: Held-out points evaluated.
        seed: Seed of the split, the models and the directions.
        output_dir: Folder for the figures.
    """
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    if experiment == "width_sweep":
        return _sweep(widths, noise, n_directions, seed, out)
    if data is None:
        raise UserError(
            "experiment='stability' needs a data file (data=...); or use experiment='width_sweep'"
        )
    return _on_data(data, label_column, model, n_directions, max_points, seed, out)


def _fit_model(name: str, seed: int) -> Any:
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier
    from sklearn.svm import SVC, LinearSVC

    return {
        "logistic": lambda: LogisticRegression(max_iter=5000),
        "linear_svm": lambda: LinearSVC(random_state=seed, max_iter=20000),
        "mlp": lambda: MLPClassifier(hidden_layer_sizes=(64, 64), max_iter=2000, random_state=seed),
        "random_forest": lambda: RandomForestClassifier(n_estimators=100, random_state=seed),
        "rbf_svm": lambda: SVC(random_state=seed),
    }[name]()


def _on_data(
    data: str,
    label_column: str | None,
    model_name: str,
    n_directions: int,
    max_points: int,
    seed: int,
    out: Path,
) -> MethodResult:
    from sklearn.model_selection import train_test_split


    X, y, names = load_table(data, label_column)
    classes, counts = np.unique(y, return_counts=True)
    if classes.size < 2:
        raise DataError(
            f"{Path(data).name}: a single class ({classes[0]!r}); a classifier needs at least two"
        )
    stratify = y if counts.min() >= 2 else None
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=stratify)
    clf = _fit_model(model_name, seed).fit(X_tr, y_tr)
    X_eval = X_te[:max_points]
    est = estimate_stability(clf, X_eval, n_directions=n_directions, random_state=seed)
    summ = est.summary()
    values: dict[str, Any] = {
        "stability": summ["overall"],
        "per_class": summ["per_class"],
        "test_accuracy": float(clf.score(X_te, y_te)),
        "method": est.method,
    }
    checks = [
        Check(
            name="distances_finite",
            passed=bool(np.isfinite(est.distances).all()),
            message="all distances finite",
        )
    ]
    if est.method == "exact_linear":
        ls = estimate_stability(
            clf, X_eval, n_directions=n_directions, exact_if_linear=False, random_state=seed
        )
        values["line_search_check"] = ls.mean
        ok = bool(np.all(ls.distances >= est.distances * (1 - 1e-6) - 1e-9))
        checks.append(
            Check(
                name="line_search_upper_bound",
                passed=ok,
                message=f"line search {ls.mean:.4g} >= exact {est.mean:.4g} at every point: {ok}",
            )
        )
    else:
        checks.append(
            Check(
                name="boundary_found",
                passed=est.censored < 0.5 * est.distances.size,
                message=f"{est.censored} of {est.distances.size} points found no boundary within the search radius",
            )
        )
    artifacts = [str(_plot_distances(out / f"class_stability_{Path(data).stem}.png", est, X_eval, clf))]
    per_class = ", ".join(f"class {k}: {v['mean']:.3g}" for k, v in summ["per_class"].items())
    summary = (
        f"Class stability of a {model_name} classifier on {Path(data).name} ({est.method}, {est.distances.size} "
        f"held-out points): {est.mean:.4g} ± {est.stderr:.2g} (standard error); {per_class}. "
        f"Test accuracy {values['test_accuracy']:.3f}."
    )
    return MethodResult(
        summary=summary,
        values=values,
        checks=checks,
        artifacts=artifacts,
        diagnostics={"settings": est.settings, "features": names, "censored": est.censored},
    )


def norm_tracks_accuracy(norm: list[float], accuracy: list[float], slack: float = 0.01) -> bool:
    """False when the widest model has a larger norm measure than the model at the measure's minimum yet at
    least its test accuracy (minus ``slack``): the measure then predicts worse generalisation where it is better."""
    j = int(np.argmin(norm))
    return not (j < len(norm) - 1 and norm[-1] > norm[j] and accuracy[-1] >= accuracy[j] - slack)


def _sweep(widths: list[int] | None, noise: float, n_directions: int, seed: int, out: Path) -> MethodResult:
    from cmbagent.tools.methods.robustness._width_sweep import width_sweep

    if not 0.0 <= noise < 0.5:
        raise UserError(f"noise is a label-flip fraction and must lie in [0, 0.5); got {noise}")
    result = width_sweep(widths, noise=noise, n_directions=min(n_directions, 16), seed=seed)
    rows = result["rows"]
    stab = [r["stability"] for r in rows]
    acc = [r["test_accuracy"] for r in rows]
    norm = [r["spectral_complexity"] for r in rows]
    rho_norm_err = _spearman(norm, [1 - a for a in acc])
    tracks = norm_tracks_accuracy(norm, acc)
    values = {
        "widths": [r["width"] for r in rows],
        "stability": [{"mean": r["stability"], "std": r["stability_stderr"]} for r in rows],
        "test_accuracy": acc,
        "train_accuracy": [r["train_accuracy"] for r in rows],
        "spectral_complexity": norm,
        "stability_gain_smallest_to_largest": stab[-1] - stab[0],
        "spearman_norm_vs_test_error": rho_norm_err,
        "norm_tracks_test_accuracy": tracks,
    }
    artifacts = [str(_plot_sweep(out / "class_stability_width_sweep.png", rows))]
    interpolating = all(r["train_accuracy"] == 1.0 for r in rows)
    checks = [
        Check(
            name="stability_rises_with_width",
            passed=stab[-1] > stab[0],
            message=f"stability {stab[0]:.3f} at width {rows[0]['width']} -> {stab[-1]:.3f} at width {rows[-1]['width']}",
        ),
        Check(
            name="all_models_interpolate",
            passed=interpolating,
            message="every width fits the noisy training labels"
            if interpolating
            else "some widths are below the interpolation threshold (width < training points)",
        ),
    ]
    summary = (
        f"Width sweep on a 2-D mixture with {noise:.0%} flipped training labels: class stability went from "
        f"{stab[0]:.3f} (width {rows[0]['width']}) to {stab[-1]:.3f} (width {rows[-1]['width']}), test accuracy from "
        f"{acc[0]:.3f} to {acc[-1]:.3f}; the spectral-complexity measure went from {norm[0]:.3g} through a minimum of "
        f"{min(norm):.3g} to {norm[-1]:.3g} (Spearman with test error {rho_norm_err:+.2f}; "
        f"{'it tracks' if tracks else 'it does not track'} test accuracy)."
    )
    return MethodResult(
        summary=summary, values=values, checks=checks, artifacts=artifacts, diagnostics=result
    )


def _spearman(a: list[float], b: list[float]) -> float:
    from scipy.stats import spearmanr

    if len(set(a)) < 2 or len(set(b)) < 2:
        return 0.0
    return float(spearmanr(a, b).statistic)


def _plot_sweep(path: Path, rows: list[dict[str, Any]]) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    w = [r["width"] for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    axes[0].errorbar(
        w, [r["stability"] for r in rows], yerr=[r["stability_stderr"] for r in rows], marker="o", capsize=3
    )
    axes[0].set(xscale="log", xlabel="width", ylabel="class stability", title="stability (test inputs)")
    axes[1].plot(w, [r["test_accuracy"] for r in rows], marker="o", label="test")
    axes[1].plot(w, [r["train_accuracy"] for r in rows], marker="s", ls="--", label="train (noisy labels)")
    axes[1].set(xscale="log", xlabel="width", ylabel="accuracy", title="accuracy")
    axes[1].legend()
    axes[2].plot(w, [r["spectral_complexity"] for r in rows], marker="o", c="C3")
    axes[2].set(
        xscale="log",
        yscale="log",
        xlabel="width",
        ylabel="spectral complexity / margin",
        title="norm-based measure",
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _plot_distances(path: Path, est: Any, X: np.ndarray, clf: Any) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    two_d = X.shape[1] == 2
    fig, axes = plt.subplots(1, 2 if two_d else 1, figsize=(11 if two_d else 5.5, 4))
    ax = axes[0] if two_d else axes
    for c in np.unique(est.predicted):
        ax.hist(est.distances[est.predicted == c], bins=30, alpha=0.6, label=f"predicted {c}")
    ax.set(xlabel="distance to decision boundary", ylabel="points", title=f"class stability ({est.method})")
    ax.legend()
    if two_d:
        lo, hi = X.min(0) - 0.5, X.max(0) + 0.5
        gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], 200), np.linspace(lo[1], hi[1], 200))
        regions = clf.predict(np.column_stack([gx.ravel(), gy.ravel()]))
        _, codes = np.unique(regions, return_inverse=True)
        axes[1].contourf(gx, gy, codes.reshape(gx.shape), alpha=0.2)
        sc = axes[1].scatter(X[:, 0], X[:, 1], c=est.distances, s=10, cmap="viridis")
        fig.colorbar(sc, ax=axes[1], label="distance")
        axes[1].set(title="decision regions and per-point stability")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
