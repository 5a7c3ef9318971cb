"""How well cmbagent understands tasks written in plain prose: the public set (tests/understanding) and the
held-out set (tests/understanding_heldout) and the blind set (tests/understanding_blind, written after the
held-out set was used to find the reader's silent mistakes, by an author who read neither the reader nor the
other sets' texts), offline and with a language model.

Reported per set and reader:

* **method accuracy** — the reader's top candidate is the expected method (a task that needs no method: it says
  none; a task that must be asked: it does not run);
* **argument accuracy** — among method tasks whose method was right, the share that would run with every
  expected argument right;
* **asked** — tasks answered with a question instead of a guess, and **silent wrong** — tasks that would run
  with a wrong method or argument (the goal is 0);
* **answers within tolerance** (``--answers``) — the tasks with an independent answer, run end to end with the
  offline backend and graded against it.

The baseline named in the output is the reader before this work: keyword matching only (``match_method``'s old
rule, recomputed here), no data, no questions.

Run:
    .venv/bin/python bench/understanding.py                      # offline reader on both sets
    .venv/bin/python bench/understanding.py --answers            # + end-to-end runs for the graded answers
    .venv/bin/python bench/understanding.py --model local --limit 20   # SmolLM2 (llama.cpp) as the task analyst
    .venv/bin/python bench/understanding.py --set blind --model local --limit 8   # one set only
Goals (issue 29): offline ≥ 95% method, ≥ 90% arguments, 0 silent wrong.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reading._prose import ProseTask, Score, Verdict, judge, load_set, parsed, read_offline  # noqa: E402

SETS = {"public": ROOT / "tests" / "understanding", "held-out": ROOT / "tests" / "understanding_heldout",
        "blind": ROOT / "tests" / "understanding_blind", "blind4": ROOT / "tests" / "understanding_blind4",
        "blind5": ROOT / "tests" / "understanding_blind5",
        "blind6": ROOT / "tests" / "understanding_blind6",
        "blind7": ROOT / "tests" / "understanding_blind7", "blind8": ROOT / "tests" / "understanding_blind8",
        "blind9": ROOT / "tests" / "understanding_blind9", "blind10": ROOT / "tests" / "understanding_blind10",
        "blind11": ROOT / "tests" / "understanding_blind11", "blind12": ROOT / "tests" / "understanding_blind12",
        "blind13": ROOT / "tests" / "understanding_blind13", "blind14": ROOT / "tests" / "understanding_blind14",
        "blind15": ROOT / "tests" / "understanding_blind15", "blind16": ROOT / "tests" / "understanding_blind16",
        "blind17": ROOT / "tests" / "understanding_blind17",
        "blind18": ROOT / "tests" / "understanding_blind18",
        "blind19": ROOT / "tests" / "understanding_blind19",
        "blind20": ROOT / "tests" / "understanding_blind20",
        "blind21": ROOT / "tests" / "understanding_blind21",
        "blind22": ROOT / "tests" / "understanding_blind22",
        "blind23": ROOT / "tests" / "understanding_blind23",
        "blind24": ROOT / "tests" / "understanding_blind24",
        "blind25": ROOT / "tests" / "understanding_blind25",
        "blind26": ROOT / "tests" / "understanding_blind26",
        "blind27": ROOT / "tests" / "understanding_blind27",
        "blind28": ROOT / "tests" / "understanding_blind28",
        "blind29": ROOT / "tests" / "understanding_blind29",
        "blind30": ROOT / "tests" / "understanding_blind30",
        "blind31": ROOT / "tests" / "understanding_blind31",
        "blind32": ROOT / "tests" / "understanding_blind32"}


def keywords_only(task: ProseTask, folder: Path) -> Verdict:
    """The baseline: the keyword rule the offline backend used before (a keyword hit picks the method; no data,
    no arguments beyond those, no questions)."""
    from cmbagent.tools.methods import iter_methods

    spec = parsed(task, folder)
    lowered = f"{spec.title}\n{spec.text}".lower()
    words = {w for w in re.findall(r"[a-z0-9+]+", lowered) if len(w) > 3}
    best: tuple[float, str] | None = None
    for method in iter_methods():
        hits = sum(1 for k in method.keywords if re.search(r"(?<![a-z0-9])" + re.escape(k.lower()) + r"(?![a-z0-9])",
                                                            lowered))
        if hits:
            summary = {w for w in re.findall(r"[a-z0-9+]+", method.summary.lower()) if len(w) > 3}
            score = 3.0 * hits + 0.5 * len(words & summary)
            if best is None or score > best[0]:
                best = (score, method.name)
    method = best[1] if best else None
    return judge(task, said="run" if method else "none", method=method, arguments={})


def read_with_model(task: ProseTask, folder: Path, model: str, timeout: int) -> Verdict:
    """A language model as the task analyst (and planner): ``solve`` up to the plan, which waits for approval;
    the plan's method call is what would run."""
    from cmbagent.api import solve
    from cmbagent.exceptions import CmbagentError

    spec = parsed(task, folder)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            result = solve(spec, workspace=Path(tmp), model=model, approve_plan=True, n_reviews=0, timeout=timeout,
                           sandbox="process")
        except CmbagentError as exc:
            return judge(task, said="ask", method=None, arguments={}, questions=[str(exc)[:200]])
        plan_path = result.run_dir / "plan.json"
        if not plan_path.is_file():
            return judge(task, said="none", method=None, arguments={})
        plan = json.loads(plan_path.read_text())
        calls = [s["method"] for s in plan.get("steps", []) if s.get("method")]
        if not calls:
            return judge(task, said="none", method=None, arguments={})
        held = (json.loads((result.run_dir / "run.json").read_text()).get("understanding") or {}).get("open")
        if held:  # the plan waits for a person on what code's reading left open (planner ``approve``): a question
            return judge(task, said="ask", method=calls[0]["name"], arguments=calls[0].get("arguments") or {},
                         questions=[str(q)[:200] for q in held])
        return judge(task, said="run", method=calls[0]["name"], arguments=calls[0].get("arguments") or {})


def answers(tasks: list[ProseTask], folder: Path) -> list[dict[str, Any]]:
    """The tasks with an independent answer, run end to end offline and graded (value within tolerance)."""
    from cmbagent.api import solve
    from cmbagent.exceptions import CmbagentError
    from cmbagent.sandbox import InMemoryExecutor

    rows = []
    for task in tasks:
        answer = task.expect.get("answer")
        if not answer:
            continue
        started = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            try:
                result = solve(parsed(task, folder), workspace=Path(tmp), executor=InMemoryExecutor)
            except CmbagentError as exc:
                rows.append({"task": task.name, "status": "asked", "ok": False, "why": str(exc)[:120]})
                continue
            value = _lookup(result.values, answer["value"])
            ok = isinstance(value, (int, float)) and abs(float(value) - float(answer["equals"])) <= float(
                answer["tolerance"])
            rows.append({"task": task.name, "status": result.status, "value": value, "expected": answer["equals"],
                         "tolerance": answer["tolerance"], "ok": ok, "seconds": round(time.monotonic() - started, 1)})
    return rows


def _lookup(values: dict[str, Any], dotted: str) -> Any:
    node: Any = values
    for part in dotted.split("."):
        if isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", help="a model spec for the task analyst (e.g. local); default: offline only")
    parser.add_argument("--limit", type=int, help="at most this many tasks per set (with --model)")
    parser.add_argument("--timeout", type=int, default=900, help="per task, with --model")
    parser.add_argument("--answers", action="store_true", help="run the tasks with answers end to end (offline)")
    parser.add_argument("--table", action="store_true", help="print the per-task table")
    parser.add_argument("--json", type=Path, help="write every number to this file")
    parser.add_argument("--set", action="append", choices=sorted(SETS), dest="sets",
                        help="only this set (repeatable); default every set")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    for name, folder in SETS.items():
        if args.sets and name not in args.sets:
            continue
        if not (folder / "tasks.yaml").is_file():
            print(f"{name}: no set at {folder}")
            continue
        tasks = load_set(folder)
        started = time.monotonic()
        offline = Score([read_offline(t, folder) for t in tasks])
        offline_s = time.monotonic() - started
        baseline = Score([keywords_only(t, folder) for t in tasks])
        entry: dict[str, Any] = {"offline": offline.summary(), "offline_seconds": round(offline_s, 1),
                                 "baseline_keywords": baseline.summary()}
        print(f"\n== {name} set: {len(tasks)} tasks")
        print(f"offline reader     : {offline.summary()}  ({offline_s:.1f} s, {offline_s / len(tasks):.2f} s/task)")
        print(f"baseline (keywords): {baseline.summary()}")
        print(f"ratio, method accuracy offline/baseline: {offline.method_accuracy / max(baseline.method_accuracy, 1e-9):.2f}")
        if offline.silent_wrong:
            print("silently wrong:", ", ".join(f"{v.name} {v.wrong_arguments or v.method}" for v in offline.silent_wrong))
        if args.table:
            print(offline.table())
        if args.model:
            chosen = tasks[: args.limit] if args.limit else tasks
            started = time.monotonic()
            verdicts = []
            for t in chosen:
                verdicts.append(read_with_model(t, folder, args.model, args.timeout))
                print(f"  {args.model} {t.name}: {verdicts[-1].said} {verdicts[-1].method} "
                      f"method {'ok' if verdicts[-1].method_right else 'WRONG'}", flush=True)
            model_score = Score(verdicts)
            subset = Score([v for v in offline.verdicts if v.name in {t.name for t in chosen}])
            entry[args.model] = {**model_score.summary(), "seconds": round(time.monotonic() - started, 1),
                                 "offline_same_tasks": subset.summary()}
            print(f"{args.model:19s}: {model_score.summary()}")
            print(f"offline, same tasks: {subset.summary()}")
        if args.answers:
            rows = answers(tasks, folder)
            ok = sum(r["ok"] for r in rows)
            entry["answers"] = {"graded": len(rows), "within_tolerance": ok, "rows": rows}
            print(f"answers within tolerance: {ok} of {len(rows)}")
            for row in rows:
                if not row["ok"]:
                    print("  not within:", row)
        report[name] = entry
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str))


if __name__ == "__main__":
    main()
