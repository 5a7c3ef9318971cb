"""A number read by meaning is no silent choice: the run uses it, and says so in its findings and ``run.json``
(issue 29).  Offline backend, our own wording: "let the random symmetry moves spread with a log-scale of 1.3" is
the LoRA method's ``orbit_scale`` ("Spread of log c in the generated symmetry moves"), which no rule reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.api import solve
from cmbagent.sandbox import InMemoryExecutor

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")]


def test_a_setting_read_by_meaning_is_used_and_reported(tmp_path: Path) -> None:
    task = tmp_path / "task.md"
    task.write_text("# Adapter invariants\n\nGenerate 120 LoRA adapters of rank 2 with output dimension 8 and input "
                    "dimension 4, and let the random symmetry moves spread with a log-scale of 1.3. Do the "
                    "symmetry-aware features beat the raw factors? Seed 3.\n")
    result = solve(task, run_dir=tmp_path / "run", executor=InMemoryExecutor)
    assert result.status == "done", result.error
    plan = json.loads((result.run_dir / "plan.json").read_text())
    call = next(s["method"] for s in plan["steps"] if s.get("method"))
    assert call["name"] == "lm.lora_symmetry" and call["arguments"]["orbit_scale"] == pytest.approx(1.3), call
    run = json.loads((result.run_dir / "run.json").read_text())
    notes = [f for f in run.get("findings", []) if f["code"] == "task.read_by_meaning"]
    assert len(notes) == 1 and "orbit_scale" in notes[0]["message"] and "1.3" in notes[0]["message"], notes
    assert "orbit_scale" in run["understanding"]["by_meaning"]
    assert run["understanding"]["arguments"]["orbit_scale"]["confidence"] < 0.95
