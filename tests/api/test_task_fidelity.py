"""What the user asked is what runs (issue 14): the offline backend reads the model, priors, label column,
counts, data files and columns from a task's prose; every explicit requirement is checked at the end."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import OfflineModel, TaskBrief, TaskContext
from cmbagent.models import ModelRequest
from cmbagent.report import check_requirements
from cmbagent.state import REQUIREMENT_UNMET, Requirement, Severity, StepRecord, StepStatus
from cmbagent.task import parse_task

ROOT = Path(__file__).resolve().parents[2]
SN = ROOT / "examples" / "data" / "sn"
IHDP = ROOT / "examples" / "data" / "causal" / "ihdp_npci_1.csv"
IHDP_COLUMNS = ["treatment", "y_factual", "y_cfactual", "mu0", "mu1"] + [f"x{i}" for i in range(1, 26)]


def brief(text: str, data_files: list[str], columns: dict[str, list[str]] | None = None, **extra: Any) -> TaskBrief:
    """The offline task analyst's brief, asked the way the graph asks it (a typed context)."""
    context = TaskContext(title="task", text=text, data_files=data_files, columns=columns or {}, **extra)
    request = ModelRequest(messages=[], output_schema=TaskBrief, agent="task_analyst", context=context)
    output = OfflineModel().request(request).output
    assert isinstance(output, TaskBrief)
    return output


@pytest.mark.parametrize(("text", "model"), [
    ("Fit flat LCDM to the supernovae.", "flat_lcdm"),
    ("Fit a flat ΛCDM model to the supernovae.", "flat_lcdm"),
    ("Fit the supernovae with model: flat_lcdm.", "flat_lcdm"),
    ("Fit ΛCDM to the supernovae.", "flat_lcdm"),
    ("Fit curved ΛCDM to the supernovae.", "lcdm"),
    ("Fit the supernovae without assuming flatness: a non-flat ΛCDM.", "lcdm"),
    ("Fit wCDM with w free to the supernovae.", "wcdm"),
])
def test_the_model_named_in_prose_is_the_model_fitted(text: str, model: str) -> None:
    result = brief(text, ["data/sn.dat"])
    assert result.method == "cosmology.fit_supernovae"
    assert result.arguments["model"] == model
    item = next(r for r in result.requirements if r.argument == "model")
    assert item.value == model and item.source == "text" and item.id.startswith("r")


def test_a_gaussian_prior_in_prose_is_passed_and_checked() -> None:
    result = brief("Fit flat LCDM to the supernovae with a Gaussian prior Ω_m = 0.30 ± 0.02.", ["data/sn.dat"])
    assert result.arguments["priors"] == {"Omega_m": {"mean": 0.30, "std": 0.02}}
    prior = next(r for r in result.requirements if r.argument == "priors")
    # a run that dropped the prior (priors: null) contradicts the task: an error finding on its step
    dropped = StepRecord(id="s2", status=StepStatus.DONE, method="cosmology.fit_supernovae",
                         arguments={"data": "data/sn.dat", "model": "flat_lcdm", "priors": None})
    [check] = check_requirements([prior], {"s2": dropped}, delivered="6 of 6 checks passed")
    finding = check.finding()
    assert check.met is False and finding is not None
    assert (finding.code, finding.severity, finding.step_id) == (REQUIREMENT_UNMET, Severity.ERROR, "s2")
    assert "priors = None" in finding.message or "priors = None" in check.evidence
    kept = dropped.model_copy(update={"arguments": {**dropped.arguments, "priors": result.arguments["priors"]}})
    assert check_requirements([prior], {"s2": kept}, delivered="")[0].met is True


def test_an_anomaly_label_column_and_label_count_in_prose() -> None:
    columns = {"data/machines.csv": [f"f{i}" for i in range(21)] + ["fault"]}
    result = brief("Find the anomalous machines in `machines.csv`. The column `fault` marks the anomalies; only 5 "
                   "of them are labeled. Say which method ranks them best by AUC-PR.",
                   ["data/machines.csv"], columns, method="anomaly.wsad_dt")
    assert result.arguments["label"] == "fault" and result.arguments["n_labeled"] == 5
    best = next(r for r in result.requirements if r.kind == "output")
    assert (best.output, best.quantity) == ("best", "auc_pr")
    values = {"wsad_dt": {"auc_pr": 0.71, "auc_roc": 0.9}, "iforest": {"auc_pr": 0.66, "auc_roc": 0.93}}
    record = StepRecord(id="s2", status=StepStatus.DONE, method="anomaly.wsad_dt", values=values)
    assert check_requirements([best], {"s2": record}, "Best by auc_pr: wsad_dt (0.71).")[0].met is True
    wrong = check_requirements([best], {"s2": record}, "IForest is the best method here.")[0]
    assert wrong.met is False and wrong.severity == "error" and "wsad_dt" in wrong.evidence
    missing = check_requirements([best], {"s2": record}, "We ran two methods.")[0]
    assert missing.met is False and missing.severity == "warning"


def test_a_requested_difference_is_delivered_by_the_offline_reporter_and_checked() -> None:
    requirement = Requirement(id="r1", kind="output", text="Report the error |ATE − 4.016|.",
                              output="abs_difference", quantity="ATE", reference=4.016)
    record = StepRecord(id="s2", status=StepStatus.DONE, method="causal.dml_ate",
                        values={"ate": {"mean": 4.013, "std": 0.101}})
    assert check_requirements([requirement], {"s2": record}, "|ate − 4.016| = 0.003, as the task asks.")[0].met
    unmet = check_requirements([requirement], {"s2": record}, "ATE = 4.013 ± 0.101")[0]
    assert unmet.met is False and unmet.severity == "warning" and "0.003" in unmet.evidence


def _copy_task(tmp_path: Path, text: str, *names: Path) -> Path:
    for name in names:
        shutil.copy(name, tmp_path / name.name)
    task = tmp_path / "task.md"
    task.write_text(text)
    return task


def test_data_path_and_columns_written_only_in_the_text(tmp_path: Path) -> None:
    task_file = _copy_task(tmp_path, "Estimate the average treatment effect of `treatment` on the outcome "
                           "`y_factual` in `ihdp_npci_1.csv`, adjusting for the covariates x1–x25 (the columns mu0, "
                           "mu1 and y_cfactual must not be used as covariates). Report the error |ATE − 4.016|.\n",
                           IHDP)
    task = parse_task(task_file.read_text(), base=tmp_path)
    assert task.data_files == ["data/ihdp_npci_1.csv"]  # the file the prose names is an input of the run
    assert task.files["data/ihdp_npci_1.csv"] == (tmp_path / IHDP.name).resolve()
    result = brief(task.text, task.data_files, {"data/ihdp_npci_1.csv": IHDP_COLUMNS})
    args = result.arguments
    assert result.method == "causal.dml_ate"
    assert (args["data"], args["outcome"], args["treatment"]) == ("data/ihdp_npci_1.csv", "y_factual", "treatment")
    assert args["covariates"] == [f"x{i}" for i in range(1, 26)]
    excluded = next(r for r in result.requirements if r.relation == "excludes")
    assert set(excluded.value) == {"mu0", "mu1", "y_cfactual"}
    assert any(r.output == "abs_difference" and r.reference == 4.016 for r in result.requirements)


def test_a_text_the_offline_backend_cannot_map_names_the_front_matter_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cmbagent.cli import app

    task = _copy_task(tmp_path, "Estimate the average treatment effect in `ihdp_npci_1.csv`.\n", IHDP)
    ws = tmp_path / "ws"
    out = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(ws)])
    assert out.exit_code == 2, out.output
    assert "nothing was started" in out.output and "add `outcome: <column>" in out.output
    assert "columns of data/ihdp_npci_1.csv: treatment, y_factual" in out.output
    # what the data settle is read, and shown in the front matter the person can copy: the 0/1 column
    # named `treatment`; the outcome (y_factual? mu1?) is left to the person, not guessed
    assert "treatment: treatment" in out.output and "outcome: y_factual" not in out.output
    assert not ws.exists() or not any(ws.iterdir())


@pytest.mark.parametrize(("arguments", "expected"), [
    ("{data: jla_mub.txt, n_walker: 64}", ["has no argument 'n_walker'; did you mean 'n_walkers'?"]),
    ("{data: jla_mub.txt, n_walkers: many, model: flat}",
     ["argument 'n_walkers' of cosmology.fit_supernovae: Input should be a valid integer",
      "argument 'model' of cosmology.fit_supernovae: Input should be 'flat_lcdm', 'lcdm', 'wcdm' or 'w0wacdm'"]),
])
def test_bad_method_arguments_stop_before_a_run_folder_exists(tmp_path: Path, arguments: str,
                                                              expected: list[str]) -> None:
    from typer.testing import CliRunner

    from cmbagent.cli import app

    task = _copy_task(tmp_path, f"---\nmethod: cosmology.fit_supernovae\narguments: {arguments}\n---\nFit it.\n",
                      SN / "jla_mub.txt")
    ws = tmp_path / "ws"
    out = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(ws), "--model", "openai:gpt-4.1"],
                             env={"OPENAI_API_KEY": "sk-test-not-used"})
    assert out.exit_code == 2, out.output
    for line in expected:
        assert line in out.output
    assert not ws.exists() or not any(ws.iterdir())


@pytest.mark.slow
def test_a_prose_task_runs_as_asked_and_replays_strictly(tmp_path: Path) -> None:
    """A new user's JLA task in prose: flat ΛCDM, the covariance and a Gaussian prior, all from the text; the
    checklist is met, the report says so, and the recorded run replays with no divergence."""
    from cmbagent.api import replay, solve
    from cmbagent.sandbox import InMemoryExecutor

    task = _copy_task(tmp_path, "Fit flat LCDM to the binned JLA distances in `jla_mub.txt` with their covariance "
                      "`jla_mub_covmatrix.txt`, with a Gaussian prior Ω_m = 0.30 ± 0.02, and plot the Hubble "
                      "diagram.\n", SN / "jla_mub.txt", SN / "jla_mub_covmatrix.txt")
    result = solve(task, workspace=tmp_path / "ws", executor=InMemoryExecutor)
    assert result.status == "done", result.error
    run = result.run_dir
    checklist = json.loads((run / "requirements.json").read_text())
    labels = {item["requirement"]["argument"] or item["requirement"]["output"]: item["met"]
              for item in checklist["items"] if item["requirement"]["kind"] in ("argument", "output")}
    assert labels == {"model": True, "priors": True, "data": True, "covariance": True, "figure": True}
    # the checklist's own reading: both files in their roles, the prior's numbers, the model's words
    rules = {(r["kind"], r.get("file") or r.get("quantity"), r.get("role") or str(r.get("value"))): item["met"]
             for item in checklist["items"] if (r := item["requirement"])["source"] == "rule"}
    assert rules == {("file", "data/jla_mub.txt", "data"): True, ("file", "data/jla_mub_covmatrix.txt", "covariance"):
                     True, ("number", "prior", "0.3"): True, ("number", "prior", "0.02"): True,
                     ("word", "model", "flat LCDM"): True}
    assert result.values["Omega_m"]["std"] == pytest.approx(0.0172, rel=0.15)
    report = (run / "report.md").read_text()
    total = len(checklist["items"])
    assert "## Task requirements" in report and f"{total} of {total} met" in report
    # the prior N(0.30, 0.02) carries most of the posterior's precision (the binned JLA data alone: ±0.031):
    # the task asked for this prior, so a note that says so and gives the data-only value, never an error
    [finding] = json.loads((run / "run.json").read_text())["findings"]
    assert (finding["code"], finding["severity"], finding["asked"]) == ("param.prior_dominated", "note", True)
    assert finding["evidence"]["data_alone"][1] == pytest.approx(0.031, abs=0.004)
    replayed, comparison = replay(run, workspace=tmp_path / "replays", executor=InMemoryExecutor)
    assert replayed.status == "done", replayed.error
    assert comparison["identical"], comparison


def test_a_named_file_read_among_a_list_arguments_files_is_read_in_its_role() -> None:
    """Two chains of one run: the second goes to ``more_chains`` (a list of chains).  The checklist's rule that each
    named chain is read as a chain took only a single-file argument as reading it, so a run that pooled both chains,
    as asked, ended ``unmet``; a file in a list argument of the same role is read, one of another role is not."""
    second = Requirement(id="r5", kind="file", text="lens_chain_2.txt", file="data/lens_chain_2.txt", role="chain")
    record = StepRecord(id="s2", status=StepStatus.DONE, method="cosmology.summarize_chain",
                        arguments={"chain": "data/lens_chain_1.txt", "more_chains": ["data/lens_chain_2.txt"],
                                   "burn_in_fraction": 0.3})
    check = check_requirements([second], {"s2": record}, delivered="")[0]
    assert check.met is True and "more_chains" in check.evidence, check.evidence
    alone = record.model_copy(update={"arguments": {"chain": "data/lens_chain_1.txt"}})
    unread = check_requirements([second], {"s2": alone}, delivered="")[0]
    assert unread.met is False and unread.severity == "error"
