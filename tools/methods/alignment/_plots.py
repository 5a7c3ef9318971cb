"""The two figures of the survey benchmark: covariate balance and weights; answer distributions."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["plot_distributions", "plot_weighting"]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_weighting(path: str, asmd_before: dict[str, float], asmd_after: dict[str, float], weights: np.ndarray,
                   method: str) -> None:
    """ASMD of every covariate before and after weighting (a love plot), and the weights' histogram."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    names = list(asmd_before)
    y = np.arange(len(names))
    left.scatter([asmd_before[c] for c in names], y, marker="o", color="tab:red", label="unweighted sample")
    left.scatter([asmd_after[c] for c in names], y, marker="s", color="tab:blue", label=f"{method} weights")
    left.axvline(0.1, color="grey", ls=":", lw=1, label="0.1 (balanced)")
    left.set_yticks(y, names)
    left.set_ylim(-0.8, len(names) - 0.2)
    left.set_xlim(left=-0.02)
    left.set_xlabel("absolute standardised mean difference (ASMD)")
    left.set_ylabel("covariate")
    left.set_title("Covariate balance against the population")
    left.legend(fontsize=8, loc="upper center", ncols=3, bbox_to_anchor=(0.5, -0.2))
    relative = weights / weights.mean()
    right.hist(relative, bins=40, color="tab:blue", alpha=0.8, label="respondents")
    right.axvline(5.0, color="tab:red", ls="--", lw=1, label="5 × mean (extreme)")
    right.set_xlabel("weight / mean weight")
    right.set_ylabel("respondents")
    right.set_title("Weights")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_distributions(path: str, rows: dict[str, dict[str, Any]], confidence: float, where: str = "") -> None:
    """Per question: unweighted and weighted answer shares (with their intervals) and the model's answers.

    ``rows[question]`` holds ``levels``, ``unweighted``, ``weighted``, ``lower``, ``upper`` and optionally
    ``model`` (arrays over the levels)."""
    plt = _pyplot()
    questions = list(rows)
    cols = min(len(questions), 3)
    nrows = int(np.ceil(len(questions) / cols))
    fig, axes = plt.subplots(nrows, cols, figsize=(4.4 * cols, 3.4 * nrows), squeeze=False)
    for ax, question in zip(axes.ravel(), questions, strict=False):
        row = rows[question]
        x = np.arange(len(row["levels"]))
        weighted = np.asarray(row["weighted"])
        err = np.vstack([weighted - np.asarray(row["lower"]), np.asarray(row["upper"]) - weighted])
        ax.bar(x - 0.2, row["unweighted"], width=0.4, color="lightgrey", edgecolor="grey", label="unweighted sample")
        ax.bar(x + 0.2, weighted, width=0.4, color="tab:blue", yerr=err, capsize=3,
               label=f"weighted population ({round(100 * confidence)}% interval)")
        if row.get("model") is not None:
            ax.scatter(x, row["model"], color="tab:red", marker="D", zorder=3, label="model")
        ax.set_xticks(x, row["levels"], rotation=20, fontsize=8)
        ax.set_xlabel("answer")
        ax.set_ylabel("share")
        ax.set_title(f"{question} ({where})" if where else question)
        ax.legend(fontsize=7)
    for ax in axes.ravel()[len(questions):]:
        ax.remove()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
