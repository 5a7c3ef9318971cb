"""Evidence built by hand: each audit is a function of it, so a test states exactly what the step showed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cmbagent.audits import StepEvidence, audit_step
from cmbagent.state import CheckResult, Finding


def evidence(**fields: Any) -> StepEvidence:
    fields.setdefault("step_id", "s2")
    checks = fields.pop("checks", [])
    return StepEvidence(checks=[CheckResult.model_validate(c) for c in checks], **fields)


def codes(found: list[Finding]) -> list[str]:
    return [f.code for f in found if f.code != "audit.failed"]


def audit(**fields: Any) -> list[Finding]:
    return audit_step(evidence(**fields)).findings


def posterior(mean: float, std: float, **extra: float) -> dict[str, float]:
    return {"mean": mean, "std": std, "lower_68": mean - std, "upper_68": mean + std,
            "lower_95": mean - 2 * std, "upper_95": mean + 2 * std, **extra}


def write(folder: Path, rel: str, text: str) -> str:
    path = folder / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return rel
