"""Critics act on findings in code: an error finding rejects a step whatever a model critic says, the finding
reaches the next attempt, a critic's own finding joins the audits', the narrative is audited and goes back to
the reporter once, and run-level findings from other code land where step findings do."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from cmbagent.agents import CodeDraft, ControlDecision, Critique, ReportDraft, StepSummary
from cmbagent.api import solve
from cmbagent.audits import finding
from cmbagent.events import EventLog, read_events
from cmbagent.models import ModelRequest
from cmbagent.planner import Plan, PlanStep, RunState, record_findings
from cmbagent.run import RunFolder
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.state import CriticFinding, StepRecord, TaskSpec
from tests.planner._support import brain, of_type, result_code

PLAN = Plan(steps=[PlanStep(id="s1", title="Compute", goal="Compute x.", agent="engineer")])


def _run(tmp_path: Path, **handlers: object) -> object:
    model = brain(planner=lambda r: PLAN, **handlers)  # type: ignore[arg-type]
    return solve("Compute x.", workspace=tmp_path, model="scripted", models={"scripted": model}, n_reviews=0,
                 executor=InMemoryExecutor)


def test_an_error_finding_rejects_a_step_the_critic_accepted_and_reaches_the_retry(tmp_path: Path) -> None:
    contexts: list[object] = []

    def engineer(request: ModelRequest) -> CodeDraft:
        contexts.append(request.context)
        return CodeDraft(code=result_code({"x": None} if len(contexts) == 1 else {"x": 1.5}))

    critic_saw: list[str] = []

    def critic(request: ModelRequest) -> Critique:
        critic_saw.append(request.messages[-1].text())
        return Critique(accepted=True, verdict="looks fine to me")

    result = _run(tmp_path, engineer=engineer, step_critic=critic,
                  controller=lambda r: ControlDecision(action="retry", reason="try again"))
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    run = result.run_dir  # type: ignore[attr-defined]
    critiques = of_type(run, "step_critiqued")
    assert [c["accepted"] for c in critiques] == [False, True]
    assert critiques[0]["verdict"].startswith("Rejected by code: value.not_finite")
    assert "value.not_finite" in critic_saw[0] and "Findings by code" in critic_saw[0]
    assert any("value.not_finite" in issue for issue in contexts[1].issues)  # type: ignore[attr-defined]
    assert [e["code"] for e in of_type(run, "finding")] == ["value.not_finite"]
    assert json.loads((run / "run.json").read_text())["findings"] == []  # the accepted attempt is clean


def test_a_critics_own_finding_joins_the_audits_and_becomes_a_caveat(tmp_path: Path) -> None:
    def critic(request: ModelRequest) -> Critique:
        return Critique(accepted=True, verdict="fine", findings=[CriticFinding(
            code="units.unstated", severity="warning", message="x has no unit", settle="state the unit of x")])

    result = _run(tmp_path, engineer=lambda r: CodeDraft(code=result_code({"x": 2.0})), step_critic=critic)
    run = result.run_dir  # type: ignore[attr-defined]
    (found,) = json.loads((run / "run.json").read_text())["findings"]
    assert (found["code"], found["source"], found["step_id"]) == ("units.unstated", "step_critic", "s1")
    assert found["cell"].endswith("cells/attempt-1.py")
    step_dir = next((run / "steps").glob("01-*"))
    assert json.loads((step_dir / "findings.json").read_text())[0]["code"] == "units.unstated"
    report = (run / "report.md").read_text()
    assert "`units.unstated`" in report and "raised by step_critic" in report
    assert "*To settle it:* state the unit of x" in report


def test_an_invented_number_goes_back_to_the_reporter_once(tmp_path: Path) -> None:
    asked: list[str] = []

    def reporter(request: ModelRequest) -> ReportDraft:
        asked.append(request.messages[-1].text())
        number = "x = 2.0" if len(asked) > 1 else "x = 2.0 and y = 7.31"
        return ReportDraft(title="t", summary=f"We find {number}.")

    result = _run(tmp_path, engineer=lambda r: CodeDraft(code=result_code({"x": 2.0})), reporter=reporter)
    assert len(asked) == 2 and "previous narrative was rejected" in asked[1] and "7.31" in asked[1]
    run = result.run_dir  # type: ignore[attr-defined]
    assert json.loads((run / "run.json").read_text())["findings"] == []
    assert "7.31" not in (run / "report.md").read_text()


def test_a_narrative_that_twice_states_no_result_is_replaced_by_the_key_numbers(tmp_path: Path) -> None:
    asked: list[str] = []

    def reporter(request: ModelRequest) -> ReportDraft:
        asked.append(request.messages[-1].text())
        # (a narrative that states nothing, without repeating a phrase: one repeated over and over is cut as it
        # streams, see tests/models/test_repetition_guard.py)
        return ReportDraft(title="t", summary="The method was applied to the data and its checks were read with care.",
                           conclusions=["applied"])

    result = _run(tmp_path, engineer=lambda r: CodeDraft(code=result_code({"x": 2.25})), reporter=reporter)
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    assert len(asked) == 2 and "report.answer_missing" in asked[1]
    run = result.run_dir  # type: ignore[attr-defined]
    (found,) = json.loads((run / "run.json").read_text())["findings"]
    assert (found["code"], found["severity"]) == ("report.answer_missing", "warning")
    assert "set aside for a summary written by code" in found["message"]
    report = (run / "report.md").read_text()
    answer = report.split("## Answer", 1)[1].split("##", 1)[0]
    assert "x = 2.25" in answer and "Checking the method" not in report.split("## Findings")[0]
    assert "The reporter's narrative was set aside" in report


def test_a_step_summary_with_an_invented_number_is_replaced_by_one_written_by_code(tmp_path: Path) -> None:
    def summariser(request: ModelRequest) -> StepSummary:
        return StepSummary(summary="x came out as 2.25, and 7021.01 rows were dropped on 2022-01-02.")

    result = _run(tmp_path, engineer=lambda r: CodeDraft(code=result_code({"x": 2.25})), summariser=summariser)
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    run = result.run_dir  # type: ignore[attr-defined]
    step_dir = next((run / "steps").glob("01-*"))
    assert (step_dir / "summary.md").read_text().strip() == "The step finished: x = 2.25."
    report = (run / "report.md").read_text()  # the invented sentence is only quoted by its finding
    assert "The step finished: x = 2.25." in report
    assert all("replaced by one written by code" in line for line in report.splitlines() if "7021" in line)
    (found,) = json.loads((step_dir / "findings.json").read_text())
    assert (found["code"], found["severity"], found["evidence"]["numbers"]) == (
        "report.unsupported_number", "warning", ["7021.01"])
    assert "replaced by one written by code" in found["message"]
    # a summary whose numbers are the step's own stands
    kept = _run(tmp_path / "kept", engineer=lambda r: CodeDraft(code=result_code({"x": 2.25})),
                summariser=lambda r: StepSummary(summary="x came out as 2.25."))
    step_dir = next((kept.run_dir / "steps").glob("01-*"))  # type: ignore[attr-defined]
    assert (step_dir / "summary.md").read_text().strip() == "x came out as 2.25."
    assert json.loads((step_dir / "findings.json").read_text()) == []


def test_record_findings_adds_run_and_step_findings_once(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    (tmp_path / "steps" / "01-compute").mkdir(parents=True)
    rt = SimpleNamespace(events=EventLog(tmp_path / "events.jsonl", "run"), folder=folder)
    state = RunState(task=TaskSpec(text="t", title="t"),
                     steps={"s1": StepRecord(id="s1", title="Compute", dir="steps/01-compute")})
    about_run = finding("report.unsupported_number", "the summary states 7.31", number="7.31")
    about_step = finding("data.rows_dropped", "3 rows dropped").model_copy(update={"step_id": "s1"})
    update = record_findings(rt, state, [about_run, about_step, about_run])  # type: ignore[arg-type]
    state = state.model_copy(update=update)
    assert [f.code for f in state.findings] == ["report.unsupported_number"]
    assert [f.code for f in state.steps["s1"].findings] == ["data.rows_dropped"]
    assert json.loads((tmp_path / "steps" / "01-compute" / "findings.json").read_text())[0]["step_id"] == "s1"
    assert record_findings(rt, state, [about_run]) == {}  # nothing new, no event  # type: ignore[arg-type]
    assert [e.data["code"] for e in read_events(tmp_path / "events.jsonl")] == ["report.unsupported_number",
                                                                                 "data.rows_dropped"]
    assert [f.code for f in state.all_findings()] == ["data.rows_dropped", "report.unsupported_number"]


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_method_steps_summary_that_names_none_of_its_values_is_the_methods_own(tmp_path: Path) -> None:
    """SmolLM2 summarised an NTL run as "This step summarizes the results. It includes an overview of the step
    and its parameters": no value, no number.  A method step's summary must say something of its result, else
    the method's own summary stands in its place, with a note."""
    from cmbagent.api import solve
    from cmbagent.state import MethodCall, Plan, PlanStep
    from tests.planner._support import brain

    task = tmp_path / "task.md"
    task.write_text("---\ntitle: LIF regions\n---\nCount the regions of a small LIF network of width 3 and depth 1, "
                    "latencies 1 and 2.\n")
    plan = Plan(steps=[PlanStep(id="s1", title="Count regions", goal="Count the regions.", agent="method_operator",
                                method=MethodCall(name="theory.lif_snn_regions", arguments={
                                    "width": 3, "depth": 1, "latencies": [1, 2], "samples": 2000}))])
    noise = "This step summarizes the results. It includes an overview of the step and its parameters."
    runs = {}
    for name, said in (("noise", noise), ("named", "The network has 30 regions at T = 2.")):
        runs[name] = solve(task, workspace=tmp_path / name, model="scripted", sandbox="process", models={
            "scripted": brain(planner=lambda r: plan, summariser=lambda r, said=said: StepSummary(summary=said))})
        assert runs[name].status == "done", runs[name].error
    step_dir = next((runs["noise"].run_dir / "steps").glob("01-*"))
    summary = (step_dir / "summary.md").read_text()
    assert "overview of the step" not in summary and "region" in summary.lower()
    codes = [f["code"] for f in json.loads((step_dir / "findings.json").read_text())]
    assert "report.summary_replaced" in codes
    step_dir = next((runs["named"].run_dir / "steps").glob("01-*"))
    assert (step_dir / "summary.md").read_text().strip() == "The network has 30 regions at T = 2."


def test_conclusions_are_sorted_by_whether_they_cite_the_run(tmp_path: Path) -> None:
    """SmolLM2's reporter concluded "The report has a detailed report of the plan, the report has a detailed
    report of the plan, ..." under Conclusions.  A conclusion that cites a result stands; one that cites none is
    listed apart as unchecked; one that repeats a phrase over and over is left out, and the report says so."""
    loop = "The report has a detailed report of the plan, " * 4
    said = ["x came out as 2.25.", "The method is broadly applicable.", loop]
    result = _run(tmp_path, engineer=lambda r: CodeDraft(code=result_code({"x": 2.25})),
                  reporter=lambda r: ReportDraft(title="t", summary="x = 2.25.", conclusions=said))
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    report = (result.run_dir / "report.md").read_text()  # type: ignore[attr-defined]
    section = report.split("## Conclusions", 1)[1].split("\n## ", 1)[0]
    cited, unchecked = section.split("Drawn without citing")
    assert "- x came out as 2.25." in cited and "broadly applicable" not in cited
    assert "- The method is broadly applicable." in unchecked
    assert "detailed report of the plan" not in report and "1 conclusion(s) that repeat one phrase" in section


def test_a_summary_that_repeats_one_phrase_is_no_answer(tmp_path: Path) -> None:
    """SmolLM2's summary of the screening task said "V = 0.293 vs Alpha = 0.100 for random screening" three times
    over: it names results, and answers nothing.  Code's answer stands in its place."""
    loop = "The results are as follows: x = 2.25 for the fit, " * 3
    result = _run(tmp_path, engineer=lambda r: CodeDraft(code=result_code({"x": 2.25})),
                  reporter=lambda r: ReportDraft(title="t", summary=loop, conclusions=["x = 2.25."]))
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    report = (result.run_dir / "report.md").read_text()  # type: ignore[attr-defined]
    answer = report.split("## Answer", 1)[1].split("##", 1)[0]
    assert "as follows" not in answer and "x = 2.25" in answer
    codes = [f["code"] for f in json.loads((result.run_dir / "run.json").read_text())["findings"]]  # type: ignore[attr-defined]
    assert "report.answer_missing" in codes
