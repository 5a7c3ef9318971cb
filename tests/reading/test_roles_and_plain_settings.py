"""Settings and column roles written the way people write them, each read wrong or not at all before (issue 29).

The seventeenth and eighteenth blind sets showed where the reader went wrong on unseen text. Each case here is the
general form of one such fault, in sentences and tables written for this test:
- a user's own density ("a crescent-shaped posterior" in a file of theirs) was also given a built-in target by its
  shape word, and "the space is four-dimensional" set no dimension;
- a purpose clause ("so the score can be checked, 700 steps, seed 3") swallowed the settings after its comma, and
  "per cent" written out hid an interval's level from the reader and the number check alike;
- a list in words glossed by plain column names in brackets, a column described as "… are in read_hr", a treatment
  glossed in brackets inside a yes/no question ("did the cover crops (cover = 1) reduce …"), the outcome marked by
  "(higher is worse)" and a single column of free text: each role was missed or given to another column;
- settings in plain words: "one X in four" labelled, a flat prior capped at a value with its lower edge said
  apart, "scalar tilt 0.95", a third of a turn about an axis, "TE and nothing else", a chain capped at N accepted
  samples, "an equal mix of two normals", "within 0.02 AUC of the best", a parent graph in one sentence, "rather
  than raking", files counted out in order ("Two files are attached: …"), numbered chains with "file one is the
  primary", latencies "of two to four";
- a setting decided elsewhere ("the cosmology we settled on") and two margin files for one role are questions now,
  not runs on a default or a guess.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import read_task
from cmbagent.agents._numbers import scaled_digits, stated_numbers
from cmbagent.inputs import profile_inputs
from tests.reading._make import read_with


def _values(text: str, nouns: tuple[str, ...] = ()) -> list[float]:
    return [v for n in stated_numbers(text, nouns=nouns) for v in n.values]


def _read(text: str, files: dict[str, Path] | None = None):  # type: ignore[no-untyped-def]
    files = files or {}
    return read_task(text=text, title="", data_files=list(files), profiles=profile_inputs(files))


# -- numbers the check must see -------------------------------------------------------------------------------------
def test_a_purpose_clause_ends_at_its_comma() -> None:
    values = _values("Use the linear kernel so the exact score can be checked, 700 optimisation steps, seed 3.")
    assert 700 in values and 3 in values


def test_a_dimension_in_words_is_stated_where_the_method_has_one() -> None:
    assert 5 in _values("The space is five-dimensional.", nouns=("dim",))
    assert _values("The space is five-dimensional.") == []


def test_per_cent_written_out_is_one_spelling() -> None:
    assert scaled_digits("a 95 per cent interval, trim at 3 percent, drop the first forty percent") == \
        "a 95% interval, trim at 3%, drop the first 40%"


def test_who_received_what_describes_the_data() -> None:
    assert _values("We ran a split poll: half of the households got version A, the rest version B.") == []
    assert _values("The flag marks the nights before a pipe burst, which is about one in fifty.") == []


def test_a_plain_column_coded_one_for_a_group_describes_the_data() -> None:
    """A sceptic's run of session 15 ("statin is 1 for patients started on a statin") stopped at pre-flight asking
    what the 1 sets; backticks had been needed for the coding to be seen as one."""
    assert _values("The file has one row per patient; statin is 1 for patients started on a statin.") == []
    assert _values("Use 3 folds; statin is 1 for treated patients.") == [3.0]


def test_a_week_number_names_no_setting() -> None:
    assert _values("Lab handout (week 6). Use seed 2.") == [2.0]


# -- a user's own density -------------------------------------------------------------------------------------------
def test_a_users_density_replaces_the_built_in_target(tmp_path: Path) -> None:
    density = tmp_path / "moon_logp.py"
    density.write_text("import torch\n\ndef log_prob(z):\n    return -0.5 * (z ** 2).sum(-1)\n")
    reading = _read(
        "My own unnormalised log posterior, a crescent-like banana shape, is the function log_prob in moon_logp.py. "
        "Please fit semi-implicit variational inference with importance-sampled scores to it. The space is "
        "four-dimensional. Use the Gaussian (linear) kernel so the exact score can be checked, 500 optimisation "
        "steps, seed 6.", {"moon_logp.py": density})
    assert reading.method == "bayes.aisivi"
    arguments = reading.understanding.arguments
    assert arguments["log_density"] == "moon_logp.py" and "target" not in arguments, arguments
    assert arguments["dim"] == 4 and arguments["kernel"] == "linear" and arguments["steps"] == 500
    assert reading.clear


def test_points_in_n_dimensions_set_the_dimension(tmp_path: Path) -> None:
    density = tmp_path / "shell_logp.py"
    density.write_text("import torch\n\ndef log_prob(z):\n    return -((z ** 2).sum(-1) - 4.0) ** 2\n")
    reading = _read("shell_logp.py defines log_prob for a batch of points in three dimensions (a thin spherical "
                    "shell). Run semi-implicit VI on it, 400 steps, seed 2.", {"shell_logp.py": density})
    assert reading.understanding.arguments["dim"] == 3


# -- column roles ---------------------------------------------------------------------------------------------------
def _farms(folder: Path) -> Path:
    rng = np.random.default_rng(21)
    n = 320
    area, ph, dist = rng.uniform(0.5, 6, n), rng.uniform(4.5, 7.5, n), rng.uniform(1, 40, n)
    cover = rng.binomial(1, 1 / (1 + np.exp(-(0.3 * (area - 3) - 0.5 * (ph - 6)))))
    erosion = 12 - 3 * cover + 0.8 * area - 1.1 * ph + 0.05 * dist + rng.normal(0, 1.5, n)
    notes = rng.choice(["steep bank along the north edge", "flat and well drained", "gully forming near the road"], n)
    path = folder / "farms.csv"
    rows = [f"P{i:03d},{cover[i]},{area[i]:.2f},{ph[i]:.2f},{dist[i]:.1f},{notes[i]},{erosion[i]:.2f}" for i in range(n)]
    path.write_text("plot,cover,area_ha,soil_ph,road_km,walk_note,erosion_t\n" + "\n".join(rows) + "\n")
    return path


def test_a_list_in_words_glossed_by_plain_column_names(tmp_path: Path) -> None:
    reading = read_with(_farms(tmp_path), (
        "Plots with a cover crop have cover = 1. What is the average effect of the cover crop on erosion_t, "
        "adjusting for plot area, soil acidity and distance to the road (area_ha, soil_ph, road_km)? Seed 4."))
    arguments = reading.understanding.arguments
    assert arguments["covariates"] == ["area_ha", "soil_ph", "road_km"], arguments
    assert reading.clear, reading.understanding.questions


def test_a_treatment_glossed_in_a_yes_no_question_and_an_outcome_marked_by_its_direction(tmp_path: Path) -> None:
    reading = read_with(_farms(tmp_path), (
        "Field survey in farms.csv: did the cover crops (cover = 1) reduce how much soil the plots lost in the "
        "spring storms? Soil loss is the erosion_t column (higher is worse). The walk-over notes have to be part of "
        "the adjustment: turn the free text into a sentence embedding and adjust for it together with plot area "
        "and soil pH (area_ha, soil_ph). Average effect, five folds, seed 8."))
    arguments = reading.understanding.arguments
    assert arguments["treatment"] == "cover" and arguments["outcome"] == "erosion_t", arguments
    assert arguments["text_column"] == "walk_note"


def _readers(folder: Path) -> Path:
    rng = np.random.default_rng(22)
    n = 280
    age, prior = rng.integers(8, 12, n), rng.normal(50, 10, n)
    hours = np.maximum(0, rng.normal(3, 1.5, n) - 0.05 * (prior - 50))
    score = 40 + 2.5 * hours + 0.6 * prior + rng.normal(0, 4, n)
    path = folder / "reading.csv"
    rows = [f"{age[i]},{prior[i]:.1f},{hours[i]:.2f},{score[i]:.1f}" for i in range(n)]
    path.write_text("age_yr,prior_score,read_hr,score_pts\n" + "\n".join(rows) + "\n")
    return path


def test_a_column_described_as_holding_a_quantity_is_found_by_that_description(tmp_path: Path) -> None:
    reading = read_with(_readers(tmp_path), (
        "Each child's weekly reading hours are in read_hr; it varies continuously. We want the effect of those "
        "hours on the end-of-year test (score_pts), controlling for age_yr and prior_score. A partially linear "
        "model, please, with a 95 per cent interval."))
    arguments = reading.understanding.arguments
    assert arguments["treatment"] == "read_hr" and arguments["confidence"] == 0.95, arguments
    assert reading.clear, reading.unread


# -- settings in plain words ------------------------------------------------------------------------------------------
def _sensor_weeks(folder: Path) -> Path:
    rng = np.random.default_rng(23)
    n = 600
    x = rng.normal(size=(n, 4))
    failed = (rng.uniform(size=n) < 0.05).astype(int)
    x[failed == 1] += 1.5
    path = folder / "pumps.csv"
    path.write_text("vib,temp,flow,noise,failed\n" + "\n".join(
        ",".join(f"{v:.3f}" for v in x[i]) + f",{failed[i]}" for i in range(n)) + "\n")
    return path


def test_one_labelled_in_so_many_is_a_label_ratio(tmp_path: Path) -> None:
    reading = read_with(_sensor_weeks(tmp_path), (
        "Pump monitoring: failed = 1 marks the weeks before a pump seized, which is about one in twenty. Let the "
        "weakly supervised detector see the label of one seizure in five in the training split; every other row "
        "stays unlabelled. Compare against isolation forest only. Seed 2."))
    assert reading.method == "anomaly.wsad_dt"
    assert reading.understanding.arguments["label_ratio"] == 0.2
    assert reading.clear, reading.unread


def test_a_capped_prior_with_its_lower_edge(tmp_path: Path) -> None:
    from astropy.cosmology import LambdaCDM

    rng = np.random.default_rng(24)
    z = np.sort(rng.uniform(0.02, 1.0, 60))
    mu = LambdaCDM(H0=70, Om0=0.3, Ode0=0.7, Tcmb0=0).distmod(z).value + rng.normal(0, 0.1, z.size)
    path = tmp_path / "heron_mu.csv"
    path.write_text("z,mu,mu_err\n" + "\n".join(f"{a:.4f},{b:.3f},0.1" for a, b in zip(z, mu, strict=True)) + "\n")
    reading = read_with(path, (
        "Distance moduli in heron_mu.csv. Fit Lambda-CDM with curvature free. Cap the dark-energy density prior at "
        "1.1 (keep 0 as the lower bound). 40 walkers, seed 1."))
    assert reading.understanding.arguments["priors"] == {"Omega_de": [0.0, 1.1]}
    assert reading.clear, reading.unread


@pytest.mark.parametrize(("text", "params"), [
    ("Compute the lensed CMB power spectra with CAMB for tensor-to-scalar ratio r = 0.05 and scalar tilt 0.95, "
     "everything else at Planck 2018; up to ℓ = 1200.", {"r": 0.05, "ns": 0.95}),
    ("Compute the CMB power spectra with CAMB for w0 = −0.95 and wa = 0.2, Hubble constant 68 km/s/Mpc, the rest at Planck 2018, to "
     "multipole 2000.", {"w": -0.95, "wa": 0.2, "H0": 68}),
])
def test_a_parameter_named_in_words_then_its_value(text: str, params: dict[str, float]) -> None:
    reading = _read(text)
    assert reading.method == "cosmology.cmb_spectra"
    assert reading.understanding.arguments["params"] == params
    assert reading.clear, reading.unread


def test_a_fraction_of_a_turn_about_an_axis_is_a_rotation(tmp_path: Path) -> None:
    rng = np.random.default_rng(25)
    v = rng.normal(size=(200, 3))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    energy = np.cos(4 * np.arctan2(v[:, 0], v[:, 2])) + rng.normal(0, 0.05, 200)
    path = tmp_path / "dirs.csv"
    path.write_text("ux,uy,uz,energy\n" + "\n".join(
        f"{a:.4f},{b:.4f},{c:.4f},{e:.4f}" for (a, b, c), e in zip(v, energy, strict=True)) + "\n")
    reading = read_with(path, (
        "dirs.csv holds unit vectors (ux, uy, uz) and an energy. The energy is unchanged under a rotation by a "
        "quarter of a turn about y. Fit the exactly invariant spectral estimator on the sphere and compare with "
        "kernel ridge over 50 and 100 training points. Seed 3."))
    assert reading.method == "bayes.spec_avg"
    assert reading.understanding.arguments["generators"] == ["rot:y:4"]
    assert reading.clear, reading.unread


def test_a_cmb_fit_on_one_spectrum_with_a_tau_prior_and_a_sample_cap() -> None:
    reading = _read(
        "Exercise (week 2): constrain base ΛCDM using only Planck 2018's polarisation spectrum, EE and nothing else. "
        "Leave out the two low-multipole TT points too. For τ, replace the default reionisation prior with a normal "
        "one centred on 0.055, σ = 0.009. Cap the chain at 20,000 accepted samples, seed 2.")
    assert reading.method == "cosmology.fit_cmb"
    arguments = reading.understanding.arguments
    assert arguments["spectra"] == "EE" and arguments["low_ell_tt"] is False
    assert arguments["tau_prior"] == {"mean": 0.055, "std": 0.009} and arguments["max_samples"] == 20000
    assert reading.clear, reading.unread


def test_an_equal_mix_of_two_normals_and_the_column_in_brackets(tmp_path: Path) -> None:
    rng = np.random.default_rng(26)
    x = np.concatenate([rng.normal(-2, 1, 20), rng.normal(2, 1, 20)])
    path = tmp_path / "wings.csv"
    path.write_text("moth,wing_mm\n" + "\n".join(f"M{i},{v:.3f}" for i, v in enumerate(x)) + "\n")
    reading = read_with(path, (
        "The wing length of each moth is in wings.csv (column wing_mm). Two morphs fly here, so treat the lengths as "
        "an equal mix of two unit-variance normals and give the posterior of both means with the amortised "
        "in-context network, N(0, 4²) priors, seed 5."))
    assert reading.method == "bayes.icl_posterior"
    arguments = reading.understanding.arguments
    assert arguments["family"] == "gaussian_mixture_1d" and arguments["target"] == "wing_mm", arguments


def test_capacity_with_an_adverb_and_the_bad_direction_in_words(tmp_path: Path) -> None:
    rng = np.random.default_rng(27)
    truth = rng.gamma(2, 100, 500)
    path = tmp_path / "debts.csv"
    path.write_text("pred_debt,debt\n" + "\n".join(
        f"{t + rng.normal(0, 60):.1f},{t:.1f}" for t in truth) + "\n")
    reading = read_with(path, (
        "Our model predicts each household's debt (pred_debt next to the realised debt). High debts are the bad "
        "outcome here. We can proactively call 20 percent of households; among the worst-off 10 percent, how many "
        "would we reach? Is the next pound better spent on more calls or a better model, when extra capacity costs "
        "1 and extra R² costs 4?"))
    assert reading.method == "causal.value_of_prediction"
    arguments = reading.understanding.arguments
    assert arguments["alpha"] == 0.2 and arguments["higher_is_worse"] is True, arguments


def test_latencies_in_words_and_an_l0_weight_set_to() -> None:
    lif = _read("Leaky integrate-and-fire nets, two-dimensional input on the square from −1 to 1, two layers of five "
                "neurons, leak factor 0.9, threshold 1. Count the regions for latencies of two to four time steps. "
                "Seed 3.")
    assert lif.understanding.arguments["latencies"] == [2, 3, 4]
    jola = _read("On the tiny random GPT-style model, plant edits in layer 0 head 1 and layer 1 head 2 of a 2-layer "
                 "network with 4 heads per layer, then train gated per-head edits to match. Set the L0 penalty weight "
                 "to 0.3, 150 steps, seed 1.")
    assert jola.understanding.arguments["l0_weight"] == 0.3


def test_a_world_model_and_query_settings_in_plain_words() -> None:
    world = _read(
        "Continuous mountain car: log 20 episodes with the scripted expert, its actions jittered by noise of 10% of "
        "the action range, then fit the return-conditioned diffusion world model over 5-step windows. Compare "
        "TD3+BC for 1500 steps on the logged data and with one synthetic transition per logged one. Seed 2.")
    arguments = world.understanding.arguments
    assert arguments["behaviour_noise"] == 0.1 and arguments["policy_steps"] == 1500
    assert arguments["synthetic_ratio"] == 1.0
    queries = _read(
        "Simulated labelers: put distinguishability questions against plain preference comparisons on the tabular "
        "gridworld (6 by 6) and CartPole, 30 questions of each kind, refitting in batches of 3. The labeler should "
        "be fairly rational (β = 3). Pick queries uniformly at random. Seed 4.")
    arguments = queries.understanding.arguments
    assert arguments["grid_size"] == 6 and arguments["n_queries"] == 30 and arguments["rationality"] == 3.0
    assert arguments["selection"] == "random"


def test_adapters_and_a_question_answer_table_in_plain_words(tmp_path: Path) -> None:
    lora = _read("Generate 2000 synthetic rank-3 adapters with B of 20 rows and A of 10 columns, log-scale spread "
                 "0.8, and see whether invariant summaries predict their properties better than raw weights. Seed 1.")
    arguments = lora.understanding.arguments
    assert (arguments["n_adapters"], arguments["d"], arguments["k"], arguments["orbit_scale"]) == (2000, 20, 10, 0.8)
    path = tmp_path / "weights.csv"
    path.write_text("reading,grams\n" + "\n".join(f"{k} kg {g} g,{1000 * k + g}" for k, g in
                                                 zip(range(1, 61), range(5, 65), strict=True)) + "\n")
    ntl = read_with(path, (
        "weights.csv pairs a weight written as kilograms and grams (column reading) with the total in grams "
        "(column grams). Train the little transformer with cross-entropy alone and with cross-entropy plus 0.4 "
        "times the MSE flavour of the number-token loss. Hold a fifth of the rows out, 100 steps, seeds 0 and 1."))
    arguments = ntl.understanding.arguments
    assert arguments["prompt_column"] == "reading" and arguments["answer_column"] == "grams"
    assert arguments["test_fraction"] == 0.2


def test_a_bracketed_negation_stays_in_its_bracket_and_a_feature_named_in_words(tmp_path: Path) -> None:
    rng = np.random.default_rng(28)
    n = 300
    height, slope, income = rng.normal(size=(3, n))
    claim = rng.binomial(1, 1 / (1 + np.exp(-(height - 0.5 * slope))))
    path = tmp_path / "claims.csv"
    path.write_text("height_m,slope_deg,income_idx,claim\n" + "\n".join(
        f"{height[i]:.3f},{slope[i]:.3f},{income[i]:.3f},{claim[i]}" for i in range(n)) + "\n")
    reading = read_with(path, (
        "claims.csv has claim = 1 for households that claimed. How easy is it to find a defensible pipeline where "
        "income carries more than 40 percent of the mean absolute SHAP, counting as defensible any pipeline within "
        "0.02 AUC of the best? Random sampling of pipelines only (no TPE), 20 tries, seed 9."))
    assert reading.method == "robustness.x_hacking"
    arguments = reading.understanding.arguments
    assert arguments["target_feature"] == "income_idx" and arguments["seed"] == 9, arguments
    assert arguments["tolerance"] == 0.02 and arguments["search"] == "random" and arguments["n_trials"] == 20
    assert reading.clear, reading.unread


def _coops(folder: Path) -> Path:
    rng = np.random.default_rng(29)
    n = 80
    herd = rng.uniform(5, 50, n)
    wells = rng.integers(1, 5, n)
    credit = 0.4 * herd + rng.normal(0, 3, n)
    approved = (0.08 * herd + 0.1 * credit + rng.normal(0, 1, n) > 3).astype(int)
    path = folder / "herders.csv"
    path.write_text("herd_size,wells,credit_kusd,approved\n" + "\n".join(
        f"{herd[i]:.1f},{wells[i]},{credit[i]:.2f},{approved[i]}" for i in range(n)) + "\n")
    return path


def test_a_parent_graph_in_one_sentence(tmp_path: Path) -> None:
    reading = read_with(_coops(tmp_path), (
        "herders.csv lists herding cooperatives and whether a loan was approved. Fit the usual logistic classifier "
        "on approved, features in this order: herd_size, wells, credit_kusd. For rows 2 and 9, find the backtracking "
        "counterfactual that flips each to an approval. Credit builds with the herd, so fit a linear causal model "
        "where herd_size is the only parent of credit_kusd. Keep wells fixed. Try λ at 0, 1 and 4."))
    assert reading.method == "causal.brace_counterfactual"
    arguments = reading.understanding.arguments
    assert arguments["parents"] == {"credit_kusd": ["herd_size"]} and arguments["lambdas"] == [0, 1, 4]
    assert arguments["target_class"] == 1
    assert reading.clear, [*reading.understanding.questions, *reading.unread]
    # said only in words, the graph is still a question
    words = read_with(_coops(tmp_path), (
        "herders.csv lists herding cooperatives and whether a loan was approved. Fit the usual logistic classifier "
        "on approved, features herd_size, wells, credit_kusd. For rows 2 and 9, find the backtracking "
        "counterfactual that flips each to an approval. Credit depends on how big the herd is."))
    assert "parents" not in words.understanding.arguments and not words.clear


# -- files ---------------------------------------------------------------------------------------------------------
def _survey_files(folder: Path) -> dict[str, Path]:
    rng = np.random.default_rng(30)
    rows = [f"{rng.choice(['18-39', '40+'])},{rng.choice(['north', 'south'])},{rng.choice(['yes', 'no'])}"
            for _ in range(300)]
    survey = folder / "poll.csv"
    survey.write_text("age_band,region,q_support\n" + "\n".join(rows) + "\n")
    margins = folder / "census.csv"
    margins.write_text("variable,level,share\nage_band,18-39,0.45\nage_band,40+,0.55\nregion,north,0.5\n"
                       "region,south,0.5\n")
    return {"poll.csv": survey, "census.csv": margins}


def test_files_counted_out_in_order_and_rather_than() -> None:
    from cmbagent.agents._datamap import _enumerated_files

    text = ("Two files are attached: our poll of park users, and the council's register of residents (one row each, "
            "no weights). Use covariate balancing propensity scores rather than raking.")
    assert _enumerated_files(text, ["poll.csv", "register.csv"]) == {
        "poll.csv": "our poll of park users", "register.csv": "the council's register of residents"}
    assert _enumerated_files(text, ["poll.csv"]) == {}  # the count must agree with the files given


def test_rather_than_rules_a_choice_out(tmp_path: Path) -> None:
    reading = _read(
        "poll.csv is our poll and census.csv holds the census margins. Weight the poll to the census on age_band "
        "and region using covariate balancing propensity scores rather than raking, and report the weighted share "
        "answering yes to q_support. 200 bootstrap draws, seed 1.", _survey_files(tmp_path))
    assert reading.understanding.arguments["weighting"] == "cbps"


def test_two_margin_files_for_one_role_are_a_question(tmp_path: Path) -> None:
    files = _survey_files(tmp_path)
    older = tmp_path / "census_2011.csv"
    older.write_text(files["census.csv"].read_text())
    newer = tmp_path / "census_2021.csv"
    newer.write_text(files["census.csv"].read_text().replace("0.45", "0.40").replace("0.55", "0.60"))
    reading = _read(
        "poll.csv is our poll. Weight it to the census on age band and region (the margins are in census_2011.csv "
        "and census_2021.csv) and give the weighted share answering yes, with intervals.",
        {"poll.csv": files["poll.csv"], "census_2011.csv": older, "census_2021.csv": newer})
    assert not reading.clear
    assert any("population" in q for q in reading.understanding.questions), reading.understanding.questions


def test_numbered_chains_with_the_first_named_primary(tmp_path: Path) -> None:
    rng = np.random.default_rng(31)
    files = {}
    for k in range(1, 4):
        path = tmp_path / f"run_chain{k}.txt"
        draws = rng.normal([0.3, 0.8], [0.02, 0.03], size=(600, 2))
        path.write_text("# weight minuslogpost omegam sigma8\n" + "\n".join(
            f"1 {10 + rng.normal():.3f} {a:.5f} {b:.5f}" for a, b in draws) + "\n")
        files[path.name] = path
    reading = _read("Three chains of one fit are attached. Summarise all the parameters from the pooled chains and "
                    "say whether they agree. Throw away the first thirty percent of each. File one is the primary; "
                    "files two and three are its sister runs.", files)
    assert reading.method == "cosmology.summarize_chain"
    arguments = reading.understanding.arguments
    assert arguments["chain"] == "run_chain1.txt"
    assert arguments["more_chains"] == ["run_chain2.txt", "run_chain3.txt"]
    assert arguments["burn_in_fraction"] == 0.3


# -- questions instead of runs --------------------------------------------------------------------------------------
def test_a_setting_decided_elsewhere_is_a_question() -> None:
    reading = _read("Please produce the lensed CMB spectra for the parameters we agreed on at Monday's meeting, up "
                    "to ℓ = 2000.")
    assert reading.method == "cosmology.cmb_spectra"
    assert not reading.clear
    assert any("agreed" in q for q in reading.understanding.questions)
