"""A batch folder's record: ``batch.json`` (what a resume reads) and ``batch.md`` (the table a person reads).

::

    <batch>/batch.json   settings, one row per run: status, key numbers, cost, time, error, run folder
    <batch>/batch.md     the same as a markdown table, with totals
    <batch>/runs/NN-<name>/   each run's own, normal run folder
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from cmbagent.batch._items import BatchItem
from cmbagent.batch._settings import BatchSettings
from cmbagent.exceptions import UserError

__all__ = ["BatchRecord", "ItemRecord", "read_batch", "render_batch", "write_batch"]


class ItemRecord(BaseModel):
    """One row of the batch: the item and what its run came to."""

    item: BatchItem
    status: str = "pending"
    values: dict[str, Any] = Field(default_factory=dict)
    cost_usd: float | None = None
    duration_s: float | None = None
    latency_s: float | None = None  # submitted -> result, as the driver saw it (includes Ray's share)
    worker_s: float | None = None  # time inside the Ray worker
    worker_pid: int | None = None
    node: str | None = None  # the Ray node the run ran on (its id), and the cluster (GCS address) it belongs to
    cluster: str | None = None
    error: str | None = None
    attempts: int = 0

    def apply(self, out: dict[str, Any], *, latency_s: float) -> None:
        self.status = str(out.get("status") or "failed")
        self.values = dict(out.get("values") or {})
        self.cost_usd = out.get("cost_usd")
        self.duration_s = out.get("duration_s")
        self.worker_s = out.get("worker_s")
        self.worker_pid = out.get("pid")
        self.node, self.cluster = out.get("node"), out.get("cluster")
        self.latency_s = round(latency_s, 4)
        self.error = out.get("error")
        self.attempts += 1


class BatchRecord(BaseModel):
    """``batch.json``."""

    batch_id: str
    path: str
    created: float
    finished: float | None = None
    settings: Any = None  # a BatchSettings (typed when read back)
    items: list[ItemRecord] = Field(default_factory=list)

    @classmethod
    def new(cls, folder: Path, items: list[BatchItem], settings: Any) -> BatchRecord:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        return cls(batch_id=f"batch-{stamp}-{secrets.token_hex(2)}", path=str(folder), created=time.time(),
                   settings=settings, items=[ItemRecord(item=item) for item in items])

    def totals(self) -> dict[str, Any]:
        statuses: dict[str, int] = {}
        for row in self.items:
            statuses[row.status] = statuses.get(row.status, 0) + 1
        costs = [row.cost_usd for row in self.items if row.cost_usd is not None]
        return {"runs": len(self.items), "statuses": statuses, "cost_usd": round(sum(costs), 6) if costs else None,
                "run_time_s": round(sum(row.duration_s or 0.0 for row in self.items), 3),
                "wall_s": round((self.finished or time.time()) - self.created, 3)}


def read_batch(folder: str | Path) -> BatchRecord:
    """The record of the batch in ``folder`` (a clear error when it is not a batch folder)."""
    path = Path(folder).resolve() / "batch.json"
    if not path.is_file():
        raise UserError(f"{path.parent} is not a batch folder (no batch.json); start a batch with `cmbagent batch`")
    try:
        record = BatchRecord.model_validate(json.loads(path.read_text(encoding="utf-8")))
        record.settings = BatchSettings.model_validate(record.settings or {})
    except (ValueError, ValidationError) as exc:
        raise UserError(f"{path} cannot be read ({str(exc).splitlines()[0]}); it was edited or damaged") from None
    record.path = str(path.parent)
    return record


def write_batch(record: BatchRecord) -> None:
    """Write ``batch.json`` and ``batch.md`` atomically (a kill -9 leaves the previous whole version)."""
    from cmbagent.run import write_json, write_text

    folder = Path(record.path)
    data = record.model_dump(mode="json")
    data["totals"] = record.totals()
    write_json(folder / "batch.json", data)
    write_text(folder / "batch.md", render_batch(record))


def _number(value: Any) -> str:
    if isinstance(value, dict) and "mean" in value:
        std = value.get("std")
        return f"{value['mean']:.4g}" + (f" ± {std:.2g}" if isinstance(std, int | float) else "")
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _key_numbers(values: dict[str, Any], limit: int = 3) -> str:
    shown = [(k, v) for k, v in values.items() if (isinstance(v, int | float) and not isinstance(v, bool))
             or (isinstance(v, dict) and "mean" in v)]
    return "; ".join(f"{k} = {_number(v)}" for k, v in shown[:limit])


def render_batch(record: BatchRecord) -> str:
    """``batch.md``: one row per run (status, key numbers, cost, time) and the totals."""
    totals = record.totals()
    lines = [f"# Batch {record.batch_id}", "",
             f"{totals['runs']} runs: " + ", ".join(f"{n} {s}" for s, n in sorted(totals["statuses"].items())),
             "", "| # | run | parameters | status | key numbers | cost | time |", "|---|---|---|---|---|---|---|"]
    for row in record.items:
        task = Path(row.item.task)
        params = ", ".join(f"{k}={v}" for k, v in row.item.params.items()) or f"{task.parent.name}/{task.name}"
        cost = "-" if row.cost_usd is None else f"${row.cost_usd:.4f}"
        took = "-" if row.duration_s is None else f"{row.duration_s:.1f} s"
        status = row.status + (f" ({row.error[:80]})" if row.error and row.status != "done" else "")
        lines.append(f"| {row.item.index} | [{row.item.run_dir}]({row.item.run_dir}/report.md) | {params} | "
                     f"{status.replace('|', '/')} | {_key_numbers(row.values)} | {cost} | {took} |")
    cost = "-" if totals["cost_usd"] is None else f"${totals['cost_usd']:.4f}"
    lines += ["", f"Total cost {cost}; run time {totals['run_time_s']:.1f} s; wall time {totals['wall_s']:.1f} s.", ""]
    return "\n".join(lines)
