"""Checks of the fifteenth blind prose task set itself (tasks.yaml, tasks/, data/), not of the reader.

The set measures the reader only if it is sound and really unseen: every expected method and argument is one
the catalogue accepts, every file is the one the text names, the data regenerate byte for byte, and neither
the data nor the wording is borrowed from any other prose set (every ``tests/understanding*`` folder with a
manifest: the public, held-out, blind, fourth to fourteenth blind sets, and any set added later) or the examples.
The set states no answers (README.md, "What is expected"). The checks are the ones every prose set shares
(``tests/prose_sets/checks.py``).
"""

from __future__ import annotations

from pathlib import Path

from tests.prose_sets.checks import CATALOGUE_26, MOST_USED, ProseSet, ProseSetChecks


class TestFifteenthBlindSet(ProseSetChecks):
    prose_set = ProseSet(
        Path(__file__).resolve().parent,
        covered=CATALOGUE_26,  # `cmbagent methods list` when it was written
        min_tasks=45, min_none=4, min_ask=4,
        most_used=MOST_USED, min_extra=10,  # at least 10 tasks beyond one per method among them
        # compared with every other set; the ones written before it must be among them
        written_before=frozenset({"understanding", "understanding_heldout", "understanding_blind",
                                  "understanding_blind4", "understanding_blind5", "understanding_blind6",
                                  "understanding_blind7", "understanding_blind8", "understanding_blind9",
                                  "understanding_blind10", "understanding_blind11", "understanding_blind12",
                                  "understanding_blind13", "understanding_blind14"}),
        min_texts=500,
    )
