"""Settings written inside asides, after a dash, beside a negation, as a power of ten or as a symbol (issue 29).

Each of these ran silently with a default instead of what the text stated, and the number check did not notice
because it had decided the number described the data or a result:
- "trim the propensities at 0.03 and 0.97 — a few clinics were all but sure to enrol": the dash's aside ("were")
  made the whole sentence a reported result;
- "(its validation AUC no more than 0.02 short of the best)": a bracket with a number and words was taken for a
  description of the data, though a decimal counts nothing;
- "(β = 1)" after "do not leak": 0 and 1 after "=" were a formula's constants even where the method has ``beta``,
  and the negation before the bracket was taken to negate the bracket's value;
- "scales of 10⁻⁴ and 10⁻²": a typeset power of ten was read as the digits 10, 4 and 2;
- "U has 20 columns, and we start from scales ...": the second clause was part of the first one's description.

The reader now reads each, and where it cannot, the number check asks.  Every sentence and table here was written
for this test.
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


@pytest.mark.parametrize(("text", "expected"), [
    ("10⁻⁴ and 3 × 10^-2", "0.0001 and 0.03"),
    ("from 10^{-6} up to 10¹", "from 1e-06 up to 10"),
    ("2×10⁵ steps", "200000 steps"),
    ("10 steps and 10.5 units", "10 steps and 10.5 units"),  # no power: unchanged
])
def test_a_power_of_ten_is_one_number(text: str, expected: str) -> None:
    assert scaled_digits(text) == expected


def test_a_setting_before_a_dash_is_still_stated() -> None:
    values = _values("Keep the cut at 0.03 and 0.97 — a few sites were nearly certain to be chosen.")
    assert 0.03 in values and 0.97 in values
    # a range written with a spaced dash stays one clause: the whole of it is the reported result
    assert _values("The earlier fit gave 0.2 – 0.8 for the weight.") == []


def test_a_decimal_in_brackets_is_no_count_of_the_data() -> None:
    assert 0.015 in _values("Find a pipeline nobody would object to (its AUC at most 0.015 below the best one).")
    # a count beside a noun in brackets still describes the data
    assert 350 not in _values("Fit the model to the survey (350 colonies over three apiaries).")


def test_a_symbol_equal_to_one_is_a_setting_where_the_method_has_that_argument() -> None:
    text = "Simulate neurons that never leak (β = 1) with a hard reset."
    assert 1.0 in _values(text, nouns=("beta",))
    assert 1.0 not in _values(text)  # for a method without ``beta`` it is a formula's constant


def test_a_clause_with_its_own_subject_is_not_part_of_a_description() -> None:
    text = "The tensor is 8 × 8 × 4, the factor has 12 columns, and we start from scales of 10⁻⁴ and 10⁻²."
    assert {0.0001, 0.01} <= set(_values(text))


def _clinics(folder: Path) -> Path:
    rng = np.random.default_rng(11)
    n = 400
    age, dist = rng.uniform(20, 80, n), rng.uniform(1, 30, n)
    enrol = rng.binomial(1, 1 / (1 + np.exp(-(0.03 * (age - 50) - 0.05 * (dist - 15)))))
    days = 20 - 3 * enrol + 0.1 * age + 0.2 * dist + rng.normal(0, 2, n)
    path = folder / "clinics.csv"
    rows = [f"{age[i]:.0f},{dist[i]:.1f},{enrol[i]},{days[i]:.1f}" for i in range(n)]
    path.write_text("patient_age,travel_km,enrolled,readmit_days\n" + "\n".join(rows) + "\n")
    return path


def test_trimmed_propensities_before_a_dash_are_read(tmp_path: Path) -> None:
    reading = read_with(_clinics(tmp_path), (
        "What is the average effect of enrolment (`enrolled`) on `readmit_days`, adjusting for `patient_age` and "
        "`travel_km`? Propensities should be trimmed at 0.03 and 0.97 — a few patients were all but sure to enrol. "
        "Seed 5."))
    assert reading.method == "causal.dml_ate"
    assert reading.clear and reading.understanding.arguments["clipping"] == 0.03


def _loans(folder: Path) -> Path:
    rng = np.random.default_rng(12)
    n = 300
    income, share, tenure = rng.normal(40, 10, n), rng.uniform(0, 1, n), rng.integers(0, 20, n)
    approved = rng.binomial(1, 1 / (1 + np.exp(-(0.08 * (income - 40) - 1.5 * (share - 0.5)))))
    path = folder / "loans.csv"
    rows = [f"{income[i]:.1f},{share[i]:.3f},{tenure[i]},{approved[i]}" for i in range(n)]
    path.write_text("income_k,zip_share,tenure_yr,approved\n" + "\n".join(rows) + "\n")
    return path


def test_a_tolerance_written_as_short_of_the_best_is_read(tmp_path: Path) -> None:
    reading = read_with(_loans(tmp_path), (
        "Using loans.csv (`approved` is the outcome), show how easy it is to find a pipeline nobody could fault (its "
        "validation AUC no more than 0.02 short of the best one) in which `zip_share` carries under 10% of the mean "
        "|SHAP|. TPE search only, 20 evaluations, seed 1."))
    assert reading.method == "robustness.x_hacking"
    assert reading.clear and reading.understanding.arguments["tolerance"] == 0.02


@pytest.mark.parametrize("text", [
    "Map the regions of constant output of random spiking networks whose membranes do not leak (β = 1), with the "
    "potential set back to zero after each spike. Two inputs, two layers of four neurons, latencies 3 and 5. Seed 7.",
    "Random integrate-and-fire networks without leak, the membrane going back to zero when a neuron fires: two "
    "inputs, two layers of four neurons, latencies 3 and 5, seed 7.",
])
def test_no_leak_and_a_reset_to_zero_in_plain_words(text: str) -> None:
    reading = read_task(text=text, title="", data_files=[], profiles=[])
    assert reading.method == "theory.lif_snn_regions"
    arguments = reading.understanding.arguments
    assert arguments["beta"] == 1.0 and arguments["reset"] == "zero", arguments
    assert reading.clear


def test_initial_scales_as_powers_of_ten_are_read() -> None:
    reading = read_task(text=(
        "Gradient descent on a tubal factorisation: 8 × 8 × 4 tensors of tubal rank 3, the factor has 12 tubal "
        "columns, and we start from scales α of 10⁻⁴ and 10⁻². Three problems per setting, seed 1."),
        title="", data_files=[], profiles=[])
    assert reading.method == "theory.tubal_tensor_gd"
    assert reading.understanding.arguments["alphas"] == [0.0001, 0.01]
    assert reading.clear


def _magnitudes(folder: Path) -> Path:
    from astropy.cosmology import FlatwCDM

    rng = np.random.default_rng(13)
    z = np.sort(rng.uniform(0.02, 1.2, 80))
    mb = FlatwCDM(H0=70, Om0=0.3, w0=-0.9, Tcmb0=0).distmod(z).value - 19.3 + rng.normal(0, 0.12, z.size)
    path = folder / "grebe_sn.csv"
    path.write_text("z,mb,mb_err\n" + "\n".join(f"{a:.4f},{b:.3f},0.12" for a, b in zip(z, mb, strict=True)) + "\n")
    return path


@pytest.mark.parametrize(("text", "model"), [
    ("The season's supernovae are in grebe_sn.csv (redshift, peak magnitude, error). Fit a spatially flat model "
     "where w is a free constant (not fixed at −1). Don't marginalise the absolute magnitude analytically — "
     "sample it instead. 32 walkers, seed 3.", "wcdm"),
    ("Supernovae in grebe_sn.csv. Flat ΛCDM, please; rather than integrating out the absolute magnitude, sample M "
     "as an explicit parameter with H0 held at 70. Seed 3.", "flat_lcdm"),
])
def test_w_as_a_free_constant_and_a_sampled_offset(tmp_path: Path, text: str, model: str) -> None:
    reading = read_with(_magnitudes(tmp_path), text)
    assert reading.method == "cosmology.fit_supernovae"
    arguments = reading.understanding.arguments
    assert arguments["model"] == model and arguments["free_h0"] is True, arguments


def test_a_column_called_person_holding_categories_is_a_concept(tmp_path: Path) -> None:
    rng = np.random.default_rng(14)
    n = 240
    stems, aspects, persons = ["hablar", "comer", "vivir"], ["perfective", "imperfective"], ["1sg", "2sg", "3sg",
                                                                                              "1pl", "2pl", "3pl"]
    rows = [f"{rng.choice(stems)},{rng.choice(aspects)},{rng.choice(persons)}" for _ in range(n)]
    labels = tmp_path / "forms.csv"
    labels.write_text("stem,aspect,person\n" + "\n".join(rows) + "\n")
    embeddings = tmp_path / "forms.npy"
    np.save(embeddings, rng.normal(size=(n, 8)))
    files = {"forms.npy": embeddings, "forms.csv": labels}
    reading = read_task(text=(
        "How additive is the encoder's representation of verb forms (forms.npy, labels in forms.csv)? The two "
        "concepts are the aspect and person columns; stem is not one of them."),
        title="", data_files=list(files), profiles=profile_inputs(files))
    assert reading.method == "lm.compositional_diversity"
    assert reading.understanding.arguments["concept_columns"] == ["aspect", "person"]


def _swimmers(folder: Path) -> Path:
    rng = np.random.default_rng(15)
    n = 200
    camp, age, pool = rng.binomial(1, 0.4, n), rng.integers(15, 30, n), rng.uniform(5, 25, n)
    gain = 2 + 1.5 * camp + 0.1 * pool - 0.05 * (age - 20) + rng.normal(0, 1, n)
    path = folder / "swim.csv"
    rows = [f"S{i:03d},{camp[i]},{age[i]},{pool[i]:.1f},{gain[i]:.2f}" for i in range(n)]
    path.write_text("swimmer,went_to_camp,age_yr,pool_hours_wk,seconds_gained\n" + "\n".join(rows) + "\n")
    return path


def test_the_one_column_the_text_writes_out_and_nothing_took_is_the_outcome(tmp_path: Path) -> None:
    """No "effect on": the outcome is only described ("`seconds_gained` is how much faster ..."), the treatment and
    the adjustment set are read; the one column left that the text writes out is the outcome."""
    reading = read_with(_swimmers(tmp_path), (
        "Was the training camp worth it? `went_to_camp` is 1 for swimmers who went; `seconds_gained` is how much "
        "faster they swam the 200 m between the autumn and spring meets. Average treatment effect by double ML, "
        "adjusting for `age_yr` and `pool_hours_wk`. The swimmer code is only a label."))
    assert reading.method == "causal.dml_ate"
    arguments = reading.understanding.arguments
    assert arguments["treatment"] == "went_to_camp" and arguments["outcome"] == "seconds_gained", arguments


def _hedges(folder: Path) -> Path:
    rng = np.random.default_rng(16)
    n = 260
    planted, wind, clay, slope = rng.binomial(1, 0.5, n), rng.uniform(2, 9, n), rng.uniform(5, 45, n), rng.uniform(0, 12, n)
    loss = 30 - 8 * planted + 2 * wind + 0.3 * clay + 1.2 * slope + rng.normal(0, 3, n)
    path = folder / "hedges.csv"
    rows = [f"H{i:03d},{planted[i]},{wind[i]:.1f},{clay[i]:.0f},{slope[i]:.1f},{loss[i]:.1f}" for i in range(n)]
    path.write_text("field,hedge_planted,mean_wind_ms,clay_pct,slope_deg,soil_loss_t_ha\n" + "\n".join(rows) + "\n")
    return path


def test_a_list_in_words_glossed_by_its_columns_in_brackets(tmp_path: Path) -> None:
    """The words of the adjustment set are glossed by the columns in brackets ("mean wind" for `mean_wind_ms`): no
    question about words no column holds, and none of the bracket's columns is the treatment."""
    reading = read_with(_hedges(tmp_path), (
        "The file is hedges.csv: one row per field, 260 of them. I would like the average effect of the new hedges "
        "on soil loss, adjusting for wind speed, clay content and slope (`mean_wind_ms`, `clay_pct`, `slope_deg`). "
        "Seed 2."))
    assert reading.method == "causal.dml_ate"
    arguments = reading.understanding.arguments
    assert arguments["treatment"] == "hedge_planted" and arguments["outcome"] == "soil_loss_t_ha", arguments
    assert arguments["covariates"] == ["mean_wind_ms", "clay_pct", "slope_deg"]
    assert reading.clear, reading.understanding.questions


def test_a_count_after_the_file_is_describes_the_data() -> None:
    assert _values("The file is hedges.csv: one row per field, 260 of them.") == []
    assert 260 in _values("The file is hedges.csv. Draw 260 bootstrap resamples.")


@pytest.mark.parametrize(("text", "model"), [
    ("Build a NoLiMa-style needle benchmark with 6 needles at 10 depths in haystacks of 500 to 4000 tokens and score "
     "the BM25 baseline. Later, to score a served model on the same items, one would pass a model spec, for example "
     "`cmbagent methods run lm.nolima --args '{\"model\": \"openai-compatible:qwen@http://127.0.0.1:9000/v1\"}'`.",
     None),
    ("Build a NoLiMa-style needle benchmark with 6 needles at 10 depths in haystacks of 500 to 4000 tokens and score "
     "openai-compatible:qwen@http://127.0.0.1:9000/v1 on it beside the BM25 baseline.",
     "openai-compatible:qwen@http://127.0.0.1:9000/v1"),
])
def test_a_model_spec_shown_as_an_example_is_not_the_model_to_score(text: str, model: str | None) -> None:
    reading = read_task(text=text, title="", data_files=[], profiles=[])
    assert reading.method == "lm.nolima"
    assert reading.understanding.arguments.get("model") == model
    assert not any("127.0.0.1" in q for q in [*reading.understanding.questions, *reading.unread])


def test_a_list_once_taken_into_account_is_the_adjustment_set(tmp_path: Path) -> None:
    """"once altitude and rainfall are taken into account" names the adjustment set: farm size, another column of the
    table, is not in it (before, the list went unread and every other column was used, with a note that the task
    named none)."""
    rng = np.random.default_rng(17)
    n = 300
    shade, alt, rain, size = rng.binomial(1, 0.45, n), rng.uniform(800, 1800, n), rng.uniform(900, 2200, n), \
        rng.uniform(1, 20, n)
    crop = 600 + 80 * shade - 0.1 * (alt - 1300) + 0.05 * (rain - 1500) + rng.normal(0, 40, n)
    path = tmp_path / "coffee.csv"
    path.write_text("farm,shade_trees,altitude_m,rainfall_mm,farm_size_ha,yield_kg_ha\n" + "\n".join(
        f"F{i:03d},{shade[i]},{alt[i]:.0f},{rain[i]:.0f},{size[i]:.1f},{crop[i]:.1f}" for i in range(n)) + "\n")
    reading = read_with(path, (
        "Some farms planted shade trees (`shade_trees` = 1). Did the shade trees raise yield (`yield_kg_ha`), once "
        "altitude and rainfall are taken into account? Seed 3."))
    assert reading.method == "causal.dml_ate"
    assert reading.understanding.arguments["covariates"] == ["altitude_m", "rainfall_mm"]
