"""Budgets (USD, tokens, wall-clock seconds) and the ledger of what a run has spent.

The ledger totals usage and cost per call, per agent and per run.  :class:`ModelClient` checks the budget
before every call, so a run stops cleanly (``BudgetExceeded``) instead of overspending; calls whose price
is unknown count their tokens but add nothing to the USD total (``cost_known`` turns false).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from cmbagent.exceptions import BudgetExceeded, ConfigError

__all__ = ["BUDGET_FLAGS", "WARN_FRACTION", "Budget", "CallRecord", "Ledger", "SharedBudget", "exhausted"]

#: a ``budget_warning`` event is emitted once per kind when this fraction of a limit is spent
WARN_FRACTION = 0.8
#: the command-line flag that sets each limit (named in every "budget exhausted" message)
BUDGET_FLAGS = {"usd": "--budget-usd", "tokens": "--budget-tokens", "seconds": "--timeout"}


def exhausted(kind: str, spent: float, limit: float, *, why: str = "") -> BudgetExceeded:
    """The error that stops a run whose ``kind`` budget is spent (``why``: what ran into the limit)."""
    what = why or f"{kind} budget exhausted: spent {spent:.4g} of {limit:.4g}"
    return BudgetExceeded(
        f"{what}; the run stops here with a partial report (raise the limit with {BUDGET_FLAGS[kind]} or in "
        f"cmbagent.toml [budget] {kind} to go on)",
        kind=kind, limit=float(limit), spent=float(spent),
    )


@dataclass(frozen=True)
class Budget:
    """Limits for one run; ``None`` means unlimited. Tokens count input plus output."""

    usd: float | None = None
    tokens: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        for kind in ("usd", "tokens", "seconds"):
            value = getattr(self, kind)
            if value is not None and value <= 0:
                raise ConfigError(f"budget {kind} must be positive (got {value}); omit it for no limit")

    @classmethod
    def from_sources(
        cls,
        *,
        config: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        usd: float | None = None,
        tokens: int | None = None,
        seconds: float | None = None,
    ) -> Budget:
        """Merge ``[budget]`` of ``cmbagent.toml`` < ``CMBAGENT_BUDGET_USD|TOKENS|SECONDS`` < arguments."""
        env = os.environ if env is None else env
        table = dict((config or {}).get("budget", {}))
        merged: dict[str, Any] = {}
        for kind, cast in (("usd", float), ("tokens", int), ("seconds", float)):
            value: Any = table.get(kind)
            raw = env.get(f"CMBAGENT_BUDGET_{kind.upper()}")
            if raw:
                value = raw
            explicit = {"usd": usd, "tokens": tokens, "seconds": seconds}[kind]
            if explicit is not None:
                value = explicit
            if value is not None:
                try:
                    merged[kind] = cast(value)
                except (TypeError, ValueError) as exc:
                    raise ConfigError(f"budget {kind} must be a number, got {value!r}") from exc
        return cls(**merged)

    def to_dict(self) -> dict[str, Any]:
        return {"usd": self.usd, "tokens": self.tokens, "seconds": self.seconds}


class SharedBudget(Protocol):
    """An account that several runs draw on at once (a batch's ``--budget-usd`` total), possibly in other
    processes: checked before each call of every run, charged after it."""

    def check(self) -> None:
        """Raise :class:`BudgetExceeded` (see :func:`exhausted`) when the account is spent."""

    def charge(self, usd: float, tokens: int) -> None:
        """Book one call's cost and tokens."""


@dataclass
class CallRecord:
    """One model call as the ledger sees it."""

    agent: str
    model: str
    input_tokens: int
    output_tokens: int
    cached_tokens: int
    cost_usd: float | None
    latency_s: float
    usage_source: str = "provider"  # "tokenizer" or "estimate" when the provider reported no usage
    #: the server's account (llama.cpp timings): seconds reading the prompt and generating; None where it gave none
    prefill_s: float | None = None
    generation_s: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class _Totals:
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    latency_s: float = 0.0
    tokens_estimated: bool = False
    prefill_s: float = 0.0
    generation_s: float = 0.0
    #: output tokens of the calls whose generation time the server reported (for the generation rate)
    timed_output_tokens: int = 0

    def add(self, call: CallRecord) -> None:
        self.calls += 1
        if call.prefill_s is not None:
            self.prefill_s += call.prefill_s
        if call.generation_s is not None:
            self.generation_s += call.generation_s
            self.timed_output_tokens += call.output_tokens
        self.tokens_estimated = self.tokens_estimated or call.usage_source == "estimate"
        self.input_tokens += call.input_tokens
        self.output_tokens += call.output_tokens
        self.cached_tokens += call.cached_tokens
        self.latency_s += call.latency_s
        if call.cost_usd is None:
            self.cost_known = False
        else:
            self.cost_usd += call.cost_usd

    def to_dict(self) -> dict[str, Any]:
        data = dict(self.__dict__)
        data["total_tokens"] = self.input_tokens + self.output_tokens
        # an unknown price makes the USD total a lower bound; say so instead of pretending
        data["cost_usd"] = round(self.cost_usd, 6) if self.cost_known else None
        data["cost_usd_known_part"] = round(self.cost_usd, 6)
        data["latency_s"] = round(self.latency_s, 3)
        data["prefill_s"] = round(self.prefill_s, 3)
        data["generation_s"] = round(self.generation_s, 3)
        return data


@dataclass
class Ledger:
    """What a run has spent, per call, per agent and in total. Thread-safe."""

    calls: list[CallRecord] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)
    elapsed_offset_s: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, call: CallRecord) -> None:
        with self._lock:
            self.calls.append(call)

    def totals(self) -> dict[str, Any]:
        totals = _Totals()
        for call in list(self.calls):
            totals.add(call)
        return totals.to_dict()

    def per_agent(self) -> dict[str, dict[str, Any]]:
        by_agent: dict[str, _Totals] = {}
        for call in list(self.calls):
            by_agent.setdefault(call.agent, _Totals()).add(call)
        return {agent: totals.to_dict() for agent, totals in by_agent.items()}

    @property
    def cost_usd(self) -> float:
        """USD spent on calls with a known price."""
        return sum(c.cost_usd for c in list(self.calls) if c.cost_usd is not None)

    @property
    def tokens(self) -> int:
        return sum(c.input_tokens + c.output_tokens for c in list(self.calls))

    @property
    def elapsed_s(self) -> float:
        """Wall-clock seconds since the ledger started, plus time spent before a resume."""
        return self.elapsed_offset_s + (time.monotonic() - self.started)

    def spent(self, kind: str) -> float:
        return {"usd": self.cost_usd, "tokens": float(self.tokens), "seconds": self.elapsed_s}[kind]

    def check(self, budget: Budget) -> None:
        """Raise :class:`BudgetExceeded` when any limit of ``budget`` is reached."""
        for kind in ("usd", "tokens", "seconds"):
            limit = getattr(budget, kind)
            if limit is None:
                continue
            spent = self.spent(kind)
            if spent >= limit:
                raise exhausted(kind, spent, limit)

    def to_dict(self) -> dict[str, Any]:
        return {
            "total": self.totals(),
            "per_agent": self.per_agent(),
            "calls": [call.to_dict() for call in list(self.calls)],
            "elapsed_s": round(self.elapsed_s, 3),
        }
