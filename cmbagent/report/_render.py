"""Rendering ``report.md``: task, final plan, per-step results and figures, key numbers linked to the cell
that produced them, failures and skips with reasons, costs per agent, package versions.

Tables, links and bookkeeping are rendered by code; only the narrative (summary, conclusions,
limitations) comes from the reporter agent.  The inputs (a :class:`ReportView`) are stored in ``run.json`` so
that ``cmbagent report RUN_DIR`` re-renders the same report.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from cmbagent.exceptions import UserError
from cmbagent.run import RunFolder, write_text
from cmbagent.state import (
    AuditFacts,
    AuditReport,
    Citation,
    Finding,
    Plan,
    ReportDraft,
    RequirementCheck,
    RunStatus,
    Severity,
    StepRecord,
    TaskBrief,
    TaskSpec,
    citation_markers,
)

__all__ = [
    "BAD_CITATION",
    "Reference",
    "ReportView",
    "Resolver",
    "citation_findings",
    "costs_of",
    "data_answers",
    "findings_section",
    "format_value",
    "key_numbers",
    "reading_lines",
    "references",
    "render_report",
    "rerender",
    "sorted_conclusions",
    "unmeasured",
]

BAD_CITATION = "report.bad_citation"
#: ``resolve(chunk_id)`` -> the chunk's text, or None when the index no longer holds it
Resolver = Callable[[str], str | None]


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


def key_numbers(steps: Mapping[str, StepRecord], limit: int = 40) -> list[dict[str, Any]]:
    """Every top-level value of every done step, with the step and cell that produced it."""
    rows = []
    for sid, record in steps.items():
        if record.status != "done":
            continue
        for name, value in record.values.items():
            if isinstance(value, list) and len(value) > 6:
                continue
            if isinstance(value, dict) and "mean" not in value and any(isinstance(v, (dict, list)) for v in value.values()):
                continue  # nested records (per-file facts, tables) are not headline numbers
            rows.append({"name": name, "value": value, "text": format_value(value), "step": sid,
                         "step_dir": record.dir or "", "cell": record.cell or record.answer})
    return rows[:limit]


class Reference(BaseModel):
    """One entry of the report's References: a cited passage, its number, and the steps that cite it."""

    number: int
    citation: Citation
    steps: list[str] = Field(default_factory=list)

    def line(self) -> str:
        c = self.citation
        where = ", ".join(part for part in (c.source, c.locator) if part)
        return f"[{self.number}] {where}: \"{c.quote}\" (chunk {c.chunk_id}; cited by {', '.join(self.steps)})"


def references(steps: Mapping[str, StepRecord]) -> list[Reference]:
    """The citations of every done step, numbered in order of first citation (one entry per chunk and quote)."""
    out: dict[tuple[str, str], Reference] = {}
    for sid, record in steps.items():
        if record.status != "done":
            continue
        for citation in record.citations:
            key = (citation.chunk_id, citation.quote)
            if key not in out:
                out[key] = Reference(number=len(out) + 1, citation=citation)
            if sid not in out[key].steps:
                out[key].steps.append(sid)
    return list(out.values())


def _step_numbers(record: StepRecord, refs: list[Reference]) -> list[int]:
    by_key = {(r.citation.chunk_id, r.citation.quote): r.number for r in refs}
    return [by_key[(c.chunk_id, c.quote)] for c in record.citations if (c.chunk_id, c.quote) in by_key]


def citation_findings(view: ReportView, resolve: Resolver) -> list[Finding]:
    """The citation audit: every reference resolves to its chunk and its quote is in it, and every ``[n]``
    of the narrative is a reference.  Each failure is a ``report.bad_citation`` finding."""
    from cmbagent.literature import quote_in_text

    refs = references(view.steps)
    findings: list[Finding] = []
    for ref in refs:
        c = ref.citation
        evidence = {"reference": ref.number, "chunk_id": c.chunk_id, "source": c.source, "locator": c.locator,
                    "quote": c.quote}
        try:
            text = resolve(c.chunk_id)
        except UserError as exc:
            text, why = None, f"the knowledge index cannot be read ({exc})"
        else:
            why = f"chunk {c.chunk_id} of {c.source or 'its source'} is no longer in the index (re-indexed or removed)"
        if text is not None and quote_in_text(c.quote, text):
            continue
        if text is not None:
            why = f"the quoted span is not in chunk {c.chunk_id} of {c.source or 'its source'}"
        findings.append(Finding(code=BAD_CITATION, severity=Severity.ERROR, step_id=ref.steps[0],
                                message=f"reference [{ref.number}] does not resolve: {why}", evidence=evidence))
    draft = view.draft
    for part, text in (("summary", draft.summary), *((f"conclusions[{i}]", t) for i, t in enumerate(draft.conclusions)),
                       *((f"limitations[{i}]", t) for i, t in enumerate(draft.limitations))):
        for n in sorted(set(citation_markers(text))):
            if not 1 <= n <= len(refs):
                findings.append(Finding(code=BAD_CITATION, severity=Severity.ERROR, step_id="report",
                                        message=f"the report's {part} cites [{n}], but the References list "
                                                f"{len(refs)} entr{'y' if len(refs) == 1 else 'ies'}",
                                        evidence={"marker": n, "where": part, "references": len(refs)}))
    return findings


class ReportView(BaseModel):
    """Everything ``report.md`` is made from; stored in ``run.json`` (``report_inputs``) for re-rendering."""

    task: TaskSpec
    brief: TaskBrief | None = None
    plan: Plan | None = None
    steps: dict[str, StepRecord] = Field(default_factory=dict)
    status: RunStatus
    stop_reason: str = ""
    draft: ReportDraft
    audit: AuditReport | None = None
    facts: AuditFacts = Field(default_factory=AuditFacts)
    costs: dict[str, Any] = Field(default_factory=dict)
    findings: list[Finding] = Field(default_factory=list)  # about the run (its report, its task), not one step

    def all_findings(self) -> list[Finding]:
        """The steps' findings in plan order (steps not in the plan after them), then the run's, errors first."""
        order = [s.id for s in self.plan.steps] if self.plan else []
        order += [sid for sid in self.steps if sid not in order]
        found = [f for sid in order if sid in self.steps for f in self.steps[sid].findings] + list(self.findings)
        return sorted(found, key=lambda f: f.severity.rank)
    requirements: list[RequirementCheck] = Field(default_factory=list)


def costs_of(ledger: Any) -> dict[str, Any]:
    """The ledger's per-call/agent/run costs as JSON (``{}`` without a ledger)."""
    if ledger is None:
        return {}
    data = ledger.to_dict() if hasattr(ledger, "to_dict") else ledger
    return data if isinstance(data, dict) else {}


def _cost_rows(costs: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    for key in ("agents", "by_agent", "per_agent"):
        if isinstance(costs.get(key), dict):
            return [(name, dict(row)) for name, row in costs[key].items() if isinstance(row, dict)]
    return [(name, dict(row)) for name, row in costs.items() if isinstance(row, dict)]


def render_report(folder: RunFolder, view: ReportView, *, resolve: Resolver | None = None) -> Path:
    """Write ``report.md`` and keep its inputs in ``run.json`` (the one place a report is rendered).

    With ``resolve`` (the run has a knowledge index) the citations are audited first: findings go into
    run.json ``findings`` (replacing the last audit's) and unresolved references are marked in the report.
    """
    run = folder.update_run(report_inputs=view.model_dump(mode="json"))
    view, bad = _audit_citations(folder, view, run, resolve)
    write_text(folder.report, _render(folder, view, run, bad))
    return folder.report


def _audit_citations(folder: RunFolder, view: ReportView, run: dict[str, Any], resolve: Resolver | None,
                     ) -> tuple[ReportView, dict[int, str]]:
    """Audit the citations; the findings replace the last audit's in run.json and in the view's Findings."""
    if resolve is None or not (references(view.steps) or any(
            citation_markers(t) for t in (view.draft.summary, *view.draft.conclusions, *view.draft.limitations))):
        return view, {}
    found = citation_findings(view, resolve)
    kept = [f for f in run.get("findings") or [] if not (isinstance(f, dict) and f.get("code") == BAD_CITATION)]
    run.update(folder.update_run(findings=kept + [f.model_dump(mode="json") for f in found]))
    view = view.model_copy(update={"findings": [*(f for f in view.findings if f.code != BAD_CITATION), *found]})
    return view, {int(f.evidence["reference"]): f.message for f in found if "reference" in f.evidence}


def rerender(folder: RunFolder, *, resolve: Resolver | None = None) -> Path:
    """Render report.md again from the inputs stored in run.json (auditing citations again with ``resolve``)."""
    run = folder.read_run()
    inputs = run.get("report_inputs")
    if not inputs:
        raise UserError(f"{folder.path} has no report inputs yet (the run has not reached its report); resume it first")
    try:
        view = ReportView.model_validate(inputs)
    except ValidationError:
        raise UserError(f"{folder.path}: its report inputs were written by an older cmbagent; re-run the task "
                        "to get a report from this version") from None
    view, bad = _audit_citations(folder, view, run, resolve)
    write_text(folder.report, _render(folder, view, run, bad))
    return folder.report


_NOT_MEASURED = ("param.unconstrained", "param.degenerate")


def data_answers(view: ReportView) -> dict[str, str]:
    """Per parameter, what the audits established the data say about it — unconstrained with its bound, not
    measurable, or what a prior does to it — as a sentence (the findings' ``answer``).  Parameters the data do
    not measure come first; only those key the "not measured" mark of the Key numbers table."""
    found = [*view.findings, *(f for r in view.steps.values() if r.status == "done" for f in r.findings)]
    answers: dict[str, str] = {}
    for item in sorted(found, key=lambda f: f.code not in _NOT_MEASURED):
        name, answer = item.evidence.get("parameter"), item.evidence.get("answer")
        if isinstance(name, str) and isinstance(answer, str) and name not in answers and not item.evidence.get(
                "nuisance"):
            answers[name] = answer + "."
    return answers


def reading_lines(understanding: Mapping[str, Any] | None) -> list[str]:
    """How code read the task (``run.json`` ``understanding``), for a person: the method with its confidence and
    the runners-up, then each argument with its confidence and where it came from."""
    if not understanding:
        return []
    choice = understanding.get("choice") or {}
    method = understanding.get("method") or choice.get("method")
    lines = []
    if method:
        others = [f"{c['method']} {c['probability']:.0%}" for c in choice.get("candidates", [])[1:3]
                  if isinstance(c, Mapping) and c.get("method") != method]
        how = "named by the front matter" if choice.get("status") == "named" else \
            f"chosen by meaning, words and data, {float(choice.get('confidence') or 0):.0%} sure"
        lines.append(f"method {method} ({how}" + (f"; then {', '.join(others)}" if others else "") + ")")
    for name, entry in (understanding.get("arguments") or {}).items():
        if not isinstance(entry, Mapping) or name == "output_dir":
            continue
        lines.append(f"{name} = {_clip(format_value(entry.get('value')), 80)} ({float(entry.get('confidence') or 0):.0%}: "
                     f"{_clip(str(entry.get('evidence') or ''), 120)})")
    for name, how in (understanding.get("assumed") or {}).items():
        lines.append(f"assumed: {name} — {how}")
    lines += [f"open (the analyst's arguments decide it): {_clip(str(point), 300)}"
              for point in understanding.get("open") or []]
    return lines


def unmeasured(view: ReportView) -> set[str]:
    """Parameters the audits found these data do not measure (unconstrained, or not measurable at all)."""
    found = [*view.findings, *(f for r in view.steps.values() if r.status == "done" for f in r.findings)]
    return {str(f.evidence["parameter"]) for f in found if f.code in _NOT_MEASURED and f.evidence.get("parameter")
            and not f.evidence.get("nuisance")}


def sorted_conclusions(view: ReportView) -> tuple[list[str], list[str], int]:
    """The reporter's conclusions that cite the run's results (a value, check, finding, figure or number of a done
    step), those that cite none, and how many repeat one phrase over and over and are left out (SmolLM2: "The
    report has a detailed report of the plan, the report has a detailed report of the plan, ...")."""
    from cmbagent.audits import Grounds, repetitive

    done = [r for r in view.steps.values() if r.status == "done"]
    values: dict[str, Any] = {}
    for record in done:
        values.update(record.values)
    grounds = Grounds.of(values=values, checks=[c for r in done for c in r.checks],
                         findings=[f for r in done for f in r.findings], figures=[f for r in done for f in r.figures])
    cited: list[str] = []
    unchecked: list[str] = []
    repeats = 0
    for text in dict.fromkeys(c.strip() for c in view.draft.conclusions if c.strip()):
        if repetitive(text):
            repeats += 1
        else:
            (cited if grounds.cites(text) else unchecked).append(text)
    return cited, unchecked, repeats


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _requirements_section(checks: list[RequirementCheck]) -> list[str]:
    """``## Task requirements``: each item the task stated, met or not, and the evidence code found."""
    if not checks:
        return []
    out = ["## Task requirements", ""]
    met = sum(1 for c in checks if c.met)
    out.append(f"{met} of {len(checks)} met (checked by code against the arguments run and the results reported; "
               "[requirements.json](requirements.json)).")
    out.append("")
    for check in checks:
        req = check.requirement
        mark = "met" if check.met else "not checked" if check.met is None else f"NOT MET ({check.severity})"
        source = "front matter" if req.source == "front_matter" else f"task: “{req.text[:100]}”"
        out.append(f"- [{mark}] {req.id} {req.label()} — {source}" + (f"; {check.evidence}" if check.evidence else ""))
    out.append("")
    return out


def _link(path: str | None) -> str:
    return f"[{path}]({path})" if path else ""


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def findings_section(view: ReportView) -> list[str]:
    """``## Findings``: every finding linked to its step folder and cell, then the warnings as caveats that name
    the check that would settle them (the report's deterministic part of acting on findings)."""
    found = view.all_findings()
    out = ["## Findings", ""]
    if not found:
        return [*out, "The audits found no problem in any step or in this report.", ""]
    counts = {sev: sum(1 for f in found if f.severity == sev) for sev in ("error", "warning", "note")}
    out += [", ".join(f"{n} {sev}{'s' if n != 1 else ''}" for sev, n in counts.items() if n)
            + " (an error rejected its step; warnings are caveats; notes are facts to state).", "",
            "| severity | code | step | cell | finding |", "|---|---|---|---|---|"]
    for f in found:
        record = view.steps.get(f.step_id or "")
        step = f"[{f.step_id}]({record.dir})" if record is not None and record.dir else (f.step_id or "report")
        source = "" if f.source == "audit" else f" (raised by {f.source})"
        severity = f"**{f.severity}**" if f.severity == "error" else str(f.severity)
        out.append(f"| {severity} | `{f.code}` | {step} | {_link(f.cell) if f.cell else ''} | "
                   f"{_cell(f.message)}{source} |")
    out.append("")
    caveats = [f for f in found if f.severity == "warning"]
    if caveats:
        out += ["Caveats, and the check that would settle each:", ""]
        out += [f"- `{f.code}` ({f.step_id or 'report'}): {_cell(f.message)}." + (f" *To settle it:* {f.settle}"
                                                                                    if f.settle else "")
                for f in caveats]
        out.append("")
    return out


def _package_docs(folder: RunFolder, step_dir: str | None) -> list[str]:
    """The passages of indexed packages a code step's author was given (its ``package_docs.json``), as
    "package: name (file, lines)"; [] when none were."""
    if not step_dir:
        return []
    path = folder.path / step_dir / "package_docs.json"
    try:
        records = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else []
    except (OSError, ValueError):
        return []
    return [f"{r.get('package')}: `{r.get('name')}` ({Path(str(r.get('source', ''))).name}, {r.get('locator')})"
            for r in records if isinstance(r, dict)]


def _render(folder: RunFolder, view: ReportView, run: dict[str, Any], bad: Mapping[int, str] | None = None) -> str:
    draft = view.draft
    refs = references(view.steps)
    out: list[str] = [f"# {draft.title}", ""]
    cost = run.get("cost_usd")
    meta = f"Run `{run.get('run_id', folder.path.name)}` — status **{view.status}**"
    if run.get("duration_s") is not None:
        meta += f", {run['duration_s']:.1f} s"
    if cost is not None:
        meta += f", ${cost:.4f}"
    out += [meta + ".", ""]
    if view.stop_reason:
        out += [f"> Stopped early: {view.stop_reason}", ""]
    unmet = [c for c in view.requirements if c.met is False]
    if unmet:  # before the answer: the answer may not be to the question asked
        out += [f"> {len(unmet)} of {len(view.requirements)} task requirement(s) not met: "
                + "; ".join(f"{c.requirement.label()} ({c.severity}: {c.evidence})" for c in unmet[:4])
                + ("; ..." if len(unmet) > 4 else "") + " — see Task requirements.", ""]
    out += ["## Answer", "", draft.summary.strip(), ""]
    said = data_answers(view)
    if said:  # what the data can and cannot say: part of the answer, written by code from the audits
        out += ["What these data say about the parameters (established by code, not by a model):", "",
                *[f"- {line}" for line in said.values()], ""]
    out += findings_section(view)
    numbers = key_numbers(view.steps)
    if numbers:
        out += ["## Key numbers", "", "| quantity | value | step | cell |", "|---|---|---|---|"]
        for row in numbers:
            mark = " (not measured by these data: see the Answer)" if row["name"] in unmeasured(view) else ""
            out.append(f"| {row['name']} | {row['text']}{mark} | {row['step']} | {_link(row['cell'])} |")
        out.append("")
    cited, unchecked, repeats = sorted_conclusions(view)
    if cited or unchecked or repeats:
        out += ["## Conclusions", "", *[f"- {c}" for c in cited], ""]
    if unchecked:
        out += ["Drawn without citing a value, check, figure or number of the run (code could not check them):",
                "", *[f"- {_clip(c, 300)}" for c in unchecked], ""]
    if repeats:
        out += [f"({repeats} conclusion(s) that repeat one phrase over and over are left out.)", ""]
    out += _requirements_section(view.requirements)
    read = reading_lines(run.get("understanding"))
    if read:
        out += ["## How the task was read", "", *[f"- {line}" for line in read], ""]
    out += ["## Task", ""]
    out += ["> " + line if line else ">" for line in view.task.text.strip().splitlines()] + [""]
    out += ["## Plan", ""]
    plan_steps = view.plan.steps if view.plan else []
    for n, step in enumerate(plan_steps, 1):
        method = f" — method `{step.method.name}`" if step.method else ""
        status = view.steps[step.id].status if step.id in view.steps else "pending"
        out.append(f"{n}. **{step.title}** ({step.agent}{method}) — {status}: {step.goal}")
    out.append("")
    out += ["## Steps", ""]
    for step in plan_steps:
        record = view.steps.get(step.id)
        if record is None or record.status == "pending":
            continue
        out += [f"### {step.id}: {step.title} — {record.status}", ""]
        if record.dir:
            out.append(f"Folder: {_link(record.dir)}" + (f"; cell: {_link(record.cell)}" if record.cell else "")
                       + (f"; answer: {_link(record.answer)}" if record.answer else ""))
            out.append("")
        if record.summary:
            out += [record.summary.strip(), ""]
        cites = _step_numbers(record, refs)
        if cites:
            out += ["Cites: " + " ".join(f"[{n}]" for n in cites) + " (see References).", ""]
        if record.reason:
            out += [f"Why: {record.reason}", ""]
        if record.unaccepted_values:
            shown = "; ".join(f"{k} = {format_value(v)}" for k, v in list(record.unaccepted_values.items())[:10])
            out += [f"Values produced but not accepted (from {_link(record.cell)}): {shown}", ""]
        for check in record.checks:
            out.append(f"- [{'pass' if check.passed else 'FAIL'}] {check.name}: {check.message}")
        if record.checks:
            out.append("")
        for fig in record.figures:
            if fig.lower().endswith((".png", ".jpg", ".jpeg", ".svg")):
                out += [f"![{Path(fig).name}]({fig})", ""]
        used = _package_docs(folder, record.dir)
        if used:
            out += ["Package documentation given to the code's author (`cmbagent index --package`): "
                    + "; ".join(used) + ".", ""]
    problems = [r for r in view.steps.values() if r.status in {"failed", "skipped"}]
    out += ["## What failed or was skipped", ""]
    if problems:
        out += [f"- {r.id} ({r.title}) {r.status}: {r.reason}" for r in problems]
    else:
        out.append("Nothing: every planned step completed.")
    out.append("")
    if draft.limitations:
        out += ["## Limitations", "", *[f"- {c}" for c in draft.limitations], ""]
    if refs:
        out += ["## References", ""]
        for ref in refs:
            c = ref.citation
            where = ", ".join(part for part in (f"`{c.source}`" if c.source else "", c.locator) if part)
            line = f"[{ref.number}] {where} — “{c.quote}” (chunk `{c.chunk_id}`; cited by {', '.join(ref.steps)})"
            if bad and ref.number in bad:
                line += f" — **does not resolve**: {bad[ref.number].split(': ', 1)[-1]}"
            out += [line, ""]
    out += ["## Reproducibility", ""]
    if view.audit:
        out.append(f"Reproducible: {'yes' if view.audit.reproducible else 'no'}.")
        out += [f"- {f}" for f in view.audit.findings]
    out.append(f"Notebook: {_link('notebook.ipynb') if view.facts.notebook else '(none)'}; "
               f"transcript: {_link('transcript.jsonl')}; events: {_link('events.jsonl')}.")
    for rel, info in view.facts.inputs.items():
        out.append(f"- input {rel}: {info.bytes} bytes, sha256 {info.sha256}…")
    out.append("")
    rows = _cost_rows(view.costs)
    out += ["## Costs per agent", ""]
    if rows:
        # a server that reports its work (llama.cpp) adds the prompt tokens its cache served and the seconds of
        # prefill and generation (issue 30)
        timed = any(row.get("prefill_s") or row.get("generation_s") or row.get("cached_tokens") for _, row in rows)
        extra = " cached input tokens | prefill (s) | generation (s) |" if timed else ""
        out += [f"| agent | calls | input tokens | output tokens | cost (USD) |{extra}",
                "|---|---|---|---|---|" + ("---|---|---|" if timed else "")]
        for name, row in sorted(rows):
            usd = row.get("cost_usd")
            more = (f" {row.get('cached_tokens', 0)} | {row.get('prefill_s', 0):.1f} | {row.get('generation_s', 0):.1f} |"
                    if timed else "")
            out.append(f"| {name} | {row.get('calls', '')} | {row.get('input_tokens', '')} | "
                       f"{row.get('output_tokens', '')} | {'' if usd is None else f'{usd:.4f}'} |{more}")
    else:
        out.append("(no model calls recorded)")
    out += ["", "## Package versions", ""]
    versions = run.get("versions") or {}
    out.append(", ".join(f"{k} {v}" for k, v in versions.items()) or "(unknown)")
    out.append("")
    return "\n".join(out)
