"""How findings enter the run: the one function every node (and any run-level check) records them with.

A finding is recorded once (by :attr:`cmbagent.state.Finding.key`, so a node re-run after a kill adds nothing
twice), emitted as a ``finding`` event, and kept in the checkpointed state -- on its step's record when it
names a step (``findings.json`` is rewritten), in ``RunState.findings`` when it is about the run.  From there
the run session writes them to ``run.json`` and the report lists them; nothing else needs to know.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cmbagent.planner._runtime import Runtime
from cmbagent.planner._state import RunState
from cmbagent.state import Finding

__all__ = ["record_findings"]


def record_findings(rt: Runtime, state: RunState, findings: Iterable[Finding]) -> dict[str, Any]:
    """Record ``findings`` and return the state update to pass to ``go(...)`` (``findings`` and/or ``steps``).

    ::

        return go("report", **record_findings(rt, state, [finding("task.requirement_unmet", "...")]))
    """
    known = {f.key for f in state.all_findings()}
    run_level = list(state.findings)
    steps = dict(state.steps)
    touched: set[str] = set()
    for item in findings:
        if item.key in known:
            continue
        known.add(item.key)
        if item.step_id is not None and item.step_id in steps:
            record = steps[item.step_id]
            steps[item.step_id] = record.model_copy(update={"findings": [*record.findings, item]})
            touched.add(item.step_id)
        else:
            run_level.append(item.model_copy(update={"step_id": None}) if item.step_id else item)
        rt.events.emit("finding", **item.model_dump(mode="json"))
    update: dict[str, Any] = {}
    if run_level != state.findings:
        update["findings"] = run_level
    if touched:
        for sid in touched:
            record = steps[sid]
            if record.dir is not None:
                rt.folder.files_of(record).write_findings(record.findings)
        update["steps"] = steps
    return update
