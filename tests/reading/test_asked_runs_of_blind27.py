"""Settings the twenty-seventh blind set showed the reader could not read, so that it asked (issue 29, session
21), each with tables and sentences written for this test, none taken from that set.  Asking was honest there;
these are the ways people write those settings, read now.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reading._make import asked, clear, moduli, read_text, read_with


def test_a_forecast_column_glossed_after_its_name_and_capacity_in_plain_words(tmp_path: Path) -> None:
    rng = np.random.default_rng(281)
    actual = rng.gamma(2.0, 3.0, 800)
    forecast = actual + rng.normal(0, 2.0, 800)
    path = tmp_path / "clinic_visits.csv"
    np.savetxt(path, np.column_stack([np.round(forecast, 2), np.round(actual, 2)]), delimiter=",",
               header="forecast_visits,visits_next_year", comments="", fmt="%.2f")
    text = (f"{path.name} gives every member `forecast_visits`, our model's prediction of their clinic visits next "
            "year, next to `visits_next_year`, what actually happened; a high number is the bad end. The nurse line "
            "has room for 10% of members, and we mean to reach the 3% with the most visits. Should the money go on a "
            "bigger nurse line or a better model? Price capacity at 4 per unit of population share and prediction "
            "at 6 per unit of R², and draw the reach curves at R² values 0.3, 0.5 and 0.7.")
    arguments = clear(read_with(path, text), "causal.value_of_prediction")
    assert (arguments["prediction"], arguments["outcome"]) == ("forecast_visits", "visits_next_year")
    assert (arguments["alpha"], arguments["beta"]) == (0.1, 0.03)
    assert (arguments["cost_capacity"], arguments["cost_prediction"]) == (4, 6)
    assert arguments["r2_grid"] == [0.3, 0.5, 0.7]


def _moduli(folder: Path) -> Path:
    return moduli(folder, "field_moduli.csv", seed=282, n=70, z_max=1.2, sigma=0.12, header="z,mu,sigma_mu")


def test_priors_said_as_ranges_and_a_constant_equation_of_state(tmp_path: Path) -> None:
    path = _moduli(tmp_path)
    said = (f"{path.name} has 70 distance moduli. I want the dark-energy equation of state, held constant in time, "
            "in a flat model: give w a flat prior between −1.8 and −0.4 and keep Ω_m inside a flat prior from 0.1 "
            "to 0.6. Thirty walkers, seed 2.")
    arguments = clear(read_with(path, said), "cosmology.fit_supernovae")
    assert arguments["model"] == "wcdm"
    assert arguments["priors"] == {"w0": [-1.8, -0.4], "Omega_m": [0.1, 0.6]}
    confined = f"Fit flat ΛCDM to {path.name} with Ω_m confined to the range 0.1 to 0.5, 24 walkers. Seed 3."
    assert clear(read_with(path, confined), "cosmology.fit_supernovae")["priors"] == {"Omega_m": [0.1, 0.5]}


def test_cmb_parameters_in_words_and_planck_as_the_source_of_the_rest() -> None:
    text = ("For a seminar: lensed CMB power spectra with the neutrino masses to sum to 0.06 eV, an optical depth to "
            "reionisation of 0.07 and the Hubble constant held at 70 km/s/Mpc; leave the other parameters at their "
            "Planck 2018 defaults. Up to ℓ = 2500.")
    arguments = clear(read_text(text), "cosmology.cmb_spectra")
    assert arguments["params"] == {"mnu": 0.06, "tau": 0.07, "H0": 70}
    assert arguments["lmax"] == 2500


def test_a_strategy_that_sits_out_and_edits_counted_per_timestep() -> None:
    text = ("On the generated stream of fact edits, compare plain fine-tuning and the same fine-tuning mixed with "
            "replayed older edits; retrieval sits out. Five timesteps, each with eight edits; three earlier edits "
            "replayed alongside each new one. Seed 6.")
    arguments = clear(read_text(text), "lm.knowledge_editing_stream")
    assert arguments["strategies"] == ["finetune", "replay"]
    assert (arguments["n_timesteps"], arguments["edits_per_step"], arguments["replay_ratio"]) == (5, 8, 3)


def test_distances_to_where_a_prediction_flips_on_an_attached_npz(tmp_path: Path) -> None:
    rng = np.random.default_rng(283)
    x = rng.normal(0, 1, (400, 4))
    y = (x[:, 0] + x[:, 1] > 0).astype(int)
    path = tmp_path / "pottery_xrf.npz"
    np.savez(path, X=x, y=y)
    text = ("Archaeometry: the attached .npz file has X (four XRF ratios per sherd) and y (1 for local clay). With a "
            "random forest the distances are only upper bounds from line searches, so how far do held-out sherds "
            "sit from where its prediction flips? Use 32 random directions per sherd, on no more than 60 sherds. "
            "Seed 4.")
    arguments = clear(read_with(path, text), "robustness.class_stability")
    assert (arguments["data"], arguments["model"]) == (path.name, "random_forest")
    assert (arguments["n_directions"], arguments["max_points"]) == (32, 60)


def test_training_steps_said_after_the_model_and_pairs_in_the_texts_notation() -> None:
    world = ("Offline RL on the pendulum: log 40 episodes, then train the return-conditioned diffusion world model on "
             "windows of 5 steps, with 20 denoising steps, for 6,000 gradient steps. No policies. Seed 1.")
    assert clear(read_text(world), "rl.diffusion_world_model")["train_steps"] == 6000
    gates = ("Tiny GPT-style model, two layers of four heads, width 32. The teacher's planted edits sit on two heads, "
             "written as layer.head: 0.3 and 1.0. Fit the gated edit vectors for 300 steps with Adam at 0.02, the "
             "L0 penalty weighted at 0.4. Seed 9.")
    arguments = clear(read_text(gates), "lm.jola")
    assert arguments["planted_heads"] == [[0, 3], [1, 0]]
    assert (arguments["learning_rate"], arguments["l0_weight"]) == (0.02, 0.4)


def test_an_unlabelled_table_needs_no_label_and_a_file_size_aside_sets_nothing(tmp_path: Path) -> None:
    rng = np.random.default_rng(284)
    path = tmp_path / "gauge_drift.csv"
    np.savetxt(path, np.round(rng.normal(0, 1, (500, 3)), 3), delimiter=",", header="drift,noise,offset",
               comments="", fmt="%.3f")
    text = (f"{path.name}, one row per rain gauge (500 rows). Nothing is labelled. Fit the weakly supervised "
            "dual-tailed detector, seeding it with the ten gauges an isolation forest finds most isolated as its "
            "pseudo-labelled anomalies, and list the fifteen most unusual gauges. Seed 7.")
    arguments = clear(read_with(path, text), "anomaly.wsad_dt")
    assert (arguments["n_labeled"], arguments["n_listed"]) == (10, 15)
    assert "xgbod_max_rows" not in arguments and "label" not in arguments


def test_a_split_ballot_as_versions_and_the_column_that_records_them(tmp_path: Path) -> None:
    rng = np.random.default_rng(285)
    rows = ["id,district,form,q_ferry"] + [f"P{i:03d},{rng.choice(['east', 'west'])},{rng.choice(['A', 'B'])},"
                                           f"{rng.choice(['yes', 'no'])}" for i in range(240)]
    (tmp_path / "ferry_poll.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "district_margins.csv").write_text("variable,level,share\ndistrict,east,0.4\ndistrict,west,0.6\n")
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    text = ("The ferry question went out in two versions; the `form` column records which one each respondent saw. "
            "ferry_poll.csv is the poll, district_margins.csv the margins: rake on district, report q_ferry, and "
            "compare version B against version A. 200 bootstrap replicates, seed 5.")
    files = {n: tmp_path / n for n in ("ferry_poll.csv", "district_margins.csv")}
    reading = read_task(text=text, title="", data_files=list(files), profiles=profile_inputs(files))
    assert clear(reading, "alignment.survey_benchmark")["ballot"] == "form"


def test_simulation_sizes_support_instruments_and_true_effects_in_plain_words(tmp_path: Path) -> None:
    birds = ("Two groups of frogs call early and late. Fit a two-component Gaussian mixture in one dimension by "
             "amortised in-context inference (transformer with a flow-matching head), letting training see data "
             "sets of up to 70 frogs, 1,500 training steps, seed 2.")
    assert clear(read_text(birds), "bayes.icl_posterior")["n_max"] == 70
    rng = np.random.default_rng(286)
    n = 500
    z = rng.normal(0, 1, (n, 3))
    d = (z[:, 0] + rng.normal(0, 1, n) > 0).astype(int)
    y = ((0.3 * d + rng.normal(0, 1, n)) > 0.2).astype(int)
    path = tmp_path / "walk_to_school.csv"
    np.savetxt(path, np.column_stack([z, d, y, 0.3 + 0.1 * z[:, 1]]), delimiter=",",
               header="dist_km,crossings,slope,walks,passed,true_effect", comments="",
               fmt=["%.3f"] * 3 + ["%d", "%d", "%.2f"])
    text = (f"{path.name}: does walking to school (`walks`) raise the chance of passing (`passed`)? We use dist_km, "
            "crossings and slope as instruments, with the instrument mapped to four cells; the outcome cannot leave "
            "[0, 1]. It is a simulation, so there is a column of true effects, true_effect. Seed 3.")
    reading = read_with(path, text)
    arguments = reading.understanding.arguments
    assert arguments.get("outcome_support") == [0, 1] and arguments.get("reference_cate") == "true_effect", arguments
    # the list before its cue keeps its first item, and the instruments are no adjustment set: with none named, the
    # covariates are a question, not the instruments again
    assert arguments.get("instruments") == ["dist_km", "crossings", "slope"], arguments
    assert "covariates" not in arguments and any("'covariates'" in q for q in asked(reading)), asked(reading)


def test_a_headerless_file_read_with_the_names_the_text_lists_and_their_glosses(tmp_path: Path) -> None:
    rng = np.random.default_rng(287)
    n = 300
    sand, rain, prev = rng.uniform(10, 60, n), rng.uniform(300, 900, n), rng.uniform(1, 4, n)
    lime = np.round(rng.uniform(0, 3, n) + 0.01 * sand, 2)
    now = np.round(0.8 * prev + 0.3 * lime + rng.normal(0, 0.3, n), 2)
    lines = [f"F{i:03d}\t{sand[i]:.1f}\t{rain[i]:.0f}\t{prev[i]:.2f}\t{lime[i]:.2f}\t{now[i]:.2f}" for i in range(n)]
    path = tmp_path / "liming_plots.tsv"
    path.write_text("\n".join(lines) + "\n")
    text = ("The logger file has no header row; its six columns are, in order: [field, sand_pct, rain_mm, "
            "prev_yield, lime_t_ha, yield_now] — that is the field code, sand content, season rain, last season's "
            "yield, the lime applied this season and this season's yield. Lime rates were the farmers' choice, so "
            "what is the gain in this season's yield per extra tonne of lime once sand, rain and last season's "
            "yield are accounted for? Partially linear double machine learning, four folds, seed 2.")
    arguments = clear(read_with(path, text), "causal.dml_ate")
    assert arguments["column_names"] == ["field", "sand_pct", "rain_mm", "prev_yield", "lime_t_ha", "yield_now"]
    assert (arguments["outcome"], arguments["treatment"]) == ("yield_now", "lime_t_ha")
    assert arguments["covariates"] == ["sand_pct", "rain_mm", "prev_yield"]


def test_words_that_decline_a_setting_are_no_setting() -> None:
    spectra = ("Lensed TT and EE spectra for a slightly closed universe (Omega_k = -0.02) up to ℓ = 2000, everything "
               "else at the Planck 2018 baseline. CAMB alone is fine; there is no need for a comparison with a second "
               "Boltzmann code.")
    assert "cross_check" not in clear(read_text(spectra), "cosmology.cmb_spectra")
    gates = ("Synthetic check of per-head gated activation editing. Tiny random model: three layers, two heads per "
             "layer, width 32. Plant the edit in head 1 of layer 2 (zero-indexed), 150 optimisation steps, seed 4.")
    arguments = clear(read_text(gates), "lm.jola")
    assert "model" not in arguments and arguments["planted_heads"] == [[2, 1]]


def test_the_forest_that_picks_pseudo_labels_is_no_baseline(tmp_path: Path) -> None:
    rng = np.random.default_rng(288)
    path = tmp_path / "pump_nights.csv"
    np.savetxt(path, np.round(rng.normal(0, 1, (400, 4)), 3), delimiter=",", header="flow,head,power,vib",
               comments="", fmt="%.3f")
    text = (f"No labels at all for the pumping stations; {path.name} is just the features, one row per night. Take "
            "the fifteen most anomalous nights according to an isolation forest as the pseudo-labelled faults, "
            "train the weakly supervised detector for 20 epochs, seed 1.")
    assert "baselines" not in clear(read_with(path, text), "anomaly.wsad_dt")


def test_the_scorer_counts_a_setting_the_text_never_made() -> None:
    from tests.reading._prose import ProseTask, judge

    task = ProseTask(name="t", path=Path("t.md"), data=(), via="path",
                     expect={"method": "anomaly.wsad_dt", "arguments": {"n_labeled": 10}, "may_set": {"epochs": 40}})
    assert judge(task, said="run", method="anomaly.wsad_dt", arguments={"n_labeled": 10}).arguments_right
    assert judge(task, said="run", method="anomaly.wsad_dt", arguments={"n_labeled": 10, "epochs": 40}).arguments_right
    # the method's own default, said again, is no change; a value nobody asked for is a silent wrong
    spare = judge(task, said="run", method="anomaly.wsad_dt", arguments={"n_labeled": 10, "baselines": ["iforest"]})
    assert spare.silent_wrong and spare.wrong_arguments == {"baselines": ["iforest"]}
