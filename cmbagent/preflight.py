"""Pre-flight: everything that can be checked about a task before a run folder exists.

A task whose front matter misspells an argument (``n_walker``), gives it the wrong type (``n_walkers: many``)
or — with only the offline backend — leaves a required argument to prose it cannot read used to fail after
the run had started, or worse, ran with the argument silently dropped.  :func:`preflight` checks the method's
arguments against its schema (unknown names with the closest valid one, types, and for the offline backend
the required arguments after reading the text) and raises one :class:`~cmbagent.exceptions.TaskError` that
lists every problem with its fix (exit 2; nothing is created).  What the offline backend could read but not
decide comes back as notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cmbagent.exceptions import TaskError
from cmbagent.task import Task

__all__ = ["Preflight", "preflight"]


@dataclass
class Preflight:
    """What pre-flight established: the method the task maps to, and notes for the person."""

    method: str | None
    notes: list[str] = field(default_factory=list)


def preflight(task: Task, *, offline: bool) -> Preflight:
    """Check ``task`` before anything runs; ``offline``: only the offline backend will answer (so the task's
    text must give every required argument in a form it can read)."""
    from cmbagent.agents import match_method, understand_task
    from cmbagent.models import how_to_configure
    from cmbagent.tools.methods import argument_problems

    method = task.method or (match_method(f"{task.title}\n{task.text}") if offline else None)
    if method is None:
        if offline:
            raise TaskError(
                "the offline backend (used because no model is configured) could not map this task to a method "
                "tool; name one in the front matter (`method: family.name`, see `cmbagent methods list`), or "
                + how_to_configure())
        return Preflight(method=None)
    problems = [p.message for p in argument_problems(method, task.arguments, require=False)]
    notes: list[str] = []
    if offline and not problems:
        from cmbagent.inputs import describe_inputs

        columns = {i.name: list(i.columns) for i in describe_inputs(task.files) if i.columns}
        understood = understand_task(method, task.text, task.arguments, task.data_files, columns=columns)
        given = set(task.arguments)
        problems += [p.message for p in argument_problems(method, understood.arguments, require=False)
                     if p.argument not in given]
        problems += understood.missing
        notes = understood.notes
    if problems:
        where = f" ({task.source})" if task.source else ""
        raise TaskError(f"the task{where} cannot run as written; nothing was started:\n"
                        + "\n".join(f"  - {p}" for p in problems)
                        + "\nfix the front matter (the `arguments:` mapping) and run it again")
    return Preflight(method=method, notes=notes)
