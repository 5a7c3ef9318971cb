"""How prose states the arguments of the causal, cosmology, anomaly, robustness and alignment methods (issue 29).

Every pattern in ``agents/_fields_{causal,cosmology,anomaly,robustness,alignment}.py`` is read here from sentences written
for this test — not the prose set's (``tests/understanding``) — and next to each, sentences that must not set
the argument: negations, nearby numbers that mean something else, words that name no column.  The reader's
general mechanisms these entries rely on are tested at the end (a numeric choice, a prior that refers back, a
stated but unreadable argument as a question, a column's content, the data path's field cues).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import understand_task
from cmbagent.inputs import profile_inputs


def read(method: str, text: str, columns: list[str] | None = None) -> dict[str, Any]:
    """The arguments read from ``text`` (with the columns of one data table, when given)."""
    files = ["table.csv"] if columns else []
    return understand_task(method, text, {}, files, columns={"table.csv": columns} if columns else None).arguments


def read_data(tmp_path: Path, method: str, text: str, csv: str, name: str = "table.csv") -> Any:
    """The whole reading of ``text`` with one table whose content is profiled (the data path)."""
    path = tmp_path / name
    path.write_text(csv, encoding="utf-8")
    return understand_task(method, text, {}, [name], profiles=profile_inputs({name: path}))


def table(header: str, rows: list[str]) -> str:
    return "\n".join([header, *rows]) + "\n"


# -- cosmology.fit_supernovae ------------------------------------------------------------------------------
SN = "cosmology.fit_supernovae"


@pytest.mark.parametrize(("text", "model"), [
    ("Assume a spatially flat geometry with a cosmological constant and report Ω_m.", "flat_lcdm"),
    ("Fit the matter density in a flat\nuniverse with Λ.", "flat_lcdm"),  # a phrase broken by the line wrap
    ("We assume flatness throughout.", "flat_lcdm"),
    ("Fit a constant dark-energy\nequation of state to the moduli.", "wcdm"),
    ("Keep w as a free parameter next to the matter density.", "wcdm"),
    ("Is there any sign of time-varying dark energy in these bins?", "w0wacdm"),
    ("Constrain w0/wa with the binned magnitudes.", "w0wacdm"),
    ("Fit Ω_m and Ω_Λ without assuming flatness.", "lcdm"),
    ("We should not assume a flat universe here.", "lcdm"),
    ("Is the universe open or closed?", "lcdm"),
])
def test_the_background_model_as_cosmologists_word_it(text: str, model: str) -> None:
    assert read(SN, text).get("model") == model


@pytest.mark.parametrize("text", [
    "Treat H0 as a free parameter of the fit.",
    "Sample the Hubble constant together with Ω_m.",
    "We want to measure the Hubble constant from these distance moduli.",
])
def test_sampling_h0_is_said_in_several_ways(text: str) -> None:
    assert read(SN, text).get("free_h0") is True


@pytest.mark.parametrize("text", [
    "Marginalise over H0; we do not want to fit H0.",
    "H0 stays fixed at 70 km/s/Mpc while Ω_m is fitted.",
])
def test_h0_that_is_not_sampled(text: str) -> None:
    assert "free_h0" not in read(SN, text)


def test_a_prior_sentence_that_refers_back_takes_the_value_before_it() -> None:
    text = ("SH0ES measures H0 = 73.0 ± 1.0 km/s/Mpc. Please use this as a Gaussian prior on H0 with the 300 "
            "supernovae.")
    assert read(SN, text)["priors"] == {"H0": {"mean": 73.0, "std": 1.0}}
    # a prior sentence that names another parameter takes nothing from the sentence before it
    text = "Planck finds Ω_m = 0.315 ± 0.007. Use this with a flat prior on w0 and 300 supernovae."
    assert "priors" not in read(SN, text)


def test_data_that_cannot_hold_redshifts_are_no_supernova_data(tmp_path: Path) -> None:
    from cmbagent.agents._fields_cosmology import supernova_data

    lines = tmp_path / "lines.csv"
    lines.write_text(table("galaxy,observed_angstrom", [f"g{i},{6600 + 40 * i}" for i in range(12)]))
    moduli = tmp_path / "moduli.csv"
    moduli.write_text(table("z,mu,sigma", [f"{0.05 * (i + 1):.2f},{36 + 0.5 * i},0.1" for i in range(12)]))
    assert supernova_data(profile_inputs({"lines.csv": lines})) == -1.0
    assert supernova_data(profile_inputs({"moduli.csv": moduli})) == 1.0


# -- cosmology.summarize_chain -----------------------------------------------------------------------------
CHAIN = "cosmology.summarize_chain"


@pytest.mark.parametrize(("text", "fraction"), [
    ("Throw away the first quarter of the chain before summarising.", 0.25),
    ("Treat the first 40 per cent as warm-up.", 0.4),
    ("Use a burn-in of 0.15 and report the means.", 0.15),
    ("The burn-in is the first tenth of the samples.", 0.1),
])
def test_a_burn_in_written_as_a_share(text: str, fraction: float) -> None:
    assert read(CHAIN, text)["burn_in_fraction"] == pytest.approx(fraction)


def test_a_burn_in_in_rows_is_no_fraction() -> None:
    assert "burn_in_fraction" not in read(CHAIN, "Discard the first 500 samples as burn-in.")


def test_the_parameters_a_summary_is_restricted_to() -> None:
    columns = ["omega_b", "n_s", "sigma_8", "weight"]
    assert read(CHAIN, "I'm only interested in `omega_b` and `n_s`.", columns)["parameters"] == ["omega_b", "n_s"]
    assert "parameters" not in read(CHAIN, "We only care about `S8` here.", columns)  # no such column


# -- anomaly.wsad_dt ---------------------------------------------------------------------------------------
WSAD = "anomaly.wsad_dt"


@pytest.mark.parametrize(("text", "count"), [
    ("Just twelve fraudulent transactions were confirmed by the bank.", 12),
    ("There are 5 confirmed defects among the training rows.", 5),
    ("We have the labels for only 20 anomalous readings.", 20),
])
def test_a_handful_of_labelled_anomalies(text: str, count: int) -> None:
    assert read(WSAD, text)["n_labeled"] == count


def test_counts_that_are_not_labelled_anomalies() -> None:
    arguments = read(WSAD, "There are 8 sensors and 2,000 readings; 10% of the faults are labelled.")
    assert "n_labeled" not in arguments and arguments["label_ratio"] == pytest.approx(0.1)


@pytest.mark.parametrize(("text", "share"), [
    ("We labelled a fifth of the faults in the training part.", 0.2),
    ("Only 20% of the outliers are known.", 0.2),
])
def test_a_share_of_labelled_anomalies(text: str, share: float) -> None:
    assert read(WSAD, text)["label_ratio"] == pytest.approx(share)


@pytest.mark.parametrize(("text", "kept"), [
    ("The unlabelled rows are assumed to be clean.", 0.0),
    ("Treat the unlabelled data as clean.", 0.0),
    ("Train on a clean unlabelled pool.", 0.0),
    ("There are no outliers in the unlabelled set.", 0.0),
    ("The unlabelled training data still contain hidden anomalies.", 1.0),
])
def test_whether_the_unlabelled_rows_hide_anomalies(text: str, kept: float) -> None:
    assert read(WSAD, text)["unlabeled_anomalies"] == kept


def test_a_clean_set_that_is_not_assumed() -> None:
    assert "unlabeled_anomalies" not in read(WSAD, "We cannot assume the unlabelled set is clean.")


def test_baselines_as_the_field_names_them() -> None:
    assert read(WSAD, "Benchmark against DevNet and an iForest.")["baselines"] == ["devnet", "iforest"]
    assert read(WSAD, "Also run the deviation network.")["baselines"] == ["devnet"]
    assert read(WSAD, "Run IsolationForest and XGBOD beside it.")["baselines"] == ["iforest", "xgbod"]
    # a baseline the text declines is not run
    assert read(WSAD, "No need for an isolation forest; compare with XGBOD.")["baselines"] == ["xgbod"]


# -- robustness.class_stability ----------------------------------------------------------------------------
STAB = "robustness.class_stability"


@pytest.mark.parametrize(("text", "experiment"), [
    ("How does the margin change across several widths of a random-feature network?", "width_sweep"),
    ("Plot the stability as a function of the network width.", "width_sweep"),
    ("Do wider networks sit further from their training points?", "width_sweep"),
    ("What is the mean distance of our test samples to the boundary of a logistic model?", "stability"),
    ("How far do the held-out cells lie from the classifier's boundary?", "stability"),
])
def test_the_experiment_from_what_is_asked(text: str, experiment: str) -> None:
    assert read(STAB, text)["experiment"] == experiment


@pytest.mark.parametrize(("text", "noise"), [
    ("Flip 10% of the training labels at random.", 0.1),
    ("Use a label noise of 0.3.", 0.3),
    ("A quarter of the labels are corrupted.", 0.25),
])
def test_label_noise(text: str, noise: float) -> None:
    assert read(STAB, text)["noise"] == pytest.approx(noise)


def test_held_out_points_are_not_label_noise() -> None:
    assert "noise" not in read(STAB, "20% of the points are held out for testing.")


def test_how_many_held_out_points() -> None:
    assert read(STAB, "Evaluate no more than 150 test points.")["max_points"] == 150
    assert "max_points" not in read(STAB, "Train on at most 500 training points.")


@pytest.mark.parametrize(("text", "model"), [
    ("Fit a Gaussian-kernel SVM first.", "rbf_svm"),
    ("Fit a linear support-vector machine.", "linear_svm"),
    ("A random forest is our screen.", "random_forest"),
    ("Our classifier is a multilayer perceptron.", "mlp"),
])
def test_the_classifier_in_words(text: str, model: str) -> None:
    assert read(STAB, text)["model"] == model


# -- robustness.x_hacking ----------------------------------------------------------------------------------
XH = "robustness.x_hacking"
LOANS = ["age", "income", "zip_density", "defaulted"]


@pytest.mark.parametrize(("text", "feature"), [
    ("Could a pipeline search make `zip_density` appear irrelevant?", "zip_density"),
    ("Find a defensible model where income receives almost no SHAP mass.", "income"),
    ("Is it possible to downplay the role of age in the explanation?", "age"),
])
def test_the_feature_whose_explanation_is_gamed(text: str, feature: str) -> None:
    assert read(XH, text, LOANS)["target_feature"] == feature


def test_a_word_that_is_no_column_is_no_target_feature() -> None:
    assert "target_feature" not in read(XH, "Could someone make it look unimportant?", LOANS)


@pytest.mark.parametrize(("text", "goal", "threshold"), [
    ("Can `age` be made to look less important, under 8% of the mean |SHAP|?", "hide", 0.08),
    ("Search for pipelines that keep the SHAP share below 0.05 by hiding it.", "hide", 0.05),
    ("Try to inflate the importance of age to at least 40% of the absolute SHAP.", "promote", 0.4),
])
def test_hiding_or_promoting_and_the_share(text: str, goal: str, threshold: float) -> None:
    arguments = read(XH, text, LOANS)
    assert arguments["goal"] == goal and arguments["threshold"] == pytest.approx(threshold)


@pytest.mark.parametrize(("text", "tolerance"), [
    ("Defensible means an AUC within 0.015 of the best pipeline.", 0.015),
    ("Keep pipelines within 0.03 of the best validation AUC.", 0.03),
])
def test_the_defensible_set(text: str, tolerance: float) -> None:
    assert read(XH, text, LOANS)["tolerance"] == pytest.approx(tolerance)


@pytest.mark.parametrize(("text", "search"), [
    ("Compare random search against TPE.", "both"),
    ("Use a tree-structured Parzen estimator.", "tpe"),
    ("A plain random search will do.", "random"),
])
def test_the_search(text: str, search: str) -> None:
    assert read(XH, text, LOANS)["search"] == search


def test_the_search_budget() -> None:
    assert read(XH, "Give the search a budget of 60 trials.", LOANS)["n_trials"] == 60
    assert read(XH, "Stop after 25 evaluations.", LOANS)["n_trials"] == 25
    assert "n_trials" not in read(XH, "The table has 30 features.", LOANS)


# -- causal.iv_cate_bounds ---------------------------------------------------------------------------------
IV = "causal.iv_cate_bounds"
LOTTERY = ["lottery_won", "enrolled", "gpa", "family_income", "cate_true"]


def test_an_instrument_study_in_words() -> None:
    text = ("Students who won the lottery (`lottery_won`) could enrol, but take-up (`enrolled`) was voluntary. "
            "Bound the effect of enrolling on `gpa` conditional on `family_income`. The column `cate_true` is the "
            "simulated true effect. The outcome is bounded between 0 and 4; report the k-means cells.")
    arguments = read(IV, text, LOTTERY)
    assert (arguments["outcome"], arguments["treatment"]) == ("gpa", "enrolled")
    assert arguments["covariates"] == ["family_income"] and arguments["instruments"] == ["lottery_won"]
    assert arguments["reference_cate"] == "cate_true" and arguments["outcome_support"] == [0, 4]
    assert arguments["partition"] == "kmeans"


@pytest.mark.parametrize(("text", "partition"), [
    ("Use 6 cells and compare with quantile cells.", "learned"),  # only compared with: the learned one is reported
    ("Report the k-means cells and compare with a learned partition.", "kmeans"),
    ("Use a learned partition, compared with k-means cells of the same number.", "learned"),
])
def test_a_partition_only_compared_with_is_not_reported(text: str, partition: str) -> None:
    assert read(IV, text, LOTTERY)["partition"] == partition


def test_a_range_of_backticked_instrument_columns() -> None:
    columns = ["z0", "z1", "z2", "z3", "d", "y", "x"]
    text = "The encouragement is randomised over `z0` … `z3`. Bound the effect of the uptake (`d`) on `y`, which varies with `x`."
    arguments = read(IV, text, columns)
    assert arguments["instruments"] == ["z0", "z1", "z2", "z3"] and arguments["covariates"] == ["x"]


def test_a_true_effect_that_is_the_question_is_no_reference_column() -> None:
    text = "We want the true effect of taking up (`took`) on `grade`, as a function of `age`."
    assert "reference_cate" not in read(IV, text, ["took", "grade", "age", "offer"])


def test_a_numeric_column_is_no_binary_treatment(tmp_path: Path) -> None:
    csv = table("hours,went,score,age", [f"{i % 7},{i % 2},{50 + i},{20 + i % 30}" for i in range(40)])
    reading = read_data(tmp_path, IV, "Attendance hours are in `hours`; whether someone attended at all is `went`. "
                        "Bound the effect on `score` as a function of `age`.", csv)
    assert reading.arguments["treatment"] == "went"
    # the data path too: the column named right after the cue is a count, the 0/1 one is the treatment
    reading = read_data(tmp_path, IV, "Was it worth attending (`hours` counts the sessions, `went` says whether)? "
                        "Bound the effect on `score` as a function of `age`.", csv)
    assert reading.arguments["treatment"] == "went"


def test_the_covariates_by_the_fields_words_and_the_data(tmp_path: Path) -> None:
    """The field's cue ("as a function of") also guides the mapping of words to columns."""
    csv = table("distance_km,took_offer,employed,cate_sim", [f"{i % 17},{i % 2},{(i // 2) % 2},0.1" for i in range(40)])
    reading = read_data(tmp_path, IV, "Whether someone took the offer up (`took_offer`) is confounded. Bound the "
                        "effect of taking it on `employed` as a function of distance.", csv)
    assert reading.arguments["covariates"] == ["distance_km"]


def test_a_column_one_list_took_plays_no_other_lists_role(tmp_path: Path) -> None:
    """"Partition the instrument into 8 cells, ... as a function of distance": distance is the covariate, not also
    an instrument column."""
    csv = table("distance_km,took_offer,employed,cate_sim", [f"{i % 17},{i % 2},{(i // 2) % 2},0.1" for i in range(40)])
    reading = read_data(tmp_path, IV, "Whether someone took the offer up (`took_offer`) is confounded. Partition the "
                        "instrument into 8 cells with a learned partition, bound the effect of taking it on "
                        "`employed` as a function of distance, and compare with k-means cells of the same number.", csv)
    assert reading.arguments["covariates"] == ["distance_km"] and "instruments" not in reading.arguments


# -- causal.dml_ate ----------------------------------------------------------------------------------------
DML = "causal.dml_ate"


def test_an_outcome_written_as_a_gain_and_an_indicator_treatment() -> None:
    text = ("Pupils with a mentor (`mentored` is 1 for them) were chosen by teachers. What is the average gain in "
            "`exam_score` from the mentoring?")
    arguments = read(DML, text, ["pupil_id", "mentored", "exam_score", "age"])
    assert (arguments["treatment"], arguments["outcome"]) == ("mentored", "exam_score")


def test_an_indicator_defines_the_column_before_it_not_the_next_one_listed() -> None:
    text = "One row per patient: `dosed` (1 if given the drug), `stay_days`, and a triage note."
    assert read(DML, text, ["dosed", "stay_days", "note"])["treatment"] == "dosed"


def test_a_negation_leaves_out_what_follows_it_only() -> None:
    columns = ["d", "y", "age", "black", "no_degree", "id"]
    reading = understand_task(DML, "The effect of `d` on `y` (US$), adjusting for `age`, race (`black`), not having "
                              "a degree and marital status, not `id`.", {}, ["table.csv"],
                              columns={"table.csv": columns})
    assert {"age", "black"} <= set(reading.arguments["covariates"]) and "id" not in reading.arguments["covariates"]
    excluded = [r.value for r in reading.requirements if r.argument == "covariates" and r.relation == "excludes"]
    assert excluded == [["id"]]


def test_an_indicator_of_a_covariate_is_no_treatment() -> None:
    text = "Columns: `female` (1 if female), `enrolled` (1 if they enrolled) and the outcome `wage`."
    assert read(DML, text, ["female", "enrolled", "wage"]).get("treatment") == "enrolled"


def test_an_uplift_names_the_outcome() -> None:
    text = "Estimate the uplift in `basket_eur` caused by the voucher (`voucher`)."
    assert read(DML, text, ["voucher", "basket_eur"])["outcome"] == "basket_eur"


@pytest.mark.parametrize("text", [
    "Severity is only written in the clinical notes (`triage_text`).",
    "Adjust for what the free-text field `triage_text` says.",
])
def test_the_text_column_from_the_words_for_notes(text: str) -> None:
    assert read(DML, text, ["triage_text", "treated", "los_days"])["text_column"] == "triage_text"


def test_a_number_is_no_text_column(tmp_path: Path) -> None:
    csv = table('note,treated,los_days', [f'"cough, fever {i}",{i % 2},{3 + i % 5}' for i in range(30)])
    reading = read_data(tmp_path, DML, "Read the case notes and `los_days`; the effect of `treated` on it.", csv)
    assert reading.arguments.get("text_column") != "los_days"


# -- causal.value_of_prediction ----------------------------------------------------------------------------
VOP = "causal.value_of_prediction"


def test_capacity_worst_off_r2_and_costs() -> None:
    text = ("The clinic is able to screen 8% of patients and wants the most vulnerable 3%. The triage model has "
            "an R-squared of 0.4. Each additional unit of capacity costs 3 and an extra unit of R² costs 10.")
    arguments = read(VOP, text)
    assert arguments["alpha"] == pytest.approx(0.08) and arguments["beta"] == pytest.approx(0.03)
    assert arguments["r2"] == pytest.approx(0.4)
    assert (arguments["cost_capacity"], arguments["cost_prediction"]) == (3, 10)


@pytest.mark.parametrize(("text", "alpha", "beta"), [
    ("With a capacity of 12% it targets the 15% worst-off households.", 0.12, 0.15),
    ("A 25% screening capacity, and the bottom fifth are the worst off.", 0.25, 0.2),
])
def test_capacity_and_worst_off_other_wordings(text: str, alpha: float, beta: float) -> None:
    arguments = read(VOP, text)
    assert arguments["alpha"] == pytest.approx(alpha) and arguments["beta"] == pytest.approx(beta)


def test_the_share_most_likely_to_drop_out_is_no_worst_off_share() -> None:
    arguments = read(VOP, "Mentors can take on the 20% most likely to drop out.")
    assert arguments["alpha"] == pytest.approx(0.2) and "beta" not in arguments


@pytest.mark.parametrize(("text", "worse"), [
    ("Higher scores mean worse outcomes here.", True),
    ("More missed payments is worse.", True),
    ("Lower income is worse.", None),
    ("More income is better.", None),
])
def test_which_end_is_worse(text: str, worse: bool | None) -> None:
    assert read(VOP, text).get("higher_is_worse") is worse


def test_the_prediction_and_the_realised_outcome_columns() -> None:
    text = "Per household: the risk score (`p_hat`) and the realised `earnings` a year later."
    arguments = read(VOP, text, ["p_hat", "earnings"])
    assert (arguments["prediction"], arguments["outcome"]) == ("p_hat", "earnings")


# -- causal.brace_counterfactual ---------------------------------------------------------------------------
BRACE = "causal.brace_counterfactual"
APPLICANTS = ["age", "income", "savings", "debt", "approved"]


def test_label_target_class_instances_and_lambdas() -> None:
    text = ("A classifier predicting `approved` screens loans. Explain rows 4 and 17, towards getting approved, "
            "with lambda = 0.5, 2.")
    arguments = read(BRACE, text, APPLICANTS)
    assert arguments["label"] == "approved" and arguments["target_class"] == 1
    assert arguments["instances"] == [4, 17] and arguments["lambdas"] == [0.5, 2]


def test_other_ways_to_give_the_class_and_the_sweep() -> None:
    arguments = read(BRACE, "The desired class 0 is a rejection; sweep λ ∈ {0, 0.3, 3}.", APPLICANTS)
    assert arguments["target_class"] == 0 and arguments["lambdas"] == [0, 0.3, 3]
    assert "instances" not in read(BRACE, "Rows 100 to 200 are a hold-out.", APPLICANTS)


@pytest.mark.parametrize("text", ["`age` cannot be changed.", "Keep `age` fixed while searching."])
def test_an_immutable_feature_named(text: str) -> None:
    assert read(BRACE, text, APPLICANTS)["immutable"] == ["age"]


@pytest.mark.parametrize(("text", "argument"), [
    ("Seniority must not be modified.", "immutable"),  # a word, not a column
    ("Income drives savings, and both drive debt.", "parents"),
    ("Savings follow debt = 0.2 × income + noise.", "scm_weights"),
    ("Each feature has its own noise sd of 0.5.", "noise_std"),
    ("The bank approves when 1.5 × income − 0.7 × debt > 2.0 in its units.", "classifier_weights"),
])
def test_what_is_stated_in_a_form_the_reader_cannot_read_is_a_question(text: str, argument: str) -> None:
    reading = understand_task(BRACE, text, {}, ["table.csv"], columns={"table.csv": APPLICANTS})
    assert argument not in reading.arguments
    assert any(q.startswith(f"the text states {argument!r}") for q in reading.questions), reading.questions
    assert not reading.clear


def test_a_graph_that_is_not_stated_asks_nothing() -> None:
    reading = understand_task(BRACE, "The features are independent; explain rows 1 and 2.", {}, ["table.csv"],
                              columns={"table.csv": APPLICANTS})
    assert not any("parents" in q for q in reading.questions)


def test_features_listed_after_the_files_colon(tmp_path: Path) -> None:
    """``features`` is a list of features although its doc mentions ``classifier_weights`` (not a label)."""
    csv = table("experience_years,training_hours,skill_score,approved",
                [f"{i % 9},{i % 13},{40 + i},{i % 2}" for i in range(40)])
    reading = read_data(tmp_path, BRACE, "A logistic model of `approved` on three features in `table.csv`: years "
                        "of experience, training hours and skill score.", csv)
    assert reading.arguments["features"] == ["experience_years", "training_hours", "skill_score"]


# -- alignment.survey_benchmark ----------------------------------------------------------------------------
SURVEY = "alignment.survey_benchmark"
RESPONDENTS = ["age_group", "education", "region", "vote", "ideology"]


@pytest.mark.parametrize(("text", "replicates"), [
    ("Use 2,000 bootstrap replicates for the distances.", 2000),
    ("Bootstrap with 500 resamples.", 500),
])
def test_bootstrap_replicates(text: str, replicates: int) -> None:
    assert read(SURVEY, text, RESPONDENTS)["n_bootstrap"] == replicates


def test_a_bootstrap_without_a_count_sets_nothing() -> None:
    assert "n_bootstrap" not in read(SURVEY, "Bootstrap the distances; there are 2,000 respondents.", RESPONDENTS)


@pytest.mark.parametrize(("text", "level"), [  # a percentage on the scale of the default level (0.95)
    ("Report 90% design-based intervals.", 0.9),
    ("Give 99% CIs for every share.", 0.99),
    ("Test at the 90% level.", 0.9),
])
def test_the_interval_level(text: str, level: float) -> None:
    assert read(SURVEY, text, RESPONDENTS)["confidence"] == level


def test_an_unrelated_percentage_is_no_level() -> None:
    assert "confidence" not in read(SURVEY, "About 40% of the panel are graduates.", RESPONDENTS)


@pytest.mark.parametrize(("text", "weighting"), [
    ("Weight with inverse probability weights from a logistic model.", "ipw"),
    ("Use covariate-balancing propensity scores.", "cbps"),
])
def test_the_weighting_in_other_words(text: str, weighting: str) -> None:
    assert read(SURVEY, text, RESPONDENTS)["weighting"] == weighting


def test_the_subgroup_a_comparison_is_broken_down_by() -> None:
    assert read(SURVEY, "Compare the model with the public broken down by `education`.", RESPONDENTS)[
        "subgroup"] == "education"


# -- the reader's general mechanisms -----------------------------------------------------------------------
def test_a_quoted_comma_does_not_split_a_csv_field(tmp_path: Path) -> None:
    path = tmp_path / "notes.csv"
    path.write_text(table("note,dose,days", ['"fever, cough",1,4', "mild,0,2", '"tired, pale",1,5']))
    (profile,) = profile_inputs({"notes.csv": path})
    assert profile.column_names == ["note", "dose", "days"]
