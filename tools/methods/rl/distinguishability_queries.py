"""Distinguishability queries for reward learning (Feng, Jiang, Kaufmann, Hüllermeier, Weng, Zhu; ICML 2025).

"Comparing Comparisons": instead of one pair of trajectories, the labeler sees two pairs, says which pair is
easier to compare, then gives a preference on that pair.  The first answer compares utility *gaps* and so
carries preference strength (cardinal utility) that ordinal pairwise answers lack, and the preference is
asked where the labeler is most reliable.  Queries are chosen to trade informativeness (mutual information
with the reward parameters under a Laplace posterior) against easiness (how reliable the labeler will be).

The tool runs both query types with the same budget, the same simulated labeler and the same reward model
(linear in the segments' features) on a tabular gridworld and on gymnasium classic-control tasks, and reports
the Pearson correlation of learned and true utilities on held-out segments and the labeler's error rate.
Likelihoods, labeler and selection rules live in :mod:`._preferences`; environments in :mod:`._envs`.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import blas_threads, check_positive, check_range, output_path
from cmbagent.tools.methods.rl._envs import (
    CLASSIC_CONTROL,
    Segments,
    gym_segments,
    make_env,
    tabular_segments,
)
from cmbagent.tools.methods.rl._io import spread
from cmbagent.tools.methods.rl._preferences import (
    Answers,
    Labeler,
    LinearRewardModel,
    select_distq,
    select_pairwise,
)

__all__ = ["compare_query_types", "distinguishability_queries", "run_queries"]

PAPER = Paper(
    title="Comparing Comparisons: Informative and Easy Human Feedback with Distinguishability Queries",
    authors="Feng, Jiang, Kaufmann, Hüllermeier, Weng, Zhu",
    year=2025,
)
QUERY_TYPES = ("pairwise", "distq")
ENVIRONMENTS = ("tabular", *CLASSIC_CONTROL)


def _standardise(pool: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scale features by the pool's spread and drop the constant ones (a constant shifts every utility alike)."""
    mean, std = pool.mean(axis=0), pool.std(axis=0)
    keep = std > 1e-9 * max(1.0, float(np.abs(pool).max()))
    return (pool[:, keep] - mean[keep]) / std[keep], (test[:, keep] - mean[keep]) / std[keep]


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    if np.std(x) == 0 or np.std(y) == 0:
        return 0.0
    return float(np.corrcoef(x, y)[0, 1])


def run_queries(pool: Segments, test: Segments, kind: str, *, n_queries: int, batch: int, labeler: Labeler,
                selection: str, easiness_weight: float, prior_precision: float,
                rng: np.random.Generator, posterior_draws: int = 64) -> dict[str, Any]:
    """Ask ``n_queries`` queries of one type, refitting the reward model after each batch.

    Returns the Pearson correlation of learned and true utilities on the test segments after every batch,
    the labeler's errors (preferences against the true utility order) and whether every fit converged.
    """
    if kind not in QUERY_TYPES:
        raise UserError(f"query type: choose one of {', '.join(QUERY_TYPES)}, got {kind!r}")
    phi, phi_test = _standardise(pool.features, test.features)
    u = pool.utilities
    answers = Answers(kind)
    model = LinearRewardModel(prior_precision)
    theta = np.zeros(phi.shape[1])
    draws: np.ndarray | None = None
    curve: list[tuple[int, float]] = [(0, 0.0)]
    errors, asked, converged = 0, 0, True
    while asked < n_queries:
        size = min(batch, n_queries - asked)
        active = selection == "active" and len(answers) > 0
        if kind == "pairwise":
            for a, b in select_pairwise(phi, draws if active else None, size, rng):
                y = bool(labeler.prefers_first(u[a], u[b], rng))
                errors += int(u[a] != u[b] and y != (u[a] > u[b]))
                answers.rows.append((int(a), int(b), int(y)))
        else:
            for a, b, c, d in select_distq(phi, draws if active else None, size, rng, easiness_weight=easiness_weight):
                z = bool(labeler.first_pair_easier(u[a] - u[b], u[c] - u[d], rng))
                p, q = (a, b) if z else (c, d)
                y = bool(labeler.prefers_first(u[p], u[q], rng))
                errors += int(u[p] != u[q] and y != (u[p] > u[q]))
                answers.rows.append((int(a), int(b), int(c), int(d), int(z), int(y)))
        asked += size
        model.fit(phi, answers, start=theta)
        theta = model.theta_
        converged &= model.converged_
        draws = model.sample(posterior_draws, rng)
        curve.append((asked, _pearson(phi_test @ theta, test.utilities)))
    return {"pearson": curve[-1][1], "curve": curve, "labeler_errors": errors, "labeler_error_rate": errors / asked,
            "converged": converged, "theta": theta}


def _segments(environment: str, n: int, *, horizon: int, grid_size: int, slip: float, rewards: np.ndarray | None,
              rng: np.random.Generator) -> Segments:
    if environment == "tabular":
        if rewards is None:
            raise UserError("tabular segments need the state rewards")
        return tabular_segments(n, side=grid_size, horizon=horizon, slip=slip, rewards=rewards, rng=rng)
    return gym_segments(environment, n, horizon=horizon, rng=rng)


def compare_query_types(environment: str, *, n_queries: int, batch: int, n_seeds: int, rationality: float,
                        mistake_rate: float, selection: str, easiness_weight: float, pool_size: int,
                        test_size: int, horizon: int, grid_size: int, slip: float, prior_precision: float,
                        seed: int) -> dict[str, Any]:
    """Both query types on ``n_seeds`` fresh problems of one environment (same pools and labeler per seed)."""
    per_seed: dict[str, list[dict[str, Any]]] = {k: [] for k in QUERY_TYPES}
    ceilings = []
    for s in range(n_seeds):
        rng = np.random.default_rng([seed, s])
        rewards = rng.normal(size=grid_size * grid_size) if environment == "tabular" else None
        pool = _segments(environment, pool_size, horizon=horizon, grid_size=grid_size, slip=slip, rewards=rewards,
                         rng=rng)
        test = _segments(environment, test_size, horizon=horizon, grid_size=grid_size, slip=slip, rewards=rewards,
                         rng=rng)
        scale = float(pool.utilities.std())
        if scale <= 1e-12:
            raise DataError(f"{environment}: every segment has the same utility ({pool.utilities[0]:g}), so preferences "
                            f"carry no information (tasks paying −1 per step until a goal need segments long enough to "
                            f"reach it). Use a horizon longer than {horizon} steps or another environment")
        phi, phi_test = _standardise(pool.features, test.features)
        fit, *_ = np.linalg.lstsq(np.c_[phi, np.ones(len(phi))], pool.utilities, rcond=None)
        ceilings.append(_pearson(np.c_[phi_test, np.ones(len(phi_test))] @ fit, test.utilities))
        labeler = Labeler(rationality=rationality, mistake_rate=mistake_rate, scale=scale)
        for k, kind in enumerate(QUERY_TYPES):
            per_seed[kind].append(run_queries(
                pool, test, kind, n_queries=n_queries, batch=batch, labeler=labeler, selection=selection,
                easiness_weight=easiness_weight, prior_precision=prior_precision,
                rng=np.random.default_rng([seed, s, k + 1])))
    out: dict[str, Any] = {}
    for kind in QUERY_TYPES:
        out[kind] = {"pearson": spread([r["pearson"] for r in per_seed[kind]]),
                     "labeler_error_rate": spread([r["labeler_error_rate"] for r in per_seed[kind]])}
    gains = [d["pearson"] - p["pearson"] for d, p in zip(per_seed["distq"], per_seed["pairwise"], strict=True)]
    out["pearson_gain"] = spread(gains)
    out["distq_wins"] = int(sum(g > 0 for g in gains))
    out["feature_ceiling"] = spread(ceilings)
    out["curves"] = {kind: np.mean([[c[1] for c in r["curve"]] for r in per_seed[kind]], axis=0).tolist()
                     for kind in QUERY_TYPES}
    out["queries"] = [c[0] for c in per_seed["pairwise"][0]["curve"]]
    out["converged"] = all(r["converged"] for rs in per_seed.values() for r in rs)
    out["per_seed_pearson"] = {kind: [r["pearson"] for r in per_seed[kind]] for kind in QUERY_TYPES}
    return out


@method(
    "rl.distinguishability_queries",
    paper=PAPER,
    keywords=["distinguishability queries", "distinguishability query", "DistQ", "preference learning",
              "pairwise comparisons", "RLHF", "reward learning", "human feedback", "preference strength",
              "cardinal utility", "query selection", "Bradley-Terry"],
    example="distinguishability_queries(environments=['tabular', 'Pendulum-v1'], n_queries=100, n_seeds=5)",
)
def distinguishability_queries(
    environments: list[str] | None = None,
    n_queries: int = 100,
    batch: int = 10,
    n_seeds: int = 5,
    rationality: float = 2.0,
    mistake_rate: float = 0.0,
    selection: Literal["active", "random"] = "active",
    easiness_weight: float = 0.7,
    pool_size: int = 300,
    test_size: int = 300,
    horizon: int | None = None,
    grid_size: int = 5,
    slip: float = 0.1,
    prior_precision: float = 0.1,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Learn rewards from distinguishability queries vs pairwise comparisons with the same query budget.

    For each environment ('tabular' = a gridworld with random state rewards, or a gymnasium classic-control id)
    and seed, draws a pool and a held-out set of trajectory segments, then asks a simulated labeler
    ``n_queries`` queries of each type, refitting a linear reward model (Bradley–Terry; for DistQ also the
    easiness likelihood) after each batch and choosing the next batch by mutual information (DistQ: traded
    against easiness) or at random. Reports the Pearson correlation of learned and true utilities on held-out
    segments and the labeler's error rate per query type, with mean and spread over seeds; the best linear fit
    of the true utilities ('feature ceiling') bounds what any reward model of this class can reach.

    Args:
        environments: 'tabular' and/or gymnasium ids (CartPole-v1, Acrobot-v1, MountainCar-v0, MountainCarContinuous-v0, Pendulum-v1).
        n_queries: Queries of each type per seed (the equal budget).
        batch: Queries asked between two refits of the reward model.
        n_seeds: Independent problems (rewards, pools, labeler noise).
        rationality: Labeler rationality β: P(correct) = σ(β·|Δu|/std u).
        mistake_rate: Probability that the labeler answers at random.
        selection: 'active' (informativeness/easiness) or 'random' queries.
        easiness_weight: Weight w of easiness against informativeness in DistQ selection (0 = pure information).
        pool_size: Segments queries are drawn from.
        test_size: Held-out segments the correlation is measured on.
        horizon: Steps per segment (default 12 for the gridworld, 40 for gymnasium tasks).
        grid_size: Side of the gridworld.
        slip: Probability that a gridworld move goes in a random direction.
        prior_precision: Precision λ of the Gaussian prior on the reward weights.
        seed: Random seed.
        output_dir: Folder for the figure.
    """
    environments = list(environments) if environments is not None else ["tabular", "Pendulum-v1"]
    if not environments:
        raise UserError("environments: give at least one ('tabular' or a gymnasium classic-control id)")
    for env_id in environments:
        if env_id != "tabular":
            make_env(env_id, argument="environments").close()
    for value, name in ((n_queries, "n_queries"), (batch, "batch"), (n_seeds, "n_seeds"), (pool_size, "pool_size"),
                        (test_size, "test_size"), (grid_size, "grid_size")):
        check_positive(value, argument=name, integer=True)
    if horizon is not None:
        check_positive(horizon, argument="horizon", integer=True)
    check_positive(rationality, argument="rationality")
    check_positive(prior_precision, argument="prior_precision")
    check_range(mistake_rate, 0.0, 1.0, argument="mistake_rate")
    check_range(easiness_weight, 0.0, 1.0, argument="easiness_weight")
    check_range(slip, 0.0, 1.0, argument="slip")
    if selection not in ("active", "random"):
        raise UserError(f"selection: choose 'active' or 'random', got {selection!r}")
    if pool_size < 4:
        raise UserError(f"pool_size: a distinguishability query needs at least 4 segments, got {pool_size}")
    results, skipped = {}, {}
    for env_id in environments:
        steps = horizon or (12 if env_id == "tabular" else 40)
        try:
            with blas_threads():
                results[env_id] = compare_query_types(
                    env_id, n_queries=n_queries, batch=batch, n_seeds=n_seeds, rationality=rationality,
                    mistake_rate=mistake_rate, selection=selection, easiness_weight=easiness_weight,
                    pool_size=pool_size, test_size=test_size, horizon=steps, grid_size=grid_size, slip=slip,
                    prior_precision=prior_precision, seed=seed)
        except DataError as exc:  # one uninformative task must not discard the others' results
            if len(environments) == 1:
                raise
            skipped[env_id] = str(exc)
    if not results:
        raise DataError("no environment gave informative preferences: " + "; ".join(skipped.values()))
    values: dict[str, Any] = {env: {k: v for k, v in r.items() if k not in ("curves", "queries", "per_seed_pearson", "converged")}
              for env, r in results.items()}
    checks = [Check(name="reward fits converged", passed=all(r["converged"] for r in results.values()),
                    message="L-BFGS converged for every refit" if all(r["converged"] for r in results.values())
                    else "some refits stopped before convergence; raise prior_precision")]
    checks += [Check(name=f"{env}: informative segments", passed=False, message=reason)
               for env, reason in skipped.items()]
    if skipped:
        values["skipped"] = skipped
    for env, r in results.items():
        d, p = r["distq"], r["pairwise"]
        checks.append(Check(
            name=f"{env}: DistQ recovers utilities at least as well",
            passed=d["pearson"]["mean"] >= p["pearson"]["mean"],
            message=f"Pearson {d['pearson']['mean']:.3f} ± {d['pearson']['std']:.3f} (DistQ) vs "
                    f"{p['pearson']['mean']:.3f} ± {p['pearson']['std']:.3f} (pairwise); DistQ higher on "
                    f"{r['distq_wins']}/{n_seeds} seeds"))
        checks.append(Check(
            name=f"{env}: fewer labeler errors with DistQ",
            passed=d["labeler_error_rate"]["mean"] <= p["labeler_error_rate"]["mean"],
            message=f"error rate {d['labeler_error_rate']['mean']:.3f} (DistQ) vs "
                    f"{p['labeler_error_rate']['mean']:.3f} (pairwise)"))
    figure = output_path(output_dir, "distinguishability_queries.png")
    _plot(str(figure), results)
    summary = (f"{n_queries} queries per type, {n_seeds} seeds, labeler rationality {rationality:g}, mistake rate "
               f"{mistake_rate:g}, {selection} selection: " + "; ".join(
                   f"{env}: Pearson {r['distq']['pearson']['mean']:.3f} (DistQ) vs {r['pairwise']['pearson']['mean']:.3f}"
                   f" (pairwise), labeler errors {r['distq']['labeler_error_rate']['mean']:.1%} vs "
                   f"{r['pairwise']['labeler_error_rate']['mean']:.1%}, feature ceiling "
                   f"{r['feature_ceiling']['mean']:.3f}" for env, r in results.items())
               + ". The easiness answer compares utility gaps, so it conveys preference strength, and the labeler "
               "answers the preference where it is least likely to err.")
    diagnostics = {env: {"queries": r["queries"], "mean_pearson_curve": r["curves"],
                         "per_seed_pearson": r["per_seed_pearson"]} for env, r in results.items()}
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[str(figure)],
                        diagnostics=diagnostics)


def _plot(path: str, results: dict[str, dict[str, Any]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(results), 2, figsize=(9, 3.6 * len(results)), squeeze=False)
    for row, (env, r) in zip(axes, results.items(), strict=True):
        for kind, label in (("pairwise", "pairwise"), ("distq", "distinguishability")):
            row[0].plot(r["queries"], r["curves"][kind], "o-", ms=3, label=label)
        row[0].axhline(r["feature_ceiling"]["mean"], color="grey", ls=":", label="feature ceiling")
        row[0].set_xlabel("queries")
        row[0].set_ylabel("Pearson(learned, true utility)")
        row[0].set_title(env)
        row[0].legend(fontsize=8)
        rates = [r[k]["labeler_error_rate"]["mean"] for k in QUERY_TYPES]
        errs = [r[k]["labeler_error_rate"]["std"] for k in QUERY_TYPES]
        row[1].bar(["pairwise", "distinguishability"], rates, yerr=errs, color=["C0", "C1"])
        row[1].set_ylabel("labeler error rate")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
