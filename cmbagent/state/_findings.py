"""Findings: structured audit results about a step's numbers or the run's report (docs/architecture.md,
"Audit").

A finding is ``{code, severity, step_id, message, evidence}``: what is wrong, established by a program
(``source="audit"``) or raised by a critic in the same schema (``source`` names the agent), with the
numbers that establish it.  Findings are kept on the step's record (``steps/<NN-slug>/findings.json``),
collected in ``run.json``, emitted as ``finding`` events and listed near the top of ``report.md``.

What a severity makes the graph do is fixed by code, not by a model: an ``error`` rejects the step (it is
retried or replanned with the finding in its context), a ``warning`` becomes a caveat of the report that
names the check that would settle it (``settle``), a ``note`` is context the report states plainly.  The
audits that produce findings live in :mod:`cmbagent.audits`; this module only fixes their shape.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field, field_validator

__all__ = ["Finding", "Severity"]


class Severity(StrEnum):
    """How much a finding matters: ``error`` rejects the step, ``warning`` is a caveat, ``note`` is context."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"

    @property
    def rank(self) -> int:
        """0 for errors, 1 for warnings, 2 for notes (sort order of reports)."""
        return ("error", "warning", "note").index(self.value)


class Finding(BaseModel):
    """One structured audit result about one step (or, with ``step_id=None``, about the whole run)."""

    code: str = Field(description="Stable machine name of the check, e.g. 'fit.chi2_low'.")
    severity: Severity
    step_id: str | None = Field(default=None, description="The plan step it is about; None: the run (its report).")
    message: str = Field(description="One sentence a scientist reads: what is wrong and why it matters.")
    evidence: dict[str, Any] = Field(default_factory=dict, description="The numbers that establish it.")
    cell: str | None = Field(default=None, description="Run-relative path of the cell whose result it is about.")
    settle: str = Field(default="", description="The check or change that would settle it (a warning's caveat).")
    source: str = Field(default="audit", description="'audit' (code) or the critic agent that raised it.")
    asked: bool | None = Field(default=None, description="Whether the task asked for the condition the finding "
                                                         "flags (a prior it names, a cut it chose); None: unknown.")
    intent: str = Field(default="", description="The task's words that asked for it, when it did.")

    @field_validator("code")
    @classmethod
    def _code_shape(cls, value: str) -> str:
        if not value or not value.replace("_", "").replace(".", "").isalnum():
            raise ValueError("a finding code is a short machine name of letters, digits, '_' and '.'")
        return value

    @property
    def key(self) -> tuple[str, str | None, str]:
        """What makes two findings the same one (a node re-run after a kill records it once)."""
        return self.code, self.step_id, self.message

    def line(self) -> str:
        """``[warning] fit.chi2_low: message (settle: ...)`` -- how critics and summaries quote it."""
        text = f"[{self.severity}] {self.code}: {self.message}"
        return text + (f" To settle it: {self.settle}" if self.settle else "")
