"""An effect question in any field's words is a question for ``causal.dml_ate`` (issue 29).

A sceptic's check: "did planting a winter cover crop reduce soil loss, accounting for rainfall and slope?" ended
with exit 2, "fits none of the method tools": the field's words were a social scientist's ("programme",
"adjusting for"), and sentence similarity follows the topic (soil, crops) more than the question's form.  The
reader now knows the form in any field: "accounting for", "holding … fixed", "net of", "would … have been …
without", "the crop's effect on", "did X reduce Y?", and who chose the treatment.  The columns follow from the
same forms: the subject of "did X reduce Y" and the object of "without X" are the treatment, "would Y have been"
names the outcome.  Every sentence and table here was written for this test, in agronomy and home energy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cmbagent.agents._meaning import choose_method
from cmbagent.inputs import profile_inputs
from tests.reading._make import hubble_bins, read_with

DML = "causal.dml_ate"


def _plots(folder: Path) -> Path:
    """Plots where wetter, flatter fields got the cover crop more often, and the crop cuts soil loss by 1.5 t."""
    rng = np.random.default_rng(3)
    n = 400
    rain, slope = rng.gamma(4.0, 200.0, n), rng.uniform(0.0, 15.0, n)
    crop = (rng.uniform(size=n) < 1 / (1 + np.exp(0.5 - 0.001 * rain + 0.05 * slope))).astype(int)
    loss = 2 + 0.004 * rain + 0.3 * slope - 1.5 * crop + rng.normal(0.0, 1.0, n)
    path = folder / "fields.csv"
    np.savetxt(path, np.column_stack([crop, loss, rain, slope]), delimiter=",", comments="",
               header="cover_crop,soil_loss_t,rainfall_mm,slope_pct", fmt=["%d", "%.3f", "%.1f", "%.2f"])
    return path


def _homes(folder: Path) -> Path:
    rng = np.random.default_rng(5)
    n = 300
    area, year = rng.uniform(50, 250, n), rng.integers(1900, 2020, n)
    pump = (rng.uniform(size=n) < 1 / (1 + np.exp(1 - 0.01 * (area - 150) - 0.02 * (year - 1960)))).astype(int)
    gas = 3000 + 40 * area - 10 * (year - 1960) - 2500 * pump + rng.normal(0, 800, n)
    path = folder / "homes.csv"
    np.savetxt(path, np.column_stack([np.arange(n), pump, gas, area, year]), delimiter=",", comments="",
               header="house_id,heat_pump,gas_kwh,floor_area_m2,build_year", fmt=["%d", "%d", "%.1f", "%.1f", "%d"])
    return path


TABLES = {"fields.csv": _plots, "homes.csv": _homes}
COLUMNS = {"fields.csv": ("cover_crop", "soil_loss_t", ["rainfall_mm", "slope_pct"]),
           "homes.csv": ("heat_pump", "gas_kwh", ["floor_area_m2", "build_year"])}


def _read(tmp_path: Path, name: str, text: str) -> Any:
    return read_with(TABLES[name](tmp_path), text)


@pytest.mark.parametrize(("name", "text"), [
    ("fields.csv", "Did planting a winter cover crop reduce soil loss, accounting for rainfall and slope? The plot "
                   "records are in fields.csv."),
    ("fields.csv", "Would soil loss have been lower without the cover crop? Use fields.csv; rainfall and slope differ "
                   "between plots and drive both."),
    ("fields.csv", "Is there a cover-crop effect on soil loss after allowing for rain and slope? fields.csv"),
    ("fields.csv", "Farmers chose where to plant cover crops, and wetter, flatter fields got them more often. What "
                   "is the crop's effect on soil_loss_t? fields.csv"),
    ("homes.csv", "Did fitting a heat pump lower the winter gas use of these homes, accounting for floor area and "
                  "build year? homes.csv"),
    ("homes.csv", "Would gas use have been higher without the heat pump? homes.csv; bigger and newer houses got heat "
                  "pumps more often, so take floor area and build year into account."),
    ("homes.csv", "What is the heat pump's effect on gas_kwh in homes.csv, holding floor area and build year fixed?"),
])
def test_the_effect_question_is_read_whole(tmp_path: Path, name: str, text: str) -> None:
    reading = _read(tmp_path, name, text)
    assert reading.choice.status == "chosen" and reading.method == DML, reading.choice.to_dict()
    treatment, outcome, covariates = COLUMNS[name]
    arguments = reading.understanding.arguments
    assert reading.clear, reading.understanding.questions
    assert (arguments["treatment"], arguments["outcome"]) == (treatment, outcome), arguments
    assert sorted(arguments["covariates"]) == sorted(covariates), arguments


@pytest.mark.parametrize("text", [
    "Does a winter cover crop cut erosion once rainfall and slope are taken into account? Data: fields.csv.",
    "How much less soil did the cover-cropped plots lose, holding rainfall and slope fixed? fields.csv",
    "Compare soil loss between cover-cropped and bare plots in fields.csv, but correct for the fact that the two "
    "groups differ in rainfall and slope.",
])
def test_the_method_is_chosen_where_a_column_stays_a_question(tmp_path: Path, text: str) -> None:
    """"erosion" names no column, "the cover-cropped plots" is no treatment's phrase: the method is clear, and what
    the text leaves open is asked, never guessed (no outcome read as ``rainfall_mm`` from "erosion once rainfall")."""
    reading = _read(tmp_path, "fields.csv", text)
    assert reading.method == DML, reading.choice.to_dict()
    arguments = reading.understanding.arguments
    assert arguments.get("outcome") in (None, "soil_loss_t") and arguments.get("treatment") in (None, "cover_crop")
    assert reading.clear == ("outcome" in arguments and "treatment" in arguments), arguments


def test_a_word_shared_with_another_column_is_no_treatment(tmp_path: Path) -> None:
    """"the after-school scheme" shares "school" with ``free_school_meals``, a covariate the text adjusts for; with
    two opt-in offers in the table, which one is meant must be asked."""
    rng = np.random.default_rng(8)
    n = 200
    path = tmp_path / "pupils.csv"
    np.savetxt(path, np.column_stack([rng.integers(0, 2, n), rng.integers(0, 2, n), rng.integers(0, 2, n),
                                      rng.normal(100, 15, n)]), delimiter=",", comments="",
               header="free_school_meals,homework_club,mentoring,reading_score", fmt=["%d", "%d", "%d", "%.1f"])
    reading = read_with(path, "Did the after-school scheme raise reading scores, adjusting for free-school-meals "
                              "status? Pupils signed up themselves. pupils.csv")
    assert reading.method == DML
    assert reading.understanding.arguments.get("treatment") != "free_school_meals"
    assert not reading.clear


@pytest.mark.parametrize("text", [
    "Make a scatter plot of soil loss against rainfall from fields.csv; no analysis yet.",
    "Summarise the columns of fields.csv: means, ranges and missing values.",
    "Does rainfall vary with slope across the plots in fields.csv?",
])
def test_a_table_without_an_effect_question_gets_no_method(tmp_path: Path, text: str) -> None:
    assert _read(tmp_path, "fields.csv", text).choice.status == "none"


def test_accounting_for_a_covariance_stays_a_supernova_fit(tmp_path: Path) -> None:
    """"accounting for" is also how cosmologists speak of a covariance: the supernova data keep the fit theirs."""
    data, cov = hubble_bins(tmp_path)
    text = (f"Fit w and the matter density to the binned distance moduli in {data.name}, accounting for the "
            f"correlated systematics in {cov.name}.")
    choice = choose_method(text, files=profile_inputs({data.name: data, cov.name: cov}))
    assert choice.status == "chosen" and choice.method == "cosmology.fit_supernovae", choice.to_dict()
