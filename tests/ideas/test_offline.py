"""Idea mode offline (no key): the supernova example and a causal example each give at least three ideas,
each carried out by a registered method on the task's data, ranked with reasons; --to-tasks writes runnable
task files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cmbagent.ideas import generate_ideas
from cmbagent.task import load_task
from cmbagent.tools.methods import get_method, validate_arguments

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("example", ["supernova.md", "causal_dml_ihdp.md"])
def test_examples_give_three_ideas_mapped_to_catalogue_methods(tmp_path: Path, example: str) -> None:
    result = generate_ideas(ROOT / "examples" / example, workspace=tmp_path, rounds=3, n_ideas=5,
                            to_tasks=tmp_path / "tasks")
    assert result.status == "done", result.error
    assert result.run_dir.parent == tmp_path / "ideas"
    assert len(result.ideas) >= 3
    task = load_task(ROOT / "examples" / example)
    for row in result.ideas:
        spec = get_method(row.idea.method)  # registered
        assert set(spec.required) <= set(row.idea.arguments)
        assert row.selected and row.critique is not None and row.reasons.startswith("novelty ")
        # grounded in the task: the same data, and a real difference from the task as posed
        assert row.idea.arguments.get("data") == task.arguments["data"]
        assert row.idea.arguments != task.arguments
    assert [r.rank for r in result.ideas] == list(range(1, len(result.ideas) + 1))
    scores = [r.score for r in result.ideas]
    assert scores == sorted(scores, reverse=True)

    data = json.loads(result.ideas_json.read_text())
    assert data["kind"] == "ideas" and data["status"] == "done" and len(data["ideas"]) == len(result.ideas)
    assert data["rounds_log"][0]["agent"] == "idea_maker" and data["rounds_log"][1]["agent"] == "idea_hater"
    md = result.ideas_md.read_text()
    assert md.startswith("# Research ideas: ") and "## 1. " in md and "## Rounds" in md
    assert "not judged: the offline backend cannot weigh confounders" in md  # honest about its reach

    # every selected idea became a task that loads and validates, with its data beside it
    assert len(result.tasks) == len(result.ideas) and not result.tasks_not_written
    for path in result.tasks:
        written = load_task(path)
        assert written.method and written.files and all(p.is_file() for p in written.files.values())
        validate_arguments(written.method, {k: v for k, v in written.arguments.items() if k != "output_dir"})
    events = [json.loads(line)["type"] for line in (result.run_dir / "events.jsonl").read_text().splitlines()]
    assert events[0] == "ideas_started" and events[-1] == "ideas_finished" and "idea_round" in events


def test_a_task_the_offline_backend_cannot_map_says_how_to_configure_a_model(tmp_path: Path) -> None:
    from cmbagent.exceptions import TaskError

    with pytest.raises(TaskError, match="configure a language model"):
        generate_ideas("Write a poem about the sea.", workspace=tmp_path)
    assert not (tmp_path / "ideas").exists()


@pytest.mark.parametrize("kwargs", [{"rounds": 0}, {"n_ideas": 0}, {"n_ideas": 99}])
def test_bad_limits_are_user_errors(tmp_path: Path, kwargs: dict[str, int]) -> None:
    from cmbagent.exceptions import UserError

    with pytest.raises(UserError, match="whole number"):
        generate_ideas(ROOT / "examples" / "supernova.md", workspace=tmp_path, **kwargs)
