"""Token counts for replies that came without usage (some local servers' streams).

Budgets in tokens only work when every call is counted.  When a server reports no usage, the text is
counted by the server's own tokenizer where it offers one (llama.cpp: ``POST /tokenize``;
llama-cpp-python: ``POST /extras/tokenize/count``), else estimated at about four characters a token.
``Usage.source`` says which, so a report can say that a total is an estimate.  Which tokenizer endpoint
an endpoint has (or that it has none) is probed once and remembered.  No local tokenizer is used:
tiktoken downloads its encodings.
"""

from __future__ import annotations

import threading
from typing import Any

from cmbagent.models._deadline import remaining
from cmbagent.models._protocol import Usage

__all__ = ["CHARS_PER_TOKEN", "count_usage", "estimate_tokens"]

#: the rule of thumb behind estimates (English prose and code with BPE tokenizers)
CHARS_PER_TOKEN = 4.0
_PROBE_TIMEOUT_S = 5.0
_TOKENIZERS: dict[str, str | None] = {}  # server root -> working tokenizer path, or None when it has none
_LOCK = threading.Lock()
_PATHS = ("/tokenize", "/extras/tokenize/count")


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` is (0 for empty text)."""
    return 0 if not text else max(1, round(len(text) / CHARS_PER_TOKEN))


def _root(base_url: str) -> str:
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


def _ask(client: Any, root: str, path: str, text: str) -> int | None:
    body = {"content": text} if path == "/tokenize" else {"input": text}
    try:
        reply = client.post(root + path, json=body)
    except Exception:  # the endpoint is optional: any failure means "not offered"
        return None
    if reply.status_code != 200:
        return None
    try:
        data = reply.json()
    except ValueError:
        return None
    if path == "/tokenize" and isinstance(data, dict) and isinstance(data.get("tokens"), list):
        return len(data["tokens"])
    if isinstance(data, dict) and isinstance(data.get("count"), int):
        return int(data["count"])
    return None


def _server_counts(base_url: str, api_key: str, texts: list[str]) -> list[int] | None:
    root = _root(base_url)
    with _LOCK:
        known = _TOKENIZERS.get(root, "")
    if known is None:
        return None
    left = remaining()
    if left is not None and left <= 0:
        return None
    import httpx

    headers = {"authorization": f"Bearer {api_key}"} if api_key else {}
    timeout = _PROBE_TIMEOUT_S if left is None else min(_PROBE_TIMEOUT_S, left)
    with httpx.Client(timeout=timeout, headers=headers) as client:
        for path in ([known] if known else list(_PATHS)):
            counts = [_ask(client, root, path, text) if text else 0 for text in texts]
            if all(count is not None for count in counts):
                with _LOCK:
                    _TOKENIZERS[root] = path
                return [int(count or 0) for count in counts]
    with _LOCK:
        _TOKENIZERS[root] = None
    return None


def count_usage(base_url: str, api_key: str, prompt: str, output: str) -> Usage:
    """Usage of a call whose reply reported none: by the server's tokenizer, else estimated.

    ``prompt`` is the request's messages as sent (without the chat template's few extra tokens).
    """
    counts = _server_counts(base_url, api_key, [prompt, output])
    if counts is not None:
        return Usage(input_tokens=counts[0], output_tokens=counts[1], source="tokenizer")
    return Usage(input_tokens=estimate_tokens(prompt), output_tokens=estimate_tokens(output), source="estimate")
