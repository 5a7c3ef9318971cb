"""Each kind of check of a grader, on run outcomes built by hand: a right answer, a wrong answer within the
tolerance and one outside it, missing uncertainties, figures as the sandbox's figure probe records them,
findings, statuses, statements that a task cannot be done, and the optional rubric; and the grader files
that are refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.eval import RunOutcome, SuiteTask, find_value, grade_run, load_grader
from cmbagent.exceptions import UserError


def grader(tmp_path: Path, text: str, kind: str = "method") -> SuiteTask:
    path = tmp_path / "task.grade.yaml"
    path.write_text(f"kind: {kind}\nchecks:\n{text}", encoding="utf-8")
    return SuiteTask(name="task", path=str(tmp_path / "task.md"), grader=load_grader(path))


def outcome(**fields: object) -> RunOutcome:
    return RunOutcome(**{"mode": "pc", "status": "done", "run_dir": None, **fields})  # type: ignore[arg-type]


ABS = """  - value: omega_m
    aliases: [Omega_m]
    expected: 0.30
    tolerance: {abs: 0.01}
    std: {expected: 0.03, rel: 0.25}
    why: test
"""


@pytest.mark.parametrize(("reported", "verdict"), [
    ({"Omega_m": {"mean": 0.300, "std": 0.03}}, "pass"),
    ({"Omega_m": {"mean": 0.309, "std": 0.03}}, "pass"),      # wrong, but within ± 0.01
    ({"Omega_m": {"mean": 0.312, "std": 0.03}}, "fail"),      # outside it
    ({"Omega_m": {"mean": 0.300, "std": 0.05}}, "fail"),      # right value, uncertainty off by 67%
    ({"Omega_m": 0.300}, "fail"),                             # no uncertainty where one is required
    ({"omega_m_mean": 0.305, "omega_m_std": 0.031}, "pass"),  # names written another way, std beside it
    ({"H0": {"mean": 70.0, "std": 0.3}}, "fail"),             # not reported at all
])
def test_value_within_an_absolute_tolerance(tmp_path: Path, reported: dict, verdict: str) -> None:
    grade = grade_run(grader(tmp_path, ABS), outcome(values=reported))
    assert grade.verdict == verdict, grade.why


def test_relative_and_in_sigma_tolerances(tmp_path: Path) -> None:
    rel = grader(tmp_path, "  - value: par\n    expected: 3.35\n    tolerance: {rel: 0.01}\n")
    assert grade_run(rel, outcome(values={"par": 3.38})).verdict == "pass"  # 0.9% off
    assert grade_run(rel, outcome(values={"par": 3.40})).verdict == "fail"  # 1.5% off
    sigma = grader(tmp_path, "  - value: ate\n    expected: 4.0\n    tolerance: {sigma: 3}\n    std: {max: 0.5}\n")
    assert grade_run(sigma, outcome(values={"ate": {"mean": 4.25, "std": 0.1}})).verdict == "pass"  # 2.5 σ
    far = grade_run(sigma, outcome(values={"ate": {"mean": 4.35, "std": 0.1}}))  # 3.5 σ
    assert far.verdict == "fail" and "off by 0.35" in far.why
    vague = grade_run(sigma, outcome(values={"ate": {"mean": 5.0, "std": 1.0}}))  # within 3 σ, but σ > 0.5
    assert vague.verdict == "fail" and "above 0.5" in vague.why
    bare = grade_run(sigma, outcome(values={"ate": 4.0}))
    assert bare.verdict == "fail" and "no uncertainty" in bare.why


def test_text_and_exact_values(tmp_path: Path) -> None:
    task = grader(tmp_path, "  - value: recommendation\n    expected: improve the model\n"
                            "  - value: n_rows\n    expected: 77\n    tolerance: {abs: 0}\n")
    assert grade_run(task, outcome(values={"recommendation": "Improve the model", "n_rows": 77})).verdict == "pass"
    assert grade_run(task, outcome(values={"recommendation": "expand capacity", "n_rows": 77})).verdict == "fail"
    assert grade_run(task, outcome(values={"recommendation": "improve the model", "n_rows": 78})).verdict == "fail"


def test_find_value_reads_paths_nested_results_and_sibling_uncertainties() -> None:
    values = {"Omega_m": {"mean": 0.33, "std": 0.018, "lower_95": 0.297}, "w0": -0.9, "w0_err": 0.2,
              "files": {"data/a.csv": {"n_rows": 10}}}
    assert find_value(values, ["omega_m_lower_95"])[1] == 0.297  # type: ignore[index]
    assert find_value(values, ["w", "w0"])[1:] == (-0.9, 0.2)  # type: ignore[index]
    assert find_value(values, ["n_rows"])[1] == 10  # type: ignore[index]
    assert find_value(values, ["h0"]) is None


def test_files_and_figure_properties_from_the_figure_probe(tmp_path: Path) -> None:
    run = tmp_path / "run"
    (run / "figures").mkdir(parents=True)
    (run / ".cmbagent").mkdir()
    (run / "figures" / "hubble_diagram.png").write_bytes(b"\x89PNG")
    axes = {"xlabel": "Redshift z", "ylabel": "Distance modulus", "series": 2, "legend": True}
    record = {"path": str(run / "figures" / "hubble_diagram.png"), "axes": [axes], "figure_legend": False}
    (run / ".cmbagent" / "figures.jsonl").write_text(json.dumps(record) + "\n")
    task = grader(tmp_path, "  - figure: 'figures/**/*hubble*.png'\n    xlabel: 'redshift'\n    ylabel: 'modul'\n"
                            "    min_series: 2\n    legend: true\n  - files: ['figures/*.png']\n", kind="code")
    from cmbagent.eval import read_outcome

    (run / "run.json").write_text(json.dumps({"status": "done", "config": {"model": "openai:gpt-4.1"}}))
    done = read_outcome(run, mode="pc", status="done")  # the figures as the probe logged them in the run
    assert done.figures == [record] and not done.offline
    assert grade_run(task, done).verdict == "pass"
    unlabeled = outcome(run_dir=str(run), figures=[{**record, "axes": [{**axes, "xlabel": "", "legend": False}]}])
    bad = grade_run(task, unlabeled)
    assert bad.verdict == "fail" and "xlabel" in bad.why and "a legend" in bad.why
    (run / "figures" / "hubble_diagram.png").unlink()  # the probe saw it, but the file is gone
    assert grade_run(task, done).verdict == "fail"


def test_findings_apply_to_graph_runs_only(tmp_path: Path) -> None:
    task = grader(tmp_path, "  - findings: {must: [fit.chi2_low], must_not: [sampler.not_converged]}\n"
                            "  - value: x\n    expected: 1\n    tolerance: {abs: 0.1}\n")
    assert grade_run(task, outcome(values={"x": 1}, findings=["fit.chi2_low"])).verdict == "pass"
    assert grade_run(task, outcome(values={"x": 1}, findings=[])).verdict == "fail"
    assert grade_run(task, outcome(values={"x": 1}, findings=["fit.chi2_low", "sampler.not_converged"])).verdict == "fail"
    one_shot = grade_run(task, outcome(mode="one-shot", values={"x": 1}, findings=None))
    assert one_shot.verdict == "pass" and one_shot.checks[0].result == "n/a"


def test_status(tmp_path: Path) -> None:
    task = grader(tmp_path, "  - status: [done]\n")
    assert grade_run(task, outcome(status="done")).verdict == "pass"
    assert grade_run(task, outcome(status="failed")).verdict == "fail"
    stopped = grade_run(task, outcome(status="budget_exhausted", stopped_by_eval=True, error="not started"))
    assert stopped.verdict == "not_run" and "total budget" in stopped.why
    own = grade_run(task, outcome(status="budget_exhausted", error="the run's 600 s are spent"))  # its own limit
    assert own.verdict == "fail" and "its own budget or time limit" in own.why


SAYS = """  - says: ['\\bdebt', '(?:\\bno\\b|\\bnot\\b|missing|cannot)']
  - no_value: [debt_effect, ate]
"""


def test_a_task_that_cannot_be_done_is_passed_by_saying_so(tmp_path: Path) -> None:
    task = grader(tmp_path, SAYS, kind="impossible")
    asked = "Estimate the effect of eligibility on household debt. Do not use the column p401."
    said = outcome(text="The table has no column for debt, so the effect cannot be estimated.", task_text=asked)
    assert grade_run(task, said).verdict == "pass"
    # the task's own words, quoted back in the report, are not the run saying anything
    echo = outcome(text="Estimate the effect of eligibility on household debt. Do not use the column p401.",
                   task_text=asked)
    assert grade_run(task, echo).verdict == "fail"
    # nor is a question that quotes the task inside a sentence of its own (the offline reader's TaskUnclear
    # once passed i06 on “- the task states folds 5 (“Keep only the benign tumours …”), which no argument …”)
    quoted = outcome(text="- the task states 5 (“effect of eligibility on household debt”), which no argument takes;",
                     task_text=asked, status="failed", error="TaskUnclear: ...")
    assert grade_run(task, quoted).verdict == "fail"
    cited = outcome(text="The column “debt” is not in the table, so it cannot be estimated.", task_text=asked)
    assert grade_run(task, cited).verdict == "pass"  # a short quotation of the run's own is still its words
    substituted = outcome(text="There is no debt column; we used net_tfa instead.", values={"ate": 5000.0},
                          task_text=asked)
    result = grade_run(task, substituted)
    assert result.verdict == "fail" and "reported ate" in result.why


def test_the_offline_backend_is_not_failed_for_what_needs_a_model(tmp_path: Path) -> None:
    code = grader(tmp_path, "  - value: n\n    expected: 43\n    tolerance: {abs: 0}\n", kind="code")
    offline = grade_run(code, outcome(values={"n_rows": 1701}, offline=True))
    assert offline.verdict == "needs_model" and "writes no analysis code" in offline.why
    assert grade_run(code, outcome(values={"n": 43}, offline=True)).verdict == "pass"
    method = grader(tmp_path, "  - value: n\n    expected: 43\n    tolerance: {abs: 0}\n")
    assert grade_run(method, outcome(values={"n": 40}, offline=True)).verdict == "fail"
    refused = outcome(status="failed", offline=True, error="TaskError: the offline backend could not map this task")
    assert grade_run(method, refused).verdict == "needs_model"
    asked = outcome(status="failed", offline=True, error="TaskUnclear: this task could be answered by more than one")
    offline_asked = grade_run(method, asked)
    assert "asked instead of guessing" in offline_asked.why and offline_asked.asked
    model_asked = outcome(status="failed", offline=False, error="TaskUnclear: this task could be answered by more")
    assert grade_run(method, model_asked).verdict == "fail"  # a language model that asks has not answered
    # asking is counted apart, per mode and per kind, and never raises a kind's pass rate
    from cmbagent.eval._report import _mode_summary

    grades = [offline_asked, grade_run(method, outcome(values={"n": 43}, offline=True)), offline,
              grade_run(method, refused)]
    summary = _mode_summary(grades)
    assert summary["asked"] == 1 and summary["by_kind"]["method"]["asked"] == 1
    assert summary["by_kind"]["method"]["graded"] == 3 and summary["by_kind"]["method"]["pass"] == 1
    assert summary["by_kind"]["code"]["asked"] == 0 and not grade_run(method, refused).asked


def test_a_rubric_only_fails_a_pass_and_is_off_by_default(tmp_path: Path) -> None:
    task = grader(tmp_path, "  - value: x\n    expected: 1\n    tolerance: {abs: 0.1}\n"
                            "  - rubric: The answer names the model it preferred.\n")
    good = outcome(values={"x": 1.0}, text="flat LCDM is preferred")
    off = grade_run(task, good)
    assert off.verdict == "pass" and off.checks[-1].result == "n/a"
    asked: list[str] = []

    def judge(rubric: str, run: RunOutcome) -> tuple[bool, str]:
        asked.append(rubric)
        return "preferred" in run.text, "quoted"

    assert grade_run(task, good, judge=judge).verdict == "pass"
    assert grade_run(task, outcome(values={"x": 1.0}, text="no comment"), judge=judge).verdict == "fail"
    wrong = grade_run(task, outcome(values={"x": 2.0}, text="preferred"), judge=judge)  # the number decides
    assert wrong.verdict == "fail" and wrong.checks[-1].result == "n/a"
    assert len(asked) == 2


def test_the_rubric_judge_asks_a_model_with_a_closed_verdict(tmp_path: Path) -> None:
    from cmbagent.eval._judge import RubricVerdict, model_judge
    from cmbagent.models import ScriptedModel

    model = ScriptedModel([RubricVerdict(passed=False, reason="it names no model")])
    judge = model_judge("scripted", models={"scripted": model}, transcript=tmp_path / "judge.jsonl")
    ok, why = judge("The answer names the model it preferred.", outcome(text="Omega_m = 0.3"))
    assert (ok, why) == (False, "it names no model")
    request = model.requests[0]
    assert request.output_schema is not None and "Omega_m = 0.3" in str(request.messages[-1].content)
    assert (tmp_path / "judge.jsonl").is_file()
    with pytest.raises(UserError, match="language model"):
        model_judge("offline")


@pytest.mark.parametrize(("text", "message"), [
    ("  - rubric: Is it good?\n", "never the only grader"),
    ("  - value: x\n    expected: 1.5\n", "needs a `tolerance:`"),
    ("  - value: x\n    expected: 1\n    tolerance: {abs: 1, rel: 0.1}\n", "exactly one of"),
    ("  - says: ['(unclosed']\n", "not a valid regular expression"),
    ("  - value: x\n    files: [a]\n    expected: 1\n    tolerance: {abs: 1}\n", "exactly one of value"),
])
def test_graders_that_are_refused(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(UserError, match=message.replace("`", ".")):
        grader(tmp_path, text)
