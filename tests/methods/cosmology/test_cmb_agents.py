"""The CAMB, CLASS and Cobaya engineers run their steps through the offline backend, and a code step that
uses an indexed package (``cmbagent index --package camb``) gets that package's docstrings in its context:
the retrieval of a CAMB function's docstring for a cell that imports camb.

Slow: the fixture indexes camb's ``camb.results`` and ``camb.camb`` modules (the calls a spectra cell makes; 80
chunks of the package's 458), embedded with the packaged MiniLM model: a few seconds on two idle cores, about a
minute on the shared development machine."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import load_registry
from cmbagent.checkpoints import open_sqlite
from cmbagent.config import RunSettings
from cmbagent.events import EventLog
from cmbagent.literature import MiniLMEmbedder, index_package, package_passages
from cmbagent.models import ModelClient, ModelRequest, Routing, ScriptedModel
from cmbagent.planner import RunState, Runtime, build_graph
from cmbagent.run import RunFolder
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.session import task_spec
from cmbagent.state import MethodCall, PlanDraft, StepDraft
from cmbagent.task import load_task

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning")]

CELL = """import camb
pars = camb.set_params(H0=67.5, ombh2=0.022, omch2=0.122, tau=0.055, As=2e-9, ns=0.965, lmax=2500)
results = camb.get_results(pars)
powers = results.get_cmb_power_spectra(pars, CMB_unit="muK")
"""


@pytest.fixture(scope="module")
def camb_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("index")
    report = index_package("camb", folder, embedder=MiniLMEmbedder(threads=1), modules=["camb.results", "camb.camb"])
    assert report.ok and 50 < report.chunks_total < 120
    return folder


def test_a_cell_importing_camb_gets_the_docstring_of_what_it_calls(camb_index: Path) -> None:
    found = package_passages("compute the lensed CMB power spectra", code=CELL, folder=camb_index, k=4,
                             embedder=MiniLMEmbedder(threads=1))
    names = [p.chunk.heading for p in found]
    assert "camb.results.CAMBdata.get_cmb_power_spectra" in names, names
    hit = found[names.index("camb.results.CAMBdata.get_cmb_power_spectra")]
    assert hit.package == "camb" and hit.chunk.source.endswith("results.py")
    assert "Get CMB power spectra" in hit.chunk.text and "CMB_unit" in hit.chunk.text  # docstring, signature
    assert len(found) <= 4 and all(len(p.block(1500)) <= 1600 for p in found)
    # a cell that imports nothing indexed, in a step that names no indexed package, gets nothing
    assert package_passages("fit a line", code="import numpy as np\n", folder=camb_index) == []


def test_cmb_agents_run_offline_and_the_camb_step_sees_camb_docs(tmp_path: Path, camb_index: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CMBAGENT_INDEX_DIR", str(camb_index))
    rng = np.random.default_rng(0)
    np.savetxt(tmp_path / "chain.txt", rng.normal([0.3, 0.7], [0.02, 0.01], size=(2000, 2)), header="omega_m h")
    task_file = tmp_path / "task.md"
    task_file.write_text("---\ndata: [chain.txt]\n---\nSummarise the posterior chain in chain.txt.\n")
    task = load_task(task_file)

    def planner(request: ModelRequest) -> PlanDraft:
        return PlanDraft(steps=[
            StepDraft(title="Lensed spectra with CAMB", goal="Look at the inputs before computing CAMB spectra.",
                      agent="camb_engineer", inputs=["data/chain.txt"]),
            StepDraft(title="Chain for Cobaya", goal="Describe the chain GetDist will summarise.",
                      agent="cobaya_engineer", inputs=["data/chain.txt"]),
            StepDraft(title="Inputs for CLASS", goal="Describe the input chain.", agent="class_engineer",
                      inputs=["data/chain.txt"]),
        ])

    folder = RunFolder.create(task, workspace=tmp_path / "ws", run_dir=None, config={})
    routing = Routing(default="offline", agents={"planner": "scripted"}, models={"scripted": ScriptedModel(fn=planner)})
    client = ModelClient(routing, transcript_path=folder.transcript)
    executor = InMemoryExecutor(folder.path)
    rt = Runtime(folder=folder, registry=load_registry(), client=client, events=EventLog(folder.events, "t"),
                 settings=RunSettings(n_reviews=0), open_executor=lambda: executor)
    store = open_sqlite(folder.checkpoints)
    graph = build_graph(store.saver)
    thread = {"configurable": {"thread_id": "t"}}
    graph.invoke(RunState(task=task_spec(task)), thread, context=rt, durability="sync")
    state = RunState.model_validate(graph.get_state(thread).values)
    store.close()
    assert state.status == "done", state.stop_reason
    # the chain summary the task asks for runs too: code puts its method step first when the plan has none
    by_agent = {step.agent: step.id for step in state.plan.steps}
    assert state.plan.steps[0].method is not None and state.plan.steps[0].method.name == "cosmology.summarize_chain"
    camb, cobaya, klass = by_agent["camb_engineer"], by_agent["cobaya_engineer"], by_agent["class_engineer"]
    assert [state.steps[s].status for s in (camb, cobaya, klass)] == ["done", "done", "done"]
    assert {c.agent for c in client.ledger.calls} >= {"camb_engineer", "cobaya_engineer", "class_engineer"}
    # the CAMB step was told CAMB's own documentation, and the run recorded which passages it used
    step_dir = folder.path / state.steps[camb].dir
    used = json.loads((step_dir / "package_docs.json").read_text())
    assert used and all(u["package"] == "camb" and u["chunk_id"] for u in used)
    from cmbagent.report._render import _package_docs  # the lines the report prints under the step

    assert _package_docs(folder, state.steps[camb].dir)[0].startswith(f"camb: `{used[0]['name']}` (")
    assert _package_docs(folder, state.steps[klass].dir) == []
    asked = [json.loads(line) for line in folder.transcript.read_text().splitlines()]
    camb_calls = [r for r in asked if r.get("agent") == "camb_engineer"]
    assert camb_calls and "Documentation of the packages this step uses" in json.dumps(camb_calls[0])
    # the CLASS step names no indexed package: its context has no package section
    class_calls = [r for r in asked if r.get("agent") == "class_engineer"]
    assert class_calls and "Documentation of the packages" not in json.dumps(class_calls[0])


def test_cli_indexes_a_package_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cmbagent.cli import app

    runner = CliRunner()
    done = runner.invoke(app, ["index", "--package", "camb", "--module", "camb.bbn", "--index-dir", str(tmp_path),
                               "--json"])
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)["camb"]
    assert report["collection"] == "pkg-camb" and report["chunks"]["total"] > 5
    again = runner.invoke(app, ["index", "--package", "camb", "--module", "camb.bbn", "--index-dir", str(tmp_path),
                                "--json"])
    assert json.loads(again.output)["camb"]["files"]["unchanged"] == 1  # nothing embedded twice
    missing = runner.invoke(app, ["index", "--package", "no_such_package_xyz", "--index-dir", str(tmp_path)])
    assert missing.exit_code != 0 and "not installed" in missing.output


def test_the_debugger_of_a_failing_camb_cell_reads_camb_docs(tmp_path: Path, camb_index: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell that imports camb and fails (a misspelled call) goes to the debugger with camb's passages."""
    from cmbagent.agents import CodeDraft

    monkeypatch.setenv("CMBAGENT_INDEX_DIR", str(camb_index))
    rng = np.random.default_rng(1)
    np.savetxt(tmp_path / "chain.txt", rng.normal([0.3, 0.7], [0.02, 0.01], size=(500, 2)), header="omega_m h")
    task_file = tmp_path / "task.md"
    task_file.write_text("---\ndata: [chain.txt]\nmethod: cosmology.summarize_chain\narguments: {chain: chain.txt}\n"
                         "---\nSummarise the posterior chain in chain.txt, then compute lensed CMB spectra with CAMB "
                         "at its mean.\n")
    task = load_task(task_file)

    def planner(request: ModelRequest) -> PlanDraft:
        return PlanDraft(steps=[
            StepDraft(title="Summarise the chain", goal="Summarise the chain.", agent="method_operator",
                      method=MethodCall(name="cosmology.summarize_chain", arguments={"chain": "data/chain.txt"})),
            StepDraft(title="Spectra with CAMB", goal="Compute lensed CMB spectra with CAMB.", agent="camb_engineer",
                      inputs=["data/chain.txt"])])

    def engineer(request: ModelRequest) -> CodeDraft:  # a call that does not exist in camb
        return CodeDraft(code="import camb\nresults = camb.get_resultz(camb.set_params(H0=67.5))\n")

    folder = RunFolder.create(task, workspace=tmp_path / "ws", run_dir=None, config={})
    routing = Routing(default="offline", agents={"planner": "planner", "camb_engineer": "engineer"},
                      models={"planner": ScriptedModel(fn=planner), "engineer": ScriptedModel(fn=engineer)})
    client = ModelClient(routing, transcript_path=folder.transcript)
    executor = InMemoryExecutor(folder.path)
    rt = Runtime(folder=folder, registry=load_registry(), client=client, events=EventLog(folder.events, "t"),
                 settings=RunSettings(n_reviews=0, max_attempts=2), open_executor=lambda: executor)
    store = open_sqlite(folder.checkpoints)
    graph = build_graph(store.saver)
    graph.invoke(RunState(task=task_spec(task)), {"configurable": {"thread_id": "t"}}, context=rt, durability="sync")
    store.close()
    asked = [json.loads(line) for line in folder.transcript.read_text().splitlines()]
    debugger = [r for r in asked if r.get("agent") == "debugger"]
    assert debugger, [r.get("agent") for r in asked]
    shown = json.dumps(debugger[0])
    assert "Documentation of the packages this code uses" in shown and "get_results" in shown
