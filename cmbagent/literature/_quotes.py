"""Checking that a quoted span really is in a chunk (what a citation audit needs).

Quotes are compared after normalising what a writer or a PDF extractor changes without changing the
words: case, runs of white space, typographic quotes and dashes, and words hyphenated across a line
break (``main- tain``).  An ellipsis (``...`` or ``…``) in the quote splits it into parts that must
appear in that order.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["normalise", "quote_in_text"]

_TRANSLATE = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                            "\u2014": "-", "\u2212": "-", "\u00a0": " "})
_HYPHEN_BREAK = re.compile(r"(\w)- +(\w)")
_SPACE = re.compile(r"\s+")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|\u2026|\[\.\.\.\])\s*")


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    text = _SPACE.sub(" ", text).strip().casefold()
    return _HYPHEN_BREAK.sub(r"\1\2", text)


def quote_in_text(quote: str, text: str, *, min_chars: int = 8) -> bool:
    """True when ``quote`` (at least ``min_chars`` of real text) appears in ``text`` (see the module docstring)."""
    parts = [normalise(p).strip(" \"'") for p in _ELLIPSIS.split(quote)]
    parts = [p for p in parts if p]
    if not parts or sum(len(p) for p in parts) < min_chars:
        return False
    haystack = normalise(text)
    position = 0
    for part in parts:
        found = haystack.find(part, position)
        if found < 0:
            return False
        position = found + len(part)
    return True
