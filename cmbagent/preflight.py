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

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cmbagent.exceptions import TaskError, TaskUnclear
from cmbagent.task import Task

__all__ = ["Preflight", "preflight"]


@dataclass
class Preflight:
    """What pre-flight established: the method the task maps to, and notes for the person."""

    method: str | None
    notes: list[str] = field(default_factory=list)
    reading: Any = None  # the TaskReading (method choice and argument mapping), when the task was read
    profiles: list[Any] = field(default_factory=list)  # what each input file holds, as the reading saw them
    read: tuple[Any, ...] = ()  # what was read: text, method, arguments and input names (see ``reads``)

    def reads(self, task: Any) -> Any:
        """This reading, when it was made of ``task`` (a :class:`Task` or the run's ``TaskSpec``) as it is now,
        else None: the run's graph then uses it instead of reading the task again."""
        if self.reading is None or self.read != _what_is_read(task):
            return None
        return self.reading


def _what_is_read(task: Any) -> tuple[Any, ...]:
    return (task.text, task.title, task.method, dict(task.arguments), list(task.data_files))


def _display_names(task: Task) -> dict[str, str]:
    """Run-relative input names (``data/x.csv``) as the person wrote them: relative to the task file's folder
    when it lies below it, else the file's own path."""
    base = task.source.parent if task.source is not None else Path.cwd()
    shown = {}
    for rel, source in task.files.items():
        try:
            shown[rel] = os.path.relpath(source, base) if source.is_relative_to(base.resolve()) else str(source)
        except ValueError:
            shown[rel] = str(source)
    return shown


def preflight(task: Task, *, offline: bool) -> Preflight:
    """Check ``task`` before anything runs; ``offline``: only the offline backend will answer (so the task's
    text and data must determine the method and every required argument, or the person is asked)."""
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs
    from cmbagent.models import how_to_configure
    from cmbagent.tools.methods import argument_problems

    problems = [p.message for p in argument_problems(task.method, task.arguments, require=False)] \
        if task.method else []
    if problems:
        _refuse(task, problems)
    if not offline and task.method is None:
        return Preflight(method=None)
    profiles = profile_inputs(task.files)
    reading = read_task(text=task.text, title=task.title, method=task.method, arguments=task.arguments,
                        data_files=task.data_files, profiles=profiles, display=_display_names(task))
    read = _what_is_read(task)
    if not offline:
        return Preflight(method=task.method, notes=list(reading.choice.notes), reading=reading, profiles=profiles,
                         read=read)
    if reading.choice.status in {"ask", "none"}:
        raise TaskUnclear(reading.question(offline=True) + (how_to_configure() if reading.choice.status == "none"
                                                           else ""),
                          choices=reading.choices())
    understood = reading.understanding
    method = reading.method
    if understood is None or method is None:
        raise TaskUnclear(reading.question(offline=True), choices=reading.choices())
    given = set(task.arguments)
    problems += [p.message for p in argument_problems(method, understood.arguments, require=False)
                 if p.argument not in given]
    if problems:
        _refuse(task, problems)
    if understood.missing or understood.questions or reading.unread:
        raise TaskUnclear(reading.question(offline=True), choices=reading.choices(),
                          questions=[*understood.missing, *understood.questions, *reading.unread])
    return Preflight(method=method, notes=[*reading.choice.notes, *understood.notes], reading=reading,
                     profiles=profiles, read=read)


def _refuse(task: Task, problems: list[str]) -> None:
    where = f" ({task.source})" if task.source else ""
    raise TaskError(f"the task{where} cannot run as written; nothing was started:\n"
                    + "\n".join(f"  - {p}" for p in problems)
                    + "\nfix the front matter (the `arguments:` mapping) and run it again")
