"""How a step of each agent role makes one attempt: code, method and text steps behind one interface.

:class:`StepRole` is a template method (the idea of emcee's moves): :meth:`StepRole.act` is the same for
every role — build the call, make the attempt, route on its outcome with the shared retry and stall rules —
and :meth:`StepRole.attempt` is what differs.  A new step role is one subclass in :data:`ROLE_HANDLERS`.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cmbagent.agents import (
    CodeDraft,
    CodeReview,
    CodeReviewContext,
    DebugContext,
    DebugFix,
    InstallAdvice,
    InstallContext,
    MethodCallDraft,
    MethodContext,
    StepContext,
    TextAnswer,
    TextContext,
    clip,
    head_tail,
)
from cmbagent.cells import method_cell, parse_result
from cmbagent.exceptions import OutputValidationError, PathError, UserError
from cmbagent.paths import PathPolicy, read_beneath
from cmbagent.planner._planning import recent_steps
from cmbagent.planner._retrieval import with_package_docs
from cmbagent.planner._runtime import Runtime
from cmbagent.planner._state import RunState, go
from cmbagent.run import StepFiles
from cmbagent.sandbox import Heartbeat
from cmbagent.state import IMAGE_SUFFIXES, Attempt, InstallRecord, Plan, PlanStep, StepRecord

__all__ = ["ROLE_HANDLERS", "CodeRole", "MethodRole", "StepCall", "StepRole", "TextRole", "run_cell"]

TASK_CHARS = 4000


@dataclass
class StepCall:
    """One attempt's world: the services, the state, the step, its (updatable) record and its files."""

    rt: Runtime
    state: RunState
    plan: Plan
    step: PlanStep
    record: StepRecord
    files: StepFiles

    @property
    def number(self) -> int:
        return self.state.attempt

    def context(self) -> StepContext:
        assert self.state.brief is not None  # analysis ran before any step
        return StepContext(brief=self.state.brief, plan=self.plan, statuses=self.state.statuses(), step=self.step,
                           folder=self.files.rel, recent=recent_steps(self.state, self.step.id),
                           issues=list(self.state.issues))


@dataclass(frozen=True)
class GiveUp:
    """The role cannot make an attempt (the debugger gave up); the step goes to the replanner."""

    reason: str


class StepRole(ABC):
    """One attempt of a step whose agent has this role (see the module docstring)."""

    def act(self, rt: Runtime, state: RunState) -> Any:
        plan, step, record = state.current_step()
        call = StepCall(rt, state, plan, step, record, rt.folder.files_of(record))
        try:
            outcome = self.attempt(call)
        except OutputValidationError as exc:  # the agent's reply stayed invalid (or looped twice): a failed attempt
            outcome = Attempt(number=call.number, status="error", error_name=type(exc).__name__,
                              error=clip(str(exc), 600), code_hash=f"invalid:{call.step.agent}")
        changed: dict[str, Any] = {"steps": state.with_step(call.record)} if call.record != record else {}
        if isinstance(outcome, GiveUp):
            return go("replan", stop_reason=f"step {step.id}: {outcome.reason}", **changed)
        history = [*state.history, outcome.key]
        update = {"last": outcome, "history": history, **changed}
        if outcome.ok:
            return go("critique", **update)
        stalled = len(history) >= 2 and (
            history[-1].code_hash == history[-2].code_hash or history[-1].error == history[-2].error
        )
        if call.number >= rt.settings.max_attempts or stalled:
            why = "the same code or error repeated" if stalled else f"{call.number} attempts used"
            return go("replan", stop_reason=f"step {step.id} failed ({why}): {outcome.error}", **update)
        rt.events.emit("step_started", step_id=step.id, title=step.title, agent=step.agent, attempt=call.number + 1)
        return go("act", attempt=call.number + 1, **update)

    @abstractmethod
    def attempt(self, call: StepCall) -> Attempt | GiveUp:
        """Make one attempt at ``call.step`` and say what it gave."""


class TextRole(StepRole):
    """A researcher, domain expert or index searcher answers in prose (no cell runs).

    With a knowledge index, code retrieves passages for the step (more, and of the agent's kinds, for an
    agent with a search tool) and resolves the answer's citations; an answer whose citations do not resolve
    is an error attempt, so it goes back to the agent with the problems, within the step's attempts.
    """

    def attempt(self, call: StepCall) -> Attempt:
        from cmbagent.planner._retrieval import PASSAGES, SEARCH_PASSAGES, step_query

        rt, last = call.rt, call.state.last
        passages = []
        if rt.retriever is not None:
            kinds = rt.registry.get(call.step.agent).search_kinds
            passages = rt.retriever.passages(step_query(call.step, call.state.brief), kinds=kinds,
                                             k=SEARCH_PASSAGES if kinds else PASSAGES)
        context = TextContext(**dict(call.context()), passages=passages,
                              previous_error=last.error if last is not None else None)
        answer = rt.ask(call.step.agent, context, TextAnswer)
        citations, problems = ([], []) if rt.retriever is None else rt.retriever.check(answer.text, answer.citations)
        if problems:
            error = "the answer's citations do not resolve: " + "; ".join(problems)
            return Attempt(number=call.number, status="error", error_name="CitationError", error=error,
                           output=answer.text,
                           code_hash=f"answer:{hashlib.sha256(answer.text.encode()).hexdigest()[:16]}")
        text = answer.text
        if citations:  # the answer file carries its sources, so it reads on its own
            text += "\n\n## Sources\n\n" + "\n".join(
                f"[{n}] {c.source}{', ' + c.locator if c.locator else ''} (chunk {c.chunk_id}): \"{c.quote}\""
                for n, c in enumerate(citations, 1))
        rel = call.files.write_answer(text)
        return Attempt(number=call.number, status="ok", output=answer.text, answer=rel, key_points=answer.key_points,
                       result={}, citations=citations)


class CodeRole(StepRole):
    """An engineer writes a cell (or the debugger fixes the last one), the reviewer checks it, the sandbox runs it."""

    def attempt(self, call: StepCall) -> Attempt | GiveUp:
        code, note = _write_code(call)
        if code is None:
            return GiveUp(note)
        review = call.rt.ask("code_reviewer", CodeReviewContext(step=call.step, folder=call.files.rel, code=code),
                             CodeReview)
        if not review.approved and review.revised_code and review.revised_code.strip():
            code = review.revised_code
        return run_cell(call, code)


class MethodRole(StepRole):
    """A complete planned call runs as planned; otherwise the method operator chooses the method's arguments.
    Code renders and runs the method cell either way.

    A plan's method call was written by the planner and approved by the plan reviewer: asking a model to
    restate it only lets the call drift from what was reviewed (SmolLM2-135M, asked again, filled every
    optional argument it was shown with noise).  The method operator is asked when the planned call is
    incomplete or refused (it is told why) and after an attempt failed.
    """

    def attempt(self, call: StepCall) -> Attempt:
        rt, step, last = call.rt, call.step, call.state.last
        task = call.state.task
        # the arguments the task states (front matter, and numbers code read in its prose) are the task's, not
        # the model's: constants of the call's schema (a grammar writes them as given) and put back by code
        # whatever a model wrote
        fixed = call.state.fixed(step.method.name if step.method else None)
        refused = None
        if last is None and step.method is not None:
            planned = {**step.method.arguments, **fixed}
            try:
                full = _full_arguments(call, step.method.name, planned)
            except UserError as exc:
                refused = f"the planned call of {step.method.name} was refused: {exc}"
            else:  # only the validation is guarded: a failure of the run itself is the attempt's outcome
                return _with_choices(_run_method(call, step.method.name, full), call, step.method.name,
                                     step.method.arguments, fixed, "planner")
        elif last is not None and call.number == 2 and step.method is not None:
            retried = _without_culprit(call, step.method.name, {**step.method.arguments, **fixed}, fixed, last)
            if retried is not None:
                return retried
        from cmbagent.tools.methods import get_method

        described = get_method(step.method.name).describe() if step.method else {}
        context = MethodContext(**dict(call.context()), task_text=clip(task.text, TASK_CHARS), seed=task.seed,
                                method=described, previous_error=last.error if last is not None else refused)
        draft = rt.ask(step.agent, context, MethodCallDraft, fixed=fixed)
        arguments = {**draft.arguments, **fixed}
        try:
            full = _full_arguments(call, draft.method, arguments)
        except UserError as exc:  # a mistake goes back to the method operator
            rt.events.emit("cell_executed", step_id=step.id, attempt=call.number, cell=None, status="error",
                           duration_s=0.0, stdout_tail="", error=str(exc), images=[])
            return Attempt(number=call.number, status="error", error_name=type(exc).__name__, error=str(exc),
                           code_hash=f"args:{json.dumps(arguments, sort_keys=True, default=str)}")
        return _with_choices(_run_method(call, draft.method, full), call, draft.method, draft.arguments, fixed,
                             step.agent)


def _with_choices(attempt: Attempt, call: StepCall, name: str, written: Mapping[str, Any], fixed: Mapping[str, Any],
                  who: str) -> Attempt:
    """``attempt`` with a ``method.model_choices`` note when the model that wrote the call (``who``) set arguments
    the task does not state away from the method's defaults: the numbers depend on them, and a reader should see
    that they were a model's choice (SmolLM2's planner set the NTL task's ``n_layers`` to 1, the default 2; the
    report showed neither the call nor the choice).  Files and the output folder are not choices of this kind."""
    from cmbagent.audits import finding
    from cmbagent.planner._planning import read_in_text
    from cmbagent.tools.methods import get_method, path_arguments

    method = get_method(name)
    stated = {r.argument for r in read_in_text(call.state.task, name, {})}  # this method's, whichever the brief's
    skip = {"output_dir", *path_arguments(name), *fixed, *stated}
    chosen = {k: v for k, v in written.items() if k not in skip and k in method.arguments and
              (attempt.arguments or {}).get(k, v) == json.loads(json.dumps(v, default=str)) and
              "default" in method.arguments[k] and method.arguments[k]["default"] != v}
    if not chosen:
        return attempt
    shown = "; ".join(f"{k} = {v!r} (default {method.arguments[k]['default']!r})" for k, v in sorted(chosen.items()))
    note = finding("method.model_choices", f"{who} chose arguments of {name} that the task does not state: {shown}; "
                   f"the numbers depend on them", chosen=chosen, by=who)
    attempt.findings = [*attempt.findings, note.model_copy(update={"step_id": call.step.id, "cell": attempt.cell})]
    return attempt


def _without_culprit(call: StepCall, name: str, planned: dict[str, Any], fixed: dict[str, Any],
                     last: Attempt) -> Attempt | None:
    """The planned call once more, without the one optional argument the method refused by name ("test_fraction:
    must lie in [0.05, 0.9], got 1.0"), so its default applies -- code's repair of a planner's out-of-range
    choice (SmolLM2 planned 1.0; asked again, the method operator chose 1.5).  None when the refusal names no
    such argument, or it is one the task states.  A ``method.argument_defaulted`` note says what was dropped."""
    from cmbagent.tools.methods import get_method

    match = re.match(r"(?:\w+Error: )?(\w+): ", last.error or "")
    culprit = match.group(1) if match else None
    if culprit is None or culprit not in planned or culprit in fixed or culprit in get_method(name).required:
        return None
    try:
        full = _full_arguments(call, name, {k: v for k, v in planned.items() if k != culprit})
    except UserError:
        return None
    from cmbagent.audits import finding

    attempt = _with_choices(_run_method(call, name, full), call, name,
                            {k: v for k, v in planned.items() if k != culprit}, fixed, "planner")
    attempt.findings = [*attempt.findings, finding(
        "method.argument_defaulted", f"code ran {name} with {culprit} at its default: the planned {culprit} = "
        f"{planned[culprit]!r} was refused ({clip(last.error or '', 200)})", argument=culprit,
        planned=planned[culprit]).model_copy(update={"step_id": call.step.id, "cell": attempt.cell})]
    return attempt


def _full_arguments(call: StepCall, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """``arguments`` validated and completed: the step's figure folder as ``output_dir`` and the task's seed as
    ``seed`` where the method takes them and none is given; file arguments stay inside the run folder.
    Raises :class:`UserError` (an unknown method or argument, a missing one, a file outside the run)."""
    from cmbagent.tools.methods import get_method, validate_arguments

    method = get_method(name)
    arguments = dict(arguments)
    if "output_dir" in method.arguments and "output_dir" not in arguments:
        arguments["output_dir"] = call.files.figure_dir
    seed = call.state.task.seed
    if seed is not None and "seed" in method.arguments and "seed" not in arguments:
        arguments["seed"] = seed
    return validate_arguments(name, arguments, paths=PathPolicy.for_run(call.rt.folder.path))


def _run_method(call: StepCall, name: str, full: dict[str, Any]) -> Attempt:
    """Run method ``name`` with validated arguments ``full`` in a cell; the attempt carries its result."""
    rt = call.rt
    attempt = run_cell(call, method_cell(name, full, call.files.result_path))
    attempt.method = name
    attempt.arguments = json.loads(json.dumps(full, default=str))  # what the audits read (max_steps, files)
    raw = _read_run_file(rt, call.files.result_path) if attempt.ok else None
    if raw is not None:
        result = json.loads(raw)
        diagnostics = result.get("diagnostics", {})
        attempt.result = {"values": result.get("values", {}), "artifacts": result.get("artifacts", []),
                          "checks": result.get("checks", []), "diagnostics_keys": sorted(diagnostics)}
        attempt.summary = result.get("summary", "")
        attempt.diagnostics = {k: v for k, v in diagnostics.items() if isinstance(v, (int, float, str, bool))}
    return attempt


ROLE_HANDLERS: dict[str, StepRole] = {"code": CodeRole(), "method": MethodRole(), "text": TextRole()}


# -- running a cell ---------------------------------------------------------------------------------------
def run_cell(call: StepCall, code: str) -> Attempt:
    """Run one cell, save it and its output in the step folder, emit ``cell_executed``."""
    rt, number = call.rt, call.number
    cell = call.files.write_cell(number, code)
    attempt = Attempt(number=number, cell=cell, code_hash=hashlib.sha256(code.strip().encode()).hexdigest()[:16])
    try:
        compile(code, cell, "exec")
    except SyntaxError as exc:
        attempt.status, attempt.error_name = "error", "SyntaxError"
        attempt.error = f"SyntaxError: {exc.msg} (line {exc.lineno})"
    else:
        before = _figures(rt)

        def beat(elapsed: float, last_line: str) -> None:  # a long cell shows signs of life on the live view
            rt.events.emit("cell_heartbeat", step_id=call.step.id, attempt=number, elapsed_s=round(elapsed, 1),
                           last_line=last_line)

        result = rt.executor.execute(code, timeout=rt.settings.cell_timeout,
                                     heartbeat=Heartbeat(beat, every_s=rt.settings.heartbeat_s))
        made = sorted(rel for rel, stamp in _figures(rt).items() if before.get(rel) != stamp)
        attempt.status, attempt.error_name = result.status, result.error_name
        if not result.ok:
            attempt.error = f"{result.error_name or result.status}: {result.error_value or result.message}".strip()
        attempt.traceback = head_tail(result.traceback or "", 1500, 2500)
        attempt.output = result.stdout.text + (("\n[stderr]\n" + result.stderr.text) if result.stderr.text.strip() else "")
        attempt.images = list(dict.fromkeys([rt.folder.rel(Path(rt.folder.path, p)) for p in result.images] + made))
        attempt.duration_s = round(result.duration_s, 3)
    call.files.write_output(number, attempt.output + (f"\n[error]\n{attempt.error}\n{attempt.traceback}"
                                                      if attempt.error else ""))
    attempt.result = parse_result(attempt.output) if attempt.ok else None
    rt.events.emit("cell_executed", step_id=call.step.id, attempt=number, cell=cell, status=attempt.status,
                   duration_s=attempt.duration_s, stdout_tail=attempt.output[-1500:], error=attempt.error,
                   images=attempt.images)
    return attempt


def _figures(rt: Runtime) -> dict[str, float]:
    """Image files under figures/ with their modification times (what a cell wrote shows up as a change)."""
    root = rt.folder.path / "figures"
    return {rt.folder.rel(p): p.stat().st_mtime for p in root.rglob("*")
            if p.suffix.lower() in IMAGE_SUFFIXES} if root.is_dir() else {}


# -- writing and fixing code ------------------------------------------------------------------------------
def _write_code(call: StepCall) -> tuple[str | None, str]:
    """The code for this attempt: authored fresh, or fixed by the debugger after an error."""
    rt, last = call.rt, call.state.last
    if last is None or not last.error:
        draft = rt.ask(call.step.agent, with_package_docs(call, call.context()), CodeDraft)
        return draft.code, draft.explanation
    advice = install_note = ""
    code = (_read_run_file(rt, last.cell) or "") if last.cell else ""
    if last.error_name in {"ModuleNotFoundError", "ImportError"}:
        module = _missing_module(last.error)
        available = bool(module) and importlib.util.find_spec(module.split(".")[0]) is not None
        tip = rt.ask("installer", InstallContext(module=module, available=available, error=last.error), InstallAdvice)
        advice = tip.advice + (" Alternatives: " + ", ".join(tip.alternatives) if tip.alternatives else "")
        if module and not available:
            installed, install_note = _install(call, module, tip)
            if installed and code.strip():
                return code, install_note  # the same cell again, now that the kernel can import the package
            advice = f"{advice} {install_note}".strip()
    assert call.state.brief is not None  # analysis ran before any step
    # the debugger of a cell that imports an indexed package (camb, classy, ...) reads its documentation too
    context = with_package_docs(call, DebugContext(brief=call.state.brief, step=call.step, folder=call.files.rel,
                                                   code=code, error=last.error, error_name=last.error_name,
                                                   traceback=last.traceback, output=last.output, advice=advice))
    fix = rt.ask("debugger", context, DebugFix)
    if fix.give_up or not fix.code.strip():
        return None, f"debugger gave up: {fix.diagnosis}" + (f" ({install_note})" if install_note else "")
    return fix.code, fix.diagnosis


def _read_run_file(rt: Runtime, rel: str) -> str | None:
    """A file the run wrote (its cell, its method result), read through no link: the run's code can replace it
    with a link to a file of the host, which would then go to a model and into the transcript."""
    try:
        return read_beneath(rt.folder.path, rel).decode("utf-8", errors="replace")
    except (OSError, PathError):
        return None


def _missing_module(error: str) -> str:
    match = re.search(r"No module named '([^']+)'", error)
    return match.group(1) if match else ""


def _install(call: StepCall, module: str, tip: InstallAdvice) -> tuple[bool, str]:
    """Act on the installer's proposal: install into the run's overlay when allowed, else say how to allow it.

    Returns (installed, note); the note goes to the debugger, and every decision is recorded in the step's
    record (``step.json`` → ``installs``; pip's output in outputs/install-attempt-N.txt).
    """
    from cmbagent.planner._install import OVERLAY, pip_install, safe_packages

    rt = call.rt
    accepted, refused = safe_packages(tip.packages)
    wanted = ", ".join(accepted) or module or "the missing package"
    entry = InstallRecord(attempt=call.number, module=module, proposed=list(tip.packages), packages=accepted,
                          refused=refused)
    installed = False
    if not rt.settings.allow_install:
        entry.status = "not_allowed"
        note = (f"Package {wanted} is missing from the run environment; installing is off. Rerun with "
                f"`cmbagent solve --allow-install` (or solve(..., allow_install=True)) to install it into this "
                f"run's overlay ({OVERLAY.as_posix()}), never the host environment; otherwise use an installed "
                "alternative.")
    elif not accepted:
        entry.status = "refused" if refused else "nothing_proposed"
        note = (f"No acceptable package to install for {module or 'the missing module'}"
                + (f" (refused unsafe names: {', '.join(refused)})" if refused else "") + "; use an installed alternative.")
    elif any(e.status == "installed" and e.packages == accepted for e in call.record.installs):
        entry.status = "already_installed"
        note = (f"{wanted} was already installed into the run's overlay and {module} still fails to import; "
                "use an installed alternative or fix the import.")
    else:
        outcome = pip_install(accepted, rt.overlay, root=rt.folder.path)
        log = call.files.write_install_log(call.number, "$ " + " ".join(outcome.command) + "\n" + outcome.output)
        entry.status = "installed" if outcome.ok else "failed"
        entry.returncode, entry.duration_s, entry.output = outcome.returncode, outcome.duration_s, log
        problem = rt.use_overlay() if outcome.ok else None
        installed = outcome.ok and problem is None
        if installed:
            note = f"Installed {wanted} into the run's overlay ({OVERLAY.as_posix()}); retrying the same cell."
        elif outcome.ok:
            entry.status = "overlay_failed"
            note = f"Installed {wanted}, but the kernel could not add the overlay to sys.path ({problem})."
        else:
            note = (f"pip could not install {wanted} into the run's overlay (exit {outcome.returncode}; see "
                    f"{log}); use an installed alternative.")
    entry.note = note
    call.record = call.record.model_copy(update={"installs": [*call.record.installs, entry]})
    call.files.write_step(call.step, call.record)
    return installed, note
