"""Anomaly-detection method tools.

``wsad_dt`` (registered as ``anomaly.wsad_dt``) runs WSAD-DT and its baselines under the ADBench protocol;
``WSADDT`` and ``DevNet`` are the scikit-learn-style estimators. Importing this package registers the
tool; torch, scikit-learn and pyod load only when a model is fitted.
"""

from __future__ import annotations

from cmbagent.tools.methods._registry import family
from cmbagent.tools.methods.anomaly._devnet import DevNet
from cmbagent.tools.methods.anomaly._protocol import (
    ADBenchSplit,
    adbench_split,
    load_anomaly_data,
    load_anomaly_rows,
    score_metrics,
)
from cmbagent.tools.methods.anomaly.wsad_dt import WSADDT, wsad_dt

FAMILY = family(
    "anomaly",
    title="Anomaly detection",
    expert="anomaly_analyst",
    description="Weakly supervised anomaly detection scored under the ADBench protocol.",
)

__all__ = [
    "FAMILY",
    "WSADDT",
    "ADBenchSplit",
    "DevNet",
    "adbench_split",
    "load_anomaly_data",
    "load_anomaly_rows",
    "score_metrics",
    "wsad_dt",
]
