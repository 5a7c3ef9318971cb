"""The offline backend's rules: one per output schema, each reading the call's typed context."""

from __future__ import annotations

import re
from typing import Any

from cmbagent.agents._catalogue import fill_arguments, offline_plan
from cmbagent.agents._checklist import checklist, deliver_outputs
from cmbagent.agents._context import (
    AuditContext,
    CodeReviewContext,
    ControlContext,
    CritiqueContext,
    DebugContext,
    FigureContext,
    InstallContext,
    MethodContext,
    PlanContext,
    PlanReviewContext,
    ReplanContext,
    ReportContext,
    StepContext,
    SummaryContext,
    TaskContext,
    TextContext,
    clip_passage,
)
from cmbagent.agents._offline_code import inspect_code, plot_code
from cmbagent.agents._reading import read_task
from cmbagent.agents._rulebook import offline_rule
from cmbagent.agents._schemas import (
    CitedSpan,
    CodeDraft,
    CodeReview,
    ControlDecision,
    DebugFix,
    InstallAdvice,
    MethodCallDraft,
    PlanReview,
    ReplanDecision,
    StepSummary,
    TextAnswer,
)
from cmbagent.agents._stated import stated_requirements
from cmbagent.cells import method_cell
from cmbagent.exceptions import TaskError, TaskUnclear
from cmbagent.models import how_to_configure
from cmbagent.state import (
    IMAGE_SUFFIXES,
    AuditReport,
    CriterionResult,
    Critique,
    PlanDraft,
    ReportDraft,
    RequirementList,
    StatedItem,
    TaskBrief,
)

__all__: list[str] = []

_ALTERNATIVES = {"seaborn": ["matplotlib"], "lmfit": ["scipy.optimize"], "statsmodels": ["scipy.stats", "numpy"],
                 "sklearn": ["scipy", "numpy"], "tqdm": [], "numba": ["numpy"], "getdist": ["corner", "numpy"],
                 "camb": ["astropy.cosmology"], "pymc": ["emcee"], "dynesty": ["emcee"]}
_IMPORTS = {"np": "import numpy as np", "pd": "import pandas as pd", "plt": "import matplotlib.pyplot as plt",
            "json": "import json", "math": "import math", "os": "import os", "Path": "from pathlib import Path",
            "pathlib": "import pathlib", "scipy": "import scipy", "stats": "from scipy import stats",
            "emcee": "import emcee", "run_method": "from cmbagent.tools.methods import run_method"}
_PLOTTING = re.compile(r"\b(plot|figure|visuali[sz])", re.I)


def _fmt(value: Any) -> str:
    if isinstance(value, dict) and isinstance(value.get("mean"), (int, float)) and isinstance(value.get("std"), (int, float)):
        return f"{value['mean']:.4g} ± {value['std']:.2g}"
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in list(value.items())[:4]) + "}"
    return str(value)


def _numbers(values: dict[str, Any], limit: int = 8) -> list[str]:
    return [f"{k} = {_fmt(v)}" for k, v in list(values.items())[:limit] if not isinstance(v, list)]


# -- planning ---------------------------------------------------------------------------------------------
@offline_rule(TaskBrief)
def brief(ctx: TaskContext) -> TaskBrief:
    """The method the task means (by meaning, words and data), its arguments read from front matter, text and
    data, and the checklist; a task that is unclear (several methods fit, an argument could only be guessed,
    no method fits) raises :class:`TaskUnclear` with the question instead of running on a guess."""
    reading = read_task(text=ctx.text, title=ctx.title, method=ctx.method, arguments=dict(ctx.arguments),
                        data_files=list(ctx.data_files), profiles=list(ctx.inputs) if ctx.profiled else None,
                        columns=ctx.columns)
    if not reading.clear:
        raise TaskUnclear(reading.question(offline=True) + (how_to_configure() if reading.choice.status == "none"
                                                           else ""),
                          choices=reading.choices(), questions=reading.understanding.questions
                          if reading.understanding else [])
    method, understood = reading.method, reading.understanding
    if method is None or understood is None:  # a clear reading has both
        raise TaskError("the offline backend could not read this task; " + how_to_configure())
    text = ctx.text
    first = next((p.strip() for p in text.split("\n\n") if p.strip() and not p.lstrip().startswith("#")), text)
    if len(first) > 600:  # keep whole sentences
        first = first[:600].rsplit(". ", 1)[0] + "."
    return TaskBrief(title=ctx.title or method, objective=first[:600], domain=method.split(".")[0],
                     data_files=list(ctx.data_files), method=method, arguments=understood.arguments,
                     constraints=[*understood.notes, *understood.missing],
                     deliverables=["the method's values with uncertainties", "its checks", "its figures"],
                     requirements=checklist(understood, text))


@offline_rule(RequirementList)
def stated(ctx: TaskContext) -> RequirementList:
    """The requirements agent's list, by the checklist's own rules (so offline, the two lists agree)."""
    items = []
    for item in stated_requirements(ctx.text, list(ctx.data_files)):
        if item.kind == "file":
            items.append(StatedItem.model_validate({"kind": "file", "quote": item.text[:160], "file": item.file,
                                                    "role": item.role}))
        elif item.kind == "number" and isinstance(item.value, (int, float)):
            items.append(StatedItem(kind="number", quote=item.text[:160], number=float(item.value), what=item.quantity))
        elif item.kind == "word":
            items.append(StatedItem(kind="word", quote=str(item.value)[:160], what=item.quantity))
    return RequirementList(items=items[:12])


@offline_rule(PlanDraft)
def plan(ctx: PlanContext) -> PlanDraft:
    return offline_plan(ctx.brief, ctx.max_steps, literature=bool(ctx.index))


@offline_rule(PlanReview)
def review(ctx: PlanReviewContext) -> PlanReview:
    from cmbagent.agents._registry import load_registry
    from cmbagent.tools.methods import iter_methods

    agents = load_registry().step_agents()
    methods = {s.name for s in iter_methods()}
    comments = []
    for step in ctx.plan.steps:
        if step.agent not in agents:
            comments.append(f"{step.id}: agent {step.agent!r} is not in the roster")
        if step.method is not None and step.method.name not in methods:
            comments.append(f"{step.id}: method {step.method.name!r} is not registered")
    return PlanReview(approved=not comments, comments=comments)


@offline_rule(ControlDecision)
def control(ctx: ControlContext) -> ControlDecision:
    # the offline engineer is deterministic: retrying the same step would give the same result
    return ControlDecision(action="replan", reason="a deterministic backend cannot do better on a retry")


@offline_rule(ReplanDecision)
def replan(ctx: ReplanContext) -> ReplanDecision:
    return ReplanDecision(action="skip", reason="the offline backend has no alternative route for this step")


# -- code and method calls --------------------------------------------------------------------------------
@offline_rule(CodeDraft)
def code(ctx: StepContext) -> CodeDraft:
    """A method step gets the method cell; a plotting step plots earlier values; any other inspects the data."""
    step = ctx.step
    if step.method is not None:
        args = fill_arguments(step.method.name, "", dict(step.method.arguments), list(ctx.brief.data_files))
        return CodeDraft(code=method_cell(step.method.name, args, f"{ctx.folder}/outputs/result.json"),
                         explanation=f"calls {step.method.name}")
    if _PLOTTING.search(f"{step.title} {step.goal}"):
        values = {name: (value["mean"], value.get("std") or 0.0)
                  for recent in ctx.recent for name, value in recent.values.items()
                  if isinstance(value, dict) and isinstance(value.get("mean"), (int, float))}
        figure = f"figures/{ctx.folder.rsplit('/', 1)[-1]}-values.png"
        return CodeDraft(code=plot_code(values, figure), explanation="plots the recent values")
    paths = [p for p in step.inputs if str(p).startswith("data/")] or list(ctx.brief.data_files)
    return CodeDraft(code=inspect_code(paths), explanation="loads and describes the input files")


@offline_rule(CodeReview)
def code_review(ctx: CodeReviewContext) -> CodeReview:
    issues = []
    try:
        compile(ctx.code, "<cell>", "exec")
    except SyntaxError as exc:
        issues.append(f"syntax error on line {exc.lineno}: {exc.msg}")
    for pattern, why in ((r"\b(requests|urllib|socket|httpx)\b", "network access is not allowed"),
                         (r"pip\s+install", "installing packages is not allowed")):
        if re.search(pattern, ctx.code):
            issues.append(why)
    return CodeReview(approved=not issues, issues=issues)


@offline_rule(DebugFix)
def debug(ctx: DebugContext) -> DebugFix:
    error = ctx.error
    name = re.search(r"name '(\w+)' is not defined", error)
    if name and name.group(1) in _IMPORTS:
        line = _IMPORTS[name.group(1)]
        return DebugFix(diagnosis=f"{name.group(1)} is used before it is imported; add `{line}`.",
                        code=f"{line}\n{ctx.code}")
    module = re.search(r"No module named '([\w.]+)'", error)
    if module:
        return DebugFix(diagnosis=f"module {module.group(1)} is not installed and the offline backend cannot "
                                  "rewrite the code to avoid it", give_up=True)
    return DebugFix(diagnosis=f"the offline backend has no rule to fix {error.splitlines()[0][:200] if error else 'this error'}",
                    give_up=True)


@offline_rule(InstallAdvice)
def install(ctx: InstallContext) -> InstallAdvice:
    alternatives = _ALTERNATIVES.get(ctx.module.split(".")[0], [])
    advice = (f"{ctx.module} is importable; check the submodule name" if ctx.available else
              f"{ctx.module} is not installed; " + (f"use {', '.join(alternatives)} instead" if alternatives
                                                    else "rewrite the cell without it"))
    return InstallAdvice(module=ctx.module, available=ctx.available, alternatives=alternatives, advice=advice)


@offline_rule(MethodCallDraft)
def method_call(ctx: MethodContext) -> MethodCallDraft:
    call = ctx.step.method
    name = call.name if call is not None else ctx.brief.method
    if not name:
        raise TaskError("a method step without a method; " + how_to_configure())
    args = fill_arguments(name, ctx.task_text, dict(call.arguments) if call is not None else {},
                          list(ctx.brief.data_files))
    unknown = re.search(r"unknown argument\(s\) ([\w, ]+);", ctx.previous_error or "")
    if unknown:
        for bad in unknown.group(1).split(","):
            args.pop(bad.strip(), None)
    if ctx.seed is not None and "seed" not in args:
        args["seed"] = ctx.seed
    return MethodCallDraft(method=name, arguments=args, rationale="front matter, then values named in the task text")


# -- judging and writing ----------------------------------------------------------------------------------
@offline_rule(Critique)
def critique(ctx: CritiqueContext | FigureContext) -> Critique:
    """The findings decide, as they do for every critic: errors reject, warnings are caveats, notes are context."""
    errors = [f.line() for f in ctx.findings if f.severity == "error"]
    caveats = [f.line() for f in ctx.findings if f.severity == "warning"]
    if isinstance(ctx, FigureContext):
        odd = [f.path for f in ctx.figures if not f.path.lower().endswith(IMAGE_SUFFIXES)]
        issues = [f"{path} is not an image file" for path in odd] + errors
        verdict = (f"{len(ctx.figures)} figure(s) written" if not issues else "odd figure files") + (
            "; caveats: " + "; ".join(caveats) if caveats and not issues else "")
        return Critique(accepted=not issues, verdict=verdict, issues=issues)
    issues = list(errors)
    criteria = [CriterionResult(criterion=c, met=not issues, evidence="; ".join(_numbers(ctx.values, 4)) or "output")
                for c in ctx.step.acceptance_criteria]
    if not ctx.values and not ctx.key_points and not ctx.output:
        issues.append("the step produced no output to check")
    if issues:
        verdict = f"Rejected: {issues[0]}"
    elif caveats:
        verdict = "Accepted with caveats: " + "; ".join(caveats)
    else:
        verdict = "The step met its goal; its checks pass and the audits found no problem."
    return Critique(accepted=not issues, verdict=verdict, issues=issues, criteria=criteria)


def _quote(text: str) -> str | None:
    """The first whole sentence of a passage's prose (20-240 characters, within one paragraph, headings
    skipped), else its first ~160 characters: a span that is word for word in the passage."""
    for block in re.split(r"\n\s*\n", text):
        lines = [line for line in block.splitlines() if line.strip()]
        while lines and lines[0].lstrip().startswith("#"):
            lines = lines[1:]
        if any(line.lstrip().startswith("#") for line in lines):
            lines = lines[:next(i for i, line in enumerate(lines) if line.lstrip().startswith("#"))]
        for sentence in re.split(r"(?<=[.!?])\s+", " ".join(" ".join(lines).split())):
            sentence = sentence.strip().lstrip(">-* ").strip()
            if 20 <= len(sentence) <= 240:
                return sentence
    flat = " ".join(text.split())
    if len(flat) < 20:
        return None
    return flat[:160].rsplit(" ", 1)[0]


def _cited(ctx: StepContext, limit: int = 3) -> tuple[list[str], list[CitedSpan]]:
    """Bullets quoting the first retrieved passages word for word, each cited as [n]."""
    passages = ctx.passages if isinstance(ctx, TextContext) else []
    bullets: list[str] = []
    citations: list[CitedSpan] = []
    for passage in passages:
        quote = _quote(clip_passage(passage.text))
        if quote is None:
            continue
        citations.append(CitedSpan(chunk_id=passage.chunk_id, quote=quote))
        where = ", ".join(part for part in (passage.source, passage.locator) if part)
        bullets.append(f'- {where}: "{quote}" [{len(citations)}]')
        if len(citations) == limit:
            break
    return bullets, citations


@offline_rule(TextAnswer)
def text(ctx: StepContext) -> TextAnswer:
    """Restate the numbers of the recent steps (those that ran a method, when any did) and quote the first
    retrieved passages, cited; the offline backend does not interpret what they say."""
    recent = [r for r in ctx.recent if r.method] or list(ctx.recent)
    lines, points = [], []
    for record in recent:
        if not record.values:
            continue
        numbers = _numbers(record.values)
        failed = [c.name for c in record.checks if not c.passed]
        source = record.method or record.title or record.id
        if record.method and record.summary:
            lines.append(f"Step {record.id} ran {source}: {record.summary.strip()}")
        lines.append(f"Step {record.id} ({source}) found " + "; ".join(numbers) + ".")
        if record.checks:
            lines.append(f"{len(record.checks) - len(failed)} of {len(record.checks)} of the method's checks passed"
                         + (f" (failed: {', '.join(failed)})." if failed else "."))
        asked = deliver_outputs(ctx.brief.requirements, record.values)  # what the task asked to be reported
        lines += asked
        points += asked + numbers[:4]
    if not lines:
        lines.append("No earlier step produced numbers to interpret.")
    bullets, citations = _cited(ctx)
    if bullets:
        lines.append("Passages retrieved from the knowledge index for this step (quoted, not interpreted):\n"
                     + "\n".join(bullets))
    lines.append("These numbers come from the method as configured in the plan; the offline backend reports "
                 "them without further modelling, so assumptions of the method (its model, priors and data "
                 "cuts) carry over unchanged.")
    return TextAnswer(text="\n\n".join(lines), key_points=points, citations=citations)


@offline_rule(StepSummary)
def summary(ctx: SummaryContext) -> StepSummary:
    parts = [ctx.method_summary or f"{ctx.step.title or 'The step'} finished."]
    if ctx.values and not ctx.method_summary:
        parts.append("Values: " + "; ".join(_numbers(ctx.values)) + ".")
    if ctx.key_points:
        parts.append("Key points: " + "; ".join(ctx.key_points[:4]) + ".")
    key = {k: v for k, v in ctx.values.items() if not isinstance(v, list)}
    return StepSummary(summary=" ".join(parts)[:1500], key_values=dict(list(key.items())[:12]))


@offline_rule(ReportDraft)
def report(ctx: ReportContext) -> ReportDraft:
    numbers: list[str] = []
    conclusions: list[str] = []
    limitations: list[str] = []
    done_methods = [r for r in ctx.results if r.status == "done" and r.method]
    requirements = ctx.brief.requirements if ctx.brief else []
    # a parameter the audits found these data do not measure is stated as such, never as a value; what a prior
    # the task named does to a parameter is part of the answer too
    said = {str(f.evidence["parameter"]): str(f.evidence["answer"]) for f in ctx.findings
            if f.evidence.get("answer") and f.evidence.get("parameter") and not f.evidence.get("nuisance")}
    unmeasured = {str(f.evidence["parameter"]) for f in ctx.findings
                  if f.code in ("param.unconstrained", "param.degenerate") and f.evidence.get("parameter")}
    for record in ctx.results:
        if record.status == "done" and record.method:
            numbers += [said[k] if k in unmeasured and k in said else f"{k} = {_fmt(v)}"
                        for k, v in list(record.values.items())[:8] if not isinstance(v, list)]
            numbers += [said[k] for k in said if k not in unmeasured and k in record.values]
            conclusions += deliver_outputs(requirements, record.values)
            conclusions += [f"{c.name}: {'passed' if c.passed else 'FAILED'} — {c.message}" for c in record.checks]
        elif record.status in {"failed", "skipped"}:
            limitations.append(f"{record.id} {record.status}: {record.reason}")
    title = ((ctx.brief.title if ctx.brief else "") or ctx.title).rstrip(".")
    checks = [c for r in ctx.results if r.status == "done" for c in r.checks]
    text = f"{title}."
    if numbers:
        text += f" Result of {', '.join(sorted({str(r.method) for r in done_methods}))}: " + "; ".join(numbers) + "."
        if checks:
            text += f" {sum(1 for c in checks if c.passed)} of {len(checks)} of the method's own checks passed."
    else:
        text += f" The run ended with status '{ctx.status}' without method results."
    if ctx.references:
        cited = "".join(f"[{n}]" for n in range(1, min(len(ctx.references), 6) + 1))
        conclusions.insert(0, f"The steps cite {len(ctx.references)} passage(s) of the knowledge index {cited}; "
                           "see References.")
    notes = [f for f in ctx.findings if f.severity == "note" and f.code != "audit.failed"]
    warnings = [f for f in ctx.findings if f.severity == "warning"]
    errors = [f for f in ctx.findings if f.severity == "error"]
    conclusions += [f"{f.message[:1].upper()}{f.message[1:]} ({f.code}, {f.step_id or 'run'})." for f in notes]
    limitations += [f"Caveat ({f.code}, {f.step_id or 'run'}): {f.message}." + (f" To settle it: {f.settle}"
                                                                                 if f.settle else "")
                    for f in warnings]
    if errors or warnings:
        text += (f" The audits raised {len(errors)} error(s) and {len(warnings)} warning(s); see the Findings "
                 "section before using these numbers.")
    limitations.append("Written by the offline backend: the narrative restates the method's numbers and checks; "
                       "a language model (--model) would add scientific interpretation.")
    return ReportDraft(title=(ctx.brief.title if ctx.brief else "") or "Report", summary=text,
                       conclusions=conclusions[:16], limitations=limitations)


@offline_rule(AuditReport)
def audit(ctx: AuditContext) -> AuditReport:
    facts = ctx.facts
    findings = [f"{cell} uses randomness without a visible seed" for cell in facts.unseeded_cells]
    if not facts.notebook:
        findings.append("notebook.ipynb is missing; cells are still saved under steps/*/cells/")
    findings.append(f"{len(facts.inputs)} input file(s) copied with hashes; {len(facts.cells)} cell(s) saved")
    return AuditReport(reproducible=not facts.unseeded_cells and facts.notebook, findings=findings)
