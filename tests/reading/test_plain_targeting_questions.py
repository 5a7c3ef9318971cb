"""Whether to reach more people or predict better, asked in plain words, is a question for
``causal.value_of_prediction`` (issue 29).

A sceptic's check: "our aid agency can visit 10% of households … how many of the poorest tenth do we reach, and
would it pay more to visit more households or to improve the model?" fitted no method (meaning 0.50, not one
word of the field), and the outcome was read as `household`, a column of row numbers, because "each household"
names it as a word.  "Visit more households or …" and "the poorest tenth" are now the field's words, and a column
that numbers the rows, met as a plain word, is the word and not the column.  The sentences
and the table were written for this test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tests.reading._make import read_with


def _households(folder: Path) -> Path:
    rng = np.random.default_rng(2)
    income = rng.normal(size=500)
    predicted = 0.6 * income + 0.8 * rng.normal(size=500)
    path = folder / "households.csv"
    np.savetxt(path, np.column_stack([np.arange(500), predicted, income]), delimiter=",", comments="",
               header="household,predicted_income,income_next_year", fmt=["%d", "%.3f", "%.3f"])
    return path


def _reading(tmp_path: Path, text: str) -> Any:
    return read_with(_households(tmp_path), text)


def test_capacity_or_prediction_in_plain_words(tmp_path: Path) -> None:
    reading = _reading(tmp_path, "Our aid agency can visit 10% of households. households.csv has our model's "
                                 "predicted income and the income each household actually had. How many of the "
                                 "poorest tenth do we reach, and would it pay more to visit more households or to "
                                 "improve the model?")
    assert reading.choice.status == "chosen" and reading.method == "causal.value_of_prediction", \
        reading.choice.to_dict()
    arguments = reading.understanding.arguments
    assert (arguments["alpha"], arguments["beta"]) == (0.1, 0.1)
    # which of the two income columns is which is left open: asked, and never the row numbers
    assert "household" not in arguments.values() and not reading.clear


def test_the_columns_named_are_read(tmp_path: Path) -> None:
    reading = _reading(tmp_path, "Our aid agency can visit 10% of households. households.csv has our model's "
                                 "predicted income (predicted_income) and the income each household actually had "
                                 "(income_next_year). How many of the poorest tenth do we reach?")
    assert reading.method == "causal.value_of_prediction" and reading.clear, reading.understanding.questions
    arguments = reading.understanding.arguments
    assert (arguments["prediction"], arguments["outcome"]) == ("predicted_income", "income_next_year")

