"""The checklist's own reading of a task (agents/_stated.py) against sentences that describe rather than ask.

Found when the JLA example's prose, "Betoule et al. (2014, …) compress the 740 JLA supernovae into 31 binned
distance moduli at log-spaced redshifts 0.01 ≤ z ≤ 1.3", became a requirement "use threshold 1.3" that no run
could meet: "et al." ended a sentence, and what a cited work did was read as a setting of this run.
"""

from __future__ import annotations

import pytest

from cmbagent.agents import understand_task
from cmbagent.agents._stated import stated_requirements


def settings(text: str) -> list[tuple[str | None, object]]:
    return [(r.quantity, r.value) for r in stated_requirements(text, []) if r.kind == "number"]


@pytest.mark.parametrize(("text", "expected"), [
    # what a cited work did sets nothing of this run
    ("Betoule et al. (2014, A&A 568, A22) compress 740 SNe into 31 bins at 0.01 ≤ z ≤ 1.3.", []),
    ("Riess (2022) used a cut of 0.3 on the colour.", []),
    ("Scolnic and Brout (2022) apply a threshold of 0.5 to the fit probability.", []),
    # a citation that introduces this run's own instruction does not hide it
    ("Following Smith et al. (2020), use a threshold of 0.5 on the probability.", [("threshold", 0.5)]),
    ("As in Riess et al. (2022), keep z > 0.01 and use seed 3.", [("threshold", 0.01), ("seed", 3.0)]),
    # the settings of this run still count
    ("Keep galaxies with z < 0.5 and use seed 3.", [("threshold", 0.5), ("seed", 3.0)]),
])
def test_what_a_cited_work_did_is_not_a_setting(text: str, expected: list[tuple[str, float]]) -> None:
    assert settings(text) == expected


def test_et_al_does_not_end_a_sentence() -> None:
    text = "Betoule et al. (2014) compress the sample. Use seed 4."
    quotes = {r.text for r in stated_requirements(text, [])}
    assert quotes == {"Use seed 4."}


@pytest.mark.parametrize("text", [
    "Estimate the effect of `treatment` on `y_factual`, adjusting for x1–x25 (the columns mu0, mu1 and "
    "y_cfactual must not be used as covariates).",
    "Estimate the effect of `treatment` on `y_factual`, adjusting for x1–x25; do not adjust for mu0, mu1 or "
    "y_cfactual.",
])
def test_columns_a_negated_cue_names_are_left_out(text: str) -> None:
    columns = ["treatment", "y_factual", "y_cfactual", "mu0", "mu1"] + [f"x{i}" for i in range(1, 26)]
    understood = understand_task("causal.dml_ate", text, {}, ["data/ihdp.csv"], columns={"data/ihdp.csv": columns})
    excluded = next(r for r in understood.requirements if r.relation == "excludes")
    assert set(excluded.value) == {"mu0", "mu1", "y_cfactual"}
    assert understood.arguments["covariates"] == [f"x{i}" for i in range(1, 26)]
