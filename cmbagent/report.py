"""``report.md``: task, final plan, per-step results and figures, key numbers linked to the cell that
produced them, failures and skips with reasons, costs per agent, package versions.

Tables, links and bookkeeping are rendered by code; only the narrative (summary, conclusions,
limitations) comes from the reporter agent.  The inputs are stored in ``run.json`` so that
``cmbagent report RUN_DIR`` re-renders the same report.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from cmbagent.agents._schemas import AuditReport, ReportDraft
from cmbagent.run import RunFolder, write_text

__all__ = ["fallback_draft", "format_value", "key_numbers", "render_report", "rerender"]


def format_value(value: Any) -> str:
    """``0.351 ± 0.019`` for a quantity with an uncertainty, plain otherwise."""
    if isinstance(value, dict):
        mean = value.get("mean", value.get("value", value.get("median")))
        std = value.get("std", value.get("sigma"))
        if isinstance(mean, (int, float)) and isinstance(std, (int, float)):
            if std > 0 and math.isfinite(std) and math.isfinite(mean) and 1e-6 < abs(std) < 1e5:
                decimals = max(0, 1 - math.floor(math.log10(std)))  # two significant digits of the error
                return f"{mean:.{decimals}f} ± {std:.{decimals}f}"
            return f"{_num(mean)} ± {_num(std)}"
        return ", ".join(f"{k}={_num(v)}" for k, v in list(value.items())[:6])
    return _num(value)


def _num(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if value != 0 and (abs(value) < 1e-3 or abs(value) >= 1e5):
        return f"{value:.4g}"
    return f"{value:.4g}" if abs(value) < 10 else f"{value:.2f}"


def key_numbers(results: dict[str, dict[str, Any]], limit: int = 40) -> list[dict[str, Any]]:
    """Every top-level value of every done step, with the step and cell that produced it."""
    rows = []
    for sid, record in results.items():
        if record.get("status") != "done":
            continue
        for name, value in (record.get("values") or {}).items():
            if isinstance(value, list) and len(value) > 6:
                continue
            if isinstance(value, dict) and "mean" not in value and any(isinstance(v, (dict, list)) for v in value.values()):
                continue  # nested records (per-file facts, tables) are not headline numbers
            rows.append({"name": name, "value": value, "text": format_value(value), "step": sid,
                         "step_dir": record.get("dir", ""), "cell": record.get("cell") or record.get("answer")})
    return rows[:limit]


def fallback_draft(state: dict[str, Any], status: str) -> ReportDraft:
    """The narrative written by code when no model may be asked (budget spent)."""
    results = state.get("results", {})
    done = [r for r in results.values() if r.get("status") == "done"]
    numbers = "; ".join(f"{row['name']} = {row['text']}" for row in key_numbers(results)[:8])
    summary = f"The run ended with status '{status}' after {len(done)} completed step(s)."
    if numbers:
        summary += f" Key numbers: {numbers}."
    if state.get("stop_reason"):
        summary += f" It stopped because: {state['stop_reason']}"
    return ReportDraft(title=str(state.get("task", {}).get("title", "Report")), summary=summary,
                       conclusions=[], limitations=["This report was written without the reporter agent (budget exhausted)."]
                       if status == "budget_exhausted" else [])


def _costs(ledger: Any) -> dict[str, Any]:
    if ledger is None:
        return {}
    data = ledger.to_dict() if hasattr(ledger, "to_dict") else ledger
    return data if isinstance(data, dict) else {}


def _cost_rows(costs: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    for key in ("agents", "by_agent", "per_agent"):
        if isinstance(costs.get(key), dict):
            return [(name, dict(row)) for name, row in costs[key].items() if isinstance(row, dict)]
    return [(name, dict(row)) for name, row in costs.items() if isinstance(row, dict)]


def render_report(
    folder: RunFolder,
    *,
    state: dict[str, Any],
    draft: ReportDraft,
    audit: AuditReport | None,
    facts: dict[str, Any],
    ledger: Any = None,
) -> Path:
    costs = _costs(ledger)
    inputs = {
        "state": {k: state.get(k) for k in ("task", "brief", "plan", "statuses", "results", "status", "stop_reason")},
        "draft": draft.model_dump(),
        "audit": audit.model_dump() if audit else None,
        "facts": facts,
        "costs": costs,
    }
    run = folder.update_run(report_inputs=inputs)
    text = _render(folder, inputs, run)
    write_text(folder.report, text)
    return folder.report


def rerender(folder: RunFolder) -> Path:
    """Render report.md again from the inputs stored in run.json."""
    run = folder.read_run()
    inputs = run.get("report_inputs")
    if not inputs:
        from cmbagent.exceptions import UserError

        raise UserError(f"{folder.path} has no report inputs yet (the run has not reached its report); resume it first")
    write_text(folder.report, _render(folder, inputs, run))
    return folder.report


def _link(path: str | None) -> str:
    return f"[{path}]({path})" if path else ""


def _render(folder: RunFolder, inputs: dict[str, Any], run: dict[str, Any]) -> str:
    state = inputs["state"]
    draft = ReportDraft.model_validate(inputs["draft"])
    results: dict[str, dict[str, Any]] = state.get("results") or {}
    statuses: dict[str, str] = state.get("statuses") or {}
    plan = state.get("plan") or {"steps": []}
    status = state.get("status") or run.get("status", "?")
    out: list[str] = [f"# {draft.title}", ""]
    cost = run.get("cost_usd")
    meta = f"Run `{run.get('run_id', folder.path.name)}` — status **{status}**"
    if run.get("duration_s") is not None:
        meta += f", {run['duration_s']:.1f} s"
    if cost is not None:
        meta += f", ${cost:.4f}"
    out += [meta + ".", ""]
    if state.get("stop_reason"):
        out += [f"> Stopped early: {state['stop_reason']}", ""]
    out += ["## Answer", "", draft.summary.strip(), ""]
    numbers = key_numbers(results)
    if numbers:
        out += ["## Key numbers", "", "| quantity | value | step | cell |", "|---|---|---|---|"]
        for row in numbers:
            out.append(f"| {row['name']} | {row['text']} | {row['step']} | {_link(row['cell'])} |")
        out.append("")
    if draft.conclusions:
        out += ["## Conclusions", "", *[f"- {c}" for c in draft.conclusions], ""]
    out += ["## Task", ""]
    task_text = (state.get("task") or {}).get("text", "")
    out += ["> " + line if line else ">" for line in task_text.strip().splitlines()] + [""]
    out += ["## Plan", ""]
    for n, step in enumerate(plan.get("steps", []), 1):
        method = f" — method `{step['method']['name']}`" if step.get("method") else ""
        out.append(f"{n}. **{step['title']}** ({step['agent']}{method}) — {statuses.get(step['id'], 'pending')}: {step['goal']}")
    out.append("")
    out += ["## Steps", ""]
    for step in plan.get("steps", []):
        record = results.get(step["id"])
        if not record:
            continue
        out += [f"### {step['id']}: {step['title']} — {record.get('status')}", ""]
        if record.get("dir"):
            out.append(f"Folder: {_link(record['dir'])}" + (f"; cell: {_link(record.get('cell'))}" if record.get("cell") else "")
                       + (f"; answer: {_link(record.get('answer'))}" if record.get("answer") else ""))
            out.append("")
        if record.get("summary"):
            out += [record["summary"].strip(), ""]
        if record.get("reason"):
            out += [f"Why: {record['reason']}", ""]
        if record.get("unaccepted_values"):
            shown = "; ".join(f"{k} = {format_value(v)}" for k, v in list(record["unaccepted_values"].items())[:10])
            out += [f"Values produced but not accepted (from {_link(record.get('cell'))}): {shown}", ""]
        for check in record.get("checks") or []:
            out.append(f"- [{'pass' if check.get('passed') else 'FAIL'}] {check.get('name')}: {check.get('message', '')}")
        if record.get("checks"):
            out.append("")
        for fig in record.get("figures") or []:
            if str(fig).lower().endswith((".png", ".jpg", ".jpeg", ".svg")):
                out += [f"![{Path(fig).name}]({fig})", ""]
    problems = [(sid, r) for sid, r in results.items() if r.get("status") in {"failed", "skipped"}]
    out += ["## What failed or was skipped", ""]
    if problems:
        out += [f"- {sid} ({r.get('title', '')}) {r['status']}: {r.get('reason', '')}" for sid, r in problems]
    else:
        out.append("Nothing: every planned step completed.")
    out.append("")
    if draft.limitations:
        out += ["## Limitations", "", *[f"- {c}" for c in draft.limitations], ""]
    out += ["## Reproducibility", ""]
    audit = inputs.get("audit")
    facts = inputs.get("facts") or {}
    if audit:
        out.append(f"Reproducible: {'yes' if audit['reproducible'] else 'no'}.")
        out += [f"- {f}" for f in audit.get("findings", [])]
    out.append(f"Notebook: {_link('notebook.ipynb') if facts.get('notebook') else '(none)'}; "
               f"transcript: {_link('transcript.jsonl')}; events: {_link('events.jsonl')}.")
    for rel, info in (facts.get("inputs") or {}).items():
        out.append(f"- input {rel}: {info['bytes']} bytes, sha256 {info['sha256']}…")
    out.append("")
    costs = inputs.get("costs") or {}
    rows = _cost_rows(costs)
    out += ["## Costs per agent", ""]
    if rows:
        out += ["| agent | calls | input tokens | output tokens | cost (USD) |", "|---|---|---|---|---|"]
        for name, row in sorted(rows):
            usd = row.get("cost_usd")
            out.append(f"| {name} | {row.get('calls', '')} | {row.get('input_tokens', '')} | "
                       f"{row.get('output_tokens', '')} | {'' if usd is None else f'{usd:.4f}'} |")
    else:
        out.append("(no model calls recorded)")
    out += ["", "## Package versions", ""]
    versions = run.get("versions") or {}
    out.append(", ".join(f"{k} {v}" for k, v in versions.items()) or "(unknown)")
    out.append("")
    return "\n".join(out)


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=1, default=str)
