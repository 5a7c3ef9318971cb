"""Regenerate the alignment example's data (see SOURCES.md): python examples/data/alignment/make_data.py"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from cmbagent.tools.methods.alignment import (
    ANES_QUESTIONS,
    anes96_population,
    biased_sample,
    plant_drift,
    plant_framing,
    plant_retest,
    subgroup_answers,
)

HERE = Path(__file__).resolve().parent


def main() -> None:
    population = anes96_population(20_000, seed=1996)
    later = plant_drift(population, "ideology", "moderate", "conservative", 0.5, seed=2)
    first = biased_sample(population, 700, seed=11).assign(wave="1996a")
    second = biased_sample(later, 700, education_slope=0.8, age_slope=-0.6, seed=13).assign(wave="1996b")
    survey = pd.concat([first, second], ignore_index=True)
    survey = plant_framing(survey, "vote", "dole", "clinton", 0.4, seed=4)
    survey = plant_retest(survey, "ideology", 0.7, seed=5)
    survey.insert(0, "respondent", np.arange(1, len(survey) + 1))
    columns = ["respondent", "wave", "ballot", "age_group", "education", *ANES_QUESTIONS, "ideology_retest"]
    survey[columns].to_csv(HERE / "anes_survey.csv", index=False)
    margins = [{"variable": c, "level": level, "share": round(float(share), 5)}
               for c in ("age_group", "education")
               for level, share in population[c].value_counts(normalize=True).sort_index().items()]
    pd.DataFrame(margins).to_csv(HERE / "population_margins.csv", index=False)
    model = subgroup_answers(later, ANES_QUESTIONS, "education", "postgrad")
    personas = []
    for level in sorted(later["education"].unique()):
        own = subgroup_answers(later, ANES_QUESTIONS, "education", level)
        mixed = own.assign(share=0.5 * own["share"] + 0.5 * model["share"], subgroup=level)
        personas.append(mixed)
    table = pd.concat([model.assign(subgroup=""), *personas], ignore_index=True)
    table["share"] = table["share"].round(5)
    table[["subgroup", "question", "answer", "share"]].to_csv(HERE / "model_answers.csv", index=False)


if __name__ == "__main__":
    main()
