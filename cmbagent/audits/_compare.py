"""A paper's method against the baselines it was run beside: when a baseline scores higher, the report must
say so plainly (a note), and say which method is best.

The comparison is what the method declares (``diagnostics["comparison"]``: ``{"method": key, "baselines":
[...], "metrics": [...], "lower_is_better": [...]}``), else the values' sub-tables keyed by the method's own
name and by other models with the same metrics.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cmbagent.audits._evidence import StepEvidence
from cmbagent.audits._registry import finding, step_audit
from cmbagent.state import Finding

__all__ = ["HIGHER", "LOWER"]

HIGHER = ("auc_pr", "auc_roc", "auc", "accuracy", "f1", "r2", "precision", "recall", "average_precision")
LOWER = ("mae", "mse", "rmse", "loss", "error", "nll", "kl", "bias")
_LABEL = {"auc_pr": "AUC-PR", "auc_roc": "AUC-ROC"}



def _table(values: dict[str, Any], declared: dict[str, Any], method: str) -> tuple[str, list[str], list[str]] | None:
    key = declared.get("method") or method.rsplit(".", 1)[-1]
    mine = values.get(key)
    if not isinstance(mine, dict):
        return None
    metrics = [m for m in declared.get("metrics") or [*HIGHER, *LOWER] if isinstance(mine.get(m), (int, float))]
    baselines = declared.get("baselines") or [k for k, v in values.items() if k != key and isinstance(v, dict)
                                              and any(isinstance(v.get(m), (int, float)) for m in metrics)]
    baselines = [b for b in baselines if isinstance(values.get(b), dict)]
    return (key, baselines, metrics) if baselines and metrics else None


@step_audit("method.loses_to_baseline")
def loses_to_baseline(ev: StepEvidence) -> Iterator[Finding]:
    if ev.method is None:
        return
    declared = ev.section("comparison")
    found = _table(ev.values, declared, ev.method)
    if found is None:
        return
    key, baselines, metrics = found
    lower = set(declared.get("lower_is_better") or LOWER)
    for metric in metrics:
        sign = -1.0 if metric in lower else 1.0
        scores = {name: float(ev.values[name][metric]) for name in [key, *baselines]
                  if isinstance(ev.values[name].get(metric), (int, float))}
        better = {b: s for b, s in scores.items() if b != key and sign * s > sign * scores[key]}
        if not better:
            continue
        best = max(scores, key=lambda n: sign * scores[n])
        rank = sorted(scores, key=lambda n: -sign * scores[n]).index(key) + 1
        label = _LABEL.get(metric, metric)
        place = "the lowest" if rank == len(scores) else f"rank {rank}"
        yield finding("method.loses_to_baseline",
                      f"{key} has {label} {scores[key]:.3f}, {place} of the {len(scores)} methods compared; "
                      + ", ".join(f"{b} {s:.3f}" for b, s in sorted(better.items(), key=lambda i: -sign * i[1]))
                      + f" score{'s' if len(better) == 1 else ''} better; best on {label}: {best}",
                      metric=metric, method=key, scores=scores, best=best)
