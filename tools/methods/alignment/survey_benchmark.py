"""Benchmark a model's answers against a population measured the way survey research measures it.

The seed talk (Kreuter, "Adaptive Alignment: Designing AI for a Changing World", ICML 2025 invited talk) asks
what AI should be aligned *to*, and answers: to how societies have measured public preferences — survey archives
and value studies — with the survey methodologist's remedies for the pitfalls that also plague human feedback:
unrepresentative samples, measurement error, framing effects and norms that change over time.  This tool is that
protocol for one survey (or feedback) table:

1. weights that make the respondents look like the population (``balance``: raking, inverse propensity
   weights or CBPS), with their cost and effect (design effect, effective sample size, extreme weights, ASMD of
   every covariate before and after);
2. the population's answer distribution per question with design-based intervals, beside the unweighted one;
3. framing effects from split ballots, reliability from repeated answers (κ), drift between waves;
4. the alignment gap between a model's answers and the weighted population (total variation, Jensen–Shannon;
   overall, per subgroup, per persona; bootstrap intervals), and how far the unweighted sample would misjudge it.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import pandas as pd

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodFinding, MethodResult, Paper, method
from cmbagent.tools.methods._kit import output_path
from cmbagent.tools.methods.alignment._analyses import (
    Survey,
    alignment_gap,
    distributions,
    drift,
    framing,
    reliability,
    wave_order,
)
from cmbagent.tools.methods.alignment._estimates import Design
from cmbagent.tools.methods.alignment._io import Target, as_text, check_columns, load_table, read_target
from cmbagent.tools.methods.alignment._io import model_answers as read_model_answers
from cmbagent.tools.methods.alignment._plots import plot_distributions, plot_weighting
from cmbagent.tools.methods.alignment._summary import summarise
from cmbagent.tools.methods.alignment._weights import Weighting, fit_weights, weight_diagnostics

__all__ = ["survey_benchmark"]

PAPER = Paper(
    title="Adaptive Alignment: Designing AI for a Changing World (ICML 2025 invited talk); weighting by "
          "balance (Sarig, Galili & Eilat 2023, arXiv 2307.06024)",
    authors="Frauke Kreuter",
    year=2025,
    code="facebookresearch/balance",
)
MAX_LEVELS = 30  # more distinct answers than this is a free-text or numeric column, not a survey question
ASMD_BALANCED = 0.1
EXTREME_SHARE, MAX_DEFF = 0.05, 5.0  # past these the linearised intervals undercover (module tests)


def _levels(values: pd.Series, column: str, argument: str) -> list[str]:
    found = sorted(values.dropna().unique().tolist(), key=_level_key)
    if len(found) < 2:
        raise DataError(f"{argument}: column {column!r} has {len(found)} distinct answer(s); a question needs two "
                        "or more")
    if len(found) > MAX_LEVELS:
        raise DataError(f"{argument}: column {column!r} has {len(found)} distinct values; survey answers must be "
                        f"categories (at most {MAX_LEVELS}) — bin a numeric answer first")
    return found


def _level_key(level: str) -> tuple[int, float, str]:
    try:
        return (0, float(level), level)
    except ValueError:
        return (1, 0.0, level)


def _retest_pairs(retest: list[str], questions: list[str], columns: list[str]) -> dict[str, str]:
    """Each repeated-answer column with its question: the longest question name it starts with."""
    pairs: dict[str, str] = {}
    for column in retest:
        owners = [q for q in questions if column != q and column.startswith(q)]
        if column not in columns:
            raise UserError(f"retest: column {column!r} is not in the data; available columns: {', '.join(columns)}")
        if not owners:
            raise UserError(f"retest: {column!r} names no question; name a repeated answer after its question "
                            f"(e.g. '{questions[0]}_retest' for '{questions[0]}')")
        pairs[max(owners, key=len)] = column
    return pairs


def _questions(frame: pd.DataFrame, questions: list[str] | None, taken: set[str],
               model_questions: list[str] | None) -> list[str]:
    if questions:
        check_columns(frame, questions, argument="questions")
        return list(dict.fromkeys(questions))
    if model_questions:
        check_columns(frame, model_questions, argument="model_answers")
        return model_questions
    found = [c for c in frame.columns if c not in taken and not c.endswith(("_retest", "_repeat"))
             and 2 <= frame[c].nunique() <= MAX_LEVELS and frame[c].nunique() < len(frame)]
    if not found:
        raise UserError("questions: no answer column found; name the question columns "
                        f"(columns: {', '.join(map(str, frame.columns))})")
    return found


def _covariates(covariates: list[str] | None, target: Target | None, frame: pd.DataFrame,
                used: set[str]) -> list[str]:
    if covariates:
        check_columns(frame, covariates, argument="covariates")
        return list(dict.fromkeys(covariates))
    if target is None:
        return []
    common = [c for c in target.variables if c in frame.columns and c not in used]
    if not common:
        raise UserError(f"covariates: the population table's variables {target.variables[:20]} are not columns of "
                        "the data; name the weighting covariates")
    return common


def _confidence(confidence: float) -> float:
    level = confidence / 100 if 50 < confidence < 100 else confidence
    if not 0.5 <= level < 1:
        raise UserError(f"confidence: must lie in [0.5, 1) (or be a percentage such as 95), got {confidence}")
    return float(level)


@method(
    "alignment.survey_benchmark",
    paper=PAPER,
    keywords=[
        "survey", "surveys", "survey weighting", "survey data", "public opinion", "opinion poll", "respondents",
        "raking", "post-stratification", "inverse propensity weights", "CBPS", "population margins",
        "census margins", "unrepresentative", "representative sample", "design effect", "framing effect",
        "split-ballot", "split ballot", "question wording", "test-retest", "Cohen's kappa", "societal norms",
        "human values", "value alignment", "alignment gap", "pluralistic alignment", "whose opinions", "ANES",
        "World Values Survey", "European Social Survey", "General Social Survey", "persona",
    ],
    example='survey_benchmark(data="survey.csv", population="margins.csv", questions=["ideology", "vote"], '
            'covariates=["age_group", "education"], model_answers="model.csv", subgroup="education")',
    phrases={
        "questions": [r"\bquestions?\b", r"\banswers? (?:to|of)\b", r"\bitems?\b"],
        "covariates": [r"\bcovariates?\b", r"\bweight(?:s|ed|ing)? (?:on|by|to)\b", r"\brak(?:e|ed|ing) (?:on|to|by)\b",
                       r"\bmargins? (?:of|for)\b", r"\badjust(?:ed|ing)? for\b"],
        "weighting": {"rake": [r"\brak(?:e|ed|ing)\b", r"\biterative proportional fitting\b"],
                      # (not "covariate-balancing propensity weights", which are CBPS)
                      "ipw": [r"\binverse propensity", r"(?<!balancing )\bpropensity(?: score)? weight", r"\bIPW\b"],
                      "cbps": [r"\bCBPS\b", r"\bcovariate[- ]balancing propensity"],
                      "none": [r"\bwithout (?:any )?weighting\b", r"\bno weighting\b"]},
        "design_weight": [r"\b(?:design|base|sampling) weights?\b"],
        # "the question went out in two versions: ...; the `form` column records which one each respondent saw"
        "ballot": [r"\bsplit[- ]ballot", r"\bwordings?\b", r"\bquestionnaire (?:versions?|forms?)\b", r"\bballot\b",
                   r"\b(?:two|three|2|3) versions\b", r"\bversions? [A-C] (?:against|versus|vs\.?|and|with) (?:version )?[A-C]\b",
                   r"\bwhich (?:one|version|form|wording) (?:each |every )?(?:respondent|person|participant|member)s? "
                   r"(?:saw|got|received|answered|was shown)\b"],
        "wave": [r"\bwaves?\b", r"\bsurvey rounds?\b"],
        "retest": [r"\bre-?test", r"\bre-?interview", r"\brepeated answers?\b", r"\basked (?:again|twice)\b"],
        "subgroup": [r"\bsubgroups?\b", r"\bpersonas?\b", r"\bbroken down by\b", r"\bwhich group\b"],
        "n_bootstrap": [r"\b(\d+) bootstrap"],
        "confidence": [r"\b(\d\d(?:\.\d+)?) ?% (?:confidence|intervals?)\b"],
    },
)
def survey_benchmark(
    data: InputFile,
    population: InputFile | None = None,
    questions: list[str] | None = None,
    covariates: list[str] | None = None,
    weighting: Literal["rake", "ipw", "cbps", "none"] = "rake",
    design_weight: str | None = None,
    population_weight: str | None = None,
    ballot: str | None = None,
    wave: str | None = None,
    retest: list[str] | None = None,
    model_answers: InputFile | None = None,
    subgroup: str | None = None,
    confidence: float = 0.95,
    n_bootstrap: int = 1000,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Weight a survey to its population and measure how far a model's answers are from the weighted public.

    Survey-methodology protocol for benchmarking AI alignment against surveyed societal norms: weights from the
    balance library (raking, inverse propensity weights, CBPS) with their diagnostics; population answer
    shares with design-based intervals beside the unweighted ones; split-ballot framing effects, test–retest
    reliability (Cohen's κ) and drift between waves; and the alignment gap between a model's answers and the
    weighted population (total variation and Jensen–Shannon, overall, per question, per subgroup and per
    persona, with bootstrap intervals), with how much the unweighted sample would misjudge it.

    Args:
        data: Survey or human-feedback table, one row per respondent: answer columns, covariate columns and
            optionally design weights, a ballot (wording) column, a wave column and repeated answers.
        population: Population to weight to: a margins table with columns variable, level, share (census
            shares of each covariate level), or a reference sample with the covariates as columns. Without it
            the shares are those of the sample as drawn (design weights only).
        questions: Columns of data holding the answers to compare (categorical). Default: the questions of
            model_answers, else every categorical column not used otherwise.
        covariates: Columns of data to weight on (categorical for margins). Default: the population table's
            variables that are columns of data.
        weighting: rake (iterative proportional fitting to the margins), ipw (logistic inverse propensity
            weights), cbps (covariate balancing propensity score) or none.
        design_weight: Column of data with design (base) weights the adjustment starts from.
        population_weight: Column of a reference-sample population table with its weights.
        ballot: Column of data naming the questionnaire version a respondent got (split-ballot experiment);
            every version is compared with the first.
        wave: Column of data naming the survey wave (round or year); each wave is weighted on its own, drift is
            measured between waves and the model is compared with the latest wave.
        retest: Columns of data with a respondent's repeated answer to a question, named after it
            (ideology_retest for ideology): their agreement gives Cohen's kappa.
        model_answers: Table of a model's answers: columns question and answer, optional share (an answer
            distribution; without it each row is one sampled answer) and optional subgroup (the persona the
            model answered as, a level of the subgroup column).
        subgroup: Column of data whose levels are the subgroups (e.g. education): the model is compared with each,
            and personas in model_answers with their own subgroup.
        confidence: Level of the intervals (0.95, or 95).
        n_bootstrap: Multiplier-bootstrap replicates for distances and kappa.
        seed: Random seed of the bootstrap.
        output_dir: Folder for the figures and the weights and distributions tables.
    """
    level = _confidence(confidence)
    if n_bootstrap < 100:
        raise UserError(f"n_bootstrap: at least 100 replicates are needed for 95% intervals, got {n_bootstrap}")
    frame = load_table(data, argument="data")
    columns = list(map(str, frame.columns))
    for name, column in (("design_weight", design_weight), ("ballot", ballot), ("wave", wave),
                         ("subgroup", subgroup)):
        if column is not None:
            check_columns(frame, [column], argument=name)
    target = read_target(population, weight=population_weight) if population is not None else None
    findings: list[MethodFinding] = []
    if target is None and weighting != "none":
        findings.append(MethodFinding(message=f"no population table was given, so no {weighting} weights: the "
                                      "shares are those of the sample as drawn (design weights only)",
                                      settle="give population= (census margins or a reference sample)"))
        weighting = "none"
    model_table = None
    if model_answers is not None:
        probe = load_table(model_answers, argument="model_answers")
        check_columns(probe, ["question", "answer"], argument="model_answers", what=f"{model_answers!r}")
        model_table = list(dict.fromkeys(probe["question"].astype(str).str.strip()))
    special = {c for c in (design_weight, ballot, wave, subgroup) if c} | set(retest or [])
    # a subgroup may be a weighting covariate too (education: weighted on, and compared by)
    cov = _covariates(covariates, target, frame, special - {subgroup})
    qs = _questions(frame, questions, special | set(cov), model_table)
    overlap = sorted(set(qs) & (set(cov) | special))  # a question cannot weight, split or group the sample
    if overlap:
        raise UserError(f"questions: {overlap} are also used as covariates or special columns; a column plays one part")
    pairs = _retest_pairs(retest or [], qs, columns)
    answers = pd.DataFrame({q: as_text(frame[q]) for q in qs})
    levels = {q: _levels(answers[q], q, "questions") for q in qs}
    design = None
    if design_weight is not None:
        design = pd.to_numeric(frame[design_weight], errors="coerce").to_numpy(float)
        if not np.all(np.isfinite(design)) or (design <= 0).any():
            raise DataError(f"design_weight: column {design_weight!r} must hold a positive number in every row")
    waves = as_text(frame[wave]) if wave is not None else None
    if waves is not None and waves.isna().any():
        raise DataError(f"wave: {int(waves.isna().sum())} row(s) have no wave; fill or drop them")
    strata = None if waves is None else pd.factorize(waves)[0]
    if waves is not None and waves.nunique() < 2:
        raise DataError(f"wave: column {wave!r} has a single wave; drift needs two or more")
    if target is not None and weighting != "none":
        weights = fit_weights(frame, cov, target, weighting, design_weights=design, strata=strata)
    else:
        relative = np.ones(len(frame)) if design is None else design / design.mean()
        weights = Weighting(weights=relative, method="none", covariates=cov, asmd_before={}, asmd_after={},
                            converged=True, calibration=None)
    survey = Survey(answers=answers, levels=levels, unweighted=Design.unweighted(len(frame), strata),
                    weighted=Design(weights.weights, weights.calibration, strata), confidence=level)
    rng = np.random.default_rng(seed)
    xi = rng.standard_normal((n_bootstrap, len(frame)))
    values: dict[str, Any] = {"n_respondents": len(frame), "weighting": weights.method}
    diagnostics: dict[str, Any] = {
        "rows": {"read": len(frame), "used": len(frame), "why": "every respondent is weighted; a question's shares "
                 "use the respondents who answered it"},
        "questions": qs, "covariates": cov, "levels": levels,
        "answered": {q: int(answers[q].notna().sum()) for q in qs},
        "intervals": "Taylor linearisation residualised on the weighting covariates (calibration, leverage-"
                     "corrected), waves as strata; distances by a multiplier bootstrap of it (basic intervals, "
                     "bias-corrected), kappa by resampling respondents",
        "n_bootstrap": n_bootstrap, "seed": seed, "confidence": level,
    }
    checks: list[Check] = []
    stats = weight_diagnostics(weights.weights)
    values.update({k: stats[k] for k in ("design_effect", "effective_sample_size", "extreme_weight_share",
                                         "max_weight_ratio")})
    if weights.method != "none":
        values["asmd"] = {c: {"before": weights.asmd_before[c], "after": weights.asmd_after[c]} for c in cov}
        values["max_asmd_before"] = max(weights.asmd_before.values())
        values["max_asmd_after"] = max(weights.asmd_after.values())
        diagnostics["balance_notes"] = weights.notes
        checks += _weight_checks(weights, stats, len(frame))
    values["distribution"] = distributions(survey)
    latest = np.ones(len(frame), dtype=bool)
    if waves is not None:
        order = wave_order(waves)
        latest = (waves == order[-1]).to_numpy()
        values["latest_wave"] = order[-1]
        values["distribution_by_wave"] = {w: distributions(survey, (waves == w).to_numpy()) for w in order}
        values["drift"] = drift(survey, waves, xi)
    if ballot is not None:
        versions = as_text(frame[ballot])
        if versions.nunique() < 2:
            raise DataError(f"ballot: column {ballot!r} has a single version; a split ballot needs two or more")
        values["framing"] = framing(survey, versions)
        checks.append(_randomised(frame, cov, versions))
    if pairs:
        values["reliability"] = reliability(survey, {q: as_text(frame[c]) for q, c in pairs.items()}, rng,
                                            n_bootstrap)
    groups: dict[str, np.ndarray] = {}
    if subgroup is not None:
        labels = as_text(frame[subgroup])
        group_levels = _levels(labels, subgroup, "subgroup")
        groups = {g: (labels == g).to_numpy() for g in group_levels}
        small = [g for g, m in groups.items() if int((m & latest).sum()) < 30]
        checks.append(Check(name="enough respondents per subgroup", passed=not small,
                            message=f"subgroups with fewer than 30 respondents: {small}" if small
                            else f"every level of {subgroup!r} has 30 or more respondents"))
    if model_answers is not None:
        model = read_model_answers(model_answers, qs, levels, list(groups))
        values["alignment_gap"] = alignment_gap(survey, model, latest, groups, xi)
        diagnostics["model_answers"] = {who or "(no persona)": {q: dict(zip(levels[q], map(float, d), strict=True))
                                                                for q, d in answers_.items()}
                                        for who, answers_ in model.items()}
    else:
        model = {}
    figure_a = output_path(output_dir, "alignment_distributions.png")
    # the model is compared with the latest wave, so that is the distribution its figure shows
    shown = values["distribution_by_wave"][values["latest_wave"]] if waves is not None else values["distribution"]
    where = f"wave {values['latest_wave']}" if waves is not None else ""
    plot_distributions(str(figure_a), _plot_rows(shown, levels, model.get(""), level), level, where)
    artifacts = [str(figure_a)]
    if weights.method != "none":
        figure_w = output_path(output_dir, "alignment_weighting.png")
        plot_weighting(str(figure_w), weights.asmd_before, weights.asmd_after, weights.weights, weights.method)
        artifacts.insert(0, str(figure_w))
    table = output_path(output_dir, "weights.csv")
    pd.DataFrame({"row": np.arange(len(frame)), "weight": weights.weights}).to_csv(table, index=False)
    shares_table = output_path(output_dir, "distributions.csv")
    _distribution_frame(values["distribution"], model.get(""), levels).to_csv(shares_table, index=False)
    artifacts += [str(table), str(shares_table)]
    values = _headline(values) | values
    summary, notes = summarise(values, weights.method, cov, level, subgroup)
    findings += notes
    return MethodResult(summary=summary, values=values, diagnostics=diagnostics, checks=checks,
                        artifacts=artifacts, findings=findings)


def _weight_checks(weights: Weighting, stats: dict[str, float], n: int) -> list[Check]:
    """Did balance converge, do the weights balance the covariates, are they calm enough for the intervals."""
    after = max(weights.asmd_after.values())
    worst = max(weights.asmd_after, key=lambda c: weights.asmd_after[c])
    calm = stats["extreme_weight_share"] <= EXTREME_SHARE and stats["design_effect"] <= MAX_DEFF
    return [
        Check(name="weighting converged", passed=weights.converged,
              message=f"balance's {weights.method} {'converged' if weights.converged else 'did not converge'}"),
        Check(name="weights balance the covariates", passed=after <= ASMD_BALANCED,
              message=f"largest ASMD after weighting {after:.3f} ({worst}); {ASMD_BALANCED} or less counts as "
                      "balanced"),
        Check(name="weights not extreme", passed=calm,
              message=f"{100 * stats['extreme_weight_share']:.1f}% of respondents weigh more than 5× the mean "
                      f"(largest {stats['max_weight_ratio']:.1f}×); design effect {stats['design_effect']:.2f}, "
                      f"effective sample size {stats['effective_sample_size']:.0f} of {n}"
                      + ("" if calm else f" — beyond {100 * EXTREME_SHARE:.0f}% extreme weights or design effect "
                         f"{MAX_DEFF:g} the intervals undercover (0.91 for 95% at design effect 8.5 in the ANES "
                         "validation); collapse sparse covariate levels or trim")),
    ]


def _headline(values: dict[str, Any]) -> dict[str, Any]:
    """The answer first: the alignment gap and whom the model answers like (the report leads with these)."""
    gap = values.get("alignment_gap", {})
    head: dict[str, Any] = {}
    for key, name in (("total_variation", "alignment_gap_tv"), ("jensen_shannon", "alignment_gap_js"),
                      ("misjudgement_tv", "misjudgement_tv"), ("closest_subgroup", "closest_subgroup")):
        if key in gap:
            head[name] = gap[key]
    return head


def _randomised(frame: pd.DataFrame, cov: list[str], versions: pd.Series) -> Check:
    """A split ballot is an experiment only if the versions were assigned at random: the covariates'
    distribution must not differ between versions (χ² test, p > 0.001)."""
    from scipy.stats import chi2_contingency

    worst = (1.0, "")
    for c in cov:
        table = pd.crosstab(as_text(frame[c]), versions)
        if table.shape[0] > 1 and table.shape[1] > 1:
            p = float(chi2_contingency(table)[1])
            worst = min(worst, (p, c))
    return Check(name="ballots randomised", passed=worst[0] > 1e-3,
                 message=(f"covariates do not differ between ballot versions (smallest χ² p = {worst[0]:.3g}"
                          f"{f', {worst[1]}' if worst[1] else ''})") if worst[0] > 1e-3 else
                 f"{worst[1]} differs between ballot versions (χ² p = {worst[0]:.2g}): the versions were not "
                 "assigned at random, so wording and composition are confounded")


def _plot_rows(dist: dict[str, dict[str, dict[str, float]]], levels: dict[str, list[str]],
               model: dict[str, np.ndarray] | None, level: float) -> dict[str, dict[str, Any]]:
    tag = f"{round(100 * level)}"
    return {q: {"levels": levels[q], "unweighted": [dist[q][lv]["unweighted"] for lv in levels[q]],
                "weighted": [dist[q][lv]["mean"] for lv in levels[q]],
                "lower": [dist[q][lv][f"lower_{tag}"] for lv in levels[q]],
                "upper": [dist[q][lv][f"upper_{tag}"] for lv in levels[q]],
                "model": None if not model or q not in model else list(model[q])} for q in levels}


def _distribution_frame(dist: dict[str, dict[str, dict[str, float]]], model: dict[str, np.ndarray] | None,
                        levels: dict[str, list[str]]) -> pd.DataFrame:
    rows = []
    for q, per in dist.items():
        for k, lv in enumerate(levels[q]):
            row = {"question": q, "answer": lv, **per[lv]}
            if model and q in model:
                row["model"] = float(model[q][k])
            rows.append(row)
    return pd.DataFrame(rows)
