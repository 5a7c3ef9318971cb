"""The optional rubric judge: a language model reads a run's answer and says whether it meets a rubric.

Off by default (``cmbagent eval --rubric``).  A rubric never grades a number and is never a grader's only
check: it is asked only when every code check of the task passed, and it can only turn that pass into a
fail.  The judge's calls go through the model client like any agent's (its own transcript in the eval
folder, its cost counted there), with a closed, bounded output schema.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from cmbagent.eval._grade import Judge, RunOutcome
from cmbagent.exceptions import UserError

__all__ = ["RubricVerdict", "model_judge"]

JUDGE_SYSTEM = (
    "You are the eval judge. You read the answer a research run gave to a task and decide whether it meets one "
    "rubric. Judge only what the rubric asks; numbers are graded elsewhere. Reply with passed (true or false) and "
    "one sentence saying why, quoting the answer where you can."
)


class RubricVerdict(BaseModel):
    passed: bool = Field(description="True when the answer meets the rubric.")
    reason: str = Field(max_length=300, description="One sentence: why, quoting the answer.")


def model_judge(spec: str | None, *, transcript: str | os.PathLike[str] | None = None,
                models: dict[str, Any] | None = None) -> Judge:
    """A judge that asks the model ``spec`` (a language model; ``offline`` cannot judge prose).  ``models``:
    ready model instances by name (tests)."""
    from cmbagent.config import RunConfig
    from cmbagent.models import Message, ModelClient, ModelRequest

    config = RunConfig.resolve(flags={"model": spec}, env=os.environ, models=models)
    if config.model == "offline":
        raise UserError("rubrics are judged by a language model; pass --judge-model SPEC (or --model SPEC)")
    client = ModelClient(config.routing(models), transcript_path=Path(transcript) if transcript else None)

    def judge(rubric: str, outcome: RunOutcome) -> tuple[bool, str]:
        user = f"## Rubric\n{rubric}\n\n## The run's answer\n{outcome.text[-8000:] or '(no answer)'}"
        request = ModelRequest(messages=[Message(role="system", content=JUDGE_SYSTEM), Message(role="user", content=user)],
                               output_schema=RubricVerdict, agent="eval_judge")
        verdict = client.request(agent="eval_judge", tier="fast", request=request).output
        if not isinstance(verdict, RubricVerdict):
            return False, "the judge gave no verdict"
        return verdict.passed, verdict.reason

    return judge
