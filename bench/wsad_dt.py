"""WSAD-DT: our batched implementation vs the reference implementation on PyPI (``wsad-dt``).

Same ADBench split (stratified 70/30, MinMax on train, 10 labeled anomalies), same epochs (100, the reference's
fixed value), batch size (64) and ensemble size (5). Prints training time and test AUC-PR of both and the ratios.
Needs ``pip install --no-deps wsad-dt`` (its dependencies numpy, scikit-learn and torch are ours already).

Usage: python bench/wsad_dt.py [--data PATH] [--seeds 1 2 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from cmbagent.tools.methods.anomaly import WSADDT, adbench_split, load_anomaly_data, score_metrics

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "examples" / "data" / "anomaly" / "6_cardio.npz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DEFAULT))
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [
        p for p in sys.path if str(Path(p or ".").resolve()) != here
    ]  # this file shadows the package
    try:
        import wsad_dt
    except ImportError:
        raise SystemExit("the reference is not installed: pip install --no-deps wsad-dt") from None
    X, y, _ = load_anomaly_data(args.data)
    rows = []
    for seed in args.seeds:
        split = adbench_split(X, y, n_labeled=10, seed=seed)
        start = time.perf_counter()
        ours = WSADDT(n_estimators=5, epochs=100, batch_size=args.batch_size, random_state=seed, device="cpu")
        ours.fit(split.X_train, split.y_train_partial)
        t_ours = time.perf_counter() - start
        pr_ours = score_metrics(split.y_test, ours.decision_function(split.X_test))["auc_pr"]
        start = time.perf_counter()
        ref = wsad_dt.WSADDT(n_ensemble=5, seed=100 * seed, batch_size=64).fit(
            split.X_train, split.y_train_partial
        )
        t_ref = time.perf_counter() - start  # includes the reference's scoring of the training set
        pr_ref = score_metrics(split.y_test, ref.decision_function(split.X_test))["auc_pr"]
        rows.append((t_ours, t_ref, pr_ours, pr_ref))
        print(
            f"seed {seed}: ours {t_ours:7.1f}s AUC-PR {pr_ours:.4f} | reference {t_ref:7.1f}s AUC-PR {pr_ref:.4f}"
        )
    t_ours, t_ref, pr_ours, pr_ref = np.mean(rows, axis=0)
    print(
        f"mean: ours {t_ours:.1f}s AUC-PR {pr_ours:.4f} | reference (wsad-dt {wsad_dt.__version__}) {t_ref:.1f}s "
        f"AUC-PR {pr_ref:.4f}"
    )
    print(
        f"time ratio ours/reference {t_ours / t_ref:.3f}; AUC-PR ratio ours/reference {pr_ours / pr_ref:.3f}"
    )


if __name__ == "__main__":
    main()
