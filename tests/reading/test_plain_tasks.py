"""Tasks as people write them (issue 29): plain prose, no front matter, data the examples never use.

Each case is one of the failures a new user met — a causal question in ordinary words that mapped to no
method, a covariance file the text names that the fit never read (and a checklist that could not notice), a
prior the task asked for that failed the run, an unconstrained parameter that failed the run, a classifier's
table that never reached the method — now run end to end with the offline backend, with its answer checked
against the truth the data were made with (``_make.py``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cmbagent.api import solve
from cmbagent.exceptions import TaskUnclear
from cmbagent.sandbox import InMemoryExecutor
from tests.reading import _make

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning",
                                                            "ignore::RuntimeWarning")]


def _task(folder: Path, text: str, *makers: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for make in makers:
        make(folder)
    path = folder / "task.md"
    path.write_text(text, encoding="utf-8")
    return path


def _run(task: Path, tmp_path: Path) -> Any:
    return solve(task, workspace=tmp_path / "ws", executor=InMemoryExecutor)


def _method_step(result: Any) -> dict[str, Any]:
    return next(s for s in result.steps if s["agent"] == "method_operator")


def _arguments(result: Any) -> dict[str, Any]:
    """The method call as it ran (the arguments the cell passed, from the step's result record)."""
    step = json.loads((result.run_dir / _method_step(result)["dir"] / "step.json").read_text())
    return dict(step["method"]["arguments"])


def _findings(result: Any) -> list[dict[str, Any]]:
    return list(json.loads((result.run_dir / "run.json").read_text())["findings"])


def test_a_programme_effect_adjusting_for_background_in_ordinary_words(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", "# Was the training worth it?\n\nIn `programme.csv` each row is a person; those "
                 "with `enrolled` = 1 took our job-training programme. What did the programme do to 2022 earnings "
                 "(`earn22`)? Please adjust for age, years of schooling, marital status, having no diploma and "
                 "earnings in 2019 and 2020, and give a 95% interval.\n", _make.programme)
    result = _run(task, tmp_path)
    assert result.status == "done", result.error
    assert _method_step(result)["status"] == "done"
    arguments = _arguments(result)
    assert (arguments["treatment"], arguments["outcome"]) == ("enrolled", "earn22")
    assert set(arguments["covariates"]) == {"age", "school", "married", "nodiploma", "earn19", "earn20"}
    ate = result.values["ate"]
    assert abs(ate["mean"] - 1200.0) < 3.5 * ate["std"], ate  # the effect the data were made with


def test_an_average_effect_with_an_interval_in_a_question(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", "How much does tutoring raise the maths score on average? I'd like an interval "
                 "as well. The pupils are in tutoring.csv.\n", _make.tutoring)
    result = _run(task, tmp_path)
    assert result.status == "done", result.error
    arguments = _arguments(result)
    assert (arguments["treatment"], arguments["outcome"]) == ("tutored", "maths_score")
    ate = result.values["ate"]
    assert abs(ate["mean"] - 4.0) < 3.5 * ate["std"], ate


SN_TASK = ("# w and the matter density\n\nThe binned Hubble diagram is in `hubble_bins.csv` (redshift, distance "
           "modulus and its statistical error). The systematic covariance of those bins is in `hubble_cov.txt`. "
           "Constrain a constant dark-energy equation of state w together with Ω_m, using that covariance.\n")


def test_a_covariance_the_text_names_is_the_fits_covariance(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", SN_TASK, _make.hubble_bins)
    result = _run(task, tmp_path)
    assert result.status == "done", result.error
    arguments = _arguments(result)
    assert arguments["covariance"] == "data/hubble_cov.txt" and arguments["model"] == "wcdm"
    checklist = json.loads((result.run_dir / "requirements.json").read_text())
    files = {i["requirement"]["file"]: (i["requirement"]["role"], i["met"]) for i in checklist["items"]
             if i["requirement"]["kind"] == "file"}
    assert files == {"data/hubble_bins.csv": ("data", True), "data/hubble_cov.txt": ("covariance", True)}


def test_front_matter_that_contradicts_the_text_is_a_question(tmp_path: Path) -> None:
    """The front matter pins the covariance away while the text names one: the reading does not run on either."""
    text = "---\nmethod: cosmology.fit_supernovae\narguments: {data: hubble_bins.csv, covariance: null}\n---\n" + SN_TASK
    task = _task(tmp_path / "t", text, _make.hubble_bins)
    with pytest.raises(TaskUnclear, match=r"hubble_cov\.txt"):
        _run(task, tmp_path)


def test_a_fit_that_leaves_out_the_named_covariance_is_unmet_and_says_so_first(tmp_path: Path) -> None:
    """A model's plan runs the fit without the covariance the text names (with the method named in front matter
    and no arguments, file arguments are the model's to fill; a sure reading of prose alone fixes them, see
    tests/planner/test_sure_reading_pins_the_method.py); the checklist's own reading of the text still expects
    `hubble_cov.txt` as the covariance, so the run cannot end `done`, and its first lines say why."""
    from cmbagent.state import MethodCall, PlanDraft, StepDraft
    from tests.planner._support import brain

    def planner(request: Any) -> PlanDraft:
        call = MethodCall(name="cosmology.fit_supernovae", arguments={"data": "data/hubble_bins.csv", "model": "wcdm"})
        return PlanDraft(steps=[StepDraft(title="Fit", agent="method_operator", goal="Fit w and the matter density.",
                                          method=call, acceptance_criteria=["the fit converged"])])

    task = _task(tmp_path / "t", "---\nmethod: cosmology.fit_supernovae\n---\n" + SN_TASK, _make.hubble_bins)
    result = solve(task, workspace=tmp_path / "ws", model="offline", agent_models={"planner": "scripted"},
                   models={"scripted": brain(planner=planner)}, executor=InMemoryExecutor, n_reviews=0)
    assert _method_step(result)["status"] == "done"
    assert result.status == "unmet", result.error
    unmet = [f for f in _findings(result) if f["code"] == "task.requirement_unmet" and f["severity"] == "error"]
    assert any("hubble_cov.txt" in f["message"] and "covariance" in f["message"] for f in unmet), unmet
    report = (result.run_dir / "report.md").read_text()
    top = report.split("## Answer")[0]
    assert "status **unmet**" in top and "hubble_cov.txt" in top


def test_a_prior_the_task_names_is_answered_not_failed(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", "# How much do these supernovae add?\n\nAnother experiment measured the matter "
                 "density as Ω_m = 0.310 ± 0.008. Use that as a Gaussian prior and fit a flat ΛCDM model to the "
                 "binned distance moduli in `few_bins.txt` (their covariance is `few_bins_cov.txt`). How much do the "
                 "supernovae add beyond that prior?\n", _make.few_bins)
    result = _run(task, tmp_path)
    assert result.status == "done", result.error
    assert _arguments(result)["priors"] == {"Omega_m": {"mean": 0.31, "std": 0.008}}
    prior = [f for f in _findings(result) if f["code"] in ("param.prior_dominated", "param.prior_shift")]
    assert prior and all(f["asked"] and f["severity"] != "error" for f in prior), prior
    answer = (result.run_dir / "report.md").read_text().split("## Findings")[0]
    assert "the data alone give" in answer and "narrow the prior" in answer


def test_an_unconstrained_parameter_is_a_result_with_its_range(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", "Ten binned distance moduli are in few_bins.txt, with their covariance in "
                 "few_bins_cov.txt. Is there any sign of evolving dark energy? Fit w0 and wa (flat universe) and "
                 "tell me what these data say about each.\n", _make.few_bins)
    result = _run(task, tmp_path)
    assert result.status == "done", result.error
    assert _arguments(result)["model"] == "w0wacdm"
    findings = _findings(result)
    assert not [f for f in findings if f["severity"] == "error"], findings
    wa = [f for f in findings if f["code"] == "param.unconstrained" and f["evidence"]["parameter"] == "wa"]
    assert wa, findings
    answer = (result.run_dir / "report.md").read_text().split("## Findings")[0]
    assert "wa is not constrained by these data" in answer and "[-3, 2]" in answer
    assert "wa = " not in answer  # its mean is never quoted as a measurement


def test_distances_to_a_decision_boundary_read_the_named_table(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", "How far from the decision boundary of a logistic regression are the wafers in "
                 "`wafers.csv`? The column `defective` says which are bad.\n", _make.wafers)
    result = _run(task, tmp_path)
    assert result.status == "done", result.error
    arguments = _arguments(result)
    assert arguments["data"] == "data/wafers.csv" and arguments["label_column"] == "defective"
    assert arguments["model"] == "logistic"


def test_a_task_that_fits_two_methods_is_a_question_with_the_front_matter_of_each(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", "Give me the posterior of the regression weights for regression.csv.\n",
                 lambda folder: shutil.copy(Path(__file__).resolve().parents[2] / "examples" / "data" / "bayes" /
                                            "regression.csv", folder / "regression.csv"))
    with pytest.raises(TaskUnclear) as raised:
        _run(task, tmp_path)
    assert len(raised.value.choices) >= 2
    assert all(c["front_matter"].startswith("---\nmethod: ") for c in raised.value.choices)
    assert not (tmp_path / "ws").exists() or not any((tmp_path / "ws").iterdir())


def test_a_task_that_needs_no_method_is_not_mapped_to_one(tmp_path: Path) -> None:
    task = _task(tmp_path / "t", "Plot a histogram of the 2022 earnings in programme.csv and give their median.\n",
                 _make.programme)
    with pytest.raises(TaskUnclear) as raised:
        _run(task, tmp_path)
    assert "could not map this task to a method tool" in str(raised.value)


def test_with_approve_plan_the_mapping_is_shown_with_its_confidences(tmp_path: Path) -> None:
    from cmbagent.report import reading_lines
    from cmbagent.ui._tasks import chat_messages
    from cmbagent.ui._view import RunView

    task = _task(tmp_path / "t", SN_TASK, _make.hubble_bins)
    result = solve(task, workspace=tmp_path / "ws", executor=InMemoryExecutor, approve_plan=True)
    assert result.status == "awaiting_approval"
    understanding = json.loads((result.run_dir / "run.json").read_text())["understanding"]
    assert understanding["method"] == "cosmology.fit_supernovae"
    assert understanding["arguments"]["covariance"]["value"] == "data/hubble_cov.txt"
    lines = reading_lines(understanding)
    assert lines[0].startswith("method cosmology.fit_supernovae (chosen by meaning, words and data")
    assert any(line.startswith("covariance = data/hubble_cov.txt (") and "%" in line for line in lines)
    said = chat_messages(RunView(run_id=result.run_id), "awaiting_approval", "t", None, lines)
    assert any("how I read the task" in m["content"] and "hubble_cov.txt" in m["content"] for m in said)
