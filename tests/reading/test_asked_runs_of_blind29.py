"""Settings the twenty-ninth blind set showed the reader could not read, so that it asked (issue 29, session 22),
each with tables and sentences written for this test, none taken from that set.  Asking was honest there; these
are the ways people write those settings, read now.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.agents._numbers import stated_numbers
from tests.reading._make import asked, clear, moduli, programme, read_files, read_text, read_with


def _pump_cycles(folder: Path, *, labelled: bool) -> Path:
    rng = np.random.default_rng(2901)
    n = 700
    x = rng.normal(0, 1, (n, 4))
    stuck = (rng.random(n) < 0.06).astype(int)
    x[stuck == 1] += 2.5
    columns = [np.round(x, 3), stuck] if labelled else [np.round(x, 3)]
    path = folder / ("pump_cycles_flagged.csv" if labelled else "pump_cycles.csv")
    header = "flow,pressure,current,temp" + (",stuck" if labelled else "")
    np.savetxt(path, np.column_stack(columns), delimiter=",", header=header, comments="",
               fmt=["%.3f"] * 4 + (["%d"] if labelled else []))
    return path


def test_labels_carried_by_a_few_and_the_cpu_forced(tmp_path: Path) -> None:
    flagged = _pump_cycles(tmp_path, labelled=True)
    text = (f"{flagged.name} logs pump cycles; stuck is 1 on the cycles where the impeller stuck. How would a weakly "
            "supervised dual-tailed detector do if just eight of the training stuck cycles carry their label? DevNet "
            "only as the baseline, 50 epochs, seed 2.")
    arguments = clear(read_with(flagged, text), "anomaly.wsad_dt")
    assert arguments.get("n_labeled") == 8 and arguments.get("baselines") == ["devnet"], arguments
    plain = _pump_cycles(tmp_path, labelled=False)
    unlabelled = (f"our pumps log every cycle to {plain.name} and nobody has labelled any of it. score every cycle "
                  "for how odd it looks with the weakly supervised dual-tailed detector; with no labels let it start "
                  "from the 20 cycles an isolation forest rates as most anomalous. seed 4, and force CPU, the plant "
                  "PC has no graphics card")
    arguments = clear(read_with(plain, unlabelled), "anomaly.wsad_dt")
    assert arguments.get("device") == "cpu" and arguments.get("n_labeled") == 20, arguments


def test_how_a_list_steps_is_no_setting() -> None:
    text = ("Benign overfitting check on random-feature ReLU networks with a minimum-norm output layer: hidden widths "
            "of 50, 200 and 800 units (each four times the last), flip one training label in five, and 16 random "
            "directions per point for the distance to the boundary. Seed 2.")
    arguments = clear(read_text(text), "robustness.class_stability")
    assert arguments.get("widths") == [50, 200, 800] and arguments.get("noise") == 0.2, arguments
    assert [n.raw for n in stated_numbers("widths of 50, 200 and 800 (each 4 times the last)", nouns=["widths"])] \
        == ["50", "200", "800"]


def _peak_table(folder: Path) -> Path:
    return moduli(folder, "peak_sample.csv", seed=2902, n=90, z_max=1.3, sigma=0.1, header="z,mu,dmu")


def test_priors_after_their_kind_and_a_range_w_runs_over(tmp_path: Path) -> None:
    path = _peak_table(tmp_path)
    gaussian = (f"{path.name} is our Hubble diagram (`z`, `mu`, `dmu`). Fit the CPL dark energy, w0 plus wa times 1 − a, "
                "in a flat universe, and pin Ω_m with a normal prior, 0.30 ± 0.03, standing in for BAO. 40 walkers, "
                "seed 6.")
    arguments = clear(read_with(path, gaussian), "cosmology.fit_supernovae")
    assert arguments.get("priors") == {"Omega_m": {"mean": 0.30, "std": 0.03}}, arguments
    ranged = ("Hello — the attached CSV is our whole sample: 90 supernovae with redshift, distance modulus and its "
              "error. Please fit a flat cosmology with a constant w, and let w range uniformly from −2 to −0.3 "
              "instead of the default window. Seed 7.")
    arguments = clear(read_with(path, ranged), "cosmology.fit_supernovae")
    assert arguments.get("priors") == {"w0": [-2.0, -0.3]} and arguments.get("model") == "wcdm", arguments


def test_a_boltzmann_check_declined_and_a_chain_capped_in_points() -> None:
    text = ("Quick look before the telecon: the six-parameter ΛCDM fit to the Planck TT, TE and EE band powers. Skip "
            "the final comparison against a full Boltzmann calculation; cap the chain at 30,000 accepted points. "
            "Seed 4.")
    arguments = clear(read_text(text), "cosmology.fit_cmb")
    assert arguments.get("check_camb") is False and arguments.get("max_samples") == 30000, arguments


def test_factors_between_bounds_and_query_budgets_in_other_words() -> None:
    numbers = ("Number-token loss check: 600 multiplication problems with both factors between 0 and 20; cross-entropy "
               "alone against the number-token term added at weight 0.5, seed 0, 300 steps.")
    assert clear(read_text(numbers), "lm.number_token_loss").get("max_operand") == 20
    queries = ("Reward learning in the gridworld only (no gym tasks), grid 6 by 6: both kinds of query get 60 "
               "questions each, refit the linear reward model after every 6 answers, three independent problems, "
               "seed 2. Do distinguishability questions teach more than plain pairwise preferences?")
    arguments = clear(read_text(queries), "rl.distinguishability_queries")
    assert arguments.get("n_queries") == 60 and arguments.get("batch") == 6, arguments


def test_latencies_as_a_list_of_time_steps() -> None:
    text = ("Spiking network regions: a random LIF network on a scalar input from [−1, 1], three layers of four "
            "neurons, leak 0.8, threshold 1. For T = 1, 3 and 5 time steps, how many regions of constant spike "
            "output are there at each depth? Seed 2.")
    arguments = clear(read_text(text), "theory.lif_snn_regions")
    assert arguments.get("latencies") == [1, 3, 5], arguments


def test_world_model_windows_steps_and_no_policy_in_other_words() -> None:
    text = ("Collect 40 logged episodes on Pendulum-v1 from the scripted controller, then fit the diffusion world "
            "model — it conditions on the return to come, an inverse dynamics net recovers the actions — on "
            "three-step windows, with 12 denoising steps and 5,000 gradient steps, and check how realistic its "
            "transitions are. Skip the TD3+BC training entirely. Seed 3.")
    arguments = clear(read_text(text), "rl.diffusion_world_model")
    assert (arguments.get("horizon"), arguments.get("train_steps"), arguments.get("policy_steps")) == (3, 5000, 0), \
        arguments


def test_the_worst_share_to_find_and_capacity_steps(tmp_path: Path) -> None:
    rng = np.random.default_rng(2903)
    actual = rng.gamma(3.0, 1.5, 900)
    path = tmp_path / "farm_forecasts.csv"
    np.savetxt(path, np.column_stack([np.round(actual + rng.normal(0, 1, 900), 2), np.round(actual, 2)]),
               delimiter=",", header="forecast_t,actual_t", comments="", fmt="%.2f")
    text = (f"{path.name} has a yield forecast (`forecast_t`) and the realised yield (`actual_t`) for 900 farms; low "
            "yields are the bad ones. Advisers can reach a tenth of the farms, and we care about finding the lowest "
            "5 per cent of yields. What do more capacity and a better forecast each buy? Use capacity steps of 0.01.")
    arguments = clear(read_with(path, text), "causal.value_of_prediction")
    assert (arguments.get("alpha"), arguments.get("beta"), arguments.get("delta_alpha")) == (0.1, 0.05, 0.01), arguments


def test_one_value_for_two_dimensions_and_a_spread_equal_to() -> None:
    text = ("LoRA symmetry comparison on a generated population of square adapters, with output and input dimension "
            "both 10 and rank 2. Spread of log c equal to 0.5, seed 1.")
    arguments = clear(read_text(text), "lm.lora_symmetry")
    assert (arguments.get("d"), arguments.get("k"), arguments.get("orbit_scale")) == (10, 10, 0.5), arguments


def test_a_retrieved_memory_and_a_users_stream_whose_sizes_describe_it(tmp_path: Path) -> None:
    text = ("Fact editing in miniature on the generated templated stream: four timesteps of eight edits each, and "
            "compare only answering from a retrieved memory of edits with plain continual fine-tuning (no replay). "
            "Seed 5.")
    arguments = clear(read_text(text), "lm.knowledge_editing_stream")
    assert sorted(arguments.get("strategies", [])) == ["finetune", "retrieval"], arguments
    stream = tmp_path / "port_changes.jsonl"
    stream.write_text("".join(f'{{"timestep": {i // 5}, "prompt": "Ship {i} is registered in", "object": "Port {i}"}}\n'
                              for i in range(20)))
    own = (f"Ships change registry often, and {stream.name} is a stream of twenty such changes over four timesteps. "
           "Compare retrieval with fine-tuning that replays earlier edits, 60 fine-tuning steps per timestep, seed 2.")
    arguments = clear(read_with(stream, own), "lm.knowledge_editing_stream")
    assert "n_timesteps" not in arguments and "edits_per_step" not in arguments, arguments


def test_a_posterior_for_an_outcome_modelled_as_logistic(tmp_path: Path) -> None:
    rng = np.random.default_rng(2904)
    path = tmp_path / "saplings.csv"
    shade, deer = rng.uniform(0, 100, 40), rng.uniform(0, 1, 40)
    alive = rng.binomial(1, 1 / (1 + np.exp(-(0.02 * shade - 2 * deer))))
    np.savetxt(path, np.column_stack([np.arange(40), np.round(shade, 1), np.round(deer, 2), alive]), delimiter=",",
               header="plot,shade_pct,deer_index,survived", comments="", fmt=["%d", "%.1f", "%.2f", "%d"])
    text = (f"{path.name} has whether each sapling `survived` (1) or died (0), the shade above it (`shade_pct`) and a "
            "deer browsing index (`deer_index`); plot is an identifier. Can a network that learned Bayesian inference "
            "in context give a posterior for survival modelled as logistic in those two predictors? Prior standard "
            "deviation 2 on every coefficient, data sets of up to 40 observations, 800 steps, seed 3.")
    arguments = clear(read_with(path, text), "bayes.icl_posterior")
    assert arguments.get("target") == "survived" and arguments.get("family") == "logistic_regression", arguments
    assert arguments.get("columns") == ["shade_pct", "deer_index"] and arguments.get("n_features") == 2, arguments


def test_a_haystack_given_by_a_pronoun(tmp_path: Path) -> None:
    path = tmp_path / "lighthouse_log.txt"
    path.write_text("\n".join(f"Day {i}: lamp lit at dusk, wind moderate, nothing to report." for i in range(400)))
    text = (f"{path.name} is a lighthouse keeper's log we made up; use it as the haystack in place of the novel. No "
            "model yet, only the lexical retrieval baseline. Four of the built-in needles, contexts of 300 or 600 "
            "tokens, seed 1.")
    arguments = clear(read_with(path, text), "lm.nolima")
    assert arguments.get("haystack") == path.name, arguments


def test_a_curvature_with_its_sign_and_planck_as_the_source_of_the_rest() -> None:
    text = ("Does CAMB agree with CLASS in a slightly open universe? Ω_K = +0.01 with Σm_ν = 0.1 eV; the remaining "
            "parameters are the Planck 2018 baseline. All spectra to multipole 2000, and have CLASS recompute them.")
    arguments = clear(read_text(text), "cosmology.cmb_spectra")
    assert arguments.get("params") == {"omk": 0.01, "mnu": 0.1}, arguments
    tail = ("Theory spectra deep into the damping tail, up to ℓ = 3500, for H0 = 69 and n_s = 0.96; the other "
            "parameters stay where Planck 2018 put them. CAMB alone, no cross-code check.")
    assert clear(read_text(tail), "cosmology.cmb_spectra").get("lmax") == 3500


def test_the_one_method_that_can_run_and_a_list_in_a_columns_bracket(tmp_path: Path) -> None:
    path = programme(tmp_path)
    text = (f"Did the programme in {path.name} raise earnings? People chose whether to enrol, so a raw comparison "
            "mixes the programme up with who they are. Adjust for age, schooling, marital status and earnings in 2020 "
            "(columns `age`, `school`, `married`, `earn20`). I'd like the average effect on `earn22` from the doubly "
            "robust interactive model, random forests for both nuisance fits, the sample split done twice over so we "
            "can see it is not a lucky partition, and a cautious interval: report it at 99 per cent. Seed 5.")
    reading = read_with(path, text)
    arguments = clear(reading, "causal.dml_ate")
    assert arguments.get("covariates") == ["age", "school", "married", "earn20"], arguments
    assert (arguments.get("n_rep"), arguments.get("confidence"), arguments.get("model")) == (2, 0.99, "irm"), arguments


def _vote_panel(folder: Path) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(2905)
    rows = ["resp,area,sex,form,q_cycle_lanes,q_bus_fares"]
    for i in range(300):
        rows.append(",".join([f"P{i:03d}", str(rng.choice(["east", "west", "centre"])), str(rng.choice(["f", "m"])),
                              str(rng.choice(["a", "b"])), str(rng.choice(["yes", "no"])), str(rng.choice(["up", "down"]))]))
    panel = folder / "transport_panel.csv"
    panel.write_text("\n".join(rows) + "\n")
    reference = folder / "residents_reference.csv"
    reference.write_text("\n".join(["area,sex,res_wt", *(f"{rng.choice(['east', 'west', 'centre'])},"
                                                          f"{rng.choice(['f', 'm'])},{rng.uniform(0.5, 1.5):.3f}"
                                                          for _ in range(200))]) + "\n")
    replies = folder / "bot_replies.csv"
    replies.write_text("\n".join(["question,answer", *(f"q_cycle_lanes,{rng.choice(['yes', 'no'])}" for _ in range(40)),
                                  *(f"q_bus_fares,{rng.choice(['up', 'down'])}" for _ in range(40))]) + "\n")
    return panel, reference, replies


def test_cbps_by_its_name_a_reference_weight_column_and_a_level_in_words(tmp_path: Path) -> None:
    panel, reference, replies = _vote_panel(tmp_path)
    text = (f"{panel.name} is our online transport panel; it over-represents the east. We have a reference sample of "
            f"residents with its own weights ({reference.name}, weight column `res_wt`); balance area and sex with "
            "CBPS (covariate-balancing propensity weights), not raking. Half the panel saw a version of the cycling "
            f"item phrased as a cost — the `form` column says which. Each reply of our chatbot is one row of "
            f"{replies.name}; compare it with the weighted public on `q_cycle_lanes` and `q_bus_fares`. Eighty-percent "
            "intervals, 300 bootstrap replicates, seed 9.")
    arguments = clear(read_files(text, panel, reference, replies), "alignment.survey_benchmark")
    assert arguments.get("weighting") == "cbps" and arguments.get("covariates") == ["area", "sex"], arguments
    assert arguments.get("population_weight") == "res_wt" and arguments.get("confidence") == 0.8, arguments
    assert arguments.get("ballot") == "form", arguments
    assert not asked(read_files(text, panel, reference, replies))


def _hedgerows(folder: Path) -> Path:
    rng = np.random.default_rng(2906)
    n = 400
    slope, clay, farmed = rng.uniform(0, 20, n), rng.uniform(5, 40, n), rng.integers(1, 40, n)
    hedge = rng.binomial(1, 1 / (1 + np.exp(-(0.1 * slope - 1))))
    birds = np.round(3 * hedge + 0.1 * slope + rng.normal(10, 2, n), 1)
    path = folder / "field_margins.csv"
    np.savetxt(path, np.column_stack([np.arange(n), np.round(slope, 1), np.round(clay, 1), farmed, hedge, birds]),
               delimiter=",", header="field,slope_pct,clay_pct,years_farmed,hedgerow,bird_count", comments="",
               fmt=["%d", "%.1f", "%.1f", "%d", "%d", "%.1f"])
    return path


def test_a_close_method_that_cannot_run_leaves_the_one_that_can(tmp_path: Path) -> None:
    from cmbagent.agents._meaning import Candidate, MethodChoice
    from cmbagent.agents._reading import _only_runnable
    from cmbagent.agents._understand import understand
    from cmbagent.inputs import profile_inputs

    path = _hedgerows(tmp_path)
    profiles = profile_inputs({path.name: path})
    text = (f"Does planting a hedgerow bring more birds? {path.name} has `hedgerow` (1 where one was planted) and "
            "`bird_count`; farmers chose where to plant, so adjust for `slope_pct`, `clay_pct` and `years_farmed`. "
            "The average effect from the doubly robust interactive model, the sample split done twice over so it is "
            "not a lucky partition. Seed 2.")
    close = MethodChoice(status="ask", method=None, candidates=(
        Candidate("causal.dml_ate", 3.0, 0.8, 0.35, 6.0, 1.0), Candidate("causal.iv_cate_bounds", 2.5, 0.2, 0.38, 1.5, 1.0)))
    readings = {c.method: understand(c.method, text, {}, [path.name], profiles=profiles) for c in close.candidates}
    settled = _only_runnable(close, readings)
    assert settled is not None and settled.status == "chosen" and settled.method == "causal.dml_ate", settled
    assert any("causal.iv_cate_bounds" in note and "cannot run" in note for note in settled.notes), settled.notes
    # with an instrument in the text, the second method could run too: the choice stays a question (and the list
    # to adjust for ends where the next instruction begins)
    with_instruments = (f"Does planting a hedgerow bring more birds? {path.name} has `hedgerow` (1 where one was "
                        "planted) and `bird_count` (the outcome); farmers chose where to plant, so adjust for "
                        "`slope_pct` and `clay_pct`, and use `years_farmed` as the instrument. Seed 2.")
    readings = {c.method: understand(c.method, with_instruments, {}, [path.name], profiles=profiles)
                for c in close.candidates}
    assert readings["causal.dml_ate"].arguments.get("covariates") == ["slope_pct", "clay_pct"]
    assert _only_runnable(close, readings) is None


def test_torus_shifts_in_both_angles_and_the_degrees_they_state(tmp_path: Path) -> None:
    rng = np.random.default_rng(2907)
    for name, n in (("blade_train.csv", 300), ("blade_test.csv", 100)):
        a, b = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, 2 * np.pi, n)
        y = np.cos(4 * a) + np.cos(4 * b) + rng.normal(0, 0.1, n)
        np.savetxt(tmp_path / name, np.column_stack([a, b, y]), delimiter=",", header="pitch,roll,load", comments="",
                   fmt="%.4f")
    train, test = tmp_path / "blade_train.csv", tmp_path / "blade_test.csv"
    text = (f"The load should not change when either angle advances by a quarter turn. Inputs are `pitch` and `roll` "
            f"in radians, the response is `load`; training rows in {train.name}, our own test rows in {test.name}. On "
            "the torus, use the regression in the invariant eigenbasis with those two 90-degree shifts as the group, "
            "against tuned kernel ridge regression, at 50, 100 and 200 training points. Seed 1.")
    arguments = clear(read_files(text, train, test), "bayes.spec_avg")
    assert sorted(arguments.get("generators", [])) == ["shift:0:4", "shift:1:4"], arguments


def test_heads_by_ordinal_layers_and_settings_relative_to_the_usual() -> None:
    text = ("Synthetic check of head localisation: a tiny randomly initialised GPT-like model with four layers of two "
            "heads each. Plant the teacher's edit on head 1 of the second layer and head 0 of the last layer (indices "
            "zero-based), drawing the edit vectors with a spread (standard deviation) of 2.5, and train the gated "
            "per-head edits for 200 steps with the L0 penalty at half its usual weight. Seed 3.")
    arguments = clear(read_text(text), "lm.jola")
    assert arguments.get("planted_heads") == [[1, 1], [3, 0]], arguments
    assert (arguments.get("edit_scale"), arguments.get("l0_weight")) == (2.5, 0.5), arguments
