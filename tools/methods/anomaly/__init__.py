"""Anomaly-detection method tools.

``wsad_dt`` (registered as ``anomaly.wsad_dt``) runs WSAD-DT and its baselines under the ADBench protocol;
``WSADDT`` and ``DevNet`` are the scikit-learn-style estimators. Importing this package registers the
tool; torch, scikit-learn and pyod load only when a model is fitted.
"""

from __future__ import annotations

from cmbagent.tools.methods.anomaly._devnet import DevNet
from cmbagent.tools.methods.anomaly._protocol import (
    ADBenchSplit,
    adbench_split,
    load_anomaly_data,
    score_metrics,
)
from cmbagent.tools.methods.anomaly._tool import wsad_dt
from cmbagent.tools.methods.anomaly._wsad_dt import WSADDT

__all__ = [
    "WSADDT",
    "ADBenchSplit",
    "DevNet",
    "adbench_split",
    "load_anomaly_data",
    "score_metrics",
    "wsad_dt",
]
