"""The deadline of the model call in progress, derived by :class:`ModelClient` from the run's time budget.

It travels in a context variable, not in the request: the request is what the model sees and what
transcripts hash (a deadline differs on every run, so it must not change the replay hash), while the
deadline is a limit of this process.  HTTP adapters read it to cap each attempt's timeout, to stop a
stream that outlives it and to skip retries that would start past it; they then raise
:class:`DeadlineReached`, which the client turns into ``BudgetExceeded`` (the run stops cleanly).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from cmbagent.exceptions import ModelError

__all__ = ["CallAborted", "DeadlineReached", "abort_signal", "aborted", "call_deadline", "remaining"]

_DEADLINE: ContextVar[float | None] = ContextVar("cmbagent_model_call_deadline", default=None)
_ABORT: ContextVar[threading.Event | None] = ContextVar("cmbagent_model_call_abort", default=None)


class DeadlineReached(ModelError):
    """A model call ran out of the time its deadline allowed (internal to the models layer)."""


class CallAborted(ModelError):
    """The call in flight was stopped from outside (the run was cancelled); the client turns it into the
    cancel (internal to the models layer)."""


@contextmanager
def call_deadline(seconds: float | None, abort: threading.Event | None = None) -> Iterator[None]:
    """Give the calls made inside the block ``seconds`` from now (``None``: no deadline); setting ``abort``
    (from any thread) stops them as the deadline would, at once."""
    token = _DEADLINE.set(None if seconds is None else time.monotonic() + max(0.0, seconds))
    abort_token = _ABORT.set(abort)
    try:
        yield
    finally:
        _ABORT.reset(abort_token)
        _DEADLINE.reset(token)


def abort_signal() -> threading.Event | None:
    """The current call's abort event, if its caller gave one."""
    return _ABORT.get()


def aborted() -> bool:
    """Whether the current call was asked to stop."""
    event = _ABORT.get()
    return event is not None and event.is_set()


def remaining() -> float | None:
    """Seconds left before the current call's deadline (may be negative), or ``None`` without one."""
    at = _DEADLINE.get()
    return None if at is None else at - time.monotonic()
