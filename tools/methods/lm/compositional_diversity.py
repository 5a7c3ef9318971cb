"""Compositional generalisation from combinatorial coverage (Uselis et al., arXiv 2507.07102).

Inputs are built from two concepts c1, c2 ∈ {0..n−1} (think shape and colour).  Training covers only
n·k of the n² combinations — each value of c1 is seen with k values of c2 — at a fixed number of samples;
the rest are unseen.  The paper's claim: generalisation to unseen combinations rises with the coverage k,
and it goes together with *linearly factored* representations, z ≈ u_{c1} + v_{c2}.  The tool generates
such (n, k) grids, trains a small encoder with one head per concept, and reports unseen-combination accuracy
and the additive-fit R² of the representation against k.  It also scores a user's embeddings with concept
labels (additive R² and a linear probe on held-out combinations).

Rendering: each concept value has a random prototype; an input is a fixed random two-layer tanh network
applied to the sum of the two prototypes plus noise, so the concepts are entangled nonlinearly in input space.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from torch import nn

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import check_positive, output_path, set_threads
from cmbagent.tools.methods.lm._io import load_records

__all__ = ["additive_r2", "compositional_diversity", "coverage_grid", "score_embeddings", "trend"]

PAPER = Paper(
    title="Does Data Scaling Lead to Visual Compositional Generalization?",
    arxiv="2507.07102",
    authors="Arnas Uselis, Andrea Dittadi, Seong Joon Oh",
    year=2025,
)


def coverage_grid(n: int, k: int, seed: int = 0) -> np.ndarray:
    """Boolean (n, n) mask of training combinations: value i of c1 is paired with c2 = π(i + j mod n), j < k.

    Every c1 value is seen with exactly k c2 values and every c2 value with exactly k c1 values.
    """
    if not 1 <= k <= n:
        raise UserError(f"ks: coverage k must lie in [1, n] = [1, {n}], got {k}")
    perm = np.random.default_rng(seed).permutation(n)
    mask = np.zeros((n, n), dtype=bool)
    for i in range(n):
        for j in range(k):
            mask[i, perm[(i + j) % n]] = True
    return mask


def additive_r2(z: np.ndarray, c1: np.ndarray, c2: np.ndarray) -> float:
    """R² of the best additive fit z ≈ μ + u_{c1} + v_{c2} to the per-combination mean representations.

    Two-way main-effects fit on the combination means present (alternating least squares, which is exact for
    a complete grid); R² = 1 − SS_res / SS_tot summed over dimensions.
    """
    z = np.asarray(z, dtype=float)
    combos = sorted(set(zip(c1.tolist(), c2.tolist(), strict=True)))
    if len(combos) < 3:
        raise DataError("labels: need at least 3 distinct concept combinations for an additive fit")
    means = np.stack([z[(c1 == a) & (c2 == b)].mean(0) for a, b in combos])
    a_idx = np.array([a for a, _ in combos])
    b_idx = np.array([b for _, b in combos])
    mu = means.mean(0)
    u = {a: np.zeros(z.shape[1]) for a in set(a_idx.tolist())}
    v = {b: np.zeros(z.shape[1]) for b in set(b_idx.tolist())}
    for _ in range(50):
        for a in u:
            rows = a_idx == a
            u[a] = (means[rows] - mu - np.stack([v[b] for b in b_idx[rows]])).mean(0)
        for b in v:
            rows = b_idx == b
            v[b] = (means[rows] - mu - np.stack([u[a] for a in a_idx[rows]])).mean(0)
    fit = mu + np.stack([u[a] for a in a_idx]) + np.stack([v[b] for b in b_idx])
    total = ((means - means.mean(0)) ** 2).sum()
    return float(1.0 - ((means - fit) ** 2).sum() / total) if total > 0 else 1.0


class _Renderer:
    def __init__(self, n: int, dim: int, seed: int):
        rng = np.random.default_rng(10_000 + seed)
        self.p1 = rng.normal(size=(n, 16))
        self.p2 = rng.normal(size=(n, 16))
        self.w1 = rng.normal(size=(16, 64)) / 4.0
        self.w2 = rng.normal(size=(64, dim)) / 8.0

    def __call__(self, c1: np.ndarray, c2: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
        h = self.p1[c1] + self.p2[c2] + noise * rng.normal(size=(len(c1), 16))
        return np.tanh(np.tanh(h @ self.w1 * 2.0) @ self.w2 * 3.0)


class _Encoder(nn.Module):
    def __init__(self, dim: int, n: int, width: int = 128, rep: int = 32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(dim, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                  nn.Linear(width, rep))
        self.head1 = nn.Linear(rep, n)
        self.head2 = nn.Linear(rep, n)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        z = self.body(x)
        return z, self.head1(torch.relu(z)), self.head2(torch.relu(z))


def _one(n: int, k: int, *, n_train: int, dim: int, noise: float, epochs: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    render = _Renderer(n, dim, seed)
    mask = coverage_grid(n, k, seed)
    seen = np.argwhere(mask)
    pick = seen[rng.integers(len(seen), size=n_train)]
    x = render(pick[:, 0], pick[:, 1], rng, noise)
    unseen = np.argwhere(~mask)
    all_pairs = np.argwhere(np.ones((n, n), dtype=bool))
    test_pairs = np.repeat(all_pairs, 20, axis=0)
    x_test = render(test_pairs[:, 0], test_pairs[:, 1], rng, noise)
    torch.manual_seed(seed)
    model = _Encoder(dim, n)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    xt, y1, y2 = torch.tensor(x, dtype=torch.float32), torch.tensor(pick[:, 0]), torch.tensor(pick[:, 1])
    for _ in range(epochs):
        for idx in torch.randperm(n_train).split(128):
            _, l1, l2 = model(xt[idx])
            loss = nn.functional.cross_entropy(l1, y1[idx]) + nn.functional.cross_entropy(l2, y2[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        z, l1, l2 = model(torch.tensor(x_test, dtype=torch.float32))
    correct = (l1.argmax(1).numpy() == test_pairs[:, 0]) & (l2.argmax(1).numpy() == test_pairs[:, 1])
    is_unseen = ~mask[test_pairs[:, 0], test_pairs[:, 1]]
    return {
        "unseen_accuracy": float(correct[is_unseen].mean()) if unseen.size else float("nan"),
        "seen_accuracy": float(correct[~is_unseen].mean()),
        "additive_r2": additive_r2(z.numpy(), test_pairs[:, 0], test_pairs[:, 1]),
    }


def score_embeddings(z: np.ndarray, c1: np.ndarray, c2: np.ndarray, *, seed: int = 0) -> dict[str, float]:
    """Additive R² of given embeddings, and linear probes' accuracy on combinations held out from their fit."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    combos = sorted(set(zip(c1.tolist(), c2.tolist(), strict=True)))
    rng = np.random.default_rng(seed)
    held = {combos[i] for i in rng.permutation(len(combos))[: max(1, len(combos) // 5)]}
    test = np.array([(a, b) in held for a, b in zip(c1.tolist(), c2.tolist(), strict=True)])
    scaler = StandardScaler().fit(z[~test])
    accuracy = []
    for labels in (c1, c2):
        if len(set(labels[~test].tolist())) < 2:
            raise DataError("labels: every concept needs at least two values among the probe's training rows")
        probe = LogisticRegression(max_iter=2000).fit(scaler.transform(z[~test]), labels[~test])
        accuracy.append(probe.predict(scaler.transform(z[test])) == labels[test])
    both = accuracy[0] & accuracy[1]
    return {"additive_r2": additive_r2(z, c1, c2), "heldout_combination_accuracy": float(both.mean()),
            "n_combinations": len(combos), "n_heldout_combinations": len(held)}


def _spearman(x: Sequence[float], y: Sequence[float]) -> float:
    from scipy.stats import spearmanr

    if len(set(y)) < 2:
        return float("nan")
    return float(spearmanr(x, y).statistic)


def trend(ks: Sequence[float], curves: Sequence[Sequence[float]]) -> dict[str, Any]:
    """The trend of a measure against k over seeds: the common least-squares slope with a 95% interval, and the
    per-seed slopes with their spread.

    Single seeds wobble (a curve rising overall can swap two neighbouring levels), so the claim is judged on all
    seeds at once: a regression with one intercept per seed and one slope (the mean of the per-seed slopes, as
    every seed runs the same levels), whose Student-t interval comes from the scatter about the seeds' lines
    (``n_seeds·(levels − 1) − 1`` degrees of freedom; with one seed, the plain regression on its levels).
    """
    from scipy import stats

    x = np.asarray(ks, dtype=float)
    y = np.asarray(curves, dtype=float)  # seeds × levels
    xc = x - x.mean()
    yc = y - y.mean(axis=1, keepdims=True)
    sxx = float((xc**2).sum())
    per_seed = (yc @ xc) / sxx
    slope = float(per_seed.mean())
    dof = y.size - len(y) - 1
    if dof >= 1 and sxx > 0:
        stderr = float(np.sqrt(((yc - slope * xc) ** 2).sum() / dof / (len(y) * sxx)))
        half = float(stats.t.ppf(0.975, dof)) * stderr
    else:  # one seed at two levels: a slope and nothing to judge its noise by
        stderr = half = float("nan")
    return {"slope": slope, "stderr": stderr, "lower_95": slope - half, "upper_95": slope + half, "dof": dof,
            "std_over_seeds": float(per_seed.std(ddof=1)) if len(y) > 1 else float("nan"),
            "per_seed_slope": per_seed.tolist(), "per_seed_spearman": [_spearman(ks, c) for c in y.tolist()],
            "seeds_rising": int((per_seed > 0).sum()), "n_seeds": len(y)}


def _rises(name: str, t: dict[str, Any]) -> Check:
    """Passes when the 95% interval of the mean slope lies above zero (the slope itself when it has none)."""
    interval = bool(np.isfinite(t["lower_95"]))
    rhos = [r for r in t["per_seed_spearman"] if np.isfinite(r)]
    spearman = f"; per-seed Spearman {min(rhos):.2f} to {max(rhos):.2f}" if rhos else ""
    return Check(name=f"{name} rises with k", passed=bool(t["lower_95"] > 0 if interval else t["slope"] > 0),
                 message=f"slope {t['slope']:+.4f} per unit of k"
                         + (f", 95% interval {t['lower_95']:+.4f} to {t['upper_95']:+.4f}" if interval
                            else " (one seed at two levels: no interval)")
                         + (f"; per-seed slopes spread {t['std_over_seeds']:.4f} (sd)" if t["n_seeds"] > 1 else "")
                         + f"; rising at {t['seeds_rising']} of {t['n_seeds']} seed(s){spearman}")


def _read_embeddings(embeddings: str, labels: str, columns: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from pathlib import Path

    file = Path(embeddings)
    if not file.is_file():
        raise UserError(f"embeddings: file {embeddings!r} not found; pass a .npy or .csv array (rows × dimensions)")
    try:
        z = np.load(file, allow_pickle=False) if file.suffix == ".npy" else np.loadtxt(file, delimiter=",", ndmin=2)
    except Exception as exc:
        raise DataError(f"embeddings: could not read {embeddings!r} as a numeric array ({exc})") from exc
    z = np.asarray(z, dtype=float)
    if z.ndim != 2 or z.shape[0] < 10:
        raise DataError(f"embeddings: expected a 2-D array with at least 10 rows, got shape {z.shape}")
    if not np.isfinite(z).all():
        raise DataError("embeddings: contains NaN or infinite values")
    if len(columns) != 2:
        raise UserError(f"concept_columns: give exactly two concept columns, got {columns}")
    rows = load_records(labels, argument="labels", required=columns)
    if len(rows) != len(z):
        raise DataError(f"labels: {len(rows)} rows but embeddings has {len(z)}; give one label row per embedding")
    codes = []
    for column in columns:
        values = [str(r[column]) for r in rows]
        levels = {v: i for i, v in enumerate(sorted(set(values)))}
        codes.append(np.array([levels[v] for v in values]))
    return z, codes[0], codes[1]


@method(
    "lm.compositional_diversity",
    paper=PAPER,
    keywords=["compositional generalisation", "compositionality", "data diversity", "combinatorial coverage",
              "unseen combinations", "linear factorisation", "additive representation", "concepts", "disentanglement"],
    example="compositional_diversity(n=6, ks=[1, 2, 3, 4, 5], seeds=[0, 1, 2])",
)
def compositional_diversity(
    n: int = 6,
    ks: list[int] | None = None,
    n_train: int = 1200,
    seeds: list[int] | None = None,
    input_dim: int = 32,
    noise: float = 0.3,
    epochs: int = 20,
    embeddings: InputFile | None = None,
    labels: InputFile | None = None,
    concept_columns: list[str] | None = None,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Measure how combinatorial coverage k drives compositional generalisation and additive representations.

    For each k, trains an encoder (one classification head per concept) on samples from n·k of the n²
    concept combinations at a fixed data size and reports accuracy on unseen combinations and the additive-fit
    R² of its representation, averaged over seeds with their spread, and the trend of each against k: one
    least-squares slope over all seeds (an intercept per seed) with its 95% interval, and the per-seed slopes
    with their spread. A single seed may swap two neighbouring levels; the claim is the trend, judged by that
    interval lying above zero. With
    ``embeddings`` and ``labels``, scores those instead: additive R² and held-out-combination probe accuracy.

    Args:
        n: Values per concept (the grid is n × n).
        ks: Coverage levels to compare (default 1 … n−1).
        n_train: Training samples at every k (fixed data size).
        seeds: Seeds per k (default [0, 1, 2]).
        input_dim: Dimension of the rendered inputs.
        noise: Noise added to the concept prototypes before rendering.
        epochs: Training epochs of each encoder.
        embeddings: Optional .npy/.csv array of a model's embeddings (rows × dimensions) to score.
        labels: CSV/JSONL with the two concept labels of each embedding row.
        concept_columns: The two label columns (default the first two columns of labels).
        output_dir: Folder for the figure.
    """
    set_threads()
    if embeddings is not None or labels is not None:
        if embeddings is None or labels is None:
            raise UserError("embeddings, labels: give both the embedding array and its concept labels")
        columns = concept_columns or list(load_records(labels, argument="labels")[0])[:2]
        z, c1, c2 = _read_embeddings(embeddings, labels, columns)
        scores = score_embeddings(z, c1, c2)
        summary = (f"Embeddings of {len(z)} items over {scores['n_combinations']} combinations of {columns[0]} × "
                   f"{columns[1]}: additive-fit R² {scores['additive_r2']:.3f}; linear probes trained on the other "
                   f"combinations identify both concepts on {scores['n_heldout_combinations']} held-out "
                   f"combinations with accuracy {scores['heldout_combination_accuracy']:.3f}.")
        return MethodResult(summary=summary, values=scores, checks=[
            Check(name="additive structure", passed=scores["additive_r2"] >= 0.5,
                  message=f"additive R² {scores['additive_r2']:.3f}")], diagnostics={"concept_columns": columns})
    check_positive(n, argument="n", integer=True)
    if n < 3:
        raise UserError(f"n: need at least 3 values per concept, got {n}")
    ks = list(range(1, n)) if ks is None else sorted(set(ks))
    seeds = [0, 1, 2] if seeds is None else list(seeds)
    if len(ks) < 2 or not seeds:
        raise UserError("ks, seeds: give at least two coverage levels and one seed")
    if any(k >= n for k in ks):
        raise UserError(f"ks: every k must be < n = {n} so that unseen combinations remain")
    check_positive(n_train, argument="n_train", integer=True)
    check_positive(epochs, argument="epochs", integer=True)
    start = time.perf_counter()
    runs = {k: [_one(n, k, n_train=n_train, dim=input_dim, noise=noise, epochs=epochs, seed=s) for s in seeds]
            for k in ks}
    measures = ("unseen_accuracy", "seen_accuracy", "additive_r2")
    table = [{"k": k, **{m: float(np.mean([r[m] for r in rs])) for m in measures},
              **{f"{m}_std": float(np.std([r[m] for r in rs], ddof=1)) if len(rs) > 1 else 0.0 for m in measures}}
             for k, rs in runs.items()]
    acc = [row["unseen_accuracy"] for row in table]
    r2 = [row["additive_r2"] for row in table]
    rho_acc, rho_r2 = _spearman(ks, acc), _spearman(ks, r2)
    trends = {m: trend(ks, [[runs[k][i][m] for k in ks] for i in range(len(seeds))])
              for m in ("unseen_accuracy", "additive_r2")}
    values: dict[str, Any] = {"per_k": table, "trend": trends, "spearman_unseen_accuracy": rho_acc,
                              "spearman_additive_r2": rho_r2}
    checks = [
        _rises("unseen accuracy", trends["unseen_accuracy"]),
        _rises("additive R²", trends["additive_r2"]),
        Check(name="seen combinations learned", passed=min(row["seen_accuracy"] for row in table) >= 0.8,
              message=f"lowest seen-combination accuracy {min(row['seen_accuracy'] for row in table):.3f}"),
    ]
    figure = output_path(output_dir, "compositional_diversity.png")
    _plot(str(figure), table, n, n_train)
    def slope(t: dict[str, Any]) -> str:
        interval = (f", 95% interval {t['lower_95']:+.3f} to {t['upper_95']:+.3f}" if np.isfinite(t["lower_95"])
                    else "")
        spread = f", sd {t['std_over_seeds']:.3f} over seeds" if t["n_seeds"] > 1 else ""
        return (f"{t['slope']:+.3f} per unit of k{interval}{spread}, rising at {t['seeds_rising']} of "
                f"{t['n_seeds']} seed(s)")

    summary = (f"On a {n}×{n} concept grid with {n_train} training samples, unseen-combination accuracy goes "
               + ", ".join(f"{row['unseen_accuracy']:.2f}" for row in table)
               + " and additive R² " + ", ".join(f"{row['additive_r2']:.2f}" for row in table)
               + f" for k = {ks} (means over {len(seeds)} seeds). Trend over seeds: unseen accuracy "
               + slope(trends["unseen_accuracy"]) + "; additive R² " + slope(trends["additive_r2"]) + ".")
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[str(figure)],
                        diagnostics={"seconds": time.perf_counter() - start, "seeds": seeds,
                                     "per_seed": {str(k): rs for k, rs in runs.items()}})


def _plot(path: str, table: list[dict[str, float]], n: int, n_train: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = [row["k"] for row in table]
    fig, ax = plt.subplots(figsize=(5.5, 4))
    ax.plot(ks, [row["unseen_accuracy"] for row in table], "o-", label="unseen-combination accuracy")
    ax.plot(ks, [row["additive_r2"] for row in table], "s-", label="additive-fit R²")
    ax.set_xlabel("combinatorial coverage k (c2 values seen per c1 value)")
    ax.set_ylabel("accuracy or R² (fraction)")
    ax.set_ylim(0, 1.02)
    ax.set_title(f"{n}×{n} grid, {n_train} training samples")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
