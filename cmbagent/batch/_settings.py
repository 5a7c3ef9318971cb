"""How the runs of a batch are made and scheduled: a leaf module, so that the scheduler
(:mod:`cmbagent.batch._ray`) and the batch record (:mod:`cmbagent.batch._summary`) both import it downward."""

from __future__ import annotations

from pydantic import BaseModel, Field

__all__ = ["BatchSettings"]


class BatchSettings(BaseModel):
    """How every run of a batch is made and scheduled (stored in ``batch.json``; no secrets)."""

    model: str | None = None
    sandbox: str = "auto"
    budget_usd: float | None = Field(default=None, gt=0)
    budget_usd_per_run: float | None = Field(default=None, gt=0)
    timeout_per_run: float | None = Field(default=None, gt=0)
    max_concurrent: int | None = Field(default=None, ge=1)
    cpus_per_run: float = Field(default=1.0, gt=0)
    memory_per_run: int | None = Field(default=None, gt=0)  # bytes Ray reserves for each run
    ray_address: str | None = None
    data_dirs: list[str] = Field(default_factory=list)
