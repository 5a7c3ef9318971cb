"""The control loop's step nodes: dispatch, act (one attempt), critique, summarise.

Routing, retries, stall detection and bookkeeping are code; a model is asked only for judgements
(write code, fix code, choose method arguments, critique, decide retry/replan/skip, summarise).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

from cmbagent.agents._sanity import sanity_issues
from cmbagent.agents._schemas import (
    CodeDraft,
    CodeReview,
    ControlDecision,
    Critique,
    DebugFix,
    InstallAdvice,
    MethodCallDraft,
    StepSummary,
    TextAnswer,
)
from cmbagent.exceptions import UserError
from cmbagent.planner._context import (
    CODE_CHARS,
    brief_text,
    clip,
    head_tail,
    recent_text,
    step_text,
    values_text,
)
from cmbagent.planner._plan import Plan, PlanStep
from cmbagent.planner._runtime import Runtime
from cmbagent.planner._state import RunState
from cmbagent.run import write_json, write_text

__all__ = ["RESULT_BEGIN", "RESULT_END", "act", "critique", "dispatch", "method_cell", "parse_result", "summarise"]

RESULT_BEGIN = "<<<CMBAGENT_RESULT"
RESULT_END = "CMBAGENT_RESULT>>>"
_RESULT = re.compile(re.escape(RESULT_BEGIN) + r"\s*(.*?)\s*" + re.escape(RESULT_END), re.S)


def parse_result(stdout: str) -> dict[str, Any] | None:
    """The last JSON object printed between the result markers, or None."""
    matches = _RESULT.findall(stdout)
    for text in reversed(matches):
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def method_cell(name: str, arguments: dict[str, Any], result_path: str) -> str:
    """The cell that runs a method tool in the sandbox (rendered by code: formatting is not a judgement)."""
    args = json.dumps(json.dumps(arguments, sort_keys=True))
    return (
        "import json, pathlib\n"
        "from cmbagent.tools.methods import run_method\n\n"
        f"_result = run_method({name!r}, json.loads({args}))\n"
        f"pathlib.Path({result_path!r}).write_text(_result.to_json(indent=1))\n"
        "print(_result.summary)\n"
        "for _c in _result.checks:\n"
        "    print(f\"[{'pass' if _c.passed else 'FAIL'}] {_c.name}: {_c.message}\")\n"
        f"print({RESULT_BEGIN!r})\n"
        "print(json.dumps({'values': _result.values, 'artifacts': _result.artifacts,\n"
        "                  'checks': [c.model_dump() for c in _result.checks]}))\n"
        f"print({RESULT_END!r})\n"
    )


def _step(state: RunState) -> tuple[Plan, PlanStep]:
    plan = Plan.model_validate(state["plan"])
    current = state.get("current")
    assert current is not None  # routing guarantees it
    return plan, plan.step(current)


def _dir(state: RunState) -> str:
    return str(state["results"][str(state["current"])]["dir"])


def dispatch(rt: Runtime, state: RunState) -> dict[str, Any]:
    """Pick the next pending step (code, not a model); stop when none is left or a budget is spent."""
    if state.get("status", "running") != "running":
        return {"next": "report"}
    rt.client.check_budget()
    plan = Plan.model_validate(state["plan"])
    statuses = dict(state["statuses"])
    step = next((s for s in plan.steps if statuses.get(s.id) == "pending"), None)
    if step is None:
        results = state.get("results", {})
        done = [sid for sid, st in statuses.items() if st == "done"]
        # a step replaced by a revised plan is not a gap; a skipped or unreplaced failed step is
        gaps = [sid for sid, st in statuses.items() if st == "skipped"
                and not str(results.get(sid, {}).get("reason", "")).startswith("replaced")]
        status = "done" if done and not gaps else "failed"
        stop = "" if status == "done" else (
            f"step(s) {', '.join(gaps)} could not be completed" if gaps else "no step completed")
        return {"status": status, "stop_reason": stop, "current": None, "next": "report"}
    index = state.get("step_index", 0) + 1
    folder = rt.folder.step_dir(index, step)
    write_json(folder / "step.json", {**step.model_dump(), "index": index, "status": "running"})
    statuses[step.id] = "running"
    results = dict(state.get("results", {}))
    results[step.id] = {"index": index, "dir": rt.folder.rel(folder), "title": step.title, "status": "running"}
    rt.events.emit("step_started", step_id=step.id, title=step.title, agent=step.agent, attempt=1)
    return {"current": step.id, "step_index": index, "statuses": statuses, "results": results, "attempt": 1,
            "rejections": 0, "history": [], "last": {}, "issues": [], "next": "act"}


# -- one attempt ------------------------------------------------------------------------------------------
def _base_sections(state: RunState, plan: Plan, step: PlanStep) -> list[tuple[str, str]]:
    return [
        ("Task brief", brief_text(state["brief"])),
        ("Plan", plan.outline(state.get("statuses"))),
        ("Current step", step_text(step, folder=_dir(state))),
        ("Recent steps", recent_text(plan, state.get("results", {}), step.id)),
    ]


def _recent_values(plan: Plan, state: RunState, current: str) -> dict[str, Any]:
    """Values of the recent finished steps (bounded), for agents that interpret results."""
    results = state.get("results", {})
    order = [s.id for s in plan.steps]
    earlier = [sid for sid in order if sid in results and sid != current and order.index(sid) < order.index(current)]
    out = {}
    for sid in earlier[-3:]:
        record = results[sid]
        out[sid] = {"title": record.get("title"), "values": record.get("values", {}),
                    "checks": record.get("checks", []), "summary": record.get("summary", ""),
                    "method": record.get("method")}
    return out


def _meta(state: RunState, step: PlanStep, plan: Plan, **extra: Any) -> dict[str, Any]:
    return {"brief": state["brief"], "task": state["task"], "step": step.model_dump(), "step_dir": _dir(state),
            "attempt": state.get("attempt", 1), "issues": state.get("issues", []),
            "recent": _recent_values(plan, state, step.id), **extra}


def _write_code(rt: Runtime, state: RunState, plan: Plan, step: PlanStep) -> tuple[str | None, str]:
    """The code for this attempt: authored fresh, or fixed by the debugger after an error."""
    last = state.get("last") or {}
    sections = _base_sections(state, plan, step)
    if last.get("error"):
        advice = install_note = ""
        code = Path(rt.folder.path, last["cell"]).read_text(encoding="utf-8") if last.get("cell") else ""
        if last.get("error_name") in {"ModuleNotFoundError", "ImportError"}:
            module = _missing_module(last.get("error", ""))
            available = bool(module) and importlib.util.find_spec(module.split(".")[0]) is not None
            tip: InstallAdvice = rt.ask(
                "installer",
                [("Missing module", module or last["error"]), ("Importable here", str(available))],
                {"module": module, "available": available, "error": last["error"]},
            )
            advice = tip.advice + (" Alternatives: " + ", ".join(tip.alternatives) if tip.alternatives else "")
            if module and not available:
                installed, install_note = _install(rt, state, module, tip)
                if installed and code.strip():
                    return code, install_note  # the same cell again, now that the kernel can import the package
                advice = f"{advice} {install_note}".strip()
        fix: DebugFix = rt.ask(
            "debugger",
            [*sections[:1], sections[2],
             ("Latest code", clip(code, CODE_CHARS)),
             ("Error", clip(last["error"] + "\n" + (last.get("traceback") or ""), 3000)),
             ("Output (head and tail)", head_tail(last.get("output", ""))),
             ("Installer advice", advice)],
            _meta(state, step, plan, code=code, error=last["error"], error_name=last.get("error_name"),
                  traceback=last.get("traceback"), advice=advice),
        )
        if fix.give_up or not fix.code.strip():
            return None, f"debugger gave up: {fix.diagnosis}" + (f" ({install_note})" if install_note else "")
        return fix.code, fix.diagnosis
    issues = state.get("issues") or []
    if issues:
        sections.append(("The critic rejected the previous attempt; fix these", "\n".join(f"- {i}" for i in issues)))
    draft: CodeDraft = rt.ask(step.agent, sections, _meta(state, step, plan))
    return draft.code, draft.explanation


def _install(rt: Runtime, state: RunState, module: str, tip: InstallAdvice) -> tuple[bool, str]:
    """Act on the installer's proposal: install into the run's overlay when allowed, else say how to allow it.

    Returns (installed, note); the note goes to the debugger, and every decision is recorded in the step's
    step.json under ``installs`` (pip's output in outputs/install-attempt-N.txt).
    """
    from cmbagent.planner._install import OVERLAY, pip_install, safe_packages

    folder = Path(rt.folder.path, _dir(state))
    attempt = state.get("attempt", 1)
    accepted, refused = safe_packages(tip.packages)
    wanted = ", ".join(accepted) or module or "the missing package"
    entry: dict[str, Any] = {"attempt": attempt, "module": module, "proposed": list(tip.packages),
                             "packages": accepted, "refused": refused}
    step_json = folder / "step.json"
    record = json.loads(step_json.read_text(encoding="utf-8")) if step_json.is_file() else {}
    earlier = record.get("installs", [])
    installed = False
    if not rt.settings.allow_install:
        entry["status"] = "not_allowed"
        note = (f"Package {wanted} is missing from the run environment; installing is off. Rerun with "
                f"`cmbagent solve --allow-install` (or solve(..., allow_install=True)) to install it into this "
                f"run's overlay ({OVERLAY.as_posix()}), never the host environment; otherwise use an installed "
                "alternative.")
    elif not accepted:
        entry["status"] = "refused" if refused else "nothing_proposed"
        note = (f"No acceptable package to install for {module or 'the missing module'}"
                + (f" (refused unsafe names: {', '.join(refused)})" if refused else "") + "; use an installed alternative.")
    elif any(e.get("status") == "installed" and e.get("packages") == accepted for e in earlier):
        entry["status"] = "already_installed"
        note = (f"{wanted} was already installed into the run's overlay and {module} still fails to import; "
                "use an installed alternative or fix the import.")
    else:
        outcome = pip_install(accepted, rt.overlay)
        log = folder / "outputs" / f"install-attempt-{attempt}.txt"
        write_text(log, "$ " + " ".join(outcome.command) + "\n" + outcome.output)
        entry.update(status="installed" if outcome.ok else "failed", returncode=outcome.returncode,
                     duration_s=outcome.duration_s, output=rt.folder.rel(log))
        problem = rt.use_overlay() if outcome.ok else None
        installed = outcome.ok and problem is None
        if installed:
            note = f"Installed {wanted} into the run's overlay ({OVERLAY.as_posix()}); retrying the same cell."
        elif outcome.ok:
            entry["status"] = "overlay_failed"
            note = f"Installed {wanted}, but the kernel could not add the overlay to sys.path ({problem})."
        else:
            note = (f"pip could not install {wanted} into the run's overlay (exit {outcome.returncode}; see "
                    f"{rt.folder.rel(log)}); use an installed alternative.")
    entry["note"] = note
    write_json(step_json, {**record, "installs": [*earlier, entry]})
    return installed, note


def _missing_module(error: str) -> str:
    match = re.search(r"No module named '([^']+)'", error)
    return match.group(1) if match else ""


def _execute(rt: Runtime, state: RunState, step: PlanStep, code: str) -> dict[str, Any]:
    """Run one cell, save it and its output in the step folder, emit ``cell_executed``."""
    attempt = state.get("attempt", 1)
    folder = Path(rt.folder.path, _dir(state))
    cell_path = folder / "cells" / f"attempt-{attempt}.py"
    write_text(cell_path, code)
    code_hash = hashlib.sha256(code.strip().encode()).hexdigest()[:16]
    record: dict[str, Any]
    try:
        compile(code, str(cell_path), "exec")
    except SyntaxError as exc:
        record = {"status": "error", "error_name": "SyntaxError", "error": f"SyntaxError: {exc.msg} (line {exc.lineno})",
                  "traceback": "", "output": "", "images": [], "duration_s": 0.0}
    else:
        before = _figures(rt)
        result = rt.executor.execute(code, timeout=rt.settings.cell_timeout)
        made = sorted(rel for rel, stamp in _figures(rt).items() if before.get(rel) != stamp)
        error = None
        if not result.ok:
            error = f"{result.error_name or result.status}: {result.error_value or result.message}".strip()
        output = result.stdout.text + (("\n[stderr]\n" + result.stderr.text) if result.stderr.text.strip() else "")
        record = {"status": result.status, "error_name": result.error_name, "error": error,
                  "traceback": head_tail(result.traceback or "", 1500, 2500), "output": output,
                  "images": list(dict.fromkeys([rt.folder.rel(Path(rt.folder.path, p)) for p in result.images] + made)),
                  "duration_s": round(result.duration_s, 3)}
    output_text = str(record["output"])
    write_text(folder / "outputs" / f"attempt-{attempt}.txt",
               output_text + (f"\n[error]\n{record['error']}\n{record['traceback']}" if record["error"] else ""))
    parsed = parse_result(output_text) if record["status"] == "ok" else None
    record.update(cell=rt.folder.rel(cell_path), code_hash=code_hash, attempt=attempt, parsed=parsed)
    rt.events.emit("cell_executed", step_id=step.id, attempt=attempt, cell=record["cell"], status=record["status"],
                   duration_s=record["duration_s"], stdout_tail=output_text[-1500:], error=record["error"],
                   images=record["images"])
    return record


def _figures(rt: Runtime) -> dict[str, float]:
    """Image files under figures/ with their modification times (what a cell wrote shows up as a change)."""
    root = rt.folder.path / "figures"
    return {rt.folder.rel(p): p.stat().st_mtime for p in root.rglob("*")
            if p.suffix.lower() in {".png", ".jpg", ".jpeg", ".svg", ".pdf"}} if root.is_dir() else {}


def act(rt: Runtime, state: RunState) -> dict[str, Any]:
    """One attempt of the current step, dispatched by the step agent's role."""
    plan, step = _step(state)
    role = rt.registry.get(step.agent).role
    if role == "text":
        answer: TextAnswer = rt.ask(step.agent, _base_sections(state, plan, step), _meta(state, step, plan))
        path = Path(rt.folder.path, _dir(state), "outputs", "answer.md")
        write_text(path, answer.text.strip() + "\n")
        record: dict[str, Any] = {"status": "ok", "error": None, "output": answer.text, "cell": None, "answer": rt.folder.rel(path),
                  "key_points": answer.key_points, "parsed": {}, "images": [], "attempt": state.get("attempt", 1)}
        return {"last": record, "next": "critique"}
    if role == "method":
        record = _method_attempt(rt, state, plan, step)
    else:
        code, note = _write_code(rt, state, plan, step)
        if code is None:
            return {"stop_reason": f"step {step.id}: {note}", "next": "replan"}
        review: CodeReview = rt.ask(
            "code_reviewer",
            [("Current step", step_text(step, folder=_dir(state))), ("Cell", clip(code, CODE_CHARS))],
            _meta(state, step, plan, code=code),
        )
        if not review.approved and review.revised_code and review.revised_code.strip():
            code = review.revised_code
        record = _execute(rt, state, step, code)
    return _after_attempt(rt, state, step, record)


def _method_attempt(rt: Runtime, state: RunState, plan: Plan, step: PlanStep) -> dict[str, Any]:
    from cmbagent.tools.methods import get_method, validate_arguments

    last = state.get("last") or {}
    sections = _base_sections(state, plan, step)
    spec = get_method(step.method.name) if step.method else None
    if spec is not None:
        sections.append(("Method", clip(json.dumps(spec.describe(), default=str), 4000)))
    if last.get("error"):
        sections.append(("The previous call failed", clip(last["error"], 2000)))
    if state.get("issues"):
        sections.append(("The critic rejected the previous call", "\n".join(state.get("issues", []))))
    draft: MethodCallDraft = rt.ask(step.agent, sections, _meta(state, step, plan, previous_error=last.get("error")))
    result_rel = f"{_dir(state)}/outputs/result.json"
    arguments = dict(draft.arguments)
    try:
        method = get_method(draft.method)
        if "output_dir" in method.arguments and "output_dir" not in arguments:
            arguments["output_dir"] = f"figures/{Path(_dir(state)).name}"
        validate_arguments(draft.method, arguments)  # a mistake goes back to the method operator
    except UserError as exc:
        attempt = state.get("attempt", 1)
        record: dict[str, Any] = {"status": "error", "error_name": type(exc).__name__, "error": str(exc), "traceback": "", "output": "",
                  "images": [], "cell": None, "code_hash": f"args:{json.dumps(arguments, sort_keys=True, default=str)}",
                  "attempt": attempt, "parsed": None}
        rt.events.emit("cell_executed", step_id=step.id, attempt=attempt, cell=None, status="error", duration_s=0.0,
                       stdout_tail="", error=str(exc), images=[])
        return record
    full_arguments = validate_arguments(draft.method, arguments)
    record = _execute(rt, state, step, method_cell(draft.method, full_arguments, result_rel))
    record["method"] = draft.method
    result_file = Path(rt.folder.path, result_rel)
    if record["status"] == "ok" and result_file.is_file():
        full = json.loads(result_file.read_text(encoding="utf-8"))
        record["parsed"] = {"values": full.get("values", {}), "artifacts": full.get("artifacts", []),
                            "checks": full.get("checks", []), "diagnostics_keys": sorted(full.get("diagnostics", {}))}
        record["summary"] = full.get("summary", "")
        record["diagnostics"] = {k: v for k, v in full.get("diagnostics", {}).items()
                                 if isinstance(v, (int, float, str, bool))}
    return record


def _after_attempt(rt: Runtime, state: RunState, step: PlanStep, record: dict[str, Any]) -> dict[str, Any]:
    history = [*state.get("history", []), {"code_hash": record.get("code_hash"), "error": record.get("error")}]
    update: dict[str, Any] = {"last": record, "history": history}
    if record["status"] == "ok":
        return {**update, "next": "critique"}
    attempt = state.get("attempt", 1)
    stalled = len(history) >= 2 and (
        history[-1]["code_hash"] == history[-2]["code_hash"] or history[-1]["error"] == history[-2]["error"]
    )
    if attempt >= rt.settings.max_attempts or stalled:
        why = "the same code or error repeated" if stalled else f"{attempt} attempts used"
        return {**update, "stop_reason": f"step {step.id} failed ({why}): {record.get('error')}", "next": "replan"}
    rt.events.emit("step_started", step_id=step.id, title=step.title, agent=step.agent, attempt=attempt + 1)
    return {**update, "attempt": attempt + 1, "next": "act"}


# -- critique and summary ---------------------------------------------------------------------------------
def _values_of(record: dict[str, Any]) -> dict[str, Any]:
    parsed = record.get("parsed") or {}
    if record.get("method") or ("values" in parsed and isinstance(parsed.get("values"), dict)):
        return dict(parsed.get("values", {}))
    return dict(parsed)


def critique(rt: Runtime, state: RunState) -> dict[str, Any]:
    plan, step = _step(state)
    record = state["last"]
    values = _values_of(record)
    checks = (record.get("parsed") or {}).get("checks", [])
    sanity = sanity_issues(values, record.get("diagnostics"))
    if record.get("cell") is not None and record.get("parsed") is None:
        sanity.append(f"the cell printed no result JSON between {RESULT_BEGIN} and {RESULT_END}")
    findings = sanity + [f"method check {c['name']} failed: {c.get('message', '')}" for c in checks if not c.get("passed")]
    images = list(dict.fromkeys(list(record.get("images", [])) + [
        a for a in (record.get("parsed") or {}).get("artifacts", [])
        if str(a).lower().endswith((".png", ".jpg", ".jpeg", ".svg", ".pdf"))]))
    output = head_tail(record.get("output", ""))
    meta = _meta(state, step, plan, values=values, checks=checks, sanity=sanity, output=output,
                 method=record.get("method"), images=images, key_points=record.get("key_points", []))
    common = [("Current step", step_text(step, folder=_dir(state))),
              ("Output (head and tail)", output),
              ("Result values", values_text(values) if values else "(none)"),
              ("Method checks", "\n".join(f"[{'pass' if c.get('passed') else 'FAIL'}] {c.get('name')}: {c.get('message', '')}"
                                          for c in checks)),
              ("Sanity findings by code", "\n".join(f"- {f}" for f in findings) or "(none)")]
    verdicts: list[tuple[str, Critique]] = [("step_critic", rt.ask("step_critic", common, meta))]
    if record.get("method") and values:
        verdicts.append(("science_checker", rt.ask("science_checker", common, meta)))
    if images:
        sizes = []
        for rel in images:
            p = Path(rt.folder.path, rel)
            sizes.append(f"- {rel} ({p.stat().st_size if p.is_file() else 'missing'} bytes)")
        attach = [rel for rel in images if Path(rt.folder.path, rel).is_file()
                  and rel.lower().endswith((".png", ".jpg", ".jpeg"))][:4] if rt.settings.vision else None
        verdicts.append(("plot_critic", rt.ask("plot_critic", [common[0], ("Figures", "\n".join(sizes))], meta,
                                               images=attach)))
    accepted = all(v.accepted for _, v in verdicts)
    issues: list[str] = []
    for name, v in verdicts:
        for issue in v.issues:
            if issue not in issues and f"{name}: {issue}" not in issues and not any(issue in i for i in issues):
                issues.append(issue if issue in findings else f"{name}: {issue}")
    verdict = " ".join(dict.fromkeys(v.verdict for _, v in verdicts))
    folder = Path(rt.folder.path, _dir(state))
    write_json(folder / "critique.json", {"accepted": accepted, "attempt": state.get("attempt", 1),
                                          "sanity": findings, "critics": {n: v.model_dump() for n, v in verdicts}})
    rt.events.emit("step_critiqued", step_id=step.id, accepted=accepted, verdict=verdict, issues=issues)
    if accepted:
        return {"next": "summarise", "issues": []}
    rejections = state.get("rejections", 0) + 1
    attempt = state.get("attempt", 1)
    base = {"rejections": rejections, "issues": issues, "last": {**record, "error": None}}
    reason = f"step {step.id} rejected by its critic: " + "; ".join(issues or [verdict])
    if rejections >= rt.settings.max_rejections or attempt >= rt.settings.max_attempts:
        return {**base, "stop_reason": reason, "next": "replan"}
    decision: ControlDecision = rt.ask(
        "controller",
        [("Task brief", brief_text(state["brief"])), ("Plan", plan.outline(state.get("statuses"))),
         ("Current step", step_text(step)), ("Critic", verdict + "\n" + "\n".join(f"- {i}" for i in issues)),
         ("Attempts", f"attempt {attempt} of {rt.settings.max_attempts}")],
        _meta(state, step, plan, issues=issues, verdict=verdict, values=values),
    )
    if decision.action == "retry":
        rt.events.emit("step_started", step_id=step.id, title=step.title, agent=step.agent, attempt=attempt + 1)
        return {**base, "attempt": attempt + 1, "next": "act"}
    if decision.action == "skip":
        statuses = dict(state["statuses"])
        results = dict(state["results"])
        statuses[step.id] = "skipped"
        results[step.id] = {**results[step.id], "status": "skipped", "reason": f"{reason} — controller: {decision.reason}"}
        rt.step_finished(step.id, status="skipped", summary=results[step.id]["reason"], values={})
        return {**base, "statuses": statuses, "results": results, "current": None, "next": "dispatch"}
    return {**base, "stop_reason": f"{reason} — controller: {decision.reason}", "next": "replan"}


def summarise(rt: Runtime, state: RunState) -> dict[str, Any]:
    plan, step = _step(state)
    record = state["last"]
    values = _values_of(record)
    summary: StepSummary = rt.ask(
        "summariser",
        [("Current step", step_text(step, folder=_dir(state))),
         ("Result values", values_text(values) if values else "(none)"),
         ("Output (head and tail)", head_tail(record.get("output", ""), 1200, 1200))],
        _meta(state, step, plan, values=values, method=record.get("method"), method_summary=record.get("summary", ""),
              key_points=record.get("key_points", []), checks=(record.get("parsed") or {}).get("checks", [])),
    )
    folder = Path(rt.folder.path, _dir(state))
    write_text(folder / "summary.md", summary.summary.strip() + "\n")
    statuses = dict(state["statuses"])
    statuses[step.id] = "done"
    results = dict(state["results"])
    figures = list(dict.fromkeys(list(record.get("images", [])) + list((record.get("parsed") or {}).get("artifacts", []))))
    results[step.id] = {
        **results[step.id], "status": "done", "summary": summary.summary, "values": values,
        "key_values": summary.key_values, "cell": record.get("cell"), "answer": record.get("answer"),
        "figures": figures, "attempts": state.get("attempt", 1), "method": record.get("method"),
        "checks": (record.get("parsed") or {}).get("checks", []),
    }
    step_json = json.loads((folder / "step.json").read_text(encoding="utf-8"))
    write_json(folder / "step.json", {**step_json, "status": "done", "cell": record.get("cell"),
                                      "attempts": state.get("attempt", 1), "values": values})
    rt.step_finished(step.id, status="done", summary=summary.summary, values=values)
    return {"statuses": statuses, "results": results, "current": None, "next": "dispatch"}
