"""Words the reader left unread on the twentieth blind set, each in its general form with sentences and tables
written for this test (issue 29).

- **Another method's setting.** A task that says "TT only" asks for a setting of the CMB fit; a supernova fit
  chosen by meaning has no such setting, and running it would drop the words silently. The same holds for a choice
  named beside its own argument's words ("reset all the way down to zero") that the rules did not read.
- **Settings in plain words.** Examples: "export the generated items"; "layers with five units each"; "each
  between 0 and 30"; "how many measurements we take: …"; "B is 12 × 2 and A is 2 × 12"; "one common slope";
  "150 of them at most"; "the twelve hours isolation forest finds oddest".
- **Column roles.** "`incidents` per year (the outcome)" and "using … as controls".
- **Numbers that set nothing.** "Ticket #4471", a "Context:" line, "half the usual strength" beside the value it
  explains, and "d = 3" restating a dimension.
- **A setting decided by a named colleague.** "the parameters Priya suggested" is a question.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.agents import read_task
from cmbagent.agents._reading import foreign_settings, unread_choices
from cmbagent.agents._understand import understand
from cmbagent.inputs import profile_inputs
from cmbagent.tools.methods import get_method
from tests.reading._make import hubble_bins, read_with


def _read(text: str, files: dict[str, Path] | None = None):  # type: ignore[no-untyped-def]
    files = files or {}
    return read_task(text=text, title="", data_files=list(files), profiles=profile_inputs(files))


def _asked(reading) -> list[str]:  # type: ignore[no-untyped-def]
    u = reading.understanding
    return [*u.missing, *u.questions, *reading.unread] if u else list(reading.unread)


# -- another method's words -----------------------------------------------------------------------------------------
JOINT = ("Constrain a constant w from our binned moduli together with the Planck temperature spectrum (TT only, "
         "leave the polarisation out). Use the covariance file as well. Seed 5.")


def test_a_setting_of_another_method_is_asked_about(tmp_path: Path) -> None:
    spec = get_method("cosmology.fit_supernovae")
    understood = understand(spec.name, JOINT, {}, [])
    asked = foreign_settings(spec, understood, JOINT)
    assert any("cosmology.fit_cmb" in q and "`spectra: TT`" in q for q in asked), asked
    bins, cov = hubble_bins(tmp_path)
    reading = _read(JOINT.replace("our binned moduli", f"our binned moduli ({bins.name})").replace(
        "the covariance file", f"the covariance file {cov.name}"), {bins.name: bins, cov.name: cov})
    # the joint fit is the CMB method's; a supernova fit may be chosen by meaning, but never run without asking
    assert reading.method == "cosmology.fit_cmb" or not reading.clear, (reading.method, reading.unread)


def test_one_word_or_the_methods_own_vocabulary_is_no_other_method() -> None:
    text = ("Lensed TT, TE and EE spectra please, for a closed universe with Omega_k = -0.02 and everything else at "
            "the Planck 2018 values, up to ell = 2000.")
    reading = _read(text)
    assert reading.method == "cosmology.cmb_spectra"
    assert not any("which is how" in q for q in reading.unread), reading.unread
    spec = get_method("robustness.class_stability")
    mixture = "Train small nets on a two-component mixture and report the distance to the boundary. Seed 2."
    assert foreign_settings(spec, understand(spec.name, mixture, {}, []), mixture) == []


def test_a_choice_beside_its_arguments_words_is_not_left_at_the_default() -> None:
    text = ("How many regions of constant spikes does a random leaky integrate-and-fire network make in a "
            "two-dimensional input? Four layers of eight units, leak factor 0.9, and after every spike the membrane "
            "potential is reset all the way down to zero. Latencies 2 and 3. Seed 5.")
    spec = get_method("theory.lif_snn_regions")
    understood = understand(spec.name, text, {}, [])
    if "reset" not in understood.arguments:  # read, or asked about: never the default subtraction in silence
        assert any("`reset`" in q for q in unread_choices(spec, understood, text))
    else:
        assert understood.arguments["reset"] == "zero"
    reading = _read(text)
    assert reading.understanding.arguments.get("reset") == "zero" or not reading.clear


# -- settings in plain words ----------------------------------------------------------------------------------------
def test_exported_items_and_units_per_layer() -> None:
    nolima = _read("Build the latent-association benchmark with the shipped needles at four depths in haystacks of "
                   "1000 and 3000 tokens, and export the generated items so the partner lab can score them. Seed 9.")
    assert nolima.understanding.arguments.get("save_items") is True
    lif = _read("Regions of constant spike output of a random LIF network on a three-dimensional input: two layers "
                "with six LIF units each, no leak at all, reset to zero after a spike, latencies 2 and 5. Since d = 3 "
                "the cells are sampled, 30,000 points. Seed 4.")
    arguments = lif.understanding.arguments
    assert arguments["width"] == 6 and arguments["depth"] == 2 and arguments["reset"] == "zero", arguments
    assert arguments["input_dim"] == 3 and lif.clear, _asked(lif)


def test_a_range_of_operands_and_a_list_of_measurement_counts() -> None:
    ntl = _read("Sums of two integers, each between 0 and 40, three thousand generated examples; train a small "
                "transformer with and without the number-token loss (weight 0.5), 200 steps, seeds 1 and 2.")
    assert ntl.understanding.arguments.get("max_operand") == 40, ntl.understanding.arguments
    assert ntl.understanding.arguments.get("ntl_weight") == 0.5 and ntl.clear, _asked(ntl)
    tubal = _read("Tubal tensor recovery: a 5 × 5 × 3 tensor of tubal rank 1, factor with 10 tubal columns, 50 "
                  "Gaussian measurements. At the smallest initialisation scale also vary how many measurements we "
                  "take: 30, 50, 80. 2000 gradient steps with step size 0.05, seed 3.")
    assert tubal.understanding.arguments.get("measurement_sweep") == [30, 50, 80], tubal.understanding.arguments


def test_adapter_factors_by_their_shapes() -> None:
    reading = _read("LoRA symmetry study on generated adapters: B is 12 × 2 and A is 2 × 12 (so rank two), 1500 of "
                    "them, and compare invariant features with raw weights. Seed 3.")
    arguments = reading.understanding.arguments
    assert (arguments.get("d"), arguments.get("k"), arguments.get("rank"), arguments.get("n_adapters")) == \
        (12, 12, 2, 1500), arguments


def _stations(folder: Path) -> Path:
    rng = np.random.default_rng(31)
    n = 260
    traffic, kiosks = rng.uniform(1, 30, n), rng.integers(0, 12, n)
    solar = rng.binomial(1, 1 / (1 + np.exp(-(0.1 * (traffic - 15)))))
    outages = np.round(np.maximum(0, 6 - 1.5 * solar + 0.1 * traffic + rng.normal(0, 1, n)), 2)
    path = folder / "charging_sites.csv"
    rows = [f"S{i:03d},{solar[i]},{traffic[i]:.1f},{kiosks[i]},{outages[i]}" for i in range(n)]
    path.write_text("site,solar,traffic_k,kiosks,outage_h\n" + "\n".join(rows) + "\n")
    return path


def test_a_bracket_that_names_the_role_and_controls_listed_before_their_cue(tmp_path: Path) -> None:
    reading = read_with(_stations(tmp_path), (
        "Ticket #5512. Context: 260 charging sites, some fitted with solar canopies. Table charging_sites.csv: "
        "`solar` (1 fitted, 0 not), `outage_h` per month (the outcome), daily traffic in thousands (traffic_k) and "
        "number of kiosks (kiosks). Average effect of the canopies on outage hours, cross-fitted, using traffic "
        "and kiosks as controls. Seed 6."))
    arguments = reading.understanding.arguments
    assert arguments["outcome"] == "outage_h" and arguments["treatment"] == "solar", arguments
    assert sorted(arguments["covariates"]) == ["kiosks", "traffic_k"], arguments
    assert not any("5512" in q or "260" in q for q in _asked(reading)), _asked(reading)


def test_one_common_slope_is_the_partially_linear_model(tmp_path: Path) -> None:
    reading = read_with(_stations(tmp_path), (
        "How many outage hours (outage_h) does each thousand of daily traffic (traffic_k) add, adjusting for "
        "kiosks? One common slope, debiased machine learning, seed 2."))
    assert reading.understanding.arguments.get("model") == "plr", reading.understanding.arguments


def _rocks(folder: Path) -> Path:
    rng = np.random.default_rng(32)
    n = 300
    x = rng.normal(size=(n, 3))
    label = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(int)
    path = folder / "rock_chemistry.csv"
    rows = [f"{a:.3f},{b:.3f},{c:.3f},{y}" for (a, b, c), y in zip(x, label, strict=True)]
    path.write_text("si_pct,mg_pct,fe_pct,is_basalt\n" + "\n".join(rows) + "\n")
    return path


def test_a_cap_on_held_out_points_said_after_them(tmp_path: Path) -> None:
    reading = read_with(_rocks(tmp_path), (
        "How far are typical rocks in rock_chemistry.csv from the decision boundary of a linear SVM that separates "
        "is_basalt? Report the distance per predicted class on held-out rocks, 120 of them at most. Seed 8."))
    assert reading.method == "robustness.class_stability"
    assert reading.understanding.arguments.get("max_points") == 120, reading.understanding.arguments


def test_the_rows_isolation_forest_finds_oddest_are_the_stand_in_labels(tmp_path: Path) -> None:
    rng = np.random.default_rng(33)
    path = tmp_path / "pump_hours.csv"
    rows = [",".join(f"{v:.3f}" for v in row) for row in rng.normal(size=(400, 5))]
    path.write_text("vib,temp,flow,amps,pressure\n" + "\n".join(rows) + "\n")
    reading = read_with(path, (
        "No labels at all in pump_hours.csv. Run the weakly supervised dual-tailed detector over every hour and let "
        "the twelve hours isolation forest finds oddest stand in as the anomalies. Two ensemble members, 40 epochs, "
        "seed 3."))
    arguments = reading.understanding.arguments
    assert arguments.get("n_labeled") == 12 and "iforest" not in arguments.get("baselines", []), arguments


# -- numbers that set nothing, and a setting decided elsewhere -------------------------------------------------------
def test_half_the_usual_beside_the_value_it_explains() -> None:
    reading = _read("Check that the gated head editing finds planted heads on the built-in toy: two layers, three "
                    "heads each, model width 16, edits planted at (0, 1) and (1, 2). Draw the planted vectors with a "
                    "standard deviation of 1, half the usual strength. 200 steps, seed 4.")
    assert reading.understanding.arguments.get("edit_scale") == 1
    assert not any("half" in q for q in _asked(reading)), _asked(reading)


def test_a_setting_a_named_colleague_proposed_is_a_question() -> None:
    reading = _read("Lensed TT and EE spectra up to ℓ = 2500 for the cosmology Priya suggested at the group meeting, "
                    "cross-checked with CLASS.")
    assert reading.method == "cosmology.cmb_spectra"
    assert not reading.clear and any("Priya suggested" in q for q in _asked(reading)), _asked(reading)


# -- cosmology settings in plain words (the CMB fit, the theory spectra, chains and supernova priors) -------------
def test_a_cmb_fit_said_in_words_wrapped_over_lines() -> None:
    # hard-wrapped the way an editor leaves a note: "a constant\nequation of state" is still one phrase
    text = ("Lab exercise: how much do the E-mode band powers alone say? Fit the Planck lite likelihood, with a "
            "constant\nequation of state for dark energy, and do not add the two binned large-scale temperature "
            "points.\nStop once R − 1 is below 0.04 and cap the chain at twenty thousand accepted samples; write the "
            "outputs to ee_wcdm_demo. Seed 6.")
    reading = _read(text)
    arguments = reading.understanding.arguments
    assert reading.method == "cosmology.fit_cmb", reading.method
    assert (arguments.get("spectra"), arguments.get("model"), arguments.get("low_ell_tt")) == ("EE", "wcdm", False), \
        arguments
    assert (arguments.get("rminus1_stop"), arguments.get("max_samples")) == (0.04, 20000), arguments
    assert arguments.get("output_dir") == "ee_wcdm_demo" and reading.clear, _asked(reading)


def test_a_prose_colon_names_no_argument() -> None:
    reading = _read("Before trusting head editing on the real model: build the small random teacher with three "
                    "layers of two heads, plant an edit on head 1 of layer 2, run 300 steps at learning rate 0.02, "
                    "seed 3.")
    assert reading.method == "lm.jola"
    assert "model" not in reading.understanding.arguments, reading.understanding.arguments


def test_spectra_parameters_moved_to_a_value_and_a_multipole_in_words() -> None:
    reading = _read("For a seminar figure: lensed CMB power spectra with the Hubble constant lowered to 60 km/s/Mpc "
                    "and the summed neutrino mass raised to 0.2 eV, the rest at Planck 2018 values. Going to ℓ of "
                    "two thousand is enough.")
    arguments = reading.understanding.arguments
    assert reading.method == "cosmology.cmb_spectra"
    assert arguments.get("params") == {"H0": 60, "mnu": 0.2} and arguments.get("lmax") == 2000, arguments
    assert reading.clear, _asked(reading)


def test_supernova_priors_without_the_word_and_a_w_free_to_differ(tmp_path: Path) -> None:
    bins, cov = hubble_bins(tmp_path)
    files = {bins.name: bins, cov.name: cov}
    flat = _read(f"Fit {bins.name} with its covariance {cov.name}: plain flat ΛCDM, Ω_m uniform on 0.05–0.7, at most "
                 "6000 steps, and seed it with 4.", files)
    assert flat.understanding.arguments.get("priors") == {"Omega_m": [0.05, 0.7]}, flat.understanding.arguments
    assert flat.understanding.arguments.get("seed") == 4
    free = _read(f"Fit the moduli in {bins.name} (covariance {cov.name}) with a flat model whose constant w is "
                 "allowed to differ from −1, and put a Gaussian prior on the matter density, 0.3 with a standard "
                 "deviation of 0.01. Seed 2.", files)
    arguments = free.understanding.arguments
    assert arguments.get("model") == "wcdm", arguments
    assert arguments.get("priors") == {"Omega_m": {"mean": 0.3, "std": 0.01}}, arguments
    assert not any("−1" in q or "-1" in q for q in _asked(free)), _asked(free)


def _chain(path: Path, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    rows = [f"{1.0:.1f} {a:.5f} {b:.5f}" for a, b in rng.normal([0.45, 0.3], [0.03, 0.02], size=(600, 2))]
    path.write_text("# weight fsigma8 omegam\n" + "\n".join(rows) + "\n")
    return path


def test_two_runs_told_apart_by_a_letter_with_the_first_the_main_one(tmp_path: Path) -> None:
    files = {f"lensing_run{letter}.txt": _chain(tmp_path / f"lensing_run{letter}.txt", seed)
             for letter, seed in (("A", 1), ("B", 2))}
    reading = _read("We ran the same fit twice with different starting points. The two chain files are attached, the "
                    "first one being the run we treat as the main chain. Summarise them together with the R − 1 "
                    "between them; drop the first 25% of each as burn-in.", files)
    arguments = reading.understanding.arguments
    assert reading.method == "cosmology.summarize_chain"
    assert arguments.get("chain") == "lensing_runA.txt" and arguments.get("more_chains") == ["lensing_runB.txt"], \
        arguments
    assert reading.clear, _asked(reading)


# -- numbers that describe, and what a spurious number question used to hide ---------------------------------------
def test_numbers_of_history_contrast_series_and_conditions_set_nothing() -> None:
    reading = _read("Run 2 of 4 for the grant's aim 3. Sequential knowledge editing on the generated stream: three "
                    "timesteps of eight edits each, compare plain fine-tuning with replay, and for replay mix one old "
                    "edit into every three new ones. If retention drops under 50%, say so. Last month the run took "
                    "about 30 minutes. Seed 2.")
    arguments = reading.understanding.arguments
    assert reading.method == "lm.knowledge_editing_stream"
    assert abs(arguments.get("replay_ratio", 0) - 1 / 3) < 1e-9, arguments
    assert reading.clear, _asked(reading)


def test_a_level_set_aside_and_adapter_shapes_by_rows_and_columns() -> None:
    assert _read("LoRA symmetry pilot: two thousand generated adapters of rank 3, where B has 14 rows and A has 9 "
                 "columns. Seed 5.").understanding.arguments.get("d") == 14
    reading = _read("LoRA symmetry pilot: two thousand generated adapters of rank 3, where B has 14 rows and A has 9 "
                    "columns. Seed 5.")
    assert reading.understanding.arguments.get("k") == 9 and reading.clear, _asked(reading)


def _ponds(folder: Path) -> Path:
    rng = np.random.default_rng(34)
    n = 150
    area, shade = rng.uniform(20, 400, n), rng.uniform(0, 90, n)
    heard = rng.binomial(1, 1 / (1 + np.exp(-(0.004 * (area - 200) - 0.02 * (shade - 45)))))
    path = folder / "newt_ponds.csv"
    rows = [f"N{i:03d},{area[i]:.0f},{shade[i]:.0f},{heard[i]}" for i in range(n)]
    path.write_text("pond,area_m2,shade_pct,newts_seen\n" + "\n".join(rows) + "\n")
    return path


def test_the_input_columns_leave_out_a_column_that_names_the_rows(tmp_path: Path) -> None:
    reading = read_with(_ponds(tmp_path), (
        "For each pond in newt_ponds.csv we noted whether newts were seen (newts_seen, 1/0), with pond area and "
        "shading. Approximate the Bayesian logistic-regression posterior with semi-implicit VI (importance-sampled "
        "score) and compare it with MCMC. 500 steps, seed 1."))
    arguments = reading.understanding.arguments
    assert reading.method == "bayes.aisivi"
    assert arguments.get("target") == "bayes_logreg" and arguments.get("label") == "newts_seen", arguments
    assert arguments.get("columns") == ["area_m2", "shade_pct"], arguments


def _survey(folder: Path, weights: tuple[str, ...]) -> Path:
    rng = np.random.default_rng(35)
    n = 240
    band = rng.choice(["18-34", "35-64", "65+"], n)
    answer = rng.choice(["yes", "no", "unsure"], n)
    columns = {w: rng.uniform(0.5, 2.0, n) for w in weights}
    path = folder / "ferry_timetable_poll.csv"
    head = ",".join(["id", "age_band", *weights, "q_timetable"])
    rows = [",".join([str(i), band[i], *[f"{columns[w][i]:.3f}" for w in weights], answer[i]]) for i in range(n)]
    path.write_text(head + "\n" + "\n".join(rows) + "\n")
    return path


def test_the_surveys_own_weights_and_a_question_named_in_words(tmp_path: Path) -> None:
    text = ("Weighted results please for the timetable question in ferry_timetable_poll.csv, broken down by age "
            "band, using the survey weights.")
    one = read_with(_survey(tmp_path, ("w_design",)), text)
    assert one.understanding.arguments.get("questions") == ["q_timetable"], one.understanding.arguments
    assert one.understanding.arguments.get("design_weight") == "w_design", one.understanding.arguments
    two = read_with(_survey(tmp_path, ("w_base", "w_trimmed")), text)
    assert not two.clear and any("w_base" in q and "w_trimmed" in q for q in _asked(two)), _asked(two)


def _passes(folder: Path) -> Path:
    rng = np.random.default_rng(36)
    n = 300
    age, dist = rng.integers(20, 70, n), rng.uniform(0.5, 25, n)
    given = rng.binomial(1, 1 / (1 + np.exp(-(0.05 * (age - 45) - 0.08 * (dist - 10)))))
    visits = np.round(np.maximum(0, 12 + 3.5 * given - 0.2 * dist + rng.normal(0, 2, n)), 1)
    path = folder / "pool_pass.csv"
    rows = [f"M{i:04d},{given[i]},{age[i]},{dist[i]:.1f},{visits[i]}" for i in range(n)]
    path.write_text("member,pass_given,age_y,dist_km,swims_month\n" + "\n".join(rows) + "\n")
    return path


def test_a_cue_inside_a_columns_bracket_and_controls_cast_before_other_settings(tmp_path: Path) -> None:
    # a sceptic's run of session 16: the "got" of the bracket after `pass_given` named the next column, age_y, the
    # treatment, and the controls ran on into "three folds and a 90 per cent interval"
    reading = read_with(_passes(tmp_path), (
        "Table pool_pass.csv: `pass_given` (1 got a free pass, 0 not), `swims_month` a year later (the outcome), age "
        "in years (age_y) and distance from home in km (dist_km). How many extra swims a month did the pass buy on "
        "average? "
        "Cross-fit it using age and distance as controls, with random forests, three folds and a 90 per cent "
        "interval. Seed 4."))
    arguments = reading.understanding.arguments
    assert arguments["treatment"] == "pass_given" and arguments["outcome"] == "swims_month", arguments
    assert sorted(arguments["covariates"]) == ["age_y", "dist_km"], arguments
    assert reading.clear, _asked(reading)


def test_a_quick_look_at_a_question_with_its_settings_is_no_disclaimer(tmp_path: Path) -> None:
    bins, cov = hubble_bins(tmp_path)
    files = {bins.name: bins, cov.name: cov}
    fit = _read(f"For the group meeting I need a quick look at dark energy from the moduli in {bins.name} with the "
                f"covariance {cov.name}: flat, constant w, Ω_m uniform on 0.1–0.5, at most 4000 steps, seed 9.", files)
    assert fit.method == "cosmology.fit_supernovae", fit.choice.notes
    look = _read(f"Just a quick look at the table {bins.name} for now: how many rows, and a plot of mu against z.",
                 files)
    assert look.method is None and look.choice.status == "none", look.choice
