"""The control loop's step nodes: dispatch, act (one attempt, by the agent's role), critique, summarise.

Routing, retries, stall detection and bookkeeping are code; a model is asked only for judgements
(write code, fix code, choose method arguments, critique, decide retry/replan/skip, summarise).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cmbagent.agents import (
    ControlContext,
    ControlDecision,
    CritiqueContext,
    FigureContext,
    FigureFile,
    StepSummary,
    SummaryContext,
    clip,
    head_tail,
)
from cmbagent.audits import (
    Grounds,
    audit_step,
    critic_findings,
    finding,
    step_evidence,
    summary_numbers,
    weigh_critics,
)
from cmbagent.exceptions import ConfigError, OutputValidationError, UserError
from cmbagent.paths import open_beneath
from cmbagent.planner._roles import ROLE_HANDLERS
from cmbagent.planner._runtime import Ask, Runtime
from cmbagent.planner._state import RunState, go
from cmbagent.state import Critique, CritiqueRecord, Finding, RunStatus, Severity, SkipReason, StepStatus

__all__ = ["act", "critique", "dispatch", "summarise"]

_VISION_SUFFIXES = (".png", ".jpg", ".jpeg")


def dispatch(rt: Runtime, state: RunState) -> Any:
    """Pick the next pending step (code, not a model); stop when none is left or a budget is spent."""
    if state.status is not RunStatus.RUNNING:
        return go("report")
    rt.client.check_budget()
    assert state.plan is not None  # approval ran
    step = next((s for s in state.plan.steps if state.steps[s.id].status is StepStatus.PENDING), None)
    if step is None:
        done = [r for r in state.steps.values() if r.status is StepStatus.DONE]
        gaps = [r.id for r in state.steps.values() if r.is_gap]
        status = RunStatus.DONE if done and not gaps else RunStatus.FAILED
        stop = "" if status is RunStatus.DONE else (
            f"step(s) {', '.join(gaps)} could not be completed" if gaps else "no step completed")
        return go("report", status=status, stop_reason=stop, current=None)
    index = state.step_index + 1
    files = rt.folder.step_files(index, step)
    record = state.steps[step.id].model_copy(update={"status": StepStatus.RUNNING, "index": index, "dir": files.rel})
    files.write_step(step, record)
    rt.events.emit("step_started", step_id=step.id, title=step.title, agent=step.agent, attempt=1)
    return go("act", current=step.id, step_index=index, steps=state.with_step(record), attempt=1, rejections=0,
              history=[], last=None, issues=[])


def act(rt: Runtime, state: RunState) -> Any:
    """One attempt of the current step, made by the handler of its agent's role."""
    _, step, _ = state.current_step()
    role = rt.registry.get(step.agent).role
    if role not in ROLE_HANDLERS:
        raise ConfigError(f"agent {step.agent!r} has role {role!r}, which no step handler serves; "
                          f"step roles are {', '.join(ROLE_HANDLERS)}")
    return ROLE_HANDLERS[role].act(rt, state)


def critique(rt: Runtime, state: RunState) -> Any:
    """Audit the attempt (code), ask the critics with the findings in their context, then decide by severity.

    The decision is code: the step is accepted when every critic accepts it and no finding -- the audits' or a
    critic's own -- is an error.  An error finding goes into the retry (or replan) context as an issue.
    """
    plan, step, record = state.current_step()
    attempt = state.last
    assert attempt is not None  # act ran
    files = rt.folder.files_of(record)
    values, checks = attempt.values, attempt.checks
    earlier = [r for r in state.started() if r.id != step.id and r.status is StepStatus.DONE]
    evidence = step_evidence(rt.folder.path, step=step, attempt=attempt, task=state.task, earlier=earlier,
                             result_path=files.result_path if attempt.method else None,
                             requirements=state.brief.requirements if state.brief is not None else ())
    findings = [*attempt.findings, *audit_step(evidence).findings]  # what code noted while acting, then the audits
    context = CritiqueContext(step=step, folder=files.rel, output=head_tail(attempt.output), values=values,
                              checks=checks, method=attempt.method, key_points=attempt.key_points, findings=findings)
    asks = [Ask("step_critic", context, Critique)]
    if attempt.method and values:
        asks.append(Ask("science_checker", context, Critique))
    images = attempt.figures
    attach: list[str] | None = None
    if images:
        figures = []
        for rel in images:
            path = Path(rt.folder.path, rel)
            figures.append(FigureFile(path=rel, bytes=path.stat().st_size if path.is_file() else None))
        attach = [f.path for f in figures if f.bytes is not None and _plain_file(rt.folder.path, f.path)
                  and f.path.lower().endswith(_VISION_SUFFIXES)][:4] if rt.vision else None
        shown = [f for f in findings if f.code.startswith("plot.")]
        asks.append(Ask("plot_critic", FigureContext(step=step, folder=files.rel, figures=figures, findings=shown),
                        Critique, images=attach))
    # the critics judge the same attempt independently: asked side by side where their models take it (a
    # llama.cpp server's slots); a critic whose reply stayed invalid gives no verdict, and says so
    verdicts: list[tuple[str, Critique]] = []
    silent: list[str] = []
    for asked, reply in zip(asks, rt.ask_many(asks), strict=True):
        if isinstance(reply, Critique):
            verdicts.append((asked.agent, reply))
        else:
            silent.append(f"{asked.agent} gave no usable verdict ({clip(str(reply), 200)})")
    raised: list[Finding] = []
    for name, v in verdicts:  # a critic may add findings of its own, in the same schema
        known = {f.key for f in [*findings, *raised]}
        raised += [f for f in critic_findings(name, v, step_id=step.id, cell=attempt.cell) if f.key not in known]
    set_aside: set[str] = set()
    if attempt.method:  # a method step's rejection must cite its result (cmbagent/audits/_critics.py)
        grounds = Grounds.of(values=values, checks=checks, findings=findings, figures=images,
                             method=attempt.method)
        set_aside, raised = weigh_critics(verdicts, raised, grounds, step_id=step.id, cell=attempt.cell,
                                          saw_images=bool(attach))
    elif attempt.cell is None and attempt.answer:  # a text step: a rejection must cite its words (issue 30)
        answer_file = Path(rt.folder.path, attempt.answer)
        grounds = Grounds.of_text(answer=answer_file.read_text(encoding="utf-8") if answer_file.is_file() else "",
                                  key_points=attempt.key_points, goal=f"{step.title} {step.goal}", findings=findings)
        set_aside, raised = weigh_critics(verdicts, raised, grounds, step_id=step.id, cell=None)
    findings += raised
    errors = [f for f in findings if f.severity is Severity.ERROR]
    acting = [(name, v) for name, v in verdicts if name not in set_aside]
    accepted = all(v.accepted for _, v in acting) and not errors
    issues: list[str] = [f.line() for f in errors]
    for name, v in acting:
        for issue in v.issues:
            if issue not in issues and f"{name}: {issue}" not in issues and not any(issue in i for i in issues):
                issues.append(f"{name}: {issue}")
    verdict = " ".join([*dict.fromkeys(v.verdict for _, v in acting), *silent]) or \
        "Accepted: no critic gave a reason to reject."
    if errors and all(v.accepted for _, v in acting):
        verdict = f"Rejected by code: {errors[0].code}. {verdict}"
    files.write_critique(CritiqueRecord(accepted=accepted, attempt=state.attempt, findings=findings,
                                        critics=dict(verdicts)))
    files.write_findings(findings)
    for item in findings:
        rt.events.emit("finding", attempt=state.attempt, **item.model_dump(mode="json"))
    rt.events.emit("step_critiqued", step_id=step.id, accepted=accepted, verdict=verdict, issues=issues)
    audited = attempt.model_copy(update={"findings": findings})
    if accepted:
        return go("summarise", issues=[], last=audited)
    rejections = state.rejections + 1
    base: dict[str, Any] = {"rejections": rejections, "issues": issues,
                            "last": audited.model_copy(update={"error": None})}
    reason = f"step {step.id} rejected by its critic: " + "; ".join(issues or [verdict])
    if rejections >= rt.settings.max_rejections or state.attempt >= rt.settings.max_attempts:
        return go("replan", stop_reason=reason, **base)
    assert state.brief is not None  # analysis ran
    try:
        decision = rt.ask("controller", ControlContext(
            brief=state.brief, plan=plan, statuses=state.statuses(), step=step, verdict=verdict, issues=issues,
            attempt=state.attempt, max_attempts=rt.settings.max_attempts), ControlDecision)
    except OutputValidationError as exc:  # no usable decision: the replanner decides with the reason
        decision = ControlDecision(action="replan", reason=f"the controller gave no usable decision ({clip(str(exc), 200)})")
    if decision.action == "retry":
        rt.events.emit("step_started", step_id=step.id, title=step.title, agent=step.agent, attempt=state.attempt + 1)
        return go("act", attempt=state.attempt + 1, **base)
    if decision.action == "skip":
        skipped = record.model_copy(update={"status": StepStatus.SKIPPED, "skip_reason": SkipReason.CONTROLLER,
                                            "reason": f"{reason} — controller: {decision.reason}",
                                            "findings": findings})
        files.write_step(step, skipped)
        rt.step_finished(step.id, status="skipped", summary=skipped.reason, values={})
        return go("dispatch", steps=state.with_step(skipped), current=None, **base)
    return go("replan", stop_reason=f"{reason} — controller: {decision.reason}", **base)


def _plain_file(run_dir: Path, rel: str) -> bool:
    """A regular file inside the run folder reached through no symlink (code may plant links to the host)."""
    try:
        os.close(open_beneath(run_dir, rel))
    except (OSError, UserError):
        return False
    return True


def summarise(rt: Runtime, state: RunState) -> Any:
    _, step, record = state.current_step()
    attempt = state.last
    assert attempt is not None  # act ran
    files = rt.folder.files_of(record)
    values = attempt.values
    context = SummaryContext(step=step, folder=files.rel, output=head_tail(attempt.output, 1200, 1200), values=values,
                             checks=attempt.checks, method=attempt.method, key_points=attempt.key_points,
                             method_summary=attempt.summary)
    try:
        summary = rt.ask("summariser", context, StepSummary)
    except OutputValidationError:  # no usable summary (it looped twice): code's, as for an invented number
        summary = StepSummary(summary=_code_summary(attempt.summary, values))
    # the summary is model text that the report and later audits lean on: its numbers must be the step's own
    earlier = [r for r in state.started() if r.id != step.id and r.status is StepStatus.DONE]
    invented = summary_numbers(summary.summary, values=[values, *(r.values for r in earlier)],
                               texts=[attempt.output, attempt.summary, attempt.answer or "", *attempt.key_points,
                                      *(c.message for c in attempt.checks), *(r.summary for r in earlier)],
                               task_text=state.task.text)
    findings = list(attempt.findings)
    if invented:
        summary = summary.model_copy(update={"summary": _code_summary(attempt.summary, values)})
        number, sentence = invented[0]
        findings.append(finding(
            "report.unsupported_number", f"the summariser's summary of this step stated {number}, which matches "
            f"no value or output of the step (“{sentence[:160]}”); it was replaced by one written by code",
            severity=Severity.WARNING, number=number, where="step summary",
            numbers=[n for n, _ in invented]).model_copy(update={"step_id": step.id, "cell": attempt.cell}))
        rt.events.emit("finding", attempt=state.attempt, **findings[-1].model_dump(mode="json"))
    elif attempt.method and values and summary.summary.strip() != (ours := _code_summary(attempt.summary, values)) \
            and not Grounds.of(values=values, checks=attempt.checks, findings=[], figures=attempt.images,
                               method=attempt.method).cites(summary.summary):
        # a method step's summary that names none of its values and writes none of its numbers says nothing of
        # it (SmolLM2: "This step summarizes the results. It includes an overview of the step ..."): code's
        findings.append(finding(
            "report.summary_replaced", f"the summariser's summary of this step named none of its values (“"
            f"{clip(summary.summary, 120)}”); it was replaced by the method's own",
            said=clip(summary.summary, 300)).model_copy(update={"step_id": step.id, "cell": attempt.cell}))
        summary = summary.model_copy(update={"summary": ours})
        rt.events.emit("finding", attempt=state.attempt, **findings[-1].model_dump(mode="json"))
    files.write_summary(summary.summary)
    done = record.model_copy(update={
        "status": StepStatus.DONE, "summary": summary.summary, "values": values, "key_values": summary.key_values,
        "cell": attempt.cell, "answer": attempt.answer, "figures": list(dict.fromkeys([*attempt.images,
                                                                                         *attempt.artifacts])),
        "attempts": state.attempt, "method": attempt.method, "arguments": attempt.arguments, "checks": attempt.checks,
        "findings": findings, "citations": attempt.citations,
    })
    files.write_step(step, done)
    rt.step_finished(step.id, status="done", summary=summary.summary, values=values)
    return go("dispatch", steps=state.with_step(done), current=None)


def _code_summary(method_summary: str, values: dict[str, Any]) -> str:
    """A step's summary written by code: the method's own summary, else its top-level values."""
    if method_summary.strip():
        return method_summary.strip()
    from cmbagent.report import format_value

    shown = [f"{name} = {format_value(value)}" for name, value in list(values.items())[:8]]
    return "The step finished" + (": " + "; ".join(shown) + "." if shown else ".")
