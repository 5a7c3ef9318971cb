"""Lists the data cannot hold, parameter names in words, "N thousand" and a query rule (issue 29, blind11 spent).

Sentences and data of our own.  The eleventh blind prose set, unseen until these rules, ran four tasks silently
wrong; the mechanisms behind them, each tested here:

* a list of weighting variables one of which no file holds ("rake on education and district") ran on the rest;
  such a list is now a question, while a list whose items are all columns, by name or in words, is not;
* "summarise just the matter density and the dark-energy equation of state" named no parameter the chain reader
  knew: parameters are now read in words, under the names the chain reader gives CosmoSIS's columns (``w`` is w0);
* "20 thousand sample points" was read as 20, by the reader and by the number check alike;
* "chosen at random rather than actively" left the query rule at its default.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import read_task
from cmbagent.agents._numbers import stated_numbers
from cmbagent.inputs import profile_inputs

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def _reading(text: str, files: list[Path]) -> object:
    names = [f"data/{f.name}" for f in files]
    return read_task(text=text, data_files=names, profiles=profile_inputs(dict(zip(names, files, strict=True))))


def _ferry_survey(folder: Path) -> list[Path]:
    rng = np.random.default_rng(21)
    n = 240
    rows = ["id,island,age_band,q_timetable"] + [
        f"{i},{rng.choice(['North', 'South'])},{rng.choice(['young', 'old'])},{rng.choice(['good', 'poor'])}"
        for i in range(n)]
    survey = folder / "ferry_users.csv"
    survey.write_text("\n".join(rows) + "\n")
    margins = folder / "island_margins.csv"
    margins.write_text("variable,level,share\nisland,North,0.6\nisland,South,0.4\n"
                       "age_band,young,0.45\nage_band,old,0.55\n")
    return [survey, margins]


def test_a_weighting_variable_no_file_holds_is_a_question(tmp_path: Path) -> None:
    files = _ferry_survey(tmp_path)
    text = ("Please weight data/ferry_users.csv to the islands' population with the shares in "
            "data/island_margins.csv and tell me the corrected timetable ratings. Rake on income and island.")
    reading = _reading(text, files)
    assert reading.method == "alignment.survey_benchmark", reading.method
    assert not reading.clear
    assert any("“income”" in q and "no column" in q for q in reading.understanding.questions), \
        reading.understanding.questions


def test_a_weighting_list_whose_items_are_all_columns_runs(tmp_path: Path) -> None:
    files = _ferry_survey(tmp_path)
    text = ("Please weight data/ferry_users.csv to the islands' population with the shares in "
            "data/island_margins.csv and tell me the corrected timetable ratings. Rake on age band and island.")
    reading = _reading(text, files)
    arguments = reading.understanding.arguments
    assert sorted(arguments.get("covariates", [])) == ["age_band", "island"], arguments
    assert not any("no column" in q for q in reading.understanding.questions), reading.understanding.questions


def test_chain_parameters_in_words_take_the_chain_readers_names(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    n = 1500
    chain = tmp_path / "kestrel_cosmosis.txt"
    lines = ["#cosmological_parameters--omega_m\tcosmological_parameters--w\tcosmological_parameters--h0\tpost"]
    lines += [f"{rng.normal(0.31, 0.02):.5f}\t{rng.normal(-0.95, 0.08):.5f}\t{rng.normal(0.69, 0.01):.5f}\t"
              f"{rng.normal(-10, 1):.4f}" for _ in range(n)]
    chain.write_text("\n".join(lines) + "\n")
    text = ("This CosmoSIS run (data/kestrel_cosmosis.txt) is done. Could you report only the total matter density "
            "and the equation of state w from it? Throw away the first fifth as burn-in.")
    reading = _reading(text, [chain])
    assert reading.method == "cosmology.summarize_chain", reading.method
    arguments = reading.understanding.arguments
    assert sorted(arguments.get("parameters", [])) == ["Omega_m", "w0"], arguments
    assert arguments.get("burn_in_fraction") == pytest.approx(0.2), arguments


def test_n_thousand_is_one_number_for_the_reader_and_the_number_check() -> None:
    text = ("How many regions of constant output does a spiking network of two layers of five neurons cut a "
            "two-dimensional input box into? Threshold 0.4, latencies 1 and 3, and estimate it from 50 thousand "
            "sampled points.")
    reading = read_task(text=text)
    assert reading.method == "theory.lif_snn_regions", reading.method
    assert reading.understanding.arguments.get("samples") == 50000, reading.understanding.arguments
    assert 50000.0 in {v for s in stated_numbers(text) for v in s.values}
    assert 50.0 not in {v for s in stated_numbers(text) for v in s.values}


def test_queries_chosen_at_random_rather_than_actively() -> None:
    reading = read_task(text="Preference learning on the cart-pole: compare the two kinds of query with 40 queries "
                             "each, picked at random rather than actively, over three independent problems.")
    assert reading.method == "rl.distinguishability_queries", reading.method
    assert reading.understanding.arguments.get("selection") == "random", reading.understanding.arguments
