"""A sceptic's effect question, in an agronomist's words, runs end to end offline (issue 29): "did planting a
winter cover crop reduce soil loss, accounting for rainfall and slope?" used to end with exit 2 ("fits none of
the method tools").  It now runs ``causal.dml_ate`` on the columns the sentence names and recovers the effect the
table was made with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.api import solve
from cmbagent.sandbox import InMemoryExecutor
from tests.reading.test_effect_questions_in_any_field import _plots

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")]


def test_a_cover_crop_question_runs_the_effect_estimate(tmp_path: Path) -> None:
    _plots(tmp_path)
    task = tmp_path / "task.md"
    task.write_text("# Cover crops and erosion\n\nDid planting a winter cover crop reduce soil loss, accounting for "
                    "rainfall and slope? The plot records are in fields.csv.\n")
    result = solve(task, run_dir=tmp_path / "run", executor=InMemoryExecutor)
    assert result.status == "done", result.error
    plan = json.loads((result.run_dir / "plan.json").read_text())
    call = next(s["method"] for s in plan["steps"] if s.get("method"))
    assert call["name"] == "causal.dml_ate", call
    arguments = call["arguments"]
    assert (arguments["treatment"], arguments["outcome"]) == ("cover_crop", "soil_loss_t")
    assert sorted(arguments["covariates"]) == ["rainfall_mm", "slope_pct"]
    ate = next(json.loads(p.read_text())["values"]["ate"] for p in (result.run_dir / "steps").glob("*/step.json")
               if "ate" in json.loads(p.read_text()).get("values", {}))
    assert abs(ate["mean"] + 1.5) < 4 * ate["std"], ate  # the table was made with an effect of -1.5 t
