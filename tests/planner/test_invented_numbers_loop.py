"""A text step that keeps stating numbers no result holds does not loop the run through replans (issue 30).

With SmolLM2 the tubal-tensor example's method step succeeded, then the plan had the researcher write a text step
stating 0.00220, a number of no result. Code rejected it (``report.unsupported_number``, rightly), the replanner
added another text step that did the same, and the rounds went on until the run's budget was gone. Now a second
text step failing only on invented numbers is left out by code, without another round of the replanner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.agents import CodeDraft, ControlDecision, ReplanDecision, TextAnswer
from cmbagent.api import solve
from cmbagent.state import Critique, Plan, PlanStep, StepDraft
from tests.planner._support import brain, events, result_code

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _run(folder: Path, answer: str, *, compute: bool = False, **handlers):  # type: ignore[no-untyped-def]
    steps = [PlanStep(id="s1", title="Interpretation", goal="Interpret the result.", agent="researcher")]
    if compute:  # a code step whose result stands before the narrative
        steps.insert(0, PlanStep(id="s0", title="Compute", goal="Compute the recovery error.", agent="engineer",
                                 acceptance_criteria=["prints the error"]))
        handlers.setdefault("engineer", lambda r: CodeDraft(code=result_code({"recovery_error": 0.0031})))
    plan = Plan(steps=steps)
    asked: list[str] = []

    def replanner(request):  # type: ignore[no-untyped-def]
        asked.append(request.agent)
        return ReplanDecision(action="revise", reason="try the interpretation again",
                              new_steps=[StepDraft(title="Interpretation again", goal="Interpret the result again.",
                                                   agent="researcher")])

    model = brain(planner=lambda r: plan, replanner=replanner,
                  researcher=lambda r: TextAnswer(text=answer, key_points=["a point"]),
                  controller=lambda r: ControlDecision(action="replan", reason="the text was rejected"), **handlers)
    result = solve("Say what the result means.", workspace=folder, model="scripted", models={"scripted": model},
                   sandbox="process")
    return result, asked


def test_a_second_text_step_with_invented_numbers_is_left_out_without_another_replan(tmp_path: Path) -> None:
    result, asked = _run(tmp_path, "The recovery error falls to 0.00220 at the smallest scale.")
    assert len(asked) == 1, asked  # the first rejection goes to the replanner, the second does not
    assert "replan limit" not in (result.run_dir / "report.md").read_text()
    replanned = [e.data for e in events(result.run_dir) if e.type == "replanned"]
    assert len(replanned) == 2 and "left out rather than replaced again" in replanned[-1]["reason"]
    statuses = {s["id"]: s["status"] for s in result.steps}
    assert list(statuses.values()) == ["failed", "skipped"], statuses
    assert result.status == "failed"  # nothing was computed: there is no answer


def test_a_narrative_left_out_is_no_gap_when_a_result_stands(tmp_path: Path) -> None:
    """The tubal example's shape: the method step gave its numbers; the narrative that kept inventing one is left
    out and the run ends done, its report listing both rejected narratives' findings."""
    result, asked = _run(tmp_path, "The recovery error falls to 0.00220 at the smallest scale.", compute=True)
    assert len(asked) == 1 and result.status == "done", (asked, result.status)
    report = (result.run_dir / "report.md").read_text()
    assert "0.0031" in report and report.count("report.unsupported_number") >= 2


def test_a_text_step_rejected_for_another_reason_still_goes_to_the_replanner(tmp_path: Path) -> None:
    """The critic's rejection (no invented number) is the replanner's to weigh each time, up to the replan limit."""
    result, asked = _run(tmp_path, "The recovery error falls as the scale shrinks.",
                         step_critic=lambda r: Critique(accepted=False, verdict="too vague",
                                                        issues=["it says the recovery error shrinks, not by how much"]))
    assert len(asked) == 3, asked  # max_replans
    assert "replan limit (3) reached" in (result.run_dir / "report.md").read_text()


@pytest.mark.parametrize(("reason", "stands"), [
    ("No idea no idea no idea", False),  # SmolLM2's words: nothing of the answer
    ("The code is bad.", False),  # a text step has no code
    ("The answer never says why the recovery error falls as the scale shrinks.", True),
])
def test_a_critic_rejecting_a_text_step_must_cite_its_words(tmp_path: Path, reason: str, stands: bool) -> None:
    """A critic's rejection of a text step that cites none of its words is set aside with a warning, as for a
    method step; one that names what the text says stands and sends the step back."""
    result, asked = _run(tmp_path, "The recovery error falls as the scale shrinks, as the theory predicts.",
                         step_critic=lambda r: Critique(accepted=False, verdict=reason, issues=[reason]))
    codes = [f["code"] for f in json.loads((result.run_dir / "run.json").read_text())["findings"]]
    if stands:
        assert result.status != "done" and asked, (result.status, asked)
    else:
        assert result.status == "done" and not asked, (result.status, asked)
        assert "critic.unsupported" in codes, codes
