"""A documented simulated population from the 1996 American National Election Study, and the planted effects
the alignment tool is validated on.

Why simulated: a benchmark of survey weighting needs the population's true answer shares, which no real
survey has.  So the population is built from real answers: ``size`` draws with replacement from the 944
respondents of the 1996 ANES pre-election survey as statsmodels ships it (``statsmodels.datasets.anes96``,
public domain).  Every simulated person is a real respondent's profile, so the population keeps the study's
joint distribution of covariates and answers (older people watch more TV news, the educated lean Democrat in
1996 ...), and its shares are known exactly.  Recoding (from the statsmodels codebook):

* ``age_group``: age 18–29, 30–44, 45–64, 65+;
* ``education``: ``hs_or_less`` (codes 1–3: up to a high-school diploma), ``some_college`` (4), ``college``
  (5: a college degree), ``postgrad`` (6–7: master's or PhD);
* ``ideology`` (self-placement ``selfLR``): ``liberal`` 1–3, ``moderate`` 4, ``conservative`` 5–7;
* ``party`` (``PID``): ``democrat`` 0–2 (leaners included), ``independent`` 3, ``republican`` 4–6;
* ``vote`` (expected vote): ``clinton`` / ``dole``;
* ``tv_news`` (days a week): ``none`` 0, ``some`` 1–4, ``most_days`` 5–7.

The planted effects (a biased subsample, a split-ballot wording effect, a test–retest reliability, a drift
between waves, a "model" that answers like one subgroup) each have a known true value, so a test can ask
whether the tool recovers it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from cmbagent.exceptions import UserError

__all__ = [
    "ANES_QUESTIONS",
    "anes96_population",
    "biased_sample",
    "plant_drift",
    "plant_framing",
    "plant_retest",
    "subgroup_answers",
]

#: the answer columns of :func:`anes96_population`
ANES_QUESTIONS = ("ideology", "party", "vote", "tv_news")
_EDUCATION_RANK = {"hs_or_less": 0, "some_college": 1, "college": 2, "postgrad": 3}
_AGE_RANK = {"18-29": 0, "30-44": 1, "45-64": 2, "65+": 3}


def _recode(anes: pd.DataFrame) -> pd.DataFrame:
    def cut(values: pd.Series, edges: list[float], labels: list[str]) -> pd.Series:
        return pd.cut(values, edges, labels=labels).astype(str)

    return pd.DataFrame({
        "age_group": cut(anes["age"], [0, 29, 44, 64, 200], ["18-29", "30-44", "45-64", "65+"]),
        "education": cut(anes["educ"], [0, 3, 4, 5, 7], ["hs_or_less", "some_college", "college", "postgrad"]),
        "ideology": cut(anes["selfLR"], [0, 3, 4, 7], ["liberal", "moderate", "conservative"]),
        "party": cut(anes["PID"], [-1, 2, 3, 6], ["democrat", "independent", "republican"]),
        "vote": np.where(anes["vote"].to_numpy() == 1, "dole", "clinton"),
        "tv_news": cut(anes["TVnews"], [-1, 0, 4, 7], ["none", "some", "most_days"]),
    })


def anes96_population(size: int = 20_000, seed: int = 1996) -> pd.DataFrame:
    """The simulated population: ``size`` draws with replacement from the ANES 1996 respondents, recoded
    (module docstring).  Columns: ``person`` (0..size−1), ``anes_row`` (the respondent it copies), the two
    covariates ``age_group`` and ``education`` and the answers of :data:`ANES_QUESTIONS`."""
    from statsmodels.datasets import anes96

    if size < 100:
        raise UserError(f"size: a population needs at least 100 people, got {size}")
    anes = anes96.load_pandas().data
    rows = np.random.default_rng(seed).integers(0, len(anes), size)
    population = _recode(anes.iloc[rows].reset_index(drop=True))
    population.insert(0, "anes_row", rows)
    population.insert(0, "person", np.arange(size))
    return population


def biased_sample(population: pd.DataFrame, n: int = 1000, *, education_slope: float = 0.6,
                  age_slope: float = -0.5, seed: int = 0) -> pd.DataFrame:
    """A Poisson sample whose inclusion probability is multiplicative in education and age,
    π ∝ exp(education_slope · rank(education) + age_slope · rank(age_group)), scaled to expected size ``n``.

    With the default slopes a postgraduate is 6× as likely to respond as someone without college, and an
    18–29-year-old 4.5× as likely as someone over 65 — the skew of online opt-in panels and annotator pools.
    Because selection is log-linear in the two covariates' main effects, raking on their margins removes it
    exactly in expectation, which is what makes the coverage of weighted intervals testable."""
    score = education_slope * population["education"].map(_EDUCATION_RANK).to_numpy(float) + \
        age_slope * population["age_group"].map(_AGE_RANK).to_numpy(float)
    prob = np.exp(score)
    prob = prob * n / prob.sum()
    if prob.max() >= 1:
        raise UserError(f"n: {n} is too large for a Poisson sample of this population with these slopes "
                        f"(an inclusion probability reaches {prob.max():.2f}); draw fewer or use a larger population")
    rng = np.random.default_rng(seed)
    chosen = rng.random(len(population)) < prob
    sample = population.loc[chosen].reset_index(drop=True)
    sample.insert(1, "inclusion_probability", prob[chosen])
    return sample


def plant_framing(sample: pd.DataFrame, question: str, from_answer: str, to_answer: str, rate: float, *,
                  ballot: str = "ballot", seed: int = 0) -> pd.DataFrame:
    """A split-ballot experiment: each respondent gets wording ``A`` or ``B`` at random, and under wording B a
    share ``rate`` of those who would answer ``from_answer`` answer ``to_answer`` instead.  The true framing
    effect on the share of ``to_answer`` is ``rate`` × (population share of ``from_answer``)."""
    if not 0 <= rate <= 1:
        raise UserError(f"rate: must lie in [0, 1], got {rate}")
    rng = np.random.default_rng(seed)
    out = sample.copy()
    out[ballot] = np.where(rng.random(len(out)) < 0.5, "A", "B")
    switch = (out[ballot] == "B") & (out[question] == from_answer) & (rng.random(len(out)) < rate)
    out.loc[switch, question] = to_answer
    return out


def plant_retest(sample: pd.DataFrame, question: str, reliability: float, *, column: str | None = None,
                 seed: int = 0) -> pd.DataFrame:
    """A repeated answer of each respondent: the first answer with probability ``reliability``, otherwise an
    independent draw from the question's answer distribution in the sample.  Cohen's κ of the two answers
    is then ``reliability`` in expectation (agreement beyond chance is exactly the kept share)."""
    if not 0 <= reliability <= 1:
        raise UserError(f"reliability: must lie in [0, 1], got {reliability}")
    rng = np.random.default_rng(seed)
    out = sample.copy()
    answers = out[question].to_numpy()
    levels, counts = np.unique(answers, return_counts=True)
    redraw = levels[rng.choice(len(levels), len(out), p=counts / counts.sum())]
    out[column or f"{question}_retest"] = np.where(rng.random(len(out)) < reliability, answers, redraw)
    return out


def plant_drift(population: pd.DataFrame, question: str, from_answer: str, to_answer: str, rate: float, *,
                seed: int = 0) -> pd.DataFrame:
    """The population of a later wave: a share ``rate`` of those answering ``from_answer`` now answer
    ``to_answer`` (a change of norms, not of composition)."""
    rng = np.random.default_rng(seed)
    out = population.copy()
    move = (out[question] == from_answer) & (rng.random(len(out)) < rate)
    out.loc[move, question] = to_answer
    return out


def subgroup_answers(population: pd.DataFrame, questions: Sequence[str], column: str, level: str) -> pd.DataFrame:
    """A synthetic "model" that answers like one subgroup: per question, the answer distribution of the
    population's ``column == level`` members (rows ``question, answer, share``)."""
    members = population[population[column] == level]
    if members.empty:
        raise UserError(f"level: no member of the population has {column} = {level!r}")
    rows = []
    for question in questions:
        shares = members[question].value_counts(normalize=True)
        for answer in sorted(population[question].unique()):
            rows.append({"question": question, "answer": answer, "share": float(shares.get(answer, 0.0))})
    return pd.DataFrame(rows)
