"""alignment.survey_benchmark end to end on the example's data (whose planted effects are known), and the
errors a caller gets for inputs it must fix."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.alignment import plant_drift, total_variation

DATA = Path(__file__).resolve().parents[3] / "examples" / "data" / "alignment"
ARGS = {"data": str(DATA / "anes_survey.csv"), "population": str(DATA / "population_margins.csv"),
        "model_answers": str(DATA / "model_answers.csv"), "questions": ["ideology", "party", "vote", "tv_news"],
        "covariates": ["age_group", "education"], "ballot": "ballot", "wave": "wave",
        "retest": ["ideology_retest"], "subgroup": "education", "n_bootstrap": 400}


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return run_method("alignment.survey_benchmark", ARGS | {"output_dir": str(tmp_path_factory.mktemp("out"))})


def test_the_example_recovers_what_was_planted(result, population: pd.DataFrame) -> None:  # type: ignore[no-untyped-def]
    v = result.values
    assert result.ok, [c for c in result.checks if not c.passed]
    # examples/data/alignment/make_data.py: wording B moves 40% of Dole voters to Clinton
    planted = 0.4 * float((population["vote"] == "dole").mean())
    framing = v["framing"]["vote"]["B"]
    effect = framing["difference"]["clinton"]
    assert effect["lower_95"] < planted < effect["upper_95"] and framing["p_value_holm"] < 0.05
    assert all(v["framing"][q]["B"]["p_value_holm"] > 0.05 for q in ("ideology", "party", "tv_news"))
    kappa = v["reliability"]["ideology"]  # the retest repeats the first answer with probability 0.7
    assert kappa["lower_95"] < 0.7 < kappa["upper_95"]
    later = plant_drift(population, "ideology", "moderate", "conservative", 0.5, seed=2)
    levels = sorted(population["ideology"].unique())
    moved = float(total_variation(population["ideology"].value_counts(normalize=True)[levels].to_numpy(),
                                  later["ideology"].value_counts(normalize=True)[levels].to_numpy()))
    drift = v["drift"]["ideology"]["1996a->1996b"]
    assert drift["total_variation"]["lower_95"] < moved < drift["total_variation"]["upper_95"]
    assert drift["p_value_holm"] < 0.05
    assert all(v["drift"][q]["1996a->1996b"]["p_value_holm"] > 0.05 for q in ("party", "vote", "tv_news"))
    assert v["closest_subgroup"] == "postgrad"  # the model answers like postgraduates (of the later wave)
    assert v["alignment_gap"]["persona"]["postgrad"]["total_variation"]["mean"] == pytest.approx(
        v["alignment_gap"]["per_subgroup"]["postgrad"]["total_variation"]["mean"])


def test_the_example_reports_weights_shares_and_files(result) -> None:  # type: ignore[no-untyped-def]
    v = result.values
    assert list(v)[:4] == ["alignment_gap_tv", "alignment_gap_js", "misjudgement_tv", "closest_subgroup"]
    assert v["max_asmd_before"] > 0.3 and v["max_asmd_after"] < 0.01
    assert 1 < v["design_effect"] and v["effective_sample_size"] == pytest.approx(1430 / v["design_effect"])
    for q, per in v["distribution"].items():
        assert sum(x["mean"] for x in per.values()) == pytest.approx(1.0), q
        assert sum(x["unweighted"] for x in per.values()) == pytest.approx(1.0), q
        assert all(x["lower_95"] <= x["mean"] <= x["upper_95"] for x in per.values())
    weights = pd.read_csv(next(a for a in result.artifacts if a.endswith("weights.csv")))
    assert len(weights) == 1430 and weights["weight"].mean() == pytest.approx(1.0)
    assert sum(a.endswith(".png") for a in result.artifacts) == 2
    assert all(Path(a).is_file() for a in result.artifacts)
    assert "misjudged by" in result.summary and "education = postgrad" in result.summary


def _table(tmp_path: Path) -> dict[str, str]:
    rng = np.random.default_rng(0)
    n = 300
    frame = pd.DataFrame({"sex": rng.choice(["f", "m"], n), "q1": rng.choice(["yes", "no"], n),
                          "q2": rng.choice(["a", "b", "c"], n)})
    frame.to_csv(tmp_path / "s.csv", index=False)
    pd.DataFrame({"variable": ["sex", "sex"], "level": ["f", "m"], "share": [0.5, 0.5]}).to_csv(
        tmp_path / "m.csv", index=False)
    return {"data": str(tmp_path / "s.csv"), "population": str(tmp_path / "m.csv"), "output_dir": str(tmp_path)}


def test_a_minimal_call_needs_only_the_table_and_margins(tmp_path: Path) -> None:
    result = run_method("alignment.survey_benchmark", _table(tmp_path) | {"n_bootstrap": 100})
    assert result.values["weighting"] == "rake" and set(result.values["distribution"]) == {"q1", "q2"}
    assert "alignment_gap" not in result.values and result.ok


@pytest.mark.parametrize(("extra", "message"), [
    ({"questions": ["q9"]}, r"questions: column\(s\) \['q9'\] not in the data"),
    ({"ballot": "form"}, r"ballot: column\(s\) \['form'\] not in the data"),
    ({"retest": ["q2"]}, r"retest: 'q2' names no question"),
    ({"n_bootstrap": 10}, "n_bootstrap: at least 100"),
    ({"confidence": 1.5}, "confidence: must lie in"),
    ({"questions": ["q1", "sex"]}, "a column plays one part"),
])
def test_bad_arguments_say_what_to_fix(tmp_path: Path, extra: dict[str, object], message: str) -> None:
    with pytest.raises(UserError, match=message):
        run_method("alignment.survey_benchmark", _table(tmp_path) | extra)


def test_bad_tables_say_what_to_fix(tmp_path: Path) -> None:
    args = _table(tmp_path)
    pd.DataFrame({"variable": ["sex", "sex"], "level": ["f", "m"], "share": [0.5, 0.3]}).to_csv(
        tmp_path / "bad.csv", index=False)
    with pytest.raises(UserError, match=r"shares of 'sex' sum to 0\.8"):
        run_method("alignment.survey_benchmark", args | {"population": str(tmp_path / "bad.csv")})
    pd.DataFrame({"question": ["q1", "q1"], "answer": ["yes", "maybe"], "share": [0.5, 0.5]}).to_csv(
        tmp_path / "model.csv", index=False)
    with pytest.raises(UserError, match=r"answers \['maybe'\] to 'q1' are not answers in the survey"):
        run_method("alignment.survey_benchmark", args | {"model_answers": str(tmp_path / "model.csv")})
    pd.DataFrame({"subgroup": ["x"], "question": ["q1"], "answer": ["yes"]}).to_csv(tmp_path / "p.csv", index=False)
    with pytest.raises(UserError, match=r"persona\(s\) \['x'\] match no subgroup"):
        run_method("alignment.survey_benchmark", args | {"model_answers": str(tmp_path / "p.csv"), "subgroup": "sex"})


def test_extreme_weights_fail_their_check(tmp_path: Path, population: pd.DataFrame,
                                          margins: dict[str, dict[str, float]]) -> None:
    """Selection so strong (postgraduates 20× as likely as high-school graduates, the young 11× the old) that the
    design effect passes 5: the intervals undercover there, and the check says so."""
    from cmbagent.tools.methods.alignment import biased_sample

    biased_sample(population, 800, education_slope=1.0, age_slope=-0.8, seed=3).to_csv(tmp_path / "s.csv", index=False)
    pd.DataFrame([{"variable": c, "level": k, "share": v} for c in margins for k, v in margins[c].items()]).to_csv(
        tmp_path / "m.csv", index=False)
    result = run_method("alignment.survey_benchmark", {
        "data": str(tmp_path / "s.csv"), "population": str(tmp_path / "m.csv"), "questions": ["ideology", "vote"],
        "covariates": ["age_group", "education"], "n_bootstrap": 100, "output_dir": str(tmp_path)})
    check = next(c for c in result.checks if c.name == "weights not extreme")
    assert result.values["design_effect"] > 5 and not check.passed and "undercover" in check.message
