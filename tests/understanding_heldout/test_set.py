"""Checks of the held-out prose task set itself (tasks.yaml, tasks/, data/, reference/), not of the reader.

A held-out set measures the reader only if it is sound and really held out: every expected method and
argument is one the catalogue accepts, every file is the one the text names, the data regenerate byte for
byte, each stated answer is what the independent reference computes, and neither the data nor the wording is
borrowed from the public set (tests/understanding/) or the examples. The checks every prose set shares are in
``tests/prose_sets/checks.py``; the reference check is this set's own.
"""

from __future__ import annotations

import math
from pathlib import Path

from tests.prose_sets.checks import CATALOGUE_26, ProseSet, ProseSetChecks

HELDOUT = ProseSet(
    Path(__file__).resolve().parent,
    # `cmbagent methods list`: 24 methods when it was written, then cmb_spectra and fit_cmb
    covered=CATALOGUE_26,
    min_tasks=30, min_none=6, min_ask=3,
    earlier=("understanding",),  # held out from the public set (and the examples)
    min_texts=60,
    answers=True,
    unnamed_data=frozenset({"truths.json"}),  # the simulation truths the reference reads, named by no task
    max_bytes=1_500_000,
)


class TestHeldOutSet(ProseSetChecks):
    prose_set = HELDOUT

    def test_reference_reproduces_every_answer(self) -> None:
        """Each stated answer equals the reference computation to within 2% of its tolerance (rounding)."""
        answers = HELDOUT.load("reference/answers.py").ANSWERS
        by_name = {t["name"]: t for t in HELDOUT.tasks}
        with_answer = {name for name, t in by_name.items() if "answer" in t["expect"]}
        assert with_answer == set(answers), f"no reference: {with_answer - set(answers)}; " \
                                            f"no answer: {set(answers) - with_answer}"
        for name in sorted(with_answer):
            answer = by_name[name]["expect"]["answer"]
            got = answers[name](HELDOUT.data)
            assert math.isfinite(got)
            assert abs(got - answer["equals"]) <= 0.02 * answer["tolerance"], f"{name}: reference {got}, " \
                                                                             f"manifest {answer['equals']}"
