"""The offline backend's idea maker and idea hater: rules over the method catalogue and the task's data.

What a program can honestly propose without a language model is the space the catalogue spans around the
task: the task's own method with another value of a modelling choice (an enumerated or boolean argument),
and the other methods of its family whose required arguments the task gives by the same names.  What it can honestly judge
is feasibility (is the method registered, are its required arguments given, do the named files and
columns exist) and novelty relative to the task as posed.  Confounders are not judged; each critique says
so.  Ideas the critic rejects are replaced by the next candidates in the next round.
"""

from __future__ import annotations

import json
from typing import Any

from cmbagent.agents._catalogue import fill_arguments, match_method
from cmbagent.agents._ideas import IdeaBrief, IdeaContext
from cmbagent.agents._rulebook import offline_rule
from cmbagent.agents._schemas import Idea, IdeaCritique, IdeaReview, IdeaSet
from cmbagent.agents._understand import _choices as _enum
from cmbagent.agents._understand import _types
from cmbagent.exceptions import TaskError
from cmbagent.models import how_to_configure

__all__ = ["idea_candidates"]

#: arguments that do not change the science (file formats, where outputs go, seeds, sampler sizes)
_NOT_SCIENCE = {"format", "output_dir", "seed", "random_state", "n_jobs", "n_walkers", "max_steps", "n_folds", "n_rep"}
_NOT_JUDGED = ("not judged: the offline backend cannot weigh confounders; configure a language model "
               "(--model) for that")


def _base(brief: IdeaBrief) -> tuple[str, dict[str, Any]]:
    method = match_method(f"{brief.title}\n{brief.text}", brief.method)
    if method is None:
        raise TaskError("the offline backend could not map this task to a method tool, so it has no ideas to "
                        "build on; name one in the front matter (`method: family.name`), or " + how_to_configure())
    return method, fill_arguments(method, brief.text, dict(brief.arguments), brief.data_paths)


def _doc(spec: Any, name: str, limit: int = 220) -> str:
    doc = " ".join(str(spec.argument_docs.get(name, "")).split())
    return doc if len(doc) <= limit else doc[:limit].rsplit(" ", 1)[0] + " ..."


def idea_candidates(brief: IdeaBrief) -> list[Idea]:
    """Every idea the offline maker can build for ``brief``, best first (see the module docstring)."""
    from cmbagent.tools.methods import get_method, iter_methods, path_arguments

    method, base = _base(brief)
    spec = get_method(method)
    files = {arg for arg, kind in path_arguments(method).items() if kind == "input"}
    data = ", ".join(brief.data_paths) or "the task's data"
    out: list[Idea] = []
    for name, schema in spec.arguments.items():
        if name in _NOT_SCIENCE or name in files:
            continue
        current = base.get(name, schema.get("default"))
        values = [c for c in _enum(schema) if c not in {"auto", current}]
        if "boolean" in _types(schema) and isinstance(current, bool):
            values.append(not current)
        for value in values:
            args = {**base, name: value}
            out.append(Idea(
                title=f"{method} with {name} = {value}",
                question=f"Does the task's result change when {name} is {value!r} instead of {current!r}?",
                hypothesis="",
                method=method, arguments=args,
                approach=(f"Run {method} on {data} as the task does, with {name} = {value!r} ({_doc(spec, name)}). "
                          "Compare its values and checks with the run as posed."),
                risks=[f"{name} = {value!r} changes what the numbers mean: compare them with the task's result only "
                   "where both runs define them"],
            ))
    family = method.split(".")[0]
    # another family's method answers another kind of question: only the task's own family is proposed
    others = sorted((s for s in iter_methods() if s.name != method and s.family == family), key=lambda s: s.name)
    for other in others:
        # only arguments the task itself gives, by the same name: a guess (a supernova table as an MCMC
        # chain) would look feasible to every check code can make
        args = {k: v for k, v in base.items() if k in other.arguments and k not in _NOT_SCIENCE}
        if not other.required or not all(r in args for r in other.required):
            continue
        out.append(Idea(
            title=f"Apply {other.name} to the same data",
            question=f"What does {other.name} find on {data}? ({other.summary})",
            hypothesis="",
            method=other.name, arguments=args,
            approach=f"Run {other.name} with the arguments the task gives by the same names "
                     f"({', '.join(sorted(args))}) and set its result beside the task's own {method} result.",
            risks=[f"{other.name} was written for its own paper's data; its assumptions may not hold here"],
        ))
    return out


def _key(idea: Idea) -> str:
    return json.dumps([idea.method, idea.arguments], sort_keys=True, default=str)


@offline_rule(IdeaSet)
def make_ideas(ctx: IdeaContext) -> IdeaSet:
    """Propose the first ``n_ideas`` candidates; in later rounds replace those the review did not keep."""
    n = ctx.brief.n_ideas
    candidates = idea_candidates(ctx.brief)
    if ctx.ideas is None or ctx.review is None:
        return IdeaSet(ideas=candidates[:n])
    verdicts = {c.idea: c for c in ctx.review.critiques}
    kept = [idea for i, idea in enumerate(ctx.ideas.ideas, 1) if i in verdicts and verdicts[i].keep]
    dropped = [(i, idea) for i, idea in enumerate(ctx.ideas.ideas, 1) if not (i in verdicts and verdicts[i].keep)]
    seen = {_key(idea) for idea in ctx.ideas.ideas}
    fresh = [c for c in candidates if _key(c) not in seen][: max(0, n - len(kept))]
    notes = "; ".join(f"dropped idea {i} ({idea.title}): {verdicts[i].verdict if i in verdicts else 'not reviewed'}"
                      for i, idea in dropped)
    notes = (notes + f"; added {len(fresh)} new candidate(s) from the catalogue") if dropped else \
        "every idea was kept; nothing to revise"
    return IdeaSet(ideas=[*kept, *fresh], notes=notes)


@offline_rule(IdeaReview)
def review_ideas(ctx: IdeaContext) -> IdeaReview:
    """Judge feasibility and novelty of each idea of the latest set by facts code can check."""
    from cmbagent.tools.methods import get_method, iter_methods, path_arguments

    if ctx.ideas is None:
        raise TaskError("the idea hater was called before any idea was proposed (the team's order is wrong)")
    registered = {s.name for s in iter_methods()}
    method, base = _base(ctx.brief)
    columns = {f.path: set(f.columns) for f in ctx.brief.data}
    critiques: list[IdeaCritique] = []
    seen: set[str] = set()
    for number, idea in enumerate(ctx.ideas.ideas, 1):
        problems: list[str] = []
        if idea.method not in registered:
            problems.append(f"method {idea.method!r} is not registered")
            spec = None
        else:
            spec = get_method(idea.method)
            problems += [f"required argument {r!r} is missing" for r in spec.required if r not in idea.arguments]
            named = set()
            paths = path_arguments(idea.method)
            for arg, kind in paths.items():
                value = idea.arguments.get(arg)
                if kind == "input" and isinstance(value, str):
                    if value not in columns:
                        problems.append(f"{arg} = {value!r} is not one of the task's data files")
                    named.add(value)
            known = set().union(*(columns[f] for f in named if columns.get(f)))
            for arg, value in idea.arguments.items():
                if known and arg not in paths and "column" in _doc(spec, arg).lower():
                    missing = [v for v in ([value] if isinstance(value, str) else value if isinstance(value, list) else [])
                               if isinstance(v, str) and v not in known]
                    problems += [f"{arg}: column {v!r} is not in the data" for v in missing]
        changed = sorted(k for k, v in idea.arguments.items() if k not in _NOT_SCIENCE and base.get(k) != v)
        if idea.method != method:
            novelty, what = 4, f"uses {idea.method} instead of the task's {method}"
        elif changed:
            novelty, what = (3 if len(changed) == 1 else 4), "changes " + ", ".join(
                f"{k} to {idea.arguments[k]!r}" for k in changed) + " relative to the task as posed"
        else:
            novelty, what = 1, "repeats the task as posed"
        if _key(idea) in seen:
            novelty, what = 1, "duplicates an earlier idea of this set"
        seen.add(_key(idea))
        other = spec is not None and idea.method != method
        feasibility = 1 if spec is None else 2 if problems else 4 if other else 5
        keep = feasibility >= 3 and novelty >= 2
        verdict = (f"Not feasible as written: {'; '.join(problems)}." if problems
                   else f"Feasible with the task's data; it {what}.")
        if other and not problems:
            problems.append(f"{idea.method}'s conditions beyond its required arguments (options it needs together) "
                            "are checked only when it runs")
        if problems and novelty >= 2:
            verdict += f" It {what}."
        critiques.append(IdeaCritique(
            idea=number, novelty=novelty, feasibility=feasibility, confounders=[_NOT_JUDGED],
            failure_modes=[*problems, "the method's own checks (convergence, validity) decide whether its numbers "
                                      "can be trusted"],
            verdict=verdict, keep=keep))
    kept = sum(c.keep for c in critiques)
    return IdeaReview(critiques=critiques, satisfied=kept == len(critiques),
                      summary=f"{kept} of {len(critiques)} idea(s) are feasible with the task's data and new "
                              "relative to the task as posed (judged by code: registration, arguments, files and "
                              "columns; confounders are not judged offline).")
