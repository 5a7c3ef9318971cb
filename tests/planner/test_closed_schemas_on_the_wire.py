"""What a model is asked for in a run whose task names a method (issue 16): the schemas sent over the wire (the
real OpenAI SDK against the fake server) name only that method and its arguments, and only the run's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cmbagent.api import solve
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.tools.methods import get_method
from tests.fakes import FakeLLMServer
from tests.faults._support import Agents

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SN = "cosmology.fit_supernovae"


def schema_of(body: dict[str, Any]) -> dict[str, Any]:
    return body["response_format"]["json_schema"]["schema"]


def test_the_analyst_and_the_planner_are_asked_for_the_named_method_only(tmp_path: Path) -> None:
    (tmp_path / "sn.csv").write_text("z,mu,mu_err\n0.1,38.3,0.1\n0.2,40.0,0.1\n0.5,42.3,0.1\n")
    task = tmp_path / "task.md"
    task.write_text(f"---\ntitle: Fit\nmethod: {SN}\narguments:\n  data: sn.csv\n  format: csv\n---\n"
                    "Fit Omega_m to these distances.\n")
    agents = Agents()
    with FakeLLMServer(fn=agents) as server:
        solve(task, run_dir=tmp_path / "run", model=f"openai-compatible:fake-model@{server.openai_url}",
              executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
        by_agent: dict[str, dict[str, Any]] = {}
        for request in server.requests:
            system = request.body["messages"][0]["content"]
            for agent in ("task analyst", "You are the planner."):
                if agent in system and agent not in by_agent and "response_format" in request.body:
                    by_agent[agent] = schema_of(request.body)
    assert set(by_agent) == {"task analyst", "You are the planner."}, list(by_agent)
    brief = by_agent["task analyst"]["properties"]
    assert brief["method"]["anyOf"][0] == {"enum": [SN]}
    assert list(brief["arguments"]["properties"]) == list(get_method(SN).arguments)
    assert brief["arguments"]["additionalProperties"] is False
    files = brief["data_files"]["items"]["enum"]
    assert len(files) == 1 and files[0].endswith("sn.csv")
    plan = by_agent["You are the planner."]
    method_step, other_step = plan["$defs"]["StepDraft"]["anyOf"]  # a method agent with a call, or neither
    assert method_step["properties"]["agent"]["enum"] == ["method_operator"] and "method" in method_step["required"]
    assert other_step["properties"]["method"] == {"type": "null"}
    assert "method_operator" not in other_step["properties"]["agent"]["enum"]
    calls = method_step["properties"]["method"]["anyOf"]
    assert [c["properties"]["name"]["const"] for c in calls] == [SN]  # not the other registered methods
    arguments = calls[0]["properties"]["arguments"]["properties"]
    assert arguments["data"] == {"type": "string", "enum": files}  # an input file of the run, nothing invented
    assert arguments["covariance"] == {"anyOf": [{"type": "string", "enum": files}, {"type": "null"}]}
    # the first step is the method step; at most the run's max_steps (12): one exact tuple per plan length
    lengths = plan["properties"]["steps"]["anyOf"]
    assert [t["maxItems"] for t in lengths] == list(range(1, 13)) and "items" not in lengths[0]
    assert all(t["prefixItems"][0] == method_step for t in lengths)
    assert all(later == {"$ref": "#/$defs/StepDraft"} for t in lengths for later in t["prefixItems"][1:])
    # the fake plan calls no method: code says so to the planner (hosted models get no grammar)
    planner_calls = [r for r in server.requests if "You are the planner." in r.body["messages"][0]["content"]]
    # and its prompt lists that method alone (the others cost a small model ~1,500 prompt tokens a call)
    catalogue = planner_calls[0].body["messages"][0]["content"].split("Method tools", 1)[1].split("Rules:", 1)[0]
    assert f"- {SN}:" in catalogue and "cosmology.summarize_chain" not in catalogue and "causal." not in catalogue
    repair = planner_calls[1].body
    assert f"the task asks for the method {SN} and no step calls it" in json.dumps(repair["messages"])
