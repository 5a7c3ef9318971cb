"""Prompt layout for prefix caching (issue 30): each agent's prompt starts with a part that is byte-identical from
call to call (its instructions), and what changes (the call's context, a repair, a fallback mode's schema) comes
after it, so a server's prompt cache (llama.cpp ``cache_prompt``, OpenAI's automatic caching, Anthropic's marked
boundary) serves the beginning again.  Per call, the server's account of cache, prefill and generation is kept
in the transcript and the run's cost table."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from cmbagent.api import replay, solve
from cmbagent.models import ModelRequest, ModelResponse, Timings, Usage, read_transcript
from cmbagent.planner import Plan, PlanStep
from cmbagent.sandbox import InMemoryExecutor
from tests.fakes import FakeLLMServer
from tests.faults._support import TASK, Agents
from tests.planner._support import brain, result_code, step_id

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _by_agent(run_dir: Path) -> dict[str, list[list[dict[str, str]]]]:
    calls: dict[str, list[list[dict[str, str]]]] = defaultdict(list)
    for line in read_transcript(run_dir / "transcript.jsonl"):
        calls[line["agent"]].append(line["request"]["messages"])
    return calls


def test_every_call_of_an_agent_starts_with_the_same_bytes(tmp_path: Path) -> None:
    plan = Plan(steps=[PlanStep(id=f"s{i}", title=f"Quantity {i}", goal=f"Compute q{i}.", agent="engineer",
                                # one, two, three criteria: the critique schemas differ from step to step
                                acceptance_criteria=[f"prints q{i} with {k} digits" for k in range(1, i + 1)])
                       for i in (1, 2, 3)])

    def engineer(request: ModelRequest) -> object:
        from cmbagent.agents import CodeDraft

        n = int(step_id(request)[1:])
        return CodeDraft(code=result_code({f"q{n}": n * 1.5}))

    result = solve("Compute three quantities.", workspace=tmp_path, model="scripted", n_reviews=0, sandbox="process",
                   models={"scripted": brain(planner=lambda r: plan, engineer=engineer)})
    assert result.status == "done", result.error
    calls = _by_agent(result.run_dir)
    repeated = {agent: messages for agent, messages in calls.items() if len(messages) > 1}
    assert {"engineer", "step_critic", "summariser"} <= set(repeated), sorted(calls)
    for agent, messages in repeated.items():
        systems = {m[0]["content"] for m in messages}
        assert [m[0]["role"] for m in messages] == ["system"] * len(messages)
        assert len(systems) == 1, (agent, [s[:200] for s in systems])  # the stable prefix, byte for byte
        assert all(f"Step s{i}" not in next(iter(systems)) for i in (1, 2, 3))  # nothing of a call in it
        users = [m[-1]["content"] for m in messages]
        assert len(set(users)) == len(users), agent  # what changes is after it
    # each call's output budget follows its schema: a critique of one criterion gets less than one of three
    budgets = [line["request"]["settings"]["max_tokens"] for line in read_transcript(result.run_dir / "transcript.jsonl")
               if line["agent"] == "step_critic"]
    assert budgets[0] < budgets[1] < budgets[2] < 2048, budgets


def test_a_fallback_modes_schema_comes_after_the_stable_prefix(tmp_path: Path) -> None:
    """A server without ``json_schema`` gets the schema in words: at the end of the last message, never before the
    agent's instructions (a critique's schema differs from step to step)."""
    agents = Agents()
    with FakeLLMServer(fn=agents, json_schema_supported=False) as server:
        result = solve(TASK, workspace=tmp_path / "ws", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
        answered = [r for r in server.requests if r.body.get("response_format", {}).get("type") == "json_object"]
    assert result.status == "done", result.error
    first: dict[str, str] = {}
    for request in answered:
        messages = request.body["messages"]
        system = messages[0]
        assert system["role"] == "system" and "validates against this JSON schema" not in system["content"]
        assert "validates against this JSON schema" in messages[-1]["content"] and messages[-1]["role"] == "user"
        agent = system["content"][:80]
        assert first.setdefault(agent, system["content"]) == system["content"]
    assert len(first) >= 5


def test_the_servers_account_of_each_call_is_in_the_transcript_and_the_cost_table(tmp_path: Path) -> None:
    """llama.cpp reports per call the prompt tokens it read and took from its cache and the seconds of prefill and
    generation: they are on the call's transcript line, in ``model_call`` events and in run.json's costs."""
    from cmbagent.agents import StepSummary

    def summary(request: ModelRequest) -> ModelResponse:
        reply = StepSummary(summary=f"Step {step_id(request)} finished.")
        return ModelResponse(text=reply.model_dump_json(), output=reply, model="llama",
                             usage=Usage(input_tokens=900, output_tokens=20, cached_tokens=800),
                             timings=Timings(prompt_tokens=100, cached_tokens=800, prefill_s=0.25,
                                             generated_tokens=20, generation_s=0.5))

    result = solve("Compute one quantity.", workspace=tmp_path, model="scripted", n_reviews=0, sandbox="process",
                   models={"scripted": brain(summariser=summary, planner=lambda r: Plan(steps=[PlanStep(
                       id="s1", title="Q", goal="Compute q.", agent="engineer")]),
                       engineer=lambda r: __import__("cmbagent.agents", fromlist=["CodeDraft"]).CodeDraft(
                           code=result_code({"q": 1.0})))})
    assert result.status == "done", result.error
    line = next(c for c in read_transcript(result.run_dir / "transcript.jsonl") if c["agent"] == "summariser")
    assert line["timings"] == {"prompt_tokens": 100, "cached_tokens": 800, "prefill_s": 0.25,
                               "generated_tokens": 20, "generation_s": 0.5}
    assert line["usage"]["cached_tokens"] == 800
    costs = json.loads((result.run_dir / "run.json").read_text())["costs"]
    row = costs["per_agent"]["summariser"]
    assert (row["cached_tokens"], row["prefill_s"], row["generation_s"]) == (800, 0.25, 0.5)
    events = [json.loads(e) for e in (result.run_dir / "events.jsonl").read_text().splitlines()]
    call = next(e["data"] for e in events if e["type"] == "model_call" and e["data"]["agent"] == "summariser")
    assert (call["prefill_s"], call["generation_s"], call["cached_tokens"]) == (0.25, 0.5, 800)
    report = (result.run_dir / "report.md").read_text()
    assert "| cached input tokens | prefill (s) | generation (s) |" in report
    assert "| summariser | 1 | 900 | 20 | 0.0000 | 800 | 0.2 | 0.5 |" in report, report[-1500:]


def _three_steps(tmp_path: Path, *, compact: bool) -> Path:
    """The first test's run of three code steps, with a scripted model that does or does not take compact prompts."""
    from cmbagent.agents import CodeDraft

    plan = Plan(steps=[PlanStep(id=f"s{i}", title=f"Quantity {i}", goal=f"Compute q{i}.", agent="engineer",
                                acceptance_criteria=[f"prints q{i}"]) for i in (1, 2, 3)])
    model = brain(planner=lambda r: plan,
                  engineer=lambda r: CodeDraft(code=result_code({f"q{step_id(r)[1:]}": 1 / 3 + int(step_id(r)[1:])})),
                  )
    model.compact_prompts = compact  # what a local llama.cpp server with a small context says of itself
    result = solve("Compute three quantities.", workspace=tmp_path, model="scripted", n_reviews=0,
                   executor=InMemoryExecutor, models={"scripted": model})
    assert result.status == "done", result.error
    return result.run_dir


def test_a_model_that_takes_compact_prompts_gets_a_shorter_prompt_with_the_same_stable_prefix(tmp_path: Path) -> None:
    """A small local model is not told what its grammar enforces (the reply's field descriptions, the agents'
    descriptions) nor shown twice what another section shows (a cell's result block, ten digits of a value); the
    instructions still come first, byte-identical from call to call, and the run ends the same way."""
    from cmbagent.cells import RESULT_BEGIN

    full_run = _three_steps(tmp_path / "full", compact=False)
    compact_run = _three_steps(tmp_path / "compact", compact=True)
    full, compact = _by_agent(full_run), _by_agent(compact_run)
    assert {agent: len(calls) for agent, calls in full.items()} == {a: len(calls) for a, calls in compact.items()}
    for agent, calls in compact.items():
        assert len({m[0]["content"] for m in calls}) == 1, agent  # the stable prefix, byte for byte
        for short, long in zip(calls, full[agent], strict=True):
            assert sum(len(m["content"]) for m in short) <= sum(len(m["content"]) for m in long), agent
    critic_full, critic_compact = full["step_critic"][0], compact["step_critic"][0]
    assert "- accepted (bool):" in critic_full[0]["content"]
    assert "with the fields accepted, verdict, issues" in critic_compact[0]["content"]
    assert "- accepted (bool):" not in critic_compact[0]["content"]
    assert RESULT_BEGIN in critic_full[-1]["content"] and '"q1": 1.333333333' in critic_full[-1]["content"]
    assert RESULT_BEGIN not in critic_compact[-1]["content"] and '"q1": 1.333}' in critic_compact[-1]["content"]
    planner_full, planner_compact = full["planner"][0][0]["content"], compact["planner"][0][0]["content"]
    assert "- engineer (code): Writes" in planner_full
    assert "- engineer (code)" not in planner_compact and re.search(r"- code: .*\bengineer\b", planner_compact)
    total = {name: sum(len(m[0]["content"]) + len(m[-1]["content"]) for calls in run.values() for m in calls)
             for name, run in (("full", full), ("compact", compact))}
    assert total["compact"] < 0.9 * total["full"], total  # 0.89 here; more where outputs are long
    # each call says on its transcript line that its prompt was compact, so a replay renders it the same way
    assert all(line.get("prompts") == "compact" for line in read_transcript(compact_run / "transcript.jsonl"))
    assert not any("prompts" in line for line in read_transcript(full_run / "transcript.jsonl"))
    replayed, comparison = replay(compact_run, workspace=tmp_path / "replays", executor=InMemoryExecutor)
    assert replayed.status == "done", replayed.error  # strict: every request hashed as recorded
    assert comparison["same_numbers"] and comparison["same_plan"], comparison


def test_the_calls_that_read_shared_material_are_marked(tmp_path: Path) -> None:
    """The graph marks the requests whose material the call just before or after them reads too (the analysts; a
    step's two critics), so a one-run cache can serve it (``cmbagent.models.local``); the planner's, the code
    writer's, the summariser's and the reporter's are not marked.  The mark changes no byte of the messages."""
    from cmbagent.models import ScriptedModel
    from cmbagent.planner._runtime import SHARED_MATERIAL

    plan = Plan(steps=[PlanStep(id="s1", title="Quantity", goal="Compute q.", agent="engineer",
                                acceptance_criteria=["prints q"])])

    def engineer(request: ModelRequest) -> object:
        from cmbagent.agents import CodeDraft

        return CodeDraft(code=result_code({"q": 1.5}))

    inner = brain(planner=lambda r: plan, engineer=engineer)
    marks: dict[str, set[bool]] = defaultdict(set)

    def answer(request: ModelRequest) -> object:
        marks[request.agent].add(request.shared_material)
        assert inner.fn is not None
        return inner.fn(request)

    result = solve("Compute one quantity.", workspace=tmp_path, model="scripted", n_reviews=0, sandbox="process",
                   models={"scripted": ScriptedModel(fn=answer)})
    assert result.status == "done", result.error
    assert {"task_analyst", "requirements_analyst", "step_critic", "summariser"} <= set(marks), sorted(marks)
    for agent, seen in marks.items():
        assert seen == {agent in SHARED_MATERIAL}, (agent, seen)
    assert {"planner", "engineer", "summariser", "reporter"} <= {a for a in marks if a not in SHARED_MATERIAL}
    line = next(iter(read_transcript(result.run_dir / "transcript.jsonl")))
    assert "shared_material" not in line["request"]

