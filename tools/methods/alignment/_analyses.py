"""The survey methodologist's analyses on top of the weights: population shares, split-ballot framing effects,
drift between waves, test–retest reliability and the alignment gap of a model's answers.

Each returns plain dicts in the result format (a quantity with an uncertainty is ``{mean, std, lower_68, upper_68,
lower_95, upper_95}``), so the tool only assembles them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pandas as pd

from cmbagent.tools.methods.alignment._estimates import (
    Design,
    Linear,
    interval,
    js_divergence,
    kappa,
    share_interval,
    shares,
    stack,
    total_variation,
    wald_test,
)

__all__ = ["Survey", "alignment_gap", "distributions", "drift", "framing", "reliability", "wave_order"]


@dataclass
class Survey:
    """The respondents' answers (text, ``None`` when missing), their answer levels, and the two designs:
    weighted (final weights, calibration, strata) and unweighted (the sample as drawn)."""

    answers: pd.DataFrame
    levels: dict[str, list[str]]
    weighted: Design
    unweighted: Design
    confidence: float = 0.95

    @property
    def tag(self) -> str:
        return f"{round(100 * self.confidence)}"

    def bounds(self, quantity: dict[str, float]) -> tuple[float, float]:
        return quantity[f"lower_{self.tag}"], quantity[f"upper_{self.tag}"]

    def bootstrapped(self, estimate: float, reps: np.ndarray, floor: float | None = None) -> dict[str, float]:
        """A bootstrapped quantity: bias-corrected estimate, the replicates' sd and *basic* bootstrap intervals
        [2θ̂ − q_hi, 2θ̂ − q_lo].  A distance is biased upwards (noise alone makes two equal distributions
        differ), and the replicates are biased again around the plug-in θ̂: percentile intervals would add the
        bias twice; the basic interval and the estimate 2θ̂ − mean(θ*) remove it to first order
        (``bootstrap_bias`` = mean(θ*) − θ̂, the noise floor; ``plug_in`` = θ̂).  ``floor`` clips a quantity
        that cannot be negative."""
        reps = reps[np.isfinite(reps)]
        lo68, hi68, lo, hi = np.quantile(reps, [0.15865, 0.84135, 0.5 - self.confidence / 2,
                                                0.5 + self.confidence / 2])

        def clip(x: float) -> float:
            return float(x if floor is None else max(x, floor))

        return {"mean": clip(2 * estimate - reps.mean()), "std": float(reps.std(ddof=1)),
                "lower_68": clip(2 * estimate - hi68),
                "upper_68": clip(2 * estimate - lo68), f"lower_{self.tag}": clip(2 * estimate - hi),
                f"upper_{self.tag}": clip(2 * estimate - lo), "plug_in": float(estimate),
                "bootstrap_bias": float(reps.mean() - estimate)}


def _normalised(theta: np.ndarray) -> np.ndarray:
    clipped = np.clip(theta, 0.0, None)
    total = clipped.sum(axis=-1, keepdims=True)
    return np.divide(clipped, total, out=np.full_like(clipped, np.nan), where=total > 0)


def distributions(s: Survey, domain: np.ndarray | None = None) -> dict[str, dict[str, dict[str, float]]]:
    """Per question and answer: the weighted share with its design-based interval, beside the unweighted one."""
    out: dict[str, dict[str, dict[str, float]]] = {}
    for q, levels in s.levels.items():
        w = shares(s.weighted, s.answers[q], levels, domain)
        u = shares(s.unweighted, s.answers[q], levels, domain)
        out[q] = {}
        for k, level in enumerate(levels):
            plain = share_interval(u.theta[k], u.std[k], s.confidence)
            out[q][level] = share_interval(w.theta[k], w.std[k], s.confidence) | {
                "unweighted": plain["mean"], "unweighted_std": plain["std"],
                f"unweighted_lower_{s.tag}": plain[f"lower_{s.tag}"],
                f"unweighted_upper_{s.tag}": plain[f"upper_{s.tag}"]}
    return out


def _compare(s: Survey, q: str, first: np.ndarray, second: np.ndarray, design: Design) -> tuple[Linear, Linear]:
    return shares(design, s.answers[q], s.levels[q], first), shares(design, s.answers[q], s.levels[q], second)


def _holm(p: list[float]) -> list[float]:
    from statsmodels.stats.multitest import multipletests

    return [float(v) for v in multipletests(p, method="holm")[1]] if p else []


def framing(s: Survey, ballot: pd.Series) -> dict[str, dict[str, object]]:
    """Split-ballot framing effects: for each question and each wording against the first, the difference of
    the weighted answer shares (with interval) and a design-based Wald χ² test that the wording changes
    nothing; p-values Holm-adjusted over every comparison made."""
    versions = sorted(ballot.dropna().unique().tolist(), key=str)
    out: dict[str, dict[str, object]] = {}
    tests: list[tuple[str, str, float]] = []
    base = (ballot == versions[0]).to_numpy()
    for q in s.levels:
        out[q] = {}
        for version in versions[1:]:
            other = (ballot == version).to_numpy()
            a, b = _compare(s, q, base, other, s.weighted)
            diff = b - a
            stat, df, p = wald_test(diff)
            std = diff.std
            out[q][str(version)] = {
                "against": str(versions[0]),
                "difference": {lv: interval(diff.theta[k], std[k], s.confidence) for k, lv in enumerate(s.levels[q])},
                "total_variation": float(total_variation(a.theta, b.theta)),
                "chi2": stat, "df": df, "p_value": p,
                "n": [int(np.sum(base & s.answers[q].notna().to_numpy())),
                      int(np.sum(other & s.answers[q].notna().to_numpy()))],
            }
            tests.append((q, str(version), p))
    for (q, version, _), adjusted in zip(tests, _holm([t[2] for t in tests]), strict=True):
        out[q][version]["p_value_holm"] = adjusted  # type: ignore[index]
    return out


def drift(s: Survey, wave: pd.Series, xi: np.ndarray) -> dict[str, dict[str, object]]:
    """Change between consecutive waves and from the first to the last: the weighted shares' differences with
    intervals, a Wald χ² test (p-values Holm-adjusted over every comparison), and the total variation between
    the waves' distributions (bootstrapped) beside the unweighted one — composition changes that weighting
    removes show up only in the latter."""
    order = wave_order(wave)
    pairs = list(itertools.pairwise(order))
    if len(order) > 2:
        pairs.append((order[0], order[-1]))
    out: dict[str, dict[str, object]] = {}
    tests: list[tuple[str, str, float]] = []
    for q, levels in s.levels.items():
        out[q] = {}
        for first, last in pairs:
            one, two = (wave == first).to_numpy(), (wave == last).to_numpy()
            a, b = _compare(s, q, one, two, s.weighted)
            ua, ub = _compare(s, q, one, two, s.unweighted)
            diff = b - a
            stat, df, p = wald_test(diff)
            reps = total_variation(_normalised(a.replicates(xi)), _normalised(b.replicates(xi)))
            out[q][f"{first}->{last}"] = {
                "difference": {lv: interval(diff.theta[k], diff.std[k], s.confidence) for k, lv in enumerate(levels)},
                "total_variation": s.bootstrapped(float(total_variation(a.theta, b.theta)), reps, 0.0),
                "total_variation_unweighted": float(total_variation(ua.theta, ub.theta)),
                "chi2": stat, "df": df, "p_value": p,
            }
            tests.append((q, f"{first}->{last}", p))
    for (q, step, _), adjusted in zip(tests, _holm([t[2] for t in tests]), strict=True):
        out[q][step]["p_value_holm"] = adjusted  # type: ignore[index]
    return out


def wave_order(wave: pd.Series) -> list[str]:
    values = wave.dropna().unique().tolist()
    numeric = pd.to_numeric(pd.Series(values), errors="coerce")
    if numeric.notna().all():
        return [v for _, v in sorted(zip(numeric, values, strict=True))]
    return sorted(values, key=str)


def reliability(s: Survey, retest: dict[str, pd.Series], rng: np.random.Generator,
                n_boot: int) -> dict[str, dict[str, float]]:
    """Cohen's κ between each question's answer and the same respondent's repeated answer."""
    return {q: kappa(s.answers[q], again, s.weighted.weights, strata=s.weighted.strata, n_boot=n_boot, rng=rng,
                     confidence=s.confidence) for q, again in retest.items()}


def alignment_gap(s: Survey, model: dict[str, dict[str, np.ndarray]], domain: np.ndarray,
                  groups: dict[str, np.ndarray], xi: np.ndarray) -> dict[str, object]:
    """Distance between the model's answers and the weighted population (``domain``: the respondents that
    stand for it, e.g. the latest wave): total variation and Jensen–Shannon per question and on average,
    against the unweighted sample (how far the gap would be misjudged), against each subgroup (which group the
    model answers like), and persona by persona; every interval from the same multiplier replicates ``xi``."""
    overall = model.get("", {})
    questions = [q for q in s.levels if q in overall]
    out: dict[str, object] = {"questions": questions}
    parts: dict[str, Linear] = {}
    for q in s.levels:
        parts[f"w|{q}"] = shares(s.weighted, s.answers[q], s.levels[q], domain)
        parts[f"u|{q}"] = shares(s.unweighted, s.answers[q], s.levels[q], domain)
        for g, members in groups.items():
            parts[f"g|{g}|{q}"] = shares(s.weighted, s.answers[q], s.levels[q], domain & members)
    keys = list(parts)
    joint = stack([parts[k] for k in keys])
    reps = joint.replicates(xi)
    offsets = np.cumsum([0] + [len(parts[k].theta) for k in keys])
    where = {k: slice(offsets[i], offsets[i + 1]) for i, k in enumerate(keys)}

    def distance(key: str, target: np.ndarray) -> tuple[np.ndarray, np.ndarray, float, float]:
        point, rep = parts[key].theta, _normalised(reps[:, where[key]])
        return (total_variation(rep, target), js_divergence(rep, target),
                float(total_variation(point, target)), float(js_divergence(point, target)))

    if questions:
        per_question: dict[str, dict[str, object]] = {}
        tv_w, js_w, tv_u, js_u, pt = [], [], [], [], []
        for q in questions:
            a, b, tv, js = distance(f"w|{q}", overall[q])
            c, d, tvu, jsu = distance(f"u|{q}", overall[q])
            tv_w.append(a)
            js_w.append(b)
            tv_u.append(c)
            js_u.append(d)
            pt.append((tv, js, tvu, jsu))
            per_question[q] = {"total_variation": s.bootstrapped(tv, a, 0.0), "jensen_shannon": s.bootstrapped(js, b, 0.0),
                               "total_variation_unweighted": tvu, "jensen_shannon_unweighted": jsu,
                               "misjudgement_tv": s.bootstrapped(tvu - tv, c - a)}
        points = np.asarray(pt).mean(axis=0)
        rep_tv, rep_js = np.mean(tv_w, axis=0), np.mean(js_w, axis=0)
        rep_tvu, rep_jsu = np.mean(tv_u, axis=0), np.mean(js_u, axis=0)
        out.update({
            "total_variation": s.bootstrapped(points[0], rep_tv, 0.0),
            "jensen_shannon": s.bootstrapped(points[1], rep_js, 0.0),
            "total_variation_unweighted": s.bootstrapped(points[2], rep_tvu, 0.0),
            "jensen_shannon_unweighted": s.bootstrapped(points[3], rep_jsu, 0.0),
            "misjudgement_tv": s.bootstrapped(points[2] - points[0], rep_tvu - rep_tv),
            "misjudgement_js": s.bootstrapped(points[3] - points[1], rep_jsu - rep_js),
            "per_question": per_question,
        })
        if groups:
            per_group: dict[str, dict[str, dict[str, float]]] = {}
            rep_by_group = []
            for g in groups:
                found = [distance(f"g|{g}|{q}", overall[q]) for q in questions]
                rep_g = np.mean([f[0] for f in found], axis=0)
                rep_by_group.append(rep_g)
                per_group[g] = {"total_variation": s.bootstrapped(float(np.mean([f[2] for f in found])), rep_g, 0.0),
                                "jensen_shannon": s.bootstrapped(float(np.mean([f[3] for f in found])),
                                                                 np.mean([f[1] for f in found], axis=0), 0.0)}
            names = list(groups)
            closest = min(names, key=lambda g: per_group[g]["total_variation"]["mean"])
            winners = np.asarray(names, dtype=object)[np.nanargmin(np.vstack(rep_by_group), axis=0)]
            out.update({"per_subgroup": per_group, "closest_subgroup": closest,
                        "closest_subgroup_share": float(np.mean(winners == closest)),
                        "closest_margin_tv": float(sorted(per_group[g]["total_variation"]["mean"]
                                                          for g in names)[1] - per_group[closest]["total_variation"]
                                                   ["mean"]) if len(names) > 1 else 0.0})
    personas = {g: answers for g, answers in model.items() if g}
    if personas:
        persona_out: dict[str, dict[str, object]] = {}
        for g, answers in personas.items():
            qs = [q for q in s.levels if q in answers]
            found = [distance(f"g|{g}|{q}", answers[q]) for q in qs]
            persona_out[g] = {"questions": qs,
                              "total_variation": s.bootstrapped(float(np.mean([f[2] for f in found])),
                                                                np.mean([f[0] for f in found], axis=0), 0.0),
                              "jensen_shannon": s.bootstrapped(float(np.mean([f[3] for f in found])),
                                                               np.mean([f[1] for f in found], axis=0), 0.0)}
        out["persona"] = persona_out
    return out
