"""A provider row that serves a recorded transcript (``serves_transcript``) is treated as ``replay`` is, by that
field and not by its name: a task may not name it, the UI will not resume a run that names it, and a ping counts
its recorded calls.  A row whose model part is a model file (``model_file``, as ``local``'s) is known the same
way, by that field, not from its optional model."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cmbagent.exceptions import ConfigError, TaskError, UserError
from cmbagent.models import Provider, ProviderCall, _providers, get_provider, ping, register_provider
from cmbagent.models.replay import ReplayModel
from cmbagent.task import check_model_choice
from cmbagent.ui._tasks import check_stored_models


def _tape(call: ProviderCall) -> ReplayModel:
    return ReplayModel(call.spec.model)


@pytest.fixture
def tape() -> Iterator[Provider]:
    """A second transcript provider under a name no check in the product spells."""
    row = register_provider(Provider(name="tape", description="serves a recorded tape", factory=_tape,
                                     forms=("tape:<transcript.jsonl>",), example="tape:run/transcript.jsonl",
                                     in_ui=False, pings=False, serves_transcript=True))
    try:
        yield row
    finally:
        with _providers._LOCK:
            _providers._TABLE.pop("tape", None)


def _transcript(path: Path, calls: int) -> Path:
    path.write_text("".join(json.dumps({"seq": n, "agent": "planner"}) + "\n" for n in range(calls)), encoding="utf-8")
    return path


def test_the_replay_row_says_it_serves_a_transcript() -> None:
    replay = get_provider("replay")
    assert replay is not None and replay.serves_transcript
    assert not any(row.serves_transcript for row in _providers.providers() if row.name != "replay")


def test_a_task_may_not_name_a_transcript_provider(tape: Provider) -> None:
    with pytest.raises(TaskError, match="a transcript"):
        check_model_choice("tape:/etc/passwd", where="front matter: model")
    check_model_choice("openai:gpt-4.1")  # a plain model stays a task's to choose


def test_the_ui_does_not_resume_a_run_that_names_a_transcript_provider(tape: Provider, tmp_path: Path) -> None:
    (tmp_path / "run.json").write_text(json.dumps({"config": {"model": "offline",
                                                              "agent_models": {"planner": "tape:/etc/passwd"}}}))
    with pytest.raises(UserError, match="names a model server this app does not use"):
        check_stored_models(tmp_path, [])
    (tmp_path / "run.json").write_text(json.dumps({"config": {"model": "offline"}}))
    check_stored_models(tmp_path, [])


def test_a_ping_of_a_transcript_provider_counts_its_calls(tape: Provider, tmp_path: Path) -> None:
    path = _transcript(tmp_path / "transcript.jsonl", 3)
    result = ping(f"tape:{path}")
    assert result["note"] == "transcript with 3 recorded calls"
    assert result["model"] == "tape" and result["cost_usd"] == 0.0


@pytest.mark.parametrize("bad", [{"model": "optional"}, {"pings": True}])
def test_a_transcript_row_must_name_its_file_and_ping_nothing(bad: dict[str, object]) -> None:
    settings = {"pings": False, **bad}
    with pytest.raises(ConfigError, match="serves a transcript"):
        register_provider(Provider(name="tape2", description="x", factory=_tape, forms=("tape2:<file>",),
                                   example="tape2:f", serves_transcript=True, **settings))  # type: ignore[arg-type]
    assert get_provider("tape2") is None


def _gguf(call: ProviderCall) -> ReplayModel:  # never called: the tests only check what may name the file
    raise AssertionError("not built in these tests")


@pytest.fixture
def weights() -> Iterator[Provider]:
    """A provider whose model part is a model file, under a name no check in the product spells, with its model
    optional like ``local``'s; and one whose model is optional but names no file."""
    rows = [register_provider(Provider(name="weights", description="serves a model file", factory=_gguf,
                                       forms=("weights", "weights:<path.gguf>"), example="weights",
                                       model="optional", model_file=True, in_ui=False, pings=False)),
            register_provider(Provider(name="named", description="optional model name", factory=_gguf,
                                       forms=("named", "named:<model>"), example="named", model="optional",
                                       in_ui=False, pings=False))]
    try:
        yield rows[0]
    finally:
        with _providers._LOCK:
            for row in rows:
                _providers._TABLE.pop(row.name, None)


def test_the_local_row_says_its_model_part_is_a_file() -> None:
    local = get_provider("local")
    assert local is not None and local.model_file and local.model == "optional"
    assert not any(row.model_file for row in _providers.providers() if row.name != "local")


def test_a_model_file_is_known_by_the_row_field_not_by_an_optional_model(weights: Provider, tmp_path: Path) -> None:
    with pytest.raises(TaskError, match="a model file"):
        check_model_choice("weights:/etc/passwd", where="front matter: model")
    check_model_choice("weights")  # the operator's installed model: a task may choose it
    check_model_choice("named:some-model")  # an optional model that is a name, not a file, stays a task's choice
    (tmp_path / "run.json").write_text(json.dumps({"config": {"model": "weights:/etc/passwd"}}))
    with pytest.raises(UserError, match="names a model server this app does not use"):
        check_stored_models(tmp_path, [])
    (tmp_path / "run.json").write_text(json.dumps({"config": {"model": "named:some-model"}}))
    check_stored_models(tmp_path, [])


def test_a_model_file_row_must_have_a_model_and_no_base_url() -> None:
    with pytest.raises(ConfigError, match="model file"):
        register_provider(Provider(name="nofile", description="x", factory=_gguf, forms=("nofile",),
                                   example="nofile", model="none", model_file=True))
    assert get_provider("nofile") is None
