"""Planning nodes: analyse the task, plan, review, (person) approval and replanning."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from cmbagent.agents import (
    RECENT_STEPS,
    PlanContext,
    PlanReview,
    PlanReviewContext,
    RecentStep,
    ReplanContext,
    ReplanDecision,
    TaskContext,
    clip,
)
from cmbagent.audits import finding
from cmbagent.exceptions import OutputValidationError
from cmbagent.planner._findings import record_findings
from cmbagent.planner._runtime import Runtime
from cmbagent.planner._state import RunState, go
from cmbagent.report import write_requirements
from cmbagent.state import (
    Finding,
    MethodCall,
    Plan,
    PlanDraft,
    Requirement,
    RequirementCheck,
    RequirementList,
    RunStatus,
    Severity,
    SkipReason,
    StepDraft,
    StepRecord,
    StepStatus,
    TaskBrief,
    next_step_ids,
    plan_problems,
)

__all__ = ["analyse", "approve", "plan", "recent_steps", "replan", "review", "without_repeats"]

TASK_CHARS = 6000


def analyse(rt: Runtime, state: RunState) -> Any:
    """The task analyst restates the task and extracts its requirements; code adds what it knows for sure.

    Code reads the task first (:func:`cmbagent.agents.read_task`: the method by meaning, words and data, and
    its arguments from the prose and the data): the analyst is offered only the methods that fit (the task's
    own when its front matter names one), and its arguments are checked by the same reading — what code
    read surely wins over the analyst's, the front matter over both."""
    from cmbagent.agents import read_task, stated_requirements
    from cmbagent.inputs import profile_inputs

    task = state.task
    reading = rt.preflight.reads(task) if rt.preflight is not None else None
    if reading is not None:  # the task is read once a run: pre-flight's reading, of the same text and inputs
        profiles = list(rt.preflight.profiles)
    else:
        profiles = profile_inputs({rel: rt.folder.path / rel for rel in task.data_files})
        reading = read_task(text=task.text, title=task.title, method=task.method, arguments=task.arguments,
                            data_files=task.data_files, profiles=profiles)
    candidates = [task.method] if task.method else [c.method for c in reading.choice.top(3)]
    context = TaskContext(title=task.title, text=clip(task.text, TASK_CHARS), method=task.method,
                          arguments=task.arguments, front_matter=task.front_matter, data_files=task.data_files,
                          columns={p.name: p.column_names for p in profiles if p.column_names},
                          inputs=profiles, profiled=True,
                          candidates=[c.line() for c in reading.choice.top(3)] if not task.method else [])
    brief = rt.ask("task_analyst", context, TaskBrief, methods=candidates)
    # code, not the model, knows which files exist and which method the task names; the front matter's
    # arguments override what the analyst read from the text, which it keeps for the rest
    update: dict[str, Any] = {"data_files": list(task.data_files)}
    if task.title.strip():  # the task's own title (SmolLM2 retitled the JoLA task "What is a task, and what is its
        update["title"] = task.title  # purpose?", and the planner and the report carried it)
    if task.method:
        update.update(method=task.method, arguments={**brief.arguments, **task.arguments}
                      if brief.method in (None, task.method) else dict(task.arguments))
    notes: list[Finding] = []
    sure = reading.method if (not task.method and reading.choice.status == "chosen"
                              and reading.method in rt.method_names) else None
    if sure and brief.method is None:
        # a small model's analyst often names no method (SmolLM2 on every research task of the eval); code's
        # reading chose one surely, so the run uses it, with the arguments code read, and says so
        read_arguments = reading.understanding.arguments if reading.understanding is not None else {}
        update.update(method=sure, arguments={**brief.arguments, **read_arguments})
        notes.append(finding("task.method_from_reading", f"the task analyst named no method; code's reading chose "
                             f"{sure} ({reading.choice.candidates[0].line()})", method=sure))
    elif sure and brief.method != sure:
        notes.append(finding("task.method_disagrees", f"the task analyst chose {brief.method}; code's reading chose "
                             f"{reading.choice.candidates[0].line()}", method=brief.method, reading=sure))
    method = update.get("method", brief.method)
    read = read_in_text(task, method, context.columns, profiles, read=_read_for(reading, method)) \
        if method in rt.method_names else []
    stated = {r.argument: r.value for r in read if r.relation == "equals" and r.argument}
    if sure and method == sure and reading.clear and reading.understanding is not None:
        # a sure, complete reading is code's: its arguments are fixed like the front matter's (SmolLM2's plan
        # called the right method without the data file and with another prior range)
        stated = {**reading.understanding.arguments, **stated}
    if stated:  # what code read in the prose wins over the analyst's reading; the front matter over both
        update["arguments"] = {**update.get("arguments", brief.arguments), **stated, **task.arguments}
    kept, dropped = checkable(brief.requirements)
    rules = stated_requirements(task.text, list(task.data_files))
    # a second reading, on its own; a small model's list is sized by the files and numbers the rules found
    listed = rt.ask("requirements_analyst", context, RequirementList,
                    stated=sum(1 for r in rules if r.kind in ("file", "number")))
    # a small model's numbers count only where its quote is the task's words and writes the number (SmolLM2 listed
    # 19 quoting "1911", which the task never writes, and the run ended unmet on it)
    extra, disagreement = compare_lists(rules, listed, list(task.data_files),
                                        quoted=task.text if rt.compact("requirements_analyst") else None)
    update["requirements"] = _numbered(task, brief.model_copy(update={"requirements": kept}), read, rules + extra)
    brief = brief.model_copy(update=update)
    write_requirements(rt.folder, [RequirementCheck(requirement=r) for r in brief.requirements])
    notes += [finding(
        "task.requirements_dropped", f"code dropped {len(dropped)} item(s) of the task analyst's checklist that "
        f"say nothing to check: {'; '.join(dropped[:6])}" + (f"; and {len(dropped) - 6} more" if len(dropped) > 6
                                                             else ""), dropped=dropped)] if dropped else []
    if disagreement is not None:
        notes.append(disagreement)
    # what code's reading could not settle for the method this run uses (offline, pre-flight asked the person and
    # nothing ran; with a model, the analyst's arguments decide): every point is said, never dropped
    settling = reading.understanding if reading.method == brief.method else reading.alternatives.get(brief.method or "")
    unsettled: list[str] = []
    if settling is not None:
        unsettled = [*settling.missing, *settling.questions, *(reading.unread if reading.method == brief.method else [])]
    if not task.method and brief.method and reading.choice.status != "chosen":
        # the method itself: code's reading found none that fits, or could not tell between candidates, and the
        # analyst picked one (SmolLM2 chose the spiking-network regions for a therapy-hours question)
        what = "found no method that fits" if reading.choice.status == "none" else "could not tell which method fits"
        shown = "; ".join(c.line() for c in reading.choice.top(3)) or "no candidate"
        unsettled.insert(0, f"code's reading of the task {what} (best: {shown}); the task analyst chose "
                            f"{brief.method}")
    if unsettled:
        notes.append(finding(
            "task.reading_unsettled", f"code's reading of the task left {len(unsettled)} point(s) open that the "
            f"task analyst's choices now decide: " + "; ".join(clip(q, 200) for q in unsettled[:4])
            + (f"; and {len(unsettled) - 4} more" if len(unsettled) > 4 else ""),
            method=brief.method, questions=unsettled[:12],
            arguments={k: v for k, v in brief.arguments.items() if k != "output_dir"}))
    understood = reading.understanding
    if understood is not None and reading.method == brief.method:
        notes += [finding("task.assumed", f"{name}: {how}", argument=name, value=brief.arguments.get(name))
                  for name, how in understood.assumed.items() if brief.arguments.get(name) == understood.arguments.get(name)]
        notes += [finding("task.read_by_meaning", f"{name} = {brief.arguments.get(name)!r}: {how}", argument=name,
                          value=brief.arguments.get(name))
                  for name, how in understood.by_meaning.items() if brief.arguments.get(name) == understood.arguments.get(name)]
    rt.folder.update_run(understanding=_reading_record(reading, brief, unsettled))
    noted = record_findings(rt, state, notes) if notes else {}
    # plans may name only the method code chose surely and the run uses (as only the front matter's otherwise)
    pinned = [sure] if sure and brief.method == sure else candidates
    return go("plan", brief=brief, stated=stated, candidates=pinned, feedback=[], review_round=0, **noted)


def compare_lists(rules: list[Requirement], listed: RequirementList, files: list[str], *,
                  quoted: str | None = None) -> tuple[list[Requirement], Finding | None]:
    """The requirements agent's list against the rules': the settings only the agent lists become checklist items
    too (``source="model"``, checked like the rest), and every disagreement — a file in another role, a number
    one list has and the other does not — is one ``task.requirements_disagree`` finding (a warning when a file's
    role differs, else a note).  Items naming no file of the run, or no number, are not items.  With ``quoted``
    (the task's text, for a small model's list), a number is an item only where its quote is words of that text
    and writes the number (:func:`grounded_number`)."""
    by_name = {f.rsplit("/", 1)[-1]: f for f in files}
    rule_roles = {r.file: r.role for r in rules if r.kind == "file"}
    rule_numbers = {float(r.value) for r in rules if r.kind == "number" and isinstance(r.value, (int, float))}
    extra: list[Requirement] = []
    conflicts: list[str] = []
    differences: list[str] = []
    seen: set[float] = set()
    for item in listed.items:
        if item.kind == "file" and item.file and item.role:
            rel = by_name.get(item.file.rsplit("/", 1)[-1])
            if rel is not None and rule_roles.get(rel) not in (None, item.role):
                conflicts.append(f"{rel}: the agent reads it as the {item.role}, the rules as the {rule_roles[rel]} "
                                 f"(“{clip(item.quote, 80)}”)")
        elif item.kind == "number" and item.number is not None and item.number not in seen and (
                quoted is None or grounded_number(item.number, item.quote, quoted)):
            seen.add(item.number)
            if not any(abs(item.number - v) <= 1e-9 * max(1.0, abs(v)) for v in rule_numbers):
                differences.append(f"the agent lists {item.what or 'a setting'} {item.number:g} (“{clip(item.quote, 60)}”)"
                                   " that the rules do not")
                extra.append(Requirement(kind="number", text=clip(item.quote, 200), source="model",
                                         quantity=item.what or "setting", value=item.number))
    missed = sorted(v for v in rule_numbers if not any(abs(v - n) <= 1e-9 * max(1.0, abs(v)) for n in seen))
    if missed and listed.items:
        differences.append("the rules list " + ", ".join(f"{v:g}" for v in missed[:6]) + " that the agent does not")
    if not conflicts and not differences:
        return extra, None
    message = "the requirements agent and the checklist's rules read the task differently: " + "; ".join(
        [*conflicts, *differences][:6])
    return extra, finding("task.requirements_disagree", message, severity="warning" if conflicts else "note",
                          conflicts=conflicts, differences=differences)


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(%?)")


def grounded_number(number: float, quote: str, text: str) -> bool:
    """Whether ``quote`` is words of ``text`` (case and spacing aside) that write ``number`` (as a number of its own,
    or as a percentage of it: "5%" for 0.05)."""
    def norm(words: str) -> str:
        return " ".join(words.lower().split())

    if not quote.strip() or norm(quote) not in norm(text):
        return False
    for match in _NUMBER.finditer(quote):
        value = float(match.group(0).rstrip("%"))
        for candidate in (value, value / 100) if match.group(1) else (value,):
            if abs(candidate - number) <= 1e-9 * max(1.0, abs(number)):
                return True
    return False


def _reading_record(reading: Any, brief: TaskBrief, unsettled: list[str]) -> dict[str, Any]:
    """What code made of the task, for ``run.json`` (``understanding``): the method choice with its candidates
    and confidences, each argument's confidence and evidence (for the brief's method), and the points code's
    reading left open that the analyst's arguments decide (``open``; the plan then waits for a person, see
    :func:`approve`)."""
    record: dict[str, Any] = {"choice": reading.choice.to_dict(), "method": brief.method}
    if unsettled:
        record["open"] = [clip(q, 400) for q in unsettled[:12]]
        record["analyst_arguments"] = {k: v for k, v in brief.arguments.items() if k != "output_dir"}
    understood = reading.understanding
    if understood is not None and reading.method == brief.method:
        record["arguments"] = {name: {"value": understood.arguments.get(name),
                                      "confidence": round(understood.confidence.get(name, 0.0), 2),
                                      "evidence": understood.evidence.get(name, "")}
                               for name in understood.arguments}
        record.update(questions=list(understood.questions), unplaced=list(understood.unplaced),
                      assumed=dict(understood.assumed), by_meaning=dict(understood.by_meaning))
    return record


_NONE = re.compile(r"\b(none|null|no|without|not)\b", re.I)


def checkable(items: list[Requirement]) -> tuple[list[Requirement], list[str]]:
    """The analyst's requirements that say what to check, and a line for each one that does not: an argument
    item without the argument's name or a value (a null value counts when its quote says none, null, no, not or
    without), an output item without its kind, a value or difference without
    its quantity, a difference without its reference.  SmolLM2's analyst wrote four items "None = None" quoting
    ",0.3"; checked at the end, each became an error finding that said nothing about the run."""
    kept: list[Requirement] = []
    dropped: list[str] = []
    for item in items:
        if item.kind == "argument":  # a null value is one when the quote says so ("covariance: None")
            wrong = not (item.argument or "").strip() or (item.relation == "equals" and item.value is None and
                                                         not _NONE.search(item.text))
        else:
            wrong = item.output is None or (item.output in ("value", "abs_difference") and
                                            not (item.quantity or "").strip()) or \
                (item.output == "abs_difference" and item.reference is None)
        if wrong:
            dropped.append(f"{item.kind} {clip(item.label() if item.kind == 'argument' or item.output else '?', 60)!r}"
                           f" (quoting {clip(item.text, 40)!r})")
        else:
            kept.append(item)
    return kept, dropped


def _read_for(reading: Any, method: str | None) -> Any:
    """The reading's understanding of ``method`` (the chosen one's, or a leading alternative's), if it made one."""
    if method is None:
        return None
    return reading.understanding if reading.method == method else reading.alternatives.get(method)


def read_in_text(task: Any, method: str, columns: dict[str, list[str]], profiles: Any = None, *,
                 read: Any = None) -> list[Requirement]:
    """The method arguments the task's prose states, as code reads them (:func:`cmbagent.agents.understand_task`:
    "width 4 and depth 1", "a flat ΛCDM fit", "do not use `re74`"), whatever model runs: a small model's analyst
    may miss them, and nothing would check them.  The reader's mapping of input files onto file arguments is a
    default, not something the task states, and is left out.  ``read``: the task's reading of ``method`` with
    the same ``profiles`` (the run's one reading, :func:`analyse`), used instead of reading the text again."""
    from cmbagent.agents import understand_task
    from cmbagent.tools.methods import path_arguments

    files = set(path_arguments(method))
    understood = read if read is not None else understand_task(
        method, task.text, dict(task.arguments), list(task.data_files), columns=columns, profiles=profiles)
    return [r for r in understood.requirements if r.source == "text" and r.argument not in files]


def _numbered(task: Any, brief: TaskBrief, read: list[Requirement], stated: list[Requirement]) -> list[Requirement]:
    """The analyst's checklist with every front-matter argument and every argument code read in the text in it
    (code knows those for sure; its reading replaces the analyst's item for the same argument), numbered r1,
    r2, ... by code."""
    read_names = {r.argument for r in read}
    placed: set[str | None] = set()
    items: list[Requirement] = []
    for item in brief.requirements:
        if item.kind == "argument" and item.source == "text" and item.argument in read_names:
            if item.argument not in placed:  # in the analyst's place, in code's words
                placed.add(item.argument)
                items += [r for r in read if r.argument == item.argument]
            continue
        items.append(item)
    items += [r for r in read if r.argument not in placed]
    items += stated  # the checklist's own reading (rules), and what only the requirements agent lists
    given = {(r.argument, r.source) for r in items if r.kind == "argument"}
    for name, value in task.arguments.items():
        if name != "output_dir" and (name, "front_matter") not in given:
            items.append(Requirement(kind="argument", text=f"{name}: {value}", source="front_matter",
                                     method=task.method, argument=name, value=value))
    return [item.model_copy(update={"id": f"r{n}", "method": item.method or brief.method or task.method})
            for n, item in enumerate(items, 1)]


def without_repeats(draft: PlanDraft, fixed: Callable[[str], Mapping[str, Any]] = lambda method: {}) -> PlanDraft:
    """The draft without steps that repeat an earlier one: the same method call by the same agent, as it will
    run (``fixed(method)``: the arguments the task states, which code puts over the planned ones), or a step
    without a method under the same agent and title (SmolLM2 under a grammar wrote one fit four times; it
    planned three x-hacking audits that differed only in the label column the task fixes; on the 401(k) task
    it wrote ten ``ml_theorist`` steps titled as the task, with goals "n", "mjn-1" … "mjn-9", and two of them
    ran the run out of time)."""
    seen: set[str] = set()
    kept = []
    for step in draft.steps:
        if step.method is not None:
            call = {**step.method.arguments, **fixed(step.method.name)}
            key = json.dumps([step.agent, step.method.name, call], sort_keys=True, default=str)
        else:
            key = json.dumps([step.agent, " ".join(step.title.lower().split())])
        if key not in seen:
            seen.add(key)
            kept.append(step)
    return draft if len(kept) == len(draft.steps) else draft.model_copy(update={"steps": kept})


def aimless(step: StepDraft) -> bool:
    """A step without a method whose goal has no word in it, only identifiers, paths or fragments
    ("method_operator", "data/regression.csv", "output_file", "mjn-1", "n" — SmolLM2's goals for the code
    steps it added behind the method step); "Answer." is a goal."""
    words = [w.strip(".,;:!?()\"'") for w in step.goal.split()]
    return step.method is None and not any(len(w) >= 3 and w.isalpha() for w in words)


_LETTERS = re.compile(r"[^\W\d_]{2}")


def _tidied(step: StepDraft) -> StepDraft:
    """``step`` without the entries of its lists that have no two letters together, the criteria that are not
    :func:`_statement` s, and without repeats: SmolLM2 filled a method step's inputs and acceptance criteria with
    "2022-04-02T07:40:32.776938214886" four times, and a critic asked to judge that criterion wrote more of the
    same.  "chi2/dof < 2", "data/1.csv", "converged" and "Ωm in [0.2, 0.4]" are kept.  A title that is no
    statement ("max_operand") becomes the goal, and a method step's goal that is none the method's summary."""
    update: dict[str, Any] = {name: list(dict.fromkeys(t for t in getattr(step, name) if _LETTERS.search(t)))
                              for name in ("inputs", "expected_outputs")}
    update["acceptance_criteria"] = list(dict.fromkeys(t for t in step.acceptance_criteria if _statement(t)))
    said = _method_summary(step.method.name) if step.method else ""
    if said and not _statement(step.goal):  # a method step's goal "method_operator": what the method does
        update["goal"] = said
    if not _statement(step.title):  # "max_operand" (SmolLM2's title of the NTL step, in the plan and the report)
        goal = update.get("goal", step.goal)
        update["title"] = clip(goal if _statement(goal) else said or step.title, 120)
    changed = any(update[name] != getattr(step, name) for name in update)
    return step.model_copy(update=update) if changed else step


def _method_summary(name: str) -> str:
    from cmbagent.exceptions import UnknownMethodError
    from cmbagent.tools.methods import get_method

    try:
        return get_method(name).summary
    except UnknownMethodError:  # the plan's checks say so
        return ""


def _statement(text: str) -> bool:
    """Whether a criterion reads as a statement: a word in it, or letters and a space ("chi2/dof < 2"); not one
    run of characters such as "tst1_2007_10_01_2011_1_12" (SmolLM2's criteria, which its critic then judged)."""
    words = [w.strip(".,;:!?()[]\"'") for w in text.split()]
    return any(len(w) >= 2 and w.isalpha() for w in words) or (len(words) > 1 and bool(_LETTERS.search(text)))


_AIM_WORD = re.compile(r"[^\W\d_]{3,}")
#: words that say how, not what: a step that adds only these to a method step's aim adds nothing to do
_HOW_WORDS = frozenset({"the", "and", "for", "with", "from", "into", "using", "use", "run", "step", "method", "data",
                        "then", "this", "that", "its", "their", "our", "all", "each", "code", "python", "script"})


def _aim(step: StepDraft) -> set[str]:
    return {w.lower() for w in _AIM_WORD.findall(f"{step.title} {step.goal}")} - _HOW_WORDS


def restates(step: StepDraft, earlier: Sequence[StepDraft], code_agents: Collection[str]) -> bool:
    """A code step whose title and goal add no word to those of an earlier method step: it would compute again
    what the method step computes (SmolLM2 planned ``causal.value_of_prediction`` as "expand capacity or improve
    capacity model" and then a ``data_engineer`` step "improve capacity model", whose cells it could not write; the
    run ended failed on that step with every requirement met by the first).  A step with a word of its own ("plot",
    "residuals", "compare") does something else and is kept, and text steps are kept (they answer in words)."""
    if step.method is not None or step.agent not in code_agents:
        return False
    aim = _aim(step)
    return bool(aim) and any(e.method is not None and aim <= _aim(e) for e in earlier)


def without_aimless(draft: PlanDraft, code_agents: Collection[str] = ()) -> tuple[PlanDraft, list[str]]:
    """The draft without :func:`aimless` steps and code steps that :func:`restates` an earlier method step, and a
    line for each one dropped (title, agent and goal); the steps kept are :func:`_tidied`."""
    tidied = [_tidied(s) for s in draft.steps]
    if any(a is not b for a, b in zip(tidied, draft.steps, strict=True)):
        draft = draft.model_copy(update={"steps": tidied})
    steps = draft.steps
    gone = [aimless(s) or restates(s, steps[:n], code_agents) for n, s in enumerate(steps)]
    if not any(gone):
        return draft, []
    dropped = [f"{clip(s.title, 80)!r} ({s.agent}, goal {clip(s.goal, 60)!r}"
               + (", which an earlier method step's aim holds)" if not aimless(s) else ")")
               for s, g in zip(steps, gone, strict=True) if g]
    return draft.model_copy(update={"steps": [s for s, g in zip(steps, gone, strict=True) if not g]}), dropped


def aimless_finding(dropped: list[str], where: str) -> Finding:
    shown = "; ".join(dropped[:6]) + (f"; and {len(dropped) - 6} more" if len(dropped) > 6 else "")
    return finding("plan.aimless_steps", f"code dropped {len(dropped)} step(s) of the {where} whose goal has no "
                                         f"word in it or repeats a method step's: {shown}", dropped=dropped)


def plan_methods(rt: Runtime, state: RunState | None) -> list[str] | None:
    """The methods plans may name: the front matter's (:meth:`Runtime.plan_methods`), else the one method code's
    reading chose surely and the analysis kept (``state.candidates`` then holds only it), else any."""
    if state is None:
        return None
    named = rt.plan_methods(state.task)
    if named is None and len(state.candidates) == 1 and state.brief is not None \
            and state.brief.method == state.candidates[0] and state.candidates[0] in rt.method_names:
        return list(state.candidates)
    return named


def problems_of(rt: Runtime, plan: Plan, state: RunState | None = None) -> list[str]:
    named = plan_methods(rt, state)
    return plan_problems(plan, step_agents=rt.step_agents(), method_agents=rt.registry.step_agents("method"),
                         methods=set(rt.method_names), max_steps=rt.settings.max_steps,
                         required_method=named[0] if named else None)


def plan(rt: Runtime, state: RunState) -> Any:
    """Ask the planner; validation errors go back to it (bounded), never crash the run.  Code numbers the steps."""
    assert state.brief is not None  # analyse ran
    feedback = list(state.feedback)
    proposal: Plan | None = None
    problems: list[str] = []
    dropped: list[str] = []
    for _ in range(rt.settings.max_plan_repairs + 1):
        context = PlanContext(brief=state.brief, previous_plan=state.plan, requests=feedback + problems,
                              max_steps=rt.settings.max_steps, index=rt.index_description)
        try:
            draft = rt.ask("planner", context, PlanDraft, methods=plan_methods(rt, state))
            draft, dropped = without_aimless(draft, rt.registry.step_agents("code"))
            proposal = without_repeats(draft, state.fixed).numbered()
        except OutputValidationError as exc:
            proposal, problems = None, [f"the plan did not validate: {exc}"]
            continue
        problems = problems_of(rt, proposal, state)
        if not problems:
            break
    notes: list[Finding] = []
    if proposal is not None and problems and all(p.startswith("the task asks for the method ") for p in problems):
        # the planner would not call the method the task needs (a small model, repaired in vain): code adds the
        # step, with the arguments the analysis read, rather than fail a task whose method is known
        proposal, added = with_method_step(rt, state, proposal)
        problems = problems_of(rt, proposal, state)
        notes.append(finding("plan.method_step_added", f"the planner's plan called no {added} after "
                             f"{rt.settings.max_plan_repairs + 1} tries; code put a {added} step first", method=added))
    if proposal is None or problems:
        return go("report", status=RunStatus.FAILED,
                  stop_reason="the planner could not produce a valid plan: " + "; ".join(problems))
    version = state.plan_version + 1
    data = proposal.model_dump(mode="json")
    rt.folder.write_plan(data, version)
    rt.events.emit("plan_proposed", plan=data, round=state.review_round + 1)
    nxt = "review" if rt.settings.n_reviews > 0 and state.review_round < rt.settings.n_reviews else "approve"
    notes += [aimless_finding(dropped, "plan")] if dropped else []
    noted = record_findings(rt, state, notes) if notes else {}
    return go(nxt, plan=proposal, plan_version=version, feedback=[], **noted)


def with_method_step(rt: Runtime, state: RunState, proposal: Plan) -> tuple[Plan, str]:
    """``proposal`` with a first step that calls the method plans must name, with the brief's arguments when the
    brief names that method (else the front matter's)."""
    method = (plan_methods(rt, state) or [""])[0]
    brief = state.brief
    arguments = dict(brief.arguments) if brief is not None and brief.method == method else dict(state.task.arguments)
    agents = sorted(rt.registry.step_agents("method"))
    step = StepDraft(title=f"Run {method}", goal=f"Answer the task with {method} on the task's inputs.",
                     agent="method_operator" if "method_operator" in agents else agents[0],
                     method=MethodCall(name=method, arguments=arguments),
                     acceptance_criteria=[f"{method} ran and its result is reported"])
    draft = PlanDraft(steps=[step, *(s.draft() for s in proposal.steps)], rationale=proposal.rationale)
    return draft.numbered(), method


def review(rt: Runtime, state: RunState) -> Any:
    assert state.brief is not None and state.plan is not None  # planning ran
    round_ = state.review_round + 1
    verdict = rt.ask("plan_reviewer", PlanReviewContext(brief=state.brief, plan=state.plan, round=round_,
                                                        rounds=rt.settings.n_reviews), PlanReview)
    problems = problems_of(rt, state.plan, state)  # code double-checks what code can check
    approved = verdict.approved and not problems
    comments = list(verdict.comments) + problems
    rt.events.emit("plan_reviewed", approved=approved, comments=comments, round=round_)
    if not approved and comments:  # the planner revises; `plan` decides whether another review round follows
        return go("plan", review_round=round_, feedback=comments)
    return go("approve", review_round=round_)


def approve(rt: Runtime, state: RunState) -> Any:
    """Auto-approve, or stop for a person (LangGraph ``interrupt``; ``resume`` carries the decision).

    A plan whose method call rests on points code's reading of the task left open (``understanding.open``: an
    argument it could not find, a question, a number or file nothing took) waits for a person even without
    ``approve_plan``: with a model, the analyst's arguments decide those points, and a wrong guess must be a
    question, not a run (as offline, where pre-flight asks and nothing runs).  ``accept_analyst`` lets the
    analyst decide; the ``task.reading_unsettled`` warning says so either way."""
    assert state.plan is not None  # planning ran
    plan_data = state.plan.model_dump(mode="json")
    understanding = rt.folder.read_run().get("understanding") or {}  # the mapping the plan rests on
    held = bool(understanding.get("open")) and not rt.settings.accept_analyst and any(
        step.method is not None for step in state.plan.steps)
    if not rt.settings.approve_plan and not held:
        rt.events.emit("plan_approved", plan=plan_data, by="auto", edited=False, comment="")
        return _start(state.plan)
    from langgraph.types import interrupt

    if held:
        rt.events.emit("plan_held", open=list(understanding["open"]),
                       arguments=understanding.get("analyst_arguments") or {})
    decision = interrupt({"kind": "plan_approval", "plan": plan_data, "run_dir": str(rt.folder.path),
                          "understanding": understanding, "open": list(understanding.get("open") or [])}) or {}
    action = decision.get("action", "approve")
    comment = str(decision.get("comment", ""))
    if action == "reject":
        return go("plan", feedback=[f"A person rejected the plan: {comment or 'no reason given'}"], review_round=0)
    if action == "edit" and decision.get("plan"):
        try:
            edited = Plan.model_validate(decision["plan"])
        except ValidationError as exc:
            errors = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(plan)'}: {e['msg']}"
                               for e in exc.errors(include_url=False))
            return go("plan", feedback=[f"The person's edited plan was invalid ({errors}); revise it"], review_round=0)
        problems = problems_of(rt, edited, state)
        if problems:
            return go("plan", feedback=["The person's edited plan has problems: " + "; ".join(problems)],
                      plan=edited, review_round=0)
        version = state.plan_version + 1
        data = edited.model_dump(mode="json")
        rt.folder.write_plan(data, version)
        rt.events.emit("plan_approved", plan=data, by="person", edited=True, comment=comment)
        return _start(edited, plan_version=version)
    rt.events.emit("plan_approved", plan=plan_data, by="person", edited=False, comment=comment)
    return _start(state.plan)


def _start(plan: Plan, **extra: Any) -> Any:
    steps = {step.id: StepRecord(id=step.id, title=step.title) for step in plan.steps}
    return go("dispatch", plan=plan, steps=steps, replans=0, step_index=0, **extra)


def recent_steps(state: RunState, current: str | None) -> list[RecentStep]:
    """The last :data:`RECENT_STEPS` steps that ran (or were skipped) before ``current``, in plan order."""
    plan = state.plan
    if plan is None:
        return []
    order = plan.ids
    limit = order.index(current) if current in order else len(order)
    earlier = [sid for sid in order[:limit] if sid in state.steps
               and state.steps[sid].status is not StepStatus.PENDING and sid != current]
    out = []
    for sid in earlier[-RECENT_STEPS:]:
        record = state.steps[sid]
        out.append(RecentStep(id=sid, title=record.title, status=str(record.status), dir=record.dir or "",
                              summary=record.summary or record.reason, values=record.values, checks=record.checks,
                              method=record.method,
                              findings=[f"{f.code} ({f.severity})" for f in record.findings]))
    return out


def replan(rt: Runtime, state: RunState) -> Any:
    """A step failed or was rejected twice: revise the remaining steps or skip it; the run goes on."""
    plan_obj, step, record = state.current_step()
    assert state.brief is not None
    steps = dict(state.steps)
    reason = state.stop_reason or "the step failed"
    replans = state.replans + 1
    last = state.last
    record = record.model_copy(update={"status": StepStatus.FAILED, "reason": reason,
                                       "findings": last.findings if last is not None else record.findings})
    unaccepted = last.values if last is not None and last.result else {}
    if unaccepted:  # numbers the critic did not accept stay visible in the report, marked as such
        record = record.model_copy(update={"unaccepted_values": unaccepted, "cell": last.cell if last else None})
    if replans > rt.settings.max_replans:
        steps[step.id] = record
        _write(rt, plan_obj, record)
        rt.step_finished(step.id, status="failed", summary=reason, values={})
        for sid, other in list(steps.items()):
            if other.status is StepStatus.PENDING:
                steps[sid] = other.model_copy(update={"status": StepStatus.SKIPPED, "reason": "replan limit reached",
                                                      "skip_reason": SkipReason.REPLAN_LIMIT})
        return go("report", steps=steps, replans=replans, status=RunStatus.FAILED,
                  stop_reason=f"replan limit ({rt.settings.max_replans}) reached; last failure: {reason}")
    used = [*plan_obj.ids, *steps]
    context = ReplanContext(brief=state.brief, plan=plan_obj, statuses=state.statuses(), failed=step, reason=reason,
                            recent=recent_steps(state, step.id), new_ids=next_step_ids(used, 3))
    again = _invented_again(record, steps, step.id)
    if again:  # a replacement would be written by the same model with the same habit: no more rounds of it
        decision = ReplanDecision(action="skip", reason=again)
    else:
        try:
            decision = rt.ask("replanner", context, ReplanDecision, methods=plan_methods(rt, state))
        except OutputValidationError as exc:
            decision = ReplanDecision(action="skip", reason=f"the replanner's reply did not validate: {exc}")
    new_ids: list[str] = []
    skipped: list[str] = []
    dropped: list[str] = []
    if decision.action == "revise" and decision.new_steps:
        at = plan_obj.ids.index(step.id) + 1
        revision, dropped = without_aimless(PlanDraft(steps=list(decision.new_steps)))
        fresh = without_repeats(revision, state.fixed).numbered(used=used)
        candidate = Plan(steps=plan_obj.steps[:at] + fresh.steps, rationale=plan_obj.rationale)
        problems = problems_of(rt, candidate, state) if fresh.steps else ["none of its steps has a goal"]
        if problems:
            decision = ReplanDecision(action="skip", reason=f"{decision.reason} (revision rejected: {'; '.join(problems)})")
        else:
            for old in plan_obj.steps[at:]:
                if steps[old.id].status is StepStatus.PENDING:
                    steps[old.id] = steps[old.id].model_copy(update={
                        "status": StepStatus.SKIPPED, "reason": "replaced by the revised plan",
                        "skip_reason": SkipReason.REPLACED})
                    skipped.append(old.id)
            plan_obj = candidate  # replaced steps stay visible in plans/ history; the live plan holds kept + new
            for new in fresh.steps:
                steps[new.id] = StepRecord(id=new.id, title=new.title)
                new_ids.append(new.id)
    why = f"{clip(reason, 600)} — {'' if again else 'replanner: '}{clip(decision.reason, 400)}"
    if new_ids:
        record = record.model_copy(update={"reason": why})
    else:
        record = record.model_copy(update={"status": StepStatus.SKIPPED, "reason": why,
                                           "skip_reason": SkipReason.NARRATIVE if again else SkipReason.REPLANNER})
    steps[step.id] = record
    _write(rt, plan_obj, record, step)
    rt.step_finished(step.id, status=str(record.status), summary=why, values={})
    rt.events.emit("replanned", reason=decision.reason, skipped=[step.id, *skipped] if not new_ids else skipped,
                   new_steps=new_ids)
    update: dict[str, Any] = {"steps": steps, "replans": replans, "current": None, "stop_reason": ""}
    if new_ids:
        version = state.plan_version + 1
        rt.folder.write_plan(plan_obj.model_dump(mode="json"), version)
        update.update(plan=plan_obj, plan_version=version)
    if dropped:
        update.update(record_findings(rt, state, [aimless_finding(dropped, "revision")]))  # run-level: no steps
    return go("dispatch", **update)


_INVENTED = "report.unsupported_number"


def _invented_again(record: StepRecord, steps: Mapping[str, StepRecord], step_id: str) -> str:
    """Why a failed text step is dropped without another replan: its only errors are numbers no result holds
    (``report.unsupported_number``), and an earlier text step of the run already failed the same way. A small model
    asked to replace it writes another such step, and the rounds ran until the run's budget was gone (issue 30);
    the report states the results from the steps' values, so the narrative step is left out, not the run."""
    def invented_only(r: StepRecord) -> bool:
        errors = [f for f in r.findings if f.severity is Severity.ERROR]
        return r.cell is None and not r.method and bool(errors) and all(f.code == _INVENTED for f in errors)

    if not invented_only(record):
        return ""
    earlier = [sid for sid, r in steps.items() if sid != step_id and r.status in (StepStatus.FAILED, StepStatus.SKIPPED)
               and invented_only(r)]
    if not earlier:
        return ""
    return (f"code: the step's text stated numbers that no result holds, as step {earlier[0]}'s did; it is left out "
            "rather than replaced again, and the report states the results")


def _write(rt: Runtime, plan: Plan, record: StepRecord, step: Any = None) -> None:
    if record.dir is not None:
        rt.folder.files_of(record).write_step(step or plan.step(record.id), record)
