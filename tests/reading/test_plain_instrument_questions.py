"""A random offer that people were free to take up, in plain words, is a question for ``causal.iv_cate_bounds``
(issue 29).

A sceptic's check: "we handed out gym vouchers at random, but people decided themselves whether to actually go"
fitted no method, because the field's words were "instrument", "encouragement" and "non-compliance".  The design's
plain words now count, and they say which column is which: the offer made at random is the instrument, what people
decided themselves is the treatment.  An instrument method without an instrument answers another question (the
bounds without one), so a reading that finds none asks for it (``FieldWords.one_of``) instead of running.  The
sentences and the table were written for this test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.agents._meaning import choose_method
from cmbagent.inputs import profile_inputs
from tests.reading._make import read_with

IV = "causal.iv_cate_bounds"


def _gym(folder: Path) -> Path:
    rng = np.random.default_rng(4)
    n = 600
    offered, hidden, age = rng.integers(0, 2, n), rng.normal(size=n), rng.uniform(20, 60, n)
    used = ((0.8 * offered + 0.5 * hidden + rng.normal(size=n)) > 0.6).astype(int)
    score = 50 + 5 * used + 3 * hidden + 0.1 * age + rng.normal(size=n)
    path = folder / "gym.csv"
    np.savetxt(path, np.column_stack([offered, used, score, age]), delimiter=",", comments="",
               header="offered_voucher,used_gym,fitness_score,age", fmt=["%d", "%d", "%.2f", "%.1f"])
    return path


def _reading(tmp_path: Path, text: str) -> Any:
    return read_with(_gym(tmp_path), text)


def test_a_random_offer_and_a_free_choice_are_instrument_and_treatment(tmp_path: Path) -> None:
    reading = _reading(tmp_path, "We handed out gym vouchers at random (offered_voucher), but people decided "
                                 "themselves whether to actually go (used_gym). What does going to the gym do to "
                                 "fitness_score, and how does it vary with age? gym.csv")
    assert reading.choice.status == "chosen" and reading.method == IV, reading.choice.to_dict()
    arguments = reading.understanding.arguments
    assert (arguments["instruments"], arguments["treatment"]) == (["offered_voucher"], "used_gym"), arguments
    assert (arguments["outcome"], arguments["covariates"]) == ("fitness_score", ["age"]) and reading.clear


def test_an_instrument_method_without_an_instrument_asks(tmp_path: Path) -> None:
    """The lottery is named, its column is not: asked, never the bounds without an instrument."""
    reading = _reading(tmp_path, "The voucher was assigned by lottery; uptake was up to each person. Using gym.csv, "
                                 "bound the effect of gym use on fitness for people of different ages.")
    assert reading.method == IV and not reading.clear
    asked = " ".join(reading.understanding.questions)
    assert "'instruments'" in asked and "'instrument_file'" in asked and "offered_voucher" in asked, asked


def test_not_at_random_is_a_reason_to_adjust(tmp_path: Path) -> None:
    path = _gym(tmp_path)
    choice = choose_method("The vouchers were not handed out at random: keen people asked for them. Did using the "
                           "gym raise fitness_score, adjusting for age? gym.csv",
                           files=profile_inputs({path.name: path}))
    assert choice.status == "chosen" and choice.method == "causal.dml_ate", choice.to_dict()
