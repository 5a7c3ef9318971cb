"""Every number of a task's prose is accounted for before a method the reader chose runs (issue 29).

A task written in its field's own words states settings the reader has no rule for ("four thousand rank-4
adapters", "widths from 120 to 1920", "only supernovae below z = 0.5"): left unread, they were replaced by
defaults and the run said nothing.  Measured on the held-out prose set (bench/understanding.py): silent wrong
12 -> 0 of 43, with the public set's scores unchanged (method 0.99, arguments 0.93) and its one silent wrong
(a planted-head edit whose scale, L0 weight and seed were dropped) now a question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.agents import read_task
from cmbagent.agents._numbers import stated_numbers
from cmbagent.inputs import profile_inputs
from tests.reading import _make

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def values(text: str, files: tuple[str, ...] = (), nouns: tuple[str, ...] = ()) -> set[float]:
    return {v for n in stated_numbers(text, files, nouns) for v in n.values}


@pytest.mark.parametrize(("text", "wanted"), [
    ("Generate four thousand rank-4 adapters for a layer with 8 inputs.", {4000.0, 4.0, 8.0}),
    ("Widths from 120 to 1920, doubling each time.", {120.0, 1920.0}),  # the end of a range, not a year
    ("Contexts of 1K, 2K and 4K tokens.", {1000.0, 2000.0, 4000.0}),
    ("Flip a quarter of the training labels.", {0.25}),
    ("Repeat the sample splitting eight times and trim propensities at 0.02.", {8.0, 0.02}),
    ("Keep only supernovae below z = 0.5 from sn.csv.", {0.5}),
    ("Sweep the initialisation scale over 1e-4, 1e-2 and 1.", {1e-4, 1e-2, 1.0}),
    ("Draw 2000 samples from the posterior.", {2000.0}),  # a count, though it could be a year
    ("Drop the first 30% of the chain as burn-in.", {0.3}),  # "the first N" is a setting, not what data hold
])
def test_settings_written_in_many_ways_are_read_as_numbers(text: str, wanted: set[float]) -> None:
    assert wanted <= values(text, ("sn.csv",))


@pytest.mark.parametrize("text", [
    "Use the Planck 2018 baseline for everything else.",  # a year inside a name
    "Adjust for earnings in 2019 and 2020.",  # years, one after the other
    "Fit the 450 supernova distance moduli.",  # what the data hold
    "There are 45 storm petrels in `petrels.csv`.",
    "We extracted embeddings for 240 image patches (`patches.csv`, one row each).",
    "In the table, `tutored` is 1 for pupils in the programme.",  # how a column codes its values
    "Report w(a) = w0 + wa (1 − a) and whether Ω_k = 0.",  # constants of formulas
    "Give the mean and the 68%/95% intervals.",  # interval levels
    "Compare the two methods.",  # a small count of things, not a setting
    "Run it on MountainCarContinuous-v0 and Pendulum-v1 with SALT2 fits.",  # names
    "Wave 3 of our omnibus over-represents young people.",
    "Betoule et al. (2014) cut the sample at 0.01 < z < 1.3.",  # what a cited work did
    "The published value is 0.3, as Fig. 2 shows.",  # a result to compare with
    "# Replication 3: the effect of home visits",  # a heading
    "How much did the programme raise 1978 earnings?",  # a year before a noun that counts nothing
    "Eligibility for a 401(k) plan is the instrument.",
    "Their full 31 × 31 covariance is in `cov.txt` (961 numbers, row by row).",  # where the data are
    "`sipp.csv` is the 1991 extract: 9,915 households.",
    "Report it as `value` (a fraction between 0 and 1).",
    "Report the error |ATE − 4.016|.",  # a reference to compare with
    "Here are 72 binned distance moduli from our survey.",  # what the data hold, presented
    "OK, here's 31 nights of photometry.",
    "Below are 18 months of readings from the plant.",
])
def test_what_sets_nothing_is_not_a_stated_number(text: str) -> None:
    assert values(text, ("petrels.csv", "patches.csv")) == set(), stated_numbers(text)


def test_a_small_count_in_words_is_a_setting_before_an_arguments_noun() -> None:
    text = "Six needles at twelve depths each."
    assert values(text) == set()
    assert values(text, nouns=("needles", "depths")) == {6.0, 12.0}


def reading_of(text: str, files: list[Path] | None = None, method: str | None = None) -> object:
    files = files or []
    names = [f"data/{f.name}" for f in files]
    return read_task(text=text, method=method, data_files=names,
                     profiles=profile_inputs(dict(zip(names, files, strict=True))) if files else None)


def test_a_cut_the_method_cannot_make_is_asked_about_not_dropped(tmp_path: Path) -> None:
    data, _ = _make.hubble_bins(tmp_path)
    text = ("Using only the supernovae below z = 0.4 in `hubble_bins.csv`, what matter density does a flat ΛCDM "
            "universe prefer?")
    reading = reading_of(text, [data])
    assert reading.method == "cosmology.fit_supernovae"
    assert not reading.clear
    question = next(q for q in reading.unread if "0.4" in q)
    assert "numeric arguments: n_walkers, max_steps, seed" in question and "take it out of the task" in question
    # the same words with the method named in front matter: the person pinned it, the checklist takes over
    assert reading_of(text, [data], method="cosmology.fit_supernovae").clear


def test_numbers_the_run_uses_ask_nothing(tmp_path: Path) -> None:
    data, _ = _make.hubble_bins(tmp_path)
    reading = reading_of("From `hubble_bins.csv`, what matter density does a flat ΛCDM universe prefer? Use 48 walkers; "
                         "give the 68% interval.", [data])
    assert reading.method == "cosmology.fit_supernovae" and reading.clear, reading.unread
    assert reading.understanding.arguments["n_walkers"] == 48


def test_data_presented_with_here_are_is_a_description_not_a_setting(tmp_path: Path) -> None:
    data, _ = _make.hubble_bins(tmp_path)
    reading = reading_of("Here are 33 binned supernova distance moduli from last season, in `hubble_bins.csv`. What "
                         "matter density does a flat ΛCDM universe prefer? Use 36 walkers and seed 9.", [data])
    assert reading.method == "cosmology.fit_supernovae" and reading.clear, reading.unread
    assert reading.understanding.arguments["n_walkers"] == 36 and reading.understanding.arguments["seed"] == 9
    # a setting after "here is" in its own clause is still one ("here is the file; cut at z = 0.4" asks)
    assert not reading_of("Here is `hubble_bins.csv`; keep only supernovae below z = 0.4 and fit flat ΛCDM.",
                          [data]).clear


def test_a_number_stated_in_the_methods_own_documentation_asks_nothing() -> None:
    from cmbagent.agents._numbers import unaccounted_numbers
    from cmbagent.tools.methods import get_method

    spec = get_method("robustness.class_stability")  # "... a noisy 2-D Gaussian mixture with 60 training points"
    documentation = " ".join([spec.description, *spec.argument_docs.values()])
    text = "Interpolate 60 noisy training points from a 2-D Gaussian mixture; use 60 directions per point."
    left = unaccounted_numbers(text, [], documentation=documentation)
    assert [n.raw for n in left] == ["60"] and "directions" in left[0].sentence[left[0].start:]
    assert [n.raw for n in unaccounted_numbers(text, [])] == ["60", "2"]  # without the documentation


def test_our_own_model_that_no_argument_took_is_a_question() -> None:
    reading = read_task(text="We trained our own long-context model; run the latent-association needle benchmark "
                             "(NoLiMa-style) on it and find where it falls below 85% of its short-context score.")
    assert reading.method == "lm.nolima"
    assert any("our own long-context model" in q and "`model:" in q for q in reading.unread), reading.unread


def test_a_task_that_puts_off_what_the_method_does_needs_no_method() -> None:
    text = ("Draw trace plots of each parameter in `chain.txt` against step, with a running mean, so I can choose "
            "the burn-in by eye. No summary statistics yet.")
    reading = read_task(text=text, data_files=["data/chain.txt"])
    assert reading.choice.status == "none"
    assert any("puts off" in n for n in reading.choice.notes)
    # without the deferral the same words are a chain summary
    assert read_task(text=text.replace(" No summary statistics yet.", " Then summarise the chain."),
                     data_files=["data/chain.txt"]).method == "cosmology.summarize_chain"


def test_w_taken_as_constant_is_wcdm_for_the_reader_and_the_checklist() -> None:
    from cmbagent.agents._stated import stated_requirements

    text = "What I want is w, taken as constant in time, in a flat universe, from the distance moduli in sn.csv."
    reading = read_task(text=text, method="cosmology.fit_supernovae", data_files=["data/sn.csv"])
    assert reading.understanding.arguments["model"] == "wcdm"
    words = [r for r in stated_requirements(text, ["data/sn.csv"]) if r.kind == "word"]
    assert words and "wcdm" in words[0].accepted


def test_an_argument_named_by_its_greek_letter_accounts_for_its_default() -> None:
    # value_of_prediction's alpha defaults to 0.1: "capacity α = 0.1" restates it; the costs are read
    reading = read_task(text="A job centre screens 10% of its clients (capacity α = 0.1) to reach the 10% who will "
                             "fare worst, with a risk model of R² = 0.2. Raising capacity costs 4 per unit of α; "
                             "improving the model costs 1 per unit of R². Which investment is better value?")
    assert reading.method == "causal.value_of_prediction"
    assert reading.clear, reading.unread
    assert {k: reading.understanding.arguments[k] for k in ("r2", "cost_capacity", "cost_prediction")} == {
        "r2": 0.2, "cost_capacity": 4.0, "cost_prediction": 1.0}
