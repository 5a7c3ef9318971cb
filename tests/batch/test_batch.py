"""Batches on a real local Ray cluster (``ray.init(num_cpus=2)``, no mocks): runs in parallel, each a normal
run folder; one bad task fails alone; budgets hold per run and across the batch; a batch killed with kill -9
resumes without redoing finished runs; `cmbagent runs` shows batch membership."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cmbagent.batch import BatchSettings, collect_items, load_sweep, read_batch, run_batch
from cmbagent.control import run_owner
from cmbagent.events import read_events
from cmbagent.run import list_runs
from tests.fakes import FakeLLMServer
from tests.faults._support import Agents
from tests.planner._support import chain_task
from tests.planner.test_realistic_run import sandbox_backend

pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::FutureWarning"), pytest.mark.filterwarnings("ignore::UserWarning")]

#: each model call of the priced runs costs $0.10 at gpt-4.1's list price (50k input tokens)
CALL_USD = 50_000 * 2.00 / 1e6 + 40 * 8.00 / 1e6


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A local Ray cluster of 2 CPUs; its workers see a priced fake OpenAI endpoint (the env is set before the
    cluster starts, so the workers inherit it).  Yields that endpoint's base URL."""
    pytest.importorskip("ray")
    import ray

    from cmbagent.batch import connect_ray

    server = FakeLLMServer(fn=Agents(text_only=True, input_tokens=50_000)).start()
    saved = {k: os.environ.get(k) for k in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    os.environ.update(OPENAI_API_KEY="sk-test-batch", OPENAI_BASE_URL=server.openai_url)
    assert connect_ray(num_cpus=2)  # ray.init(num_cpus=2), a small object store, bound to 127.0.0.1
    warm_workers(ray, tmp_path_factory.mktemp("warm"))
    try:
        yield server.openai_url
    finally:
        ray.shutdown()
        server.stop()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def warm_workers(ray: Any, folder: Path, n: int = 3) -> None:
    """Hold ``n`` Ray tasks at a barrier until all are running, each having imported cmbagent: ``n`` warm worker
    processes, one per run of the parallel test and one for the batch's budget actor (an actor takes a pooled
    worker too).  Without them the parallelism seen depends on how fast a cold worker starts: on CI's loaded
    2-core machine the second run waited for the first run's worker, and the two ran one after the other."""

    def arrive(folder: str) -> int:
        import cmbagent.api  # noqa: F401  (the import a batch run pays first)

        (Path(folder) / str(os.getpid())).touch()
        deadline = time.monotonic() + 120
        while len(list(Path(folder).iterdir())) < n:
            if time.monotonic() > deadline:
                raise TimeoutError("not every warm-up Ray worker started")
            time.sleep(0.05)
        return os.getpid()

    share = 2 / n  # all n at once on the 2-CPU cluster
    pids = ray.get([ray.remote(num_cpus=share)(arrive).remote(str(folder)) for _ in range(n)], timeout=180)
    assert len(set(pids)) == n, pids


def tasks(folder: Path, n: int) -> list[Path]:
    out = []
    for i in range(n):
        sub = folder / f"task{i}"
        sub.mkdir(parents=True)
        out.append(chain_task(sub))
    return out


def overlap(batch: Path, record: Any) -> str | None:
    """None if the first two runs of ``record`` overlapped in time in two workers, else what happened."""
    spans = [(evs[0].ts, evs[-1].ts) for evs in (list(read_events(batch / r.item.run_dir / "events.jsonl"))
                                               for r in record.items[:2])]
    pids = [r.worker_pid for r in record.items[:2]]
    if spans[0][0] < spans[1][1] and spans[1][0] < spans[0][1] and pids[0] != pids[1]:
        return None
    return f"runs at {[(round(a % 1000, 2), round(b % 1000, 2)) for a, b in spans]} in workers {pids}"


def test_a_batch_runs_in_parallel_and_one_bad_task_fails_alone(tmp_path: Path, cluster: str) -> None:
    good = tasks(tmp_path / "tasks", 2)
    bad = tmp_path / "tasks" / "bad.md"
    bad.write_text("---\ntitle: Missing data\nmethod: cosmology.summarize_chain\narguments: {chain: nowhere.txt}\n"
                   "---\nSummarise a chain that is not there.\n")
    batch = tmp_path / "ws" / "batch-a"
    record = run_batch(collect_items([*good, bad]), batch_dir=batch, settings=BatchSettings(model="offline", sandbox=sandbox_backend()))
    rows = {row.item.name: row for row in record.items}
    assert [r.status for r in record.items] == ["done", "done", "failed"], [r.error for r in record.items]
    assert "nowhere.txt" in (rows["bad"].error or "")
    for row in record.items[:2]:
        assert row.values["Omega_m"]["mean"] == pytest.approx(0.3, abs=0.01)
        run = batch / row.item.run_dir
        for name in ("report.md", "events.jsonl", "notebook.ipynb", "checkpoints.sqlite"):  # a normal run folder
            assert (run / name).is_file(), name
    # the two runs overlapped in time, in two workers.  Ray's scheduling on a loaded 2-core machine has twice
    # (in CI) started the second run only as the first one ended, on the first one's worker; when that happens
    # the batch of the two good tasks runs again once, and the first try's timings go into the message
    first = overlap(batch, record)
    if first is not None:
        again = run_batch(collect_items(good), batch_dir=tmp_path / "again" / "batch",
                          settings=BatchSettings(model="offline", sandbox=sandbox_backend()))
        assert [r.status for r in again.items] == ["done", "done"]
        second = overlap(tmp_path / "again" / "batch", again)
        assert second is None, f"no overlap twice: {first}; then {second}"
    saved = json.loads((batch / "batch.json").read_text())
    assert saved["totals"]["statuses"] == {"done": 2, "failed": 1}
    table = (batch / "batch.md").read_text()
    assert "| 1 | [runs/01-task](runs/01-task/report.md) | task0/task.md | done |" in table
    assert re.search(r"Omega_m = 0\.(29|30)\d* ± 0\.02", table) and "| failed (PathError" in table
    # `cmbagent runs` lists the batch's runs with the batch they belong to
    assert {(r["batch"], r["status"]) for r in list_runs(tmp_path / "ws")} == {("batch-a", "done")}
    shown = subprocess.run([sys.executable, "-m", "cmbagent", "runs", "--workspace", str(tmp_path / "ws")],
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and shown.stdout.count("batch-a") == 2


def test_budgets_hold_per_run_and_across_the_batch(tmp_path: Path, cluster: str) -> None:
    task = tmp_path / "task.md"
    task.write_text("---\ntitle: Interpret\n---\nCompute the answer to everything and interpret it.\n")
    sweep = tmp_path / "sweep.yaml"
    sweep.write_text("task: task.md\ngrid:\n  model: ['openai:gpt-4.1']\n  n_reviews: [0, 1]\n  max_steps: [3, 4]\n")
    items = load_sweep(sweep)
    assert [i.params for i in items][:2] == [{"model": "openai:gpt-4.1", "n_reviews": 0, "max_steps": 3},
                                             {"model": "openai:gpt-4.1", "n_reviews": 0, "max_steps": 4}]

    total = 1.0
    record = run_batch(items, batch_dir=tmp_path / "total", settings=BatchSettings(budget_usd=total, max_concurrent=2))
    spent = sum(row.cost_usd or 0.0 for row in record.items)
    assert total <= spent <= total + 2 * CALL_USD + 1e-9  # two runs in flight may each finish one call
    assert {row.status for row in record.items} <= {"budget_exhausted", "done"}
    not_started = [row for row in record.items if row.error and row.error.startswith("not started")]
    assert not_started and not any((tmp_path / "total" / row.item.run_dir).exists() for row in not_started)
    stopped = [row for row in record.items if row.status == "budget_exhausted" and row.cost_usd]
    assert stopped
    for row in stopped:  # runs stopped in flight end with a partial report that says why
        assert "total budget" in (tmp_path / "total" / row.item.run_dir / "report.md").read_text()

    per_run = 0.35
    record = run_batch(items[:2], batch_dir=tmp_path / "per-run", settings=BatchSettings(budget_usd_per_run=per_run))
    for row in record.items:
        assert row.status == "budget_exhausted" and per_run <= (row.cost_usd or 0) <= per_run + CALL_USD + 1e-9


@pytest.mark.slow
def test_a_batch_killed_with_kill_9_resumes_without_redoing_finished_runs(tmp_path: Path) -> None:
    pytest.importorskip("ray")  # the batch commands start their own local clusters
    folder = tmp_path / "tasks"
    tasks(folder, 3)
    batch = tmp_path / "batch"
    env = {**os.environ, "CMBAGENT_OFFLINE_DELAY": "0.1", "PYTHONWARNINGS": "ignore"}
    cli = [sys.executable, "-m", "cmbagent", "batch"]
    proc = subprocess.Popen([*cli, str(folder / "task0" / "task.md"), str(folder / "task1" / "task.md"),
                             str(folder / "task2" / "task.md"), "--batch-dir", str(batch), "--max-concurrent", "1",
                             "--model", "offline",
                             "--sandbox", sandbox_backend()], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    second = batch / "runs" / "02-task"
    deadline = time.monotonic() + 300
    while not any(e.type == "step_started" for e in read_events(second / "events.jsonl")):
        assert proc.poll() is None, proc.stderr.read().decode()[-3000:]  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "the second run never started"
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60
    while run_owner(second) is not None:  # Ray's own processes notice the driver is gone and end the run
        assert time.monotonic() < deadline, "the killed batch's run kept going"
        time.sleep(0.2)
    before = read_batch(batch)
    assert [r.status for r in before.items] == ["done", "running", "pending"]
    first_events = len(list(read_events(batch / "runs" / "01-task" / "events.jsonl")))

    again = subprocess.run([*cli, "--resume", str(batch), "--json"], env=env, capture_output=True, timeout=600)
    assert again.returncode == 0, again.stderr.decode()[-3000:]
    after = read_batch(batch)
    assert [r.status for r in after.items] == ["done", "done", "done"]
    assert len(list(read_events(batch / "runs" / "01-task" / "events.jsonl"))) == first_events  # not redone
    resumed = [e.data["resumed"] for e in read_events(second / "events.jsonl") if e.type == "run_started"]
    assert resumed == [False, True]  # the interrupted run resumed from its checkpoints
    assert after.items[0].attempts == 1 and after.items[1].attempts == 1


@pytest.mark.slow
def test_a_batch_joins_a_running_cluster_with_ray_address(tmp_path: Path) -> None:
    """`--ray-address` joins a cluster someone started (`ray start --head`, its own processes), runs there and
    leaves it running; nothing of it is started by the batch."""
    pytest.importorskip("ray")
    import secrets
    import socket
    import tempfile

    import psutil

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ray_exe = Path(sys.executable).with_name("ray")
    temp = tempfile.mkdtemp(prefix="rayh-", dir="/tmp")  # socket paths must stay short
    # token authentication, as a shared cluster runs it: the head and the batch hold the same token
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "PYTHONWARNINGS": "ignore", "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN": secrets.token_hex(32)}
    head = subprocess.Popen([str(ray_exe), "start", "--head", f"--port={port}", "--num-cpus=2", "--block",
                             "--include-dashboard=false", "--node-ip-address=127.0.0.1", f"--temp-dir={temp}",
                             "--disable-usage-stats"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        address = f"127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while subprocess.run([str(ray_exe), "status", f"--address={address}"], env=env, capture_output=True,
                             timeout=60).returncode != 0:
            assert head.poll() is None, head.stderr.read().decode()[-3000:]  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the Ray head never came up"
            time.sleep(1.0)
        files = tasks(tmp_path / "tasks", 2)
        batch = tmp_path / "batch"
        done = subprocess.run([sys.executable, "-m", "cmbagent", "batch", *map(str, files), "--batch-dir", str(batch),
                               "--ray-address", address, "--model", "offline", "--sandbox", sandbox_backend(),
                               "--json"], env=env, capture_output=True, timeout=600)
        assert done.returncode == 0, done.stderr.decode()[-3000:]
        record = read_batch(batch)
        assert [r.status for r in record.items] == ["done", "done"]
        # the runs ran in that cluster's workers (its GCS), not in a cluster the batch started
        assert {str(r.cluster).rsplit(":", 1)[-1] for r in record.items} == {str(port)}
        assert all(r.node and r.worker_pid not in {p.pid for p in psutil.Process().children(recursive=True)}
                   for r in record.items)
        assert head.poll() is None  # the batch left the cluster running
    finally:
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait()
