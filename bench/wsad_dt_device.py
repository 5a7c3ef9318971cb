"""Fit WSAD-DT on ADBench cardio on whatever device is present; print device, fit time and AUC-PR.

Usage: python bench/wsad_dt_device.py [--data PATH] [--seed 1] [--device auto]

The same fit is timed on the CPU in the same run as the named baseline, so the printed ratio compares the
accelerator with the CPU on this machine.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cmbagent.tools.methods.anomaly import WSADDT, adbench_split, load_anomaly_data, score_metrics

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "examples" / "data" / "anomaly" / "6_cardio.npz"


def fit_once(split, device: str, seed: int) -> tuple[str, float, float]:
    start = time.perf_counter()
    model = WSADDT(random_state=seed, device=device).fit(split.X_train, split.y_train_partial)
    score = model.decision_function(split.X_test)
    elapsed = time.perf_counter() - start
    return str(model.device_), elapsed, score_metrics(split.y_test, score)["auc_pr"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DEFAULT))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--device", default="auto")
    args = parser.parse_args()
    X, y, _ = load_anomaly_data(args.data)
    split = adbench_split(X, y, n_labeled=10, seed=args.seed)
    fit_once(split, args.device, args.seed)  # warm-up: CUDA context, kernels, allocator
    device, seconds, auc_pr = fit_once(split, args.device, args.seed)
    print(f"device={device} fit+score={seconds:.2f}s auc_pr={auc_pr:.4f}")
    if device != "cpu":
        _, cpu_seconds, cpu_auc_pr = fit_once(split, "cpu", args.seed)
        print(f"baseline device=cpu fit+score={cpu_seconds:.2f}s auc_pr={cpu_auc_pr:.4f}")
        print(f"speed-up vs cpu: {cpu_seconds / seconds:.2f}x")


if __name__ == "__main__":
    main()
