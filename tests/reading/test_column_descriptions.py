"""Columns found by what the text says they are, not only by their names (issue 29).

Found by the eval suite (evals/research m12–m14): the offline reader ran a causal fit with the counterfactual
outcome as the treatment, with the outcome among the covariates, and with age as the treatment — each a silent
wrong answer.  The sentences here are our own, on columns of our own.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import understand_task
from cmbagent.inputs import profile_inputs

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

DML = "causal.dml_ate"


def table(folder: Path, columns: list[str]) -> Path:
    """A table as a run sees it: 0/1 columns where the name says a flag, numbers elsewhere."""
    rng = np.random.default_rng(3)
    flags = {"irr", "got_loan", "treatment"}
    data = np.column_stack([rng.integers(0, 2, 60) if c in flags else rng.normal(5, 2, 60).round(2) for c in columns])
    path = folder / "farms.csv"
    path.write_text(",".join(columns) + "\n" + "\n".join(",".join(f"{v:g}" for v in row) for row in data) + "\n")
    return path


def understood(tmp_path: Path, text: str, columns: list[str]) -> object:
    path = table(tmp_path, columns)
    return understand_task(DML, text, {}, ["data/farms.csv"], profiles=profile_inputs({"data/farms.csv": path}))


def read(tmp_path: Path, text: str, columns: list[str]) -> dict[str, object]:
    return dict(understood(tmp_path, text, columns).arguments)  # type: ignore[attr-defined]


def test_a_role_phrase_finds_the_column_the_text_described(tmp_path: Path) -> None:
    # "on grain yield" names no column by name; the text said `t_ha` is the harvested grain yield
    text = ("Each row of `farms.csv` is a farm: harvested grain yield `t_ha`, irrigation `irr` (0/1), farm size "
            "`size_ha` and rainfall `rain_mm`. Estimate the effect of irrigation on grain yield, adjusting for "
            "farm size and rainfall.")
    args = read(tmp_path, text, ["t_ha", "irr", "size_ha", "rain_mm"])
    assert (args["treatment"], args["outcome"]) == ("irr", "t_ha")
    assert set(args["covariates"]) == {"size_ha", "rain_mm"}  # neither role's column is adjusted for


def test_a_column_linked_to_its_role_by_a_verb_is_that_role(tmp_path: Path) -> None:
    text = ("`got_loan` marks the farms that received the credit programme, `profit` is their reported outcome, "
            "and `acres` and `herd` are covariates measured before the loans. What is the average effect?")
    args = read(tmp_path, text, ["got_loan", "profit", "profit_sim", "acres", "herd"])
    assert (args["treatment"], args["outcome"]) == ("got_loan", "profit")


def test_a_backticked_column_named_like_the_role_is_that_column(tmp_path: Path) -> None:
    text = "`treatment` flags the treated plots and `yield_t` is the outcome; adjust for `slope` and `soil`."
    args = read(tmp_path, text, ["treatment", "yield_t", "slope", "soil", "y_sim"])
    assert (args["treatment"], args["outcome"]) == ("treatment", "yield_t")


def test_columns_a_bracket_says_to_leave_out_are_excluded(tmp_path: Path) -> None:
    text = ("`irr` is the treatment and `t_ha` the outcome; every other column is a covariate (`t_ha_sim` and "
            "`irr_prob` are simulation outputs; leave them out of the analysis).")
    reading = understood(tmp_path, text, ["t_ha", "irr", "size_ha", "rain_mm", "t_ha_sim", "irr_prob"])
    excluded = next(r.value for r in reading.requirements if r.relation == "excludes")  # type: ignore[attr-defined]
    assert set(excluded) == {"t_ha_sim", "irr_prob"}
    assert not {"t_ha_sim", "irr_prob"} & set(reading.arguments.get("covariates") or [])  # type: ignore[attr-defined]


def test_a_column_someone_set_is_the_treatment(tmp_path: Path) -> None:
    # a continuous dose, chosen by the farmers: no treatment word names it, the verb does
    text = ("Does more nitrogen raise the harvest? In farms.csv `n_kg` was set by the farmers and `harvest_t` is "
            "the harvest; control for soil pH and rainfall.")
    args = read(tmp_path, text, ["soil_ph", "rainfall", "n_kg", "harvest_t"])
    assert (args["treatment"], args["outcome"]) == ("n_kg", "harvest_t")
    assert set(args["covariates"]) == {"soil_ph", "rainfall"}
