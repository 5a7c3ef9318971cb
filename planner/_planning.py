"""Planning nodes: analyse the task, plan, review, (person) approval and replanning."""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from cmbagent.agents._schemas import PlanReview, ReplanDecision, TaskBrief
from cmbagent.planner._context import brief_text, clip, recent_text
from cmbagent.planner._plan import Plan, plan_problems
from cmbagent.planner._runtime import Runtime
from cmbagent.planner._state import RunState

__all__ = ["analyse", "approve", "plan", "replan", "review"]


def _methods() -> set[str]:
    from cmbagent.tools.methods import iter_methods

    return {spec.name for spec in iter_methods()}


def analyse(rt: Runtime, state: RunState) -> dict[str, Any]:
    task = state["task"]
    brief: TaskBrief = rt.ask(
        "task_analyst",
        [("Task", clip(task["text"], 6000)),
         ("Front matter", json.dumps(task.get("front_matter", {}), default=str)),
         ("Data files in the run folder", "\n".join(task.get("data_files", [])) or "(none)")],
        {"task": task},
    )
    data = brief.model_dump()
    # code, not the model, knows which files exist
    data["data_files"] = list(task.get("data_files", []))
    if task.get("method"):
        data["method"] = task["method"]
        data["arguments"] = {**task.get("arguments", {})}
    return {"brief": data, "next": "plan", "feedback": [], "review_round": 0}


def _validated(rt: Runtime, plan: Plan) -> list[str]:
    return plan_problems(
        plan, step_agents=rt.registry.step_agents(), methods=_methods(), max_steps=rt.settings.max_steps
    )


def plan(rt: Runtime, state: RunState) -> dict[str, Any]:
    """Ask the planner; validation errors go back to it (bounded), never crash the run."""
    feedback = list(state.get("feedback", []))
    previous = state.get("plan")
    proposal: Plan | None = None
    problems: list[str] = []
    for _ in range(rt.settings.max_plan_repairs + 1):
        sections = [("Task brief", brief_text(state["brief"]))]
        if previous:
            sections.append(("Previous plan", Plan.model_validate(previous).outline()))
        if feedback or problems:
            sections.append(("Change requests to address", "\n".join(f"- {c}" for c in feedback + problems)))
        proposal = rt.ask(
            "planner",
            sections,
            {"brief": state["brief"], "task": state["task"], "feedback": feedback + problems,
             "previous_plan": previous, "max_steps": rt.settings.max_steps},
        )
        problems = _validated(rt, proposal)
        if not problems:
            break
    if proposal is None or problems:
        return {"status": "failed", "stop_reason": "the planner could not produce a valid plan: " + "; ".join(problems),
                "next": "report"}
    version = state.get("plan_version", 0) + 1
    data = proposal.model_dump()
    rt.folder.write_plan(data, version)
    round_ = state.get("review_round", 0) + 1
    rt.events.emit("plan_proposed", plan=data, round=round_)
    nxt = "review" if rt.settings.n_reviews > 0 and state.get("review_round", 0) < rt.settings.n_reviews else "approve"
    return {"plan": data, "plan_version": version, "feedback": [], "next": nxt}


def review(rt: Runtime, state: RunState) -> dict[str, Any]:
    round_ = state.get("review_round", 0) + 1
    verdict: PlanReview = rt.ask(
        "plan_reviewer",
        [("Task brief", brief_text(state["brief"])),
         ("Proposed plan", clip(json.dumps(state["plan"], indent=1), 12000)),
         ("Review round", f"{round_} of {rt.settings.n_reviews}")],
        {"brief": state["brief"], "plan": state["plan"], "round": round_},
    )
    # code double-checks what code can check
    problems = _validated(rt, Plan.model_validate(state["plan"]))
    approved = verdict.approved and not problems
    comments = list(verdict.comments) + problems
    rt.events.emit("plan_reviewed", approved=approved, comments=comments, round=round_)
    if not approved and comments:  # the planner revises; `plan` decides whether another review round follows
        return {"review_round": round_, "feedback": comments, "next": "plan"}
    return {"review_round": round_, "next": "approve"}


def approve(rt: Runtime, state: RunState) -> dict[str, Any]:
    """Auto-approve, or stop for a person (LangGraph ``interrupt``; ``resume`` carries the decision)."""
    plan_data = state["plan"]
    if not rt.settings.approve_plan:
        rt.events.emit("plan_approved", plan=plan_data, by="auto", edited=False, comment="")
        return _start(plan_data)
    from langgraph.types import interrupt

    decision = interrupt({"kind": "plan_approval", "plan": plan_data, "run_dir": str(rt.folder.path)})
    action = (decision or {}).get("action", "approve")
    comment = str((decision or {}).get("comment", ""))
    if action == "reject":
        return {"feedback": [f"A person rejected the plan: {comment or 'no reason given'}"],
                "review_round": 0, "next": "plan"}
    edited = False
    if action == "edit" and decision.get("plan"):
        try:
            edited_plan = Plan.model_validate(decision["plan"])
        except ValidationError as exc:
            return {"feedback": [f"The person's edited plan was invalid ({exc.error_count()} errors); revise it"],
                    "review_round": 0, "next": "plan"}
        problems = _validated(rt, edited_plan)
        if problems:
            return {"feedback": ["The person's edited plan has problems: " + "; ".join(problems)],
                    "plan": edited_plan.model_dump(), "review_round": 0, "next": "plan"}
        plan_data = edited_plan.model_dump()
        version = state.get("plan_version", 0) + 1
        rt.folder.write_plan(plan_data, version)
        edited = True
        rt.events.emit("plan_approved", plan=plan_data, by="person", edited=True, comment=comment)
        return {**_start(plan_data), "plan": plan_data, "plan_version": version}
    rt.events.emit("plan_approved", plan=plan_data, by="person", edited=edited, comment=comment)
    return _start(plan_data)


def _start(plan_data: dict[str, Any]) -> dict[str, Any]:
    statuses = {step["id"]: "pending" for step in plan_data["steps"]}
    return {"statuses": statuses, "results": {}, "replans": 0, "step_index": 0, "next": "dispatch"}


def replan(rt: Runtime, state: RunState) -> dict[str, Any]:
    """A step failed or was rejected twice: revise the remaining steps or skip it; the run goes on."""
    current = state["current"]
    assert current is not None  # routing guarantees a current step here
    plan_obj = Plan.model_validate(state["plan"])
    statuses = dict(state["statuses"])
    results = dict(state.get("results", {}))
    reason = state.get("stop_reason") or "the step failed"
    replans = state.get("replans", 0) + 1
    record = dict(results.get(current, {}))
    record.update(status="failed", reason=reason)
    last = state.get("last") or {}
    parsed = last.get("parsed") or {}
    unaccepted = parsed.get("values") if isinstance(parsed.get("values"), dict) else parsed
    if unaccepted:  # numbers the critic did not accept stay visible in the report, marked as such
        record["unaccepted_values"] = unaccepted
        record["cell"] = last.get("cell")
    if replans > rt.settings.max_replans:
        statuses[current] = "failed"
        results[current] = record
        rt.step_finished(current, status="failed", summary=reason, values={})
        for sid, st in statuses.items():
            if st == "pending":
                statuses[sid] = "skipped"
                results[sid] = {"status": "skipped", "reason": "replan limit reached"}
        return {"statuses": statuses, "results": results, "replans": replans, "status": "failed",
                "stop_reason": f"replan limit ({rt.settings.max_replans}) reached; last failure: {reason}",
                "next": "report"}
    order = [s.id for s in plan_obj.steps]
    step = plan_obj.step(current)
    decision: ReplanDecision = rt.ask(
        "replanner",
        [("Task brief", brief_text(state["brief"])),
         ("Plan", plan_obj.outline(statuses)),
         ("Failed step", f"{step.id}: {step.title}\nGoal: {step.goal}"),
         ("Why it failed", clip(reason, 2500)),
         ("Recent steps", recent_text(plan_obj, results, current))],
        {"brief": state["brief"], "plan": state["plan"], "step": step.model_dump(), "reason": reason,
         "statuses": statuses, "used_ids": order},
    )
    new_ids: list[str] = []
    skipped: list[str] = []
    if decision.action == "revise" and decision.new_steps:
        tail = [s for s in plan_obj.steps[order.index(current) + 1:]]
        kept = plan_obj.steps[: order.index(current) + 1]
        candidate = Plan(steps=kept + list(decision.new_steps), rationale=plan_obj.rationale)
        problems = _validated(rt, candidate)
        reused = {s.id for s in decision.new_steps} & set(order)
        if reused:
            problems.append(f"new steps reuse ids {sorted(reused)}")
        if problems:
            decision = ReplanDecision(action="skip", reason=f"{decision.reason} (revision rejected: {'; '.join(problems)})")
        else:
            for old in tail:
                if statuses.get(old.id) == "pending":
                    statuses[old.id] = "skipped"
                    results[old.id] = {"status": "skipped", "reason": "replaced by the revised plan"}
                    skipped.append(old.id)
            # keep replaced steps visible in plan.json history, but the live plan holds kept + new
            plan_obj = candidate
            for s in decision.new_steps:
                statuses[s.id] = "pending"
                new_ids.append(s.id)
    status = "failed" if new_ids else "skipped"
    statuses[current] = status
    record.update(status=status, reason=f"{clip(reason, 600)} — replanner: {clip(decision.reason, 400)}")
    results[current] = record
    rt.step_finished(current, status=status, summary=record["reason"], values={})
    rt.events.emit("replanned", reason=decision.reason, skipped=[current, *skipped] if not new_ids else skipped,
                   new_steps=new_ids)
    update: dict[str, Any] = {"statuses": statuses, "results": results, "replans": replans, "current": None,
                              "stop_reason": "", "next": "dispatch"}
    if new_ids:
        version = state.get("plan_version", 0) + 1
        data = plan_obj.model_dump()
        rt.folder.write_plan(data, version)
        update.update(plan=data, plan_version=version)
    return update
