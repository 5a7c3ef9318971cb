"""A dose and its response in plain words is a question for ``causal.dml_ate`` (issue 29).

A sceptic's check with a table of pupils (backpack weight, back-pain days, walking time, height, age) and one of
fields (a sown flower strip or not, nests per hectare, field size, hedge length): "does a heavier backpack lead to
more back pain? adjust for height, age and the minutes walked" ended with "fits none of the method tools", and
"how many extra pain days does each kilogram of backpack add, once walking time, height and age are accounted
for?" too.  The reader now knows the forms: "does X cause / lead to more Y", "how many extra Y does each X add",
"the effect per extra kilogram", and a list "taken into account" or "allowed for" after it is written.  Every
sentence and table here was written for this test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.reading._make import read_with

DML = "causal.dml_ate"


def _pupils(folder: Path) -> Path:
    """Heavier bags, longer walks and shorter pupils give more pain days; about 0.4 days a kilogram."""
    rng = np.random.default_rng(3)
    n = 300
    kg, age, height, walk = rng.uniform(2, 12, n), rng.integers(11, 17, n), rng.normal(155, 10, n), rng.uniform(0, 40, n)
    pain = np.clip(1 + 0.4 * kg + 0.1 * walk - 0.05 * (height - 155) + rng.normal(0, 1.5, n), 0, None)
    path = folder / "backpacks.csv"
    rows = [f"P{i:04d},{kg[i]:.1f},{age[i]},{height[i]:.0f},{walk[i]:.0f},{pain[i]:.1f}" for i in range(n)]
    path.write_text("pupil_id,backpack_kg,age_yr,height_cm,walk_min,pain_days_term\n" + "\n".join(rows) + "\n")
    return path


def _fields(folder: Path) -> Path:
    """A flower strip adds two nests per hectare; hedges add some, large fields lose some. 300 fields."""
    rng = np.random.default_rng(4)
    n = 300
    strip, size, hedge = rng.binomial(1, 0.4, n), rng.uniform(2, 40, n), rng.uniform(0, 3, n)
    nests = 3 + 2 * strip + 0.5 * hedge - 0.02 * size + rng.normal(0, 1, n)
    farms = rng.choice(["north", "south", "west"], n)
    path = folder / "fields.csv"
    rows = [f"F{i},{farms[i]},{strip[i]},{size[i]:.1f},{hedge[i]:.2f},{nests[i]:.2f}" for i in range(n)]
    path.write_text("field,farm,flower_strip,field_ha,hedge_km,nests_per_ha\n" + "\n".join(rows) + "\n")
    return path


TABLES = {"backpacks.csv": _pupils, "fields.csv": _fields}
COLUMNS = {"backpacks.csv": ("backpack_kg", "pain_days_term", {"walk_min", "height_cm", "age_yr"}),
           "fields.csv": ("flower_strip", "nests_per_ha", {"field_ha", "hedge_km"})}


def _read(tmp_path: Path, name: str, text: str) -> Any:
    return read_with(TABLES[name](tmp_path), text)


@pytest.mark.parametrize(("name", "text"), [
    ("backpacks.csv", "Does a heavier backpack lead to more back pain? Adjust for height, age and the minutes walked "
                      "to school."),
    ("backpacks.csv", "Does a heavier backpack cause more days of back pain? The attached table has one row per "
                      "pupil. Pupils who walk further to school and shorter pupils may both carry more and hurt more, "
                      "so take walking time, height and age into account. I want the effect per extra kilogram, with "
                      "a 95% interval."),
    ("backpacks.csv", "We weighed the backpacks of 300 pupils and asked how many days of back pain they had this "
                      "term. How many extra pain days does each kilogram of backpack add, once walking time, height "
                      "and age are accounted for?"),
    ("fields.csv", "Skylark survey. Some fields have a sown flower strip along the margin, most don't. Did the "
                   "strips lead to more nests per hectare, once hedgerow length and field area are allowed for? "
                   "Please give the average effect with an interval. Ignore the farm column."),
    ("fields.csv", "Hi Sam, can you work out whether flower strips cause higher nest density? The farms chose which "
                   "fields got strips, and they picked small fields with lots of hedge, so correct for that."),
])
def test_the_dose_response_question_is_read_whole(tmp_path: Path, name: str, text: str) -> None:
    reading = _read(tmp_path, name, text)
    assert reading.choice.status == "chosen" and reading.method == DML, reading.choice.to_dict()
    assert reading.clear, (reading.understanding.missing, reading.understanding.questions, reading.unread)
    treatment, outcome, covariates = COLUMNS[name]
    arguments = reading.understanding.arguments
    assert (arguments["treatment"], arguments["outcome"]) == (treatment, outcome), arguments
    assert set(arguments["covariates"]) == covariates, arguments


def test_a_tie_is_settled_only_by_a_column_another_argument_took(tmp_path: Path) -> None:
    """"more back pain" reads as ``backpack_kg`` ("back") as well as ``pain_days_term``: the treatment's own words
    take ``backpack_kg``, so the outcome is the other; where nothing takes either, the reader asks."""
    taken = _read(tmp_path, "backpacks.csv", "Does a heavier backpack lead to more back pain? Adjust for height, age "
                                             "and the minutes walked to school.")
    assert taken.understanding.arguments["outcome"] == "pain_days_term", taken.understanding.arguments
    assert "tie with backpack_kg" in taken.understanding.evidence["outcome"], taken.understanding.evidence
    open_tie = _read(tmp_path, "backpacks.csv", "Do heavier school bags lead to more back pain? Adjust for height, "
                                                "age and the minutes walked to school.")
    assert not open_tie.clear
    assert "outcome" not in open_tie.understanding.arguments or \
        open_tie.understanding.arguments["outcome"] != "backpack_kg", open_tie.understanding.arguments


def test_a_count_equal_to_the_tables_rows_is_still_asked_about(tmp_path: Path) -> None:
    """"300 fields" of a 300-row table most likely describes the data, but taking it so turned a task of an unseen
    prose set from a question into a silently wrong run (the question had hidden another misreading): it is asked
    about, like any number no argument took, until the rest of the reading is right often enough."""
    question = ("Did the strips lead to more nests per hectare, once hedgerow length and field area are allowed "
                "for? Please give the average effect with an interval.")
    plain = _read(tmp_path, "fields.csv", question)
    assert plain.method == DML and plain.clear, (plain.understanding.questions, plain.unread)
    for count in ("300", "250"):
        counted = _read(tmp_path, "fields.csv", f"Skylark survey, {count} fields. {question}")
        assert counted.method == DML and not counted.clear
        assert [u for u in counted.unread if count in u], counted.unread


# Counting the rows as the data's description (tried, and withdrawn: see above) took away questions that had hidden
# other misreadings in spent prose sets; each is now read, or asked, in words written for these tests.

def test_a_choice_skipped_in_words_is_not_chosen() -> None:
    from cmbagent.agents import read_task

    reading = read_task(text="Knowledge-editing stream, generated: four timesteps of five edits. Benchmark retrieval "
                             "of stored edits and replay, but skip plain fine-tuning; replay two earlier edits per new "
                             "edit, with 40 fine-tuning steps per timestep. Seed 2.")
    assert reading.method == "lm.knowledge_editing_stream", reading.choice
    assert sorted(reading.understanding.arguments.get("strategies", [])) == ["replay", "retrieval"], \
        reading.understanding.arguments


def test_two_clusters_with_words_between_are_a_mixture(tmp_path: Path) -> None:
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    path = tmp_path / "gaps.csv"
    rng = np.random.default_rng(8)
    gaps = np.concatenate([rng.normal(-2, 1, 20), rng.normal(2, 1, 20)])
    path.write_text("gap_s\n" + "\n".join(f"{g:.3f}" for g in gaps) + "\n")
    reading = read_task(text="The attached 40 gaps between bat calls look like two roughly equal clusters with unit "
                             "spread. I want the full posterior of the two cluster means from the in-context learning "
                             "posterior, the transformer trained to do Bayesian inference; prior sd 2 on each mean, "
                             "not a regression.", method="bayes.icl_posterior", data_files=["gaps.csv"],
                        profiles=profile_inputs({"gaps.csv": path}))
    assert reading.understanding.arguments.get("family") == "gaussian_mixture_1d", reading.understanding.arguments


def test_a_text_column_naming_each_row_is_no_covariate(tmp_path: Path) -> None:
    """"control for route length" names ``route_km``, not ``route`` (a label per row: "R000", "R001", ...)."""
    rng = np.random.default_rng(9)
    n = 120
    lane, km, stops = rng.uniform(0, 5, n), rng.uniform(5, 30, n), rng.integers(10, 60, n)
    late = 6 - 0.5 * lane + 0.1 * km + 0.02 * stops + rng.normal(0, 1, n)
    path = tmp_path / "routes.csv"
    rows = [f"R{i:03d},{lane[i]:.2f},{km[i]:.1f},{stops[i]},{late[i]:.2f}" for i in range(n)]
    path.write_text("route,lane_km,route_km,stops,mins_late\n" + "\n".join(rows) + "\n")
    reading = read_with(path, "How much does each extra kilometre of lane reduce a route's lateness in minutes? It is "
                              "continuous, so the partially linear model; control for route length and the number of "
                              "stops.")
    assert reading.method == DML and reading.clear, (reading.understanding.questions, reading.unread)
    arguments = reading.understanding.arguments
    assert (arguments["treatment"], arguments["outcome"]) == ("lane_km", "mins_late"), arguments
    assert sorted(arguments["covariates"]) == ["route_km", "stops"], arguments


def test_a_list_asked_for_beside_a_column_named_after_it_is_asked_when_unread(tmp_path: Path) -> None:
    """The text asks for a test–retest agreement beside ``q_fee_retest``; if no reading places that column as the
    retest, the run would answer without it: a question, never a silent run."""
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    rng = np.random.default_rng(10)
    n = 200
    answers = rng.choice(["agree", "disagree"], n)
    path = tmp_path / "fees.csv"
    rows = [f"{9000 + i},{rng.choice(['a', 'b'])},{answers[i]},{answers[i] if rng.uniform() < 0.8 else 'agree'}"
            for i in range(n)]
    path.write_text("resp_no,version,q_fee,q_fee_retest\n" + "\n".join(rows) + "\n")
    text = ("Split-ballot survey on parking fees: half got version a of the fee question and half version b (the "
            "version column); we want the wording effect on q_fee. Two weeks later everyone answered it again "
            "(q_fee_retest), so report the test–retest κ too.")
    reading = read_task(text=text, data_files=["fees.csv"], profiles=profile_inputs({"fees.csv": path}))
    assert reading.method == "alignment.survey_benchmark", reading.choice
    arguments = reading.understanding.arguments
    if arguments.get("retest") != ["q_fee_retest"]:
        assert not reading.clear
        assert any("'retest'" in q for q in reading.understanding.questions), reading.understanding.questions


def test_a_number_beside_the_propensity_scores_is_a_setting_not_a_result() -> None:
    """"the propensity scores" are no result's score: a number stated for them is read or asked about."""
    from cmbagent.agents._numbers import stated_numbers

    text = "Use lasso for the nuisances and cut the propensity scores at 0.03 at either end."
    assert [n.values for n in stated_numbers(text)] == [(0.03,)]
    assert stated_numbers("The model scored 0.91 on the held-out rows.") == []


def test_the_outcome_of_an_indirect_question_stops_at_its_subject(tmp_path: Path) -> None:
    """"how many more kelp stipes per square metre the helical anchors buy us": the outcome's words end where the
    treatment's begin, so the outcome is ``kelp_stipes_m2`` alone (the anchors are asked about, not guessed)."""
    rng = np.random.default_rng(11)
    n = 200
    anchor, depth, turbidity = rng.binomial(1, 0.5, n), rng.uniform(1, 8, n), rng.uniform(0, 20, n)
    stipes = 40 + 6 * anchor - 2 * depth - 0.5 * turbidity + rng.normal(0, 3, n)
    path = tmp_path / "kelp.csv"
    rows = [f"Q{i:03d},{anchor[i]},{depth[i]:.2f},{turbidity[i]:.1f},{stipes[i]:.1f}" for i in range(n)]
    path.write_text("quadrat,helical_anchor,depth_m,turbidity_ntu,kelp_stipes_m2\n" + "\n".join(rows) + "\n")
    direct = read_with(path, "How many extra kelp stipes per square metre do the helical anchors give us, once depth "
                             "and turbidity are taken into account?")
    assert direct.method == DML and direct.clear, (direct.understanding.questions, direct.unread)
    assert (direct.understanding.arguments["treatment"], direct.understanding.arguments["outcome"]) == \
        ("helical_anchor", "kelp_stipes_m2")
    indirect = read_with(path, "Tell us how many more kelp stipes per square metre the helical anchors buy us on "
                               "average, adjusting for depth and turbidity.")
    assert indirect.method == DML and indirect.understanding.arguments["outcome"] == "kelp_stipes_m2"
    assert not indirect.clear  # the treatment is the only 0/1 column, which is not enough to run on
