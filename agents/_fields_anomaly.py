"""The words of anomaly detection: how its scientists ask for the methods of the ``anomaly`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, labelled_table

field_words(
    "anomaly.wsad_dt",
    intents=(
        "A few of the faulty readings were flagged by engineers; find the rest of the anomalies.",
        "Detect the fraudulent transactions using the handful of cases that were already confirmed.",
        "Weakly supervised anomaly detection with a small number of labelled outliers.",
        "Which of the sensor records are abnormal? We labelled some of them by hand.",
    ),
    cues={r"\banomal(?:y|ies|ous)\b": 3.0, r"\boutliers?\b": 2.0, r"\bfault(?:y|s)?\b": 2.0, r"\bfraud": 2.5,
          r"\babnormal\b": 2.0, r"\b(?:flagged|labell?ed|confirmed) (?:by hand|cases|anomal|fault|outlier)": 1.5,
          r"\bintrusion\b": 2.0, r"\bdefect": 1.5, r"\bweakly supervised\b": 1.5, r"\bAUC[- ]?PR\b": 0.8},
    data=lambda files: labelled_table(files, rare=True),
)
