"""What the thirtieth blind set showed when it was spent (issue 29, session 23): five silent runs and twenty-two
questions the text had answered, each with tables and sentences written for this test, none taken from that set.

Silent runs:
- "embed complaint with the small sentence model you ship and adjust for that": the text column, not read.
- "nothing recalibrated ... and nothing raked": a participle after "nothing" declines it; and the questions
  named after "how far ... on".
- "halt the sampler once it holds 40,000 accepted points": the cap on the chain, and a sentence that asks with
  "halt" states settings.
- "Sequential fine-tuning without replay isn't wanted": what is declined is the fine-tuning, not the replay that
  qualifies it.
- "the model we host on the cluster": a model the task calls its own by a clause after the noun, unnamed.

Questions the text answered: words for the PFN prior's length scale and noise, an aside that says a column is only
a label, haystack sizes after a colon, the one column left for the answers, a count "per seed" the method's
documentation states, a labels file pointed at by its columns, the shape of a file in brackets, a neural-network
classifier, a factor "having" its tubal columns, "non-flat", a prior past a bracketed aside, a sampler's run as the
chain, a documented pair of interval levels, a headerless file's columns one per line, "the first three columns",
a dose "per unit of", a joint fit, analyses no method does, theory curves, and chains that only one method reads.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

from cmbagent.agents._numbers import stated_numbers
from tests.reading._make import asked, clear, moduli, read_files, read_text, write_csv


def _complaints(folder: Path) -> Path:
    rng = np.random.default_rng(3001)
    words = ["late", "rude", "broken", "refund", "again", "never", "thanks", "slow", "lost", "fixed"]
    lines = ["ticket,complaint,escalated,tenure_months,prior_tickets,churned_90d"]
    for i in range(300):
        text = " ".join(rng.choice(words, 6))
        lines.append(f"{i},{text},{rng.integers(0, 2)},{rng.integers(1, 80)},{rng.integers(0, 9)},{rng.integers(0, 2)}")
    path = folder / "helpdesk_tickets.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_text_column_turned_into_sentence_embeddings(tmp_path: Path) -> None:
    path = _complaints(tmp_path)
    text = (f"{path.name}: 300 support tickets. Escalating a ticket (`escalated`, 0/1) is decided by the agent after "
            "reading it, and we follow whether the customer left within 90 days (`churned_90d`). What is the average "
            "effect of escalation on churn? Agents escalate on what the customer wrote, so please embed complaint with "
            "the small sentence model you ship and adjust for that, along with tenure_months and prior_tickets. Five "
            "folds, seed 2.")
    arguments = clear(read_files(text, path), "causal.dml_ate")
    assert arguments.get("text_column") == "complaint", arguments
    assert arguments.get("covariates") == ["tenure_months", "prior_tickets"], arguments


def _allotment_survey(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(3002)
    n = 400
    lines = ["plot_id,design_wt,q_water_meter,q_compost_bin"]
    for i in range(n):
        lines.append(f"{i},{rng.uniform(0.5, 3):.3f},{rng.choice(['yes', 'no', 'unsure'])},"
                     f"{rng.choice(['agree', 'neutral', 'disagree'])}")
    survey = folder / "allotment_holders.csv"
    survey.write_text("\n".join(lines) + "\n", encoding="utf-8")
    answers = folder / "chatbot_allotment_answers.csv"
    answers.write_text("question,option,share\nq_water_meter,yes,0.5\nq_water_meter,no,0.3\nq_water_meter,unsure,0.2\n"
                       "q_compost_bin,agree,0.6\nq_compost_bin,neutral,0.3\nq_compost_bin,disagree,0.1\n",
                       encoding="utf-8")
    return survey, answers


def test_nothing_raked_declines_raking_and_questions_after_how_far_on(tmp_path: Path) -> None:
    survey, answers = _allotment_survey(tmp_path)
    text = (f"{survey.name} is our allotment holders' survey and {answers.name} has a chatbot's answer shares on the "
            "same items. Every plot carries a design_wt from how it was sampled; there are no population figures to "
            "calibrate against, so keep the design weights as they are: nothing raked, no propensity model. How far "
            "is the chatbot from the weighted holders on q_water_meter and q_compost_bin? 300 bootstrap replicates, "
            "seed 8.")
    arguments = clear(read_files(text, survey, answers), "alignment.survey_benchmark")
    assert arguments.get("weighting") == "none", arguments
    assert arguments.get("questions") == ["q_water_meter", "q_compost_bin"], arguments


def test_halting_the_sampler_once_it_holds_a_number_of_points() -> None:
    text = ("Fit the six ΛCDM parameters to the Planck 2018 lite band powers again, and halt the sampler once it holds "
            "40,000 accepted points. Seed 21.")
    arguments = clear(read_text(text), "cosmology.fit_cmb")
    assert arguments.get("max_samples") == 40000, arguments
    # the sentence asks ("Halt ..."), so its number is a setting: it cannot be dropped as a description
    said = stated_numbers("Halt the chain when it has 25,000 accepted points.")
    assert [n.values[0] for n in said] == [25000.0]


def _roster(folder: Path) -> Path:
    lines = []
    for step in range(3):
        for i in range(8):
            lines.append(json.dumps({"timestep": step, "prompt": f"The mayor of Town{step}{i} is",
                                     "object": f"Person{step}{i}", "rephrase": f"Town{step}{i} is led by"}))
    path = folder / "mayor_updates.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_declined_strategy_qualified_by_the_one_that_is_wanted(tmp_path: Path) -> None:
    path = _roster(tmp_path)
    text = (f"{path.name} holds 24 mayoral changes over three timesteps. Keep a small model current two ways: a "
            "retrieval memory of the edits, and fine-tuning that replays earlier edits, one old edit for every new "
            "one. Sequential fine-tuning without replay isn't wanted. 60 fine-tuning steps per timestep, seed 5.")
    arguments = clear(read_files(text, path), "lm.knowledge_editing_stream")
    assert sorted(arguments.get("strategies", [])) == ["replay", "retrieval"], arguments


def test_a_model_the_task_calls_its_own_after_the_noun_is_asked_for() -> None:
    text = ("Run the latent-association needle-in-a-haystack test against the model we host on the cluster: haystacks "
            "up to 8K tokens and all 26 depths, with the BM25 baseline for reference.")
    reading = read_text(text)
    assert reading.method == "lm.nolima", reading.choice
    assert not reading.clear and any("model" in q for q in asked(reading)), asked(reading)
    # "up to 8K tokens" caps the haystack lengths, not the reply's tokens
    assert "max_tokens" not in reading.understanding.arguments, reading.understanding.arguments
    named = ("Run the latent-association needle-in-a-haystack test on openai:gpt-4o-mini: haystacks of 1K, 2K and 4K "
             "tokens, all 26 depths. Its context window is 16K.")
    arguments = clear(read_text(named), "lm.nolima")
    assert arguments.get("model") == "openai:gpt-4o-mini", arguments


def _flows(folder: Path) -> Path:
    rng = np.random.default_rng(3003)
    x = rng.normal(0, 1, (800, 6))
    y = np.zeros(800, dtype=int)
    y[rng.choice(800, 40, replace=False)] = 1
    x[y == 1] += 2.5
    path = folder / "substation_windows.npz"
    np.savez(path, X=x, y=y)
    return path


def test_the_labels_of_a_share_of_the_anomalies(tmp_path: Path) -> None:
    path = _flows(tmp_path)
    text = (f"{path.name}: X holds six per-window substation features and y marks the tripped windows. Standard split; "
            "reveal the labels of a fifth of the training anomalies. Baselines: isolation forest only. Seed 1.")
    arguments = clear(read_files(text, path), "anomaly.wsad_dt")
    assert arguments.get("label_ratio") == 0.2, arguments


def _arrears(folder: Path) -> Path:
    rng = np.random.default_rng(3004)
    score = rng.uniform(0, 1, 500)
    arrears = np.round(np.maximum(0, 30 * score + rng.normal(0, 8, 500)), 1)
    return write_csv(folder / "tenant_arrears.csv", "tenant,risk_index,arrears_days",
                      np.column_stack([np.arange(500), np.round(score, 3), arrears]), ["%d", "%.3f", "%.1f"])


def test_costs_priced_per_unit_of_capacity_and_of_r_squared(tmp_path: Path) -> None:
    path = _arrears(tmp_path)
    text = (f"The risk index in {path.name} (risk_index) is meant to predict arrears; arrears_days is what actually "
            "happened, and more arrears are worse. Housing officers can visit 20% of tenants. What share of the 5% worst-off "
            "tenants do they reach by following the index? Finance prices a unit of capacity at 3 and a unit of R² "
            "at 2.5: which should we buy?")
    arguments = clear(read_files(text, path), "causal.value_of_prediction")
    assert arguments.get("cost_capacity") == 3.0 and arguments.get("cost_prediction") == 2.5, arguments


def _rainfall_flags(folder: Path) -> Path:
    rng = np.random.default_rng(3005)
    x = rng.normal(0, 1, (300, 4))
    flag = (x[:, 0] - x[:, 1] + rng.normal(0, 1, 300) > 0).astype(int)
    return write_csv(folder / "gauge_faults.csv", "spikes,flatline_h,battery_v,station_age,faulty",
                      np.column_stack([np.round(x, 3), flag]), ["%.3f"] * 4 + ["%d"])


def test_nothing_else_closes_a_list(tmp_path: Path) -> None:
    path = _rainfall_flags(tmp_path)
    text = (f"Bayesian logistic regression on {path.name} for the teaching lab. faulty is the 0/1 response. Inputs: "
            "spikes, flatline_h and battery_v, nothing else (station_age is filled in after the fact). Normal prior "
            "on the weights with standard deviation 1.5. Use the semi-implicit variational fit with importance-"
            "sampled scores, 500 optimisation steps, seed 2.")
    arguments = clear(read_files(text, path), "bayes.aisivi")
    assert arguments.get("columns") == ["spikes", "flatline_h", "battery_v"], arguments


def test_a_file_after_a_question_takes_no_role_from_the_question(tmp_path: Path) -> None:
    path = _flows(tmp_path)
    text = (f"How close, on average, are our held-out substation windows to the decision boundary of a random forest? "
            f"The data are in {path.name} (X: six features, y: tripped or not). 64 random directions per point, at "
            "most 120 held-out points, seed 3.")
    arguments = clear(read_files(text, path), "robustness.class_stability")
    assert arguments.get("data") == path.name and arguments.get("model") == "random_forest", arguments


def _moraine(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(3006)

    def table(n: int, name: str) -> Path:
        slope, aspect = rng.uniform(0, 1, n), rng.uniform(0, 1, n)
        thaw = np.sin(3 * slope) + aspect ** 2 + rng.normal(0, 0.1, n)
        return write_csv(folder / name, "site,slope_deg,aspect_idx,thaw_depth",
                      np.column_stack([np.arange(n), np.round(slope, 3), np.round(aspect, 3), np.round(thaw, 3)]),
                      ["%d", "%.3f", "%.3f", "%.3f"])
    return table(48, "thaw_train.csv"), table(30, "thaw_test.csv")


def test_a_gp_prior_in_words_and_a_column_that_is_only_a_label(tmp_path: Path) -> None:
    train, test = _moraine(tmp_path)
    text = (f"Thaw depth on the moraine: training sites in {train.name}, held-back sites in {test.name}. Predict "
            "thaw_depth from slope_deg and aspect_idx (the `site` column is only a label). Use a prior-fitted network "
            "trained on draws from a squared-exponential Gaussian process; its correlation length should be 0.3 and "
            "its noise level is 0.05. Score it against the exact GP on the held-back sites; contexts up to 50 points, "
            "1500 training steps, seed 4.")
    arguments = clear(read_files(text, train, test), "bayes.pfn_regression")
    assert arguments.get("columns") == ["slope_deg", "aspect_idx"], arguments
    assert arguments.get("length_scale") == 0.3 and arguments.get("noise") == 0.05, arguments


def test_haystack_sizes_after_a_colon() -> None:
    text = ("Lexical floor first: run the latent-association needle benchmark with the BM25 baseline alone. Haystack "
            "sizes: 250, 500 and 1000 tokens, needles at 6 depths, seed 2.")
    arguments = clear(read_text(text), "lm.nolima")
    assert arguments.get("lengths") == [250, 500, 1000] and arguments.get("n_depths") == 6, arguments


def test_the_one_column_left_is_the_answer_and_a_count_per_seed_is_documented(tmp_path: Path) -> None:
    rng = np.random.default_rng(3007)
    a, b = rng.integers(10, 99, 200), rng.integers(10, 99, 200)
    path = tmp_path / "sums_to_total.csv"
    path.write_text("question,total\n" + "".join(f"{x}+{y}=,{x + y}\n" for x, y in zip(a, b, strict=True)),
                    encoding="utf-8")
    text = (f"Number-token ablation on {path.name}: prompts such as \"41+17=\" are in the `question` column and the "
            "sums in the `total` column. Two models per seed (seeds 0 and 1), 200 steps each: cross-entropy alone, "
            "and cross-entropy plus the Wasserstein number-token term at weight 0.5.")
    arguments = clear(read_files(text, path), "lm.number_token_loss")
    assert arguments.get("prompt_column") == "question" and arguments.get("answer_column") == "total", arguments


def test_a_labels_file_pointed_at_by_its_columns_and_a_file_shape_in_brackets(tmp_path: Path) -> None:
    rng = np.random.default_rng(3008)
    embeddings = tmp_path / "clip_image_vectors.npy"
    np.save(embeddings, rng.normal(0, 1, (150, 24)))
    labels = tmp_path / "sketch_concepts.csv"
    labels.write_text("sketch_id,colour,animal\n" + "".join(
        f"{i},{['red', 'blue', 'green'][i % 3]},{['cat', 'owl', 'fox', 'eel', 'ant'][i % 5]}\n" for i in range(150)),
        encoding="utf-8")
    text = (f"We drew animals in three colours and five species and embedded each sketch: {embeddings.name} (150 rows × "
            f"24 dimensions, in the row order of {labels.name}). The labels file starts with a sketch_id column; the "
            "two concepts are in `colour` and `animal`. Is the representation a sum of a colour part and an animal "
            "part, and does a linear readout trained on some pairs recognise both on unseen pairs?")
    arguments = clear(read_files(text, embeddings, labels), "lm.compositional_diversity")
    assert arguments.get("labels") == labels.name and arguments.get("embeddings") == embeddings.name, arguments
    assert "input_dim" not in arguments, arguments  # the file's shape, not the synthetic data's dimension


def test_a_neural_network_classifier_for_distances_to_the_boundary(tmp_path: Path) -> None:
    rng = np.random.default_rng(3009)
    x = rng.normal(0, 1, (300, 3))
    path = write_csv(tmp_path / "bearing_tests.csv", "vibration_rms,temp_rise,noise_db,worn",
                      np.column_stack([np.round(x, 3), (x[:, 0] > 0).astype(int)]), ["%.3f"] * 3 + ["%d"])
    text = (f"{path.name}: bench tests of 300 bearings, with the label in the column `worn`. Fit a small neural-network "
            "classifier and estimate how far each test point is from its decision boundary, using 32 random "
            "directions per point. Seed 6.")
    arguments = clear(read_files(text, path), "robustness.class_stability")
    assert arguments.get("model") == "mlp" and arguments.get("label_column") == "worn", arguments


def test_a_factor_having_its_tubal_columns() -> None:
    text = ("A 6 × 6 × 4 tensor of tubal rank 2, recovered by gradient descent on U*Uᵀ from small initial scales 1e-3 "
            "and 1e-1, 2000 iterations, seed 3. Then, at the smaller scale, rerun with U having 4, 8 and 16 tubal "
            "columns.")
    arguments = clear(read_text(text), "theory.tubal_tensor_gd")
    assert arguments.get("rank_sweep") == [4, 8, 16], arguments


def _lcparam(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(3010)
    z = np.sort(rng.uniform(0.02, 1.2, 40))
    from astropy.cosmology import FlatLambdaCDM

    mb = FlatLambdaCDM(H0=70, Om0=0.3).distmod(z).value - 19.3 + rng.normal(0, 0.12, 40)
    data = folder / "deep_field_lcparam.txt"
    lines = ["#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec biascor"]
    lines += [f"sn{i} {zi:.4f} {zi:.4f} 0 {m:.4f} 0.12 0 0 0 0 10 0 0 0 0 1 0 0 0" for i, (zi, m) in
              enumerate(zip(z, mb, strict=True))]
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    cov = folder / "deep_field_sys.txt"
    matrix = 0.01 * np.exp(-np.abs(z[:, None] - z[None, :]))
    cov.write_text("40\n" + "\n".join(f"{v:.6e}" for v in matrix.ravel()) + "\n", encoding="utf-8")
    return data, cov


def test_non_flat_is_not_a_flat_model(tmp_path: Path) -> None:
    data, cov = _lcparam(tmp_path)
    text = (f"Our deep-field sample is in {data.name} and its systematics matrix in {cov.name}. Please run the "
            "non-flat ΛCDM fit, Ω_m and Ω_Λ free, with 32 walkers and seed 2; do these supernovae by themselves "
            "favour a flat universe?")
    arguments = clear(read_files(text, data, cov), "cosmology.fit_supernovae")
    assert arguments.get("model") == "lcdm" and arguments.get("covariance") == cov.name, arguments


def _peaks(folder: Path) -> Path:
    rng = np.random.default_rng(3011)
    z = np.sort(rng.uniform(0.01, 0.15, 60))
    from astropy.cosmology import FlatLambdaCDM

    mb = FlatLambdaCDM(H0=70, Om0=0.3).distmod(z).value - 19.3 + rng.normal(0, 0.1, 60)
    return write_csv(folder / "local_peaks.csv", "zcmb,mb,mb_err", np.column_stack([z, mb, np.full(60, 0.1)]))


def test_a_prior_past_an_aside_in_brackets(tmp_path: Path) -> None:
    path = _peaks(tmp_path)
    text = (f"{path.name} has peak magnitudes (mb, errors in mb_err) of 60 local supernovae. Flat ΛCDM; sample the "
            "absolute magnitude (quoted for H0 = 70) as a free parameter, with a Gaussian prior of −19.3 ± 0.1 mag on "
            "it. Seed 9.")
    arguments = clear(read_files(text, path), "cosmology.fit_supernovae")
    assert arguments.get("priors") == {"M": {"mean": -19.3, "std": 0.1}}, arguments
    assert arguments.get("free_h0") is True, arguments


def _chain(path: Path, seed: int, *, gz: bool = False) -> Path:
    rng = np.random.default_rng(seed)
    rows = np.column_stack([rng.normal(0.3, 0.02, 2000), rng.normal(68, 1.5, 2000), rng.normal(0.8, 0.03, 2000),
                            rng.integers(1, 4, 2000)])
    body = "#cosmological_parameters--omega_m cosmological_parameters--h0 cosmological_parameters--sigma_8 weight\n"
    body += "".join(" ".join(f"{v:.5f}" for v in row) + "\n" for row in rows)
    if gz:
        path.write_bytes(gzip.compress(body.encode()))
    else:
        path.write_text(body, encoding="utf-8")
    return path


def test_a_samplers_run_is_the_chain_and_a_documented_pair_of_levels(tmp_path: Path) -> None:
    path = _chain(tmp_path / "clusters_cosmosis_out.txt.gz", 3012, gz=True)
    text = (f"Please summarise the CosmoSIS run in {path.name} (gzipped; weights in the last column): per parameter its "
            "mean, its spread and central intervals at 68% and 95%, throwing away the first quarter as burn-in.")
    arguments = clear(read_files(text, path), "cosmology.summarize_chain")
    assert arguments.get("chain") == path.name and arguments.get("burn_in_fraction") == 0.25, arguments


def test_headerless_columns_one_per_line_the_first_three_and_a_dose_per_unit(tmp_path: Path) -> None:
    rng = np.random.default_rng(3013)
    n = 300
    x = rng.normal(0, 1, (n, 3))
    price = np.round(1 + 0.3 * x[:, 0] + rng.uniform(0, 1, n), 3)
    demand = np.round(50 - 8 * price + 2 * x[:, 1] + rng.normal(0, 1, n), 2)
    path = tmp_path / "kiosk_sales_noheader.csv"
    np.savetxt(path, np.column_stack([np.round(x, 3), price, demand]), delimiter=",", fmt="%.3f")
    text = (f"The kiosk export, {path.name}, has no header row. Its five columns are, in order:\n\n"
            "- footfall_z: standardised footfall\n- rain_mm_z: standardised rainfall\n- school_hol: holiday index\n"
            "- price_eur: price of a cone (set by each kiosk, continuous)\n- cones_sold: cones sold per day\n\n"
            "How much do cones sold fall per unit of price_eur? Prices were not set at random, so control for the "
            "first three columns. Partially linear model, random forests for the nuisances, seed 4.")
    arguments = clear(read_files(text, path), "causal.dml_ate")
    assert arguments.get("column_names") == ["footfall_z", "rain_mm_z", "school_hol", "price_eur", "cones_sold"]
    assert arguments.get("covariates") == ["footfall_z", "rain_mm_z", "school_hol"], arguments
    assert arguments.get("treatment") == "price_eur" and arguments.get("outcome") == "cones_sold", arguments


def _moduli(folder: Path) -> Path:
    return moduli(folder, "survey_moduli.csv", seed=3014, n=80, z_max=1.0, sigma=0.15, header="z,mu,sigma")


def test_a_joint_fit_is_the_method_that_takes_both(tmp_path: Path) -> None:
    path = _moduli(tmp_path)
    text = (f"Combine the Planck 2018 lite band powers you ship with our supernova moduli in {path.name} (80 objects) "
            "in one fit. w should be free but constant in time; everything else standard. Seed 3.")
    arguments = clear(read_files(text, path), "cosmology.fit_cmb")
    assert arguments.get("supernovae") == path.name and arguments.get("model") == "wcdm", arguments


def test_analyses_no_method_does_are_no_method(tmp_path: Path) -> None:
    rng = np.random.default_rng(3015)
    score = rng.uniform(20, 100, 400)
    path = write_csv(tmp_path / "placement_scores.csv", "test_score,placed,final_grade",
                      np.column_stack([score, (score >= 50).astype(int), rng.normal(60, 10, 400)]))
    jump = (f"Pupils scoring 50 or more on the placement test were put in the advanced set; {path.name} has "
            "test_score, placed and final_grade. Estimate the jump in final grades right at 50 with local linear "
            "fits on each side, and run a density test for scores nudged over the line.")
    reading = read_files(jump, path)
    assert reading.choice.status == "none", reading.choice
    spectrum = ("For the Planck 2018 best fit, give me the linear P(k) of the matter at z = 0 and 1 from k = 1e-3 to "
                "5 h/Mpc, with the HMcode version alongside.")
    assert read_text(spectrum).choice.status == "none", read_text(spectrum).choice


def test_theory_curves_are_spectra() -> None:
    text = ("Theory curves for the seminar: a universe with Ω_b h² = 0.0215 and Ω_c h² = 0.125, everything else at "
            "the usual values. Spectra up to ℓ = 1500 are enough.")
    arguments = clear(read_text(text), "cosmology.cmb_spectra")
    assert arguments.get("lmax") == 1500 and arguments.get("params") == {"ombh2": 0.0215, "omch2": 0.125}, arguments


def test_chains_given_as_data_choose_the_method_that_reads_them(tmp_path: Path) -> None:
    first, second = _chain(tmp_path / "wl_run.1.txt", 3016), _chain(tmp_path / "wl_run.2.txt", 3017)
    text = ("Two chains of one weak-lensing + CMB run are attached (the .1 and .2 files). Throw away the first 20% of "
            "each, pool them, tell me whether the runs agree well enough to call it converged, and give me h0 and "
            "sigma_8.")
    reading = read_files(text, first, second)
    arguments = clear(reading, "cosmology.summarize_chain")
    assert arguments.get("chain") == first.name and arguments.get("more_chains") == [second.name], arguments
    assert arguments.get("burn_in_fraction") == 0.2, arguments
    assert sorted(p.rsplit("--", 1)[-1] for p in arguments.get("parameters", [])) == ["h0", "sigma_8"], arguments


def test_an_archives_byte_string_names_are_decoded(tmp_path: Path) -> None:
    from cmbagent.profiles import profile_file

    path = tmp_path / "markers_bytes.npz"
    np.savez(path, X=np.zeros((5, 2)), y=np.zeros(5), feature_names=np.array([b"crp_mg_l", b"wbc_count"]))
    assert profile_file(path.name, path).names["feature_names"] == ("crp_mg_l", "wbc_count")


# What turning questions into runs exposed in the earlier sets (each was asked before only because another argument
# went unread, and would have run wrongly once that argument was read)


def _meters(folder: Path) -> Path:
    rng = np.random.default_rng(3018)
    n = 400
    solar = rng.binomial(1, 0.3, n)
    smart = rng.binomial(1, 0.3 + 0.3 * solar)
    use = np.round(12 - 2 * smart - 1.5 * smart * solar + rng.normal(0, 1, n), 2)
    return write_csv(folder / "meter_households.csv", "home_ref,solar_pv,smart_plan,evening_kwh",
                      np.column_stack([np.arange(n), solar, smart, use]), ["%d", "%d", "%d", "%.2f"])


def test_the_effect_on_those_who_chose_is_asked_not_averaged(tmp_path: Path) -> None:
    path = _meters(tmp_path)
    text = (f"How much did the smart plan cut evening use for the households who actually signed up? The effect on the "
            f"sign-ups themselves, not the average over everyone. `{path.name}` (smart_plan, evening_kwh; adjust for "
            "solar_pv; home_ref is an ID). Five folds.")
    reading = read_files(text, path)
    assert reading.method == "causal.dml_ate", reading.choice
    assert not reading.clear and any("effect on those who took" in q for q in asked(reading)), asked(reading)


def test_a_named_confounder_with_a_bracketed_gloss_that_no_column_holds(tmp_path: Path) -> None:
    path = _meters(tmp_path)
    text = (f"{path.name} has smart_plan (0/1), solar_pv and evening_kwh. Estimate the average effect of the smart plan "
            "on evening_kwh by double machine learning, adjusting for solar_pv and the thermal (insulation) rating, "
            "since draughty homes signed up less.")
    reading = read_files(text, path)
    assert reading.method == "causal.dml_ate", reading.choice
    assert any("thermal rating" in q for q in asked(reading)), asked(reading)


def test_a_joint_fit_declines_the_one_off_check_and_floats_w_as_one_constant(tmp_path: Path) -> None:
    path = _moduli(tmp_path)
    text = (f"Please combine the Planck band powers with our moduli in {path.name}, use TT, TE and EE, and let the "
            "dark-energy equation of state float as one constant number. No need for the one-off CAMB comparison at "
            "the best fit. Seed 2.")
    arguments = clear(read_files(text, path), "cosmology.fit_cmb")
    assert arguments.get("model") == "wcdm" and arguments.get("check_camb") is False, arguments


def test_a_capped_prior_with_its_lower_edge_in_brackets(tmp_path: Path) -> None:
    path = _moduli(tmp_path)
    text = (f"Fit Lambda-CDM with curvature free to the moduli in {path.name}, both Ω_m and Ω_Λ sampled. Cap the "
            "dark-energy density prior at 1.4 (keep 0 as the lower bound). 36 walkers, seed 1.")
    arguments = clear(read_files(text, path), "cosmology.fit_supernovae")
    assert arguments.get("priors") == {"Omega_de": [0.0, 1.4]}, arguments


def test_held_back_one_in_n_and_an_attached_sheet_described_by_its_rows(tmp_path: Path) -> None:
    rng = np.random.default_rng(3019)
    temp, moist = rng.uniform(0, 1, 64), rng.uniform(0, 1, 64)
    path = write_csv(tmp_path / "glaze_trials.csv", "kiln_peak_c,clay_moisture,crazing_idx",
                      np.column_stack([temp, moist, np.round(np.sin(3 * temp) + moist, 3)]))
    text = ("The attached sheet has 64 test tiles with peak temperature, clay moisture and a crazing index in "
            "crazing_idx. Predict the crazing with the prior-fitted network trained on Gaussian-process draws (RBF "
            "length scale 0.25, noise 0.1). Hold back one tile in four for testing; 2000 training steps, seed 3.")
    arguments = clear(read_files(text, path), "bayes.pfn_regression")
    assert arguments.get("data") == path.name and "test" not in arguments, arguments
    assert arguments.get("test_fraction") == 0.25, arguments


def test_a_partly_audited_column_is_the_label_and_the_rows_to_hand_over(tmp_path: Path) -> None:
    rng = np.random.default_rng(3020)
    n = 500
    lines = ["invoice,amount_z,vendor_age_z,weekend,review_result"]
    for i in range(n):
        result = "" if rng.random() < 0.8 else str(int(rng.random() < 0.3))
        lines.append(f"{i},{rng.normal():.3f},{rng.normal():.3f},{rng.integers(0, 2)},{result}")
    path = tmp_path / "invoice_reviews.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    text = (f"Our auditors went through some of the invoices in {path.name}. In the review_result column, 1 means they "
            "confirmed a fraudulent duplicate, 0 means it was fine, and an empty cell means nobody has looked at it yet. "
            "I want a model that learns from the confirmed ones, scores every invoice, and gives me the 25 unchecked "
            "invoices that look most like duplicates. 60 epochs, seed 4.")
    arguments = clear(read_files(text, path), "anomaly.wsad_dt")
    assert arguments.get("label") == "review_result" and arguments.get("n_listed") == 25, arguments


def test_the_inspection_cell_counts_every_row_of_a_headerless_table(tmp_path: Path) -> None:
    """A sceptic run of session 23 (a headerless CSV of 600 days) reported 599 rows: the inspection read the first
    row of data as a header."""
    import contextlib
    import io

    from cmbagent.agents._offline_code import inspect_code
    from cmbagent.cells import RESULT_BEGIN, RESULT_END

    bare = tmp_path / "bare.csv"
    np.savetxt(bare, np.arange(30.0).reshape(10, 3), delimiter=",", fmt="%.1f")
    named = write_csv(tmp_path / "named.csv", "a,b,c", np.arange(30.0).reshape(10, 3), "%.1f")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(inspect_code([str(bare), str(named)]), "inspect", "exec"), {})  # the cell the offline backend writes
    facts = json.loads(printed.getvalue().split(RESULT_BEGIN)[1].split(RESULT_END)[0])["files"]
    assert facts[str(bare)]["n_rows"] == 10 and facts[str(named)]["n_rows"] == 10, facts


def test_a_headerless_glossary_line_sets_nothing_and_a_dose_per_unit(tmp_path: Path) -> None:
    """The same sceptic run: "- weekend: 1 on Saturdays and Sundays" glosses a column (its 1 sets nothing), and "how
    many fewer cups do we sell per unit of price_gbp" names the dose."""
    rng = np.random.default_rng(3021)
    x = rng.normal(0, 1, (200, 2))
    weekend = rng.binomial(1, 0.3, 200)
    price = np.round(2 + 0.3 * x[:, 0] + rng.uniform(0, 0.5, 200), 3)
    sold = np.round(100 - 15 * price + 5 * x[:, 0] + rng.normal(0, 2, 200), 1)
    path = tmp_path / "ices_noheader.csv"
    np.savetxt(path, np.column_stack([np.round(x, 3), weekend, price, sold]), delimiter=",", fmt="%.3f")
    text = (f"{path.name} lost its header. Its five columns are, in order:\n\n- crowd_z: how busy the beach was\n"
            "- sun_z: sunshine (standardised)\n- holiday: 1 on bank holidays\n- price_eur: price of an ice\n"
            "- ices_sold: ices sold that day\n\nHow many fewer ices do we sell per unit of price_eur? Control for the "
            "first three columns. Partially linear model, seed 2.")
    arguments = clear(read_files(text, path), "causal.dml_ate")
    assert arguments.get("treatment") == "price_eur" and arguments.get("outcome") == "ices_sold", arguments
    assert arguments.get("covariates") == ["crowd_z", "sun_z", "holiday"], arguments
