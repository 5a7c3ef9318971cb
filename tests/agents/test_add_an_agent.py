"""Adding an agent is one prompt file (docs/extending.md): the registry loads it, the planner may name it
(the plan schema's enum grows), its role's handler runs its steps and the offline backend answers it with
its output schema's rule — no other file changes."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import load_registry
from cmbagent.checkpoints import open_sqlite
from cmbagent.config import RunSettings
from cmbagent.events import EventLog
from cmbagent.models import ModelClient, ModelRequest, Routing, ScriptedModel
from cmbagent.planner import RunState, Runtime, build_graph
from cmbagent.run import RunFolder
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.session import task_spec
from cmbagent.state import MethodCall, PlanDraft, StepDraft
from cmbagent.task import load_task

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

NEW_AGENT = """---
name: units_reviewer
role: text
description: "Checks that every reported quantity carries consistent physical units and says which do not."
tools: []
output_schema: TextAnswer
tier: strong
---
You are the units reviewer. You receive the task brief, the plan, the current step and summaries of the
steps before it, with their numbers. For every reported quantity, state its physical unit (or that it is
dimensionless), check that values quoted together use the same units, and name any quantity whose unit
cannot be determined from the run. Do not recompute anything; read the numbers as reported.

What good looks like: one line per quantity, then one sentence on whether the set is consistent.

{{ output_format }}
"""


def test_a_new_prompt_file_is_a_working_agent(tmp_path: Path) -> None:
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    for entry in resources.files("cmbagent.prompts").iterdir():
        if entry.name.endswith(".md"):
            (prompts / entry.name).write_text(entry.read_text(encoding="utf-8"), encoding="utf-8")
    (prompts / "units_reviewer.md").write_text(NEW_AGENT, encoding="utf-8")
    registry = load_registry(prompts)
    assert "units_reviewer" in registry.step_agents()

    rng = np.random.default_rng(0)
    np.savetxt(tmp_path / "chain.txt", rng.normal([0.3, 0.7], [0.02, 0.01], size=(2000, 2)), header="omega_m h")
    task_file = tmp_path / "task.md"
    task_file.write_text("---\nmethod: cosmology.summarize_chain\narguments: {chain: chain.txt}\n---\n"
                         "Summarise the chain and check the units of what it reports.\n")
    task = load_task(task_file)

    def planner(request: ModelRequest) -> PlanDraft:
        schema = request.output_schema.model_json_schema()  # type: ignore[union-attr]
        assert "units_reviewer" in [a for kind in schema["$defs"]["StepDraft"]["anyOf"]
                                    for a in kind["properties"]["agent"]["enum"]]
        return PlanDraft(steps=[
            StepDraft(title="Summarise the chain", goal="Posterior summaries.", agent="method_operator",
                      method=MethodCall(name="cosmology.summarize_chain", arguments={"chain": "data/chain.txt"})),
            StepDraft(title="Check units", goal="Units of every number.", agent="units_reviewer", inputs=["s1"]),
        ])

    folder = RunFolder.create(task, workspace=tmp_path / "ws", run_dir=None, config={})
    routing = Routing(default="offline", agents={"planner": "scripted"},
                      models={"scripted": ScriptedModel(fn=planner)})
    client = ModelClient(routing, transcript_path=folder.transcript)
    executor = InMemoryExecutor(folder.path)
    rt = Runtime(folder=folder, registry=registry, client=client, events=EventLog(folder.events, "t"),
                 settings=RunSettings(n_reviews=0), open_executor=lambda: executor)
    store = open_sqlite(folder.checkpoints)
    graph = build_graph(store.saver)
    thread = {"configurable": {"thread_id": "t"}}
    graph.invoke(RunState(task=task_spec(task)), thread, context=rt, durability="sync")
    state = RunState.model_validate(graph.get_state(thread).values)
    store.close()
    assert state.status == "done", state.stop_reason
    review = state.steps["s2"]
    assert review.status == "done" and review.answer is not None
    answer = (folder.path / review.answer).read_text()
    assert "Omega_m" in answer or "omega_m" in answer  # the offline text rule read the earlier step's numbers
    assert any(c.agent == "units_reviewer" for c in client.ledger.calls)
    shutil.rmtree(prompts)
