"""Paper validation: WSAD-DT vs IsolationForest, XGBOD and a DevNet-style network under the ADBench protocol.

cardio (examples/data), thyroid and satellite (tests/data), 10 labeled training anomalies, seeds 1-3 (issue 7). XGBOD is
printed beside them; its training rows are subsampled to 1,500 (all labeled anomalies kept) because its dozens
of unsupervised base detectors would otherwise dominate the suite's time.

Measured on this implementation (issue 7): WSAD-DT's mean test AUC-PR beats IsolationForest on cardio and
thyroid but not on satellite, and the DevNet-style baseline on cardio (0.790 vs 0.760) but not on thyroid
(0.887 vs 0.929) or satellite (0.540 vs 0.751). Without the unlabeled training anomalies (the paper's own
setting, ``unlabeled_anomalies=0``) it beats both on cardio and IsolationForest on satellite.

The owner's decision (issue 15): the ADBench protocol stays the default, and the shortfall is recorded as a
finding about the method -- ``anomaly.wsad_dt`` states it with every protocol result (``method.known_shortfall``).
So nothing here is an expected failure; the module asserts what must not regress:

* the comparisons that held in both protocols (cardio: above IsolationForest and the DevNet-style baseline);
* the comparisons that held where they were measured (thyroid above IsolationForest under ADBench; satellite
  above IsolationForest without unlabeled anomalies);
* where WSAD-DT falls short (thyroid and satellite under ADBench), parity with the reference implementation
  (PyPI ``wsad-dt`` 1.0.0, which falls short there by more; its means measured with ``bench/wsad_dt.py``)
  within training-seed noise, and that the recorded finding is still true.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from cmbagent.tools.methods.anomaly import WSADDT, adbench_split, load_anomaly_data, score_metrics
from cmbagent.tools.methods.anomaly._protocol import ADBENCH_SHORTFALL, run_baseline
from tests.conftest import EXAMPLE_DATA, REFERENCE_DATA

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::UserWarning")]

SEEDS = (1, 2, 3)


@functools.cache
def _run(name: str, baselines: tuple[str, ...], unlabeled_anomalies: float) -> dict[str, tuple[float, ...]]:
    """Test AUC-PR per split seed for WSAD-DT and each baseline (computed once per module and protocol)."""
    folder = EXAMPLE_DATA if name == "6_cardio" else REFERENCE_DATA  # cardio ships with its example task
    X, y, _ = load_anomaly_data(folder / "anomaly" / f"{name}.npz")
    out: dict[str, list[float]] = {"wsad_dt": [], **{b: [] for b in baselines}}
    for seed in SEEDS:
        split = adbench_split(X, y, n_labeled=10, seed=seed, unlabeled_anomalies=unlabeled_anomalies)
        model = WSADDT(random_state=seed, n_threads=1).fit(split.X_train, split.y_train_partial)
        out["wsad_dt"].append(score_metrics(split.y_test, model.decision_function(split.X_test))["auc_pr"])
        for baseline in baselines:
            metrics, _ = run_baseline(baseline, split, n_threads=1, xgbod_max_rows=1500)
            out[baseline].append(metrics["auc_pr"])
    table = "\n".join(f"  {k:8s} {' '.join(f'{x:.3f}' for x in v)}  mean {np.mean(v):.3f}" for k, v in out.items())
    print(f"\n{name} (unlabeled_anomalies={unlabeled_anomalies}) AUC-PR for seeds {SEEDS} and mean:\n{table}")
    return {k: tuple(v) for k, v in out.items()}


ADBENCH = ("iforest", "devnet", "xgbod")
CLEAN = ("iforest", "devnet")


def _mean(result: dict[str, tuple[float, ...]], key: str) -> float:
    return float(np.mean(result[key]))


@pytest.mark.parametrize(("unlabeled", "baselines", "margin"), [(1.0, ADBENCH, 0.0), (0.0, CLEAN, 0.02)],
                         ids=["adbench", "without-unlabeled-anomalies"])
def test_cardio_beats_iforest_and_devnet_in_both_protocols(unlabeled: float, baselines: tuple[str, ...],
                                                           margin: float) -> None:
    result = _run("6_cardio", baselines, unlabeled)
    assert all(0.0 < x <= 1.0 for v in result.values() for x in v)
    for baseline in ("iforest", "devnet"):
        assert _mean(result, "wsad_dt") > _mean(result, baseline) + margin, (baseline, result)


def test_satellite_beats_iforest_without_unlabeled_anomalies() -> None:
    """ADBench keeps every unlabeled training anomaly as an unlabeled row; on satellite (32 % anomalies) that is
    ~1,400 anomalies trained as normal, which is where WSAD-DT falls behind IsolationForest. The paper's
    experiment script drops them (``contamination_ratio = 0``); so does ``unlabeled_anomalies=0``."""
    result = _run("30_satellite", CLEAN, 0.0)
    assert _mean(result, "wsad_dt") > _mean(result, "iforest") + 0.02, result


#: the reference implementation (PyPI ``wsad-dt`` 1.0.0) on the same ADBench splits, 10 labels, split seeds 1-3:
#: mean test AUC-PR measured with ``bench/wsad_dt.py`` (issue 7 note; the bench reruns it live). Training it here
#: would cost minutes per data set on two cores, so the suite compares against these measurements.
REFERENCE_MEAN_AUC_PR = {"38_thyroid": 0.860, "30_satellite": 0.483}


@pytest.mark.parametrize(("name", "beats", "beaten_by"), [("38_thyroid", ("iforest",), ("devnet",)),
                                                          ("30_satellite", (), ("iforest", "devnet"))])
def test_adbench_shortfall_is_the_methods_parity_with_the_reference_and_the_finding_is_true(
    name: str, beats: tuple[str, ...], beaten_by: tuple[str, ...]
) -> None:
    """Where WSAD-DT loses under ADBench, ours must stay at least at the reference implementation's level within
    training-seed noise (mean over split seeds above the reference mean minus 2 standard errors of ours), the
    comparisons that held must still hold (thyroid: above IsolationForest), and the finding the tool states
    about the method must still be true."""
    ours = _run(name, ADBENCH, 1.0)
    for baseline in beats:
        assert _mean(ours, "wsad_dt") > _mean(ours, baseline), (baseline, ours)
    scores = np.array(ours["wsad_dt"])
    se = float(np.std(scores, ddof=1) / math.sqrt(len(scores)))
    reference = REFERENCE_MEAN_AUC_PR[name]
    print(f"\n{name}: ours {scores.mean():.3f} ± {se:.3f} (seeds {SEEDS}) vs reference {reference:.3f}")
    assert scores.mean() > reference - 2 * se, (ours["wsad_dt"], reference)
    for baseline in beaten_by:  # the recorded finding (method.known_shortfall) must stay true, or be updated
        assert _mean(ours, baseline) > _mean(ours, "wsad_dt"), (
            f"{name}: WSAD-DT now beats {baseline}; update ADBENCH_SHORTFALL in anomaly/_tool.py", ours)
    assert name.split("_")[1] in ADBENCH_SHORTFALL.message
