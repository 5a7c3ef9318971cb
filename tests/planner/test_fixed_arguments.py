"""The method arguments a task's front matter states are the task's, not the model's (issue 16): constants in
the method operator's schema (a grammar writes them as given), and put back by code whatever a model wrote.
A complete planned call runs as planned, with no model asked to restate it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.agents._schemas import MethodCallDraft
from cmbagent.api import solve
from cmbagent.state import MethodCall, Plan, PlanStep
from tests.planner._support import brain, chain_task

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def test_a_stated_argument_is_a_constant_and_code_keeps_it(tmp_path: Path) -> None:
    task = chain_task(tmp_path)  # front matter: method cosmology.summarize_chain, arguments {chain: chain.txt}
    (tmp_path / "decoy.txt").write_text("# a b\n1 2\n")
    # a planned call the method refuses (a fraction that is not a number) goes to the method operator
    plan = Plan(steps=[PlanStep(id="s1", title="Summarise", goal="Summarise the chain.", agent="method_operator",
                                method=MethodCall(name="cosmology.summarize_chain",
                                                  arguments={"burn_in_fraction": "half"}))])
    asked, told = [], []

    def operator(request):  # type: ignore[no-untyped-def]
        asked.append(request.output_schema.model_json_schema())
        told.append(request.context.previous_error)
        return MethodCallDraft(method="cosmology.summarize_chain", arguments={"chain": "decoy.txt"})

    result = solve(task, workspace=tmp_path / "ws", model="scripted",
                   models={"scripted": brain(planner=lambda r: plan, method_operator=operator)}, sandbox="process")
    schema = asked[0]["properties"]["arguments"]
    chain = next(v for k, v in result_arguments(result.run_dir).items() if k == "chain")
    assert schema["properties"]["chain"] == {"const": chain} and "chain" in schema["required"]
    assert chain.endswith("chain.txt")  # the task's file, not the decoy the model wrote
    assert result.status == "done", result.error
    assert result.values["Omega_m"]["mean"] == pytest.approx(0.3, abs=0.005)  # the real chain, summarised
    assert len(told) == 1 and "planned call" in told[0] and "burn_in_fraction" in told[0]  # told why


def test_a_complete_planned_call_runs_as_planned_with_the_task_seed(tmp_path: Path) -> None:
    task = tmp_path / "task.md"
    task.write_text("---\ntitle: Regions of a small LIF network\nseed: 3\n---\nCount the regions of constant "
                    "output of a small LIF network.\n")
    planned = {"width": 3, "depth": 1, "latencies": [1, 2], "samples": 2000}
    plan = Plan(steps=[PlanStep(id="s1", title="Count regions", goal="Count the regions.", agent="method_operator",
                                method=MethodCall(name="theory.lif_snn_regions", arguments=planned))])
    asked = []

    def operator(request):  # type: ignore[no-untyped-def]
        asked.append(request)
        return MethodCallDraft(method="theory.lif_snn_regions", arguments={"width": 50})

    result = solve(task, workspace=tmp_path / "ws", model="scripted",
                   models={"scripted": brain(planner=lambda r: plan, method_operator=operator)}, sandbox="process")
    ran = result_arguments(result.run_dir)
    assert not asked  # the planned call was complete: no model restated it
    assert {k: ran[k] for k in planned} == planned and ran["seed"] == 3  # the task's seed, where none was planned
    assert ran["output_dir"].startswith("figures")
    calls = [json.loads(line)["agent"] for line in (result.run_dir / "transcript.jsonl").read_text().splitlines()]
    assert "method_operator" not in calls


def result_arguments(run: Path) -> dict[str, str]:
    """The arguments the method cell ran with (code renders them as ``json.loads("...")``)."""
    import ast

    cell = next(run.glob("steps/01-*/cells/attempt-1.py")).read_text()
    literal = cell.split("json.loads(", 1)[1].split("))\n", 1)[0]
    return json.loads(ast.literal_eval(literal))


def test_a_method_file_argument_names_only_files_the_run_has(tmp_path: Path) -> None:
    """Input-file arguments are enums of the run's files: the task's inputs, and for a step the files earlier
    steps wrote (SmolLM2 passed ``data: "data_engineer"`` to lm.jola, whose planted check needs no file, and
    the step failed twice).  With no file at all, such an argument can only be null."""
    from cmbagent.agents._schemas import CodeDraft
    from cmbagent.cells import print_result

    task = tmp_path / "task.md"
    task.write_text("---\ntitle: Make and summarise a chain\n---\nDraw a chain, then summarise it.\n")
    plan = Plan(steps=[
        PlanStep(id="s1", title="Draw a chain", goal="Write an MCMC chain.", agent="engineer"),
        PlanStep(id="s2", title="Summarise", goal="Summarise the chain.", agent="method_operator",
                 method=MethodCall(name="cosmology.summarize_chain", arguments={}))])
    schemas: dict[str, dict[str, object]] = {}

    def planner(request):  # type: ignore[no-untyped-def]
        step = request.output_schema.model_json_schema()["$defs"]["StepDraft"]["anyOf"][0]
        calls = step["properties"]["method"]["anyOf"]
        schemas["plan"] = next(c for c in calls if c["properties"]["name"]["const"] == "cosmology.summarize_chain")
        return plan

    def engineer(request):  # type: ignore[no-untyped-def]
        folder = request.context.folder
        return CodeDraft(code="import json\nimport numpy as np\nrng = np.random.default_rng(0)\n"
                              f"np.savetxt('{folder}/outputs/chain.txt', np.column_stack([rng.normal(0.3, 0.02, 4000), "
                              "rng.normal(0.7, 0.01, 4000)]), header='omega_m h0')\n"
                              + print_result("{'n_samples': 4000}"))

    def operator(request):  # type: ignore[no-untyped-def]
        schemas["call"] = request.output_schema.model_json_schema()["properties"]["arguments"]
        made = schemas["call"]["properties"]["chain"]["enum"]
        return MethodCallDraft(method="cosmology.summarize_chain", arguments={"chain": made[0]})

    result = solve(task, workspace=tmp_path / "ws", model="scripted", n_reviews=0, sandbox="process",
                   models={"scripted": brain(planner=planner, engineer=engineer, method_operator=operator)})
    # at planning time the run had no file: the planner could not name one
    assert schemas["plan"]["properties"]["arguments"]["properties"]["chain"] == {"type": "null"}
    # at the method step, the chain the engineer's step wrote is the one file it may name
    made = schemas["call"]["properties"]["chain"]["enum"]
    assert len(made) == 1 and made[0].startswith("steps/01-") and made[0].endswith("outputs/chain.txt")
    assert result.status == "done", result.error
    summary = json.loads(next(result.run_dir.glob("steps/02-*/outputs/result.json")).read_text())
    assert summary["values"]["Omega_m"]["mean"] == pytest.approx(0.3, abs=0.005)  # the chain the engineer drew


def test_an_optional_argument_the_method_refuses_falls_back_to_its_default(tmp_path: Path) -> None:
    """SmolLM2 planned lm.jola with test_fraction 1.0 ("must lie in [0.05, 0.9]"); asked again, the method
    operator chose 1.5, and the step failed.  Code retries the planned call once without the refused optional
    argument, and a note says so; an argument the task states is never dropped."""
    task = tmp_path / "task.md"
    task.write_text("---\ntitle: LIF regions\n---\nCount the regions of a small LIF network of width 3.\n")
    planned = {"width": 3, "depth": 1, "latencies": [1, 2], "samples": 2000, "beta": 2.0}
    plan = Plan(steps=[PlanStep(id="s1", title="Count regions", goal="Count the regions.", agent="method_operator",
                                method=MethodCall(name="theory.lif_snn_regions", arguments=planned))])
    asked = []

    def operator(request):  # type: ignore[no-untyped-def]
        asked.append(request)
        return MethodCallDraft(method="theory.lif_snn_regions", arguments={"beta": 3.0})

    result = solve(task, workspace=tmp_path / "ws", model="scripted", sandbox="process",
                   models={"scripted": brain(planner=lambda r: plan, method_operator=operator)})
    assert result.status == "done", result.error
    assert not asked  # code's retry ran before any model was asked again
    cell = next(result.run_dir.glob("steps/01-*/cells/attempt-2.py")).read_text()
    assert '\\"beta\\": 0.9' in cell and '\\"width\\": 3' in cell  # the default, and the rest as planned
    report = (result.run_dir / "report.md").read_text()
    assert "method.argument_defaulted" in report and "with beta at its default" in report and "2.0" in report
    # what the planner chose beyond the task is said, each with its default (width is the task's, not a choice)
    choices = [f for f in json.loads((result.run_dir / "run.json").read_text())["findings"]
               if f["code"] == "method.model_choices"]
    assert [c["evidence"]["chosen"] for c in choices] == [{"depth": 1, "latencies": [1, 2], "samples": 2000}]
    assert choices[0]["severity"] == "note" and "samples = 2000 (default 100000)" in choices[0]["message"]
    assert "method.model_choices" in report


def test_a_call_the_planner_left_at_defaults_has_no_choices_to_report(tmp_path: Path) -> None:
    task = tmp_path / "task.md"
    task.write_text("---\ntitle: LIF regions\n---\nCount the regions of a small LIF network of width 3 and depth 1, "
                    "latencies 1 and 2.\n")
    planned = {"width": 3, "depth": 1, "latencies": [1, 2], "samples": 100000, "beta": 0.9}
    plan = Plan(steps=[PlanStep(id="s1", title="Count regions", goal="Count the regions.", agent="method_operator",
                                method=MethodCall(name="theory.lif_snn_regions", arguments=planned))])
    result = solve(task, workspace=tmp_path / "ws", model="scripted", sandbox="process",
                   models={"scripted": brain(planner=lambda r: plan)})
    assert result.status == "done", result.error
    codes = [f["code"] for f in json.loads((result.run_dir / "run.json").read_text())["findings"]]
    assert "method.model_choices" not in codes
