"""Score a task reader against the public prose set (``tests/understanding``): which method, which arguments,
and whether it ran on a guess.

For each task the reader sees what a run would see — the text and the input files (profiled) — and says one of:
*run* (a method and every argument it needs, nothing left to guess), *ask* (a question back), or *none* (no
method fits).  A task is

* **method-right** when the reader's top candidate is the expected method (for ``none`` tasks: it says none;
  for ``ask`` tasks: it does not run);
* **arguments-right** when it runs the expected method with every expected argument equal (files by name,
  column lists as sets, numbers to 1e-9) and no ``may_set`` argument set to another value; an expected argument
  the reading leaves out counts as equal when the expectation is the method's default (the run is the same:
  "CAMB by itself, skip the comparison" leaves ``cross_check`` at its default ``"none"``);
* **silently wrong** when it would run and the method or an argument is wrong, or it runs a task that needs
  none or must be asked — the one outcome the reader must never produce.

:func:`score` reads with the offline reader (:func:`cmbagent.agents.read_task`); ``bench/understanding.py`` adds
end-to-end runs (answers within tolerance) and a language model's reading.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SET = Path(__file__).resolve().parents[1] / "understanding"


@dataclass(frozen=True)
class ProseTask:
    name: str
    path: Path
    data: tuple[str, ...]
    via: str
    expect: dict[str, Any]

    @property
    def kind(self) -> str:
        if self.expect.get("ask"):
            return "ask"
        return "none" if self.expect.get("method") == "none" else "method"

    @property
    def method(self) -> str | None:
        return self.expect.get("method") if self.kind == "method" else None


def load_set(folder: Path = SET) -> list[ProseTask]:
    manifest = yaml.safe_load((folder / "tasks.yaml").read_text(encoding="utf-8"))
    return [ProseTask(name=t["name"], path=folder / t["file"], data=tuple(t.get("data") or ()),
                      via=t.get("via", "path"), expect=dict(t["expect"])) for t in manifest["tasks"]]


def parsed(task: ProseTask, folder: Path = SET) -> Any:
    """The task as ``cmbagent solve`` parses it: its text read from the set's folder (so ``data/x.csv`` resolves),
    files passed with ``--data`` where the manifest says so."""
    from cmbagent.task import parse_task

    extra = [str(folder / d) for d in task.data] if task.via == "--data" else None
    return parse_task(task.path.read_text(encoding="utf-8"), base=folder, where=task.name, extra_files=extra)


@dataclass
class Verdict:
    name: str
    kind: str
    expected: str | None
    said: str  # run | ask | none
    method: str | None  # the reader's top candidate (or None when it says none)
    method_right: bool
    arguments_right: bool | None  # None: not a method task, or the method was wrong
    silent_wrong: bool
    wrong_arguments: dict[str, Any] = field(default_factory=dict)
    questions: list[str] = field(default_factory=list)
    confidence: float = 0.0


#: where a run writes, not what it computes: a reading may set them however it likes
_UNSCORED = frozenset({"output_dir", "cache_dir"})


def _defaults(method: str | None) -> dict[str, Any]:
    """The defaults of ``method``'s arguments that have one (``None`` counts as none)."""
    if method is None:
        return {}
    from cmbagent.tools.methods import get_method

    return {name: schema["default"] for name, schema in get_method(method).arguments.items()
            if schema.get("default") is not None}


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, str) and isinstance(actual, str):
        if "/" in expected or "/" in actual:
            return expected.rsplit("/", 1)[-1] == actual.rsplit("/", 1)[-1]
        return expected == actual
    if isinstance(expected, list) and isinstance(actual, list):
        if all(isinstance(x, (str, int)) for x in expected) and all(isinstance(x, (str, int)) for x in actual):
            return sorted(map(str, expected)) == sorted(map(str, actual))
        return len(expected) == len(actual) and all(_same(e, a) for e, a in zip(expected, actual, strict=True))
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)) and not isinstance(expected, bool):
        return math.isclose(float(expected), float(actual), rel_tol=1e-9, abs_tol=1e-12)
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        return set(expected) == set(actual) and all(_same(expected[k], actual[k]) for k in expected)
    return bool(expected == actual)


def judge(task: ProseTask, *, said: str, method: str | None, arguments: Mapping[str, Any],
          questions: list[str] | None = None, confidence: float = 0.0) -> Verdict:
    """The verdict on one reading (``said``: run, ask or none; ``method``: the top candidate)."""
    expected = task.method
    if task.kind == "none":
        right = said == "none"
        return Verdict(task.name, task.kind, None, said, method, right, None, said == "run", questions=questions or [],
                       confidence=confidence)
    if task.kind == "ask":
        right = said != "run"
        return Verdict(task.name, task.kind, None, said, method, right, None, said == "run",
                       questions=questions or [], confidence=confidence)
    method_right = method == expected
    wrong: dict[str, Any] = {}
    if method_right:
        defaults = _defaults(expected)
        for name, value in (task.expect.get("arguments") or {}).items():
            if name not in arguments and name in defaults and _same(value, defaults[name]):
                continue  # left at the method's default, which is what the text asked
            if name not in arguments or not _same(value, arguments[name]):
                wrong[name] = arguments.get(name, "(missing)")
        for name, value in (task.expect.get("may_set") or {}).items():
            if name in arguments and not _same(value, arguments[name]):
                wrong[name] = arguments[name]
        # a setting the text does not settle, read anyway and away from the method's default ("(1,000 rows)" as a
        # cap on some rows): the run would differ from what was asked
        listed = {*(task.expect.get("arguments") or {}), *(task.expect.get("may_set") or {}), *_UNSCORED}
        for name, value in arguments.items():
            if name not in listed and not (name in defaults and _same(defaults[name], value)):
                wrong[name] = value
    arguments_right = (not wrong and said == "run") if method_right else None
    silent = said == "run" and (not method_right or bool(wrong))
    return Verdict(task.name, task.kind, expected, said, method, method_right, arguments_right, silent, wrong,
                   questions or [], confidence)


def read_offline(task: ProseTask, folder: Path = SET) -> Verdict:
    """The offline reader's verdict on ``task`` (what pre-flight would do)."""
    from cmbagent.agents import read_task
    from cmbagent.inputs import profile_inputs

    spec = parsed(task, folder)
    reading = read_task(text=spec.text, title=spec.title, data_files=spec.data_files,
                        profiles=profile_inputs(spec.files))
    status = reading.choice.status
    top = reading.choice.candidates[0].method if reading.choice.candidates and status != "none" else None
    understood = reading.understanding
    said = "none" if status == "none" else "ask" if status == "ask" or not reading.clear else "run"
    return judge(task, said=said, method=reading.method or top,
                 arguments=understood.arguments if understood else {},
                 questions=[*(understood.missing if understood else []), *(understood.questions if understood else [])],
                 confidence=reading.choice.confidence)


@dataclass
class Score:
    verdicts: list[Verdict]

    def _of(self, kind: str | None = None) -> list[Verdict]:
        return [v for v in self.verdicts if kind is None or v.kind == kind]

    @property
    def method_accuracy(self) -> float:
        return sum(v.method_right for v in self.verdicts) / len(self.verdicts)

    @property
    def argument_accuracy(self) -> float:
        """Among method tasks whose method was right: all expected arguments right, and the task ran."""
        judged = [v for v in self._of("method") if v.method_right]
        return sum(bool(v.arguments_right) for v in judged) / max(1, len(judged))

    @property
    def silent_wrong(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.silent_wrong]

    @property
    def asked(self) -> list[Verdict]:
        return [v for v in self.verdicts if v.said == "ask"]

    def table(self) -> str:
        lines = ["| task | kind | expected | said | top candidate | method | arguments | wrong |",
                 "|---|---|---|---|---|---|---|---|"]
        for v in self.verdicts:
            wrong = ", ".join(f"{k}={str(a)[:40]}" for k, a in v.wrong_arguments.items())
            lines.append(f"| {v.name} | {v.kind} | {v.expected or '-'} | {v.said} | {v.method or '-'} | "
                         f"{'ok' if v.method_right else 'WRONG'} | "
                         f"{'-' if v.arguments_right is None else 'ok' if v.arguments_right else 'no'} | {wrong} |")
        return "\n".join(lines)

    def summary(self) -> dict[str, Any]:
        return {"tasks": len(self.verdicts), "method_accuracy": round(self.method_accuracy, 4),
                "argument_accuracy": round(self.argument_accuracy, 4), "silent_wrong": len(self.silent_wrong),
                "asked": len(self.asked), "ran": sum(1 for v in self.verdicts if v.said == "run"),
                "said_none": sum(1 for v in self.verdicts if v.said == "none")}


def score(reader: Callable[[ProseTask], Verdict] = read_offline, tasks: list[ProseTask] | None = None) -> Score:
    """Every task's verdict. The reader weighs every method in the catalogue, so a method a test registered and
    left behind would change the measure; it must be the product's catalogue alone."""
    from cmbagent.tools.methods import iter_methods

    foreign = [spec.name for spec in iter_methods()
               if not spec.function.__module__.startswith("cmbagent.tools.methods.")]
    assert not foreign, f"methods registered by tests are still in the catalogue: {foreign}; unregister them"
    return Score([reader(t) for t in (tasks if tasks is not None else load_set())])
