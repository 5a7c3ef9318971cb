"""The method arguments a task's front matter states are the task's, not the model's (issue 16): constants in
the method operator's schema (a grammar writes them as given), and put back by code whatever a model wrote."""

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
    plan = Plan(steps=[PlanStep(id="s1", title="Summarise", goal="Summarise the chain.", agent="method_operator",
                                method=MethodCall(name="cosmology.summarize_chain", arguments={}))])
    asked = []

    def operator(request):  # type: ignore[no-untyped-def]
        asked.append(request.output_schema.model_json_schema())
        return MethodCallDraft(method="cosmology.summarize_chain", arguments={"chain": "decoy.txt"})

    result = solve(task, workspace=tmp_path / "ws", model="scripted",
                   models={"scripted": brain(planner=lambda r: plan, method_operator=operator)}, sandbox="process")
    schema = asked[0]["properties"]["arguments"]
    chain = next(v for k, v in result_arguments(result.run_dir).items() if k == "chain")
    assert schema["properties"]["chain"] == {"const": chain} and "chain" in schema["required"]
    assert chain.endswith("chain.txt")  # the task's file, not the decoy the model wrote
    assert result.status == "done", result.error
    assert result.values["Omega_m"]["mean"] == pytest.approx(0.3, abs=0.005)  # the real chain, summarised


def result_arguments(run: Path) -> dict[str, str]:
    """The arguments the method cell ran with (code renders them as ``json.loads("...")``)."""
    import ast

    cell = next(run.glob("steps/01-*/cells/attempt-1.py")).read_text()
    literal = cell.split("json.loads(", 1)[1].split("))\n", 1)[0]
    return json.loads(ast.literal_eval(literal))
