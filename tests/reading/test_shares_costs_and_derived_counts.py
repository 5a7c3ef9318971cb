"""More readings the twenty-third blind set showed missing when it was spent (issue 29, session 19), with tables and
sentences written for this test, none taken from that set.

- **Shares in words**: "a tenth of the training anomalies keep their labels", "only a third of the remaining
  anomalous readings stay in the unlabelled training pool", "a fifth of the points should be set aside for
  testing".
- **Caps and sizes in other words**: "no more than 90 held-out tiles", "Maximum context during training: 48",
  "generate 800 multiplication problems", "make the grid 6 by 6", "refitted every 8", "three independent problems",
  "the weight of the L0 penalty (0.25)".
- **Costs with the verb left out**: "costs us about 4, one more unit of R² (a sharper model) about 6"; and
  "predicted_risk is the model's score and falls_score what happened" had the two columns the wrong way round,
  because the cue "predict…" inside the first name named the column after it.
- **Chains from runs a, b and c**, "take the file from run a as the main one": the other two are the extra chains.
- **Arithmetic on settings**: "four values each, so 16 combinations in all" states no setting of its own.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reading._make import read_text, read_with


def test_shares_of_the_anomalies_in_words(tmp_path: Path) -> None:
    rng = np.random.default_rng(51)
    n = 600
    fault = (rng.uniform(size=n) < 0.06).astype(int)
    x = rng.normal(0, 1, (n, 4)) + fault[:, None] * 2.0
    path = tmp_path / "pump_vibration.csv"
    np.savetxt(path, np.column_stack([np.round(x, 3), fault]), delimiter=",",
               header="rms,kurtosis,peak_hz,temp_c,fault", comments="", fmt=["%.3f"] * 4 + ["%d"])
    text = (f"{path.name} has one row per pump-hour with fault (1 if an engineer later confirmed a fault). Benchmark "
            "the weakly supervised anomaly detector on it: a tenth of the training anomalies keep their labels, and "
            "only a third of the remaining anomalous readings stay in the unlabelled training pool. 20 epochs, "
            "seed 3.")
    reading = read_with(path, text)
    assert reading.method == "anomaly.wsad_dt"
    arguments = reading.understanding.arguments
    assert arguments.get("label_ratio") == 0.1, arguments
    assert abs(arguments.get("unlabeled_anomalies", 0) - 1 / 3) < 1e-9, arguments


def test_caps_and_sizes_in_other_words(tmp_path: Path) -> None:
    rng = np.random.default_rng(52)
    n = 400
    x = rng.normal(0, 1, (n, 3))
    cracked = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(0, 0.5, n) > 0).astype(int)
    path = tmp_path / "glaze_tiles.csv"
    np.savetxt(path, np.column_stack([np.round(x, 3), cracked]), delimiter=",",
               header="kiln_temp,glaze_mm,humidity,cracked", comments="", fmt=["%.3f"] * 3 + ["%d"])
    text = (f"How far do our tiles in {path.name} sit from the classifier's decision boundary (cracked: 1 cracked, 0 "
            "sound)? Fit a random forest, 24 directions per tile and no more than 90 held-out tiles. Seed 2.")
    reading = read_with(path, text)
    assert reading.method == "robustness.class_stability"
    assert reading.understanding.arguments.get("max_points") == 90, reading.understanding.arguments

    addition = read_text("The number-token loss on arithmetic: generate 800 multiplication problems with operands up to "
                         "12, and compare cross-entropy alone with cross-entropy plus the number-token term. Seeds 0 to 2, "
                         "300 steps per model.")
    assert addition.method == "lm.number_token_loss"
    assert addition.understanding.arguments.get("n_examples") == 800, addition.understanding.arguments

    gates = read_text("Head localisation check: a random tiny transformer with 2 layers of 4 heads, planted heads (1, 2) "
                      "and (0, 3), layer first. Lower the weight of the L0 penalty (0.25), 150 steps, seed 1.")
    assert gates.method == "lm.jola"
    assert gates.understanding.arguments.get("l0_weight") == 0.25, gates.understanding.arguments

    queries = read_text("Compare distinguishability queries with pairwise preferences at an equal query budget on the "
                        "small gridworld with random state rewards (make the grid 6 by 6). Thirty queries per type, with "
                        "the reward model refitted every 8, three independent problems, seed 5.")
    assert queries.method == "rl.distinguishability_queries"
    arguments = queries.understanding.arguments
    assert (arguments.get("grid_size"), arguments.get("batch"), arguments.get("n_seeds")) == (6, 8, 3), arguments


def test_a_share_set_aside_for_testing_and_a_maximum_context(tmp_path: Path) -> None:
    rng = np.random.default_rng(53)
    n = 70
    x = rng.uniform(0, 1, n)
    path = tmp_path / "kiln_cooling.csv"
    np.savetxt(path, np.column_stack([np.round(x, 4), np.round(np.sin(5 * x) + rng.normal(0, 0.1, n), 4)]),
               delimiter=",", header="time_h,temp_drop", comments="", fmt="%.4f")
    text = (f"{path.name} has 70 readings (time_h, temp_drop). Predict temp_drop from time_h with a prior-fitted "
            "network trained on Gaussian-process draws. A fifth of the points should be set aside for testing. "
            "Maximum context during training: 48 points, 600 steps, seed 2.")
    reading = read_with(path, text)
    assert reading.method == "bayes.pfn_regression"
    arguments = reading.understanding.arguments
    assert arguments.get("test_fraction") == 0.2 and arguments.get("max_context") == 48, arguments


def test_costs_with_the_verb_left_out(tmp_path: Path) -> None:
    rng = np.random.default_rng(54)
    n = 500
    risk = rng.normal(0, 1, n)
    harm = np.round(risk + rng.normal(0, 0.8, n), 3)
    path = tmp_path / "falls_screen.csv"
    np.savetxt(path, np.column_stack([np.round(risk + rng.normal(0, 0.6, n), 3), harm]), delimiter=",",
               header="predicted_risk,falls_score", comments="", fmt="%.3f")
    text = (f"Our falls programme in {path.name}: predicted_risk is the model's score and falls_score what happened "
            "(higher is worse). We can visit the top 10% of residents. One more unit of visiting capacity costs us "
            "about 4, one more unit of R² (a sharper model) about 6. Should we expand visits or improve the model?")
    reading = read_with(path, text)
    assert reading.method == "causal.value_of_prediction"
    arguments = reading.understanding.arguments
    assert (arguments.get("cost_capacity"), arguments.get("cost_prediction")) == (4.0, 6.0), arguments
    # the cue inside "predicted_risk" names that column, not the one written after it
    assert (arguments.get("prediction"), arguments.get("outcome")) == ("predicted_risk", "falls_score"), arguments


def test_three_chains_from_runs_a_b_and_c_with_the_first_the_main_one(tmp_path: Path) -> None:
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    rng = np.random.default_rng(55)
    files = []
    for run in "abc":
        chain = np.column_stack([rng.normal(2.0, 0.1, 1500), rng.normal(0.4, 0.02, 1500)])
        path = tmp_path / f"anneal_chain_{run}.txt"
        np.savetxt(path, chain, header="strength slope", comments="# ", fmt="%.5f")
        files.append(path.name)
    text = ("Three independent annealing chains are attached (runs a, b and c), each with columns strength and "
            "slope. Summarise them together, means, standard deviations and intervals, with the Gelman-Rubin R - 1 "
            "between them; drop the first 10% of each as burn-in. Take the file from run a as the main one and add "
            "the other two.")
    reading = read_task(text=text, title="", data_files=files,
                        profiles=profile_inputs({f: tmp_path / f for f in files}))
    assert reading.method == "cosmology.summarize_chain"
    arguments = reading.understanding.arguments
    assert arguments.get("chain") == files[0] and arguments.get("more_chains") == files[1:], arguments
    assert reading.clear, reading.understanding.questions


def test_a_count_worked_out_from_two_settings_is_no_question() -> None:
    reading = read_text("Compositional coverage for the reading group: two concepts, each taking four values, so 16 "
                        "combinations in all. Training combinations cover k of them per value for k in {1, 2}, 500 "
                        "training samples, seeds 0 and 1, 8 epochs each.")
    assert reading.method == "lm.compositional_diversity"
    assert not any("16" in q for q in reading.unread), reading.unread


def test_a_product_of_factors_nothing_read_is_still_a_question() -> None:
    """"Nine levels apiece, so 81 combinations": when the nine is not read, the 81 is the only number left to ask
    about, and asking it is what keeps the run from going ahead with the default number of values."""
    reading = read_text("Compositional coverage: two concepts with nine levels apiece, so 81 combinations in all. Training "
                        "combinations cover k of them per value for k in {1, 4}, 900 training samples, seeds 0 and 1, "
                        "6 epochs each.")
    assert reading.method == "lm.compositional_diversity"
    assert reading.understanding.arguments.get("n") == 9 or any("81" in q for q in reading.unread), (
        reading.understanding.arguments, reading.unread)
