"""Large inputs: announced with their size at the start, linked into each run instead of copied (a reflink, or
a hard link into a content-addressed cache the workspace's runs share), and a long cell shows signs of life."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cmbagent.events import Event
from cmbagent.paths import INPUT_CACHE, link_file, prune_input_cache
from cmbagent.progress import PlainProgress
from tests.planner._support import chain_task, of_type


def test_inputs_are_linked_from_one_cache_entry_not_copied_per_run(tmp_path: Path) -> None:
    source = tmp_path / "big.dat"
    source.write_bytes(os.urandom(1 << 20))
    cache = tmp_path / "ws" / INPUT_CACHE
    a, b = tmp_path / "ws" / "run-a" / "data" / "big.dat", tmp_path / "ws" / "run-b" / "data" / "big.dat"
    how = {link_file(source, a, cache=cache), link_file(source, b, cache=cache)}
    assert how <= {"reflink", "cache"}, how  # never a plain copy where the file system can do better
    assert a.read_bytes() == b.read_bytes() == source.read_bytes()
    assert not (a.stat().st_mode & 0o222)  # read-only: a run cannot change what other runs share
    if how == {"cache"}:
        [entry] = cache.glob("sha256-*")
        assert a.stat().st_ino == b.stat().st_ino == entry.stat().st_ino and entry.stat().st_nlink == 3
        assert entry.name.startswith("sha256-") and entry.suffix == ".dat"
    source.write_bytes(b"edited later")  # the recorded runs keep the input they ran with
    assert a.read_bytes() != b"edited later"
    c = tmp_path / "ws" / "run-c" / "data" / "big.dat"
    link_file(source, c, cache=cache)  # the edited file is new content: not the old entry (the index knows)
    assert c.read_bytes() == b"edited later"
    c.unlink()
    for run in (a, b):
        run.unlink()
    assert prune_input_cache(cache, older_than_s=0) == (2 if how == {"cache"} else 0)  # the old and the edited
    assert not list(cache.glob("sha256-*"))


def test_the_start_of_a_run_shows_each_input_and_warns_about_large_ones(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import cmbagent.inputs

    monkeypatch.setattr(cmbagent.inputs, "LARGE_INPUT_BYTES", 1000)  # the chain file (~60 kB) counts as large
    from cmbagent.api import solve
    from cmbagent.sandbox import InMemoryExecutor

    lines: list[str] = []

    class Lines(PlainProgress):
        def render(self, event: Event) -> None:
            super().render(event)

    class Stream:
        def write(self, text: str) -> None:
            lines.append(text)

        def flush(self) -> None:
            pass

    task = chain_task(tmp_path)
    first = solve(task, workspace=tmp_path / "ws", executor=InMemoryExecutor, on_event=Lines(Stream()))  # type: ignore[arg-type]
    assert first.status == "done", first.error
    second = solve(task, workspace=tmp_path / "ws", executor=InMemoryExecutor)
    [started] = of_type(first.run_dir, "run_started")
    [info] = started["inputs"]
    assert info["name"] == "data/chain.txt" and info["bytes"] == (tmp_path / "chain.txt").stat().st_size
    assert info["large"] and info["linked"] in {"reflink", "cache"}
    text = "".join(lines)
    assert f"input data/chain.txt: {cmbagent.inputs.human_size(info['bytes'])}, " in text
    assert "a large input" in text and "heartbeat" in text
    copies = [run / "data" / "chain.txt" for run in (first.run_dir, second.run_dir)]
    if info["linked"] == "cache":
        assert copies[0].stat().st_ino == copies[1].stat().st_ino  # one file on disk for both runs


def test_a_long_cell_reports_its_heartbeat_as_an_event_and_a_line(tmp_path: Path) -> None:
    from cmbagent.agents import load_registry
    from cmbagent.config import RunSettings
    from cmbagent.events import EventLog
    from cmbagent.planner._roles import StepCall, run_cell
    from cmbagent.planner._runtime import Runtime
    from cmbagent.planner._state import RunState
    from cmbagent.run import RunFolder
    from cmbagent.sandbox import InMemoryExecutor
    from cmbagent.state import Plan, PlanStep, StepRecord, TaskSpec
    from cmbagent.task import parse_task

    folder = RunFolder.create(parse_task("Wait a little.", base=tmp_path), workspace=tmp_path / "ws", run_dir=None,
                              config={})
    seen: list[Event] = []
    events = EventLog(folder.events, folder.run_id, listener=seen.append)
    rt = Runtime(folder=folder, registry=load_registry(), client=None,  # type: ignore[arg-type]
                 events=events, settings=RunSettings(heartbeat_s=0.2),
                 open_executor=lambda: InMemoryExecutor(folder.path))
    step = PlanStep(id="s1", title="Wait", agent="engineer", goal="wait")
    record = StepRecord(id="s1", index=1, dir=folder.step_files(1, step).rel)
    state = RunState(task=TaskSpec(text="Wait a little.", title="w"), plan=Plan(steps=[step]), steps={"s1": record},
                     current="s1")
    call = StepCall(rt, state, state.plan, step, record, folder.files_of(record))  # type: ignore[arg-type]
    attempt = run_cell(call, "import time\nprint('fitting chunk 3 of 9')\ntime.sleep(0.9)\n")
    rt.close()
    assert attempt.ok
    beats = [e for e in seen if e.type == "cell_heartbeat"]
    assert len(beats) >= 2 and beats[0].data["step_id"] == "s1" and beats[0].data["attempt"] == 1
    assert beats[-1].data["last_line"] == "fitting chunk 3 of 9" and beats[-1].data["elapsed_s"] > 0.3
    lines: list[str] = []

    class Stream:
        def write(self, text: str) -> None:
            lines.append(text)

        def flush(self) -> None:
            pass

    PlainProgress(Stream())(beats[-1])  # type: ignore[arg-type]
    assert "step s1 still running (0m00s); last output: fitting chunk 3 of 9" in "".join(lines)
