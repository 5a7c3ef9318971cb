"""Independent calls in parallel (issue 30): a step's critics judge the same attempt, so they are asked side by
side where their model takes several calls at once (a llama.cpp server's slots, a hosted API), in the graph's
order where it does not (scripted, replayed, offline); a replay of a run whose critics ran side by side walks
the same calls; a critic whose reply stays invalid gives no verdict and the step is decided without it."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest

from cmbagent.api import replay, solve
from cmbagent.exceptions import OutputValidationError
from cmbagent.models import ModelRequest, ScriptedModel
from cmbagent.planner import MethodCall, Plan, PlanStep
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.state import Critique
from tests.planner._support import brain, chain_task, of_type

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CRITICS = ("step_critic", "science_checker", "plot_critic")
PLAN = Plan(steps=[PlanStep(id="s1", title="Summarise", goal="Summarise the chain.", agent="method_operator",
                            method=MethodCall(name="cosmology.summarize_chain", arguments={}))])


def _run(tmp_path: Path, *, parallel: int, critic_reply: object = None) -> tuple[object, dict[str, tuple[float, float]]]:
    spans: dict[str, tuple[float, float]] = {}
    lock = threading.Lock()

    def critic(request: ModelRequest) -> object:
        started = time.monotonic()
        time.sleep(0.6)
        with lock:
            spans[request.agent] = (started, time.monotonic())
        reply = critic_reply if request.agent == "science_checker" and critic_reply is not None else None
        return reply or Critique(accepted=True, verdict=f"{request.agent}: the summary stands.")

    scripted = brain(planner=lambda r: PLAN, **dict.fromkeys(CRITICS, critic))
    model = ScriptedModel(fn=scripted.fn, parallel=parallel)
    result = solve(chain_task(tmp_path), workspace=tmp_path / "ws", model="scripted", n_reviews=0,
                   models={"scripted": model}, executor=InMemoryExecutor)
    return result, spans


def test_a_steps_critics_are_asked_side_by_side_where_the_model_takes_it(tmp_path: Path) -> None:
    result, spans = _run(tmp_path, parallel=3)
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    assert set(spans) == set(CRITICS)
    assert max(start for start, _ in spans.values()) < min(end for _, end in spans.values())  # all three at once
    # and a replay (one call at a time, in the graph's order) finds each recorded call, whatever order they ended in
    replayed, comparison = replay(result.run_dir, workspace=tmp_path / "replays",  # type: ignore[attr-defined]
                                  executor=InMemoryExecutor)
    assert replayed.status == "done", replayed.error
    assert comparison["same_numbers"] and comparison["same_plan"], comparison


def test_one_call_at_a_time_where_the_model_takes_one(tmp_path: Path) -> None:
    result, spans = _run(tmp_path, parallel=1)
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    ordered = sorted(spans.values())
    assert all(earlier[1] <= later[0] for earlier, later in itertools.pairwise(ordered))
    assert [name for name, _ in sorted(spans.items(), key=lambda kv: kv[1])] == list(CRITICS)


def test_a_critic_that_gives_no_usable_verdict_is_set_aside_and_said(tmp_path: Path) -> None:
    """The science checker's reply stayed invalid (it looped twice): the step is decided by the other critics and
    the audits, and its verdict says which critic gave none."""
    result, _ = _run(tmp_path, parallel=3, critic_reply=OutputValidationError(
        "agent 'science_checker': the reply repeated itself twice"))
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    (critiqued,) = of_type(result.run_dir, "step_critiqued")  # type: ignore[attr-defined]
    assert critiqued["accepted"] and "science_checker gave no usable verdict" in critiqued["verdict"]
