"""Checks of the blind prose task set itself (tasks.yaml, tasks/, data/), not of the reader.

The set measures the reader only if it is sound and really unseen: every expected method and argument is one
the catalogue accepts, every file is the one the text names, the data regenerate byte for byte, and neither
the data nor the wording is borrowed from the public set (tests/understanding/), the held-out set
(tests/understanding_heldout/) or the examples. The set states no answers (README.md, "What is expected").
The checks are the ones every prose set shares (``tests/prose_sets/checks.py``).
"""

from __future__ import annotations

from pathlib import Path

from tests.prose_sets.checks import CATALOGUE_26, ProseSet, ProseSetChecks


class TestBlindSet(ProseSetChecks):
    prose_set = ProseSet(
        Path(__file__).resolve().parent,
        covered=CATALOGUE_26,  # `cmbagent methods list` when it was written
        min_tasks=30, min_none=3, min_ask=3,
        earlier=("understanding", "understanding_heldout"),  # the sets written before it
        min_texts=60,
    )
