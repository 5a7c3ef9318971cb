"""Readings the twenty-first blind set showed missing when it was spent (issue 29, session 18), each with tables and
sentences written for this test, none taken from that set.

- **Three silent runs.** The number check dropped a clause as a reported result when "found" stood in it ("since
  the margin has to be found by line searches, use 30 directions and look at no more than 150 of the held-out
  rows"; "can one be found where …?"), so a cap and an AUC tolerance nobody read ran on their defaults. A filler
  text for the needle test went to the needles' argument, because "needle test" named the needles.
- **Numbers written as people write them.** "12 000 steps" with a space between the thousands; "for k in {1, 3}";
  "lower the learning rate to 0.002"; "give up after 15,000 accepted samples"; "the gridworld, 5 by 5,".
- **Labels, not settings**: "Field campaign, drive 3." and "ablation 2:" name a part of a series.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.agents._numbers import scaled_digits, stated_numbers
from tests.reading._make import hubble_bins, read_text, read_with


def _values(text: str) -> set[float]:
    return {v for n in stated_numbers(text) for v in n.values}


def test_a_clause_with_found_after_be_still_states_its_settings() -> None:
    text = ("Fit a gradient-boosted classifier, and since the margin then has to be found by bisection, use 30 random "
            "directions per row and look at no more than 150 of the held-out rows.")
    assert {30.0, 150.0} <= _values(text)
    question = ("Counting as acceptable any pipeline at most 0.02 AUC below the best one, can one be found where "
                "salinity carries more than a third of the attribution?")
    assert 0.02 in _values(question)
    # a result that was found is still no setting
    assert 0.41 not in _values("Last spring we found an effect of 0.41 on the same plots.")


def test_thousands_set_off_by_a_space_are_one_number() -> None:
    assert scaled_digits("let the walkers run to 12 000 steps") == "let the walkers run to 12000 steps"
    assert scaled_digits("stop at 60\u202f000 samples") == "stop at 60000 samples"
    # a list written with spaces stays a list, and so does a count followed by an unrelated number
    assert scaled_digits("widths 150 300 600") == "widths 150 300 600"
    assert scaled_digits("seeds 1 2 and 3") == "seeds 1 2 and 3"


def test_a_spaced_cap_on_the_supernova_chain_is_read(tmp_path: Path) -> None:
    bins, _ = hubble_bins(tmp_path)
    text = (f"{bins.name} holds binned distance moduli (z, mu, sigma) with independent errors. Fit flat LCDM to them; "
            "let the walkers run to 12 000 steps at most, 40 walkers, seed 5.")
    reading = read_with(bins, text)
    assert reading.method == "cosmology.fit_supernovae"
    assert reading.understanding is not None
    arguments = reading.understanding.arguments
    assert arguments.get("max_steps") == 12000 and arguments.get("n_walkers") == 40, arguments
    assert reading.clear, reading.understanding.questions


def test_h0_that_should_be_sampled_is_free(tmp_path: Path) -> None:
    bins, _ = hubble_bins(tmp_path)
    text = (f"Our distance moduli in {bins.name} are absolute, so H0 should be sampled as a parameter of its own. "
            "Flat LCDM, seed 2.")
    reading = read_with(bins, text)
    assert reading.understanding is not None
    assert reading.understanding.arguments.get("free_h0") is True, reading.understanding.arguments
    magnitudes = (f"{bins.name} has distance moduli (z, mu, sigma). Flat LCDM, please, and I'd rather see the absolute "
                  "magnitude as a sampled parameter than have it marginalised away. Seed 2.")
    assert read_with(bins, magnitudes).understanding.arguments.get("free_h0") is True


def _pixels(folder: Path) -> Path:
    rng = np.random.default_rng(31)
    n = 240
    frozen = rng.binomial(1, 0.5, n)
    features = rng.normal(0, 1, (n, 3)) + frozen[:, None] * 1.2
    path = folder / "lake_pixels.csv"
    np.savetxt(path, np.column_stack([np.round(features, 4), frozen]), delimiter=",",
               header="backscatter,coherence,slope,frozen", comments="", fmt=["%.4f"] * 3 + ["%d"])
    return path


def test_how_many_held_out_points_after_a_since_clause(tmp_path: Path) -> None:
    path = _pixels(tmp_path)
    text = (f"A referee wants to know how far our lake pixels in {path.name} sit from the decision boundary "
            "(column frozen: 1 lake ice, 0 open water). Fit a random forest, and since the margin then has to be "
            "found by line searches, use 30 random directions per pixel and evaluate no more than 150 of the "
            "held-out pixels. Seed 4.")
    reading = read_with(path, text)
    assert reading.method == "robustness.class_stability"
    assert reading.understanding is not None
    arguments = reading.understanding.arguments
    assert arguments.get("max_points") == 150 and arguments.get("n_directions") == 30, arguments


def _survey(folder: Path) -> Path:
    rng = np.random.default_rng(32)
    n = 300
    depth, salinity, wind = rng.normal(0, 1, (3, n))
    dieback = (rng.uniform(size=n) < 1 / (1 + np.exp(-(0.9 * depth - 0.4 * wind)))).astype(int)
    path = folder / "seagrass_plots.csv"
    np.savetxt(path, np.column_stack([dieback, np.round(depth, 3), np.round(salinity, 3), np.round(wind, 3)]),
               delimiter=",", header="dieback,depth,salinity,wind", comments="", fmt=["%d"] + ["%.3f"] * 3)
    return path


def test_a_promoted_share_in_words_with_a_tolerance_below_the_top_one(tmp_path: Path) -> None:
    path = _survey(tmp_path)
    text = (f"A consultancy says salinity drives seagrass dieback. Our plot data are in {path.name} (dieback 0/1, "
            "depth, salinity, wind). Counting as acceptable any pipeline no more than 0.02 AUC below the top one on "
            "validation, can one be found where salinity gets more than a third of the mean absolute SHAP "
            "attribution? Random search only, 30 pipeline evaluations, seed 1.")
    reading = read_with(path, text)
    assert reading.method == "robustness.x_hacking"
    assert reading.understanding is not None
    arguments = reading.understanding.arguments
    assert arguments.get("tolerance") == 0.02, arguments
    assert arguments.get("goal") == "promote" and arguments.get("label_column") == "dieback", arguments
    assert arguments.get("target_feature") == "salinity" and arguments.get("n_trials") == 30, arguments


def test_filler_text_for_the_needle_test_is_the_haystack(tmp_path: Path) -> None:
    path = tmp_path / "lighthouse_diary.txt"
    path.write_text(" ".join(f"Day {i}: the lamp was trimmed and the fog horn sounded twice." for i in range(400)))
    text = (f"We want the latent-association needle test run with our own filler text, the keeper's diary in "
            f"{path.name}, instead of the default novel. Six needles from the shipped set, context lengths 500 and "
            "1000 tokens, 7 insertion depths; the literal-question controls can be dropped this time. Seed 2.")
    reading = read_with(path, text)
    assert reading.method == "lm.nolima"
    assert reading.understanding is not None
    arguments = reading.understanding.arguments
    assert arguments.get("haystack") == path.name and "needles" not in arguments, arguments
    assert arguments.get("literal_controls") is False, arguments


def test_plain_settings_of_methods_without_data() -> None:
    stream = read_text("How fast does continual fine-tuning forget next to replaying old edits? Use the generated stream "
                       "of fact edits, 3 timesteps of 8 edits each; retrieval is out of scope, so compare just those two. "
                       "Replay one earlier edit per new one, lower the learning rate to 0.002, seed 7.")
    assert stream.method == "lm.knowledge_editing_stream"
    arguments = stream.understanding.arguments
    assert arguments.get("learning_rate") == 0.002, arguments
    assert sorted(arguments.get("strategies", [])) == ["finetune", "replay"], arguments

    grid = read_text("Compositional generalisation, quick sweep: the synthetic two-concept setup with four values per "
                     "concept, training combinations covering k of them per value for k in {1, 3}, 600 training samples, "
                     "two seeds (0 and 1), 10 epochs each.")
    assert grid.method == "lm.compositional_diversity"
    assert grid.understanding.arguments.get("ks") == [1, 3], grid.understanding.arguments

    cmb = read_text("How much does EE alone say about LCDM? Use the shipped Planck 2018 high-ell band powers, keep only "
                    "EE. Stop once R - 1 drops under 0.05, and give up after 15,000 accepted samples. Seed 6.")
    assert cmb.method == "cosmology.fit_cmb"
    assert cmb.understanding.arguments.get("max_samples") == 15000, cmb.understanding.arguments

    world = read_text("Offline RL lab: the return-conditioned diffusion world model on Pendulum-v1. Log 20 episodes, "
                      "windows of 4 steps, 10 denoising steps; then train each TD3+BC policy for 800 steps. Seed 1.")
    assert world.method == "rl.diffusion_world_model"
    assert world.understanding.arguments.get("policy_steps") == 800, world.understanding.arguments

    queries = read_text("Preference learning, ablation 2: only the tabular gridworld, 5 by 5, with a 10% chance that a "
                        "move slips. Give each query type a budget of 40, and pick queries uniformly at random. Seed 3.")
    assert queries.method == "rl.distinguishability_queries"
    arguments = queries.understanding.arguments
    assert arguments.get("grid_size") == 5 and arguments.get("n_queries") == 40, arguments


def test_a_label_of_a_series_is_no_setting() -> None:
    assert _values("Field campaign, drive 3. Use 40 epochs.") == {40.0}
    assert 2.0 not in _values("Preference learning, ablation 2: only the tabular gridworld.")
