"""A replan may add only the steps that fit (issue 16): SmolLM2's revision ran a plan to 13 steps of 12, code
refused it, and the run's only method step was skipped.  The schema now says how many fit."""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.agents import ControlDecision, ReplanDecision
from cmbagent.api import solve
from cmbagent.state import Critique, Plan, PlanStep
from tests.planner._support import brain

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_the_replan_schema_bounds_new_steps_by_the_room_left(tmp_path: Path) -> None:
    plan = Plan(steps=[PlanStep(id=f"s{n}", title=f"Part {n}", goal=f"Write part {n}.", agent="researcher")
                       for n in (1, 2, 3)])
    asked: list[int | None] = []

    def replanner(request):  # type: ignore[no-untyped-def]
        asked.append(request.output_schema.model_json_schema()["properties"]["new_steps"].get("maxItems"))
        return ReplanDecision(action="skip", reason="no other route")

    def critic(request):  # type: ignore[no-untyped-def]
        text = request.messages[-1].text()
        return Critique(accepted="Part 2" not in text, verdict="part 2 is missing its argument", issues=["no argument"])

    result = solve("Write three parts.", workspace=tmp_path, model="scripted", max_steps=3, n_reviews=0,
                   models={"scripted": brain(planner=lambda r: plan, step_critic=critic, replanner=replanner,
                                             controller=lambda r: ControlDecision(action="replan", reason="other"))},
                   sandbox="process")
    assert asked, "the replanner was never asked"
    assert asked[0] == 1  # s2 failed in a plan of at most 3 steps: one step fits after it
    assert result.status != "done"  # part 2 was never accepted


def test_a_revision_repeating_one_of_its_own_steps_adds_it_once(tmp_path: Path) -> None:
    """SmolLM2's revision of the IV-bounds plan added "Task brief" by the researcher twice (and ran both)."""
    from cmbagent.state import StepDraft

    plan = Plan(steps=[PlanStep(id="s1", title="Part 1", goal="Write part 1.", agent="researcher")])
    rejected = []

    def critic(request):  # type: ignore[no-untyped-def]
        first = not rejected
        rejected.append(1)
        return Critique(accepted=not first, verdict="part 1 lacks its argument" if first else "fine",
                        issues=["no argument"] if first else [])

    def replanner(request):  # type: ignore[no-untyped-def]
        brief = StepDraft(title="Task brief", goal="Restate the task.", agent="researcher")
        return ReplanDecision(action="revise", reason="restate first",
                              new_steps=[brief, StepDraft(title="Part 1 again", goal="Write it.", agent="researcher"),
                                         brief.model_copy(update={"goal": "mjn-2"})])

    result = solve("Write one part.", workspace=tmp_path, model="scripted", max_steps=6, n_reviews=0, max_attempts=1,
                   models={"scripted": brain(planner=lambda r: plan, step_critic=critic, replanner=replanner,
                                             controller=lambda r: ControlDecision(action="replan", reason="other"))},
                   sandbox="process")
    titles = [s["title"] for s in result.steps]
    assert titles.count("Task brief") == 1 and "Part 1 again" in titles, titles


def test_steps_whose_goal_is_not_a_sentence_are_dropped_and_the_report_says_so(tmp_path: Path) -> None:
    """SmolLM2 added six code steps behind the method step of the ICL-posterior task, with goals
    "method_operator", "data/regression.csv", "output_file", …: code drops them, with a note in the report."""
    from cmbagent.state import PlanDraft, StepDraft

    draft = PlanDraft(steps=[
        StepDraft(title="Part 1", goal="Write part one of the essay.", agent="researcher"),
        StepDraft(title="Method Description", goal="method_operator", agent="engineer"),
        StepDraft(title="Data", goal="data/regression.csv", agent="engineer"),
        StepDraft(title="Plot", goal="Plot it", agent="researcher")])
    result = solve("Write one part.", workspace=tmp_path, model="scripted", n_reviews=0,
                   models={"scripted": brain(planner=lambda r: draft)}, sandbox="process")
    assert result.status == "done", result.error
    assert [s["title"] for s in result.steps] == ["Part 1", "Plot"]
    report = (result.run_dir / "report.md").read_text()
    assert "plan.aimless_steps" in report and "'data/regression.csv'" in report


def test_a_steps_wordless_criteria_and_inputs_are_dropped(tmp_path: Path) -> None:
    """SmolLM2 filled a method step's inputs and acceptance criteria with one timestamp, four times; its critics
    were then asked to judge the criterion "2022-04-02T07:40:32.776938214886".  Code keeps only entries with
    letters in them, once each; formulas and paths stay."""
    from cmbagent.state import PlanDraft, StepDraft

    stamp = "2022-04-02T07:40:32.776938214886"
    draft = PlanDraft(steps=[StepDraft(
        title="Part 1", goal="Write part one of the essay.", agent="researcher", inputs=[stamp] * 4 + ["data/1.csv"],
        expected_outputs=["12", "figures/a.png", "figures/a.png"],
        acceptance_criteria=[stamp, stamp, "chi2/dof < 2", "Ωm in [0.2, 0.4]", "1.0",
                             "tst1_2007_10_01_2011_1_12_21", "converged."])])
    seen: list[list[str]] = []

    def critic(request: object) -> Critique:
        schema = request.output_schema.model_json_schema()  # type: ignore[attr-defined]
        seen.append(schema["$defs"]["CriterionResult"]["properties"]["criterion"]["enum"])
        return Critique(accepted=True, verdict="The part is written.")

    result = solve("Write one part.", workspace=tmp_path, model="scripted", n_reviews=0, sandbox="process",
                   models={"scripted": brain(planner=lambda r: draft, step_critic=critic)})
    assert result.status == "done", result.error
    import json

    [step] = json.loads((result.run_dir / "plan.json").read_text())["steps"]
    assert step["inputs"] == ["data/1.csv"] and step["expected_outputs"] == ["figures/a.png"]
    assert step["acceptance_criteria"] == ["chi2/dof < 2", "Ωm in [0.2, 0.4]", "converged."]
    assert seen and seen[0] == step["acceptance_criteria"]


def test_a_method_steps_identifier_title_and_goal_are_said_in_words(tmp_path: Path) -> None:
    """SmolLM2 titled the NTL step "max_operand" and gave another method step the goal "method_operator"; the plan
    and the report showed them.  Code puts the goal in a wordless title's place, and the method's summary in a
    method step's wordless goal's."""
    from cmbagent.state import MethodCall, PlanDraft, StepDraft

    lif = "theory.lif_snn_regions"
    draft = PlanDraft(steps=[StepDraft(title="max_operand", goal="method_operator", agent="method_operator",
                                       method=MethodCall(name=lif, arguments={"samples": 2000})),
                             StepDraft(title="Part_1", goal="Write part one of the essay.", agent="researcher")])
    result = solve("Count regions, then write.", workspace=tmp_path, model="scripted", n_reviews=0,
                   models={"scripted": brain(planner=lambda r: draft)}, sandbox="process")
    assert result.status == "done", result.error
    import json

    method_step, text_step = json.loads((result.run_dir / "plan.json").read_text())["steps"]
    from cmbagent.tools.methods import get_method

    assert method_step["goal"] == get_method(lif).summary == method_step["title"]
    assert text_step["title"] == "Write part one of the essay."


def test_a_code_step_that_restates_a_method_steps_aim_is_dropped(tmp_path: Path) -> None:
    """SmolLM2 planned the value-of-prediction call as "expand capacity or improve capacity model" and then a
    ``data_engineer`` step "improve capacity model" (session 20): it could not write that step's cells, and the run
    ended failed on it with every requirement met by the method step.  A code step whose words an earlier method
    step's aim already holds is dropped, with the note; a code step with an aim of its own and a text step stay."""
    from cmbagent.state import MethodCall, PlanDraft, StepDraft

    lif = "theory.lif_snn_regions"
    draft = PlanDraft(steps=[
        StepDraft(title="Count the linear regions of the spiking network", goal="Count the network's regions.",
                  agent="method_operator", method=MethodCall(name=lif, arguments={"samples": 2000})),
        StepDraft(title="Regions of the network", goal="Count regions", agent="data_engineer"),
        StepDraft(title="Network regions", goal="Count the regions of the network.", agent="researcher")])
    result = solve("Count regions, then write.", workspace=tmp_path, model="scripted", n_reviews=0,
                   models={"scripted": brain(planner=lambda r: draft)}, sandbox="process")
    assert result.status == "done", result.error
    assert [s["agent"] for s in result.steps] == ["method_operator", "researcher"]
    report = (result.run_dir / "report.md").read_text()
    assert "plan.aimless_steps" in report and "'Regions of the network'" in report
    assert "an earlier method step's aim holds" in report


def test_restating_is_judged_by_words_of_the_aim() -> None:
    from cmbagent.planner._planning import restates
    from cmbagent.state import MethodCall, StepDraft

    method = StepDraft(title="expand capacity or improve capacity model", goal="expand capacity or improve capacity "
                       "model", agent="method_operator", method=MethodCall(name="causal.value_of_prediction"))
    code = {"data_engineer", "engineer"}
    again = StepDraft(title="improve capacity model", goal="improve capacity model", agent="data_engineer")
    plot = StepDraft(title="Plot the value against capacity", goal="plot it", agent="engineer")
    text = StepDraft(title="improve capacity model", goal="improve capacity model", agent="researcher")
    assert restates(again, [method], code)
    assert not restates(plot, [method], code)  # "plot", "value", "against": an aim of its own
    assert not restates(text, [method], code)  # a text step answers in words
    assert not restates(again, [again.model_copy(update={"agent": "engineer"})], code)  # no method step before it
