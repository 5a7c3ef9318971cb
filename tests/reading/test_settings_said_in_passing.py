"""Settings said in passing, columns named in brackets, and files the method cannot read as they are (issue 29,
blind12 spent).

Sentences and data of our own.  The twelfth blind prose set, unseen until these rules, ran thirteen tasks silently
wrong (three of them should have asked); the mechanisms behind them, each tested here:

* a question mark followed by a lower-case path ended no sentence, so the columns of the next sentence were read
  as the question's outcome (treatment and outcome swapped);
* "the income they actually realised (realised_income)": the bracket right after the cue's words names the
  column (outcome and prediction swapped);
* a covariate list with an item no column holds ("the frailty index at discharge"), ended by ", since ...", ran on
  the rest; it is a question;
* a model extension the CMB fit does not sample (N_eff free), and a supernova table with two distance columns the
  fit cannot choose between, ran (or would have failed); both are questions;
* settings in passing: propensities "cut off at 5% and 95%", "w does not evolve", H0 "as an actual parameter ...
  rather than marginalised", "a maximum multipole of N", "only for H0 and sigma8", "one in ten of the faulty ...
  revealed", "keep the unlabelled pool clean", "reveal just five of the ...", "it has three parameters", "importance
  draws", "bury the needles in" a file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import read_task
from cmbagent.inputs import profile_inputs

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def _reading(text: str, files: list[Path]) -> object:
    names = [f"data/{f.name}" for f in files]
    return read_task(text=text, data_files=names, profiles=profile_inputs(dict(zip(names, files, strict=True))))


def _write(path: Path, header: str, rows: np.ndarray, fmt: str) -> Path:
    np.savetxt(path, rows, delimiter=",", header=header, comments="", fmt=fmt)
    return path


def _wards(folder: Path) -> Path:
    rng = np.random.default_rng(31)
    n = 300
    age = rng.integers(40, 95, n)
    early = (rng.random(n) < 0.4).astype(int)
    back = (rng.random(n) < 0.15 + 0.05 * early).astype(int)
    return _write(folder / "ward_discharges.csv", "stay,early_discharge,age,beds_free,readmitted_30d",
                  np.column_stack([np.arange(n), early, age, rng.integers(0, 9, n), back]), "%d")


def test_a_question_mark_ends_the_sentence_before_a_lower_case_path(tmp_path: Path) -> None:
    table = _wards(tmp_path)
    text = ("Did early discharge from the ward change readmission within 30 days? data/ward_discharges.csv has "
            "early_discharge and readmitted_30d. Estimate the average effect, adjusting for age and free beds.")
    arguments = _reading(text, [table]).understanding.arguments
    assert arguments.get("treatment") == "early_discharge", arguments
    assert arguments.get("outcome") == "readmitted_30d", arguments


def test_a_listed_covariate_no_column_holds_is_asked_about_and_a_reason_ends_the_list(tmp_path: Path) -> None:
    table = _wards(tmp_path)
    text = ("Did early discharge (early_discharge) change 30-day readmission (readmitted_30d)? Estimate the average "
            "effect in data/ward_discharges.csv with double machine learning, adjusting for age and the frailty "
            "index at discharge, since the frailest patients went home late.")
    reading = _reading(text, [table])
    assert reading.method == "causal.dml_ate", reading.method
    assert any("“frailty index at discharge”" in q for q in reading.understanding.questions), \
        reading.understanding.questions
    assert not any("frailest" in q for q in reading.understanding.questions), reading.understanding.questions


def test_a_bracket_right_after_the_words_names_their_column(tmp_path: Path) -> None:
    rng = np.random.default_rng(32)
    n = 400
    predicted = rng.gamma(3, 2, n)
    table = _write(tmp_path / "crofter_yields.csv", "croft,forecast_yield,harvested_yield",
                   np.column_stack([np.arange(n), predicted, predicted + rng.normal(0, 2, n)]), "%.3f")
    text = ("We have a model's forecast yield (forecast_yield) and the yield they actually harvested "
            "(harvested_yield) for every croft in data/crofter_yields.csv. The scheme can support 20% of crofts and "
            "wants to reach the worst-off tenth by harvested yield. Would it pay more to support more crofts or to "
            "improve the forecast?")
    reading = _reading(text, [table])
    assert reading.method == "causal.value_of_prediction", reading.method
    arguments = reading.understanding.arguments
    assert arguments.get("prediction") == "forecast_yield" and arguments.get("outcome") == "harvested_yield", arguments


def test_an_extension_the_cmb_fit_does_not_sample_is_a_question() -> None:
    reading = read_task(text="Using the Planck band powers that come with the tool, what do we get for the effective "
                             "number of neutrino species if we let it float alongside the standard six?")
    assert reading.method == "cosmology.fit_cmb", reading.method
    assert not reading.clear
    assert any("N_eff" in q and "does not offer" in q for q in reading.understanding.questions), \
        reading.understanding.questions


def test_two_distance_columns_the_fit_cannot_choose_between_are_a_question(tmp_path: Path) -> None:
    rng = np.random.default_rng(33)
    z = np.round(np.geomspace(0.02, 1.0, 30), 4)
    mu = 5 * np.log10((1 + z) * 4300 * z) + 25 + rng.normal(0, 0.1, z.size)
    table = _write(tmp_path / "loch_sn.csv", "z,mu_fitter_a,err_a,mu_fitter_b,err_b",
                   np.column_stack([z, mu, np.full(z.size, 0.12), mu + 0.05, np.full(z.size, 0.1)]), "%.4f")
    reading = _reading("Fit flat ΛCDM to the supernovae in data/loch_sn.csv and give me Ω_m.", [table])
    assert reading.method == "cosmology.fit_supernovae", reading.method
    assert not reading.clear
    assert any("mu_fitter_a" in q and "mu_fitter_b" in q for q in reading.understanding.questions), \
        reading.understanding.questions


@pytest.mark.parametrize(("text", "expected"), [
    ("Estimate the effect of the hedge planting (hedged, 0/1) on bee counts (bees) in data/{f}, adjusting for "
     "area_ha, and cut the propensity scores off at 3% and 97% before weighting.", {"clipping": 0.03}),
    ("Fit the supernovae in data/{f} with a flat model in which w does not evolve with time, free alongside Ω_m.",
     {"model": "wcdm"}),
    ("Fit the supernovae in data/{f}, curved, with the Hubble constant as an actual parameter of the chain rather "
     "than marginalised away.", {"free_h0": True}),
])
def test_settings_said_in_passing_about_a_table(tmp_path: Path, text: str, expected: dict) -> None:
    rng = np.random.default_rng(34)
    if "supernovae" in text:
        z = np.round(np.geomspace(0.02, 1.2, 40), 4)
        rows = np.column_stack([z, 5 * np.log10((1 + z) * 4300 * z) + 25 + rng.normal(0, 0.1, z.size),
                                np.full(z.size, 0.12)])
        table = _write(tmp_path / "burn_sn.csv", "z,mu,sigma", rows, "%.4f")
    else:
        n = 300
        area = rng.uniform(1, 9, n)
        hedged = (rng.random(n) < 1 / (1 + np.exp(-(area - 5)))).astype(int)
        table = _write(tmp_path / "hedge_fields.csv", "field,area_ha,hedged,bees",
                       np.column_stack([np.arange(n), area, hedged, 20 + 5 * hedged + rng.normal(0, 3, n)]), "%.3f")
    arguments = _reading(text.format(f=table.name), [table]).understanding.arguments
    assert {k: arguments.get(k) for k in expected} == expected, arguments


@pytest.mark.parametrize(("text", "expected"), [
    ("CAMB spectra for Ω_k = −0.02 with everything else at the Planck 2018 values, taken up to a maximum multipole "
     "of 1500; CAMB on its own is fine.", {"lmax": 1500}),
    ("Weakly supervised anomaly detection with the dual-tailed kernel method: only one in twenty of the faulty "
     "pumps in the training part has its label revealed, and keep the unlabelled training pool clean.",
     {"label_ratio": 0.05, "unlabeled_anomalies": 0.0}),
    ("Train the weakly supervised detector for rare events, but reveal just eight of the faulty pumps in training.",
     {"n_labeled": 8}),
])
def test_settings_said_in_passing(text: str, expected: dict) -> None:
    arguments = read_task(text=text).understanding.arguments
    assert {k: arguments.get(k) for k in expected} == expected, arguments


def test_a_log_density_with_its_parameter_count_and_importance_draws(tmp_path: Path) -> None:
    code = tmp_path / "tidal_logpost.py"
    code.write_text("import numpy as np\n\n\ndef log_prob(x):\n    return -0.5 * float(np.sum(np.asarray(x) ** 2))\n")
    text = ("My tide-gauge model's log posterior is the Python function in data/tidal_logpost.py; it has four "
            "parameters. Fit the unbiased semi-implicit variational family whose score comes from importance "
            "sampling, with 16 importance draws per sample and 800 steps.")
    reading = _reading(text, [code])
    assert reading.method == "bayes.aisivi", reading.method
    arguments = reading.understanding.arguments
    assert arguments.get("dim") == 4 and arguments.get("n_proposal") == 16, arguments


def test_the_file_the_needles_are_buried_in_is_the_haystack(tmp_path: Path) -> None:
    log = tmp_path / "lighthouse_diary.txt"
    log.write_text(" ".join(f"Day {i}: wind from the west, lamp lit at dusk, nothing to report." for i in range(400)))
    reading = _reading("Long-context test: bury the needles in our lighthouse diary, data/lighthouse_diary.txt, with "
                       "the BM25 baseline only and no language model; lengths of 500 and 2,000 tokens.", [log])
    assert reading.method == "lm.nolima", reading.method
    assert reading.understanding.arguments.get("haystack") == "data/lighthouse_diary.txt", \
        reading.understanding.arguments


def test_chain_parameters_only_for_two_of_them(tmp_path: Path) -> None:
    rng = np.random.default_rng(35)
    chain = tmp_path / "moor_chain.txt"
    rows = np.column_stack([rng.integers(1, 4, 900), rng.normal(50, 2, 900), rng.normal(0.022, 0.001, 900),
                            rng.normal(67, 1, 900), rng.normal(0.81, 0.02, 900)])
    np.savetxt(chain, rows, header="weight minuslogpost omegabh2 H0 sigma8", fmt="%.5f")
    text = ("Summarise the Metropolis chain data/moor_chain.txt (first column the repeat count), but only for H0 and "
            "sigma8, after dropping the first 20%.")
    reading = _reading(text, [chain])
    assert reading.method == "cosmology.summarize_chain", reading.method
    assert sorted(reading.understanding.arguments.get("parameters", [])) == ["H0", "sigma8"], \
        reading.understanding.arguments
