"""The offline reader held to its goals on the public prose set, and to its measured level on the held-out set.

The public set (``tests/understanding``) is what the reader was tuned on: the goals of issue 29 hold there —
≥ 95% method accuracy, ≥ 90% argument accuracy, at most the one silent wrong mapping left (named below, so a new
one fails).  The held-out set (``tests/understanding_heldout``) was written blind to the tuning; on it the reader
is far weaker (see docs/understanding.md, "Measuring it"): this test is a ratchet at the measured level, so the
numbers can only improve, and the set stays a measurement (nothing here tunes to its tasks).
"""

from __future__ import annotations

import pytest

from tests.reading._prose import SET, load_set, read_offline, score

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning")]

HELD_OUT = SET.parent / "understanding_heldout"
#: the silent wrong mapping still left on the public set: `single_head_strong_sparsity` states the edit scale,
#: the L0 weight and the seed in words the lm reader does not read ("three times as strong")
KNOWN_PUBLIC = {"single_head_strong_sparsity"}


def test_public_set_meets_the_goals() -> None:
    scored = score()
    summary = scored.summary()
    assert scored.method_accuracy >= 0.95, summary
    assert scored.argument_accuracy >= 0.90, summary
    assert {v.name for v in scored.silent_wrong} <= KNOWN_PUBLIC, [(v.name, v.wrong_arguments)
                                                                   for v in scored.silent_wrong]


def test_held_out_set_does_not_fall_below_its_measured_level() -> None:
    tasks = load_set(HELD_OUT)
    scored = score(lambda t: read_offline(t, HELD_OUT), tasks)
    summary = scored.summary()
    # measured 2026-12-05 (bench/understanding.py): 43 tasks, method 0.91, arguments 0.03, silent wrong 12
    assert scored.method_accuracy >= 0.90, summary
    assert len(scored.silent_wrong) <= 12, [(v.name, v.wrong_arguments or v.method) for v in scored.silent_wrong]
