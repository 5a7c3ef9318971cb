"""From the page's input to solve's arguments; from a plan to the editable table and back."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cmbagent.exceptions import UserError
from cmbagent.ui._tasks import (
    example_tasks,
    model_spec,
    plan_from_table,
    plan_to_table,
    stage_uploads,
)

PLAN = {
    "rationale": "inspect then fit",
    "steps": [
        {"id": "s1", "title": "Inspect", "goal": "look", "agent": "data_engineer", "instructions": ""},
        {
            "id": "s2",
            "title": "Fit",
            "goal": "fit it",
            "agent": "method_operator",
            "method": {"name": "cosmology.fit_supernovae", "arguments": {"data": "data/x.dat"}},
            "inputs": ["data/x.dat"],
        },
    ],
}


def test_model_spec_for_each_provider() -> None:
    assert model_spec("offline", "", "", "sk-ignored") == ("offline", {})
    assert model_spec("openai", "", "", "sk-1") == ("openai:gpt-4.1", {"openai": "sk-1"})
    assert model_spec("anthropic", "claude-x", "", "") == ("anthropic:claude-x", {})
    assert model_spec("openai-compatible", "llama3.1:8b", "http://127.0.0.1:11434/v1", "k") == (
        "openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1",
        {"openai-compatible": "k"},
    )
    with pytest.raises(UserError, match="base URL"):
        model_spec("openai-compatible", "m", "not a url", "")
    with pytest.raises(UserError, match="unknown model provider"):
        model_spec("gemini", "", "", "")


def test_unchanged_table_gives_back_the_same_plan() -> None:
    assert plan_from_table(PLAN, plan_to_table(PLAN)) == PLAN


def test_table_edits_keep_hidden_fields_and_add_steps() -> None:
    rows = plan_to_table(PLAN)
    rows[1][1] = "Fit flat LCDM"
    rows.append(["", "Plot", "", "draw the Hubble diagram", ""])
    edited = plan_from_table(PLAN, rows)
    assert edited["steps"][1]["title"] == "Fit flat LCDM"
    assert edited["steps"][1]["method"] == PLAN["steps"][1]["method"]
    assert edited["steps"][2] == {
        "id": "s3",
        "agent": "engineer",
        "title": "Plot",
        "goal": "draw the Hubble diagram",
    }
    assert edited["rationale"] == PLAN["rationale"]
    # dropping a row drops the step
    assert [s["id"] for s in plan_from_table(PLAN, rows[:1])["steps"]] == ["s1"]


def _upload(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def test_stage_uploads_places_data_where_the_task_names_it(tmp_path: Path) -> None:
    uploads = Path(os.environ["GRADIO_TEMP_DIR"]) / "test-stage"
    task = _upload(
        uploads / "a", "task.md", "---\ntitle: Fit SN\narguments:\n  data: data/sn/x.dat\n---\nFit.\n"
    )
    data = _upload(uploads / "b", "x.dat", "1 2 3\n")
    extra = _upload(uploads / "c", "notes.csv", "a,b\n")
    staged, data_files, title = stage_uploads(tmp_path / "stage", "please hurry", [task, data, extra])
    assert title == "Fit SN"
    assert Path(staged) == tmp_path / "stage" / "task.md"
    assert (tmp_path / "stage" / "data" / "sn" / "x.dat").read_text() == "1 2 3\n"
    assert data_files == [tmp_path / "stage" / "notes.csv"]  # referenced files travel with the task
    assert "please hurry" in Path(staged).read_text()
    assert not task.exists() and not data.exists() and not extra.exists()  # moved out of the upload folder


def test_stage_uploads_plain_text_task(tmp_path: Path) -> None:
    # typed text becomes a file in the staging folder: solve never gets a string it could read as a path
    staged, data_files, title = stage_uploads(tmp_path / "stage", "Measure H0\nfrom these", [])
    assert staged == tmp_path / "stage" / "task.md" and data_files == [] and title == "Measure H0"
    assert staged.read_text() == "Measure H0\nfrom these\n"
    staged, _, _ = stage_uploads(tmp_path / "stage3", "/etc/passwd", [])
    assert staged.read_text() == "/etc/passwd\n"  # the text itself, not the file it names
    with pytest.raises(UserError):
        stage_uploads(tmp_path / "stage2", "", [])


def test_stage_uploads_refuses_paths_outside_the_upload_folder(tmp_path: Path) -> None:
    secret = _upload(tmp_path / "elsewhere", "secret.md", "---\ntitle: x\n---\n")
    with pytest.raises(UserError, match="not a file attached here"):
        stage_uploads(tmp_path / "stage", "", [secret])
    assert secret.exists()


def test_example_tasks_lists_titles(tmp_path: Path) -> None:
    _upload(tmp_path, "sn.md", "---\ntitle: Supernovae\n---\ntext\n")
    _upload(tmp_path, "README.md", "# examples\n")
    _upload(tmp_path, "plain.md", "no front matter\n")
    assert example_tasks(tmp_path) == {
        "Supernovae": (tmp_path / "sn.md").resolve(),
        "plain": (tmp_path / "plain.md").resolve(),
    }


def test_local_model_is_the_operators_choice_not_a_visitors_path() -> None:
    from cmbagent.models import get_provider

    local = get_provider("local")
    if local is None or local.unavailable() is not None:
        pytest.skip("--model local is not available here (xllamacpp not installed)")
    assert model_spec("local", "", "", "") == ("local", {})
    with pytest.raises(UserError, match="leave the model field empty"):
        model_spec("local", "etc/some.gguf", "", "")
