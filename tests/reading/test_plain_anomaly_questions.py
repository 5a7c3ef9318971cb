"""A question about unusual rows in plain words is a question for ``anomaly.wsad_dt`` (issue 29).

A sceptic's check: "which turbines look like they are about to fail?", about a table where engineers marked the few
turbines they inspected, was read as fitting no method, because the field's words were "anomaly", "fault" and
"outlier".  The field now knows the plain ones: "unusual", "behave oddly", "suspicious", "about to fail", "found
damaged on inspection".  The sentences and the table were written for this test.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.reading._make import read_with


def _turbines(folder: Path) -> Path:
    """400 turbines with five vibration channels; `inspected` is 1 for damage found, 0 for sound, blank unchecked."""
    rng = np.random.default_rng(21)
    X = rng.normal(size=(400, 5))
    failing = rng.choice(400, 20, replace=False)
    X[failing] += 3.0
    inspected = np.full(400, np.nan)
    inspected[failing[:5]] = 1
    inspected[rng.choice(np.setdiff1d(np.arange(400), failing), 40, replace=False)] = 0
    path = folder / "turbines.csv"
    lines = ["vib_0,vib_1,vib_2,vib_3,vib_4,inspected"]
    lines += [",".join(f"{v:.3f}" for v in row) + ("," if np.isnan(i) else f",{int(i)}")
              for row, i in zip(X, inspected, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("text", "label"), [
    ("Our wind turbines log five vibration channels (turbines.csv). Engineers inspected a few of them; most rows "
     "were never checked. Which turbines look like they are about to fail?", "inspected"),
    # the labels are not named: the only 0/1 column, blank in the rows nobody checked, is read as them
    ("Rank the turbines in turbines.csv by how unusual their vibration is, using the handful we already know are "
     "broken.", "inspected"),
    ("Which machines behave oddly? turbines.csv, with some hand-checked examples in the inspected column.",
     "inspected"),
    ("Some turbines in turbines.csv were found damaged on inspection (inspected = 1). Which of the unchecked ones "
     "look like them?", "inspected"),
    ("Flag the suspicious turbines in turbines.csv; the inspected column holds what the engineers found.",
     "inspected"),
])
def test_unusual_rows_in_plain_words(tmp_path: Path, text: str, label: str) -> None:
    reading = read_with(_turbines(tmp_path), text)
    assert reading.choice.status == "chosen" and reading.method == "anomaly.wsad_dt", reading.choice.to_dict()
    assert reading.understanding.arguments.get("label") == label


def test_labels_left_unnamed_are_named_by_the_error(tmp_path: Path) -> None:
    """Run without ``label`` (a front matter that leaves it out), the 0/1/blank column would be a feature full of
    blanks: the loader says which column looks like the labels and how to pass it, not only that a feature has NaN
    values."""
    from cmbagent.exceptions import DataError
    from cmbagent.tools.methods.anomaly import load_anomaly_data

    with pytest.raises(DataError, match=r"'inspected' holds only 0, 1 and blanks.*label: inspected"):
        load_anomaly_data(_turbines(tmp_path))


@pytest.mark.parametrize("text", [
    "Plot the vibration channels of turbines.csv against each other; nothing more yet.",
    "Is vibration channel 2 of turbines.csv higher for the turbines that were inspected?",
])
def test_a_look_at_the_same_table_is_no_anomaly_hunt(tmp_path: Path, text: str) -> None:
    reading = read_with(_turbines(tmp_path), text)
    assert reading.method != "anomaly.wsad_dt", reading.choice.to_dict()
