"""One typed settings object end to end: a run setting given to the CLI, the task's front matter, the config
file or ``solve(settings=...)`` reaches the graph node that uses it, through LangGraph's runtime context.

``cell_timeout`` is the setting that shows it: the seconds ``planner/_roles.py:run_cell`` gives each code cell.
The executor here is the in-memory one with a spy on ``execute`` that records the ``timeout`` each cell was
given and then runs the cell as usual."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

import cmbagent
from cmbagent.api import solve
from cmbagent.cli import app
from cmbagent.config import RunConfig, RunSettings
from cmbagent.exceptions import ConfigError, TaskError, UserError
from cmbagent.sandbox import InMemoryExecutor
from cmbagent.session import RunSession
from cmbagent.task import parse_task
from tests.planner._support import chain_task

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


class TimeoutSpy(InMemoryExecutor):
    """The in-memory executor, recording the timeout of every cell it runs (class-wide: a run makes its own)."""

    timeouts: ClassVar[list[float | None]] = []

    def execute(self, code: str, *, timeout: float | None = None, heartbeat: Any = None) -> Any:
        TimeoutSpy.timeouts.append(timeout)
        return super().execute(code, timeout=timeout, heartbeat=heartbeat)


@pytest.fixture
def spy() -> type[TimeoutSpy]:
    TimeoutSpy.timeouts = []
    return TimeoutSpy


def test_cell_timeout_from_the_cli_reaches_every_cell(tmp_path: Path, spy: type[TimeoutSpy],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import cmbagent.sandbox

    # the CLI cannot be handed an executor: the sandbox the session opens is the spy (the settings are real)
    monkeypatch.setattr(cmbagent.sandbox, "open_sandbox", lambda folder, **_: spy(folder))
    task = chain_task(tmp_path, extra="cell_timeout: 7\n")  # the flag beats the front matter
    result = CliRunner().invoke(app, ["solve", str(task), "--workspace", str(tmp_path / "ws"), "--sandbox",
                                      "process", "--cell-timeout", "42", "--json"])
    assert result.exit_code == 0, result.output
    assert len(spy.timeouts) >= 2 and set(spy.timeouts) == {42.0}
    run = json.loads(result.output.strip().splitlines()[-1])
    stored = RunSession.open(run["run_dir"]).config  # run.json, read back typed
    assert stored.settings.cell_timeout == 42.0 and stored.sources["cell_timeout"] == "flag"


def test_cell_timeout_from_the_front_matter_and_the_config_file_reaches_every_cell(
        tmp_path: Path, spy: type[TimeoutSpy]) -> None:
    task = chain_task(tmp_path, extra="cell_timeout: 7\n")
    result = solve(task, workspace=tmp_path / "ws", executor=spy)
    assert result.status == "done", result.error
    assert spy.timeouts and set(spy.timeouts) == {7.0}
    assert RunSession.open(result.run_dir).config.sources["cell_timeout"] == "task"

    spy.timeouts = []
    (tmp_path / "plain").mkdir()
    plain = chain_task(tmp_path / "plain")
    result = solve(plain, workspace=tmp_path / "ws", executor=spy, config={"run": {"cell_timeout": 5}})
    assert result.status == "done", result.error
    assert spy.timeouts and set(spy.timeouts) == {5.0}

    spy.timeouts = []  # the typed form of the API; its fields given are flags
    result = solve(plain, workspace=tmp_path / "ws", executor=spy, settings=cmbagent.RunSettings(cell_timeout=3))
    assert result.status == "done", result.error
    assert spy.timeouts and set(spy.timeouts) == {3.0}


def test_each_source_of_a_run_setting_in_its_order() -> None:
    def cell_timeout(flags: dict[str, Any], env: dict[str, str], task: dict[str, Any], file: dict[str, Any]) -> tuple:
        config = RunConfig.resolve(flags=flags, env=env, front_matter=task, config_file=file)
        return config.settings.cell_timeout, config.sources["cell_timeout"]

    file, task, env = {"run": {"cell_timeout": 5}}, {"cell_timeout": 7}, {"CMBAGENT_CELL_TIMEOUT": "11"}
    assert cell_timeout({"cell_timeout": 42}, env, task, file) == (42.0, "flag")
    assert cell_timeout({}, env, task, file) == (11.0, "env")
    assert cell_timeout({}, {}, task, file) == (7.0, "task")
    assert cell_timeout({}, {}, {}, file) == (5.0, "config")
    assert cell_timeout({}, {}, {}, {}) == (900.0, "default")


def test_bad_run_settings_say_what_to_fix_and_where_the_value_came_from(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"cell_timeout: Input should be greater than 0 \(from the task's front matter\)"):
        RunConfig.resolve(flags={}, env={}, front_matter={"cell_timeout": 0})
    with pytest.raises(ConfigError, match=r"\[run\] in cmbagent.toml cannot set sandbox"):
        RunConfig.resolve(flags={}, env={}, config_file={"run": {"sandbox": "process"}})
    with pytest.raises(ConfigError, match="did you mean 'cell_timeout'"):
        RunSettings.given({"cell_timeot": 3})
    # a task someone sends cannot switch the sandbox, installs or plan approval: those are flags only
    with pytest.raises(TaskError, match="unknown front-matter key 'allow_install'"):
        parse_task("---\nallow_install: true\n---\nGo.\n", base=tmp_path)
    assert parse_task("---\ncell_timeout: 60\n---\nGo.\n", base=tmp_path).settings() == {"cell_timeout": 60}
    task = chain_task(tmp_path)
    with pytest.raises(UserError, match="max_steps given both as a keyword and in settings"):
        solve(task, workspace=tmp_path / "ws", max_steps=3, settings=RunSettings(max_steps=4))
