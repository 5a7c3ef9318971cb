"""The public Python surface the CLI and the UI code against."""

from __future__ import annotations

import inspect

import cmbagent
from cmbagent import api


def test_public_names() -> None:
    assert cmbagent.solve is api.solve and cmbagent.resume is api.resume and cmbagent.RunResult is api.RunResult
    assert set(api.__all__) == {"PlanDecision", "RunResult", "RunSettings", "offline_fallback", "replay", "resume", "solve"}


def test_solve_signature_is_keyword_only_and_stable() -> None:
    params = inspect.signature(api.solve).parameters
    assert next(iter(params)) == "task"
    # settings that other sources may also set default to None, so that "given" is known, not guessed from
    # the value (an explicit max_steps=12 beats the front matter; see cmbagent.config)
    expected = {"workspace": None, "run_dir": None, "model": None, "agent_models": None, "config": None,
                "max_steps": None, "n_reviews": None, "max_attempts": None, "budget_usd": None,
                "budget_tokens": None, "timeout": None, "approve_plan": False, "sandbox": "auto", "data_files": None,
                "api_keys": None, "on_event": None, "models": None, "executor": None}
    for name, default in expected.items():
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY and params[name].default == default, name
    assert set(inspect.signature(api.resume).parameters) >= {"run_dir", "decision", "on_event", "api_keys", "models",
                                                             "executor"}
    assert set(api.RunResult.model_fields) >= {"run_dir", "run_id", "status", "report_path", "values", "cost_usd",
                                               "duration_s", "steps"}
    assert api.PlanDecision(action="edit", plan={"steps": []}).comment == ""
