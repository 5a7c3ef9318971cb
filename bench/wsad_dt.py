"""WSAD-DT: our batched implementation vs the reference implementation on PyPI (``wsad-dt``).

Same ADBench split (stratified 70/30, MinMax on train, 10 labeled anomalies), same epochs (100, the reference's
fixed value), batch size (64) and ensemble size (5). Each split is trained ``--repeats`` times with different
training seeds by both implementations, so the AUC-PR difference can be set against the training-seed noise:
the verdict is "within seed noise" when the mean difference is at most twice its standard error (from the
spread over training seeds within each split). Prints training time and test AUC-PR of both and the ratios.
Needs ``pip install --no-deps wsad-dt`` (its dependencies numpy, scikit-learn and torch are ours already).

Usage: python bench/wsad_dt.py [--data PATH] [--seeds 1 2 3] [--repeats 3] [--unlabeled-anomalies 1.0]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

from cmbagent.tools.methods.anomaly import WSADDT, adbench_split, load_anomaly_data, score_metrics

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "examples" / "data" / "anomaly" / "6_cardio.npz"


def _noise_se(per_split: list[list[float]]) -> float:
    """Standard error of the mean over all runs, from the within-split spread (training-seed noise)."""
    deviations = [x - np.mean(runs) for runs in per_split for x in runs]
    dof = sum(len(runs) - 1 for runs in per_split)
    if dof < 1:
        return float("nan")
    return math.sqrt(sum(d * d for d in deviations) / dof / len(deviations))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DEFAULT))
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="split seeds")
    parser.add_argument("--repeats", type=int, default=3, help="training seeds per split and implementation")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument(
        "--unlabeled-anomalies",
        type=float,
        default=1.0,
        help="fraction of unlabeled training anomalies kept (1 = ADBench, 0 = the paper's clean setting)",
    )
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [
        p for p in sys.path if str(Path(p or ".").resolve()) != here
    ]  # this file shadows the package
    try:
        import torch
        import wsad_dt
    except ImportError:
        raise SystemExit("the reference is not installed: pip install --no-deps wsad-dt") from None
    torch.set_num_threads(1)  # the reference trains members one after another on one thread; so do we
    X, y, _ = load_anomaly_data(args.data)
    times: dict[str, list[float]] = {"ours": [], "reference": []}
    auc: dict[str, list[list[float]]] = {"ours": [], "reference": []}
    print(
        f"{Path(args.data).name}: splits {args.seeds}, {args.repeats} training seeds each, batch {args.batch_size}"
    )
    for seed in args.seeds:
        split = adbench_split(X, y, n_labeled=10, seed=seed, unlabeled_anomalies=args.unlabeled_anomalies)
        auc["ours"].append([])
        auc["reference"].append([])
        for repeat in range(args.repeats):
            start = time.perf_counter()
            ours = WSADDT(
                n_estimators=5,
                epochs=100,
                batch_size=args.batch_size,
                random_state=1000 * seed + repeat,
                device="cpu",
            )
            ours.fit(split.X_train, split.y_train_partial)
            times["ours"].append(time.perf_counter() - start)
            auc["ours"][-1].append(
                score_metrics(split.y_test, ours.decision_function(split.X_test))["auc_pr"]
            )
            start = time.perf_counter()
            ref = wsad_dt.WSADDT(n_ensemble=5, seed=100 * seed + 7 * repeat, batch_size=64)
            ref.fit(split.X_train, split.y_train_partial)
            times["reference"].append(time.perf_counter() - start)  # includes its scoring of the training set
            auc["reference"][-1].append(
                score_metrics(split.y_test, ref.decision_function(split.X_test))["auc_pr"]
            )
            print(
                f"split {seed} run {repeat}: ours {times['ours'][-1]:6.1f}s AUC-PR {auc['ours'][-1][-1]:.4f} | "
                f"reference {times['reference'][-1]:6.1f}s AUC-PR {auc['reference'][-1][-1]:.4f}",
                flush=True,
            )
    t_ours, t_ref = float(np.mean(times["ours"])), float(np.mean(times["reference"]))
    pr_ours = float(np.mean([x for runs in auc["ours"] for x in runs]))
    pr_ref = float(np.mean([x for runs in auc["reference"] for x in runs]))
    se = math.hypot(_noise_se(auc["ours"]), _noise_se(auc["reference"]))
    diff = pr_ours - pr_ref
    for name in ("ours", "reference"):
        per_split = " ".join(f"{np.mean(runs):.4f}" for runs in auc[name])
        print(f"{name:9s} mean AUC-PR per split: {per_split}")
    print(
        f"mean: ours {t_ours:.1f}s AUC-PR {pr_ours:.4f} | reference (wsad-dt {wsad_dt.__version__}) "
        f"{t_ref:.1f}s AUC-PR {pr_ref:.4f}"
    )
    verdict = "within seed noise" if abs(diff) <= 2 * se else ("better" if diff > 0 else "WORSE")
    print(
        f"time ratio ours/reference {t_ours / t_ref:.3f}; AUC-PR ratio ours/reference {pr_ours / pr_ref:.3f}; "
        f"difference {diff:+.4f} +- {se:.4f} (training-seed standard error) -> {verdict}"
    )


if __name__ == "__main__":
    main()
