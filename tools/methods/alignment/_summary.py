"""The survey benchmark's summary paragraph and the findings a reader must be told (code, not a model)."""

from __future__ import annotations

from typing import Any

from cmbagent.tools.methods import MethodFinding

__all__ = ["summarise"]

_METHOD = {"rake": "Raking", "ipw": "Inverse propensity weighting", "cbps": "CBPS weighting"}
KAPPA_RELIABLE = 0.6  # below this a question's answers are only moderately reproducible (Landis & Koch)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _weighting(values: dict[str, Any], method: str, covariates: list[str]) -> str:
    n = values["n_respondents"]
    if method == "none":
        return (f"The {n} respondents are not weighted to a population (design effect {values['design_effect']:.2f} "
                "from design weights alone).")
    return (f"{_METHOD[method]} of the {n} respondents to the population on {', '.join(covariates)}: design effect "
            f"{values['design_effect']:.2f}, effective sample size {values['effective_sample_size']:.0f}, "
            f"{_pct(values['extreme_weight_share'])} of weights above 5× the mean; largest ASMD "
            f"{values['max_asmd_before']:.3f} before, {values['max_asmd_after']:.3f} after.")


def _shares(values: dict[str, Any], tag: str) -> str:
    parts = []
    for q, per in list(values["distribution"].items())[:4]:
        level = max(per, key=lambda lv: abs(per[lv]["mean"] - per[lv]["unweighted"]))
        x = per[level]
        parts.append(f"{q} = {level} {_pct(x['mean'])} [{_pct(x[f'lower_{tag}'])}, {_pct(x[f'upper_{tag}'])}] "
                     f"vs {_pct(x['unweighted'])} unweighted")
    more = len(values["distribution"]) - 4
    return (f"Weighted shares with {tag}% design-based intervals, the answer weighting moves most: " + "; "
            .join(parts) + (f" (and {more} more questions)" if more > 0 else "") + ".")


def _framing(values: dict[str, Any], tag: str, found: list[MethodFinding]) -> str:
    effects, smallest = [], 1.0
    for q, versions in values["framing"].items():
        for version, res in versions.items():
            smallest = min(smallest, res["p_value_holm"])
            if res["p_value_holm"] < 0.05:
                level = max(res["difference"], key=lambda lv: abs(res["difference"][lv]["mean"]))
                d = res["difference"][level]
                text = (f"wording {version} moves {q} = {level} by {100 * d['mean']:+.1f} points "
                        f"[{100 * d[f'lower_{tag}']:+.1f}, {100 * d[f'upper_{tag}']:+.1f}] against wording "
                        f"{res['against']} (Holm-adjusted p = {res['p_value_holm']:.2g})")
                effects.append(text)
                found.append(MethodFinding(message=f"framing effect: {text}", evidence={"question": q},
                                           settle="field both wordings and report the range, or pick the "
                                                  "wording the benchmark's use case asks"))
    if not effects:
        return f"No split-ballot framing effect (smallest Holm-adjusted p = {smallest:.2g})."
    return "Framing: " + "; ".join(effects) + "."


def _reliability(values: dict[str, Any], tag: str, found: list[MethodFinding]) -> str:
    parts = []
    for q, k in values["reliability"].items():
        parts.append(f"{q} κ = {k['mean']:.2f} [{k[f'lower_{tag}']:.2f}, {k[f'upper_{tag}']:.2f}]")
        if k["mean"] < KAPPA_RELIABLE:
            found.append(MethodFinding(message=f"measurement error: {q} is answered the same way twice only with "
                                       f"κ = {k['mean']:.2f} (below {KAPPA_RELIABLE}); one answer per respondent "
                                       "is a noisy target", evidence={"question": q, "kappa": k["mean"]},
                                       settle="compare the model with the answers respondents repeat"))
    return "Test–retest reliability: " + "; ".join(parts) + "."


def _drift(values: dict[str, Any], tag: str, found: list[MethodFinding]) -> str:
    moved = []
    for q, steps in values["drift"].items():
        for step, res in steps.items():
            tv = res["total_variation"]
            if res["p_value_holm"] < 0.05:
                moved.append(f"{q} {step.replace('->', ' → ')}: total variation {tv['mean']:.3f} "
                             f"[{tv[f'lower_{tag}']:.3f}, {tv[f'upper_{tag}']:.3f}] (Holm-adjusted p = "
                             f"{res['p_value_holm']:.2g}; unweighted {res['total_variation_unweighted']:.3f})")
    if not moved:
        return "No drift between waves (every Holm-adjusted χ² p ≥ 0.05)."
    found.append(MethodFinding(message="norms drifted between waves: " + "; ".join(moved),
                               settle="benchmark against the latest wave and re-measure as waves arrive"))
    return "Drift: " + "; ".join(moved) + "."


def _gap(values: dict[str, Any], tag: str, subgroup: str | None, found: list[MethodFinding]) -> str:
    gap = values["alignment_gap"]
    text = []
    if "total_variation" in gap:
        tv, js, mis = gap["total_variation"], gap["jensen_shannon"], gap["misjudgement_tv"]
        where = f" (wave {values['latest_wave']})" if "latest_wave" in values else ""
        text.append(f"The model's answers are total variation {tv['mean']:.3f} [{tv[f'lower_{tag}']:.3f}, "
                    f"{tv[f'upper_{tag}']:.3f}] and Jensen–Shannon {js['mean']:.4f} [{js[f'lower_{tag}']:.4f}, "
                    f"{js[f'upper_{tag}']:.4f}] from the weighted population{where}, averaged over "
                    f"{len(gap['questions'])} questions; against the unweighted sample the gap would read "
                    f"{gap['total_variation_unweighted']['mean']:.3f}, misjudged by {mis['mean']:+.3f} "
                    f"[{mis[f'lower_{tag}']:+.3f}, {mis[f'upper_{tag}']:+.3f}].")
        if mis[f"lower_{tag}"] > 0 or mis[f"upper_{tag}"] < 0:
            found.append(MethodFinding(
                message=f"the unweighted sample would {'over' if mis['mean'] > 0 else 'under'}state the alignment "
                        f"gap by {abs(mis['mean']):.3f} in total variation ({tag}% interval excludes 0)",
                evidence={"misjudgement_tv": mis["mean"]}, settle="judge alignment against weighted shares"))
        if "closest_subgroup" in gap:
            g = gap["closest_subgroup"]
            per = gap["per_subgroup"][g]["total_variation"]
            text.append(f"It answers most like {subgroup} = {g} (total variation {per['mean']:.3f}, "
                        f"{gap['closest_margin_tv']:.3f} closer than the next subgroup; closest in "
                        f"{_pct(gap['closest_subgroup_share'])} of bootstrap replicates).")
    if "persona" in gap:
        worst = max(gap["persona"], key=lambda g: gap["persona"][g]["total_variation"]["mean"])
        best = min(gap["persona"], key=lambda g: gap["persona"][g]["total_variation"]["mean"])
        text.append(f"As personas, the model is closest to its subgroup for {best} (total variation "
                    f"{gap['persona'][best]['total_variation']['mean']:.3f}) and furthest for {worst} "
                    f"({gap['persona'][worst]['total_variation']['mean']:.3f}).")
    return " ".join(text)


def summarise(values: dict[str, Any], method: str, covariates: list[str], confidence: float,
              subgroup: str | None) -> tuple[str, list[MethodFinding]]:
    """One paragraph, in the order of the protocol, and the findings it states."""
    tag = f"{round(100 * confidence)}"
    found: list[MethodFinding] = []
    parts = [_weighting(values, method, covariates), _shares(values, tag)]
    if "framing" in values:
        parts.append(_framing(values, tag, found))
    if "reliability" in values:
        parts.append(_reliability(values, tag, found))
    if "drift" in values:
        parts.append(_drift(values, tag, found))
    if "alignment_gap" in values:
        parts.append(_gap(values, tag, subgroup, found))
    return " ".join(p for p in parts if p), found
