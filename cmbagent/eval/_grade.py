"""Grading a run against its task's grader, the same way for both modes.

What a run produced is read from its folder into a :class:`RunOutcome`: its status, the values it
reported (a Planning & Control run: every done step's values, later steps first; a one-shot run: the
result its program printed), its answer as text (the report without the task's own words and the checklist
that quotes them; a one-shot program's explanation and printed output, never its traceback), the figures
the sandbox's figure probe recorded, its findings, and what it cost.  Each check then passes, fails or does
not apply (findings in a mode without audits, a rubric when rubrics are off); the verdict is ``pass`` when
no check fails.  With the ``offline`` backend a task that needs a language model (code-only and
"cannot be done" tasks, or one the backend refused to map) is ``needs_model`` rather than ``fail``.
"""

from __future__ import annotations

import fnmatch
import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from cmbagent.eval._suite import Check, SuiteTask

__all__ = ["CheckResult", "Grade", "RunOutcome", "find_value", "flatten_values", "grade_run", "read_outcome"]

Verdict = Literal["pass", "fail", "needs_model", "not_run"]
#: what the offline backend says when it cannot map a task to a method (it needs a language model)
#: (or asked instead of guessing: TaskUnclear names the front matter that would pin the task)
_OFFLINE_REFUSAL = re.compile(r"TaskUnclear|offline backend|configure a (?:language )?model|needs? a (?:language )?model",
                              re.I)
_STD_KEYS = ("std", "sd", "err", "error", "sigma", "se", "stderr", "unc", "uncertainty")
_VALUE_SUFFIXES = ("", "mean", "value", "estimate", "hat", "median")


class RunOutcome(BaseModel):
    """What one run produced, as the graders read it."""

    mode: str
    run_dir: str | None = None
    status: str
    offline: bool = False
    needs_model: str | None = None  # why the run could not even try (the offline backend writes no program)
    stopped_by_eval: bool = False  # the eval's total budget kept it from starting or stopped it in flight
    values: dict[str, Any] = Field(default_factory=dict)
    text: str = ""
    task_text: str = ""
    figures: list[dict[str, Any]] = Field(default_factory=list)
    findings: list[str] | None = None  # None: this mode runs no audits
    error: str | None = None
    cost_usd: float | None = None
    cost_known: bool = True
    tokens: int = 0
    calls: int = 0
    duration_s: float | None = None


class CheckResult(BaseModel):
    check: str
    result: Literal["pass", "fail", "n/a"]
    detail: str


class Grade(BaseModel):
    task: str
    kind: str
    mode: str
    repeat: int = 1
    run_dir: str | None = None
    status: str
    verdict: Verdict
    why: str
    checks: list[CheckResult] = Field(default_factory=list)
    cost_usd: float | None = None
    cost_known: bool = True
    tokens: int = 0
    calls: int = 0
    duration_s: float | None = None
    #: the run asked a question instead of answering (TaskUnclear), whatever its verdict; counted apart in
    #: eval.md so that a backend that asks is seen asking, not only as "needs a model"
    asked: bool = False


# -- values ----------------------------------------------------------------------------------------------
def _norm(name: str) -> str:
    return re.sub(r"[^0-9a-zα-ω]+", "", name.lower())


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def flatten_values(values: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, Any, float | None]]:
    """``(path, value, std)`` for every leaf, and for every ``{"mean": …, "std": …}`` node (then its mean)."""
    for key, value in values.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            for centre in ("mean", "value", "estimate"):
                if centre in value and not isinstance(value[centre], dict):
                    std = next((_number(value[k]) for k in ("std", "se", "sd", "err", "error", "sigma")
                                if _number(value.get(k)) is not None), None)
                    yield path, value[centre], std
                    break
            yield from flatten_values(value, path + ".")
        elif isinstance(value, list) and value and all(isinstance(v, int | float) for v in value) and len(value) == 2:
            yield path, value, None  # an interval
        else:
            yield path, value, None


def find_value(values: dict[str, Any], names: list[str]) -> tuple[str, Any, float | None] | None:
    """The value a run reported under one of ``names`` (case, separators and ``_mean``-like suffixes ignored;
    a full path such as ``Omega_m.lower_95`` before a last component), with its standard deviation when the
    run gave one beside it (``x_std``, ``x_err``, ``sigma_x``, …)."""
    entries = list(flatten_values(values))
    wanted = [_norm(n) for n in names if n]
    by_path = {_norm(path): (path, value, std) for path, value, std in entries}

    def pick(key: Callable[[str], str]) -> tuple[str, Any, float | None] | None:
        for name in wanted:
            for suffix in _VALUE_SUFFIXES:
                hits = [e for e in entries if key(e[0]) == name + suffix]
                if hits:
                    return min(hits, key=lambda e: len(e[0]))
        return None

    found = pick(_norm) or pick(lambda p: _norm(p.rsplit(".", 1)[-1]))
    if found is None:
        return None
    path, value, std = found
    if std is None:
        base = _norm(path)
        for stem in {base, *(base[: -len(s)] for s in _VALUE_SUFFIXES if s and base.endswith(s))}:
            for k in _STD_KEYS:
                hit = by_path.get(stem + k) or by_path.get(k + stem)
                if hit is not None and _number(hit[1]) is not None:
                    std = _number(hit[1])
                    break
            if std is not None:
                break
    return path, value, std


# -- reading a run folder --------------------------------------------------------------------------------
def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _answer_text(report: str) -> str:
    """The report without its sections that restate the task (the task text, the checklist quoting it)."""
    kept, skipping = [], False
    for line in report.splitlines():
        if line.startswith("## "):
            skipping = line[3:].strip().lower().startswith("task")
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def _offline(config: dict[str, Any]) -> bool:
    specs = [config.get("model"), *dict(config.get("agent_models") or {}).values(),
             *dict(config.get("tiers") or {}).values()]
    return all(spec in (None, "offline") for spec in specs) and config.get("model") == "offline"


def read_outcome(run_dir: str | Path | None, *, mode: str, status: str, error: str | None = None,
                 task_text: str = "", offline: bool = False) -> RunOutcome:
    """The outcome of the run in ``run_dir`` (or of a run that never made a folder: ``run_dir`` None, and
    ``offline`` says whether it was meant for the offline backend)."""
    from cmbagent.events import read_events
    from cmbagent.sandbox import FIGURE_LOG

    if run_dir is None or not (Path(run_dir) / "run.json").is_file():
        return RunOutcome(mode=mode, run_dir=str(run_dir) if run_dir else None, status=status, offline=offline,
                          text=error or "", error=error, task_text=task_text)
    folder = Path(run_dir)
    run = _read_json(folder / "run.json") or {}
    config = run.get("config") or {}
    totals = (run.get("costs") or {}).get("total") or {}
    values: dict[str, Any] = {}
    text = ""
    findings: list[str] | None = None
    if mode == "one-shot":
        values = dict(run.get("values") or {})
        text = "\n".join(filter(None, [run.get("explanation") or "", run.get("stdout") or ""]))
    else:
        for event in read_events(folder / "events.jsonl"):
            if event.type == "step_finished" and event.data.get("status") == "done":
                values.update(event.data.get("values") or {})
        report = folder / "report.md"
        text = _answer_text(report.read_text(encoding="utf-8", errors="replace")) if report.is_file() else ""
        findings = [str(f.get("code")) for f in run.get("findings") or [] if isinstance(f, dict)]
    error = run.get("error") or error
    figures = []
    log = folder / FIGURE_LOG
    if log.is_file() and not log.is_symlink():
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                figures.append(record)
    tokens = int(totals.get("input_tokens") or 0) + int(totals.get("output_tokens") or 0)
    return RunOutcome(
        mode=mode, run_dir=str(folder), status=str(run.get("status") or status), offline=_offline(config),
        needs_model=run.get("needs_model"), values=values, text="\n".join(filter(None, [text, error or ""])),
        task_text=task_text or str((run.get("task") or {}).get("text") or ""), figures=figures, findings=findings,
        error=error, cost_usd=run.get("cost_usd"), cost_known=bool(totals.get("cost_known", True)), tokens=tokens,
        calls=int(totals.get("calls") or 0), duration_s=run.get("duration_s"))


# -- the checks ------------------------------------------------------------------------------------------
_QUOTED = re.compile(r"[“\"]([^“”\"]{12,}?)(?:…|\.\.\.)?[”\"]")


def _sentences(text: str, task_text: str) -> list[str]:
    task = " ".join(task_text.lower().split())

    def unquote(match: re.Match[str]) -> str:  # a quotation of the task is the task's words, not the run's
        return " " if " ".join(match.group(1).lower().split()) in task else match.group(0)

    text = _QUOTED.sub(unquote, text)
    pieces = re.split(r"(?<=[.!?;])\s+|\n+|\s+—\s+|\s*\|\s*", text)
    out = []
    for piece in pieces:
        sentence = " ".join(piece.split())
        if sentence and not (len(sentence) > 3 and sentence.lower() in task):
            out.append(sentence)
    return out


def _value_check(check: Check, outcome: RunOutcome) -> tuple[str, str]:
    found = find_value(outcome.values, check.names)
    if found is None:
        if check.optional:
            return "n/a", f"not reported (optional): {check.value}"
        return "fail", f"no value named {check.value} (or {', '.join(check.aliases) or 'an alias'}) in the run's results"
    path, value, std = found
    expected = check.expected
    if isinstance(expected, str):
        ok = _norm(expected) in _norm(str(value))
        return ("pass" if ok else "fail"), f"{path} = {value!r}; expected {expected!r}"
    if isinstance(expected, bool):
        ok = bool(value) == expected
        return ("pass" if ok else "fail"), f"{path} = {value!r}; expected {expected}"
    number = _number(value)
    if number is None or not math.isfinite(number):
        return "fail", f"{path} = {value!r} is not a finite number"
    tol = check.tolerance
    off = abs(number - float(expected))  # type: ignore[arg-type]
    shown = f"{path} = {number:.6g}" + (f" ± {std:.3g}" if std is not None else "")
    if tol is None:
        ok = off == 0
    elif tol.abs is not None:
        ok = off <= tol.abs
    elif tol.rel is not None:
        ok = off <= tol.rel * abs(float(expected))  # type: ignore[arg-type]
    else:
        if std is None or not std > 0 or not math.isfinite(std):
            return "fail", f"{shown}: no uncertainty reported, so it cannot be compared in σ"
        ok = off <= (tol.sigma or 0) * std
    verdict = f"{shown}; expected {float(expected):.6g} {tol.describe() if tol else 'exactly'}"  # type: ignore[arg-type]
    if not ok:
        return "fail", verdict + f" (off by {off:.3g})"
    spec = check.std
    if spec is not None:
        if std is None:
            return "fail", verdict + "; no uncertainty reported"
        if spec.max is not None and std > spec.max:
            return "fail", verdict + f"; its uncertainty {std:.3g} is above {spec.max:g}"
        if spec.expected is not None and spec.rel is not None and abs(std - spec.expected) > spec.rel * spec.expected:
            return "fail", verdict + f"; its uncertainty {std:.3g} is not within {spec.rel:.0%} of {spec.expected:.3g}"
    return "pass", verdict


def _no_value_check(check: Check, outcome: RunOutcome) -> tuple[str, str]:
    found = find_value(outcome.values, check.no_value)
    if found is not None and found[1] is not None:
        return "fail", f"reported {found[0]} = {found[1]!r}, a number for something that cannot be computed as asked"
    return "pass", f"no value under {', '.join(check.no_value)}"


def _without_names(text: str, names: list[str]) -> str:
    """``text`` without any word that holds the task's file or run folder name: "i03-no-high-redshift" says
    nothing about redshifts (and a task file's path is not the run's statement)."""
    for name in filter(None, names):
        text = re.sub(r"\S*" + re.escape(name) + r"\S*", " ", text)
    return text


def _says_check(check: Check, outcome: RunOutcome, names: list[str]) -> tuple[str, str]:
    patterns = [re.compile(p, re.I) for p in check.says]
    for sentence in _sentences(_without_names(outcome.text, names), outcome.task_text):
        if all(p.search(sentence) for p in patterns):
            return "pass", f"says: “{sentence[:200]}”"
    return "fail", "no sentence of the run's answer says the task cannot be done as asked (and why)"


def _glob(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"(\*\*/)", pattern)
    return re.compile("".join("(?:.*/)?" if part == "**/" else fnmatch.translate(part)[4:-3] for part in parts) + r"\Z")


def _relative(path: str, run_dir: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(run_dir.resolve()))
    except (ValueError, OSError):
        at = path.rfind("/figures/")
        return path[at + 1:] if at >= 0 else Path(path).name


def _figure_check(check: Check, outcome: RunOutcome) -> tuple[str, str]:
    if outcome.run_dir is None:
        return "fail", "the run made no folder"
    folder = Path(outcome.run_dir)
    pattern = _glob(check.figure or "figures/**/*")
    candidates = [r for r in outcome.figures if pattern.match(_relative(str(r.get("path", "")), folder))
                  and (folder / _relative(str(r.get("path", "")), folder)).is_file()]
    if not candidates:
        on_disk = [str(p.relative_to(folder)) for p in folder.glob("figures/**/*") if p.is_file()]
        return "fail", (f"no figure matching {check.figure} was saved through matplotlib in the run"
                        + (f" (figures on disk: {', '.join(on_disk[:5])})" if on_disk else ""))
    problems: list[str] = []
    for record in candidates:
        axes = [a for a in record.get("axes") or [] if isinstance(a, dict)]
        missing = []
        for attr, sup in (("xlabel", "supxlabel"), ("ylabel", "supylabel"), ("title", "suptitle")):
            regex = getattr(check, attr)
            if regex and not any(re.search(regex, str(a.get(attr) or ""), re.I) for a in axes) \
                    and not re.search(regex, str(record.get(sup) or ""), re.I):
                missing.append(f"{attr} matching {regex!r} (has {[a.get(attr) for a in axes][:3]})")
        if check.min_series and max((int(a.get("series") or 0) for a in axes), default=0) < check.min_series:
            missing.append(f"{check.min_series} series on one axes")
        if check.legend and not (record.get("figure_legend") or any(a.get("legend") for a in axes)):
            missing.append("a legend")
        name = _relative(str(record.get("path", "")), folder)
        if not missing:
            shown = [k for k, v in (("the labels", check.xlabel or check.ylabel or check.title),
                                    (f"{check.min_series}+ series", check.min_series), ("a legend", check.legend)) if v]
            return "pass", name + (f" has {', '.join(shown)}" if shown else " was saved")
        problems.append(f"{name} lacks {', '.join(missing)}")
    return "fail", "; ".join(problems)[:400]


def _files_check(check: Check, outcome: RunOutcome) -> tuple[str, str]:
    if outcome.run_dir is None:
        return "fail", "the run made no folder"
    folder = Path(outcome.run_dir)
    files = [str(p.relative_to(folder)) for p in folder.rglob("*")
             if p.is_file() and not str(p.relative_to(folder)).startswith(("data/", "."))]
    missing = [g for g in check.files if not any(_glob(g).match(f) for f in files)]
    return ("fail", f"missing: {', '.join(missing)}") if missing else ("pass", f"found {', '.join(check.files)}")


def _findings_check(check: Check, outcome: RunOutcome) -> tuple[str, str]:
    if outcome.findings is None:
        return "n/a", f"a {outcome.mode} run has no audits"
    codes = set(outcome.findings)
    absent = [c for c in check.must if c not in codes]
    present = [c for c in check.must_not if c in codes]
    if absent or present:
        return "fail", "; ".join(filter(None, [f"missing finding(s) {', '.join(absent)}" if absent else "",
                                               f"raised {', '.join(present)}" if present else ""]))
    return "pass", "findings as required"


def _status_check(check: Check, outcome: RunOutcome) -> tuple[str, str]:
    ok = outcome.status in check.status
    return ("pass" if ok else "fail"), f"status {outcome.status} (wanted {' or '.join(check.status)})"


Judge = Callable[[str, RunOutcome], tuple[bool, str]]


def grade_run(task: SuiteTask, outcome: RunOutcome, *, repeat: int = 1, judge: Judge | None = None) -> Grade:
    """Grade ``outcome`` against ``task``'s grader (see the module docstring)."""
    base: dict[str, Any] = {"task": task.name, "kind": task.kind, "mode": outcome.mode, "repeat": repeat, "run_dir": outcome.run_dir,
            "status": outcome.status, "cost_usd": outcome.cost_usd, "cost_known": outcome.cost_known,
            "tokens": outcome.tokens, "calls": outcome.calls, "duration_s": outcome.duration_s,
            "asked": (outcome.error or "").startswith("TaskUnclear")}
    if outcome.status in ("pending", "running", "cancelled", "interrupted") or outcome.stopped_by_eval:
        why = "the eval's total budget stopped it" if outcome.stopped_by_eval else {
            "cancelled": "it was cancelled"}.get(outcome.status, "it did not finish")
        return Grade(**base, verdict="not_run", why=f"{why}: {outcome.error}" if outcome.error else why)
    if outcome.needs_model:
        return Grade(**base, verdict="needs_model", why=outcome.needs_model)
    results: list[CheckResult] = []
    handlers = {"value": _value_check, "no_value": _no_value_check, "figure": _figure_check,
                "files": _files_check, "findings": _findings_check, "status": _status_check}
    names = [task.name, Path(task.path).stem, Path(outcome.run_dir).name if outcome.run_dir else ""]
    for check in task.grader.code_checks:
        result, detail = (_says_check(check, outcome, names) if check.kind == "says"
                          else handlers[check.kind](check, outcome))
        results.append(CheckResult(check=check.label(), result=result, detail=detail))  # type: ignore[arg-type]
    code_passed = not any(r.result == "fail" for r in results) and any(r.result == "pass" for r in results)
    for check in task.grader.checks:
        if check.kind != "rubric":
            continue
        if judge is None:
            results.append(CheckResult(check="rubric", result="n/a", detail="rubrics are off (--rubric turns them on)"))
        elif not code_passed:
            results.append(CheckResult(check="rubric", result="n/a", detail="not asked: a code check failed"))
        else:
            ok, why = judge(check.rubric or "", outcome)
            results.append(CheckResult(check="rubric", result="pass" if ok else "fail", detail=why[:300]))
    failed = [r for r in results if r.result == "fail"]
    if not failed and any(r.result == "pass" for r in results):
        return Grade(**base, verdict="pass", why="; ".join(r.detail for r in results if r.result == "pass")[:500],
                     checks=results)
    why = "; ".join(r.detail for r in failed)[:500] or "no check could be applied"
    if outcome.status == "budget_exhausted":  # its own budget or time limit (--budget-usd-per-run, --timeout-per-run)
        why = f"stopped by its own budget or time limit before it answered; {why}"[:500]
    if outcome.offline and (task.kind != "method" or _OFFLINE_REFUSAL.search(outcome.error or "")):
        asked = base["asked"]
        reason = ("the offline backend writes no analysis code of its own" if task.kind == "code" else
                  "only a language model can judge that this task cannot be done as asked" if task.kind == "impossible"
                  else "the offline backend asked instead of guessing (TaskUnclear: front matter or a model would "
                       "pin the task)" if asked else "the offline backend could not map the task")
        return Grade(**base, verdict="needs_model", why=f"{reason}; what the offline run gave: {why}"[:500],
                     checks=results)
    return Grade(**base, verdict="fail", why=why, checks=results)
