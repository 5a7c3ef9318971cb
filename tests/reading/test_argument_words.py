"""Arguments read in the words their documentation uses, counts in words, and booleans switched off in prose.

Sentences of our own (none from a prose set): the general mechanisms of ``agents/_understand.py`` that read a
setting without a pattern written for its method — the argument's documented name ("step size" for a learning
rate documented as the step size, "evaluations" for pipeline evaluations, "inputs" for the input dimension), a
count written in words ("two hundred queries"), a boolean turned off ("skip the literal controls") — and the
sentences that must not set them (a range's end, another noun, an unrelated count).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cmbagent.agents import understand_task
from cmbagent.agents._numbers import stated_numbers, unaccounted_numbers
from cmbagent.inputs import profile_inputs

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def _read(method: str, text: str) -> dict[str, Any]:
    return dict(understand_task(method, text, {}, []).arguments)


@pytest.mark.parametrize(("method", "text", "expected"), [
    # the documentation's name of two words before the number
    ("theory.tubal_tensor_gd", "Run plain gradient descent with a step size of 0.03.", {"learning_rate": 0.03}),
    # a setting after another one joined by "and" is its own, not the end of a list
    ("theory.tubal_tensor_gd", "Run it with step size 0.04 and 3000 iterations.",
     {"learning_rate": 0.04, "iterations": 3000}),
    # a list in the documentation's words, swept "over" its values
    ("theory.tubal_tensor_gd", "Vary the initialisation scale over 1e-3, 1e-1 and 0.5.", {"alphas": [0.001, 0.1, 0.5]}),
    # a count before the last word of the documented name
    ("robustness.x_hacking", "Give the random search eighty evaluations in all.", {"n_trials": 80}),
    ("causal.iv_cate_bounds", "Bin the lottery number into five cells first.", {"n_cells": 5}),
    # a dimension is counted in what it measures
    ("lm.lora_symmetry", "Adapters for a projection with 6 inputs and 10 outputs.", {"k": 6, "d": 10}),
    # a share documented as "Fraction of training anomalies labeled"
    ("anomaly.wsad_dt", "Reveal the label of only 8% of the training anomalies.", {"label_ratio": 0.08}),
    # a count in words before the argument's own name
    ("rl.distinguishability_queries", "Allow each query type two hundred queries.", {"n_queries": 200}),
    ("lm.lora_symmetry", "Draw three thousand adapters of rank 2.", {"n_adapters": 3000, "rank": 2}),
])
def test_a_setting_in_its_documented_words_is_read(method: str, text: str, expected: dict[str, Any]) -> None:
    read = _read(method, text)
    assert {k: read.get(k) for k in expected} == expected


@pytest.mark.parametrize(("method", "text", "absent"), [
    ("robustness.class_stability", "Fit it on 400 training points.", "max_points"),  # not the held-out points
    ("theory.lif_snn_regions", "Compare 4 or 8 neurons per layer.", "width"),  # a choice's end: no one value
    ("robustness.x_hacking", "The two evaluations we ran disagree.", "n_trials"),  # describes, does not ask
    ("theory.tubal_tensor_gd", "Try step size 0.01 and 0.02.", "learning_rate"),  # a list: no one value
    ("theory.tubal_tensor_gd", "Average over four random problems.", "seed"),  # a seed is a label, not a count
    ("anomaly.wsad_dt", "Hold out 30% of the rows for testing.", "label_ratio"),  # a share of something else
])
def test_words_that_do_not_name_the_setting_leave_it_alone(method: str, text: str, absent: str) -> None:
    assert absent not in _read(method, text)


def test_a_choice_the_text_skips_is_not_taken() -> None:
    read = _read("anomaly.wsad_dt", "Compare with Isolation Forest and DevNet (skip XGBOD, it is too slow).")
    assert read["baselines"] == ["iforest", "devnet"]


def test_a_list_item_ends_the_clause_that_lists_planted_heads() -> None:
    """A bulleted task: the clause of the planted heads stops at the next item, whose numbers are its own."""
    text = ("Check the head-editing method on a toy model:\n"
            "* plant edits on head 1 of layer 0 and head 2 of layer 1\n"
            "* 400 optimisation steps, learning rate 0.01\n")
    read = _read("lm.jola", text)
    assert read["planted_heads"] == [[0, 1], [1, 2]]
    assert read["steps"] == 400 and read["learning_rate"] == 0.01


def test_the_planted_heads_take_only_their_own_numbers_from_the_clause() -> None:
    text = "The teacher carries one planted edit, layer 0 head 3, edit vectors of standard deviation 2.5, seed 4."
    read = _read("lm.jola", text)
    assert read["planted_heads"] == [[0, 3]]
    assert read["edit_scale"] == 2.5


@pytest.mark.parametrize(("text", "value"), [
    ("Leave out the literal controls this time.", False),
    ("Skip the literal-question controls; lengths 1K and 2K.", False),
    ("Include the literal controls as well.", True),
])
def test_a_boolean_switched_in_its_own_words(text: str, value: bool) -> None:
    assert _read("lm.nolima", text)["literal_controls"] is value


def test_a_boolean_named_without_a_switch_is_left_alone() -> None:
    assert "literal_controls" not in _read("lm.nolima", "The literal controls are explained in the paper.")


def test_seeding_the_sampler_in_words_sets_the_seed() -> None:
    assert _read("cosmology.fit_cmb", "Seed the chains with 17.").get("seed") == 17


def test_odds_are_a_rate_that_must_be_accounted_for() -> None:
    """"one answer in ten" states a rate of 0.1 (not the number ten); a run that does not use 0.1 leaves it
    unaccounted for, which the reader turns into a question."""
    text = "The annotator gets one answer in twenty wrong, and we ask 50 queries."
    assert [(n.raw, n.values) for n in stated_numbers(text)] == [("one answer in twenty", (0.05,)), ("50", (50.0,))]
    assert [n.raw for n in unaccounted_numbers(text, used=[50.0])] == ["one answer in twenty"]
    assert unaccounted_numbers(text, used=[50.0, 0.05]) == []


def _clinic_table(folder: Path) -> list[str]:
    """A clinic table with camelCase columns and two 0/1 columns, one of them a covariate."""
    rng = np.random.default_rng(3)
    n = 120
    rows = ["visitId,patientAgeYears,bmiAtIntake,smoker,coachingCall,weightLossKg"]
    for i in range(n):
        rows.append(f"V{i:03d},{rng.integers(25, 70)},{rng.normal(29, 4):.1f},{rng.integers(0, 2)},"
                    f"{rng.integers(0, 2)},{rng.normal(3, 2):.2f}")
    (folder / "clinic.csv").write_text("\n".join(rows) + "\n")
    return ["clinic.csv"]


def test_the_adjustment_list_is_no_candidate_for_the_treatment(tmp_path: Path) -> None:
    """Two 0/1 columns, one of which the text adjusts for: the other is the treatment; the outcome named before
    the adjustment phrase is no covariate."""
    files = _clinic_table(tmp_path)
    text = ("Half the clinic's patients got a weekly coaching call (coachingCall = 1). How many kilograms of "
            "weight (weightLossKg) did the calls buy on average, after adjusting for age, BMI at intake and "
            "whether they smoke?")
    understood = understand_task("causal.dml_ate", text, {}, files, profiles=profile_inputs(
        {f: tmp_path / f for f in files}))
    args = understood.arguments
    assert args.get("treatment") == "coachingCall"
    assert args.get("outcome") == "weightLossKg"
    assert sorted(args.get("covariates") or []) == ["bmiAtIntake", "patientAgeYears", "smoker"]


def test_an_identifier_named_in_the_outcome_phrase_is_not_the_outcome(tmp_path: Path) -> None:
    """"kg per plant, `fruit_kg`": the identifier column `plant` cannot be an outcome, so the first column the
    phrase names that can is; the number of sample-splitting repeats is read in words; an acronym names the column
    it begins ("substrate EC" is ``ec_ms_cm``)."""
    rng = np.random.default_rng(5)
    rows = ["plant\tec_ms_cm\tshade\tnitrogen_g\tpeppers_kg"]
    rows += [f"P{i:03d}\t{rng.normal(2, 0.3):.2f}\t{rng.normal(0.4, 0.1):.2f}\t{rng.normal(9, 2):.1f}\t"
             f"{rng.normal(3, 1):.2f}" for i in range(80)]
    (tmp_path / "beds.tsv").write_text("\n".join(rows) + "\n")
    text = ("How much extra harvest (kg per plant, `peppers_kg`) does one more gram of nitrogen (`nitrogen_g`) "
            "give? Adjust for shade and substrate EC. Repeat the sample splitting four times.")
    understood = understand_task("causal.dml_ate", text, {}, ["beds.tsv"],
                                 profiles=profile_inputs({"beds.tsv": tmp_path / "beds.tsv"}))
    args = understood.arguments
    assert args.get("outcome") == "peppers_kg"
    assert args.get("n_rep") == 4
    assert sorted(args.get("covariates") or []) == ["ec_ms_cm", "shade"]


def test_an_attached_catalogue_is_the_data_and_its_size_describes_it(tmp_path: Path) -> None:
    """"Attached is a ... catalogue" points at the one input file; the count of what it holds sets nothing; "300
    held-out stars" are the held-out points evaluated; the only 0/1 column, named in the text, is the label."""
    rng = np.random.default_rng(8)
    rows = ["teff,logg,feh,giant"] + [f"{rng.normal(5000, 600):.0f},{rng.normal(3, 1):.2f},{rng.normal(0, 0.3):.2f},"
                                      f"{rng.integers(0, 2)}" for _ in range(150)]
    (tmp_path / "stars.csv").write_text("\n".join(rows) + "\n")
    text = ("Attached is a stellar catalogue: effective temperature, surface gravity and metallicity for 1500 stars, "
            "with giant = 1 for red giants. How far do the stars sit from a logistic classifier's boundary? "
            "Evaluate 300 held-out stars.")
    from cmbagent.agents import read_task

    reading = read_task(text=text, method="robustness.class_stability", data_files=["stars.csv"],
                        profiles=profile_inputs({"stars.csv": tmp_path / "stars.csv"}))
    assert reading.understanding is not None
    args = reading.understanding.arguments
    assert args.get("data") == "stars.csv"
    assert args.get("max_points") == 300
    assert args.get("label_column") == "giant"
    assert "1500" not in [n.raw for n in stated_numbers(text)]  # what the file holds, not a setting
    assert "300" in [n.raw for n in stated_numbers(text)]


def test_a_burn_in_given_as_part_of_the_chain_is_a_share() -> None:
    read = _read("cosmology.summarize_chain", "Treat the first 500 of its 2,000 samples as burn-in.")
    assert read["burn_in_fraction"] == 0.25


def test_thousands_separators_are_read_as_thousands() -> None:
    from cmbagent.agents._stated import _as_number

    assert (_as_number("3,000"), _as_number("1,200,000"), _as_number("0,5")) == (3000.0, 1_200_000.0, 0.5)
    assert [(n.raw, n.values) for n in stated_numbers("Drop the first 300 of the 1,500 draws.")] == [
        ("300 of the 1,500", (0.2, 300.0))]


def test_our_own_object_that_an_argument_already_holds_asks_nothing() -> None:
    """"our chain" is the chain that was read, not a further chain the method could compare it with."""
    from cmbagent.agents import read_task

    reading = read_task(text="Summarise our lensing chain `chain.txt`: means and 68% intervals.",
                        method="cosmology.summarize_chain", data_files=["chain.txt"])
    assert reading.understanding is not None and reading.understanding.arguments.get("chain") == "chain.txt"
    assert not any("more_chains" in q for q in reading.unread)


def test_a_lone_scale_word_is_a_unit_not_a_number() -> None:
    """"How many thousand of sales" names the unit of the answer; "four thousand adapters" is a number."""
    assert [n.raw for n in stated_numbers("How many thousand of quarterly sales did it buy? Use 5 folds.")] == ["5"]
    assert [n.values for n in stated_numbers("Draw four thousand adapters.")] == [(4000.0,)]


def _write(folder: Path, name: str, lines: list[str]) -> str:
    (folder / name).write_text("\n".join(lines) + "\n")
    return name


def test_json_lines_are_a_table_of_their_fields(tmp_path: Path) -> None:
    """A JSON Lines file is profiled as a table of its keys, so "the attached jsonl" is the data and the fields
    the text names are the prompt and answer columns; "in its MSE form" chooses the loss variant."""
    import json

    rng = np.random.default_rng(4)
    lines = [json.dumps({"question": f"{g} g in ounces, times 100 =", "ounces_x100": round(g / 28.35 * 100)})
             for g in rng.integers(10, 900, 60)]
    name = _write(tmp_path, "conversions.jsonl", lines)
    profile = profile_inputs({name: tmp_path / name})[0]
    assert profile.kind == "table" and profile.column_names == ["question", "ounces_x100"]
    assert profile.column("ounces_x100").integer
    text = ("the attached jsonl holds 60 unit-conversion questions (field `question`) with the answer in "
            "`ounces_x100`. train with the number-token loss in its MSE form (weight 0.3), seeds 1 to 3")
    args = understand_task("lm.number_token_loss", text, {}, [name], profiles=[profile]).arguments
    assert args.get("data") == name
    assert (args.get("prompt_column"), args.get("answer_column")) == ("question", "ounces_x100")
    assert args.get("kind") == "mse" and args.get("ntl_weight") == 0.3 and args.get("seeds") == [1, 2, 3]


def test_files_given_in_order_are_read_by_their_place(tmp_path: Path) -> None:
    """"The first file ... The second file holds ... the voucher lottery numbers": the table is the data and the
    array the instrument file; "year-one SAT" names ``sat_y1``; "on a 200 to 800 scale ... the outcome's range"
    is the outcome support's two ends; the identifier ``student`` is no instrument or covariate."""
    rng = np.random.default_rng(6)
    rows = ["student,parent_income_k,used_voucher,sat_y1"]
    rows += [f"{i + 1},{rng.normal(50, 15):.1f},{rng.integers(0, 2)},{rng.integers(300, 780)}" for i in range(90)]
    table = _write(tmp_path, "pupils.csv", rows)
    np.save(tmp_path / "draws.npy", rng.integers(0, 1000, size=(90, 5)))
    files = [table, "draws.npy"]
    text = ("Did using a private-school voucher raise the year-one SAT? The first file has one row per student: "
            "parent income, whether the voucher was used, and the score. The second file holds, for each student "
            "in the same order, the five voucher lottery numbers drawn. Bound the conditional effect given parent "
            "income with those draws as the instrument, in four cells. SAT is on a 200 to 800 scale; use that as "
            "the outcome's range.")
    args = understand_task("causal.iv_cate_bounds", text, {}, files,
                           profiles=profile_inputs({f: tmp_path / f for f in files})).arguments
    assert (args.get("data"), args.get("instrument_file")) == (table, "draws.npy")
    assert (args.get("outcome"), args.get("treatment")) == ("sat_y1", "used_voucher")
    assert args.get("outcome_support") == [200, 800]
    assert args.get("covariates") == ["parent_income_k"]
    assert "student" not in (args.get("instruments") or [])


def test_an_elliptic_second_file_is_the_test_file(tmp_path: Path) -> None:
    """"the first file holds the training readings, the second the test readings": the words about the first
    stop at the second, so the first is the data and the second the test table."""
    rng = np.random.default_rng(2)
    train = _write(tmp_path, "flow_a.csv", ["day,flow_m3s"] + [f"{d},{rng.normal(40, 5):.2f}" for d in range(80)])
    test = _write(tmp_path, "flow_b.csv", ["day,flow_m3s"] + [f"{d},{rng.normal(40, 5):.2f}" for d in range(80, 100)])
    text = ("River gauge: the first file holds the training readings (`day`, `flow_m3s`), the second the test "
            "readings. Predict the test flows with the prior-fitted network, length scale 0.1.")
    args = understand_task("bayes.pfn_regression", text, {}, [train, test],
                           profiles=profile_inputs({f: tmp_path / f for f in (train, test)})).arguments
    assert (args.get("data"), args.get("test")) == (train, test)


def _survey(folder: Path) -> list[str]:
    rng = np.random.default_rng(9)
    rows = ["resp,sex,region,design_w,happiness,trust_courts"]
    rows += [f"{i},{rng.choice(['f', 'm'])},{rng.choice(['east', 'west'])},{rng.uniform(0.5, 2):.3f},"
             f"{rng.choice(['very', 'fairly', 'not'])},{rng.choice(['yes', 'no'])}" for i in range(200)]
    survey = _write(folder, "wellbeing_poll.csv", rows)
    margins = _write(folder, "margins.csv", ["variable,level,share", "sex,f,0.51", "sex,m,0.49", "region,east,0.4",
                                             "region,west,0.6"])
    answers = _write(folder, "bot.csv", ["question,answer,share", "happiness,very,0.5", "happiness,fairly,0.4",
                                         "happiness,not,0.1"])
    return [survey, margins, answers]


def test_survey_files_are_read_by_what_their_arguments_document(tmp_path: Path) -> None:
    """A second and a third table go to the arguments their documentation describes: the census margins (the
    argument's words "census ... margins" around the file, and its columns variable, level, share) and the
    chatbot's answers (its columns question, answer, share); "rake ... on sex and region" lists the covariates;
    "90% intervals" is a level of 0.9; ", starting from ..." ends the list."""
    survey, margins, answers = _survey(tmp_path)
    text = (f"Rake our poll (`{survey}`) to the census margins in `{margins}` on sex and region, starting from the "
            f"design weights in `design_w`, and give the weighted share of happiness with 90% intervals. Then "
            f"compare the chatbot's "
            f"answers in `{answers}` with the weighted public.")
    files = [survey, margins, answers]
    args = understand_task("alignment.survey_benchmark", text, {}, files,
                           profiles=profile_inputs({f: tmp_path / f for f in files})).arguments
    assert (args.get("data"), args.get("population"), args.get("model_answers")) == (survey, margins, answers)
    assert args.get("covariates") == ["sex", "region"]
    assert args.get("design_weight") == "design_w"
    assert args.get("confidence") == 0.9
    assert "population_weight" not in args  # "weighted share": no weight column of the margins table is named


def test_a_reference_sample_given_second_and_its_weight_column(tmp_path: Path) -> None:
    """"Second file: a reference probability sample, its weights in refw": the file is the population and
    ``refw``, a column of that file only, its weight; "(question trust_courts)" names the answer column, which
    then is no ballot; "urban/rural" is one variable named by its levels."""
    rng = np.random.default_rng(10)
    panel = _write(tmp_path, "panel.csv", ["pid,urban,age_group,wording,trust_courts"] + [
        f"{i},{rng.integers(0, 2)},{rng.choice(['young', 'old'])},{rng.choice(['A', 'B'])},{rng.choice(['yes', 'no'])}"
        for i in range(150)])
    reference = _write(tmp_path, "ref.csv", ["rid,urban,age_group,refw"] + [
        f"{i},{rng.integers(0, 2)},{rng.choice(['young', 'old'])},{rng.uniform(0.5, 2):.3f}" for i in range(150)])
    text = ("First file: our online panel (question trust_courts), with a split ballot — the column wording says "
            "which version each panelist saw. Second file: a reference probability sample, its weights in refw.\n\n"
            "Weight the panel to the reference sample by inverse propensity weighting on age group and urban/rural, "
            "estimate the framing effect, with 400 bootstrap replicates.")
    files = [panel, reference]
    args = understand_task("alignment.survey_benchmark", text, {}, files,
                           profiles=profile_inputs({f: tmp_path / f for f in files})).arguments
    assert (args.get("data"), args.get("population")) == (panel, reference)
    assert args.get("population_weight") == "refw"
    assert args.get("questions") == ["trust_courts"] and args.get("ballot") == "wording"
    assert sorted(args.get("covariates") or []) == ["age_group", "urban"]
    assert args.get("weighting") == "ipw" and args.get("n_bootstrap") == 400


def test_cosmological_parameters_are_read_by_their_names_and_symbols() -> None:
    """A CMB computation's parameters as cosmologists write them, the multipole range, and a check with CLASS."""
    text = ("Give me the lensed spectra for a summed neutrino mass of 0.1 eV, with the Hubble constant fixed at "
            "H₀ = 70 and N_eff = 3.5; the tensor-to-scalar ratio is r = 0.02. Spectra up to ℓ = 2200, and "
            "recompute the same model with CLASS as a check.")
    args = _read("cosmology.cmb_spectra", text)
    assert args.get("params") == {"mnu": 0.1, "H0": 70, "nnu": 3.5, "r": 0.02}
    assert args.get("lmax") == 2200 and args.get("cross_check") == "class"


def test_a_measured_value_or_a_prior_is_no_parameter_setting() -> None:
    text = "Planck measured H0 = 67.4 ± 0.5; with a prior on τ of 0.054 ± 0.007, compute the spectra."
    assert "params" not in _read("cosmology.cmb_spectra", text)


def test_priors_written_as_a_range_or_on_a_documented_parameter() -> None:
    """"a flat prior on Ω_m restricted to 0.1–0.5" is a flat prior's bounds; "a Gaussian prior on the optical depth,
    τ = 0.06 ± 0.01" sets the argument documented as the Gaussian prior on the optical depth; "TT band powers only"
    and "drop the low-ℓ TT bins" choose the spectra and switch the low-ℓ points off."""
    assert _read("cosmology.fit_supernovae", "Fit with a flat prior on Ω_m restricted to 0.1–0.5.")["priors"] == {
        "Omega_m": [0.1, 0.5]}
    args = _read("cosmology.fit_cmb", "Fit ΛCDM to the TT band powers only and drop the low-ℓ TT bins. Put a "
                                      "Gaussian prior on the optical depth, τ = 0.06 ± 0.01.")
    assert args.get("tau_prior") == {"mean": 0.06, "std": 0.01}
    assert args.get("spectra") == "TT" and args.get("low_ell_tt") is False


def test_where_a_result_is_read_off_is_no_setting() -> None:
    """"write down D_ℓ^TT at ℓ = 800" says where to read the result; "up to ℓ = 800" is a setting."""
    assert "800" not in [n.raw for n in stated_numbers("As a check, write down D_ℓ^TT at ℓ = 800.")]
    assert "800" in [n.raw for n in stated_numbers("Compute the spectra up to ℓ = 800.")]


def test_spectra_for_stated_parameters_are_a_computation_not_a_fit() -> None:
    """Lensed spectra for given parameters, "everything else at the Planck 2018 baseline": the spectra method,
    though the text names Planck (a keyword of the CMB fit, here inside the spectra method's own phrase)."""
    from cmbagent.agents._meaning import choose_method

    text = ("could you make me lensed cmb power spectra for w0 = -0.8 and N_eff = 3.2, everything else at the "
            "planck 2018 baseline? recompute it with class too and tell me the H0 that comes out")
    choice = choose_method(text, files=[])
    assert choice.method == "cosmology.cmb_spectra", [(c.method, round(c.score, 2)) for c in choice.top(3)]
    assert _read("cosmology.cmb_spectra", text).get("params") == {"w": -0.8, "nnu": 3.2}


def test_parameters_named_by_their_symbols_are_spelled_as_the_chain_names_them() -> None:
    """"I only need Ω_b and S_8": the symbols are the normalised chain names; words that spell no parameter set
    nothing."""
    assert _read("cosmology.summarize_chain", "Summarise the chain; I only need Ω_b and S_8.")["parameters"] == [
        "Omega_b", "S_8"]
    assert "parameters" not in _read("cosmology.summarize_chain", "I only need means and widths of the chain.")


def test_the_whole_of_a_part_is_no_checklist_setting() -> None:
    """"the first 500 of its 2,000 samples": the checklist reads no setting of 2,000 (what the chain holds)."""
    from cmbagent.agents._stated import stated_requirements

    values = [r.value for r in stated_requirements("Treat the first 500 of its 2,000 samples as burn-in.", [])]
    assert 2000 not in values
