#!/usr/bin/env python
"""Run every example and regenerate the examples table from the fresh runs.

    python scripts/examples_table.py                    # all examples/*.md, one at a time, then a strict replay
    python scripts/examples_table.py --jobs 2           # two at a time (each in its own temporary workspace)
    python scripts/examples_table.py --only examples/supernova_jla.md   # one example; the others' rows stay
    python scripts/examples_table.py --check            # compare fresh runs with the table, write nothing
    python scripts/examples_table.py --render           # re-render the README table from results.json

Each example names the numbers its row shows, and how far a fresh run may differ, under ``expected:`` in its
front matter (``Omega_m.mean: 0.003`` is an absolute tolerance, ``"2%"`` a relative one, ``exact`` for
strings, flags and lists; a dotted path reaches into the method's values, ``per_k.4.unseen_accuracy``
included).  An example without ``expected`` shows its first three headline numbers with a 5% tolerance, so
a new example is picked up as it is.  The numbers, and the codes of the run's findings, land in
``examples/results.json`` and the table between the markers of ``examples/README.md``;
``tests/examples/test_examples.py`` runs a subset and compares (numbers within tolerance, the same findings).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
RESULTS = EXAMPLES / "results.json"
README = EXAMPLES / "README.md"
BEGIN, END = "<!-- examples-table:begin (scripts/examples_table.py) -->", "<!-- examples-table:end -->"
DEFAULT_TOLERANCE = "5%"


def examples(root: Path = EXAMPLES) -> list[Path]:
    """Every example task: ``examples/*.md`` except the README."""
    return sorted(p for p in root.glob("*.md") if p.name.lower() != "readme.md")


def front_matter(path: Path) -> dict[str, Any]:
    from cmbagent.frontmatter import split_front_matter

    meta, _ = split_front_matter(path.read_text(encoding="utf-8"))
    return meta or {}


def lookup(values: Any, dotted: str) -> Any:
    """``values`` at a dotted path (``ate.mean``, ``per_k.4.unseen_accuracy``); KeyError when absent."""
    node = values
    for part in dotted.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.lstrip("-").isdigit() and -len(node) <= int(part) < len(node):
            node = node[int(part)]
        else:
            raise KeyError(dotted)
    return node


def headline(values: Mapping[str, Any], limit: int = 3) -> dict[str, Any]:
    """The first ``limit`` headline numbers of a method's values (for an example that declares none)."""
    spec: dict[str, Any] = {}
    for name, value in values.items():
        if len(spec) >= 2 * limit:
            break
        if isinstance(value, Mapping) and isinstance(value.get("mean"), (int, float)):
            spec[f"{name}.mean"] = DEFAULT_TOLERANCE
            if isinstance(value.get("std"), (int, float)):
                spec[f"{name}.std"] = DEFAULT_TOLERANCE
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            spec[name] = DEFAULT_TOLERANCE
        if sum(1 for k in spec if not k.endswith(".std")) >= limit:
            break
    return spec


def within(expected: Any, actual: Any, tolerance: Any) -> tuple[bool, str]:
    """Whether a fresh ``actual`` matches the table's ``expected`` within ``tolerance`` (and why not)."""
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (expected, actual))
    if tolerance == "exact" or not numeric:
        same = expected == actual
        return same, "" if same else f"{actual!r} != {expected!r} (exact)"
    if isinstance(tolerance, str) and tolerance.endswith("%"):
        allowed = abs(float(expected)) * float(tolerance[:-1]) / 100
    else:
        allowed = float(tolerance)
    diff = abs(float(actual) - float(expected))
    ok = math.isfinite(float(actual)) and diff <= allowed + 1e-12
    return ok, "" if ok else f"{actual:.6g} differs from {expected:.6g} by {diff:.3g} (tolerance {tolerance})"


def _findings(run_dir: Path) -> list[str]:
    """``severity code`` of each finding of the run (run.json), errors first, each code once per severity."""
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    rank = {"error": 0, "warning": 1, "note": 2}
    found = {(str(f.get("severity")), str(f.get("code"))) for f in record.get("findings") or [] if isinstance(f, dict)}
    return [f"{sev} {code}" for sev, code in sorted(found, key=lambda f: (rank.get(f[0], 3), f[1]))]


def _method_values(run_dir: Path) -> tuple[str | None, dict[str, Any]]:
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    steps = (record.get("report_inputs") or {}).get("steps") or {}
    done = [s for s in steps.values() if s.get("method") and s.get("status") == "done"]
    return (done[-1]["method"], dict(done[-1].get("values") or {})) if done else (None, {})


def _cli(args: list[str], env: Mapping[str, str], timeout: float) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-m", "cmbagent", *args, "--json"], capture_output=True, text=True,
                          env=dict(env), timeout=timeout, cwd=ROOT)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise RuntimeError(f"cmbagent {' '.join(args)} printed no result (exit {proc.returncode}): "
                           f"{proc.stderr.strip()[-2000:]}")
    return dict(json.loads(lines[-1]))


def run_example(path: Path, workspace: Path, *, replay: bool = True, timeout: float = 3600) -> dict[str, Any]:
    """Run one example offline in ``workspace`` (then replay it strictly) and read its table numbers."""
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"), "PYTHONWARNINGS": "ignore"}
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "CMBAGENT_MODEL"):
        env.pop(key, None)  # the table is the offline backend's
    started = time.monotonic()
    summary = _cli(["solve", str(path), "--workspace", str(workspace)], env, timeout)
    seconds = time.monotonic() - started
    if "run_dir" not in summary:  # refused before a run folder existed (a task the reader asks about)
        raise RuntimeError(f"{path.name}: {summary.get('error') or summary}")
    run_dir = Path(summary["run_dir"])
    method, values = _method_values(run_dir)
    spec = front_matter(path).get("expected") or headline(values)
    table: dict[str, Any] = {}
    for dotted in spec:
        try:
            table[dotted] = lookup(values, dotted)
        except KeyError:
            table[dotted] = None
    result: dict[str, Any] = {"method": method, "status": summary["status"], "seconds": round(seconds, 1),
                              "values": table, "tolerance": dict(spec), "findings": _findings(run_dir),
                              "run_dir": str(run_dir)}
    if replay:
        started = time.monotonic()
        replayed = _cli(["replay", str(run_dir), "--workspace", str(workspace / "replays")], env, timeout)
        result["replay"] = {"status": replayed["status"], "identical": bool(replayed["comparison"]["identical"]),
                            "seconds": round(time.monotonic() - started, 1)}
    return result


def compare(expected: Mapping[str, Any], fresh: Mapping[str, Any]) -> list[str]:
    """Differences between a stored row and a fresh run of the same example (empty: within tolerance)."""
    problems = []
    if fresh.get("status") != "done":
        problems.append(f"status {fresh.get('status')!r}")
    for dotted, tolerance in expected.get("tolerance", {}).items():
        ok, why = within(expected["values"].get(dotted), fresh["values"].get(dotted), tolerance)
        if not ok:
            problems.append(f"{dotted}: {why}")
    if "findings" in expected and sorted(expected["findings"]) != sorted(fresh.get("findings") or []):
        problems.append(f"findings {fresh.get('findings')} instead of {expected['findings']}")
    replay = fresh.get("replay")
    if replay is not None and not (replay["identical"] and replay["status"] == "done"):
        problems.append(f"strict replay: {replay}")
    return problems


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)


def _cell(values: Mapping[str, Any]) -> str:
    """``Omega_m = 0.351 ± 0.019; chi2 = 697.3`` from dotted paths (``x.mean`` with ``x.std`` read as one)."""
    parts = []
    for dotted, value in values.items():
        if dotted.endswith(".std") and dotted[:-4] + ".mean" in values:
            continue
        name = dotted[:-5] if dotted.endswith(".mean") else dotted
        std = values.get(name + ".std") if dotted.endswith(".mean") else None
        if isinstance(value, (int, float)) and isinstance(std, (int, float)) and std > 0:
            decimals = max(0, 1 - math.floor(math.log10(std)))
            parts.append(f"{name} = {value:.{decimals}f} ± {std:.{decimals}f}")
        else:
            parts.append(f"{name} = {_fmt(value)}")
    return "; ".join(parts).replace("|", "\\|")


def render_table(results: Mapping[str, Any]) -> str:
    """The markdown table of ``examples/results.json`` (what the README shows between its markers)."""
    rows = ["| file | method | offline result | findings of the run | run time (s) | strict replay |",
            "|---|---|---|---|---|---|"]
    for name, row in sorted(results["examples"].items()):
        status = "" if row.get("status") == "done" else f" (status {row.get('status')})"
        replay = row.get("replay") or {}
        replayed = "—" if not replay else "identical" if replay.get("identical") else "**differs**"
        findings = ", ".join(f"{f.split(' ', 1)[0]} `{f.split(' ', 1)[-1]}`" for f in row.get("findings") or [])
        rows.append(f"| `{name}` | {row.get('method') or '—'} | {_cell(row['values'])}{status} | "
                    f"{findings or 'none'} | {row.get('seconds', '')} | {replayed} |")
    return "\n".join(rows)


def update_readme(results: Mapping[str, Any], readme: Path = README) -> None:
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{readme} has no table markers ({BEGIN} ... {END}); add them where the table goes")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{BEGIN}\n{render_table(results)}\n{END}{tail}", encoding="utf-8")


def _in_declared_order(name: str, row: dict[str, Any]) -> dict[str, Any]:
    """The row with its numbers in the order its example declares them under ``expected:``."""
    path = EXAMPLES / name
    order = list(front_matter(path).get("expected") or {}) if path.is_file() else []
    order += [k for k in row.get("values", {}) if k not in order]
    return {**row, "values": {k: row["values"][k] for k in order if k in row.get("values", {})},
            "tolerance": {k: row["tolerance"][k] for k in order if k in row.get("tolerance", {})}}


def write_results(results: dict[str, Any], path: Path = RESULTS, readme: Path = README) -> None:
    """``results.json`` (examples by name, each row's numbers in declared order) and the README table."""
    rows = {name: _in_declared_order(name, row) for name, row in sorted(results["examples"].items())}
    results = {"generated_by": results.get("generated_by", ""), "examples": rows}
    path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    update_readme(results, readme)


def load_results(path: Path = RESULTS) -> dict[str, Any]:
    if path.is_file():
        return dict(json.loads(path.read_text(encoding="utf-8")))
    return {"examples": {}}


def run_all(paths: Iterable[Path], *, jobs: int = 1, replay: bool = True) -> dict[str, dict[str, Any]]:
    """Run the examples (``jobs`` at a time, each in its own temporary workspace); name -> fresh row."""
    paths = list(paths)
    with tempfile.TemporaryDirectory(prefix="cmbagent-examples-") as tmp:
        def one(path: Path) -> tuple[str, dict[str, Any]]:
            started = time.monotonic()
            row = run_example(path, Path(tmp) / path.stem, replay=replay)
            row.pop("run_dir", None)
            print(f"{path.name}: {row['status']} in {time.monotonic() - started:.0f} s"
                  + (f" (replay identical: {row['replay']['identical']})" if replay else ""), flush=True)
            return path.name, row

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            return dict(pool.map(one, paths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", type=Path, help="examples to run (default: every examples/*.md)")
    parser.add_argument("--jobs", type=int, default=1, help="examples run at a time (default 1)")
    parser.add_argument("--no-replay", action="store_true", help="skip the strict replay after each run")
    parser.add_argument("--check", action="store_true", help="compare with the table; write nothing")
    parser.add_argument("--render", action="store_true", help="only re-render the README table from results.json")
    args = parser.parse_args(argv)
    if args.render:
        write_results(load_results())
        return 0
    paths = [p.resolve() for p in args.only] if args.only else examples()
    started = time.monotonic()
    fresh = run_all(paths, jobs=args.jobs, replay=not args.no_replay)
    stored = load_results()
    if args.check:
        failed = {name: compare(stored["examples"][name], row) if name in stored["examples"] else ["not in the table"]
                  for name, row in fresh.items()}
        for name, problems in failed.items():
            print(f"{name}: " + ("; ".join(problems) if problems else "matches the table"))
        return 1 if any(failed.values()) else 0
    known = {p.name for p in examples()}
    stored["examples"] = {k: v for k, v in {**stored["examples"], **fresh}.items() if k in known}
    stored["generated_by"] = "python scripts/examples_table.py (offline backend, default sandbox)"
    write_results(stored)
    print(f"{len(fresh)} example(s) in {time.monotonic() - started:.0f} s; wrote {RESULTS.relative_to(ROOT)} and the "
          f"table in {README.relative_to(ROOT)}")
    bad = [name for name, row in fresh.items() if row["status"] != "done"
           or (row.get("replay") and not row["replay"]["identical"])]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
