"""Planning without a sandbox (text steps only): validation errors go back to the planner, a person can
approve / reject / edit the plan through the interrupt, and a spent budget still writes a report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cmbagent.agents import PlanReview
from cmbagent.api import PlanDecision, resume, solve
from cmbagent.models import ModelRequest, Usage
from cmbagent.planner import Plan, PlanStep
from tests.planner._support import brain, events, of_type, plan_json


def text_plan(*titles: str, agent: str = "researcher") -> Plan:
    return Plan(steps=[PlanStep(id=f"s{i}", title=t, goal=f"Write about {t}.", agent=agent,
                                acceptance_criteria=["names one caveat"]) for i, t in enumerate(titles, 1)])


def test_unknown_agent_goes_back_to_the_planner_not_a_crash(tmp_path: Path) -> None:
    plans = [text_plan("magic", agent="wizard"), text_plan("physics")]
    seen: list[str] = []

    def planner(request: ModelRequest) -> Plan:
        seen.append(request.messages[-1].text())
        return plans.pop(0)

    model = brain(planner=planner)
    result = solve("Explain dark energy in one paragraph.", workspace=tmp_path, model="scripted",
                   models={"scripted": model}, sandbox="process")
    assert result.status == "done", result.error
    assert len(seen) == 2
    assert "unknown agent 'wizard'" in seen[1]
    assert [s["title"] for s in result.steps] == ["physics"]
    # no cell ran: text steps never start a kernel
    assert of_type(result.run_dir, "cell_executed") == []


def test_reviewer_change_requests_reach_the_planner(tmp_path: Path) -> None:
    prompts: list[str] = []

    def planner(request: ModelRequest) -> Plan:
        prompts.append(request.messages[-1].text())
        return text_plan("a") if len(prompts) == 1 else text_plan("a", "b")

    reviews = iter([PlanReview(approved=False, comments=["add a step b"]), PlanReview(approved=True)])
    model = brain(planner=planner, plan_reviewer=lambda r: next(reviews))
    result = solve("Two things.", workspace=tmp_path, model="scripted", models={"scripted": model}, n_reviews=2,
                   sandbox="process")
    assert result.status == "done"
    assert "add a step b" in prompts[1]
    reviewed = of_type(result.run_dir, "plan_reviewed")
    assert [r["approved"] for r in reviewed] == [False, True]
    assert len(list((result.run_dir / "plans").glob("plan-*.json"))) == 2


def test_person_rejects_then_edits_the_plan(tmp_path: Path) -> None:
    prompts: list[str] = []

    def planner(request: ModelRequest) -> Plan:
        prompts.append(request.messages[-1].text())
        return text_plan("first idea") if len(prompts) == 1 else text_plan("second idea")

    model = brain(planner=planner)
    first = solve("Plan something.", workspace=tmp_path, model="scripted", models={"scripted": model},
                  approve_plan=True, sandbox="process")
    assert first.status == "awaiting_approval"
    assert of_type(first.run_dir, "step_started") == []
    assert json.loads((first.run_dir / "run.json").read_text())["status"] == "awaiting_approval"
    # asking again without a decision changes nothing
    assert resume(first.run_dir, models={"scripted": model}).status == "awaiting_approval"

    second = resume(first.run_dir, decision=PlanDecision(action="reject", comment="needs a second idea"),
                    models={"scripted": model})
    assert second.status == "awaiting_approval"
    assert "needs a second idea" in prompts[-1]
    assert plan_json(first.run_dir)["steps"][0]["title"] == "second idea"

    edited = plan_json(first.run_dir)
    edited["steps"][0]["title"] = "edited by a person"
    third = resume(first.run_dir, decision=PlanDecision(action="edit", plan=edited), models={"scripted": model})
    assert third.status == "done", third.error
    approved = of_type(first.run_dir, "plan_approved")
    assert approved[-1]["by"] == "person" and approved[-1]["edited"] is True
    assert [s["title"] for s in third.steps] == ["edited by a person"]
    assert of_type(first.run_dir, "run_finished")[-1]["status"] == "done"


def test_spent_budget_ends_cleanly_with_a_partial_report(tmp_path: Path) -> None:
    model = brain(planner=lambda r: text_plan("a", "b", "c", "d"))
    model.usage = Usage(input_tokens=400, output_tokens=100)
    result = solve("Four paragraphs.", workspace=tmp_path, model="scripted", models={"scripted": model},
                   budget_tokens=3500, sandbox="process")  # 500 of them go to the analyst and the requirements agent
    assert result.status == "budget_exhausted"
    report = (result.run_dir / "report.md").read_text()
    assert "budget" in report.lower()
    done = [s for s in result.steps if s["status"] == "done"]
    assert 0 < len(done) < 4
    kinds = [e.type for e in events(result.run_dir)]
    assert kinds.count("budget_warning") == 1 and kinds[-1] == "run_finished"  # issue 16: it came twice
    # the stop reason is written by code: its numbers (the budget) are facts, not unsupported claims
    findings = json.loads((result.run_dir / "run.json").read_text())["findings"]
    assert not [f for f in findings if f["code"] == "report.unsupported_number"], findings


def test_a_budget_spent_in_the_reporters_call_ends_with_a_code_written_report_whose_numbers_hold(
        tmp_path: Path) -> None:
    """The reporter's own call spends the budget: code writes the narrative, with the new stop reason in it,
    and audits it knowing that reason (its numbers, the budget's, were once flagged as unsupported)."""
    def run(folder: Path, budget: int | None) -> Any:
        model = brain(planner=lambda r: text_plan("a"))
        model.usage = Usage(input_tokens=400, output_tokens=100)
        return solve("One paragraph.", workspace=folder, model="scripted", models={"scripted": model},
                     budget_tokens=budget, sandbox="process")

    free = run(tmp_path / "free", None)
    calls = [e.data["agent"] for e in events(free.run_dir) if e.type == "model_call"]
    before = calls.index("reporter")  # calls of 500 tokens each before the reporter's: spent, it refuses that one
    result = run(tmp_path / "tight", 500 * before - 250)
    assert result.status == "budget_exhausted"
    run_json = json.loads((result.run_dir / "run.json").read_text())
    report = (result.run_dir / "report.md").read_text()
    assert f"spent {500 * before} of {500 * before - 250}" in report and "without the reporter agent" in report
    assert not [f for f in run_json["findings"] if f["code"] == "report.unsupported_number"], run_json["findings"]


def test_resuming_a_finished_run_changes_nothing(tmp_path: Path) -> None:
    model = brain(planner=lambda r: text_plan("a"))
    done = solve("One paragraph.", workspace=tmp_path, model="scripted", models={"scripted": model},
                 sandbox="process")
    calls = len(model.requests)
    again = resume(done.run_dir, models={"scripted": model})
    assert again.status == "done" and len(model.requests) == calls
    assert [e.type for e in events(done.run_dir)].count("run_started") == 1


def test_ids_a_model_invents_do_not_matter_code_numbers_the_steps(tmp_path: Path) -> None:
    # schema-valid plans with ids such as "chain check" (twice) used to fail planning; ids are bookkeeping
    reply = {"steps": [{"id": "chain check", "title": t, "goal": f"Write about {t}.", "agent": "researcher"}
                       for t in ("a", "b")]}
    model = brain(planner=lambda r: reply)
    result = solve("Two paragraphs.", workspace=tmp_path, model="scripted", models={"scripted": model},
                   sandbox="process")
    assert result.status == "done", result.error
    assert [s["id"] for s in result.steps] == ["s1", "s2"] and plan_json(result.run_dir)["steps"][1]["id"] == "s2"
    # the planner was asked for a schema that names the roster's agents as an enum and has no id field
    planner_request = next(r for r in model.requests if r.agent == "planner")
    schema = planner_request.output_schema.model_json_schema()  # type: ignore[union-attr]
    kinds = schema["$defs"]["StepDraft"]["anyOf"]  # a method step or another step: agents as enums in each
    assert "researcher" in [a for kind in kinds for a in kind["properties"]["agent"]["enum"]]
    assert not any("id" in kind["properties"] for kind in kinds)
