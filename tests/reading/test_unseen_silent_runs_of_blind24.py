"""The four silent runs the twenty-fourth blind set showed when it was spent (issue 29, session 19), and its
method misses, each with tables and sentences written for this test, none taken from that set.

- "a doubly robust estimate for a yes/no exposure, with gradient boosting as the learner": the "no" of "yes/no"
  negated the learner, which then ran on its default.
- "give me the 25 nights it ranks as most suspicious": "the 25" read as a count of the data, and the list length
  ran on its default.
- "the conditional effect of the grant on hours worked given age and region": the first column named after "on"
  ("age") became the outcome; the outcome's range in its column's own words ("which by design lies between 0 and
  60") and "use the true effect column to check coverage" were not read.
- "on rainfall and soil depth, leaving field slope out": the slope went in with the inputs.
- Method words: "instrument glitches", "the deviation network", "what would it take for a declined … to qualify".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests.reading._make import read_with


def test_a_yes_no_exposure_does_not_negate_the_learner(tmp_path: Path) -> None:
    rng = np.random.default_rng(61)
    n = 500
    age = rng.integers(2, 12, n)
    weight = np.round(rng.normal(30, 5, n), 1)
    coat = rng.binomial(1, 1 / (1 + np.exp(-(age - 6) / 2)))
    sick = np.round(np.maximum(0, 6 - 2 * coat + 0.3 * age + rng.normal(0, 1, n)), 1)
    path = tmp_path / "flock_coats.csv"
    np.savetxt(path, np.column_stack([age, weight, coat, sick]), delimiter=",",
               header="age_months,weight_kg,coat,sick_days", comments="", fmt=["%d", "%.1f", "%d", "%.1f"])
    text = (f"{path.name}: did the winter coats (coat = 1) cut the sheep's sick days (sick_days)? Older ewes got them "
            "first. Adjust for age_months and weight_kg, and give me the doubly robust estimate for a yes/no "
            "exposure, with gradient boosting as the learner for both nuisance fits. Seed 2.")
    reading = read_with(path, text)
    assert reading.method == "causal.dml_ate"
    arguments = reading.understanding.arguments
    assert arguments.get("learner") == "gradient_boosting" and arguments.get("model") == "irm", arguments


def test_the_number_a_list_request_asks_for_is_no_count_of_the_data(tmp_path: Path) -> None:
    rng = np.random.default_rng(62)
    x = rng.normal(0, 1, (400, 4))
    x[rng.choice(400, 12, replace=False)] += 3.0
    path = tmp_path / "freezer_nights.csv"
    np.savetxt(path, np.round(x, 3), delimiter=",", header="compressor_a,door_open_min,defrost_w,temp_spread",
               comments="", fmt="%.3f")
    text = (f"Nobody logged which nights the freezer misbehaved; {path.name} has one row per night and no fault "
            "column. Run the weakly supervised detector with the 10 nights an isolation forest finds most unusual "
            "as stand-in anomalies, and give me the 25 nights it ranks as most suspicious. Seed 4.")
    reading = read_with(path, text)
    assert reading.method == "anomaly.wsad_dt"
    arguments = reading.understanding.arguments
    assert arguments.get("n_listed") == 25 and arguments.get("n_labeled") == 10, arguments


def _grant(folder: Path) -> tuple[Path, Path]:
    rng = np.random.default_rng(63)
    n = 400
    age = rng.integers(20, 60, n)
    region = rng.integers(0, 4, n)
    z = rng.normal(0, 1, (n, 3))
    grant = (z[:, 0] + rng.normal(0, 1, n) > 0).astype(int)
    effect = np.round(4 + 0.1 * (age - 40), 3)
    hours = np.round(np.clip(30 + effect * grant + rng.normal(0, 5, n), 0, 60), 1)
    table = folder / "grant_workers.csv"
    np.savetxt(table, np.column_stack([age, region, grant, hours, effect]), delimiter=",",
               header="age,region,grant,hours_worked,true_effect", comments="", fmt=["%d", "%d", "%d", "%.1f", "%.3f"])
    instruments = folder / "office_rollout.npy"
    np.save(instruments, np.round(z, 4))
    return table, instruments


def test_bounds_given_covariates_with_the_outcome_range_and_the_true_effect_column(tmp_path: Path) -> None:
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    table, instruments = _grant(tmp_path)
    text = (f"Simulated workers are in {table.name}: age, region, whether they took up the wage grant (grant), weekly "
            "hours worked (hours_worked, which by design lies between 0 and 60) and each worker's true effect "
            f"(true_effect). Take-up is confounded; the staggered office rollout gives three instrument features per "
            f"worker in {instruments.name}. Please bound the conditional effect of the grant on hours worked given "
            "age and region, using the instrument array, from the quantile partition with four cells, and use the "
            "true effect column to check coverage. Seed 3.")
    files = [table.name, instruments.name]
    reading = read_task(text=text, title="", data_files=files,
                        profiles=profile_inputs({f: tmp_path / f for f in files}))
    assert reading.method == "causal.iv_cate_bounds"
    arguments = reading.understanding.arguments
    assert (arguments.get("treatment"), arguments.get("outcome")) == ("grant", "hours_worked"), arguments
    assert sorted(arguments.get("covariates", [])) == ["age", "region"], arguments
    assert arguments.get("outcome_support") == [0, 60], arguments
    assert arguments.get("reference_cate") == "true_effect", arguments


def test_an_input_the_list_leaves_out(tmp_path: Path) -> None:
    rng = np.random.default_rng(64)
    n = 220
    rain, depth, slope = rng.normal(0, 1, (3, n))
    failed = (rng.uniform(size=n) < 1 / (1 + np.exp(-(0.8 * rain - 0.6 * depth)))).astype(int)
    path = tmp_path / "crop_fields.csv"
    np.savetxt(path, np.column_stack([np.round(rain, 3), np.round(depth, 3), np.round(slope, 3), failed]),
               delimiter=",", header="rain_z,soil_depth_z,field_slope_z,crop_failed", comments="", fmt=["%.3f"] * 3 + ["%d"])
    text = (f"A posterior for a logistic regression of crop failure (crop_failed, 0/1) on rainfall (rain_z) and soil "
            f"depth (soil_depth_z), leaving field slope out, from {path.name}. Fit the semi-implicit variational "
            "posterior with importance-sampled scores, a normal prior of standard deviation 2 on the weights, 1,500 "
            "steps and seed 5.")
    reading = read_with(path, text)
    assert reading.method == "bayes.aisivi"
    arguments = reading.understanding.arguments
    assert arguments.get("columns") == ["rain_z", "soil_depth_z"], arguments


def test_glitches_a_deviation_network_and_a_declined_member_name_their_methods(tmp_path: Path) -> None:
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    rng = np.random.default_rng(65)
    X = rng.normal(0, 1, (1200, 6))
    y = (rng.uniform(size=1200) < 0.05).astype(int)
    X[y == 1] += 2.5
    path = tmp_path / "hydrophone_windows.npz"
    np.savez(path, X=np.round(X, 4), y=y)
    text = (f"{path.name} holds six features per one-minute hydrophone window (X) and y marks the windows confirmed "
            "as electronic glitches. With the standard split, let the detector see the labels of only seven of the "
            "glitches in the training part and keep a third of the other training glitches hidden in the unlabelled "
            "rows. Compare it only with the deviation network; 25 epochs, seed 8.")
    reading = read_task(text=text, title="", data_files=[path.name], profiles=profile_inputs({path.name: path}))
    assert reading.method == "anomaly.wsad_dt"
    arguments = reading.understanding.arguments
    assert arguments.get("n_labeled") == 7 and arguments.get("baselines") == ["devnet"], arguments
    assert abs(arguments.get("unlabeled_anomalies", 0) - 1 / 3) < 1e-9, arguments

    members = tmp_path / "guild_members.csv"
    np.savetxt(members, np.round(rng.normal(5, 2, (40, 3)), 2), delimiter=",", header="hives,honey_kg,savings_k",
               comments="", fmt="%.2f")
    brace = (f"The guild lends with a fixed linear score on {members.name}. What would it take for a declined member "
             "to qualify? Explain members 3 and 8: what they would have needed to look like to be approved, given "
             "the underlying causes.")
    reading = read_task(text=brace, title="", data_files=[members.name],
                        profiles=profile_inputs({members.name: members}))
    assert reading.choice.candidates[0].method == "causal.brace_counterfactual", reading.choice.candidates[:2]
