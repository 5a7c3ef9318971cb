"""The result every method tool returns (docs/architecture.md, "Method tool")."""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

__all__ = ["Check", "MethodFinding", "MethodResult"]


class Check(BaseModel):
    """One pass/fail verdict a method makes about its own result (convergence, validity, sanity)."""

    name: str
    passed: bool
    message: str = ""


class MethodFinding(BaseModel):
    """Something a method states about its own result that a reader must be told (a known shortfall of the
    method under this protocol, a choice it made for the user).  The run's audits turn it into a finding of
    the step (``method.*`` codes; any other code is kept as ``method.note``)."""

    code: str = "method.note"
    severity: Literal["error", "warning", "note"] = "note"
    message: str
    evidence: dict[str, Any] = Field(default_factory=dict)
    settle: str = ""


def _jsonable(value: Any) -> Any:
    """Convert numpy scalars/arrays and non-finite floats into plain JSON values."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "tolist") and callable(value.tolist):  # numpy arrays and scalars
        return _jsonable(value.tolist())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return str(value)


class MethodResult(BaseModel):
    """What a method tool returns.

    Attributes:
        method: registered name, e.g. ``cosmology.fit_supernovae``.
        summary: one paragraph a person can read.
        values: named numbers; a quantity with an uncertainty is a dict such as
            ``{"mean": .., "std": .., "lower_68": .., "upper_68": ..}``.
        diagnostics: anything else worth keeping (settings used, timings, per-seed numbers).
        checks: the method's own pass/fail verdicts.
        artifacts: paths of the figures and files it wrote.
        findings: what the method states about its own result (:class:`MethodFinding`).
    """

    method: str = ""
    summary: str
    values: dict[str, Any] = Field(default_factory=dict)
    diagnostics: dict[str, Any] = Field(default_factory=dict)
    checks: list[Check] = Field(default_factory=list)
    artifacts: list[str] = Field(default_factory=list)
    findings: list[MethodFinding] = Field(default_factory=list)

    @field_validator("values", "diagnostics", mode="before")
    @classmethod
    def _to_json(cls, value: Any) -> Any:
        return _jsonable(value)

    @property
    def ok(self) -> bool:
        """True when every check passed."""
        return all(check.passed for check in self.checks)

    def to_json(self, **kwargs: Any) -> str:
        return self.model_dump_json(**kwargs)

    @classmethod
    def from_json(cls, text: str) -> MethodResult:
        return cls.model_validate(json.loads(text))
