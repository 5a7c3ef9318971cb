"""Numbers a task states in prose ("a network of width 4 and depth 1, latencies 1 and 2") are the task's: code
reads them for whatever model runs, the method runs with them, and the checklist checks them (issue 16; found
as a sceptic: such a task ran with the method's defaults, width 8 and depth 2, and ended ``done`` with no
finding)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import understand_task
from cmbagent.api import solve
from cmbagent.state import MethodCall, Plan, PlanStep, TaskBrief
from cmbagent.task import load_task
from tests.planner._support import brain

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

ROOT = Path(__file__).resolve().parents[2]
LIF = "theory.lif_snn_regions"


@pytest.mark.parametrize(("text", "read"), [
    ("A discrete-time LIF spiking network of width 4 and depth 1, latencies 1 and 2.",
     {"width": 4, "depth": 1, "latencies": [1, 2]}),
    ("Use width = 6, a depth of 3 and latencies T = 1…4 on a box of 2.5 with 50,000 samples.",
     {"width": 6, "depth": 3, "latencies": [1, 2, 3, 4], "box": 2.5, "samples": 50000}),
    ("Latencies 2, 4 and 6; threshold 1.5.", {"latencies": [2, 4, 6], "threshold": 1.5}),
    ("Not depth 3: keep the default.", {}),  # a negated mention states nothing
    ("A network of width 4.5.", {}),  # not an integer: not a width
    ("Try depth 1–3 and width 4 or 8.", {}),  # a range and a choice are no single value
])
def test_numbers_after_an_arguments_words_are_read(text: str, read: dict[str, Any]) -> None:
    understood = understand_task(LIF, text, {}, [])
    assert understood.arguments == read
    assert {r.argument: r.value for r in understood.requirements} == read
    assert all(r.source == "text" and r.text for r in understood.requirements)


def test_counts_before_their_noun_and_indices_are_told_apart() -> None:
    jola = understand_task("lm.jola", "A tiny transformer (2 layers × 4 heads); edit (layer 0, head 1) and "
                                      "(layer 1, head 3) only.", {}, [])
    assert {k: jola.arguments[k] for k in ("n_layers", "n_heads")} == {"n_layers": 2, "n_heads": 4}
    lora = understand_task("lm.lora_symmetry", "Keep some and not others.\n\nGenerate 1500 rank-3 adapters.", {}, [])
    assert lora.arguments["n_adapters"] == 1500  # the negation two sentences back does not reach it


def test_two_values_for_one_argument_are_a_note_not_a_guess() -> None:
    understood = understand_task(LIF, "Compare depth 1 and depth 2 networks.", {}, [])
    assert "depth" not in understood.arguments
    assert any("'depth'" in note and "front matter" in note for note in understood.notes)


def test_a_word_shared_with_another_argument_is_not_read() -> None:
    # "tubal rank 2" is the true tensor's rank; ``rank`` is the model's: the method has both, so the argument's
    # name alone reads neither; the field's words say the tensor's tubal rank is the truth's
    understood = understand_task("theory.tubal_tensor_gd", "A tensor of tubal rank 2 observed through 110 "
                                                           "measurements.", {}, [])
    assert "rank" not in understood.arguments and understood.arguments["true_rank"] == 2
    understood = understand_task("theory.tubal_tensor_gd", "Rank 2, observed through 110 measurements.", {}, [])
    assert "rank" not in understood.arguments and "true_rank" not in understood.arguments


def test_the_examples_prose_agrees_with_their_front_matter() -> None:
    """Read with no front matter, every number the reader takes from an example's prose is the value its front
    matter gives (the examples state both): the reader is right where it reads, and it reads many."""
    agreed = 0
    for path in sorted((ROOT / "examples").glob("*.md")):
        if path.name == "README.md" or not (task := load_task(path)).method:
            continue
        understood = understand_task(task.method, task.text, {}, list(task.data_files))
        for req in understood.requirements:
            if req.argument in task.arguments and not isinstance(req.value, str):
                assert req.value == task.arguments[req.argument], (path.name, req.argument, req.text)
                agreed += 1
    assert agreed >= 15


def analyst(request: Any) -> TaskBrief:
    return TaskBrief(title="LIF regions", objective="Count regions.", method=LIF)


def lif_task(folder: Path) -> Path:
    task = folder / "task.md"
    task.write_text("---\ntitle: Regions of a small LIF network\nseed: 5\n---\nCount the regions of constant "
                    "output of a discrete-time LIF spiking network of width 4 and depth 1, latencies 1 and 2.\n")
    return task


def ran_with(run: Path) -> dict[str, Any]:
    import ast

    cell = next(run.glob("steps/01-*/cells/attempt-1.py")).read_text()
    return dict(json.loads(ast.literal_eval(cell.split("json.loads(", 1)[1].split("))\n", 1)[0])))


def test_a_model_run_keeps_the_numbers_code_read_and_checks_them(tmp_path: Path) -> None:
    """A model's analyst that names the method but none of its numbers, and a planner that plans the defaults:
    the method still runs with the task's width, depth and latencies, and the checklist holds them, met."""
    plan = Plan(steps=[PlanStep(id="s1", title="Count regions", goal="Count the regions.", agent="method_operator",
                                method=MethodCall(name=LIF, arguments={"width": 8, "depth": 2, "samples": 2000}))])
    result = solve(lif_task(tmp_path), workspace=tmp_path / "ws", model="scripted",
                   models={"scripted": brain(task_analyst=analyst, planner=lambda r: plan)}, sandbox="process")
    assert result.status == "done", result.error
    ran = ran_with(result.run_dir)
    assert (ran["width"], ran["depth"], ran["latencies"], ran["seed"]) == (4, 1, [1, 2], 5)
    assert ran["samples"] == 2000  # what the task leaves open stays the planner's
    items = json.loads((result.run_dir / "requirements.json").read_text())["items"]
    checked = {i["requirement"]["argument"]: (i["requirement"]["value"], i["met"]) for i in items}
    assert checked == {"width": (4, True), "depth": (1, True), "latencies": ([1, 2], True)}


def test_the_method_operator_is_given_the_read_numbers_as_constants(tmp_path: Path) -> None:
    from cmbagent.agents._schemas import MethodCallDraft

    asked = []

    def operator(request: Any) -> MethodCallDraft:
        asked.append(request.output_schema.model_json_schema()["properties"]["arguments"])
        return MethodCallDraft(method=LIF, arguments={"width": 9, "samples": 2000})

    refused = Plan(steps=[PlanStep(id="s1", title="Count regions", goal="Count the regions.",
                                   agent="method_operator", method=MethodCall(name=LIF, arguments={"box": "wide"}))])
    result = solve(lif_task(tmp_path), workspace=tmp_path / "ws", model="scripted",
                   models={"scripted": brain(task_analyst=analyst, planner=lambda r: refused,
                                                       method_operator=operator)}, sandbox="process")
    assert result.status == "done", result.error
    assert asked and asked[0]["properties"]["width"] == {"const": 4}
    assert ran_with(result.run_dir)["width"] == 4  # code put it back over the model's 9


def test_a_negated_name_value_pair_states_nothing() -> None:
    read = understand_task("cosmology.fit_supernovae", "Fit the supernovae; do not use model: wcdm.", {}, [])
    assert "model" not in read.arguments
    assert understand_task("cosmology.fit_supernovae", "Fit with model: wcdm.", {}, []).arguments["model"] == "wcdm"


def test_checklist_items_that_say_nothing_to_check_are_dropped_and_noted(tmp_path: Path) -> None:
    """SmolLM2's analyst wrote four argument items with no argument ("None = None", quoting ",0.3"); checked at
    the end, each was an error finding about nothing.  Code keeps the items it can check and says what it
    dropped; the run is judged against the task's real numbers."""
    from cmbagent.state import Requirement

    def noisy(request: Any) -> TaskBrief:
        junk = [Requirement(kind="argument", text=",0.3", method=LIF, value=0.5),
                Requirement(kind="argument", text=",0.3", method=LIF, argument="samples"),
                Requirement(kind="output", text="report", output="value"),
                Requirement(kind="output", text="|x - 1|", output="abs_difference", quantity="regions")]
        kept = [Requirement(kind="output", text="a figure", output="figure"),
                Requirement(kind="argument", text="latencies: none", method=LIF, argument="latencies")]
        return TaskBrief(title="LIF regions", objective="Count regions.", method=LIF, requirements=[*junk, *kept])

    plan = Plan(steps=[PlanStep(id="s1", title="Count regions", goal="Count the regions.", agent="method_operator",
                                method=MethodCall(name=LIF, arguments={"samples": 2000}))])
    result = solve(lif_task(tmp_path), workspace=tmp_path / "ws", model="scripted",
                   models={"scripted": brain(task_analyst=noisy, planner=lambda r: plan)}, sandbox="process")
    assert result.status == "done", result.error
    items = [i["requirement"] for i in json.loads((result.run_dir / "requirements.json").read_text())["items"]]
    assert [(i["kind"], i["argument"] or i["output"]) for i in items] == [
        ("output", "figure"), ("argument", "latencies"), ("argument", "width"), ("argument", "depth")]
    # the analyst's "latencies: none" was kept (a null its quote states), and code's reading took its place
    record = json.loads((result.run_dir / "run.json").read_text())
    [dropped] = [f for f in record["findings"] if f["code"] == "task.requirements_dropped"]
    assert dropped["severity"] == "note" and "dropped 4 item(s)" in dropped["message"]
    assert "',0.3'" in dropped["message"]
    assert not [f for f in record["findings"] if f["code"] == "task.requirement_unmet"]
    # the brief keeps the task's own title, not the analyst's ("LIF regions"; SmolLM2 wrote "What is a task?")
    planner_saw = [json.loads(line) for line in (result.run_dir / "transcript.jsonl").read_text().splitlines()]
    [asked] = [c["request"]["messages"][-1]["content"] for c in planner_saw if c["agent"] == "planner"]
    assert "Regions of a small LIF network" in asked and "LIF regions" not in asked
