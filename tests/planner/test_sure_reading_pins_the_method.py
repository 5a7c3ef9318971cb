"""A model whose analyst names no method for a plainly worded task (SmolLM2 on every research task of the eval)
no longer sends the run elsewhere: code's reading chose the method surely, so the run uses it, the planner may
name only it, and when the planner still plans no step that calls it, code adds the step (issue 29).

The model is faked at the HTTP boundary (the real OpenAI SDK against tests.fakes.FakeLLMServer); its analyst
names no method and its planner plans an engineer step and an interpretation, as a small model did."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from cmbagent.agents import Critique
from cmbagent.api import solve
from cmbagent.sandbox import InMemoryExecutor
from tests.fakes import FakeLLMServer
from tests.faults._support import Agents

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

SN = "cosmology.fit_supernovae"


def _distances(path: Path) -> None:
    rng = np.random.default_rng(5)
    z = np.round(np.geomspace(0.02, 1.2, 40), 4)
    # flat ΛCDM with Ω_m = 0.3 (a crude integral is enough for a fit to run on)
    grid = np.linspace(0, 1.2, 2001)
    inv_e = 1 / np.sqrt(0.3 * (1 + grid) ** 3 + 0.7)
    dc = np.array([np.trapezoid(inv_e[grid <= zi], grid[grid <= zi]) for zi in z]) * 2997.92458
    mu = 5 * np.log10((1 + z) * dc) + 25 + rng.normal(0, 0.1, z.size)
    np.savetxt(path, np.column_stack([z, mu, np.full(z.size, 0.1)]), delimiter=",", header="z,mu,mu_err",
               comments="", fmt="%.5f")


class SmallModel(Agents):
    """The fault tests' agents, with a plot critic (the method step draws a figure)."""

    def reply(self, agent: str, sid: str, user: str) -> object:
        if agent == "plot_critic":
            return Critique(accepted=True, verdict="readable figure")
        return super().reply(agent, sid, user)


def test_the_readings_sure_method_is_used_when_the_model_names_none(tmp_path: Path) -> None:
    _distances(tmp_path / "hubble_flow.csv")
    task = tmp_path / "task.md"
    task.write_text("# Matter density\n\nFrom the supernova distance moduli in `hubble_flow.csv`, what matter "
                    "density does a flat ΛCDM universe prefer?\n")
    agents = SmallModel()
    with FakeLLMServer(fn=agents) as server:
        result = solve(task, run_dir=tmp_path / "run", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
        planner_schemas = [r.body["response_format"]["json_schema"]["schema"] for r in server.requests
                           if "You are the planner." in r.body["messages"][0]["content"]
                           and "response_format" in r.body]
    # the planner was offered only the method code's reading chose
    calls = planner_schemas[0]["$defs"]["StepDraft"]["anyOf"][0]["properties"]["method"]["anyOf"]
    assert [c["properties"]["name"]["const"] for c in calls] == [SN]
    plan = json.loads((result.run_dir / "plan.json").read_text())
    first = plan["steps"][0]
    assert first["method"]["name"] == SN and first["method"]["arguments"]["data"].endswith("hubble_flow.csv")
    run = json.loads((result.run_dir / "run.json").read_text())
    codes = [f["code"] for f in run.get("findings", [])]
    assert "task.method_from_reading" in codes and "plan.method_step_added" in codes, codes
    assert result.status in {"done", "unmet"}, result.error
    omega_m = result.values.get("Omega_m") or next(v for k, v in result.values.items() if "omega_m" in k.lower())
    assert abs(omega_m["mean"] - 0.3) < 0.1, omega_m


class ForgetfulPlanner(SmallModel):
    """A planner that calls the right method but drops the data file and changes the prior (as SmolLM2 did)."""

    def reply(self, agent: str, sid: str, user: str) -> object:
        if agent == "planner":
            from cmbagent.state import MethodCall, Plan, PlanStep

            return Plan(steps=[PlanStep(id="s1", title="Fit", goal="Fit the matter density.", agent="method_operator",
                                        method=MethodCall(name=SN, arguments={"priors": {"Omega_m": [0.01, 1.01]}}))])
        return super().reply(agent, sid, user)


def test_a_sure_readings_arguments_are_kept_over_the_planners(tmp_path: Path) -> None:
    _distances(tmp_path / "hubble_flow.csv")
    np.savetxt(tmp_path / "hubble_cov.txt", np.diag(np.full(40, 0.01)))
    task = tmp_path / "task.md"
    task.write_text("# Matter density\n\nFrom the supernova distance moduli in `hubble_flow.csv`, with the "
                    "covariance matrix in `hubble_cov.txt`, what matter density does a flat ΛCDM universe prefer? "
                    "Use a uniform prior on Ω_m between 0.05 and 0.95.\n")
    with FakeLLMServer(fn=ForgetfulPlanner()) as server:
        result = solve(task, run_dir=tmp_path / "run", model=f"openai-compatible:fake-model@{server.openai_url}",
                       executor=InMemoryExecutor, config={"models": {"retries": 1, "timeout": 30}})
    planned = json.loads((result.run_dir / "plan.json").read_text())["steps"][0]["method"]
    assert planned == {"name": SN, "arguments": {"priors": {"Omega_m": [0.01, 1.01]}}}  # the planner's call
    cell = next((result.run_dir / "steps").glob("*/cells/*.py")).read_text()
    ran = json.loads(json.loads(re.search(r"run_method\('[\w.]+', json\.loads\((\".*\")\)\)", cell).group(1)))
    assert ran["data"] == "data/hubble_flow.csv" and ran["covariance"] == "data/hubble_cov.txt"
    assert ran["priors"] == {"Omega_m": [0.05, 0.95]}  # what the task says, not what the planner wrote
