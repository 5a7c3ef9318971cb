"""The roster: every prompt validates at start-up; bad prompt files fail with a typed error naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.agents import SCHEMAS, PromptError, load_registry, parse_prompt
from cmbagent.cli import app

ROSTER = {
    "task_analyst", "planner", "plan_reviewer", "controller", "replanner", "engineer", "code_reviewer", "debugger",
    "installer", "data_engineer", "visualiser", "method_operator", "researcher", "summariser", "step_critic",
    "science_checker", "plot_critic", "reporter", "reproducibility_auditor", "cosmologist", "causal_analyst",
    "anomaly_analyst", "bayesian_statistician", "ml_theorist", "llm_engineer", "rl_engineer", "policy_analyst",
    "requirements_analyst", "literature_retriever", "code_retriever",
}  # fmt: skip

GOOD = """---
name: {name}
role: text
description: A test agent.
tools: []
output_schema: TextAnswer
tier: strong
---
{body}
"""
BODY = "You are a test agent. " * 20


def test_every_prompt_validates_and_the_roster_is_complete() -> None:
    registry = load_registry()
    names = {spec.name for spec in registry}
    assert ROSTER <= names
    assert len(registry) >= 29
    for spec in registry:  # every agent is a model call: a schema to answer with, a real prompt
        assert spec.schema is SCHEMAS[spec.output_schema]
        # a real prompt: job, inputs, output format
        assert len(spec.template) > 400, spec.name
        assert "output_format" in spec.placeholders, spec.name
    assert {"engineer", "method_operator", "researcher", "cosmologist"} <= registry.step_agents()
    assert "step_critic" not in registry.step_agents()


def test_render_fills_placeholders() -> None:
    planner = load_registry().get("planner")
    text = planner.render(agents="- engineer (code)", methods="- cosmology.x: y", max_steps=7, output_format="FMT")
    assert "at most 7 steps" in text and "- cosmology.x: y" in text and "{{" not in text


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("no front matter at all " * 20, "starts with YAML front matter"),
        ("---\nname: [unclosed\n---\n" + BODY, "not valid YAML"),
        (GOOD.format(name="bad_agent", body=BODY).replace("tier: strong", "tier: huge"), "tier 'huge'"),
        (GOOD.format(name="bad_agent", body=BODY).replace("TextAnswer", "Nonsense"), "output_schema 'Nonsense'"),
        (GOOD.format(name="bad_agent", body=BODY).replace("role: text", "role: text\ncolour: red"), "unknown front-matter"),
        (GOOD.format(name="bad_agent", body=BODY + "{{ secret }}"), "unknown placeholder(s) secret"),
        (GOOD.format(name="bad_agent", body="Too short."), "too short"),
        (GOOD.format(name="other_name", body=BODY), "must match the file name"),
        # the sandbox and the end of a run are code, not agents: no role or tier for a prompt that is never sent
        (GOOD.format(name="bad_agent", body=BODY).replace("role: text", "role: deterministic"), "role 'deterministic'"),
        (GOOD.format(name="bad_agent", body=BODY).replace("tier: strong", "tier: none"), "tier 'none'"),
        # a tool the graph does not give an agent is refused, not silently ignored
        (GOOD.format(name="bad_agent", body=BODY).replace("tools: []", "tools: [python]"), "unknown tool(s) python"),
        (GOOD.format(name="bad_agent", body=BODY).replace("tools: []", "tools: search_code"), "must be a list"),
    ],
)
def test_bad_prompt_files_raise_prompt_error_naming_the_file(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad_agent.md"
    path.write_text(text)
    with pytest.raises(PromptError) as info:
        load_registry(tmp_path)
    assert str(path) in str(info.value)
    assert needle in str(info.value)


def test_a_new_agent_is_one_prompt_file(tmp_path: Path) -> None:
    (tmp_path / "seismologist.md").write_text(GOOD.format(name="seismologist", body=BODY))
    registry = load_registry(tmp_path)
    assert registry.get("seismologist").role == "text"
    assert "seismologist" in registry.step_agents()


def test_tools_decide_what_searches_an_agent_gets_and_when_it_is_offered() -> None:
    """``tools:`` drives two things: the chunk kinds of the passages code retrieves for the agent's text steps,
    and whether the planner is offered the agent in a run without a knowledge index."""
    plain = parse_prompt(GOOD.format(name="reader", body=BODY), "reader.md")
    coder = parse_prompt(GOOD.format(name="coder", body=BODY).replace("tools: []", "tools: [search_code]"), "coder.md")
    both = parse_prompt(GOOD.format(name="both", body=BODY).replace("tools: []",
                                                                    "tools: [search_literature, search_code]"),
                        "both.md")
    assert plain.search_kinds is None
    assert coder.search_kinds == ("code", "notebook")
    assert both.search_kinds == ("pdf", "markdown", "text", "code", "notebook")
    from cmbagent.agents import AgentRegistry

    registry = AgentRegistry([plain, coder, both])
    assert registry.step_agents() == {"reader", "coder", "both"}
    assert registry.step_agents(index=False) == {"reader"}
    assert [line.split(" ")[1] for line in registry.describe_step_agents(index=False).splitlines()] == ["reader"]
    packaged = load_registry()
    assert {s.name for s in packaged if s.tools} == {"literature_retriever", "code_retriever"}
    assert "code_retriever" not in packaged.step_agents(index=False)


def test_duplicate_names_are_refused() -> None:
    spec = parse_prompt(GOOD.format(name="twin", body=BODY), "twin.md")
    from cmbagent.agents import AgentRegistry

    with pytest.raises(PromptError, match="defined twice"):
        AgentRegistry([spec, spec])


def test_cmbagent_agents_lists_the_roster() -> None:
    result = CliRunner().invoke(app, ["agents"])
    assert result.exit_code == 0, result.output
    for name in ROSTER:
        assert f"\n{name} " in result.output
    as_json = CliRunner().invoke(app, ["agents", "--json"])
    assert as_json.exit_code == 0
    assert '"name": "planner"' in as_json.output
