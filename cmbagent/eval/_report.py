"""``eval.md`` and the summaries of ``eval.json``, and ``cmbagent eval --compare A B``.

Per mode: pass rate with its exact (Clopper–Pearson) 95% binomial interval, counted over the runs that were
graded (``needs_model`` runs are graded and do not pass; runs the budget or a cancel kept from starting are
listed apart); the same rate over the runs the backend could attempt; median and total cost, tokens, model
calls and wall time per run.  Per task: each mode's verdict and why.
"""

from __future__ import annotations

import statistics
from typing import Any

from cmbagent.eval._grade import Grade

__all__ = ["binomial_interval", "compare_evals", "render_comparison", "render_eval", "summarise"]

VERDICTS = ("pass", "fail", "needs_model", "not_run")
_SHOWN = {"pass": "pass", "fail": "FAIL", "needs_model": "needs a model", "not_run": "not run"}


def binomial_interval(k: int, n: int, level: float = 0.95) -> tuple[float, float] | None:
    """The exact (Clopper–Pearson) interval of a binomial proportion k/n; None for n = 0."""
    if n <= 0:
        return None
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    return float(ci.low), float(ci.high)


def _stats(values: list[float]) -> dict[str, float | None]:
    return {"median": statistics.median(values) if values else None, "total": sum(values) if values else None}


def _mode_summary(grades: list[Grade]) -> dict[str, Any]:
    counts = {v: sum(1 for g in grades if g.verdict == v) for v in VERDICTS}
    graded = counts["pass"] + counts["fail"] + counts["needs_model"]
    attempted = counts["pass"] + counts["fail"]
    ran = [g for g in grades if g.verdict != "not_run"]
    # a run refused before its first model call (an offline TaskUnclear) cost nothing: it is not an unknown cost
    costs = [g.cost_usd if g.cost_usd is not None else 0.0 for g in ran if g.cost_usd is not None or g.calls == 0]
    by_kind: dict[str, dict[str, Any]] = {}
    for g in grades:
        row = by_kind.setdefault(g.kind, {**{v: 0 for v in VERDICTS}, "asked": 0})
        row[g.verdict] += 1
        row["asked"] += g.asked
    for row in by_kind.values():  # per kind, over every graded run of that kind (an ask does not pass)
        n = row["pass"] + row["fail"] + row["needs_model"]
        row["graded"], row["interval_95"] = n, binomial_interval(row["pass"], n)
    return {
        "runs": len(grades), **counts, "graded": graded, "asked": sum(g.asked for g in grades),
        "pass_rate": counts["pass"] / graded if graded else None,
        "interval_95": binomial_interval(counts["pass"], graded),
        "attempted": attempted,
        "pass_rate_attempted": counts["pass"] / attempted if attempted else None,
        "interval_95_attempted": binomial_interval(counts["pass"], attempted),
        "cost_usd": _stats(costs), "cost_known": all(g.cost_known for g in ran) and len(costs) == len(ran),
        "tokens": _stats([float(g.tokens) for g in ran]), "calls": _stats([float(g.calls) for g in ran]),
        "wall_s": _stats([float(g.duration_s) for g in ran if g.duration_s is not None]),
        "by_kind": by_kind,
    }


def summarise(record: Any) -> dict[str, Any]:
    """``eval.json``'s ``summary``: one block per mode that has grades."""
    modes = [m for m in record.settings.modes if any(g.mode == m for g in record.grades)]
    return {mode: _mode_summary([g for g in record.grades if g.mode == mode]) for mode in modes}


# -- rendering -------------------------------------------------------------------------------------------
def _rate(k: int, n: int, interval: Any) -> str:
    if not n:
        return "-"
    lo, hi = interval
    return f"{k}/{n} = {k / n:.0%} [{lo:.0%}, {hi:.0%}]"


def _money(value: float | None, known: bool = True) -> str:
    if value is None:
        return "unknown"
    return f"${value:.4f}" + ("" if known else " (lower bound)")


def _num(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    return (f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}") + unit


def _cell(grades: list[Grade]) -> str:
    if not grades:
        return "-"
    if len(grades) == 1:
        g = grades[0]
        asked = " (asked)" if g.asked else ""
        return f"{_SHOWN[g.verdict]}{asked}: {g.why[:160]}".replace("|", "/").replace("\n", " ")
    passed = sum(1 for g in grades if g.verdict == "pass")
    first_bad = next((g for g in grades if g.verdict != "pass"), None)
    return f"{passed}/{len(grades)} pass" + (f"; e.g. {_SHOWN[first_bad.verdict]}: {first_bad.why[:120]}"
                                              if first_bad else "").replace("|", "/")


def _link(run_dir: str, base: str) -> str:
    import os

    try:
        return os.path.relpath(run_dir, base)
    except ValueError:
        return run_dir


def render_eval(record: Any) -> str:
    """``eval.md``."""
    s = record.settings
    summary = record.summary or summarise(record)
    modes = list(summary)
    lines = [f"# Eval {record.eval_id}: suite `{record.suite.get('name')}` ({len(record.tasks)} tasks)", "",
             f"Model `{s.model or 'default (offline when no key is set)'}`; modes {', '.join(s.modes)}; "
             f"{s.repeats} repeat(s); one-shot self-repair rounds: {s.repairs}; budget "
             f"{'$' + format(s.budget_usd, 'g') if s.budget_usd else 'none'}; rubrics {'on' if s.rubric else 'off'}.", ""]
    if summary:
        lines += ["## Summary", "",
                  "| mode | runs | pass | fail | needs a model | not run | pass rate (95% CI) | pass rate of attempted "
                  "| cost median / total | tokens median / total | calls median / total | wall time median / total |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for mode, m in summary.items():
            cost = m["cost_usd"]
            lines.append(
                f"| {mode} | {m['runs']} | {m['pass']} | {m['fail']} | {m['needs_model']} | {m['not_run']} | "
                f"{_rate(m['pass'], m['graded'], m['interval_95'])} | "
                f"{_rate(m['pass'], m['attempted'], m['interval_95_attempted'])} | "
                f"{_money(cost['median'], m['cost_known'])} / {_money(cost['total'], m['cost_known'])} | "
                f"{_num(m['tokens']['median'])} / {_num(m['tokens']['total'])} | "
                f"{_num(m['calls']['median'])} / {_num(m['calls']['total'])} | "
                f"{_num(m['wall_s']['median'], ' s')} / {_num(m['wall_s']['total'], ' s')} |")
        lines += ["", "Pass rates count every graded run (a run that needs a model does not pass); the second rate leaves "
                  "those out. Intervals are exact binomial (Clopper–Pearson) 95% intervals. *Asked*: runs that asked a "
                  "question instead of answering (TaskUnclear; with the offline backend they are also counted as "
                  "needing a model, never as passes).", "",
                  "| mode | kind | pass | fail | needs a model | not run | asked | pass rate (95% CI) |",
                  "|---|---|---|---|---|---|---|---|"]
        for mode, m in summary.items():
            for kind, row in sorted(m["by_kind"].items()):
                rate = (_rate(row["pass"], row["graded"], row["interval_95"]) if "graded" in row else "-")
                lines.append(f"| {mode} | {kind} | {row['pass']} | {row['fail']} | {row['needs_model']} | "
                             f"{row['not_run']} | {row.get('asked', 0)} | {rate} |")
        lines.append("")
    lines += ["## Per task", "", "| task | kind | " + " | ".join(modes or s.modes) + " |",
              "|---|---|" + "---|" * len(modes or s.modes)]
    for task in record.tasks:
        cells = [_cell([g for g in record.grades if g.task == task.name and g.mode == mode]) for mode in modes or s.modes]
        lines.append(f"| {task.name} | {task.kind} | " + " | ".join(cells) + " |")
    lines += ["", "## Checks", ""]
    for g in record.grades:
        where = f" ([run]({_link(g.run_dir, record.path)}/report.md))" if g.run_dir else ""
        lines.append(f"- **{g.task}** {g.mode}" + (f" r{g.repeat}" if s.repeats > 1 else "") + f": {_SHOWN[g.verdict]}{where}")
        for c in g.checks:
            lines.append(f"  - {c.result}: {c.check} — {c.detail}".replace("\n", " "))
        if not g.checks:
            lines.append(f"  - {g.why}")
    lines.append("")
    return "\n".join(lines)


# -- comparing -------------------------------------------------------------------------------------------
def _side(record: Any, mode: str | None) -> tuple[str, dict[str, list[Grade]]]:
    modes = [m for m in record.settings.modes if any(g.mode == m for g in record.grades)]
    chosen = mode or (modes[0] if len(modes) == 1 else None)
    if chosen is None:
        from cmbagent.exceptions import UserError

        raise UserError(f"{record.path} has modes {', '.join(modes)}; name one as FOLDER:MODE (e.g. {record.path}:pc)")
    out: dict[str, list[Grade]] = {}
    for g in record.grades:
        if g.mode == chosen:
            out.setdefault(g.task, []).append(g)
    return chosen, out


def compare_evals(a: Any, b: Any, mode_a: str | None = None, mode_b: str | None = None) -> dict[str, Any]:
    """Two evals (or two modes of one) side by side: per task, the share of runs that passed in each and
    which side gained; totals with intervals, and the tasks only one side passed."""
    ma, ga = _side(a, mode_a)
    mb, gb = _side(b, mode_b)
    tasks = [t.name for t in a.tasks] + [t.name for t in b.tasks if t.name not in {x.name for x in a.tasks}]
    rows = []
    for name in tasks:
        left, right = ga.get(name, []), gb.get(name, [])
        pa = sum(g.verdict == "pass" for g in left) / len(left) if left else None
        pb = sum(g.verdict == "pass" for g in right) / len(right) if right else None
        change = "-" if pa is None or pb is None else "same" if pa == pb else "B better" if pb > pa else "A better"
        rows.append({"task": name, "a": pa, "b": pb, "change": change,
                     "a_verdicts": [g.verdict for g in left], "b_verdicts": [g.verdict for g in right],
                     "a_why": left[0].why if left else "", "b_why": right[0].why if right else ""})

    def side(record: Any, mode: str, grades: dict[str, list[Grade]]) -> dict[str, Any]:
        flat = [g for gs in grades.values() for g in gs]
        block = _mode_summary(flat)
        return {"path": record.path, "eval_id": record.eval_id, "mode": mode, "model": record.settings.model,
                **{k: block[k] for k in ("runs", "pass", "graded", "pass_rate", "interval_95", "cost_usd", "tokens",
                                         "calls", "wall_s")}}

    # the two sides' totals count different tasks when their task sets differ; these count only shared ones
    shared = [name for name in tasks if ga.get(name) and gb.get(name)]

    def on_shared(grades: dict[str, list[Grade]]) -> dict[str, Any]:
        flat = [g for name in shared for g in grades[name] if g.verdict != "not_run"]
        k = sum(g.verdict == "pass" for g in flat)
        return {"pass": k, "graded": len(flat), "interval_95": binomial_interval(k, len(flat))}

    return {"a": side(a, ma, ga), "b": side(b, mb, gb), "tasks": rows,
            "shared": {"tasks": len(shared), "a": on_shared(ga), "b": on_shared(gb)},
            "only_a": [r["task"] for r in rows if r["change"] == "A better"],
            "only_b": [r["task"] for r in rows if r["change"] == "B better"]}


def render_comparison(result: dict[str, Any]) -> str:
    a, b = result["a"], result["b"]
    head = ["| | eval | mode | model | pass rate (95% CI) | cost total | tokens total | calls total | wall time total |",
            "|---|---|---|---|---|---|---|---|---|"]
    for key, side in (("A", a), ("B", b)):
        head.append(f"| {key} | {side['eval_id']} | {side['mode']} | {side['model'] or 'default'} | "
                    f"{_rate(side['pass'], side['graded'], side['interval_95'])} | {_money(side['cost_usd']['total'])} | "
                    f"{_num(side['tokens']['total'])} | {_num(side['calls']['total'])} | {_num(side['wall_s']['total'], ' s')} |")
    shared = result.get("shared") or {}
    same = ""
    if shared and shared["tasks"] != max(len([r for r in result["tasks"] if r["a"] is not None]),
                                         len([r for r in result["tasks"] if r["b"] is not None])):
        sa, sb = shared["a"], shared["b"]
        same = (f"On the {shared['tasks']} tasks both ran: A {_rate(sa['pass'], sa['graded'], sa['interval_95'])}, "
                f"B {_rate(sb['pass'], sb['graded'], sb['interval_95'])}. ")
    lines = ["# Eval comparison", "", *head, "",
             f"{same}Passed by A only: {len(result['only_a'])}; by B only: {len(result['only_b'])}.", "",
             "| task | A | B | change |", "|---|---|---|---|"]
    for row in result["tasks"]:
        def show(p: float | None, verdicts: list[str]) -> str:
            if p is None:
                return "-"
            return _SHOWN[verdicts[0]] if len(verdicts) == 1 else f"{p:.0%} of {len(verdicts)}"

        lines.append(f"| {row['task']} | {show(row['a'], row['a_verdicts'])} | {show(row['b'], row['b_verdicts'])} | "
                     f"{row['change']} |")
    lines.append("")
    return "\n".join(lines)
