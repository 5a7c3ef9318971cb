"""Many runs as Ray tasks: each item of a batch is one normal run folder with its own sandbox kernel.

::

    result = run_batch(collect_items(["tasks/"]), batch_dir="workspaces/batch-1", settings=BatchSettings())

With no ``ray_address`` Ray starts a local cluster on this machine (bound to 127.0.0.1, no dashboard, no
usage statistics, a small object store: a run returns a few kilobytes); with one (``auto``, ``ray://…``) it
joins that cluster, whose nodes must see the batch folder at the same path.

* **Isolation of failures.**  A run that fails — its task, its model, even its Ray worker dying — is
  recorded as failed in ``batch.json``; the others go on.
* **Resume.**  ``batch.json`` is rewritten after every run; running a batch folder again skips runs that
  finished (``done``/``failed``) and resumes every other one from its checkpoints.
* **Budgets.**  ``budget_usd_per_run`` is each run's own ``--budget-usd``; ``budget_usd`` is the batch's
  total, held by a Ray actor that every run's model client checks before each call and charges after it,
  so runs in flight stop (``budget_exhausted``, partial report) once the total is spent and runs not yet
  started are not started.  What earlier attempts of the batch spent counts.
* **Cancel.**  ``cmbagent cancel BATCH_DIR`` asks every run in flight to stop and the driver to start no
  more.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cmbagent.batch._items import BatchItem, item_task
from cmbagent.batch._settings import BatchSettings
from cmbagent.batch._summary import BatchRecord, ItemRecord, read_batch, write_batch
from cmbagent.exceptions import BudgetExceeded, ConfigError, UserError

__all__ = ["RayBudget", "connect_ray", "run_batch"]

#: the local cluster's object store: runs return small summaries, never data (Ray's default is 30 % of RAM)
OBJECT_STORE_BYTES = 96 * 1024**2
#: statuses of a run that a resumed batch does not run again
FINAL = ("done", "unmet", "failed")


class RayBudget:
    """A batch's total budget as seen from a run (:class:`cmbagent.models.SharedBudget`): a handle on the
    account actor, picklable into every worker."""

    def __init__(self, account: Any, usd: float | None):
        self.account = account
        self.usd = usd

    def check(self) -> None:
        import ray

        if self.usd is None:
            return
        spent = float(ray.get(self.account.spent.remote()))
        if spent >= self.usd:
            raise BudgetExceeded(
                f"the batch's total budget of ${self.usd:g} is spent (${spent:.4f}); the run stops here with a "
                "partial report (raise the batch's --budget-usd and run the batch again to go on)",
                kind="usd", limit=self.usd, spent=spent)

    def charge(self, usd: float, tokens: int) -> None:
        import ray

        ray.get(self.account.charge.remote(float(usd), int(tokens)))


class _Account:
    """The actor behind :class:`RayBudget`: what every run of the batch has spent."""

    def __init__(self, spent_usd: float = 0.0):
        self.usd = float(spent_usd)
        self.tokens = 0

    def charge(self, usd: float, tokens: int) -> None:
        self.usd += usd
        self.tokens += tokens

    def spent(self) -> float:
        return self.usd


def connect_ray(address: str | None = None, *, num_cpus: int | None = None) -> bool:
    """Join ``address`` (``auto``, ``ray://host:port``) or start a local cluster; True if this call started
    or joined it (the caller then shuts it down), False if Ray was already initialised in this process."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # nothing leaves the machine
    try:
        import ray
    except ImportError as exc:
        raise ConfigError("batches run on Ray: pip install 'cmbagent[batch]'") from exc
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
    if address:
        try:
            ray.init(address=address, **options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ConfigError(f"cannot join the Ray cluster at {address!r} ({exc}); check --ray-address") from exc
        return True
    cpus = num_cpus or os.cpu_count() or 1
    # keep warm workers: by default Ray kills idle workers past one per CPU after 1 s, and the batch's budget
    # actor holds a worker of its own, so one of two warm run workers was killed before the batch began and
    # the second run waited for a cold start (seconds of imports) or for the first run's worker
    system = {"num_workers_soft_limit": cpus + 2, "idle_worker_killing_time_threshold_ms": 60_000}
    ray.init(num_cpus=num_cpus, object_store_memory=OBJECT_STORE_BYTES, include_dashboard=False,
             _node_ip_address="127.0.0.1", _system_config=system, **options)
    return True


def run_item(batch_dir: str, item: dict[str, Any], settings: dict[str, Any], budget: Any) -> dict[str, Any]:
    """One run, in a Ray worker: start it, or resume it from its checkpoints; never raises (a failed run is
    a row of the batch, not the end of it)."""
    started = time.monotonic()
    entry = BatchItem.model_validate(item)
    config = BatchSettings.model_validate(settings)
    run_dir = Path(batch_dir) / entry.run_dir
    out: dict[str, Any] = {"index": entry.index, "pid": os.getpid()}
    with contextlib.suppress(Exception):  # where it ran: which node of which cluster
        import ray

        context = ray.get_runtime_context()
        out.update(node=context.get_node_id(), cluster=context.gcs_address)
    try:
        from cmbagent.api import RunSettings, resume, solve
        from cmbagent.sandbox import SandboxLimits, open_sandbox

        # the kernel's BLAS/OpenMP threads match the CPUs Ray reserved for the run (not the whole machine's)
        limits = SandboxLimits(threads=max(1, int(config.cpus_per_run)))

        def kernel(folder: Path) -> Any:
            return open_sandbox(folder, config.sandbox, limits=limits)

        if entry.params.get("mode") == "one-shot":  # cmbagent eval's one-model baseline: one program, same sandbox
            from cmbagent.oneshot import run_one_shot

            record = run_one_shot(item_task(entry, data_dirs=list(config.data_dirs)), run_dir=run_dir,
                                  model=entry.params.get("model", config.model), repairs=int(entry.params.get("repairs", 0)),
                                  budget_usd=config.budget_usd_per_run, timeout=config.timeout_per_run,
                                  sandbox=config.sandbox, executor=kernel, shared_budget=budget)
            out.update(status=record.get("status"), values=record.get("values") or {}, cost_usd=record.get("cost_usd"),
                       duration_s=record.get("duration_s"), error=record.get("error"), report=str(run_dir / "report.md"))
            out["worker_s"] = round(time.monotonic() - started, 4)
            return out
        if (run_dir / "run.json").is_file():
            result = resume(run_dir, executor=kernel, shared_budget=budget)
        else:
            from cmbagent.sandbox import get_backend

            get_backend(config.sandbox)  # SandboxUnavailable (saying why) before the run folder exists
            model = entry.params.get("model", config.model)
            result = solve(item_task(entry, data_dirs=list(config.data_dirs)), run_dir=run_dir, model=model,
                           budget_usd=config.budget_usd_per_run, timeout=config.timeout_per_run,
                           settings=RunSettings.model_validate({"sandbox": config.sandbox}), executor=kernel, shared_budget=budget)
        out.update(status=result.status, values=result.values, cost_usd=result.cost_usd,
                   duration_s=result.duration_s, error=result.error,
                   report=str(result.report_path) if result.report_path else None)
    except Exception as exc:  # the task itself was bad (a UserError), or a bug: this row fails, others go on
        out.update(status="failed", error=f"{type(exc).__name__}: {exc}")
    out["worker_s"] = round(time.monotonic() - started, 4)
    return out


def _pending(record: BatchRecord) -> list[ItemRecord]:
    """Items to run now: never finished ones (not started, interrupted, cancelled, stopped by the budget)."""
    todo = []
    for row in record.items:
        run_json = Path(record.path) / row.item.run_dir / "run.json"
        if row.status in FINAL and run_json.is_file():
            continue
        todo.append(row)
    return todo


def run_batch(
    items: list[BatchItem] | None,
    *,
    batch_dir: str | os.PathLike[str],
    settings: BatchSettings | None = None,
    on_update: Callable[[ItemRecord], None] | None = None,
) -> BatchRecord:
    """Run (or, with ``items=None``, resume) the batch in ``batch_dir``; returns its record, also written to
    ``batch.json`` and ``batch.md`` there."""
    import ray

    folder = Path(batch_dir).resolve()
    if items is None:
        record = read_batch(folder)
        settings = record.settings if settings is None else settings
        record.settings = settings
    else:
        if (folder / "batch.json").exists():
            raise UserError(f"{folder} holds a batch already; resume it with `cmbagent batch --resume {folder}`")
        settings = settings or BatchSettings()
        record = BatchRecord.new(folder, items, settings)
    (folder / "runs").mkdir(parents=True, exist_ok=True)
    write_batch(record)
    started_ray = connect_ray(settings.ray_address)
    try:
        return _drive(record, settings, on_update)
    finally:
        if started_ray:
            ray.shutdown()


def _drive(record: BatchRecord, settings: BatchSettings, on_update: Callable[[ItemRecord], None] | None) -> BatchRecord:
    import ray

    from cmbagent.control import CANCEL_FILE, clear_cancel

    folder = Path(record.path)
    clear_cancel(folder)
    spent_before = sum(row.cost_usd or 0.0 for row in record.items)
    account: Any = ray.remote(num_cpus=0)(_Account).remote(spent_before)
    budget = RayBudget(account, settings.budget_usd)
    options: dict[str, Any] = {"num_cpus": settings.cpus_per_run, "max_retries": 0}
    if settings.memory_per_run:
        options["memory"] = settings.memory_per_run
    remote = ray.remote(run_item).options(**options)
    limit = settings.max_concurrent or max(1, int(ray.cluster_resources().get("CPU", 1) // settings.cpus_per_run))
    queue = _pending(record)
    rows = {row.item.index: row for row in record.items}
    flying: dict[Any, tuple[ItemRecord, float]] = {}
    settings_json = settings.model_dump(mode="json")

    def stop_starting() -> str | None:
        if (folder / CANCEL_FILE).exists():
            return "cancelled"
        if settings.budget_usd is not None and float(ray.get(account.spent.remote())) >= settings.budget_usd:
            return "budget_exhausted"
        return None

    while queue or flying:
        why = stop_starting() if queue else None
        if why is not None:
            for row in queue:  # never started: they keep no folder and start when the batch is run again
                row.status, row.error = why, f"not started: the batch was {why.replace('_', ' ')}"
                if on_update:
                    on_update(row)
            queue = []
        while queue and len(flying) < limit:
            row = queue.pop(0)
            row.status, row.error = "running", None
            ref = remote.remote(str(folder), row.item.model_dump(mode="json"), settings_json, budget)
            flying[ref] = (row, time.monotonic())
            write_batch(record)
        if not flying:
            break
        done, _ = ray.wait(list(flying), num_returns=1, timeout=1.0)
        for ref in done:
            row, submitted = flying.pop(ref)
            try:
                out = ray.get(ref)
            except Exception as exc:  # the worker died (killed, out of memory): this run fails, others go on
                out = {"status": "failed", "error": f"the Ray worker running it died: {type(exc).__name__}: "
                                                    f"{str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"}
            row.apply(out, latency_s=time.monotonic() - submitted)
            rows[row.item.index] = row
            write_batch(record)
            if on_update:
                on_update(row)
    with contextlib.suppress(Exception):
        ray.kill(account)
    record.finished = time.time()
    write_batch(record)
    return record

