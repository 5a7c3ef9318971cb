"""The five silent runs the twenty-sixth blind set showed when it was spent (issue 29, session 20), each with tables
and sentences written for this test, none taken from that set.

- "Check 120 of the held-out leaves.": a sentence that opens with a word and a number "of" was taken for a name
  ("Wave 3 of …"), so the number was no stated number and the run went on its default.
- "the bundled needles, four of them": a small number word counts something only before its noun, so the count
  after it was never a stated number.
- "on the two items we asked both years: the X item and the Y item": the count was read as pointing back to an
  earlier clause that named two columns (the wave and a covariate), when the items follow it.
- "(2024 and 2025, in the column called cohort)": "called" was taken for the column's name.
- "retrieving the facts, fine-tuning on them, and …": the retrieval strategy by its verb.
- "the unlabelled training pool cleaned of faults": the clean setting in other words.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.agents._numbers import stated_numbers
from tests.reading._make import read_text, read_with


def test_a_number_after_a_request_verb_that_opens_a_sentence_is_stated(tmp_path: Path) -> None:
    assert [n.raw for n in stated_numbers("Check 120 of the held-out leaves. Seed 3.")] == ["120", "3"]
    assert [n.raw for n in stated_numbers("Take 40 of the test images.")] == ["40"]
    assert stated_numbers("Wave 3 of the survey is attached.") == []  # a name, still
    rng = np.random.default_rng(81)
    n = 400
    width, length = rng.normal(3, 0.6, n), rng.normal(7, 1.2, n)
    oak = (width + rng.normal(0, 0.5, n) > 3).astype(int)
    path = tmp_path / "leaf_shapes.csv"
    np.savetxt(path, np.column_stack([np.round(width, 2), np.round(length, 2), oak]), delimiter=",",
               header="blade_width_cm,blade_length_cm,is_oak", comments="", fmt=["%.2f", "%.2f", "%d"])
    text = (f"Herbarium sorting: {path.name} has leaf measurements with is_oak marking the oaks. Before we trust an "
            "automatic oak/other split, we want to know how far typical leaves sit from the decision boundary of a "
            "linear SVM, per class and overall. Check 120 of the held-out leaves. Seed 3.")
    reading = read_with(path, text)
    assert reading.method == "robustness.class_stability"
    understanding = reading.understanding
    asked = [*understanding.missing, *understanding.questions, *reading.unread]  # type: ignore[attr-defined]
    assert understanding.arguments.get("max_points") == 120 or any("120" in q for q in asked), (
        understanding.arguments, asked)


def test_a_number_word_after_the_noun_it_counts_is_stated() -> None:
    said = stated_numbers("Keep the bundled needles, four of them, at seven depths.", nouns=["needles", "depths"])
    assert [n.raw for n in said] == ["four", "seven"]
    assert stated_numbers("We have two groups, three of them large.", nouns=["needles"]) == []
    reading = read_text("Long-context check on our own field notes (notes.txt as the haystack). Keep the bundled "
                        "needles, four of them, at seven depths, context lengths 300, 600 and 1200 tokens, lexical "
                        "baseline only. Seed 2.")
    understanding = reading.understanding  # type: ignore[attr-defined]
    asked = [*understanding.missing, *understanding.questions, *reading.unread]  # type: ignore[attr-defined]
    assert understanding.arguments.get("n_needles") == 4 or any("four" in q for q in asked), (
        understanding.arguments, asked)


def _rounds(folder: Path) -> list[str]:
    rng = np.random.default_rng(82)
    rows = ["respondent,cohort,region,tenure,q_rent_cap,q_bus_lane"]
    rows += [f"R{i:04d},{rng.choice([2024, 2025])},{rng.choice(['north', 'south'])},{rng.choice(['own', 'rent'])},"
             f"{rng.choice(['yes', 'no'])},{rng.choice(['yes', 'no'])}" for i in range(300)]
    (folder / "tenant_poll.csv").write_text("\n".join(rows) + "\n")
    (folder / "city_margins.csv").write_text("variable,level,share\nregion,north,0.45\nregion,south,0.55\n"
                                             "tenure,own,0.6\ntenure,rent,0.4\n")
    return ["tenant_poll.csv", "city_margins.csv"]


def test_a_count_whose_items_follow_a_colon_points_forward_and_a_column_called_x_is_x(tmp_path: Path) -> None:
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    files = _rounds(tmp_path)
    text = ("Tenants' association: tenant_poll.csv has both years of our poll (2024 and 2025, in the column called "
            "cohort) and city_margins.csv the city's shares by region and tenure. Rake each year to the margins on "
            "region and tenure, then show how opinion moved on the two items we asked both years: the rent cap "
            "item and the bus lane item. 200 bootstrap replicates, seed 9.")
    reading = read_task(text=text, title="", data_files=files,
                        profiles=profile_inputs({f: tmp_path / f for f in files}))
    assert reading.method == "alignment.survey_benchmark"
    arguments = reading.understanding.arguments
    assert arguments.get("wave") == "cohort", arguments
    assert sorted(arguments.get("covariates", [])) == ["region", "tenure"], arguments
    assert "cohort" not in arguments.get("questions", []) and "region" not in arguments.get("questions", []), arguments


def test_the_retrieval_strategy_said_by_its_verb() -> None:
    reading = read_text("Which way keeps a small model's facts current: retrieving the facts, fine-tuning on them, or "
                        "fine-tuning while replaying older facts? Four time steps of 12 edits each, seed 6.")
    assert reading.method == "lm.knowledge_editing_stream"  # type: ignore[attr-defined]
    strategies = reading.understanding.arguments.get("strategies")  # type: ignore[attr-defined]
    assert strategies is not None and "retrieval" in strategies, strategies


def test_an_unlabelled_pool_cleaned_of_faults_is_the_clean_setting(tmp_path: Path) -> None:
    rng = np.random.default_rng(83)
    x = rng.normal(0, 1, (900, 5))
    y = np.zeros(900, dtype=int)
    bad = rng.choice(900, 40, replace=False)
    x[bad] += 2.5
    y[bad] = 1
    path = tmp_path / "pump_windows.npz"
    np.savez(path, X=x, y=y)
    for said in ("with the unlabelled training pool cleaned of faults", "and drop every unlabelled fault from training"):
        text = (f"{path.name} holds pump vibration windows as X and y (1 for a fault). How well does the dual-tailed "
                f"kernel detector do with a fifth of the training faults labelled, {said}? Seed 5.")
        reading = read_with(path, text)
        assert reading.method == "anomaly.wsad_dt"
        assert reading.understanding.arguments.get("unlabeled_anomalies") == 0, (said, reading.understanding.arguments)
