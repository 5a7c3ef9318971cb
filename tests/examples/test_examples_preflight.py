"""Every example passes the offline pre-flight check, which reads its text beside its front matter.

Only three examples run end to end in the suite (``test_examples.py``); the others are run by
``scripts/examples_table.py``.  A change of the reader that asks about something an example's front matter already
fixes would stop that example before it starts ("the text lists “family size” for 'covariates' ... but no column
of the data holds it", though the front matter lists ``fsize``), and only a full table run would notice.  Reading
all of them takes seconds.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.preflight import preflight
from cmbagent.task import load_task

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.md") if p.name != "README.md")


def test_the_examples_are_all_here() -> None:
    assert len(EXAMPLES) >= 29, EXAMPLES


@pytest.mark.parametrize("name", EXAMPLES)
def test_an_example_passes_the_offline_preflight(name: str) -> None:
    task = load_task(ROOT / "examples" / name)
    checked = preflight(task, offline=True)  # raises TaskUnclear with the questions it would ask
    assert checked.method == task.method, (checked.method, task.method)
