"""Batches of runs on Ray: many task files, or one task over a parameter grid, each a normal run folder.

::

    from cmbagent.batch import BatchSettings, collect_items, load_sweep, run_batch
    record = run_batch(load_sweep("sweep.yaml"), batch_dir="workspaces/batch-1",
                       settings=BatchSettings(budget_usd=5, max_concurrent=4))
    record = run_batch(None, batch_dir="workspaces/batch-1")      # resume: finished runs are not redone

``cmbagent batch`` is the command line of the same (see :mod:`cmbagent.batch._ray` for scheduling,
budgets, failures and resume, :mod:`cmbagent.batch._items` for sweep files).
"""

from __future__ import annotations

from cmbagent.batch._items import BatchItem, collect_items, item_task, load_sweep
from cmbagent.batch._ray import RayBudget, connect_ray, run_batch
from cmbagent.batch._settings import BatchSettings
from cmbagent.batch._summary import BatchRecord, ItemRecord, read_batch, render_batch

__all__ = [
    "BatchItem",
    "BatchRecord",
    "BatchSettings",
    "ItemRecord",
    "RayBudget",
    "collect_items",
    "connect_ray",
    "item_task",
    "load_sweep",
    "read_batch",
    "render_batch",
    "run_batch",
]
