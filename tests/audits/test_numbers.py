"""report.unsupported_number: every number of a narrative must come from the run (code, not a model call)."""

from __future__ import annotations

from cmbagent.audits import audit_run, run_evidence
from cmbagent.audits._numbers import Support, numbers_in
from cmbagent.state import CheckResult, Citation, ReportDraft, StepRecord, TaskSpec

STEP = StepRecord(id="s2", title="fit", status="done", summary="Omega_m = 0.351 ± 0.019 from 1590 SNe.",
                  values={"Omega_m": {"mean": 0.35123, "std": 0.01873}, "chi2": 697.296, "dof": 1588,
                          "ate": {"mean": 8864.73, "std": 1346.2}, "share": 0.0734},
                  checks=[CheckResult(name="goodness_of_fit", passed=False, message="chi2/dof = 0.439, p = 1")])
TASK = TaskSpec(text="Published: Omega_m = 0.334 ± 0.018 (Brout et al. 2022, ApJ 938, 110).", title="t")


def _audit(summary: str, *conclusions: str) -> list[str]:
    draft = ReportDraft(title="t", summary=summary, conclusions=list(conclusions))
    return [f.evidence["number"] for f in audit_run(run_evidence(None, draft=draft, steps=[STEP], task=TASK)).findings
            if f.code == "report.unsupported_number"]


def test_numbers_rounded_from_results_outputs_and_the_task_are_supported() -> None:
    assert _audit("Omega_m = 0.3512 ± 0.019 (χ² = 697.3 for 1588 dof, χ²/dof = 0.439); ATE 8865 ± 1346 US$, "
                  "7.3% of units; published 0.334 ± 0.018 (ApJ 938, 110), 3 of 6 checks in 2022.") == []


def test_an_invented_number_is_found_with_its_sentence() -> None:
    found = audit_run(run_evidence(None, draft=ReportDraft(title="t", summary="We find H0 = 73.9 ± 1.1 km/s/Mpc."),
                                   steps=[STEP], task=TASK)).findings
    found = [f for f in found if f.code == "report.unsupported_number"]
    assert [f.evidence["number"] for f in found] == ["73.9", "1.1"]
    assert found[0].code == "report.unsupported_number" and found[0].severity == "error" and found[0].step_id is None
    assert "H0 = 73.9" in found[0].message
    assert _audit("Fine.", "Omega_m = 0.42 ± 0.01 in the conclusions.") == ["0.42"]


def test_numbers_in_names_are_not_numbers() -> None:
    assert [raw for raw, *_ in numbers_in("Union2.1, H0, s2, 6_cardio, w0waCDM, ΛCDM, 1e-3 and −19.3")] == \
        ["1e-3", "−19.3"]
    support = Support([0.0012])
    assert support.supports(1.2e-3, 4, False) and not support.supports(1.3e-3, 4, False)


def test_the_keys_of_a_table_keyed_by_numbers_are_supported() -> None:
    step = StepRecord(id="s1", title="nolima", status="done", values={"bm25_latent": {"250": 9.615, "500": 0.4808}})
    draft = ReportDraft(title="t", summary="BM25 scores {250: 9.615, 500: 0.4808} by context length; 750 is new.")
    found = audit_run(run_evidence(None, draft=draft, steps=[step], task=TASK)).findings
    assert [f.evidence["number"] for f in found] == ["750"]


def test_numbers_quoted_by_a_resolved_citation_are_supported_and_others_are_not() -> None:
    from cmbagent.audits import audit_step
    from tests.audits._evidence import evidence

    quote = "the Pantheon+ analysis finds Omega_m = 0.334 +- 0.018 in flat LCDM"
    cited = StepRecord(id="s3", title="literature", status="done",
                       citations=[Citation(chunk_id="c1", quote=quote, source="notes.md", locator="lines 8-10")])
    answer = "The literature gives 0.334 ± 0.018 [1]; a scatter of 0.17 mag is typical."
    found = audit_step(evidence(step_id="s4", answer=answer, earlier=[cited])).findings
    assert [f.evidence["number"] for f in found if f.code == "report.unsupported_number"] == ["0.17"]
    own = audit_step(evidence(step_id="s3", answer=answer, quotes=[quote])).findings
    assert [f.evidence["number"] for f in own if f.code == "report.unsupported_number"] == ["0.17"]
    draft = ReportDraft(title="t", summary="Our 0.351 sits above the cited 0.334 ± 0.018 [1], not 0.300.")
    run = audit_run(run_evidence(None, draft=draft, steps=[STEP, cited], task=TaskSpec(text="t", title="t")))
    assert [f.evidence["number"] for f in run.findings] == ["0.300"]


def test_the_distance_of_a_result_from_a_number_of_the_task_is_supported() -> None:
    # Omega_m 0.35123 against the task's 0.334: |difference| = 0.01723; a wrong difference is still found
    assert _audit("|Omega_m − 0.334| = 0.01723, as the task asks.") == []
    assert _audit("|Omega_m − 0.334| = 0.0231.") == ["0.0231"]
    # the distance is measured from the task's numbers only, never between two of the run's own values
    assert _audit("chi2 − dof = 109.296.") == ["109.296"]


def _answer(summary: str, steps: list[StepRecord] | None = None) -> list[str]:
    draft = ReportDraft(title="t", summary=summary)
    found = audit_run(run_evidence(None, draft=draft, steps=[STEP] if steps is None else steps, task=TASK)).findings
    return [f.message for f in found if f.code == "report.answer_missing"]


def test_a_summary_must_state_a_result_by_name_or_number() -> None:
    assert _answer("We find omega_m close to the published value.") == []  # by name (case aside)
    assert _answer("The matter density is 0.351 ± 0.019.") == []  # by its number, rounded as written
    assert _answer("The fit's χ² is 697.3.") == []
    degenerate = "Checking the method applied to " * 30
    [message] = _answer(degenerate)
    assert "none of the run's results (Omega_m, chi2, dof, ate, share)" in message
    assert _answer("The run went well; 3 checks of 6 ran in 2022.")  # small integers and years answer nothing
    # a run with no completed numbers has nothing to state
    text_only = StepRecord(id="s1", title="interpret", status="done", values={"answer": "prose"})
    assert _answer("An interpretation.", steps=[text_only]) == []
    assert _answer("Stopped.", steps=[STEP.model_copy(update={"status": "failed"})]) == []


def test_a_timing_supports_itself_but_no_percentage(tmp_path) -> None:
    """A method's wall-clock seconds change from run to run: a sampler that took 0.7391 s under load once made an
    invented "H0 = 73.9" look like a percentage of it, and the pathology suite's invented number went unflagged."""
    import json

    step_dir = tmp_path / "steps" / "02-fit"
    (step_dir / "outputs").mkdir(parents=True)
    (step_dir / "outputs" / "result.json").write_text(json.dumps(
        {"diagnostics": {"timing_s": {"sampling": 0.7391, "total": 1.52}, "acceptance_fraction": 0.4311}}))
    step = STEP.model_copy(update={"dir": "steps/02-fit"})

    def unsupported(summary: str) -> list[str]:
        draft = ReportDraft(title="t", summary=summary)
        found = audit_run(run_evidence(tmp_path, draft=draft, steps=[step], task=TASK)).findings
        return [f.evidence["number"] for f in found if f.code == "report.unsupported_number"]

    assert unsupported("We find H0 = 73.9 km/s/Mpc.") == ["73.9"]
    assert unsupported("The sampler ran for 0.739 s of 1.52 s; 43.1% of proposals were accepted.") == []
