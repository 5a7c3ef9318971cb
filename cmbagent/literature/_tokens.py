"""Word tokens for BM25: lower case, identifiers split at ``_`` and ``.`` as well as kept whole.

Kept deliberately plain (no stemmer): a light plural fold is the only normalisation, so that
"supernovae"/"supernova" and "methods"/"method" meet while exact technical names still match exactly.
"""

from __future__ import annotations

import re

__all__ = ["tokenize"]

_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*[A-Za-z0-9]|[A-Za-z0-9]")
_STOP = frozenset(
    "a an and are as at be by can do does for from has have how i in is it its of on or that the this to "
    "was we were what when where which who why will with you your".split()
)


def _fold(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("ae"):  # supernovae -> supernova, formulae -> formula
        return word[:-1]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """BM25 tokens of ``text``."""
    tokens: list[str] = []
    for match in _WORD.finditer(text.lower()):
        word = match.group(0)
        parts = [p for p in re.split(r"[_.+-]", word) if p]
        if len(parts) > 1:
            tokens.append(word)
        for part in parts:
            if part not in _STOP and (len(part) > 1 or part.isdigit()):
                tokens.append(_fold(part))
    return tokens
