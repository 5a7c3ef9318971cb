"""Regular expressions the reader builds from words, compiled once per process.

The reader builds its patterns from the methods' field words, keywords and argument names: a few thousand
distinct patterns, more than the 512 that :mod:`re` keeps compiled.  Without this cache every task recompiled
them all, which was two thirds of the time a task took to read.
"""

from __future__ import annotations

import functools
import re


@functools.lru_cache(maxsize=16384)
def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, remembered."""
    return re.compile(pattern, flags)
