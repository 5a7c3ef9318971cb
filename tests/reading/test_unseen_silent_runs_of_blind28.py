"""The ten silent runs the twenty-eighth blind set showed when it was spent (issue 29, session 21), each with tables
and sentences written for this test, none taken from that set.

- "confirmed only a quarter of the <rare class> days": a share of the labels after the verb that reveals them.
- "skip the comparison against the other Boltzmann code": a cross-check declined further back than the negation
  window reached.
- "nothing should be thrown away at the start: keep every row": no burn-in for importance samples; "Discard a fifth
  of every chain at its start": a burn-in without the word "first".
- "continual fine-tuning that replays earlier edits (no plain fine-tuning arm)" and "give the fine-tuning 80 steps":
  the replay strategy by its verb, and a strategy's settings that ask for no strategy.
- "(the round column, 2023 and 2025)" and "For q_a (gloss) and q_b (gloss), treat each round on its own": the wave
  column named before the word "column", and answer columns with glosses in brackets.
- "Fit the diffusion world model (…) and its inverse-dynamics network … for 8,000 steps": the world model's steps.
- "asked 6 at a time", "every query is drawn at random": the query batch and the random selection.
- "a tubal-rank-3 tensor": the true rank written into the tensor's name.
- "at our best-fit cosmology from last week's run": values another run holds, asked for, not run on defaults.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from tests.reading._make import asked, clear, read_text, read_with


def test_a_share_of_labels_after_the_verb_that_reveals_them(tmp_path: Path) -> None:
    rng = np.random.default_rng(291)
    n = 800
    x = rng.normal(0, 1, (n, 4))
    mouldy = (rng.random(n) < 0.06).astype(int)
    x[mouldy == 1] += 2.0
    path = tmp_path / "grain_silo_days.csv"
    np.savetxt(path, np.column_stack([np.round(x, 3), mouldy]), delimiter=",",
               header="temp_c,humidity,co2_ppm,fan_hours,mouldy", comments="", fmt=["%.3f"] * 4 + ["%d"])
    text = (f"{path.name} has one row per silo per day; mouldy is 1 on days a silo turned out to be spoiling, and "
            "every day was checked. What would the weakly supervised dual-tailed detector have achieved if the "
            "inspectors had confirmed only a fifth of the mouldy days in training? DevNet as the only baseline, "
            "seed 6.")
    assert clear(read_with(path, text), "anomaly.wsad_dt")["label_ratio"] == 0.2


def test_a_declined_cross_check_and_burn_in_in_other_words(tmp_path: Path) -> None:
    spectra = ("For a figure: lensed TT and EE spectra for Ω_K = −0.01, the rest at the Planck 2018 baseline, up to "
               "ℓ = 1800. CAMB alone is enough; skip the comparison against the other Boltzmann code.")
    assert "cross_check" not in clear(read_text(spectra), "cosmology.cmb_spectra")
    rng = np.random.default_rng(292)
    path = tmp_path / "lens_importance.txt"
    np.savetxt(path, np.column_stack([rng.normal(0.3, 0.02, 2000), rng.normal(0.8, 0.03, 2000),
                                      rng.uniform(0.5, 1.5, 2000)]), header="omega_m sigma_8 weight", fmt="%.5f")
    weighted = (f"{path.name} holds importance samples, with the last column as their weight. These are not from a "
                "Markov chain, so nothing should be thrown away at the start: keep every row and give means and "
                "68% limits for both parameters.")
    assert clear(read_with(path, weighted), "cosmology.summarize_chain")["burn_in_fraction"] == 0.0
    chain = tmp_path / "kinetics_chain.txt"
    np.savetxt(chain, np.column_stack([rng.normal(2.0, 0.1, 3000), rng.normal(15.0, 1.0, 3000)]),
               header="k_el v_d", fmt="%.5f")
    fifth = f"{chain.name} is an MCMC chain. Discard a tenth of the chain at its start and summarise both parameters."
    assert clear(read_with(chain, fifth), "cosmology.summarize_chain")["burn_in_fraction"] == 0.1


def test_replay_by_its_verb_and_a_strategys_settings_ask_for_no_strategy() -> None:
    text = ("On the generated stream of fact edits, compare the retrieval approach with continual fine-tuning that "
            "replays earlier edits (no plain fine-tuning arm). Give the fine-tuning 70 steps per timestep. Seed 4.")
    arguments = clear(read_text(text), "lm.knowledge_editing_stream")
    assert arguments["strategies"] == ["retrieval", "replay"] and arguments["edit_steps"] == 70


def test_a_wave_column_named_before_the_word_and_glossed_answer_columns(tmp_path: Path) -> None:
    rng = np.random.default_rng(293)
    rows = ["person,cycle,base_wt,q_parks,q_lights"] + [
        f"P{i:03d},{rng.choice([2022, 2024])},{rng.uniform(0.5, 2):.3f},{rng.choice(['yes', 'no'])},"
        f"{rng.choice(['more', 'fewer', 'same'])}" for i in range(300)]
    path = tmp_path / "residents_rounds.csv"
    path.write_text("\n".join(rows) + "\n")
    text = (f"{path.name} holds our residents' survey, done in two rounds (the cycle column, 2022 and 2024), with "
            "design weights in base_wt and no census to weight to, so use the design weights alone. For q_parks "
            "(whether the parks are safe) and q_lights (street lighting), treat each round on its own and tell me "
            "whether opinion moved. 200 bootstrap replicates, seed 3.")
    arguments = clear(read_with(path, text), "alignment.survey_benchmark")
    assert arguments["wave"] == "cycle" and arguments["questions"] == ["q_parks", "q_lights"]


def test_world_model_steps_query_batches_random_selection_and_a_rank_in_a_name() -> None:
    world = ("Collect 30 Pendulum-v1 episodes. Fit the diffusion world model (conditioned on the return to come) and "
             "its inverse-dynamics network on windows of five steps for 6,000 steps, guidance 2. No policies. Seed 3.")
    assert clear(read_text(world), "rl.diffusion_world_model")["train_steps"] == 6000
    queries = ("Does asking which of two segments is easier to tell apart beat asking which is better, when every "
               "query is drawn at random? The gridworld only, 40 queries of each kind asked 4 at a time, two "
               "problems, seed 8.")
    arguments = clear(read_text(queries), "rl.distinguishability_queries")
    assert (arguments["batch"], arguments["selection"]) == (4, "random")
    tubal = ("Implicit bias check: a tubal-rank-2 tensor of size 6 × 6 × 3 seen through 120 Gaussian measurements, "
             "a factor with 20 tubal columns, initialisation scales 1e-4 and 1e-2, step size 0.05, 2,000 iterations, "
             "seed 1.")
    assert clear(read_text(tubal), "theory.tubal_tensor_gd")["true_rank"] == 2


def test_values_another_run_holds_are_asked_for() -> None:
    reading = read_text("Please make the lensed TT and EE spectra up to ℓ = 2500 at our best-fit cosmology from "
                        "yesterday's run, and cross-check them with CLASS.")
    assert reading.method == "cosmology.cmb_spectra"  # type: ignore[attr-defined]
    assert any("best-fit cosmology" in q for q in asked(reading)), asked(reading)


def test_a_mixed_number_in_words_is_stated_and_planck_for_all_the_rest() -> None:
    from cmbagent.agents._numbers import stated_numbers

    assert [n.values for n in stated_numbers("with three and three tenths effective species")] == [(3.3,)]
    text = ("Validation run: fix 100θ_MC = 1.0411, give the neutrinos a summed mass of 0.09 eV with two and a half "
            "effective species (N_eff), and take the Planck 2018 baseline for all the rest. TT and EE up to ℓ = 2000, "
            "then redo the same cosmology in CLASS.")
    reading = read_text(text)
    assert reading.method == "cosmology.cmb_spectra"  # type: ignore[attr-defined]
    params = reading.understanding.arguments.get("params") or {}  # type: ignore[attr-defined]
    assert params.get("mnu") == 0.09
    # the effective species in words are read or asked about, never dropped
    assert params.get("nnu") == 2.5 or any("2.5" in q or "two and a half" in q for q in asked(reading)), asked(reading)


def test_margins_of_a_kernel_svm_and_the_other_value_of_a_coding(tmp_path: Path) -> None:
    rng = np.random.default_rng(294)
    x = rng.normal(0, 1, (300, 5))
    source = (x[:, 0] - x[:, 2] > 0).astype(int)
    path = tmp_path / "obsidian_sources.csv"
    np.savetxt(path, np.column_stack([np.round(x, 3), source]), delimiter=",",
               header="fe,rb,sr,zr,ba,from_north", comments="", fmt=["%.3f"] * 5 + ["%d"])
    text = (f"{path.name} has five trace elements per flake; from_north is 1 for flakes of the northern flow and 0 for "
            "the other one. Fit a support vector machine with an RBF kernel and estimate how far each held-out "
            "flake lies from the boundary between the two sources, with line searches along 24 random directions "
            "and no more than 90 flakes. Seed 2.")
    arguments = clear(read_with(path, text), "robustness.class_stability")
    assert (arguments["model"], arguments["n_directions"], arguments["max_points"]) == ("rbf_svm", 24, 90)


def test_a_width_list_after_a_colon_and_a_whole_split_redone() -> None:
    widths = ("How does the distance to the decision boundary of a one-hidden-layer network change with width? Use "
              "hidden widths that double each time: 50, 100, 200 and 400, with 15% of the training labels flipped. "
              "Seed 5.")
    arguments = clear(read_text(widths), "robustness.class_stability")
    assert arguments["widths"] == [50, 100, 200, 400] and arguments["experiment"] == "width_sweep"
    from cmbagent.agents._understand import _GENERIC_CUES

    said = "Lasso nuisance learners, five folds, and redo the whole sample split four times."
    assert any(re.search(p, said, re.I) for p in _GENERIC_CUES["n_rep"])
