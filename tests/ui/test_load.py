"""The UI under load: 20 browser-less clients (Gradio's own HTTP client, each with its own session cookie)
start a run each at once against `cmbagent ui --max-concurrent-runs 4` on 127.0.0.1 and follow it over HTTP
until it ends.  Every run ends, at most 4 run at a time, waiting runs are shown their place in the queue, no
session sees another's runs, and the server's memory stays bounded (its peak is reported).

Bounded: 20 clients, one run each, a 400 s deadline; every request goes to 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from cmbagent.events import read_events
from tests.planner._support import chain_task
from tests.planner.test_realistic_run import sandbox_backend

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]

CLIENTS = 20
WORKERS = 4
DEADLINE_S = 400.0
#: the server process's resident memory may not pass this (it holds 20 sessions and 4 running graphs)
SERVER_RSS_LIMIT = 1536 * 2**20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Sampler(threading.Thread):
    """Resident memory of the server process (and of it with its kernels), every 0.2 s."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.peak_server = self.peak_total = 0
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.2):
            try:
                own = self.process.memory_info().rss
                children = sum(c.memory_info().rss for c in self.process.children(recursive=True))
            except psutil.Error:
                continue
            self.peak_server = max(self.peak_server, own)
            self.peak_total = max(self.peak_total, own + children)


def client(url: str, out: dict[str, Any], start: threading.Barrier) -> None:
    """One person without a browser: a session cookie, a run, its live view until it ends, the Runs table."""
    from gradio_client import Client

    cookie = httpx.get(url, timeout=60).headers["set-cookie"].split(";")[0]
    gradio = Client(url, headers={"Cookie": cookie}, verbose=False)
    start.wait(timeout=120)
    # the run id goes into the page's session state (not an API output); the live view names it
    gradio.predict("Summarise a chain", "offline", "", "", "", None, None, None, 0, False, api_name="/run_example")
    states, places, shown = [], [], set()
    for update in gradio.submit(api_name="/follow_2"):
        html = update[0] if isinstance(update[0], str) else ""
        if 'class="cmb-status"' in html:
            states.append(re.search(r'data-state="([^"]*)"', html)[1])  # type: ignore[index]
            shown.add(re.search(r'data-run="([^"]*)"', html)[1])  # type: ignore[index]
            places += [int(n) for n in re.findall(r"place (\d+) in the queue", html)]
    assert len(shown) == 1, shown  # the view followed one run, this client's
    out["run_id"], out["states"], out["places"] = shown.pop(), states, places
    table = gradio.predict(api_name="/refresh_runs")[0]
    out["listed"] = [row[0] for row in table["data"]]


def test_twenty_clients_against_four_workers(tmp_path: Path, artifacts: Path) -> None:
    examples = tmp_path / "examples"
    examples.mkdir()
    chain_task(examples)
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    env = {**os.environ, "CMBAGENT_UI_EXAMPLES": str(examples), "CMBAGENT_UI_SANDBOX": sandbox_backend(),
           "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONWARNINGS": "ignore"}
    server = subprocess.Popen([sys.executable, "-m", "cmbagent", "ui", "--host", "127.0.0.1", "--port", str(port),
                               "--workspace", str(tmp_path / "ws"), "--max-concurrent-runs", str(WORKERS)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, server.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the UI did not start"
            time.sleep(0.3)
        sampler = Sampler(server.pid)
        sampler.start()
        results: list[dict[str, Any]] = [{} for _ in range(CLIENTS)]
        errors: list[BaseException] = []
        barrier = threading.Barrier(CLIENTS)

        def guarded(n: int) -> None:
            try:
                client(url, results[n], barrier)
            except BaseException as exc:  # reported below with the client's number
                errors.append(exc)

        began = time.monotonic()
        threads = [threading.Thread(target=guarded, args=(n,), daemon=True) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=max(1.0, DEADLINE_S - (time.monotonic() - began)))
        wall = time.monotonic() - began
        sampler.stop.set()
        assert not errors, errors[:3]
        assert not any(t.is_alive() for t in threads), f"clients still waiting after {DEADLINE_S} s"
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)

    run_ids = [r["run_id"] for r in results]
    assert len(set(run_ids)) == CLIENTS
    assert all(r["states"] and r["states"][-1] == "done" for r in results), [r.get("states", [])[-1:] for r in results]
    assert all(r["listed"] == [r["run_id"]] for r in results)  # each session sees its own run and no other
    queued = [r for r in results if r["places"]]
    assert len(queued) >= CLIENTS - 2 * WORKERS and max(max(r["places"]) for r in queued) > WORKERS
    # never more than 4 runs at once, from the runs' own event logs
    spans = []
    for log in (tmp_path / "ws").rglob("events.jsonl"):  # a session folder also holds its uploads and inputs
        if log.parent.name in run_ids:
            evs = list(read_events(log))
            spans.append((evs[0].ts, evs[-1].ts))
    assert len(spans) == CLIENTS
    overlap = max(sum(1 for s, e in spans if s <= t < e) for t, _ in spans)
    assert overlap <= WORKERS
    assert sampler.peak_server < SERVER_RSS_LIMIT
    numbers = {"clients": CLIENTS, "workers": WORKERS, "wall_s": round(wall, 1), "max_overlap": overlap,
               "peak_server_rss_mib": round(sampler.peak_server / 2**20, 1),
               "peak_server_and_kernels_rss_mib": round(sampler.peak_total / 2**20, 1)}
    (artifacts / "load.json").write_text(json.dumps(numbers, indent=2))
    print("\nUI load:", numbers)
