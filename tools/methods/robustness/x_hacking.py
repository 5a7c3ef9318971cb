"""X-hacking (Sharma et al., arXiv 2401.08513): search the defensible set for a desired SHAP explanation.

A *pipeline* is a feature selection (keep/drop each feature), a per-feature scaler and a model family
with its hyperparameters. It is *defensible* when its validation AUC is within ``tolerance`` of the best
AUC found. X-hacking searches the defensible set for a pipeline whose explanation says what the hacker
wants -- here, that a target feature's share of the mean |SHAP| is below (``hide``) or above
(``promote``) a threshold. SHAP values are taken with respect to the *input* features of the whole
pipeline, so a feature that the pipeline drops has SHAP value 0.

Why redundancy matters: if other features predict the target feature well, a pipeline can drop it (or
lean on its proxy) and lose almost no AUC, so hiding it is cheap. The vulnerability score of a feature is
therefore the cross-validated R^2 of predicting it from the other features. The detection report shows
the spread of the target feature's SHAP share across the defensible set: a wide spread means the
explanation depends on arbitrary pipeline choices and a single reported explanation should not be trusted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods._registry import Paper, method
from cmbagent.tools.methods._result import Check, MethodResult
from cmbagent.tools.methods.robustness._io import load_table

__all__ = ["PipelineEval", "XHackingSearch", "check_xy", "make_proxy_data", "rashomon_spread", "vulnerability_scores",
           "x_hacking"]

MODELS = ("logistic", "random_forest", "xgboost")
SCALERS = ("none", "standard", "minmax")
KEEP = 0.8  # feature selection in AutoML drops a few features, not half of them


@dataclass
class PipelineEval:
    """One evaluated pipeline."""

    params: dict[str, Any]
    auc: float
    shares: np.ndarray  # share of mean |SHAP| per input feature (sums to 1)
    evaluation: int
    search: str

    def share(self, j: int) -> float:
        return float(self.shares[j])


@dataclass
class XHackingSearch:
    """Data, split and evaluation of pipelines for one X-hacking problem.

    Args:
        X: features (n, d).
        y: binary outcome.
        feature_names: names of the d features.
        target: index of the feature whose explanation is to be changed.
        goal: ``"hide"`` (share below threshold) or ``"promote"`` (share above threshold).
        threshold: the share threshold.
        tolerance: defensible = validation AUC >= best AUC - tolerance.
        n_shap: validation rows used for SHAP values.
        seed: seed of the split, the models and the searches.
    """

    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    target: int
    goal: str = "hide"
    threshold: float = 0.10
    tolerance: float = 0.02
    n_shap: int = 100
    seed: int = 0
    history: list[PipelineEval] = field(default_factory=list)

    def __post_init__(self) -> None:
        from sklearn.model_selection import train_test_split

        if self.goal not in ("hide", "promote"):
            raise UserError(f"goal must be 'hide' or 'promote', got {self.goal!r}")
        if not 0.0 < self.threshold < 1.0:
            raise UserError(
                f"threshold is a share of mean |SHAP| and must lie in (0, 1); got {self.threshold}"
            )
        if self.tolerance < 0:
            raise UserError(f"tolerance must be >= 0, got {self.tolerance}")
        split = train_test_split(self.X, self.y, test_size=0.3, random_state=self.seed, stratify=self.y)
        self.X_train, self.X_val, self.y_train, self.y_val = split
        self._shap_rows = self.X_val[: self.n_shap]
        self._background = self.X_train[
            np.random.default_rng(self.seed).choice(
                len(self.X_train), min(100, len(self.X_train)), replace=False
            )
        ]
        self._counter = 0

    # ------------------------------------------------------------------ pipelines
    @property
    def d(self) -> int:
        return self.X.shape[1]

    def sample_params(self, rng: np.random.Generator) -> dict[str, Any]:
        """A random pipeline (random search); each feature is kept with probability ``KEEP``."""
        keep = rng.random(self.d) < KEEP
        if not keep.any():
            keep[rng.integers(self.d)] = True
        model = str(rng.choice(MODELS))
        params: dict[str, Any] = {"keep": keep.tolist(), "scaler": str(rng.choice(SCALERS)), "model": model}
        if model == "logistic":
            params |= {"C": float(10 ** rng.uniform(-3, 2)), "penalty": str(rng.choice(["l1", "l2"]))}
        elif model == "random_forest":
            params |= {
                "max_depth": int(rng.integers(2, 9)),
                "max_features": float(rng.choice([0.33, 0.66, 1.0])),
            }
        else:
            params |= {
                "max_depth": int(rng.integers(1, 6)),
                "learning_rate": float(10 ** rng.uniform(-1.5, -0.5)),
                "n_estimators": int(rng.integers(20, 101)),
            }
        return params

    def suggest_params(self, trial: Any) -> dict[str, Any]:
        """The same space, suggested by an optuna trial (TPE)."""
        keep = [bool(trial.suggest_categorical(f"keep_{j}", [True, False])) for j in range(self.d)]
        if not any(keep):
            keep[self.d - 1 if self.target == 0 else 0] = True
        model = trial.suggest_categorical("model", list(MODELS))
        params: dict[str, Any] = {
            "keep": keep,
            "scaler": trial.suggest_categorical("scaler", list(SCALERS)),
            "model": model,
        }
        if model == "logistic":
            params |= {
                "C": trial.suggest_float("C", 1e-3, 1e2, log=True),
                "penalty": trial.suggest_categorical("penalty", ["l1", "l2"]),
            }
        elif model == "random_forest":
            params |= {
                "max_depth": trial.suggest_int("rf_depth", 2, 8),
                "max_features": trial.suggest_categorical("max_features", [0.33, 0.66, 1.0]),
            }
        else:
            params |= {
                "max_depth": trial.suggest_int("xgb_depth", 1, 5),
                "learning_rate": trial.suggest_float("lr", 0.03, 0.3, log=True),
                "n_estimators": trial.suggest_int("n_estimators", 20, 100),
            }
        return params

    def default_pipelines(self) -> list[dict[str, Any]]:
        """Honest all-feature pipelines that set the reference best AUC before any searching."""
        keep = [True] * self.d
        return [
            {"keep": keep, "scaler": "standard", "model": "logistic", "C": 1.0, "penalty": "l2"},
            {"keep": keep, "scaler": "none", "model": "random_forest", "max_depth": 6, "max_features": 0.66},
            {
                "keep": keep,
                "scaler": "none",
                "model": "xgboost",
                "max_depth": 3,
                "learning_rate": 0.1,
                "n_estimators": 100,
            },
        ]

    def evaluate(self, params: dict[str, Any], search: str) -> PipelineEval:
        """Fit the pipeline on the training part; validation AUC and SHAP shares per input feature."""
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        from sklearn.metrics import roc_auc_score

        keep = np.flatnonzero(params["keep"])
        scaler = _scaler(params["scaler"])
        Xtr = self.X_train[:, keep]
        if scaler is not None:
            scaler.fit(Xtr)
        tr = (lambda A: scaler.transform(A)) if scaler is not None else (lambda A: A)
        model = _model(params, self.seed)
        with warnings.catch_warnings():
            # A candidate that stops at max_iter is still a fitted model; its AUC decides whether it is defensible.
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(tr(Xtr), self.y_train)
        auc = float(roc_auc_score(self.y_val, model.predict_proba(tr(self.X_val[:, keep]))[:, 1]))
        phi = _shap_values(
            model, params["model"], tr(self._background[:, keep]), tr(self._shap_rows[:, keep])
        )
        mean_abs = np.zeros(self.d)
        mean_abs[keep] = np.abs(phi).mean(axis=0)
        total = mean_abs.sum()
        shares = mean_abs / total if total > 0 else np.full(self.d, 1.0 / self.d)
        self._counter += 1
        result = PipelineEval(params, auc, shares, self._counter, search)
        self.history.append(result)
        return result

    # ------------------------------------------------------------------ criteria
    def best_auc(self) -> float:
        return max(e.auc for e in self.history)

    def meets_goal(self, share: float) -> bool:
        return share < self.threshold if self.goal == "hide" else share > self.threshold

    def defensible(self, evals: list[PipelineEval] | None = None) -> list[PipelineEval]:
        floor = self.best_auc() - self.tolerance
        return [e for e in (self.history if evals is None else evals) if e.auc >= floor]

    # ------------------------------------------------------------------ searches
    def random_search(self, n_trials: int) -> list[PipelineEval]:
        rng = np.random.default_rng([self.seed, 1])
        return [self.evaluate(self.sample_params(rng), "random") for _ in range(n_trials)]

    def tpe_search(self, n_trials: int) -> list[PipelineEval]:
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        out: list[PipelineEval] = []

        def objective(trial: Any) -> float:
            result = self.evaluate(self.suggest_params(trial), "tpe")
            out.append(result)
            # Distance from the goal, plus a steep penalty for leaving the defensible set.
            gap = result.share(self.target) if self.goal == "hide" else 1.0 - result.share(self.target)
            shortfall = max(0.0, self.best_auc() - self.tolerance - result.auc)
            return gap + 10.0 * shortfall

        sampler = optuna.samplers.TPESampler(seed=self.seed, n_startup_trials=min(10, n_trials))
        study = optuna.create_study(direction="minimize", sampler=sampler)
        study.optimize(objective, n_trials=n_trials)
        return out

    def search_report(self, evals: list[PipelineEval]) -> dict[str, Any]:
        """Success of one search under the *final* defensible set, and the evaluations it needed."""
        hits = [e for e in self.defensible(evals) if self.meets_goal(e.share(self.target))]
        first = min((e.evaluation for e in hits), default=None)
        start = min((e.evaluation for e in evals), default=1)
        return {
            "success": bool(hits),
            "evaluations": len(evals),
            "evaluations_to_success": (first - start + 1) if first is not None else None,
            "n_defensible": len(self.defensible(evals)),
            "best_hit": _describe(min(hits, key=lambda e: e.share(self.target)), self) if hits else None,
        }

    def detection_report(self) -> dict[str, Any]:
        shares = [e.share(self.target) for e in self.defensible()]
        honest = [e for e in self.history if e.search == "default"]
        honest_share = float(np.mean([e.share(self.target) for e in honest])) if honest else float("nan")
        spread = rashomon_spread(shares, reference=honest_share, floor=self.threshold)
        return {
            "n_defensible": spread["n_defensible"],
            "share_min": spread["min"],
            "share_max": spread["max"],
            "share_mean": spread["mean"],
            "share_std": spread["std"],
            "share_all_features_pipelines": honest_share,
            "spread": spread["spread"],
            "flag": spread["flag"],
        }


def rashomon_spread(
    quantities: list[float] | np.ndarray,
    scores: list[float] | np.ndarray | None = None,
    *,
    tolerance: float = 0.02,
    reference: float | None = None,
    floor: float = 0.0,
) -> dict[str, Any]:
    """The detection report of X-hacking for any analysis tried in several defensible variants.

    A variant is defensible when its score (AUC, fit quality; higher is better) is within ``tolerance`` of the
    best variant's (all variants are, without scores). The reported quantity's spread across the defensible
    set is flagged when it exceeds half of ``max(|reference|, floor)`` (``reference``: the quantity of the
    honest, all-features analysis; default the median), i.e. when choosing among equally defensible variants
    changes the answer by more than half its size.
    """
    q = np.asarray(quantities, dtype=float)
    keep = np.isfinite(q)
    if scores is not None:
        s = np.asarray(scores, dtype=float)
        keep &= np.isfinite(s)
        if keep.any():
            keep &= s >= np.max(s[keep]) - tolerance
    q = q[keep]
    if not q.size:
        nan = float("nan")
        return {"n_defensible": 0, "min": nan, "max": nan, "mean": nan, "std": nan, "spread": 0.0, "flag": False}
    ref = float(np.median(q)) if reference is None or not math.isfinite(reference) else float(reference)
    spread = float(q.max() - q.min())
    return {"n_defensible": int(q.size), "min": float(q.min()), "max": float(q.max()), "mean": float(q.mean()),
            "std": float(q.std()), "spread": spread, "reference": ref,
            "flag": bool(spread > 0.5 * max(abs(ref), floor))}


def _describe(e: PipelineEval, search: XHackingSearch) -> dict[str, Any]:
    kept = [search.feature_names[j] for j in np.flatnonzero(e.params["keep"])]
    rest = {k: v for k, v in e.params.items() if k != "keep"}
    return {
        "features": kept,
        **rest,
        "auc": e.auc,
        "target_share": e.share(search.target),
        "evaluation": e.evaluation,
    }


def _scaler(name: str) -> Any:
    from sklearn.preprocessing import MinMaxScaler, StandardScaler

    return {"none": None, "standard": StandardScaler(), "minmax": MinMaxScaler()}[name]


def _model(params: dict[str, Any], seed: int) -> Any:
    if params["model"] == "logistic":
        from sklearn.linear_model import LogisticRegression

        return LogisticRegression(
            C=params["C"],
            l1_ratio=1.0 if params["penalty"] == "l1" else 0.0,
            solver="saga" if params["penalty"] == "l1" else "lbfgs",
            max_iter=2000,
        )
    if params["model"] == "random_forest":
        from sklearn.ensemble import RandomForestClassifier

        return RandomForestClassifier(
            n_estimators=30,
            max_depth=params["max_depth"],
            max_features=params["max_features"],
            random_state=seed,
            n_jobs=1,
        )
    from xgboost import XGBClassifier

    return XGBClassifier(
        n_estimators=params["n_estimators"],
        max_depth=params["max_depth"],
        learning_rate=params["learning_rate"],
        random_state=seed,
        n_jobs=1,
        verbosity=0,
    )


def _shap_values(model: Any, kind: str, background: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """SHAP values of the positive-class margin, shape (rows, kept features)."""
    import warnings

    with warnings.catch_warnings():  # shap's import touches deprecated matplotlib colormap setters
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        import shap

    if kind == "logistic":
        explainer = shap.LinearExplainer(model, background)
        phi = explainer.shap_values(rows)
    else:
        explainer = shap.TreeExplainer(model)
        phi = explainer.shap_values(rows, check_additivity=False)
    phi = np.asarray(phi)
    if phi.ndim == 3:  # (rows, features, classes) for sklearn forests
        phi = phi[..., -1]
    return phi


def vulnerability_scores(X: np.ndarray, *, seed: int = 0) -> np.ndarray:
    """Redundancy of each feature: cross-validated R^2 of predicting it from the others, clipped to [0, 1]."""
    from sklearn.linear_model import LinearRegression
    from sklearn.model_selection import KFold, cross_val_score

    d = X.shape[1]
    if d < 2:
        return np.zeros(d)
    scores = np.zeros(d)
    folds = KFold(n_splits=3, shuffle=True, random_state=seed)
    for j in range(d):
        others = np.delete(X, j, axis=1)
        if np.std(X[:, j]) == 0:
            continue
        r2 = cross_val_score(LinearRegression(), others, X[:, j], cv=folds, scoring="r2")
        scores[j] = float(np.clip(np.mean(r2), 0.0, 1.0))
    return scores


def make_proxy_data(
    n: int = 1000, *, rho: float = 0.95, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Synthetic data: outcome driven mainly by ``x0``; ``proxy`` has correlation ``rho`` with ``x0``."""
    if not -1.0 <= rho <= 1.0:
        raise UserError(f"rho must lie in [-1, 1], got {rho}")
    rng = np.random.default_rng(seed)
    x0 = rng.standard_normal(n)
    proxy = rho * x0 + math.sqrt(1 - rho**2) * rng.standard_normal(n)
    others = rng.standard_normal((n, 3))
    logit = 2.0 * (x0 + others[:, 0]) + others[:, 1]
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    X = np.column_stack([x0, proxy, others])
    return X, y, ["x0", "proxy", "x2", "x3", "x4"]


def check_xy(X: np.ndarray, y: np.ndarray) -> None:
    if not np.isfinite(X).all():
        raise DataError(
            f"features contain {int((~np.isfinite(X)).sum())} NaN/inf values; impute or drop them first"
        )
    values = np.unique(y)
    if values.size != 2:
        raise DataError(f"the outcome must be binary (two classes); found {values.size} distinct values")


PAPER = Paper(
    title="X Hacking: The Threat of Misguided AutoML",
    arxiv="2401.08513",
    authors="Sharma et al.",
    year=2024,
)
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
    data: InputFile,
    target_feature: str,
    label_column: str | None = None,
    goal: Literal["hide", "promote"] = "hide",
    threshold: float = 0.10,
    tolerance: float = 0.02,
    n_trials: int = 40,
    search: Literal["random", "tpe", "both"] = "both",
    seed: int = 0,
    output_dir: OutputDir = "figures",
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
