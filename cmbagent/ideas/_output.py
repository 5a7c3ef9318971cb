"""What an idea run leaves behind: the ranking (by code, from the hater's last review), ``ideas.json``,
``ideas.md`` and, on request, one runnable ``task.md`` per selected idea."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from cmbagent.agents import Idea, IdeaCritique, IdeaReview, IdeaSet
from cmbagent.paths import copy_file
from cmbagent.run import write_json, write_text
from cmbagent.state import slugify

__all__ = ["RankedIdea", "Round", "final_pair", "rank_ideas", "render_ideas_md", "write_idea_task", "write_ideas_json",
           "write_tasks"]


class Round(BaseModel):
    """One message of the team: who spoke in which round, and what (an idea set or a review)."""

    round: int
    agent: str
    ideas: IdeaSet | None = None
    review: IdeaReview | None = None


class RankedIdea(BaseModel):
    """An idea of the final set with its place, its critique and why it is placed there."""

    rank: int
    idea: Idea
    critique: IdeaCritique | None = None
    score: int = 0  # novelty + feasibility of the last review (0: not reviewed)
    selected: bool = False  # kept by the last review and naming a registered method
    reasons: str = ""
    task_file: str | None = None


def final_pair(rounds: list[Round]) -> tuple[IdeaSet | None, IdeaReview | None]:
    """The last review and the idea set it reviewed (or the last set, unreviewed, when none was)."""
    for i in range(len(rounds) - 1, -1, -1):
        if rounds[i].review is not None:
            reviewed = next((r.ideas for r in reversed(rounds[:i]) if r.ideas is not None), None)
            return reviewed, rounds[i].review
    last = next((r.ideas for r in reversed(rounds) if r.ideas is not None), None)
    return last, None


def rank_ideas(ideas: IdeaSet | None, review: IdeaReview | None, methods: set[str]) -> list[RankedIdea]:
    """Kept ideas first, then by novelty + feasibility, then feasibility, then the maker's order."""
    if ideas is None:
        return []
    critiques: dict[int, IdeaCritique] = {}
    for c in review.critiques if review else []:
        critiques.setdefault(c.idea, c)  # a repeated number: the first critique counts
    rows = []
    for number, idea in enumerate(ideas.ideas, 1):
        critique = critiques.get(number)
        registered = idea.method in methods
        score = critique.novelty + critique.feasibility if critique else 0
        if not registered:
            reasons = f"method {idea.method!r} is not in the catalogue"
        elif critique is None and review is not None:
            named = ", ".join(str(n) for n in sorted(critiques)) or "none"
            reasons = f"not critiqued: the idea hater's review names other ideas ({named})"
        elif critique is None:
            reasons = "not reviewed (the run ended before the idea hater saw this set)"
        else:
            reasons = f"novelty {critique.novelty}/5, feasibility {critique.feasibility}/5: {critique.verdict}"
        selected = registered and critique is not None and critique.keep
        rows.append((not selected, -score, -(critique.feasibility if critique else 0), number,
                     RankedIdea(rank=0, idea=idea, critique=critique, score=score, selected=selected,
                                reasons=reasons)))
    rows.sort(key=lambda row: row[:4])
    return [row[4].model_copy(update={"rank": n}) for n, row in enumerate(rows, 1)]


def render_ideas_md(title: str, meta: dict[str, Any], ranked: list[RankedIdea], rounds: list[Round]) -> str:
    out = [f"# Research ideas: {title}", ""]
    status = meta.get("status", "done")
    cost = meta.get("cost_usd")
    out += [f"Idea run `{meta.get('run_id', '')}` — status **{status}**, {meta.get('rounds_run', 0)} round(s) of "
            f"{meta.get('rounds', 0)}, model `{meta.get('model', '')}`" + (f", ${cost:.4f}" if cost is not None else "")
            + ". Ranked by code from the idea hater's last review (kept ideas first, then novelty + feasibility).", ""]
    if meta.get("stop_reason"):
        out += [f"> Stopped early: {meta['stop_reason']}", ""]
    if not ranked:
        out += ["No ideas were produced.", ""]
    for row in ranked:
        idea, c = row.idea, row.critique
        mark = "" if row.selected else " — not selected"
        out += [f"## {row.rank}. {idea.title}{mark}", "", f"**Method** `{idea.method}` · {row.reasons}", "",
                f"**Question.** {idea.question}", ""]
        if idea.hypothesis:
            out += [f"**Hypothesis.** {idea.hypothesis}", ""]
        out += [f"**Approach.** {idea.approach}", "",
                f"**Arguments.** `{json.dumps(idea.arguments, default=str)}`", ""]
        if idea.risks:
            out += ["**Risks (maker).**", *[f"- {r}" for r in idea.risks], ""]
        if c is not None:
            if c.confounders:
                out += ["**Confounders (hater).**", *[f"- {x}" for x in c.confounders], ""]
            if c.failure_modes:
                out += ["**What could go wrong (hater).**", *[f"- {x}" for x in c.failure_modes], ""]
        if row.task_file:
            out += [f"Task file: [{row.task_file}]({row.task_file})", ""]
    out += ["## Rounds", ""]
    for r in rounds:
        if r.ideas is not None:
            note = f": {r.ideas.notes}" if r.ideas.notes else ""
            out.append(f"- round {r.round}, {r.agent}: {len(r.ideas.ideas)} idea(s){note}")
        elif r.review is not None:
            kept = sum(c.keep for c in r.review.critiques)
            out.append(f"- round {r.round}, {r.agent}: kept {kept} of {len(r.review.critiques)}"
                       + (" (satisfied)" if r.review.satisfied else "") + (f"; {r.review.summary}" if r.review.summary else ""))
    out.append("")
    return "\n".join(out)


def _task_markdown(row: RankedIdea, origin: str, run_id: str, seed: Any) -> str:
    idea, c = row.idea, row.critique
    meta: dict[str, Any] = {"title": idea.title, "method": idea.method, "arguments": dict(idea.arguments)}
    if seed is not None:
        meta["seed"] = seed
    meta["description"] = f"Idea {row.rank} of the idea run {run_id} on the task {origin!r}"
    lines = [f"# {idea.title}", "", idea.question, ""]
    if idea.hypothesis:
        lines += [f"Hypothesis: {idea.hypothesis}", ""]
    lines += [f"Approach: {idea.approach}", ""]
    risks = [*idea.risks, *(c.failure_modes if c else []), *(c.confounders if c else [])]
    if risks:
        lines += ["Check in particular:", *[f"- {r}" for r in dict.fromkeys(risks)], ""]
    if c is not None:
        lines += [f"The idea hater's verdict: {c.verdict}", ""]
    head = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True).strip()
    return f"---\n{head}\n---\n" + "\n".join(lines).strip() + "\n"


def write_idea_task(row: RankedIdea, *, source_dir: Path, data_files: list[str], out_dir: Path, origin: str,
                    run_id: str, seed: Any = None) -> Path:
    """Write one idea as ``out_dir/NN-<slug>.md`` with the data it names copied to ``out_dir/data/``.

    The task is read back with the task loader and its arguments validated, so what is written runs with
    ``cmbagent solve``; a problem is a ``UserError`` naming it (the file is removed again).
    """
    from cmbagent.task import load_task
    from cmbagent.tools.methods import validate_arguments

    out_dir.mkdir(parents=True, exist_ok=True)
    named = {v for v in _strings(row.idea.arguments)}
    for rel in data_files:
        if rel in named and not (out_dir / rel).exists():
            copy_file(source_dir / rel, out_dir / rel)
    path = out_dir / f"{row.rank:02d}-{slugify(row.idea.title, limit=40)}.md"
    write_text(path, _task_markdown(row, origin, run_id, seed))
    try:
        task = load_task(path)
        validate_arguments(row.idea.method, {k: v for k, v in task.arguments.items() if k != "output_dir"})
    except Exception:
        os.unlink(path)
        raise
    return path


def write_tasks(ranked: list[RankedIdea], **where: Any) -> tuple[list[Path], list[str]]:
    """Each selected idea as a runnable task; returns the files and, per idea not written, why."""
    from cmbagent.exceptions import UserError

    written: list[Path] = []
    skipped: list[str] = []
    for row in ranked:
        if not row.selected:
            skipped.append(f"idea {row.rank} ({row.idea.title}): not selected ({row.reasons})")
            continue
        try:
            path = write_idea_task(row, **where)
        except UserError as exc:
            skipped.append(f"idea {row.rank} ({row.idea.title}): {exc}")
            continue
        row.task_file = str(path)
        written.append(path)
    return written, skipped


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def write_ideas_json(path: Path, meta: dict[str, Any], ranked: list[RankedIdea], rounds: list[Round],
                     skipped: list[str] | None = None) -> None:
    write_json(path, {**meta, "ideas": [r.model_dump(mode="json") for r in ranked],
                      "rounds_log": [r.model_dump(mode="json", exclude_none=True) for r in rounds],
                      "tasks_not_written": list(skipped or [])})

