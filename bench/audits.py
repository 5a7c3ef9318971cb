"""Cost of the science audits per step, against the step's own compute time measured in the same run.

Runs example tasks offline (the real sandbox, the deterministic backend), then, for every step that ran a
cell, rebuilds the audit evidence from the run folder (the cell, its output, the method's result.json, the
figure probe's records, the input data) and times :func:`cmbagent.audits.audit_step` on it (median of
``--repeat`` warm runs; the first, cold run is printed too).  Baseline: the step's cell time from the run's
own ``cell_executed`` events.  Target: under 50 ms per step.

Usage: python bench/audits.py [--examples supernova.md causal_dml_ihdp.md ...] [--runs RUN_DIR ...]
       [--repeat 5]     (``--runs`` audits finished run folders instead of running examples)
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ["supernova.md", "supernova_union21.md", "supernova_jla.md", "causal_dml_ihdp.md",
           "robustness_x_hacking_breast_cancer.md"]
_METHOD_CALL = re.compile(r"run_method\('([^']+)', json\.loads\((\".*\")\)\)")


def _attempt(run: Path, record: Any, durations: dict[str, float]) -> Any:
    """The accepted attempt of a finished step, read back from its files."""
    from cmbagent.cells import parse_result
    from cmbagent.state import Attempt

    cell = record.cell
    code = (run / cell).read_text(encoding="utf-8")
    output_file = run / cell.replace("/cells/", "/outputs/").replace(".py", ".txt")
    output = output_file.read_text(encoding="utf-8").split("\n[error]\n")[0] if output_file.is_file() else ""
    arguments: dict[str, Any] = {}
    match = _METHOD_CALL.search(code)
    if match:
        arguments = json.loads(json.loads(match.group(2)))
    result = parse_result(output)
    return Attempt(number=record.attempts or 1, status="ok", cell=cell, output=output, result=result,
                   method=record.method, images=[f for f in record.figures if not f.endswith(".gz")],
                   arguments=arguments, duration_s=durations.get(cell, 0.0))


def audit_run_folder(run: Path, repeat: int) -> list[dict[str, Any]]:
    from cmbagent.audits import audit_step, step_evidence
    from cmbagent.events import read_events
    from cmbagent.report import ReportView

    view = ReportView.model_validate(json.loads((run / "run.json").read_text())["report_inputs"])
    durations = {str(e.data.get("cell")): float(e.data.get("duration_s") or 0.0)
                 for e in read_events(run / "events.jsonl") if e.type == "cell_executed"}
    rows = []
    done = [r for r in view.steps.values() if r.status == "done"]
    steps = {s.id: s for s in (view.plan.steps if view.plan else [])}
    for record in done:
        if not record.cell or record.id not in steps:
            continue
        attempt = _attempt(run, record, durations)
        earlier = [r for r in done if r.index is not None and record.index is not None and r.index < record.index]
        result_path = f"{record.dir}/outputs/result.json" if record.method else None
        times, findings = [], []
        for _ in range(repeat + 1):
            started = time.perf_counter()
            evidence = step_evidence(run, step=steps[record.id], attempt=attempt, task=view.task, earlier=earlier,
                                     result_path=result_path)
            findings = audit_step(evidence).findings
            times.append(time.perf_counter() - started)
        rows.append({"run": run.name, "step": record.id, "method": record.method or "(code)",
                     "cold_ms": 1000 * times[0], "audit_ms": 1000 * statistics.median(times[1:]),
                     "compute_s": attempt.duration_s, "findings": [f.code for f in findings]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", nargs="+", default=DEFAULT)
    parser.add_argument("--runs", nargs="+", type=Path, default=None, help="audit these finished run folders")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
    runs: list[Path] = list(args.runs or [])
    if not runs:
        from cmbagent.api import solve

        workspace = Path(tempfile.mkdtemp(prefix="bench-audits-"))
        for name in args.examples:
            started = time.perf_counter()
            result = solve(ROOT / "examples" / name, workspace=workspace)
            print(f"ran {name}: {result.status} in {time.perf_counter() - started:.1f} s", flush=True)
            runs.append(result.run_dir)
    rows = [row for run in runs for row in audit_run_folder(run, args.repeat)]
    print(f"\n{'run':44s} {'step':4s} {'method':28s} {'audit ms':>9s} {'cold ms':>8s} {'step s':>8s} {'ratio':>8s}  "
          "findings")
    for r in rows:
        ratio = r["audit_ms"] / 1000 / r["compute_s"] if r["compute_s"] > 0 else float("nan")
        print(f"{r['run'][:44]:44s} {r['step']:4s} {r['method'][:28]:28s} {r['audit_ms']:9.1f} {r['cold_ms']:8.1f} "
              f"{r['compute_s']:8.2f} {ratio:8.4f}  {', '.join(r['findings']) or '-'}")
    audit = [r["audit_ms"] for r in rows]
    compute = sum(r["compute_s"] for r in rows)
    print(f"\n{len(rows)} steps: audit per step median {statistics.median(audit):.1f} ms, max {max(audit):.1f} ms "
          f"(target < 50 ms: {'met' if max(audit) < 50 else 'NOT met'}); total audit time / step compute time "
          f"(baseline) = {sum(audit) / 1000 / compute:.4f}")


if __name__ == "__main__":
    main()
