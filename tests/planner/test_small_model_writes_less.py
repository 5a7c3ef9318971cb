"""A small model is asked to write what the run uses of it (issue 30): on a task that names its method, a model
that takes compact prompts (a local llama.cpp server with a small context) gets a plan of at most two steps, a
requirements list of the files and numbers the task states, shorter critiques, summaries and report drafts — and
so smaller output budgets, which follow the schemas — and a narrative that code's audits reject is set aside for
code's at once instead of being asked for again.  The same run with a model that does not take compact prompts
(hosted providers, the full prompt form) keeps every bound, budget and call as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import PlanDraft, ReportDraft, StepSummary, bind_schema
from cmbagent.agents._schemas import MethodCallDraft
from cmbagent.api import solve
from cmbagent.models import model_schema, output_budget, read_transcript, reply_chars
from cmbagent.models._structured import MIN_BUDGET
from cmbagent.state import Critique, MethodCall, Plan, PlanStep, RequirementList, StatedItem
from tests.planner._support import brain, chain_task

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

METHOD = "cosmology.summarize_chain"


def _run(tmp_path: Path, *, compact: bool) -> tuple[Path, list[dict[str, Any]], dict[str, list[str]]]:
    """The chain task (front matter: its method and chain file) with a scripted model that does or does not take
    compact prompts: the requirements analyst lists a number the task never writes (SmolLM2's "1911") and one it
    does; the planned call is refused (a fraction that is not a number), so the method operator is asked; the
    reporter states a number the run did not produce, so code's audits reject its narrative."""
    tmp_path.mkdir()
    task = chain_task(tmp_path)
    plan = Plan(steps=[PlanStep(id="s1", title="Summarise", goal="Summarise the chain.", agent="method_operator",
                                method=MethodCall(name=METHOD, arguments={"burn_in_fraction": "half"}))])
    prompts: dict[str, list[str]] = {}

    def seen(agent: str, reply: Any) -> Any:
        def answer(request: Any) -> Any:
            prompts.setdefault(agent, []).append(request.messages[-1].text())
            return reply
        return answer

    noise = RequirementList(items=[StatedItem(kind="number", quote="1911", number=19, what="1000"),
                                   StatedItem(kind="number", quote="68% intervals", number=0.68, what="interval")])
    model = brain(planner=lambda r: plan, requirements_analyst=lambda r: noise,
                  method_operator=seen("method_operator", MethodCallDraft(method=METHOD, arguments={})),
                  reporter=seen("reporter", ReportDraft(title="Chain", summary="Omega_m = 0.123456 from the chain.")))
    model.compact_prompts = compact  # what a local llama.cpp server with a small context says of itself
    result = solve(task, workspace=tmp_path / "ws", model="scripted", models={"scripted": model}, sandbox="process")
    return result.run_dir, list(read_transcript(result.run_dir / "transcript.jsonl")), prompts


def _budgets(calls: list[dict[str, Any]]) -> dict[str, int]:
    return {c["agent"]: c["request"]["settings"]["max_tokens"] for c in calls}


def _schema(calls: list[dict[str, Any]], agent: str) -> dict[str, Any]:
    return next(c["request"]["output_schema"]["schema"] for c in calls if c["agent"] == agent)


Runs = dict[bool, tuple[Path, list[dict[str, Any]], dict[str, list[str]]]]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    """The run with a model that takes compact prompts (True) and with one that does not (False)."""
    folder = tmp_path_factory.mktemp("runs")
    return {compact: _run(folder / str(compact), compact=compact) for compact in (False, True)}


def test_a_small_model_gets_smaller_schemas_and_budgets_and_a_hosted_one_keeps_its_own(runs: Runs) -> None:
    (_, full, full_prompts), (_, small, small_prompts) = runs[False], runs[True]
    budgets, small_budgets = _budgets(full), _budgets(small)
    kwargs: dict[str, Any] = {"agents": ["method_operator"], "methods": [METHOD]}
    for agent, schema, extra in (("step_critic", Critique, {"criteria": 0}), ("science_checker", Critique,
                                 {"criteria": 0}), ("summariser", StepSummary, {}), ("reporter", ReportDraft, {})):
        # what a small model may write is shorter, and its budget is that reply at a token a character (its
        # grammar holds it to the schema; digits take a token each): it never stops on its token limit
        bound, as_declared = (model_schema(bind_schema(schema, **kwargs, **extra, compact=c)) for c in (True, False))
        assert reply_chars(bound) < 0.6 * reply_chars(as_declared), agent
        assert small_budgets[agent] == max(MIN_BUDGET, reply_chars(bound)), (agent, small_budgets[agent])
    assert small_budgets["requirements_analyst"] < budgets["requirements_analyst"]
    # the full form's budgets are those of the schemas as bound for every model (unchanged by this)
    assert budgets["summariser"] == output_budget(bind_schema(StepSummary, **kwargs)) == 407
    assert budgets["reporter"] == output_budget(bind_schema(ReportDraft, **kwargs)) == 2374
    assert budgets["step_critic"] == output_budget(bind_schema(Critique, **kwargs, criteria=0)) == 803
    # a plan for the named method: the method step and at most one more (the full form: up to the step limit);
    # its budget stays the tier's (a method call's arguments alone may take thousands of tokens under a grammar)
    lengths = {alt["maxItems"] for alt in _schema(small, "planner")["properties"]["steps"]["anyOf"]}
    assert lengths == {1, 2}
    assert max(alt["maxItems"] for alt in _schema(full, "planner")["properties"]["steps"]["anyOf"]) >= 8
    # a requirements list of files and numbers only (code compares nothing else), sized by what the rules found
    listed = _schema(small, "requirements_analyst")
    item = listed["$defs"]["StatedItem"]["properties"]
    assert item["kind"]["enum"] == ["file", "number"] and item["quote"]["maxLength"] == 80
    assert listed["properties"]["items"]["maxItems"] <= 4
    assert _schema(full, "requirements_analyst") == RequirementList.model_json_schema()
    # the method operator is shown the arguments it may still choose, not the method's JSON description
    (operator,) = small_prompts["method_operator"]
    (operator_full,) = full_prompts["method_operator"]
    assert '"keywords"' in operator_full and '"keywords"' not in operator
    method = operator.split("## Method\n")[1].split("\n\n## ")[0]
    assert "- burn_in_fraction" in method and "- chain" not in method  # the task's chain file is shown above
    assert len(operator) < len(operator_full)


def test_a_rejected_narrative_of_a_small_model_is_replaced_by_codes_without_asking_again(runs: Runs) -> None:
    (_, full, _), (run_small, small, _) = runs[False], runs[True]
    assert [c["agent"] for c in full].count("reporter") == 2  # the full form: asked again with the findings
    assert [c["agent"] for c in small].count("reporter") == 1
    report = (run_small / "report.md").read_text()
    assert "0.123456" not in report.split("## ")[1]  # the rejected summary is not the report's answer
    assert "written by code from the key numbers" in report
    assert "the reporter's narrative was set aside" in report
    assert "0.3" in report  # code's narrative states the chain's mean


def test_the_small_models_bounds_are_in_the_schema_only() -> None:
    """A reply beyond a small model's bounds still validates (the grammar keeps a small model within them)."""
    kwargs: dict[str, Any] = {"agents": ["method_operator"], "methods": [METHOD], "compact": True}
    listed = bind_schema(RequirementList, **kwargs, stated=1)
    long = listed.model_validate({"items": [{"kind": "word", "quote": "q" * 150}] * 5})
    assert isinstance(long, RequirementList) and len(long.items) == 5
    critique = bind_schema(Critique, **kwargs).model_validate(
        {"accepted": False, "verdict": "v" * 300, "issues": ["i"] * 4})
    assert isinstance(critique, Critique) and len(critique.issues) == 4
    assert isinstance(bind_schema(StepSummary, **kwargs).model_validate({"summary": "s" * 900}), StepSummary)
    plan = bind_schema(PlanDraft, **kwargs, named=METHOD, max_steps=12)
    assert issubclass(plan, PlanDraft)


def test_a_small_models_number_counts_only_where_its_quote_is_the_tasks_words(runs: Runs) -> None:
    """SmolLM2 listed 19 quoting "1911", which the task never writes; as a checklist item it ended the run unmet.
    A small model's number is an item only where its quote is the task's words and writes the number; a hosted
    model's list is taken as before."""
    import json

    def model_items(run_dir: Path) -> list[str]:
        items = json.loads((run_dir / "requirements.json").read_text())["items"]
        return [i["requirement"]["text"] for i in items if i["requirement"]["source"] == "model"]

    (run_full, *_), (run_small, *_) = runs[False], runs[True]
    assert model_items(run_full) == ["1911", "68% intervals"]
    assert model_items(run_small) == ["68% intervals"]  # written in the task: checked like the rules' items


def test_a_grounded_number_is_written_in_a_quote_of_the_task() -> None:
    from cmbagent.planner._planning import grounded_number

    text = "Fit at the 5%  level with\nleak 0.9 and T = 1…6."
    assert grounded_number(0.9, "leak 0.9", text) and grounded_number(0.05, "the 5% level", text)
    assert grounded_number(5, "the 5% level", text)
    assert not grounded_number(19, "1911", text)  # not the task's words
    assert not grounded_number(3, "leak 0.9", text)  # the task's words, but not that number
    assert not grounded_number(0.9, "", text)
