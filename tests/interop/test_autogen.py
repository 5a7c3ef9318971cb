"""Our methods as AutoGen tools: an AssistantAgent with AutoGen's own scripted model client calls one."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from cmbagent.interop import MethodRunner
from cmbagent.interop.autogen import method_tool, method_tools, tool_name

pytest.importorskip("autogen_agentchat", reason="AutoGen is in the interop extra")


def test_every_method_becomes_a_tool_with_the_registry_schema() -> None:
    from cmbagent.tools.methods import get_method, iter_methods

    tools = method_tools(runner=MethodRunner())
    assert [t.name for t in tools] == [tool_name(s.name) for s in iter_methods()]
    for tool in tools:
        spec = get_method(tool.name.replace("__", "."))
        params = tool.schema["parameters"]
        assert set(params["properties"]) == set(spec.arguments)
        assert set(params.get("required", [])) == set(spec.required)
        assert "MethodResult" in tool.schema["description"]


def test_assistant_agent_calls_a_method_in_the_sandbox(tmp_path: Path, data_dir: Path, isolating_sandbox: str) -> None:
    from autogen_agentchat.agents import AssistantAgent
    from autogen_agentchat.messages import ToolCallExecutionEvent
    from autogen_core import FunctionCall
    from autogen_core.models import CreateResult, RequestUsage
    from autogen_ext.models.replay import ReplayChatCompletionClient

    runner = MethodRunner(workspace_root=tmp_path / "ws", sandbox=isolating_sandbox, data_roots=[data_dir])
    call = FunctionCall(id="call-1", name="cosmology__summarize_chain", arguments=json.dumps({"chain": "chain.txt"}))
    client = ReplayChatCompletionClient(
        [CreateResult(finish_reason="function_calls", content=[call], usage=RequestUsage(prompt_tokens=0,
                      completion_tokens=0), cached=False),
         "Omega_m = 0.30 +- 0.02."],
        model_info={"vision": False, "function_calling": True, "json_output": False, "family": "unknown",
                    "structured_output": False})
    agent = AssistantAgent("analyst", model_client=client, reflect_on_tool_use=True,
                           tools=[method_tool("cosmology.summarize_chain", runner=runner)])
    result = asyncio.run(agent.run(task="Summarise chain.txt"))

    (execution,) = [m for m in result.messages if isinstance(m, ToolCallExecutionEvent)]
    (output,) = execution.content
    assert not output.is_error, output.content
    payload = json.loads(output.content)
    assert payload["method"] == "cosmology.summarize_chain"
    assert payload["values"]["Omega_m"]["mean"] == pytest.approx(0.30, abs=0.01)
    assert all(check["passed"] for check in payload["checks"])
    sandbox = payload["diagnostics"]["sandbox"]
    assert sandbox["backend"] in ("bwrap", "docker")
    run_dir = Path(sandbox["run_dir"])
    assert run_dir.parent == tmp_path / "ws" and (run_dir / "data" / "chain.txt").is_file()
    assert all(Path(a).is_file() and Path(a).is_relative_to(run_dir) for a in payload["artifacts"])
    assert result.messages[-1].content == "Omega_m = 0.30 +- 0.02."


def test_a_failing_call_goes_back_to_the_model_as_an_error(tmp_path: Path, data_dir: Path,
                                                           isolating_sandbox: str) -> None:
    from autogen_core import CancellationToken

    runner = MethodRunner(workspace_root=tmp_path / "ws", sandbox=isolating_sandbox, data_roots=[data_dir])
    tool = method_tool("cosmology.summarize_chain", runner=runner)
    (data_dir / "empty.txt").write_text("# a b\n")
    with pytest.raises(Exception, match="failed in the sandbox") as failed:
        asyncio.run(tool.run_json({"chain": "empty.txt"}, CancellationToken()))
    from cmbagent.exceptions import ModelRetry

    assert isinstance(failed.value, ModelRetry)
