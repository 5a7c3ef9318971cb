"""The ``robustness.x_hacking`` method tool, and the table loader the robustness tools share."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods._registry import Paper, method
from cmbagent.tools.methods._result import Check, MethodResult

__all__ = ["load_table", "x_hacking"]

PAPER = Paper(
    title="X Hacking: The Threat of Misguided AutoML",
    arxiv="2401.08513",
    authors="Sharma et al.",
    year=2024,
)
LABEL_NAMES = ("y", "label", "labels", "class", "target", "outcome")


def load_table(path: str, label_column: str | None) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """``(X, y, feature names)`` from an .npz (X, y[, feature_names]) or a CSV with a label column."""
    p = Path(path)
    if not p.is_file():
        raise DataError(f"data file {path!r} does not exist; pass the path of an .npz or .csv file")
    if p.suffix == ".npz":
        with np.load(p, allow_pickle=False) as d:
            if "X" not in d or "y" not in d:
                raise DataError(f"{p.name} needs arrays X and y; it has {list(d.keys())}")
            X, y = np.asarray(d["X"]), np.asarray(d["y"]).ravel()
            names = (
                [str(n) for n in d["feature_names"]]
                if "feature_names" in d
                else [f"x{i}" for i in range(X.shape[1])]
            )
    elif p.suffix in {".csv", ".tsv"}:
        import pandas as pd

        frame = pd.read_csv(p, sep="\t" if p.suffix == ".tsv" else ",")
        if label_column is None:
            label_column = next((c for c in frame.columns if str(c).strip().lower() in LABEL_NAMES), None)
            if label_column is None:
                raise DataError(
                    f"no label column in {p.name} (columns {list(frame.columns)[:12]}...); pass label_column"
                )
        elif label_column not in frame.columns:
            raise DataError(
                f"label column {label_column!r} not in {p.name}; columns are {list(frame.columns)}"
            )
        y = frame[label_column].to_numpy()
        feats = frame.drop(columns=[label_column])
        bad = [str(c) for c in feats.columns if not pd.api.types.is_numeric_dtype(feats[c])]
        if bad:
            raise DataError(
                f"non-numeric feature columns {bad} in {p.name}; encode them as numbers or drop them"
            )
        X, names = feats.to_numpy(), [str(c) for c in feats.columns]
    else:
        raise DataError(f"unsupported file type {p.suffix!r}; use .npz (X, y) or .csv with a label column")
    if X.ndim != 2 or not np.issubdtype(X.dtype, np.number):
        raise DataError(
            f"{p.name}: features must be a numeric 2-D table; got dtype {X.dtype}, shape {X.shape}"
        )
    X = X.astype(float)
    if not np.isfinite(X).all():
        cols = sorted({names[j] for j in np.where(~np.isfinite(X))[1]})[:10]
        raise DataError(
            f"{p.name}: {int((~np.isfinite(X)).sum())} NaN/inf feature values (columns {cols}); impute or drop them"
        )
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise DataError(f"{p.name}: {int(np.isnan(y).sum())} labels are missing; drop those rows")
    return X, y, names


@method(
    "robustness.x_hacking",
    paper=PAPER,
    keywords=[
        "x-hacking",
        "shap",
        "explanation",
        "rashomon set",
        "defensible models",
        "automl",
        "feature importance",
        "hide feature",
        "explainability",
        "optuna",
        "redundancy",
        "vulnerability",
    ],
    example='x_hacking(data="breast_cancer.csv", target_feature="worst concave points", goal="hide", threshold=0.05)',
)
def x_hacking(
    data: str,
    target_feature: str,
    label_column: str | None = None,
    goal: Literal["hide", "promote"] = "hide",
    threshold: float = 0.10,
    tolerance: float = 0.02,
    n_trials: int = 40,
    search: Literal["random", "tpe", "both"] = "both",
    seed: int = 0,
    output_dir: str = "figures",
) -> MethodResult:
    """Search the defensible set of ML pipelines for a desired SHAP explanation of one feature (X-hacking).

    Pipelines vary feature selection, scaling and model (logistic regression, random forest, XGBoost).
    A pipeline is defensible when its validation AUC is within ``tolerance`` of the best found. The search
    (random and/or optuna TPE, ``n_trials`` evaluations each) looks for a defensible pipeline whose target
    feature share of mean |SHAP| is below (``hide``) or above (``promote``) ``threshold``. Reports success,
    evaluations used, the pipelines found, every feature's redundancy-based vulnerability score (R^2 from
    the other features) and a detection report: the spread of the target's SHAP share across the
    defensible set, which exposes explanations that depend on arbitrary choices.

    Args:
        data: Path to a CSV (numeric features and a binary label column) or an .npz with X, y (and feature_names).
        target_feature: Name of the feature whose explanation is to be changed.
        label_column: Name of the binary outcome column; found automatically if named y/label/class/target/outcome.
        goal: "hide" (target's SHAP share below threshold) or "promote" (above threshold).
        threshold: The SHAP-share threshold, e.g. 0.1 for 10%.
        tolerance: AUC tolerance defining the defensible set.
        n_trials: Pipeline evaluations per search.
        search: Which search to run: random, tpe or both.
        seed: Seed of the split, models and searches.
        output_dir: Folder for the figures.
    """
    from cmbagent.tools.methods.robustness._xhacking import XHackingSearch, check_xy, vulnerability_scores

    X, y, names = load_table(data, label_column)
    if target_feature not in names:
        raise UserError(f"target feature {target_feature!r} does not exist; features are {names}")
    if n_trials < 1:
        raise UserError(f"n_trials must be >= 1, got {n_trials}")
    check_xy(X, y)
    y = (y == np.unique(y)[1]).astype(int)
    target = names.index(target_feature)
    problem = XHackingSearch(
        X, y, names, target, goal=goal, threshold=threshold, tolerance=tolerance, seed=seed
    )
    for params in problem.default_pipelines():
        problem.evaluate(params, "default")
    runs: dict[str, list[Any]] = {}
    if search in ("random", "both"):
        runs["random"] = problem.random_search(n_trials)
    if search in ("tpe", "both"):
        runs["tpe"] = problem.tpe_search(n_trials)
    reports = {name: problem.search_report(evals) for name, evals in runs.items()}
    vuln = vulnerability_scores(X, seed=seed)
    detection = problem.detection_report()
    success = any(r["success"] for r in reports.values())
    values: dict[str, Any] = {
        "success": success,
        "searches": {
            k: {kk: v[kk] for kk in ("success", "evaluations", "evaluations_to_success", "n_defensible")}
            for k, v in reports.items()
        },
        "best_auc": problem.best_auc(),
        "target_share_all_features": detection["share_all_features_pipelines"],
        "vulnerability": dict(zip(names, vuln.tolist(), strict=False)),
        "detection": detection,
    }
    found = [r["best_hit"] for r in reports.values() if r["best_hit"] is not None]
    artifacts = [str(_plot(Path(output_dir), problem, vuln, names))]
    checks = [
        Check(
            name="defensible_set_nonempty",
            passed=detection["n_defensible"] > 0,
            message=f"{detection['n_defensible']} defensible pipelines (AUC >= {problem.best_auc() - tolerance:.3f})",
        ),
        Check(
            name="reference_models_fit",
            passed=problem.best_auc() > 0.5,
            message=f"best validation AUC {problem.best_auc():.3f}",
        ),
    ]
    verb = "below" if goal == "hide" else "above"
    result_text = "succeeded" if success else "failed"
    rank = int(np.argsort(-vuln).tolist().index(target)) + 1
    summary = (
        f"X-hacking {result_text}: searching {', '.join(runs)} ({n_trials} evaluations each) for a defensible pipeline "
        f"(AUC within {tolerance} of the best, {problem.best_auc():.3f}) giving '{target_feature}' a SHAP share {verb} "
        f"{threshold:.0%}. All-feature pipelines give it {detection['share_all_features_pipelines']:.1%}; across the "
        f"{detection['n_defensible']} defensible pipelines its share ranges {detection['share_min']:.1%}-{detection['share_max']:.1%}"
        f"{' (flagged: the explanation depends on arbitrary pipeline choices)' if detection['flag'] else ''}. "
        f"Its redundancy-based vulnerability score is {vuln[target]:.2f} (rank {rank} of {len(names)})."
    )
    diagnostics = {"pipelines_found": found, "reports": reports, "n_evaluations": len(problem.history)}
    return MethodResult(
        summary=summary, values=values, checks=checks, artifacts=artifacts, diagnostics=diagnostics
    )


def _plot(out: Path, problem: Any, vuln: np.ndarray, names: list[str]) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    path = out / f"x_hacking_{_slug(names[problem.target])}.png"
    fig, axes = plt.subplots(1, 2, figsize=(12, 4))
    floor = problem.best_auc() - problem.tolerance
    for kind, marker in (("default", "*"), ("random", "o"), ("tpe", "^")):
        pts = [(e.auc, e.share(problem.target)) for e in problem.history if e.search == kind]
        if pts:
            a, s = zip(*pts, strict=False)
            axes[0].scatter(a, s, marker=marker, s=60 if kind == "default" else 18, label=kind, alpha=0.7)
    axes[0].axvline(floor, ls="--", c="gray", label="defensible AUC floor")
    axes[0].axhline(problem.threshold, ls=":", c="red", label="goal threshold")
    axes[0].set(
        xlabel="validation AUC", ylabel=f"SHAP share of {names[problem.target]}", title="pipelines searched"
    )
    axes[0].legend(fontsize=8)
    order = np.argsort(-vuln)[:20]
    colors = ["C3" if j == problem.target else "C0" for j in order]
    axes[1].barh([names[j] for j in order][::-1], vuln[order][::-1], color=colors[::-1])
    axes[1].set(xlabel="vulnerability (R^2 from the other features)", title="redundancy-based vulnerability")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in text).strip("_").lower() or "feature"
