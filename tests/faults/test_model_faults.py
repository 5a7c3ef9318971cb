"""Model faults in the middle of full runs, through the fake OpenAI server and the real SDK: every run ends
``done`` (retries and repairs absorb the fault), or ``failed`` with a partial report and then resumes to
``done`` without redoing a completed step."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from cmbagent.api import resume, solve
from cmbagent.sandbox import InMemoryExecutor
from tests.fakes import Drop, FakeLLMServer, Json, MalformedBody, Reply, Slow, Status
from tests.faults._support import TASK, Agents, events, finished, started_steps

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

CONFIG = {"models": {"retries": 4, "timeout": 1.5}}


def run(server: FakeLLMServer, tmp_path: Path, config: dict | None = None):  # type: ignore[no-untyped-def,type-arg]
    return solve(TASK, workspace=tmp_path / "ws", model=f"openai-compatible:fake-model@{server.openai_url}",
                 executor=InMemoryExecutor, config=config or CONFIG)


FAULTS: dict[str, dict[int, list[Reply]]] = {
    "429 storm with Retry-After": {3: [Status(429, retry_after=0.05)] * 4, 7: [Status(429, retry_after=0.1)] * 3},
    "500/503 bursts": {2: [Status(500), Status(503), Status(500)], 6: [Status(503), Status(503)]},
    "connection dropped mid-stream": {4: [Drop(during=Json({"code": "print(1)"}), after_events=2)],
                                      8: [Drop()]},
    "a reply that never ends": {5: [Slow(30.0)]},
    "garbage JSON in a structured reply": {3: [Json('{"title": "The answer", "objective": ')],
                                           6: [Json("[1, 2, not json")]},
    "a body that is not the wire format": {9: [MalformedBody()]},
}


@pytest.mark.parametrize("case", list(FAULTS))
def test_a_fault_mid_run_is_absorbed_and_the_run_ends_done(case: str, tmp_path: Path) -> None:
    faults = FAULTS[case]
    agents = Agents(faults={k: list(v) for k, v in faults.items()})
    with FakeLLMServer(fn=agents) as server:
        result = run(server, tmp_path)
    assert result.status == "done", result.error
    assert agents.served_faults == sum(len(v) for v in faults.values())  # every fault was met
    evs = events(result.run_dir)
    assert finished(evs) == {"s1": "done", "s2": "done"}
    assert started_steps(evs) == ["s1", "s2"]  # nothing was done twice
    assert result.values["answer"] == 42.0
    assert (result.run_dir / "report.md").is_file()


def test_a_burst_longer_than_the_retries_fails_the_run_with_a_partial_report_then_it_resumes(tmp_path: Path) -> None:
    # after s1 is done, an outage longer than the retries: 1 retry per call (and per structured-output mode the
    # adapter falls back through on a non-2xx answer)
    agents = Agents(faults={9: [Status(503)] * 20})
    with FakeLLMServer(fn=agents) as server:
        failed = run(server, tmp_path, {"models": {"retries": 1, "timeout": 5}})
        assert failed.status == "failed" and "503" in (failed.error or ""), failed.error
        agents._pending.clear()  # the outage is over
        report = (failed.run_dir / "report.md").read_text()
        assert "failed" in report and "answer" in report  # partial: s1's number is in it
        before = events(failed.run_dir)
        assert finished(before).get("s1") == "done"
        done = resume(failed.run_dir, executor=InMemoryExecutor)
    assert done.status == "done", done.error
    after = events(done.run_dir)[len(before):]
    assert "s1" not in started_steps(after)  # s1 was not redone
    assert finished(events(done.run_dir)) == {"s1": "done", "s2": "done"}


@pytest.mark.slow
def test_the_endpoint_gone_for_30_s_then_back(tmp_path: Path) -> None:
    agents = Agents(faults={6: [Drop()]})  # the server dies while answering call 6
    server = FakeLLMServer(fn=agents).start()
    port = int(server.url.rsplit(":", 1)[1])
    outcome: dict[str, object] = {}

    def work() -> None:
        # 8 retries: backoff 0.5, 1, 2, 4, 8, 8, 8, 8 s — enough to ride out a 30 s outage
        outcome["result"] = run(server, tmp_path, {"models": {"retries": 8, "timeout": 5}})

    thread = threading.Thread(target=work)
    thread.start()
    deadline = time.monotonic() + 120
    while agents.served_faults == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.stop()
    gone = time.monotonic()
    time.sleep(30)
    back = FakeLLMServer(fn=agents, port=port).start()
    try:
        thread.join(timeout=180)
    finally:
        back.stop()
    result = outcome["result"]
    assert result.status == "done", result.error  # type: ignore[attr-defined]
    evs = events(result.run_dir)  # type: ignore[attr-defined]
    assert evs[-1].ts - gone >= 30 - 1
    assert finished(evs) == {"s1": "done", "s2": "done"} and started_steps(evs) == ["s1", "s2"]
