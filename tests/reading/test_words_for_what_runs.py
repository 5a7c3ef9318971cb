"""Settings and columns as people word them, read or asked about, never dropped (issue 29, blind8 spent).

Sentences and data of our own.  The eighth blind prose set ran three tasks silently wrong and asked about most of
the rest; the mechanisms behind them, each tested here:

* a column list written in words: an acronym the column name holds ("body mass index" for ``bmi``), a column
  word that starts the prose word ("fertiliser" for ``fert_kg``) but not a mere shared start ("distance" is not
  ``district``); the items no rule maps are placed by meaning only when the reading leaves exactly that many
  columns; otherwise the list is a question even where the method has a default (it was dropped);
* "(the SAIDI column)" after the words for an outcome names the column;
* a Python file the prose names by its path is an input (a log density), not text;
* field words: the offset "sampled", a Gaussian prior on "the matter density", a cap on "the chain", trimming
  propensities "between 2% and 98%" (both ends are the one setting), a sample split "redrawn" N times, an
  "interactive (binary-treatment) model".
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import read_task
from cmbagent.agents._datamap import match_phrase
from cmbagent.inputs import profile_inputs
from tests.reading import _make

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")


def _reading(text: str, files: list[Path]) -> object:
    names = [f"data/{f.name}" for f in files]
    return read_task(text=text, data_files=names, profiles=profile_inputs(dict(zip(names, files, strict=True))))


def _table(path: Path, columns: dict[str, np.ndarray]) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(list(columns))
        for row in zip(*columns.values(), strict=True):
            writer.writerow([f"{v:.4g}" if isinstance(v, float) else v for v in row])
    return path


def _clinics(folder: Path, *, extra: bool = False) -> Path:
    """A clinic table: a 0/1 treatment (``coached``), an outcome (``hba1c_change``) and covariates whose names
    prose writes in words."""
    rng = np.random.default_rng(5)
    n = 300
    bmi = rng.normal(29, 4, n)
    age = rng.integers(30, 80, n)
    clinic_km = rng.gamma(2.0, 6.0, n)
    coached = (rng.random(n) < 1 / (1 + np.exp(-(bmi - 29) / 4))).astype(int)
    change = -0.4 * coached + 0.03 * (bmi - 29) + rng.normal(0, 0.5, n)
    columns: dict[str, np.ndarray] = {"patient": np.arange(1, n + 1), "district": rng.integers(1, 6, n),
                                      "bmi_kg_m2": bmi.round(1), "age_y": age, "clinic_km": clinic_km.round(2)}
    if extra:
        columns["sleep_h"] = rng.normal(7, 1, n).round(1)
    columns |= {"coached": coached, "hba1c_change": change.round(3)}
    return _table(folder / "clinic_coaching.csv", columns)


def test_a_column_name_is_matched_by_its_acronym_and_its_first_word_not_a_shared_start() -> None:
    assert match_phrase("body mass index", "bmi_kg_m2") >= 0.85
    assert match_phrase("gross domestic product per head", "gdp_usd") >= 0.85
    assert match_phrase("fertiliser applied", "fert_kg") >= 0.85
    # "distance" and "district" share four letters only; the column that holds the distance wins clearly
    assert match_phrase("distance to the clinic", "clinic_km") - match_phrase("distance to the clinic", "district") >= 0.1


def test_covariates_in_words_are_read(tmp_path: Path) -> None:
    table = _clinics(tmp_path)
    text = (f"Did the coaching programme lower HbA1c? The table is data/{table.name}; `coached` is 1 for coached "
            "patients and the outcome is hba1c_change. Adjust for body mass index, age and the distance to the "
            "clinic. Use the interactive (binary-treatment) model.")
    reading = _reading(text, [table])
    assert reading.method == "causal.dml_ate", reading.method
    arguments = reading.understanding.arguments
    assert arguments["covariates"] == ["bmi_kg_m2", "age_y", "clinic_km"], arguments
    assert arguments["model"] == "irm"


def test_a_covariate_no_column_fits_is_asked_about_not_dropped(tmp_path: Path) -> None:
    """The method has a default adjustment set; a list the text writes with an item that names no column must not
    fall back to it silently (two unread columns are left, so meaning cannot place the one item either)."""
    table = _clinics(tmp_path, extra=True)
    text = (f"Did the coaching programme lower HbA1c (hba1c_change in data/{table.name}, `coached` = 1 for coached "
            "patients)? Adjust for body mass index, age and how often they exercise.")
    reading = _reading(text, [table])
    assert reading.method == "causal.dml_ate"
    assert not reading.clear
    assert any("covariates" in q and "how often they exercise" in q for q in reading.understanding.questions), \
        reading.understanding.questions


def test_the_items_left_are_placed_by_meaning_when_the_reading_leaves_as_many_columns(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    n = 240
    table = _table(tmp_path / "feeder_faults.csv", {
        "feeder": np.arange(n), "line_km": rng.gamma(3, 4, n).round(1), "tree_cover_pct": rng.uniform(0, 80, n).round(1),
        "crews_k": rng.integers(1, 9, n), "recloser": rng.integers(0, 2, n), "outage_min": rng.gamma(4, 20, n).round(1)})
    text = (f"Using data/{table.name}, estimate the average causal effect of fitting a recloser (`recloser`) on outage_min, "
            "adjusting for the circuit length, how wooded the corridor is and the crews available (in thousands).")
    reading = _reading(text, [table])
    assert reading.method == "causal.dml_ate"
    assert reading.understanding.arguments["covariates"] == ["line_km", "tree_cover_pct", "crews_k"], \
        reading.understanding.arguments


def test_a_bracket_naming_the_column_settles_the_outcome(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    n = 200
    table = _table(tmp_path / "pumps.csv", {
        "pump": np.arange(n), "households_k": rng.integers(1, 20, n), "solar": rng.integers(0, 2, n),
        "lpd_min": rng.gamma(3, 10, n).round(1), "depth_m": rng.uniform(5, 60, n).round(1)})
    text = (f"In data/{table.name}, how much does a solar pump (`solar`) change the minutes of downtime per "
            "household each day (the LPD column), adjusting for depth_m?")
    reading = _reading(text, [table])
    assert reading.understanding.arguments.get("outcome") == "lpd_min", reading.understanding.arguments


def test_a_python_file_named_in_the_prose_is_an_input(tmp_path: Path) -> None:
    from cmbagent.task import parse_task

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ridge_logpost.py").write_text(
        "import torch\n\ndef log_prob(z):\n    return -0.5 * ((z[:, 1] - z[:, 0] ** 2) ** 2 / 0.1 + z[:, 0] ** 2)\n")
    text = ("# Curved posterior\n\nThe log posterior is the log_prob function in data/ridge_logpost.py. Fit a "
            "semi-implicit variational approximation to it with importance-sampled scores, in 2 dimensions, and "
            "draw 3,000 samples from it.\n")
    task = parse_task(text, base=tmp_path, where="t.md")
    assert task.data_files == ["data/ridge_logpost.py"], task.data_files
    profiles = profile_inputs(task.files)
    assert profiles[0].kind == "code"
    reading = read_task(text=task.text, data_files=task.data_files, profiles=profiles)
    assert reading.method == "bayes.aisivi"
    assert reading.understanding.arguments["log_density"] == "data/ridge_logpost.py"


def test_supernova_settings_in_plain_words(tmp_path: Path) -> None:
    data, _ = _make.hubble_bins(tmp_path)
    text = (f"Fit data/{data.name} with a flat ΛCDM model. Put a Gaussian prior on the matter density centred on "
            "0.29 with a width of 0.03, sample the absolute magnitude rather than marginalising it, and cap the "
            "chain at thirty thousand steps.")
    reading = _reading(text, [data])
    arguments = reading.understanding.arguments
    assert reading.method == "cosmology.fit_supernovae"
    assert arguments["priors"] == {"Omega_m": {"mean": 0.29, "std": 0.03}}, arguments
    assert arguments["free_h0"] is True and arguments["max_steps"] == 30000, arguments
    assert reading.clear, reading.unread


def test_trimming_and_redrawn_splits_in_plain_words(tmp_path: Path) -> None:
    table = _clinics(tmp_path)
    text = (f"From data/{table.name}: the average effect of `coached` on `hba1c_change`, adjusting for `age_y` and "
            "`bmi_kg_m2`. Trim the propensity scores so they stay between 2% and 98%, and the sample split should be "
            "redrawn four times.")
    reading = _reading(text, [table])
    arguments = reading.understanding.arguments
    assert arguments["clipping"] == pytest.approx(0.02) and arguments["n_rep"] == 4, arguments
    assert reading.clear, reading.unread  # 98% is the same setting's other end, not a number left over


def _chain(path: Path, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    samples = rng.normal([0.31, 0.81], [0.02, 0.03], size=(600, 2))
    lines = ["# weight minuslogL Omega_m sigma8"]
    lines += [f"1 {0.5 * float(np.sum(((s - [0.31, 0.81]) / [0.02, 0.03]) ** 2)):.4f} {s[0]:.5f} {s[1]:.5f}"
              for s in samples]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_files_numbered_like_the_chain_are_the_further_chains(tmp_path: Path) -> None:
    """Four chains of one run named one by one: the first is the chain, the rest ``more_chains`` in the text's
    order, and "four" counts them (it sets nothing); "don't try to undo it" makes its sentence's number context."""
    chains = [_chain(tmp_path / f"lens_run_{i}.txt", i) for i in (4, 1, 2, 3)]
    text = ("The lensing run produced four chains: data/lens_run_1.txt, data/lens_run_3.txt, data/lens_run_2.txt and "
            "data/lens_run_4.txt (weight and minus log-likelihood first). Drop the first quarter of each, then give "
            "the pooled means and the Gelman-Rubin statistic between them. A shift of 0.012 in sigma8 was applied "
            "for blinding; don't try to undo it.")
    reading = _reading(text, chains)
    arguments = reading.understanding.arguments
    assert reading.method == "cosmology.summarize_chain"
    assert arguments["chain"] == "data/lens_run_1.txt"
    assert arguments["more_chains"] == ["data/lens_run_3.txt", "data/lens_run_2.txt", "data/lens_run_4.txt"]
    assert reading.clear, (reading.unread, reading.understanding.questions)


def test_what_a_file_holds_and_a_numbered_section_set_nothing(tmp_path: Path) -> None:
    data, _ = _make.hubble_bins(tmp_path)
    text = (f"3.1 Flat model with a cosmological constant\n\nPlease fit the binned moduli, data/{data.name}, 31 bins, "
            "with 40 walkers. (Ana got Ωm = 0.29 last spring, with half of them.)")
    reading = _reading(text, [data])
    assert reading.method == "cosmology.fit_supernovae"
    assert reading.understanding.arguments["n_walkers"] == 40
    assert reading.clear, reading.unread  # 3.1, 31, 0.29 and "half" describe; 40 is the setting


def test_a_choice_in_a_files_description_is_not_a_request(tmp_path: Path) -> None:
    needles = tmp_path / "harbour_needles.csv"
    needles.write_text("needle,question,answer,literal_question,avoid\n"
                       "Mara lives next to the Tower Bridge.,Which character has been to London?,Mara,"
                       "Which character lives in London?,London\n")
    text = (f"My five needles are in data/{needles.name} (needle, question, answer, plus literal questions and the "
            "word to avoid). Build the latent-association haystack benchmark at 1,000 and 2,000 tokens, leaving out "
            "the literal control questions; BM25 only.")
    reading = _reading(text, [needles])
    assert reading.method == "lm.nolima"
    assert reading.understanding.arguments.get("literal_controls") is False, reading.understanding.questions


def test_field_words_for_rare_labels_and_behaviour_noise() -> None:
    anomaly = read_task(text="Weakly supervised anomaly comparison on the X/y archive, with only a fifth of the "
                             "spurious alarms in the training split revealed.")
    assert anomaly.method == "anomaly.wsad_dt" and anomaly.understanding.arguments["label_ratio"] == pytest.approx(0.2)
    world = read_task(text="Log 80 episodes of the pendulum with action noise a quarter of the action range, then "
                           "train the return-conditioned diffusion world model on windows of 10 steps.")
    assert world.method == "rl.diffusion_world_model"
    assert world.understanding.arguments["behaviour_noise"] == pytest.approx(0.25)


def test_the_most_isolated_rows_standing_in_as_labels_is_a_setting() -> None:
    from cmbagent.agents._numbers import stated_numbers

    assert [n.values[0] for n in stated_numbers("Keep the 12 most suspicious meters as labels.", (), ())] == [12.0]
    reading = read_task(text="Nobody labelled the attached pump readings. Run the weakly supervised detector with the "
                             "15 most isolated pumps standing in as the labelled anomalies, seed 3.")
    assert reading.method == "anomaly.wsad_dt"
    assert reading.understanding.arguments["n_labeled"] == 15, (reading.understanding.arguments, reading.unread)


def test_only_these_parameters_of_a_chain(tmp_path: Path) -> None:
    chain = _chain(tmp_path / "dune_chain.txt", 7)
    reading = _reading(f"Means and 95% intervals of data/{chain.name} for Ω_m and σ8 only, after dropping the first "
                       "tenth as burn-in.", [chain])
    assert reading.method == "cosmology.summarize_chain"
    # σ8 as the chain's header writes it (``sigma8``), which is how the method names it
    assert reading.understanding.arguments["parameters"] == ["Omega_m", "sigma8"], reading.understanding.arguments


def test_inputs_named_in_words_and_what_the_network_should_have(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    n = 70
    table = _table(tmp_path / "glaze_runs.csv", {
        "kiln_temp_c": rng.uniform(1100, 1250, n).round(0), "soak_min": rng.uniform(5, 30, n).round(1),
        "batch_kg": rng.uniform(10, 40, n).round(1), "craze_pct": rng.uniform(0, 9, n).round(2)})
    text = (f"From data/{table.name}, predict glaze crazing from kiln temperature and soak time with a network fitted "
            "beforehand to data sets drawn from a Gaussian-process prior; leave batch mass out. The network should "
            "have training contexts of at most 48 points.")
    reading = _reading(text, [table])
    arguments = reading.understanding.arguments
    assert reading.method == "bayes.pfn_regression"
    assert arguments["columns"] == ["kiln_temp_c", "soak_min"] and arguments["max_context"] == 48, arguments


def _survey(folder: Path, weights: tuple[str, ...]) -> tuple[Path, Path]:
    rng = np.random.default_rng(6)
    n = 150
    columns: dict[str, np.ndarray] = {"resp": np.arange(n), "age_band": rng.choice(["18-34", "35-54", "55+"], n)}
    columns |= {w: rng.uniform(0.5, 2.0, n).round(3) for w in weights}
    columns["q_ferry"] = rng.choice(["yes", "no"], n)
    survey = _table(folder / "quay_survey.csv", columns)
    margins = folder / "quay_margins.csv"
    margins.write_text("variable,level,share\nage_band,18-34,0.3\nage_band,35-54,0.35\nage_band,55+,0.35\n")
    return survey, margins


def test_design_weights_are_taken_from_the_one_weight_column_and_asked_about_among_two(tmp_path: Path) -> None:
    text = ("Our resident survey, data/quay_survey.csv, over-represents older people. Rake it to the town's census "
            "margins in data/quay_margins.csv, starting from the design weights, and give the weighted answer shares "
            "for the ferry question.")
    one = _reading(text, list(_survey(tmp_path, ("wt_base",))))
    assert one.method == "alignment.survey_benchmark"
    assert one.understanding.arguments.get("design_weight") == "wt_base", one.understanding.questions
    assert "wt_base" not in one.understanding.arguments.get("covariates", [])
    (tmp_path / "two").mkdir()
    two = _reading(text, list(_survey(tmp_path / "two", ("wt_ferry_list", "wt_quay_visitors"))))
    assert "design_weight" not in two.understanding.arguments
    assert any("design_weight" in q for q in two.understanding.questions), two.understanding.questions
    assert "wt_quay_visitors" not in two.understanding.arguments.get("covariates", [])


def test_learner_and_baselines_in_plain_words(tmp_path: Path) -> None:
    table = _clinics(tmp_path)
    causal = _reading(f"From data/{table.name}: the average effect of `coached` on `hba1c_change`, adjusting for "
                      "`age_y`, with small neural networks as the nuisance models.", [table])
    assert causal.understanding.arguments["learner"] == "mlp", causal.understanding.arguments
    anomaly = read_task(text="Weakly supervised anomaly detection on the attached X/y archive, with 10 labelled "
                             "faults. The only baselines I need are an isolation forest and DevNet (our laptops "
                             "cannot run XGBOD).")
    assert anomaly.method == "anomaly.wsad_dt"
    assert anomaly.understanding.arguments["baselines"] == ["iforest", "devnet"], anomaly.understanding.arguments


def test_a_survey_in_rounds_with_a_list_in_brackets(tmp_path: Path) -> None:
    rng = np.random.default_rng(9)
    n = 160
    survey = _table(tmp_path / "bridge_rounds.csv", {
        "resp": np.arange(n), "poll_round": rng.choice([2022, 2024], n), "base_wt": rng.uniform(0.5, 2, n).round(3),
        "age_band": rng.choice(["18-34", "35-54", "55+"], n), "q_tolls": rng.choice(["for", "against"], n),
        "q_cycle_lane": rng.choice(["for", "against"], n)})
    margins = tmp_path / "bridge_margins.csv"
    margins.write_text("variable,level,share\nage_band,18-34,0.3\nage_band,35-54,0.35\nage_band,55+,0.35\n")
    answers = tmp_path / "bridge_bot.csv"
    answers.write_text("question,answer\nq_tolls,for\nq_cycle_lane,against\n")
    text = ("Three files, in this order: the bridge survey (two polls, 2022 and 2024, with a round column), the "
            "census margins for age band, and a file of answers from our chatbot to the same two questions (tolls "
            "and the cycle lane), one row per answer. Rake each round to the margins from the base weights already "
            "in the survey, and say how far the chatbot sits from the weighted public.")
    files = [survey, margins, answers]
    reading = _reading(text, files)
    arguments = reading.understanding.arguments
    assert reading.method == "alignment.survey_benchmark"
    assert arguments.get("wave") == "poll_round" and arguments.get("design_weight") == "base_wt", arguments
    assert arguments.get("questions") in (None, ["q_tolls", "q_cycle_lane"]), arguments
    assert "q_tolls" not in arguments.get("covariates", []), arguments


def test_the_count_of_inputs_and_a_leakless_neuron_in_words() -> None:
    icl = read_task(text="Full posterior of a logistic regression of `hatched` on the two inputs, computed by the "
                         "transformer that learns inference in context rather than by MCMC.")
    assert icl.method == "bayes.icl_posterior" and icl.understanding.arguments["n_features"] == 2
    snn = read_task(text="Count the input regions of a spiking network with no membrane leak and a reset to zero: one "
                         "layer of 4 neurons, latencies 1 and 2, inputs in the box from −1.5 to 1.5.")
    assert snn.method == "theory.lif_snn_regions", snn.method
    assert snn.understanding.arguments["beta"] == 1.0 and snn.understanding.arguments["box"] == 1.5, \
        snn.understanding.arguments


def test_a_model_the_method_does_not_have_is_a_question() -> None:
    reading = read_task(text="With the Planck band powers that ship with the tool, fit ΛCDM with the curvature left "
                             "free; I want the Ω_k posterior.")
    assert reading.method == "cosmology.fit_cmb"
    assert not reading.clear
    assert any("Ω_k free" in q and "does not offer" in q for q in reading.understanding.questions), \
        reading.understanding.questions


def _terraces(folder: Path, *, continuous: bool = False) -> Path:
    """Coffee plots: terracing (0/1, or metres of stone wall when ``continuous``), yield and three covariates."""
    rng = np.random.default_rng(11)
    n = 400
    slope = rng.uniform(2, 35, n)
    acidity = rng.normal(5.6, 0.5, n)
    altitude = rng.uniform(900, 2100, n)
    if continuous:
        treated = np.clip(rng.normal(slope * 3, 20, n), 0, None)
    else:
        treated = (rng.random(n) < 1 / (1 + np.exp(-(slope - 18) / 6))).astype(int)
    yield_ = 0.8 + 0.0002 * altitude + 0.3 * (acidity - 5.6) - 0.01 * slope + 0.25 * treated + rng.normal(0, 0.3, n)
    columns: dict[str, np.ndarray] = {"plot": np.arange(1, n + 1), "slope_deg": slope.round(1),
                                      "soil_ph": acidity.round(2), "altitude_m": altitude.round(0)}
    columns["wall_m" if continuous else "terraced"] = treated.round(1) if continuous else treated
    columns["coffee_t_ha"] = yield_.round(3)
    return _table(folder / "coffee_plots.csv", columns)


def test_how_much_does_x_change_y_names_x_as_the_treatment(tmp_path: Path) -> None:
    """"How much does terracing change coffee yield": terracing is what was done, yield what it changed (the
    treatment was asked about, 55% sure, when only the 0/1 column's content pointed at it)."""
    table = _terraces(tmp_path)
    text = (f"`{table.name}` has one row per coffee plot. Farmers chose to terrace the steeper plots, so a raw "
            f"comparison is biased. How much does terracing change coffee yield per hectare on average? Adjust for "
            f"slope, soil acidity and altitude, use five folds, and give me an interval.")
    reading = _reading(text, [table])
    assert reading.method == "causal.dml_ate", reading.method
    arguments = reading.understanding.arguments
    assert arguments["treatment"] == "terraced" and arguments["outcome"] == "coffee_t_ha", arguments
    assert not reading.understanding.questions, reading.understanding.questions


def test_a_continuous_treatment_in_how_much_does_x_change_y_is_not_the_outcome(tmp_path: Path) -> None:
    """With a dose any numeric column can be the treatment; the words after the treatment ("raise coffee yield")
    are the outcome's, so they do not make the yield column a candidate treatment.  The indirect question ("how
    much the wall length raises") reads the same way."""
    table = _terraces(tmp_path, continuous=True)
    text = (f"The plots are in {table.name}. Tell me how much the wall length on a plot raises coffee yield per hectare. Wall "
            f"length is a continuous amount, not a yes/no, so fit the partially linear model, adjusting for slope, "
            f"soil acidity and altitude.")
    reading = _reading(text, [table])
    arguments = reading.understanding.arguments
    assert arguments.get("treatment") == "wall_m", (arguments, reading.understanding.questions)
    assert arguments.get("outcome") == "coffee_t_ha", arguments
    # the "not" of "not a yes/no" ends at ", so": the model is the one stated after it
    assert arguments.get("model") == "plr", arguments
