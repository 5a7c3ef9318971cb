"""Orchestration overhead of the Planning & Control graph against a "glue by LLM" baseline.

A 10-step plan runs through the real graph (LangGraph, SQLite checkpoints with durability="sync", the
event log, the transcript, the model client) with a zero-latency scripted model and an instant in-process
executor, so what is left is the orchestration itself.  Reported for each variant:

* graph overhead per agent turn: wall time minus model time minus cell time, divided by model calls;
* model calls per plan step.

Baseline "glue by LLM" (as in the reference cmbagent, where a controller agent routes, a formatter
re-types outputs and a recorder writes state): the same run, but every judgement is wrapped by three more
model calls (route, format, record).  Cells run in the package's in-memory executor, whose time is
excluded; ``report.md`` is rendered once at the end, as a run session does.
Run: ``python bench/orchestration.py [--steps 10] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from cmbagent.agents import (
    AuditReport,
    CodeDraft,
    CodeReview,
    Critique,
    PlanReview,
    ReportDraft,
    StepContext,
    StepSummary,
    TaskBrief,
    load_registry,
)
from cmbagent.cells import print_result
from cmbagent.checkpoints import open_sqlite
from cmbagent.config import RunSettings
from cmbagent.events import EventLog
from cmbagent.models import Message, ModelClient, ModelRequest, ModelResponse, Routing, ScriptedModel
from cmbagent.planner import Plan, PlanStep, RunState, Runtime, build_graph
from cmbagent.report import costs_of, write_report
from cmbagent.run import RunFolder
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.session import task_spec
from cmbagent.state import RequirementList
from cmbagent.task import parse_task


class TimedModel(ScriptedModel):
    """A zero-latency scripted model that also measures its own time (excluded from overhead)."""

    seconds = 0.0

    def request(self, request: ModelRequest, *, on_text: Any = None) -> ModelResponse:
        started = time.perf_counter()
        try:
            return super().request(request, on_text=on_text)
        finally:
            self.seconds += time.perf_counter() - started


def answers(n_steps: int) -> Any:
    plan = Plan(steps=[PlanStep(id=f"s{i}", title=f"Quantity {i}", goal=f"Compute quantity {i}.", agent="engineer",
                                acceptance_criteria=[f"prints q{i}"]) for i in range(1, n_steps + 1)])

    def fn(request: ModelRequest) -> Any:
        agent = request.agent
        if agent in {"router", "formatter", "recorder"}:
            return f"{agent}: ok"
        if agent == "engineer":
            assert isinstance(request.context, StepContext)  # the typed context the prompt was rendered from
            n = request.context.step.id[1:]
            return CodeDraft(code="import json\n" + print_result(f"{{'q{n}': {n}}}"))
        table: dict[str, Any] = {
            "task_analyst": TaskBrief(title="bench", objective="compute"), "planner": plan,
            "requirements_analyst": RequirementList(),  # the task states no files, numbers or model words
            "plan_reviewer": PlanReview(approved=True), "code_reviewer": CodeReview(approved=True),
            "step_critic": Critique(accepted=True, verdict="ok"), "summariser": StepSummary(summary="done"),
            "reproducibility_auditor": AuditReport(reproducible=True), "reporter": ReportDraft(title="b", summary="s"),
        }
        return table[agent]

    return fn


class TimingClient:
    """Measures time spent inside the model client (its recording: transcript, ledger, events)."""

    def __init__(self, client: Any):
        self.client = client
        self.ledger = client.ledger
        self.seconds = 0.0

    def check_budget(self) -> None:
        self.client.check_budget()

    def request(self, *, agent: str, tier: str, request: ModelRequest) -> ModelResponse:
        started = time.perf_counter()
        try:
            return self.client.request(agent=agent, tier=tier, request=request)
        finally:
            self.seconds += time.perf_counter() - started


class GlueClient:
    """Baseline: every judgement also pays a routing, a formatting and a recording model call."""

    def __init__(self, client: ModelClient):
        self.client = client
        self.ledger = client.ledger

    def check_budget(self) -> None:
        self.client.check_budget()

    def request(self, *, agent: str, tier: str, request: ModelRequest) -> ModelResponse:
        self._glue("router", f"Who should act next? Last turn: {agent}")
        response = self.client.request(agent=agent, tier=tier, request=request)
        self._glue("formatter", f"Reformat this output of {agent}: {response.text[:2000]}")
        self._glue("recorder", f"Record this into the state: {response.text[:2000]}")
        return response

    def _glue(self, name: str, text: str) -> None:
        self.client.request(agent=name, tier="fast", request=ModelRequest(messages=[Message(role="user", content=text)]))


def run_once(n_steps: int, *, glue: bool, root: Path) -> dict[str, float]:
    task = parse_task("Compute the quantities.", where="bench", check_method=False)
    folder = RunFolder.create(task, workspace=root, run_dir=None, config={})
    model = TimedModel(fn=answers(n_steps))
    client = ModelClient(Routing(default="scripted", models={"scripted": model}), transcript_path=folder.transcript)
    executor = InMemoryExecutor(folder.path)
    timed = TimingClient(GlueClient(client) if glue else client)
    rt = Runtime(folder=folder, registry=load_registry(), client=timed,
                 events=EventLog(folder.events, folder.path.name), settings=RunSettings(max_steps=n_steps),
                 open_executor=lambda: executor)
    store = open_sqlite(folder.checkpoints)
    graph = build_graph(store.saver)
    thread = {"configurable": {"thread_id": folder.path.name}}
    started = time.perf_counter()
    graph.invoke(RunState(task=task_spec(task)), thread, context=rt, durability="sync")
    state = RunState.model_validate(graph.get_state(thread).values)
    write_report(folder, state, costs=costs_of(client.ledger))  # rendered once, as a run session does
    wall = time.perf_counter() - started
    store.close()
    assert state.status == "done", state.stop_reason
    calls = len(client.ledger.calls)
    step_calls = sum(1 for c in client.ledger.calls
                     if c.agent in {"engineer", "code_reviewer", "step_critic", "summariser", "router", "formatter",
                                    "recorder"})
    if glue:  # glue calls made around planning/report turns are not step calls
        step_calls = 4 * sum(1 for c in client.ledger.calls if c.agent in {"engineer", "code_reviewer",
                                                                             "step_critic", "summariser"})
    overhead = wall - model.seconds - executor.seconds
    recording = timed.seconds - model.seconds  # the model client's bookkeeping (transcript, ledger, events)
    return {"wall_s": wall, "overhead_s": overhead, "calls": calls, "judgements": rt.turns,
            "overhead_ms_per_turn": 1000 * overhead / rt.turns,
            "graph_ms_per_turn": 1000 * (overhead - recording) / rt.turns,
            "recording_ms_per_call": 1000 * recording / calls,
            "calls_per_step": step_calls / n_steps}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results: dict[str, list[dict[str, float]]] = {"graph": [], "glue by LLM": []}
    with tempfile.TemporaryDirectory() as tmp:
        run_once(2, glue=False, root=Path(tmp))  # warm imports
        for _ in range(args.repeat):
            results["graph"].append(run_once(args.steps, glue=False, root=Path(tmp)))
            results["glue by LLM"].append(run_once(args.steps, glue=True, root=Path(tmp)))
    print(f"{args.steps}-step plan, zero-latency scripted model, instant executor, median of {args.repeat} runs")
    print("a turn is one agent judgement; overhead excludes model time and cell execution")
    print(f"{'variant':12s} {'calls':>6s} {'calls/step':>10s} {'overhead/turn':>14s} {'graph/turn':>11s} "
          f"{'recording/call':>15s}")
    summary = {}
    for name, runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        summary[name] = med
        print(f"{name:12s} {med['calls']:6.0f} {med['calls_per_step']:10.1f} {med['overhead_ms_per_turn']:11.2f} ms "
              f"{med['graph_ms_per_turn']:8.2f} ms {med['recording_ms_per_call']:12.2f} ms")
    ours, base = summary["graph"], summary["glue by LLM"]
    print(f"model calls per plan step: graph {ours['calls_per_step']:.1f} (one per judgement; routing, formatting "
          f"and recording are code) vs glue {base['calls_per_step']:.1f} ({base['calls'] / ours['calls']:.1f}x)")
    print(f"orchestration per turn: glue/graph = {base['overhead_ms_per_turn'] / ours['overhead_ms_per_turn']:.2f}x; "
          f"at 1 s per model call the glue calls add {base['calls'] - ours['calls']:.0f} s to this run")
    print(f"target < 10 ms per turn: {'met' if ours['overhead_ms_per_turn'] < 10 else 'NOT met'} "
          f"({ours['overhead_ms_per_turn']:.2f} ms; graph alone {ours['graph_ms_per_turn']:.2f} ms)")


if __name__ == "__main__":
    main()
