"""Readings the twenty-second blind set showed missing when it was spent (issue 29, session 18), each with tables and
sentences written for this test, none taken from that set.

- **Another field's analysis.** "Give Fleiss' kappa across the three raters" on a table of ratings ran the survey
  method, whose words ("raters") and data fit: a named analysis no method does is no task for a method whose own words
  it barely uses.
- **A Bayesian logistic regression** is both the variational fit's built-in target and a family of the in-context
  posterior; a text that names neither way asks.
- **A joint CMB and supernova fit** read its supernova table as the CMB method's ``data``, which is a folder of band
  powers. An argument documented as a folder takes no file, and an argument "as for fit_supernovae" takes the file
  that fits that method's input.
- **Silent substitutions by words**: a survey's weighting said in words ("a logistic inverse-propensity model", "used
  exactly as they are, with no further adjustment"), its wave column in brackets, "island by island"; an anomaly
  baseline that "won't be deployable"; "the XGBoost outlier baseline"; "regressed logistically"; "one and a half";
  "stopping at ell = 1800"; "record 30 episodes".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.agents._numbers import stated_numbers
from tests.reading._make import _mu, ferry_panel, read_files


def _ratings(folder: Path) -> Path:
    rng = np.random.default_rng(41)
    rows = ["essay,rater_a,rater_b,rater_c"]
    for i in range(120):
        truth = rng.integers(1, 5)
        rows.append(",".join([f"E{i:03d}", *(str(int(np.clip(truth + rng.integers(-1, 2), 1, 4))) for _ in range(3))]))
    path = folder / "essay_grades.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_an_analysis_no_method_does_is_no_method_task(tmp_path: Path) -> None:
    path = _ratings(tmp_path)
    text = (f"Three raters graded 120 essays on a four-point scale ({path.name}). How consistent are they? Give "
            "Fleiss' kappa across the three raters, with a bootstrap interval, and say which pair agrees least.")
    reading = read_files(text, path)
    assert reading.method is None and reading.choice.status == "none", reading.choice
    assert any("Fleiss" in note for note in reading.choice.notes), reading.choice.notes
    # what the CLI prints when it exits 2 says why, not only which methods came closest
    assert "Fleiss' kappa" in reading.question(offline=True) and "no method tool does" in reading.question(offline=True)


def test_a_bayesian_logistic_regression_asks_which_way(tmp_path: Path) -> None:
    rng = np.random.default_rng(42)
    n = 60
    weight, days = rng.normal(600, 80, n), rng.integers(5, 40, n)
    alive = rng.binomial(1, 1 / (1 + np.exp(-(weight - 600) / 80)))
    path = tmp_path / "released_owls.csv"
    np.savetxt(path, np.column_stack([np.round(weight, 1), days, alive]), delimiter=",",
               header="release_weight_g,days_in_care,alive_90d", comments="", fmt=["%.1f", "%d", "%d"])
    text = (f"The owls we released are in {path.name}. Could you get me a proper Bayesian posterior for a logistic "
            "regression of survival on weight and days in care, not just point estimates? A prior standard deviation "
            "of 1 on the coefficients is fine.")
    reading = read_files(text, path)
    assert reading.choice.status == "ask", reading.choice
    assert {c.method for c in reading.choice.candidates[:2]} == {"bayes.aisivi", "bayes.icl_posterior"}


def test_a_joint_fit_reads_its_supernova_table_as_supernovae(tmp_path: Path) -> None:
    rng = np.random.default_rng(43)
    z = np.sort(rng.uniform(0.02, 0.9, 30))
    mb = _mu(z, 0.3, w0=-0.95) - 19.3 + rng.normal(0, 0.1, z.size)
    table = tmp_path / "prism_sn.csv"
    np.savetxt(table, np.column_stack([z, mb, np.full(z.size, 0.1)]), delimiter=",", header="z,mb,mb_err",
               comments="", fmt=["%.4f", "%.4f", "%.3f"])
    covariance = tmp_path / "prism_sn_cov.txt"
    np.savetxt(covariance, np.diag(np.full(z.size, 0.01)) + 0.002, fmt="%.5f")
    text = ("Referee check. The authors combine the full Planck TT, TE and EE band powers with their 30 prism-selected "
            f"supernovae and quote a constant w. Reproduce the joint fit: the CMB likelihood plus {table.name} with its "
            f"covariance {covariance.name}, w free. Leave out the emulator-versus-CAMB comparison, and stop at "
            "30,000 accepted samples at most. Seed 2.")
    reading = read_files(text, table, covariance)
    assert reading.method == "cosmology.fit_cmb", reading.choice
    arguments = reading.understanding.arguments
    assert arguments.get("supernovae") == table.name and "data" not in arguments, arguments
    assert arguments.get("sn_covariance") == covariance.name and arguments.get("check_camb") is False, arguments
    assert arguments.get("model") == "wcdm" and arguments.get("max_samples") == 30000, arguments


def test_survey_weighting_wave_and_subgroup_in_plain_words(tmp_path: Path) -> None:
    panel, reference = ferry_panel(tmp_path)
    text = (f"{panel.name} holds islanders interviewed in two rounds (column year: 2023 and 2024), asked whether "
            f"they favour the new timetable (favour_timetable) and whether fares are fair (fare_fair). Bring each round "
            f"in line with the islands' adults using the reference sample {reference.name}, whose rows carry their "
            "own weights in w_ref, with a logistic inverse-propensity model on age_group and car_owner (not raking). "
            "We want the drift between rounds, island by island. 400 bootstrap replicates, seed 8.")
    reading = read_files(text, panel, reference)
    assert reading.method == "alignment.survey_benchmark", reading.choice
    arguments = reading.understanding.arguments
    assert arguments.get("weighting") == "ipw" and arguments.get("wave") == "year", arguments
    assert arguments.get("subgroup") == "island", arguments
    assert sorted(arguments.get("covariates", [])) == ["age_group", "car_owner"], arguments

    as_drawn = (f"{panel.name} is our ferry survey. There is no census to adjust to: only the base weights in column dw, "
                "which I want used exactly as they are with no further adjustment on top. How do opinions on "
                "favour_timetable differ island by island (column island)?")
    arguments = read_files(as_drawn, panel).understanding.arguments
    assert arguments.get("weighting") == "none" and arguments.get("design_weight") == "dw", arguments


def test_a_model_possessive_describes_the_model_file_not_the_table() -> None:
    from cmbagent.agents._datamap import map_column_list
    from cmbagent.profiles import profile_file

    def _table(folder: Path) -> Path:
        path = folder / "views.csv"
        path.write_text("resp,region,q_tax,q_school\n" + "".join(f"{i},r{i % 3},yes,no\n" for i in range(30)))
        return path

    import tempfile

    path = _table(Path(tempfile.mkdtemp()))
    profile = profile_file(path.name, path)
    text = "The second has an assistant's answer shares when it was asked to reply as someone living in each region."
    assert map_column_list(text, profile, "questions", "answers", taken=set(), cues=[r"\banswers?\b"]) is None


def _visits(folder: Path) -> Path:
    rng = np.random.default_rng(44)
    n = 600
    sick = rng.binomial(1, 0.08, n)
    features = rng.normal(0, 1, (n, 3)) + sick[:, None] * 1.5
    path = folder / "goat_visits.csv"
    np.savetxt(path, np.column_stack([np.round(features, 4), sick]), delimiter=",",
               header="conductivity,yield_l,temp_c,mastitis", comments="", fmt=["%.4f"] * 3 + ["%d"])
    return path


def test_an_anomaly_baseline_that_wont_be_deployable_is_left_out(tmp_path: Path) -> None:
    path = _visits(tmp_path)
    text = (f"{path.name} holds goat milking visits; the column mastitis marks confirmed cases (1) or healthy (0). How "
            "does the weakly supervised detector do if only one in ten of the training cases had been confirmed? "
            "Compare it with isolation forest and the XGBoost outlier baseline only; DevNet won't be deployable on the "
            "parlour PC anyway. 30 epochs, seed 3.")
    arguments = read_files(text, path).understanding.arguments
    assert arguments.get("baselines") == ["iforest", "xgbod"], arguments
    assert arguments.get("label_ratio") == 0.1 and arguments.get("label") == "mastitis", arguments


def test_small_settings_in_words() -> None:
    from cmbagent.agents import read_task

    def read(text: str) -> Any:
        return read_task(text=text, title="", data_files=[], profiles=[])

    spectra = read("Compute the CMB power spectra for a scalar tilt of 0.96 and an optical depth of 0.07, stopping at "
                   "ell = 1800, and have CLASS redo them.")
    assert spectra.understanding.arguments.get("lmax") == 1800, spectra.understanding.arguments

    world = read("Use Pendulum-v1: record 30 episodes of the scripted controller with heavy action noise (20 per cent "
                 "of the action range), then fit a diffusion world model conditioned on return-to-go. Seed 1.")
    arguments = world.understanding.arguments
    assert arguments.get("episodes") == 30 and arguments.get("behaviour_noise") == 0.2, arguments

    assert 68.0 not in {v for n in stated_numbers("Give the mean and the 68 and 95% ranges of H0.") for v in n.values}
    assert {v for n in stated_numbers("Use a prior standard deviation of one and a half.") for v in n.values} == {1.5}


def test_a_logistic_in_context_posterior_in_plain_words(tmp_path: Path) -> None:
    rng = np.random.default_rng(45)
    n = 50
    slope, strain = rng.uniform(0, 20, n), rng.normal(0, 1, n)
    cracked = rng.binomial(1, 1 / (1 + np.exp(-(slope - 10) / 3)))
    path = tmp_path / "ice_shelf_points.csv"
    np.savetxt(path, np.column_stack([np.round(slope, 2), np.round(strain, 3), cracked]), delimiter=",",
               header="slope_deg,strain,cracked", comments="", fmt=["%.2f", "%.3f", "%d"])
    text = (f"Attached are 50 points from the ice shelf ({path.name}): slope, strain and whether the point is cracked "
            "(0/1). I want the whole posterior when cracked is regressed logistically on those two inputs, obtained in "
            "context by a transformer trained on simulated data sets. Prior standard deviation one and a half; 2,000 "
            "training steps; seed 6.")
    reading = read_files(text, path)
    assert reading.method == "bayes.icl_posterior", reading.choice
    arguments = reading.understanding.arguments
    assert arguments.get("family") == "logistic_regression" and arguments.get("prior_std") == 1.5, arguments


def test_what_our_model_gives_is_the_prediction(tmp_path: Path) -> None:
    # a sceptic's value-of-prediction task asked for both columns: "our model's arrears_risk" named no prediction
    rng = np.random.default_rng(46)
    risk = rng.uniform(0, 1, 300)
    path = tmp_path / "borrowers.csv"
    np.savetxt(path, np.column_stack([np.arange(300), np.round(risk, 3), np.round(6 * risk + rng.normal(0, 2, 300), 2)]),
               delimiter=",", header="borrower,default_risk,hardship_score", comments="", fmt=["%d", "%.3f", "%.2f"])
    text = (f"{path.name} has our model's default_risk for each borrower and the hardship_score we measured afterwards "
            "(higher is worse). We can call a tenth of borrowers. Is it worth improving the risk model, or should we "
            "fund more calls? We care about the worst-off fifth.")
    reading = read_files(text, path)
    assert reading.method == "causal.value_of_prediction", reading.choice
    arguments = reading.understanding.arguments
    assert arguments.get("prediction") == "default_risk" and arguments.get("outcome") == "hardship_score", arguments
    assert arguments.get("higher_is_worse") is True and arguments.get("alpha") == 0.1, arguments
