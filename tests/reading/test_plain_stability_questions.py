"""How robust a classifier is, asked in plain words, is a question for ``robustness.class_stability`` (issue 29).

A sceptic's check: "how far do the samples sit from where its prediction flips?" and "how stable are the
predictions when the inputs are nudged?" were asked back as a choice between class stability and BRACE's
counterfactual explanations, because only "decision boundary" and "class stability" were the field's words and
"classifier" is one of BRACE's keywords.  Plain words now count ("how robust", "how stable", "nudged", "the
prediction flips"), and BRACE keeps its own question: the smallest change that would flip one case's decision.
The sentences and the table were written for this test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.reading._make import read_with


def _plants(folder: Path) -> Path:
    rng = np.random.default_rng(9)
    X = rng.normal(size=(300, 4))
    healthy = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(int)
    path = folder / "plants.csv"
    np.savetxt(path, np.column_stack([X, healthy]), delimiter=",", comments="", header="petal,stem,leaf,root,healthy",
               fmt=["%.3f"] * 4 + ["%d"])
    return path


def _reading(tmp_path: Path, text: str) -> Any:
    return read_with(_plants(tmp_path), text)


@pytest.mark.parametrize("text", [
    "How robust is a classifier of healthy plants (plants.csv)? How far do the samples sit from where its "
    "prediction flips?",
    "How stable are the predictions of a healthy/sick classifier on plants.csv when the inputs are nudged?",
])
def test_robustness_in_plain_words(tmp_path: Path, text: str) -> None:
    reading = _reading(tmp_path, text)
    assert reading.choice.status == "chosen" and reading.method == "robustness.class_stability", \
        reading.choice.to_dict()
    assert reading.understanding.arguments.get("label_column") == "healthy" and reading.clear


def test_one_case_s_smallest_flip_stays_a_counterfactual(tmp_path: Path) -> None:
    reading = _reading(tmp_path, "For the plants in plants.csv that the classifier calls sick, what is the smallest "
                                 "change to their measurements that would flip the decision?")
    assert reading.method == "causal.brace_counterfactual", reading.choice.to_dict()
