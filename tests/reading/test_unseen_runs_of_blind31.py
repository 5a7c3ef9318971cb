"""What the thirty-first blind set showed when it was spent (issue 29, session 24): five silent runs and about
twenty questions the text had answered, each with tables and sentences written for this test, none taken from
that set.

Silent runs:
- an outcome "bounded by 0 and 1" in a bracket after its name, and a tolerance "within a hundredth (0.01) of the
  strongest" pipeline: both read as the method's defaults;
- a flat fit asked for in the same breath as a dark-energy density measured apart from the matter density;
- "the same kind of classifier our production tool uses", which names none;
- a leak β = 0.9 for neurons that "never lose charge" (β = 1).

Questions the text answered: a population file the rounds are adjusted "towards" and its weights named before the
word, a count of labelled faults the detector "gets to see", a regression target named by the words a bracket
glosses, a sweep "up to all 300", a partially linear model's coefficient "on" its dose with its controls listed
before the word, curves "for R² of ...", chains told apart by a letter, seeds "numbered 4, 5 and 6", depths "between
0% and 100%" as documented, a weight that "goes down to" a value, a Hubble constant "fixed to" a value, spectra "to
ℓ = 2200", a decimal in words, a Planck fit's own words, a declined CAMB rerun, a Gaussian prior without the word
"prior", a joint fit led by the supernova fit, a horizon of "future steps", a slip "with probability", a bracket
of multiples, latencies "from 1 up to 4", a sweep after the argument's name and a colon, a numbered growth chamber,
"two inputs", a difference-in-differences design, a causal graph in words, lambdas "taking the values", an adverb
before "cannot be changed", two files described in order, and covariates beside the vectors of another file.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.agents._numbers import spelled_decimals
from tests.reading._make import asked, clear, moduli, read_files, read_text, write_csv


# -- silent runs ------------------------------------------------------------------------------------------------
def _coastal_clinic(folder: Path) -> Path:
    rng = np.random.default_rng(3101)
    n = 900
    salt_spray, onshore, fog_days = rng.normal(0, 1, (3, n))
    age = rng.integers(20, 80, n)
    smoker = rng.integers(0, 2, n)
    damp = rng.normal(0, 1, n)
    high_salt = (0.8 * salt_spray + 0.6 * onshore + 0.4 * fog_days + damp + rng.normal(0, 1, n) > 0).astype(int)
    flare = (0.3 * high_salt + 0.2 * damp + 0.01 * age + rng.normal(0, 1, n) > 0.8).astype(int)
    return write_csv(folder / "harbour_flares.csv", "salt_spray,onshore,fog_days,age,smoker,high_salt,flare",
                      np.column_stack([salt_spray, onshore, fog_days, age, smoker, high_salt, flare]),
                      ["%.3f"] * 3 + ["%d"] * 4)


def test_an_outcome_bounded_by_zero_and_one_in_a_bracket(tmp_path: Path) -> None:
    path = _coastal_clinic(tmp_path)
    text = (f"Damp housing confounds salt exposure and eczema flares, and we never recorded it, so I want bounds rather "
            f"than a point estimate. Treat salt_spray, onshore and fog_days as the instruments: they move exposure but "
            f"reach flares only through it. In {path.name} the exposure is high_salt (0/1) and the outcome flare (0/1, so "
            "bounded by 0 and 1); condition on age and smoker. Four cells, 120 training steps, seed 9.")
    arguments = clear(read_files(text, path), "causal.iv_cate_bounds")
    assert arguments.get("outcome_support") == [0, 1], arguments


def _vineyard(folder: Path) -> Path:
    rng = np.random.default_rng(3102)
    x = rng.normal(0, 1, (400, 5))
    mildew = (x[:, 0] + 0.5 * x[:, 1] + rng.normal(0, 1, 400) > 0.3).astype(int)
    return write_csv(folder / "vine_rows.csv", "dew_hours,canopy_density,slope_deg,spray_gap_d,clone_score,mildew",
                      np.column_stack([np.round(x, 3), mildew]), ["%.3f"] * 5 + ["%d"])


def test_a_tolerance_of_the_strongest_pipeline_in_words_and_figures(tmp_path: Path) -> None:
    path = _vineyard(tmp_path)
    text = (f"For a seminar on explanation hacking: in {path.name} (mildew is 1/0) look for a pipeline that scores within "
            "a fiftieth (0.02) of the strongest pipeline on validation AUC while dew_hours gets more than 40% of the "
            "|SHAP| mass. Random search, 30 evaluations, seed 4.")
    arguments = clear(read_files(text, path), "robustness.x_hacking")
    assert arguments.get("tolerance") == 0.02, arguments


def test_a_flat_fit_that_must_also_measure_the_dark_energy_density_apart_is_asked(tmp_path: Path) -> None:
    path = moduli(tmp_path, "deep_field_mu.csv", seed=3103, n=90, z_max=1.2, sigma=0.15, header="z,mu,sigma_mu")
    text = (f"{path.name} has 90 distance moduli. Fit flat ΛCDM to them, and give me Omega_Lambda independently of "
            "Omega_m so the case for acceleration does not lean on the geometry. Seed 2.")
    reading = read_files(text, path)
    assert reading.method == "cosmology.fit_supernovae", reading.choice
    assert not reading.clear and any("model" in q for q in asked(reading)), asked(reading)
    # with nothing about flatness, the same words choose the model with curvature
    free = (f"{path.name} has 90 distance moduli. Fit ΛCDM and give me Omega_Lambda independently of Omega_m. "
            "Seed 2.")
    assert clear(read_files(free, path), "cosmology.fit_supernovae").get("model") == "lcdm"


def _ward_vitals(folder: Path) -> Path:
    rng = np.random.default_rng(3104)
    x = rng.normal(0, 1, (500, 4))
    icu = (x[:, 0] - x[:, 2] + rng.normal(0, 1, 500) > 0.5).astype(int)
    return write_csv(folder / "ward_vitals.csv", "pulse,lactate,map_mmhg,gcs,icu_transfer",
                      np.column_stack([np.round(x, 3), icu]), ["%.3f"] * 4 + ["%d"])


def test_a_classifier_deferred_to_what_another_system_uses_is_asked(tmp_path: Path) -> None:
    path = _ward_vitals(tmp_path)
    text = (f"{path.name} holds four vital signs and whether the patient went to intensive care (icu_transfer). How far "
            "are held-out patients from the decision boundary? Fit whatever model our early-warning dashboard runs, so "
            "the numbers describe it. Seed 1.")
    reading = read_files(text, path)
    assert reading.method == "robustness.class_stability", reading.choice
    assert not reading.clear and any("`model`" in q for q in asked(reading)), asked(reading)
    named = text.replace("whatever model our early-warning dashboard runs", "a random forest, which is what our "
                         "early-warning dashboard runs")
    assert clear(read_files(named, path), "robustness.class_stability").get("model") == "random_forest"


def test_a_number_and_words_that_fix_another_value_are_asked() -> None:
    text = ("Spiking-network regions for a lecture: discrete-time LIF, a 2-D static input, one layer of six neurons, "
            "latencies 1 to 5. Set the leak to β = 0.85; these are meant to be perfect integrators, as in the proof. "
            "Seed 4.")
    reading = read_text(text)
    assert reading.method == "theory.lif_snn_regions", reading.choice
    assert any("'beta'" in q and "0.85" in q for q in asked(reading)), asked(reading)
    agreeing = text.replace("Set the leak to β = 0.85; these are meant to be perfect integrators", "Set β = 1: these "
                            "are meant to be perfect integrators")
    assert clear(read_text(agreeing), "theory.lif_snn_regions").get("beta") == 1.0


# -- files and their roles --------------------------------------------------------------------------------------
def _ferry_rounds(folder: Path) -> tuple[Path, Path, Path]:
    rng = np.random.default_rng(3105)
    lines = ["round,island,age_band,q_timetable,q_fares"]
    for r in ("2023", "2025"):
        for _ in range(300):
            lines.append(f"{r},{rng.choice(['north', 'south'])},{rng.choice(['young', 'old'])},"
                         f"{rng.choice(['good', 'poor'])},{rng.choice(['fair', 'high'])}")
    survey = folder / "ferry_rounds.csv"
    survey.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref = ["island,age_band,wt_ref"] + [f"{rng.choice(['north', 'south'])},{rng.choice(['young', 'old'])},"
                                        f"{rng.uniform(0.5, 2):.3f}" for _ in range(200)]
    reference = folder / "island_register_sample.csv"
    reference.write_text("\n".join(ref) + "\n", encoding="utf-8")
    answers = folder / "assistant_ferry_shares.csv"
    answers.write_text("question,answer,share\nq_timetable,good,0.6\nq_timetable,poor,0.4\nq_fares,fair,0.3\n"
                       "q_fares,high,0.7\n", encoding="utf-8")
    return survey, reference, answers


def test_a_population_the_rounds_are_adjusted_towards_and_its_weights(tmp_path: Path) -> None:
    survey, reference, answers = _ferry_rounds(tmp_path)
    text = (f"Two rounds of our ferry survey are in {survey.name} (the round is in `round`); items q_timetable and "
            f"q_fares. Older islanders answered far more often, so each round should be adjusted, separately, towards "
            f"the island register sample in {reference.name}, which carries its own weights: take its wt_ref column as "
            f"the population weights. Balance on island and age_band with covariate-balancing propensity scores, then "
            f"compare the latest round with the chatbot's answer shares in {answers.name}. Seed 6.")
    arguments = clear(read_files(text, survey, reference, answers), "alignment.survey_benchmark")
    assert arguments.get("population") == reference.name, arguments
    assert arguments.get("population_weight") == "wt_ref", arguments


def _pumps(folder: Path) -> Path:
    rng = np.random.default_rng(3106)
    x = rng.normal(0, 1, (1500, 5))
    fault = np.zeros(1500, dtype=int)
    fault[rng.choice(1500, 75, replace=False)] = 1
    x[fault == 1, 2] += 3
    return write_csv(folder / "pump_station_log.csv", "flow,head_m,bearing_temp,vibration,current_a,fault",
                      np.column_stack([np.round(x, 3), fault]), ["%.3f"] * 5 + ["%d"])


def test_labelled_faults_the_detector_gets_to_see(tmp_path: Path) -> None:
    path = _pumps(tmp_path)
    text = (f"{path.name}: pump readings with a `fault` column filled in by the technicians. How does the weakly "
            "supervised dual-tail detector do if it only gets to see 12 of the labelled faults in its training part, "
            "against isolation forest? 40 epochs, seed 3.")
    arguments = clear(read_files(text, path), "anomaly.wsad_dt")
    assert arguments.get("n_labeled") == 12, arguments


def _kiln_runs(folder: Path) -> Path:
    rng = np.random.default_rng(3107)
    n = 60
    temp, soak, clay = rng.uniform(900, 1200, n), rng.uniform(10, 90, n), rng.uniform(0, 1, n)
    strength = 0.05 * temp + 0.2 * soak - 8 * clay + rng.normal(0, 2, n)
    lines = ["firing,kiln_c,soak_min,clay_frac,mor_mpa"] + [
        f"F{i:02d},{temp[i]:.0f},{soak[i]:.0f},{clay[i]:.2f},{strength[i]:.1f}" for i in range(n)]
    path = folder / "kiln_firings.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_target_named_by_the_words_a_bracket_glosses(tmp_path: Path) -> None:
    path = _kiln_runs(tmp_path)
    text = (f"Sixty firings in {path.name}: kiln temperature (kiln_c), soak time (soak_min), clay fraction (clay_frac) "
            "and the bending strength measured after cooling (mor_mpa); the firing column is only an id. I'd like a "
            "prior-data fitted network for strength, trained on Gaussian-process data sets with length scale 0.25 "
            "and noise 0.1. Hold back a quarter of the firings. 2,000 training steps, seed 1.")
    arguments = clear(read_files(text, path), "bayes.pfn_regression")
    assert arguments.get("target") == "mor_mpa", arguments
    assert arguments.get("columns") == ["kiln_c", "soak_min", "clay_frac"], arguments


def _ring_scan(folder: Path, name: str, n: int, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    phi = rng.uniform(0, 2 * np.pi, n)
    energy = np.cos(4 * phi) + rng.normal(0, 0.05, n)
    lines = ["geom,phi,e_rel"] + [f"G{seed}_{i:03d},{phi[i]:.4f},{energy[i]:.4f}" for i in range(n)]
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_sweep_up_to_all_the_training_points_the_one_column_left_and_a_symmetry_in_words(tmp_path: Path) -> None:
    train = _ring_scan(tmp_path, "ring_scan_fit.csv", 240, 3108)
    test = _ring_scan(tmp_path, "ring_scan_holdout.csv", 60, 3109)
    text = (f"A ring rotor scanned in phi (radians, periodic), relative energy e_rel. Training geometries: {train.name}; "
            f"held-out ones: {test.name}. The geom column is a geometry label. The energy is unchanged when phi "
            "advances by a quarter turn, so build a regressor with that fourfold symmetry exactly and compare it "
            "with kernel ridge regression as a learning curve over 60, 120 and all 240 training geometries. Seed 2.")
    reading = read_files(text, train, test)
    assert reading.method == "bayes.spec_avg", reading.choice
    arguments = reading.understanding.arguments
    assert arguments.get("n_values") == [60, 120, 240], arguments
    assert arguments.get("target") == "e_rel" and arguments.get("columns") == ["phi"], arguments
    # the symmetry is said in words no generator's phrase spells ("unchanged when phi advances by a quarter turn"):
    # asked, not run on the default group
    assert [q for q in asked(reading) if "'generators'" in q] == asked(reading), asked(reading)
    assert asked(reading)


def _roofs(folder: Path) -> Path:
    rng = np.random.default_rng(3110)
    n = 400
    density, slope, wind = rng.normal(0, 1, (3, n))
    solar = np.clip(40 + 10 * slope - 8 * density + rng.normal(0, 5, n), 0, 100)
    kwh = 300 - 1.5 * solar + 20 * density + rng.normal(0, 10, n)
    lines = ["roof_id\tsolar_pct\tdensity\tslope\twind_ms\tkwh_month"] + [
        f"{i}\t{solar[i]:.1f}\t{density[i]:.3f}\t{slope[i]:.3f}\t{wind[i]:.3f}\t{kwh[i]:.1f}" for i in range(n)]
    path = folder / "roof_energy.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_coefficient_on_a_dose_with_controls_listed_before_the_word(tmp_path: Path) -> None:
    path = _roofs(tmp_path)
    text = (f"File {path.name} (tab separated): roof_id, solar_pct, density, slope, wind_ms, kwh_month. I need the "
            "saving per percentage point of panel cover, that is the coefficient on solar_pct in a partially linear "
            "model for kwh_month, with density, slope and wind_ms as controls. Random forests for the nuisance fits, "
            "the cross-fitting split repeated three times (median of the three), 90% interval. Seed 7.")
    arguments = clear(read_files(text, path), "causal.dml_ate")
    assert arguments.get("treatment") == "solar_pct" and arguments.get("outcome") == "kwh_month", arguments
    assert arguments.get("covariates") == ["density", "slope", "wind_ms"], arguments
    assert arguments.get("n_rep") == 3, arguments


def test_curves_for_r_squared_values_and_an_r_squared_of_roughly() -> None:
    text = ("Our school-meals scheme can reach 10% of pupils; the target is the hungriest twentieth. The screening "
            "model we use has an R² of about 0.3. How many of them do we reach, and should money go to reaching more "
            "pupils or to a better model? A unit of capacity costs 2, a unit of R² costs 1. Draw curves for R² of 0.3, "
            "0.6 and 0.9.")
    arguments = clear(read_text(text), "causal.value_of_prediction")
    assert arguments.get("r2") == 0.3 and arguments.get("r2_grid") == [0.3, 0.6, 0.9], arguments


def _chain(path: Path, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    rows = np.column_stack([np.ones(600), rng.normal(0.8, 0.03, 600), rng.normal(0.3, 0.02, 600)])
    np.savetxt(path, rows, header="weight sigma8 Omega_m", fmt="%.5f")
    return path


def test_chains_told_apart_by_a_letter_go_to_the_list_of_chains(tmp_path: Path) -> None:
    first = _chain(tmp_path / "lensing_run_x.txt", 3111)
    second = _chain(tmp_path / "lensing_run_y.txt", 3112)
    text = (f"Two chains of the same lensing analysis from different starting points:\n\n{first.name}\n{second.name}\n\n"
            "Columns: weight, sigma8, Omega_m. Discard the first fifth of each as burn-in, pool them, and tell me "
            "whether they converged.")
    arguments = clear(read_files(text, first, second), "cosmology.summarize_chain")
    assert arguments.get("chain") == first.name and arguments.get("more_chains") == [second.name], arguments


def test_seeds_given_by_their_numbers_after_their_count() -> None:
    text = ("Compositional generalisation by coverage: two factors with four values each (a 4 × 4 grid of "
            "combinations), coverage levels k = 1, 2 and 3, the training set held at 800 samples for every k. Two seeds, "
            "numbered 11 and 12.")
    arguments = clear(read_text(text), "lm.compositional_diversity")
    assert arguments.get("seeds") == [11, 12], arguments


def test_depths_between_nought_and_a_hundred_percent_are_the_documented_spread() -> None:
    text = ("Association-only needle-in-a-haystack, BM25 baseline only, for now. Four of the built-in needles, haystacks "
            "of 500 and 2000 tokens, and five depths spread evenly between 0% and 100%. Seed 8.")
    arguments = clear(read_text(text), "lm.nolima")
    assert arguments.get("n_depths") == 5, arguments


def test_a_penalty_weight_that_goes_down_to_a_value() -> None:
    text = ("Gated head editing on the synthetic task: a two-layer model with four heads, the planted heads at "
            "(1, 2) and (0, 3). The L0 penalty weight goes down to 0.25 (a quarter of its usual value) so that the gates "
            "stay open longer. 400 steps, seed 2.")
    arguments = clear(read_text(text), "lm.jola")
    assert arguments.get("l0_weight") == 0.25, arguments


def test_a_hubble_constant_fixed_to_a_value_and_spectra_to_a_multipole() -> None:
    text = ("Check our open-universe branch: Ω_k = 0.02, and fix the Hubble constant to 70 km/s/Mpc rather than the "
            "acoustic angle; everything else at Planck 2018. Compute the lensed spectra to ℓ = 1800 with CAMB, have "
            "CLASS do the same model, and report the worst fractional difference.")
    arguments = clear(read_text(text), "cosmology.cmb_spectra")
    assert arguments.get("params") == {"H0": 70, "omk": 0.02}, arguments
    assert arguments.get("lmax") == 1800 and arguments.get("cross_check") == "class", arguments


def test_a_decimal_spelled_out_digit_by_digit() -> None:
    assert spelled_decimals("a tilt of nought point nine six and oh point five") == "a tilt of 0.96 and 0.5"
    assert spelled_decimals("one point two five times") == "1.25 times"
    assert spelled_decimals("point of view") == "point of view"
    text = ("Could I get the lensed CMB power spectra, TT, EE and BB, for a cosmology whose scalar spectral index is zero "
            "point nine four, with everything else at Planck 2018? Default multipoles are fine.")
    arguments = clear(read_text(text), "cosmology.cmb_spectra")
    assert arguments.get("params") == {"ns": 0.94}, arguments


def test_a_planck_fit_in_its_own_words_with_a_declined_camb_rerun_and_a_gaussian() -> None:
    text = ("For the reading group:\n\n- Planck 2018 high-ℓ lite likelihood, TT+TE+EE\n- six-parameter ΛCDM\n"
            "- swap the low-ℓ polarisation for a Gaussian on the optical depth, τ = 0.055 ± 0.007\n"
            "- no CAMB rerun at the best fit, the emulator is known to be fine\n- sampler seed 3\n\n"
            "Means, 68% limits and the triangle plot once it has converged, please.")
    arguments = clear(read_text(text), "cosmology.fit_cmb")
    assert arguments.get("tau_prior") == {"mean": 0.055, "std": 0.007}, arguments
    assert arguments.get("check_camb") is False and arguments.get("seed") == 3, arguments


def test_a_prior_in_figures_without_the_word_prior_is_not_dropped_as_a_result() -> None:
    from cmbagent.agents._numbers import unaccounted_numbers

    said = unaccounted_numbers("Use a Gaussian on the optical depth, τ = 0.06 ± 0.01, instead of the default.", [])
    assert {n.values[0] for n in said} >= {0.06}, said


def test_a_joint_fit_led_by_the_supernova_fit_is_the_joint_fit(tmp_path: Path) -> None:
    path = moduli(tmp_path, "dusk_survey_mu.csv", seed=3113, n=60, z_max=1.0, sigma=0.12, header="z,mu,mu_err",
                  w0=-1.0)
    cov = tmp_path / "dusk_survey_cov.txt"
    matrix = np.diag(np.full(60, 0.12 ** 2)) + 0.002
    cov.write_text("60\n" + "\n".join(f"{v:.6f}" for v in matrix.ravel()) + "\n", encoding="utf-8")
    text = (f"How much does our supernova sample narrow Ω_m when combined with the Planck lite band powers? ΛCDM. The "
            f"moduli are in {path.name} (z, mu, mu_err) and their full covariance in {cov.name} (N first, then N² "
            "numbers). Use the covariance. Cap the sampler at 50,000 accepted samples, seed 1.")
    arguments = clear(read_files(text, path, cov), "cosmology.fit_cmb")
    assert arguments.get("supernovae") == path.name and arguments.get("sn_covariance") == cov.name, arguments


# -- settings in words --------------------------------------------------------------------------------------------
def test_future_steps_per_window_and_gradient_steps_for_the_diffusion_part() -> None:
    text = ("Diffusion world model on the continuous mountain car: collect 50 episodes with the scripted controller; "
            "the model should "
            "generate 6 future steps per window, with 3,000 gradient steps for the diffusion part. Skip the policy "
            "comparison entirely. Seed 4.")
    arguments = clear(read_text(text), "rl.diffusion_world_model")
    assert arguments.get("horizon") == 6 and arguments.get("train_steps") == 3000, arguments


def test_a_slip_said_as_moves_going_astray_with_a_probability() -> None:
    text = ("Gridworld only: the tabular 5 × 5 world, where a move goes astray (to a random neighbour) with "
            "probability 0.15. 30 queries per type, the reward model refitted after every 5 answers, a labeller with "
            "β = 3, queries chosen at random, two independent seeds, base seed 1.")
    arguments = clear(read_text(text), "rl.distinguishability_queries")
    assert arguments.get("slip") == 0.15, arguments


def test_a_bracket_of_multiples_glosses_the_widths() -> None:
    text = ("Width sweep for the benign-overfitting demo: one-hidden-layer ReLU nets fitted exactly to the noisy 2-D "
            "mixture; plot their class stability, test accuracy and norm-based capacity against width. Widths 120, 480 "
            "and 1920 hidden units (from two to 32 times the training-set size). Flip 5% of the training labels. "
            "Seed 0.")
    arguments = clear(read_text(text), "robustness.class_stability")
    assert arguments.get("widths") == [120, 480, 1920], arguments


def test_latencies_from_one_up_to_a_number() -> None:
    text = ("Exercise 3: a random discrete-time LIF network, 2-D static input in [−1, 1]², two layers of four neurons, "
            "membrane leak β = 0.7, reset to zero after a spike. For latencies T from 1 up to 3, count the output "
            "spike patterns per depth. Seed 0.")
    arguments = clear(read_text(text), "theory.lif_snn_regions")
    assert arguments.get("latencies") == [1, 2, 3], arguments


def test_a_sweep_after_the_arguments_name_and_a_colon_is_not_its_single_value() -> None:
    text = ("Tubal tensors, implicit bias: a 5 × 5 × 3 ground truth of tubal rank 1, factor U with 15 tubal columns, "
            "60 Gaussian measurements, 2,000 gradient steps, initialisation scales α = 1e-4 and 1e-2, base seed 3. "
            "Then, at the smallest α, vary the number of measurements: 30, 60 and 90.")
    arguments = clear(read_text(text), "theory.tubal_tensor_gd")
    assert arguments.get("measurements") == 60 and arguments.get("measurement_sweep") == [30, 60, 90], arguments


def _trays(folder: Path) -> Path:
    rng = np.random.default_rng(3114)
    n = 40
    light, water = rng.normal(0, 1, (2, n))
    rooted = (0.8 * light + 0.5 * water + rng.normal(0, 1, n) > 0).astype(int)
    return write_csv(folder / "cutting_trays.csv", "tray,light_h,water_ml,rooted",
                      np.column_stack([np.arange(n), np.round(light, 3), np.round(water, 3), rooted]),
                      ["%d", "%.3f", "%.3f", "%d"])


def test_a_numbered_chamber_names_a_place_and_two_inputs_count_the_inputs(tmp_path: Path) -> None:
    path = _trays(tmp_path)
    text = (f"propagation log, growth chamber 2\n\n40 trays of cuttings, rooted (1) or not (0); light_h and water_ml "
            f"recorded; tray is just a label. File: {path.name}\n\nwant: the posterior for an intercept and two slopes "
            "(two inputs) of a logistic regression of rooted on light and water, from the amortised in-context "
            "network, then compared with MCMC. prior sd 1.5 on every coefficient. 900 training steps; seed 4.")
    arguments = clear(read_files(text, path), "bayes.icl_posterior")
    assert arguments.get("n_features") == 2 and arguments.get("columns") == ["light_h", "water_ml"], arguments


def _county_panel(folder: Path) -> Path:
    lines = ["county,year,policy_year,jobs_rate"] + [f"{c},{y},{2014 if c % 2 else 0},{0.4 + 0.001 * y % 1:.3f}"
                                                     for c in range(30) for y in range(2010, 2020)]
    path = folder / "county_jobs_panel.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_difference_in_differences_design_is_no_methods(tmp_path: Path) -> None:
    path = _county_panel(tmp_path)
    text = (f"{path.name} is a county-by-year panel (2010–2019) with the year a county adopted the policy "
            "(policy_year, 0 if never). Adoption was staggered, so I want a difference-in-differences with "
            "group-time effects and an event-study plot of leads and lags, plus the average effect on jobs_rate.")
    reading = read_files(text, path)
    assert reading.choice.status == "none", reading.choice


def _screening(folder: Path) -> Path:
    rng = np.random.default_rng(3115)
    n = 300
    age = rng.integers(25, 60, n)
    bmi = rng.normal(25, 3, n)
    vo2 = 60 - 0.3 * age - 0.5 * bmi + rng.normal(0, 3, n)
    hr = 90 - 0.5 * vo2 + rng.normal(0, 4, n)
    passed = (vo2 - 0.2 * hr + rng.normal(0, 3, n) > 10).astype(int)
    return write_csv(folder / "diver_medicals.csv", "age,bmi,vo2max,rest_hr,cleared",
                      np.column_stack([age, np.round(bmi, 1), np.round(vo2, 1), np.round(hr), passed]),
                      ["%d", "%.1f", "%.1f", "%d", "%d"])


def test_a_causal_graph_in_words_lambdas_taking_values_and_an_adverb_before_cannot(tmp_path: Path) -> None:
    path = _screening(tmp_path)
    text = (f"{path.name}: one diver per row, age, bmi, vo2max, rest_hr and cleared (1 cleared, 0 not). Fit a plain "
            "logistic classifier on cleared using those four measurements.\n\nThe physiology: VO2max depends on age "
            "and BMI, and resting heart rate depends on VO2max. Nothing else has parents. Estimate the linear-Gaussian "
            "SCM with that graph from the data and use it for backtracking counterfactuals. Age clearly cannot be "
            "changed.\n\nExplain rows 3 and 11 (from 0), with λ taking the values 0 and 2.")
    arguments = clear(read_files(text, path), "causal.brace_counterfactual")
    assert arguments.get("parents") == {"vo2max": ["age", "bmi"], "rest_hr": ["vo2max"]}, arguments
    assert arguments.get("immutable") == ["age"] and arguments.get("lambdas") == [0, 2], arguments
    assert arguments.get("features") == ["age", "bmi", "vo2max", "rest_hr"], arguments
    # a cause in words that name no column stays a question
    vague = text.replace("resting heart rate depends on VO2max", "resting heart rate depends on fitness")
    assert any("parents" in q for q in asked(read_files(vague, path))), asked(read_files(vague, path))


def _bikes(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(3116)
    n = 300
    vectors = rng.normal(0, 1, (n, 12))
    serviced = (vectors[:, 0] + rng.normal(0, 1, n) > 0).astype(int)
    frame = rng.uniform(48, 60, n)
    price = 400 + 60 * serviced + 10 * vectors[:, 0] + 5 * frame + rng.normal(0, 20, n)
    table = write_csv(folder / "bike_sales.csv", "sale,frame_cm,serviced,price_eur",
                       np.column_stack([np.arange(n), np.round(frame, 1), serviced, np.round(price, 1)]),
                       ["%d", "%.1f", "%d", "%.1f"])
    array = folder / "bike_photo_vectors.npy"
    np.save(array, vectors)
    return table, array


def test_two_files_described_in_order_and_covariates_beside_the_vectors(tmp_path: Path) -> None:
    table, array = _bikes(tmp_path)
    text = ("Two files attached. The first is a sales table (one bike per row: sale, frame_cm, serviced, price_eur), "
            "the second is a numpy array with a 12-dimensional vector per bike, computed from the advert photos. How "
            "much does a recent service add to the price? The bike's condition shows only in the photos and drives "
            "both, so adjust for the photo vectors as well as frame size, rather than frame size alone. Seed 3.")
    arguments = clear(read_files(text, table, array), "causal.dml_ate")
    assert arguments.get("data") == table.name and arguments.get("embeddings") == array.name, arguments
    assert arguments.get("covariates") == ["frame_cm"], arguments
    assert arguments.get("treatment") == "serviced" and arguments.get("outcome") == "price_eur", arguments
