"""The alignment family's public surface, registration, expert, example task and the reading of plain prose."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

import cmbagent.tools.methods.alignment as alignment
from cmbagent.agents import load_registry, match_method, understand_task
from cmbagent.task import load_task
from cmbagent.tools.methods import get_family, iter_methods, validate_arguments

ROOT = Path(__file__).resolve().parents[3]


def test_public_names_are_pinned() -> None:
    assert set(alignment.__all__) == {
        "ANES_QUESTIONS", "FAMILY", "Design", "Weighting", "anes96_population", "biased_sample", "fit_weights",
        "js_divergence", "plant_drift", "plant_framing", "plant_retest", "shares", "subgroup_answers",
        "survey_benchmark", "total_variation",
    }


def test_family_registers_through_the_entry_point_with_its_expert() -> None:
    names = {spec.name for spec in iter_methods() if spec.family == "alignment"}
    assert names == {"alignment.survey_benchmark"}
    expert = get_family("alignment").expert
    assert expert == "survey_methodologist"
    assert any(spec.name == expert and spec.role == "text" for spec in load_registry())


def test_example_task_maps_to_the_method_with_valid_arguments() -> None:
    examples = sorted((ROOT / "examples").glob("alignment_*.md"))
    assert len(examples) == 1
    task = load_task(examples[0])
    assert task.method == "alignment.survey_benchmark"
    assert match_method(task.text) == task.method  # the keywords alone find the method
    validate_arguments(task.method, dict(task.arguments))


def test_plain_words_map_to_the_arguments() -> None:
    """The example leaves the split ballot, the waves, the retest column, the subgroup and the weighting to its
    prose; the method's phrases must let the offline reading find them."""
    task = load_task(ROOT / "examples" / "alignment_survey_benchmark.md")
    columns = list(pd.read_csv(ROOT / "examples" / "data" / "alignment" / "anes_survey.csv", nrows=1).columns)
    files = ["data/anes_survey.csv", "data/model_answers.csv", "data/population_margins.csv"]
    read = understand_task(task.method, task.text, dict(task.arguments), files,
                           columns={"data/anes_survey.csv": columns})
    assert {k: read.arguments.get(k) for k in ("weighting", "ballot", "wave", "retest", "subgroup")} == {
        "weighting": "rake", "ballot": "ballot", "wave": "wave", "retest": ["ideology_retest"],
        "subgroup": "education"}
    assert not read.missing and not read.notes


def test_other_wordings_choose_the_weighting() -> None:
    cases = {"Weight the panel with inverse propensity weights on age and education.": "ipw",
             "Use covariate balancing propensity scores (CBPS) to adjust the sample.": "cbps",
             "Rake the sample to the census margins.": "rake"}
    for text, want in cases.items():
        task = f"The respondents of a national opinion survey are not representative. {text}"
        read = understand_task("alignment.survey_benchmark", task, {}, [])
        assert read.arguments.get("weighting") == want, text
        assert match_method(task) == "alignment.survey_benchmark", text


def test_a_task_in_plain_words_finds_the_method() -> None:
    """No method named, no keyword of the registration needed: the field's words and meaning find it."""
    text = ("Our annotators are mostly young graduates. Do the model's answers match what the whole country "
            "thinks, once the annotators are reweighted to census shares?")
    assert match_method(text) == "alignment.survey_benchmark"
