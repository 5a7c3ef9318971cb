"""The outcome an effect question names, checked with the checklist's own eyes (issue 29, session 18).

A sceptic's task, in my words on a table I made: "speech.csv has one row per child: age_yr, severity (higher is
worse), therapy_min_day and words_gained. How many extra words does each extra daily minute of therapy buy?" The
reader took "(higher is worse)" for the mark of the outcome and ran the DML with ``severity`` as the outcome and
``words_gained`` as a covariate; the run said ``done`` (0.084 ± 0.004, truth 0.3) with every checklist item met,
because the checklist listed the reader's own column roles.

Now the direction in brackets is a hint the question's own words outweigh, and an independent rule reads the
words the question asks about ("words"): before the run, words that name a column read as the treatment or a
covariate, and not the outcome read, are a question; at the end, the same words against the columns the method
ran with are an unmet requirement (an error) when they name an input and not the outcome.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.agents import Understanding
from cmbagent.agents._reading import contradicted_outcome
from cmbagent.agents._stated import asked_about, stated_requirements
from cmbagent.report import check_requirements
from cmbagent.state import StepRecord, StepStatus
from tests.reading._make import read_with

QUESTION = ("speech.csv has one row per child: age_yr, severity (higher is worse), therapy_min_day and words_gained "
            "over the term. How many extra words does each extra daily minute of therapy buy? Sicker and younger "
            "children got more minutes. One common slope is fine; seed 11.")


def _speech(folder: Path) -> Path:
    rng = np.random.default_rng(7)
    n = 400
    age, severity = rng.uniform(3, 7, n), rng.normal(0, 1, n)
    minutes = np.clip(20 + 5 * severity - 2 * (age - 5) + rng.normal(0, 6, n), 0, None)
    gain = 0.3 * minutes + 2 * age - 4 * severity + rng.normal(0, 3, n)
    path = folder / "speech.csv"
    np.savetxt(path, np.column_stack([np.arange(n), np.round(age, 2), np.round(severity, 3), np.round(minutes, 1),
                                      np.round(gain, 2)]),
               delimiter=",", header="child,age_yr,severity,therapy_min_day,words_gained", comments="",
               fmt=["%d", "%.2f", "%.3f", "%.1f", "%.2f"])
    return path


def test_the_question_s_words_outweigh_a_direction_in_brackets(tmp_path: Path) -> None:
    reading = read_with(_speech(tmp_path), QUESTION)
    assert reading.method == "causal.dml_ate", reading.choice
    arguments = reading.understanding.arguments
    assert arguments.get("outcome") == "words_gained" and arguments.get("treatment") == "therapy_min_day", arguments
    assert "words_gained" not in arguments.get("covariates", []) and arguments.get("model") == "plr", arguments


def test_a_reading_that_runs_the_question_backwards_is_a_question() -> None:
    backwards = Understanding(arguments={"outcome": "severity", "treatment": "therapy_min_day",
                                         "covariates": ["age_yr", "words_gained"]})
    (asked,) = contradicted_outcome(backwards, QUESTION)
    assert "words_gained" in asked and "outcome" in asked
    right = Understanding(arguments={"outcome": "words_gained", "treatment": "therapy_min_day",
                                     "covariates": ["age_yr", "severity"]})
    assert contradicted_outcome(right, QUESTION) == []
    # words that name no column of the run say nothing either way
    assert asked_about("How much did the tutoring raise maths scores?") == []


def test_the_checklist_catches_an_outcome_run_backwards() -> None:
    (item,) = [r for r in stated_requirements(QUESTION, ["speech.csv"]) if r.quantity == "outcome"]
    assert item.kind == "word" and item.value == "words"
    backwards = StepRecord(id="s2", status=StepStatus.DONE, method="causal.dml_ate",
                           arguments={"data": "data/speech.csv", "outcome": "severity", "treatment": "therapy_min_day",
                                      "covariates": ["age_yr", "words_gained"]})
    (check,) = check_requirements([item], {"s2": backwards}, "")
    assert check.met is False and check.severity == "error" and "words_gained" in check.evidence
    right = backwards.model_copy(update={"arguments": {**backwards.arguments, "outcome": "words_gained",
                                                       "covariates": ["age_yr", "severity"]}})
    assert check_requirements([item], {"s2": right}, "")[0].met is True
    # the 401(k) question names its outcome in words no column shares: nothing to contradict
    (assets,) = [r for r in stated_requirements("Estimate the effect of 401(k) eligibility on net financial assets.",
                                                [])
                 if r.quantity == "outcome"]
    other = backwards.model_copy(update={"arguments": {"outcome": "net_tfa", "treatment": "e401",
                                                       "covariates": ["age", "inc"]}})
    assert check_requirements([assets], {"s2": other}, "")[0].met is None
