"""The nine silent runs the twenty-ninth blind set showed when it was spent (issue 29, session 22), each with tables
and sentences written for this test, none taken from that set.

- "overall and separately within each age group": the subgroup named after "each" in words.
- "hand over the fifteen most suspicious nights": the rows to list, after a verb the reader did not know; and a
  number word before "most suspicious" was no stated number, so nothing noticed that it went unused.
- "observed through 90 random linear measurements": the measurement count with adjectives between.
- "without any temperature data at low multipoles": the low-ℓ TT bins declined in other words.
- "encoders that see one, two or three combinations per value": coverage levels in words (read as whole numbers).
- "SBP carries over 25% of the mean |SHAP|" on an ``.npz`` whose ``feature_names`` call it ``sbp_mmhg``: a feature
  named by the initials of its gloss; a word that names no feature of the archive is asked, not run.
- "(sigma_v is a nuisance parameter we marginalise over)": the parameter left out was read as the one to report.
- "adjusting for those three characteristics" after a bracket naming three columns, and "columns for both
  participation and completion": the anaphor's list, and a treatment word paired with a second column's word.
- "two labels per fish: `morph` and `sex`": a plural cue followed by two columns names no one label.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.agents._numbers import stated_numbers
from tests.reading._make import asked, clear, ferry_panel, read_files, read_text


def test_a_subgroup_named_in_words_after_within_each(tmp_path: Path) -> None:
    panel, reference = ferry_panel(tmp_path)
    text = (f"{panel.name} is a two-round ferry survey (rounds in the year column) and {reference.name} is a weighted "
            "reference sample of the islands' adults (weights in w_ref). Weight each round with a logistic "
            "inverse-propensity model on island and car_owner, then report favour_timetable and fare_fair overall "
            "and separately within each age group. 250 bootstrap replicates, seed 4.")
    arguments = clear(read_files(text, panel, reference), "alignment.survey_benchmark")
    assert arguments.get("subgroup") == "age_group", arguments
    assert arguments.get("wave") == "year" and arguments.get("weighting") == "ipw", arguments


def _kiln_nights(folder: Path) -> Path:
    rng = np.random.default_rng(2291)
    n = 600
    x = rng.normal(0, 1, (n, 4))
    x[rng.random(n) < 0.04] += 3.0
    path = folder / "kiln_nights.csv"
    np.savetxt(path, np.round(x, 3), delimiter=",", header="peak_temp,ramp_rate,gas_flow,door_openings",
               comments="", fmt="%.3f")
    return path


def test_the_rows_to_hand_over_and_a_number_word_before_most(tmp_path: Path) -> None:
    path = _kiln_nights(tmp_path)
    text = (f"{path.name} has one row per kiln firing night and nobody has marked any of them. Run the weakly "
            "supervised dual-tailed detector without labels, letting the ten most isolated nights stand in as the "
            "labelled anomalies, for 30 epochs, and hand over the fifteen most suspicious nights to the site crew. "
            "Seed 3.")
    arguments = clear(read_files(text, path), "anomaly.wsad_dt")
    assert arguments.get("n_listed") == 15 and arguments.get("n_labeled") == 10, arguments
    said = stated_numbers("Then set aside the fifteen most suspicious nights for the crew.", nouns=["epochs"])
    assert [n.values for n in said] == [(15.0,)]
    assert stated_numbers("Compare the two rounds.", nouns=["epochs"]) == []


def test_a_measurement_count_with_adjectives_between() -> None:
    text = ("Implicit regularisation of gradient descent on a tubal factorisation: a 10 × 10 × 3 tensor of tubal rank "
            "two, observed through 90 random linear measurements, a factor with 15 tubal columns, initial scales "
            "1e-4 and 1e-2, 3000 iterations, seed 1.")
    arguments = clear(read_text(text), "theory.tubal_tensor_gd")
    assert arguments.get("measurements") == 90 and arguments.get("rank") == 15, arguments


def test_low_multipole_temperature_declined_in_other_words() -> None:
    text = ("How much does TE alone say about ΛCDM? Fit the six standard parameters to the Planck TE band powers only, "
            "and without any temperature data at low multipoles. Seed 5.")
    arguments = clear(read_text(text), "cosmology.fit_cmb")
    assert arguments.get("low_ell_tt") is False and arguments.get("spectra") == "TE", arguments


def test_coverage_levels_in_words_are_whole_numbers() -> None:
    text = ("Combinatorial coverage ablation: a 4 × 4 grid of concept values, 900 training samples, and encoders that "
            "see one, two or three combinations per value; report accuracy on held-out combinations. Seeds 0 and 1.")
    arguments = clear(read_text(text), "lm.compositional_diversity")
    assert arguments.get("ks") == [1, 2, 3] and all(type(k) is int for k in arguments["ks"]), arguments


def _marker_archive(folder: Path) -> Path:
    rng = np.random.default_rng(2292)
    x = rng.normal(0, 1, (400, 5))
    y = (x[:, 0] + 0.5 * x[:, 3] + rng.normal(0, 1, 400) > 0).astype(int)
    path = folder / "cardio_markers.npz"
    np.savez(path, X=x, y=y, feature_names=np.array(["ldl_mg_dl", "hba1c_pct", "bmi", "sbp_mmhg", "egfr"]))
    return path


def test_a_feature_by_the_initials_of_its_gloss_and_a_word_that_names_none(tmp_path: Path) -> None:
    path = _marker_archive(tmp_path)
    text = (f"{path.name} holds five cardiac risk markers (X, names in feature_names) and an event flag (y). A "
            "consultant says systolic blood pressure (`sbp_mmhg`) drives their model. Among pipelines whose validation "
            "AUC is within 0.02 of the best, look for one where SBP carries over 25% of the mean |SHAP|. Random search "
            "only, 20 trials, seed 6.")
    arguments = clear(read_files(text, path), "robustness.x_hacking")
    assert arguments.get("target_feature") == "sbp_mmhg", arguments
    unknown = text.replace("systolic blood pressure (`sbp_mmhg`)", "troponin").replace("where SBP", "where troponin")
    reading = read_files(unknown, path)
    assert reading.method == "robustness.x_hacking", reading.choice
    assert "target_feature" not in reading.understanding.arguments and asked(reading), reading.understanding.arguments


def test_a_nuisance_parameter_is_left_out_of_the_summary(tmp_path: Path) -> None:
    rng = np.random.default_rng(2293)
    path = tmp_path / "lens_chain.txt"
    np.savetxt(path, np.column_stack([rng.integers(1, 4, 3000), rng.normal(71, 2, 3000), rng.normal(2.0, 0.05, 3000),
                                      rng.normal(250, 10, 3000)]), header="weight H0 beta sigma_v", fmt="%.4f")
    text = (f"{path.name} is our lens-model chain: a multiplicity weight, then H0, the slope beta and the velocity "
            "dispersion sigma_v. Drop the first fifth as burn-in. The paper only needs H0 and beta (sigma_v is a "
            "nuisance parameter we marginalise over): means, standard deviations and 68% ranges.")
    arguments = clear(read_files(text, path), "cosmology.summarize_chain")
    assert arguments.get("parameters") == ["H0", "beta"], arguments


def _course(folder: Path) -> Path:
    rng = np.random.default_rng(2294)
    n = 500
    age = rng.integers(19, 60, n)
    school = rng.integers(8, 18, n)
    past = np.round(rng.normal(18000, 5000, n))
    joined = rng.binomial(1, 0.4, n)
    finished = joined * rng.binomial(1, 0.7, n)
    after = np.round(past + 900 * joined + 600 * finished + rng.normal(0, 3000, n))
    path = folder / "course_clients.csv"
    np.savetxt(path, np.column_stack([age, school, past, joined, finished, after]), delimiter=",",
               header="age,schooling_yr,past_wage,participated,completed,wage_after", comments="", fmt="%d")
    return path


def test_a_list_in_brackets_for_those_three_and_two_columns_for_taking_part(tmp_path: Path) -> None:
    path = _course(tmp_path)
    listed = (f"{path.name}: 500 clients with age, years of schooling and past wage (`age`, `schooling_yr`, "
              "`past_wage`), whether they took the course (`participated`), and their wage a year on (`wage_after`). "
              "Estimate the average effect of the course on the wage by double ML, conditioning on those three "
              "characteristics, seed 1.")
    arguments = clear(read_files(listed, path), "causal.dml_ate")
    assert arguments.get("covariates") == ["age", "schooling_yr", "past_wage"], arguments
    assert arguments.get("treatment") == "participated", arguments
    both = (f"{path.name}: 500 clients with age, years of schooling and past wage (`age`, `schooling_yr`, "
            "`past_wage`) and their wage a year on (`wage_after`). Estimate the average effect of taking the course "
            "on the wage by double ML, conditioning on those three characteristics, seed 1. The file has columns "
            "for both participation and completion.")
    reading = read_files(both, path)
    assert reading.method == "causal.dml_ate", reading.choice
    assert "treatment" not in reading.understanding.arguments, reading.understanding.arguments
    assert any("treatment" in q for q in asked(reading)), asked(reading)


def test_two_labels_after_a_plural_cue_name_no_one_label(tmp_path: Path) -> None:
    rng = np.random.default_rng(2295)
    path = tmp_path / "goby_traits.csv"
    rows = ["length_mm,depth_ratio,spine_count,morph,sex"]
    for _ in range(240):
        rows.append(",".join([f"{rng.normal(60, 8):.1f}", f"{rng.normal(0.3, 0.03):.3f}", str(rng.integers(6, 9)),
                              str(rng.choice(["banded", "plain"])), str(rng.choice(["f", "m"]))]))
    path.write_text("\n".join(rows) + "\n")
    text = (f"{path.name} has length, depth ratio and spine count for 240 gobies, with two labels per fish: `morph` "
            "and `sex`. We fit a logistic classifier on the measurements; how stable is its classification, as the "
            "expected distance of held-out fish from the decision boundary? Seed 8.")
    reading = read_files(text, path)
    assert reading.method == "robustness.class_stability", reading.choice
    assert "label_column" not in reading.understanding.arguments, reading.understanding.arguments
    assert any("label_column" in q for q in asked(reading)), asked(reading)


def test_words_glossed_by_a_bracket_add_no_second_column(tmp_path: Path) -> None:
    """Found while writing these tests: "earnings in 2020 (`earn20`)" also added ``earn19`` by its words."""
    from tests.reading._make import programme

    path = programme(tmp_path)
    text = (f"Did the job programme in {path.name} pay? Please adjust for age (`age`), schooling (`school`) and "
            "earnings in 2020 (`earn20`); `enrolled` is 1 for those who took part and `earn22` is what they earned "
            "later. Average effect by double ML, seed 5.")
    arguments = clear(read_files(text, path), "causal.dml_ate")
    assert arguments.get("covariates") == ["age", "school", "earn20"], arguments


def test_an_abbreviation_that_leads_the_one_column_the_text_writes_out(tmp_path: Path) -> None:
    """A sceptic run of session 22: "PCT" for "procalcitonin (`pct_ng_ml`)" was asked; the abbreviation is the first
    part of the one column the text writes out, while a word that starts no such column is still asked."""
    rng = np.random.default_rng(2296)
    x = rng.normal(0, 1, (500, 4))
    y = (x[:, 0] + 0.8 * x[:, 2] + rng.normal(0, 1, 500) > 0).astype(int)
    path = tmp_path / "sepsis_panel.npz"
    np.savez(path, X=x, y=y, feature_names=np.array(["lactate_mmol", "wbc_count", "pct_ng_ml", "age_yr"]))
    text = (f"{path.name} holds four admission markers (X, names in feature_names) and later sepsis (y). Could a team "
            "pick, among equally good pipelines, one in which procalcitonin (`pct_ng_ml`) looks unimportant? Among "
            "pipelines whose validation AUC is within 0.02 of the best, look for one where PCT gets less than 5% of "
            "the mean |SHAP|. Random search only, 20 trials, seed 4.")
    assert clear(read_files(text, path), "robustness.x_hacking").get("target_feature") == "pct_ng_ml"
    unwritten = text.replace(" (`pct_ng_ml`)", "")
    reading = read_files(unwritten, path)
    assert "target_feature" not in reading.understanding.arguments and asked(reading), reading.understanding.arguments
