"""Citations: a cited passage of the knowledge index, and the ``[n]`` markers that point at it in prose.

A citation names a chunk of an index (its stable id) and the span quoted from it, so whether it resolves is
a fact code can establish: the chunk still exists and the quote is in its text.  Agents number the
citations of one answer ``[1]``, ``[2]``, ...; the report renumbers every run's citations in one
References list and checks them again.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

__all__ = ["Citation", "citation_markers"]

# [3], [1, 2], [1][2] — not [x], not markdown link text like [see](...)
_MARKER = re.compile(r"\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()")


class Citation(BaseModel):
    """One cited passage: the chunk it resolves to and the span quoted from it."""

    chunk_id: str = Field(description="The stable id of the indexed chunk.")
    quote: str = Field(description="The span quoted from the chunk, word for word.")
    source: str = Field(default="", description="The chunk's source (a file path), filled in by code.")
    locator: str = Field(default="", description="Page, lines or cell of the chunk in its source.")


def citation_markers(text: str) -> list[int]:
    """Every ``[n]`` number in ``text``, in order (``[1, 3]`` gives 1 and 3)."""
    return [int(n) for group in _MARKER.findall(text) for n in group.split(",")]
