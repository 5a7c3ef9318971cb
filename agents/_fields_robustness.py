"""The words of robustness of models and explanations: how its scientists ask for the methods of the ``robustness`` family, and how
their prose states those methods' arguments (see :mod:`cmbagent.agents._fields` for the format)."""

from __future__ import annotations

from cmbagent.agents._fields import field_words, labelled_table

field_words(
    "robustness.class_stability",
    intents=(
        "How far are the points from the classifier's decision boundary?",
        "Measure the class stability of the model: the expected distance to the decision boundary.",
        "How does the margin of a network change as it gets wider than the number of training points?",
        "Is the classifier robust: how much can an input move before its predicted class changes?",
    ),
    cues={r"\bdecision boundar": 3.0, r"\bclass stability\b": 3.0, r"\bmargins?\b": 1.5,
          r"\bdistance to (?:the )?boundar": 3.0, r"\bwider network|\bwidth of the (?:network|hidden layer)": 1.5,
          r"\bover-?parameteri[sz]": 1.0, r"\bpredicted class changes\b": 2.0},
    data=lambda files: labelled_table(files) if files else 0.0,
)

field_words(
    "robustness.x_hacking",
    intents=(
        "Could someone pick a defensible model that makes this feature look unimportant in the SHAP explanation?",
        "How easy is it to hide the influence of a sensitive feature by choosing among equally accurate pipelines?",
        "Search the set of well-performing models for one whose explanation downplays the feature.",
    ),
    cues={r"\bSHAP\b": 2.5, r"\bexplanations?\b": 1.0, r"\bfeature importance\b": 1.5, r"\bhide\b": 1.0,
          r"\bdownplay": 1.5, r"\bdefensible\b": 2.0, r"\bRashomon\b": 2.5, r"\bX-hacking\b": 3.0,
          r"\bcherry-?pick": 1.5, r"\bequally (?:good|accurate) (?:models|pipelines)\b": 2.0},
    data=lambda files: labelled_table(files),
)
