"""Checks of the thirty-second blind prose task set itself (tasks.yaml, tasks/, data/), not of the reader.

What every blind set promises, and the checks that hold it to that, are in ``tests/prose_sets/checks.py``
(``blind_set``, ``ProseSetChecks``); the set states no answers (README.md, "What is expected").
"""

from __future__ import annotations

from tests.prose_sets.checks import ProseSetChecks, blind_set


class TestThirtySecondBlindSet(ProseSetChecks):
    prose_set = blind_set(__file__, min_tasks=45, min_ask=4, min_texts=1083)
