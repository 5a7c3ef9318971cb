"""Per-endpoint memories (structured-output mode, tokenizer endpoint) start empty in every test: fake
servers get fresh ports, but a port can come back within one worker's session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _forget_endpoints() -> Iterator[None]:
    from cmbagent.models import _tokens, openai

    openai._WORKING_MODE.clear()
    _tokens._TOKENIZERS.clear()
    yield
    openai._WORKING_MODE.clear()
    _tokens._TOKENIZERS.clear()
