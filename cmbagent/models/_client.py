"""The one door through which the graph calls models: routing, budgets, repairs, ledger, transcript, events.

For each ``request(agent=..., tier=..., request=...)`` the client

1. picks the spec (:meth:`Routing.spec_for`) and its model (resolved once, then cached),
2. bounds the call: its output tokens by the request's own budget (the graph sizes it to the reply the call's
   schema allows) within its agent's or tier's limit (:meth:`Routing.max_tokens_for`), and with a seconds budget
   its time by the time left (:mod:`cmbagent.models._deadline`; a call cut short raises ``BudgetExceeded``),
3. checks the budget *before* the call (``BudgetExceeded`` stops the run cleanly),
4. calls the model, streaming text deltas to ``on_text`` and as ``text_delta`` events, through a repetition guard
   (:mod:`cmbagent.models._repetition`): a reply that loops is cut at once and asked for once more, naming the
   repetition; a second loop is an :class:`OutputValidationError`,
5. prices the call, adds it to the ledger, appends it to the transcript (failed calls too), emits
   ``model_call`` (and ``budget_warning`` once per kind at 80 % of a limit, once per run),
6. checks the reply (schema, tool arguments); a faulty reply goes back to the model with every error, at
   most ``max_repairs`` times, then :class:`OutputValidationError` quotes the errors and the output.

Every attempt, repairs included, is its own transcript line, so ``replay:`` walks exactly the same calls.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from cmbagent.exceptions import OutputValidationError
from cmbagent.models._budget import WARN_FRACTION, Budget, CallRecord, Ledger, SharedBudget, exhausted
from cmbagent.models._deadline import CallAborted, DeadlineReached, call_deadline
from cmbagent.models._http import RETRY_NOTICE
from cmbagent.models._pricing import cost_usd
from cmbagent.models._protocol import Message, Model, ModelRequest, ModelResponse, StreamCallback, partial_of
from cmbagent.models._repetition import RepetitionDetected, RepetitionGuard
from cmbagent.models._routing import Routing
from cmbagent.models._structured import issue_text, problem, repair_request
from cmbagent.models._transcript import Scrubber, TranscriptWriter, canonical_request, read_transcript

__all__ = ["EventCallback", "ModelClient"]

#: shown in the live text stream before a reply cut for repeating itself is asked for again
REPEAT_NOTICE = "\n[the reply was repeating itself; asking again]\n"

EventCallback = Callable[[str, dict[str, Any]], object]
"""``on_event(kind, data)``: ``model_call``, ``text_delta`` and ``budget_warning`` (see cmbagent.events)."""


class ModelClient:
    """Routes agents to models and accounts for every call.

    Args:
        routing: Which spec each agent/tier uses (and injected test models).
        transcript_path: JSONL file every call is appended to; when it already exists (a resumed run) the
            ledger starts from its recorded usage, so budgets carry over.
        budget: Limits checked before each call.
        on_event: ``on_event(kind, data)`` for ``model_call``, ``text_delta`` and ``budget_warning``.
        api_keys: Keys by provider, preferred over the environment (the UI's session key).
        env: Environment to read keys and base URLs from (default ``os.environ``).
        max_repairs: How often a faulty reply is sent back to the model before failing.
        replay_lenient: For ``replay:`` specs, log divergences instead of raising.
        elapsed_offset_s: Wall-clock seconds a resumed run had already used (for the seconds budget).
        interrupt: Called before and after every call; raises to stop the run (a cancel request), so a
            cancelled run makes no further call and uses no reply that arrived after the request.
        shared_budget: An account several runs draw on (a batch's total budget): ``check()`` raises
            ``BudgetExceeded`` when it is spent, ``charge(usd, tokens)`` books each call.
        repetition_guard: Cut a streamed reply that repeats itself and ask once more (every model but those that
            declare ``guarded = False``: rules and recordings).
    """

    def __init__(
        self,
        routing: Routing,
        *,
        transcript_path: str | os.PathLike[str] | None = None,
        budget: Budget | None = None,
        on_event: EventCallback | None = None,
        api_keys: Mapping[str, str] | None = None,
        env: Mapping[str, str] | None = None,
        max_repairs: int = 2,
        replay_lenient: bool = False,
        elapsed_offset_s: float = 0.0,
        interrupt: Callable[[], None] | None = None,
        shared_budget: SharedBudget | None = None,
        repetition_guard: bool = True,
    ):
        self.routing = routing
        self.repetition_guard = repetition_guard
        self.budget = budget or Budget()
        self.on_event = on_event
        self.max_repairs = max(0, int(max_repairs))
        self.replay_lenient = replay_lenient
        self.interrupt = interrupt
        self._abort = threading.Event()
        self.shared_budget = shared_budget
        self._env = os.environ if env is None else env
        self._api_keys = dict(api_keys or {})
        self._scrub = Scrubber.from_sources(self._env, self._api_keys)
        self.ledger = Ledger(elapsed_offset_s=elapsed_offset_s)
        self.transcript: TranscriptWriter | None = None
        if transcript_path is not None:
            path = Path(transcript_path)
            if path.exists():
                for record in read_transcript(path):
                    self.ledger.add(_call_from_record(record))
            self.transcript = TranscriptWriter(path, self._scrub)
        self._models: dict[str, Model] = {}
        self._lock = threading.Lock()
        self._warn_lock = threading.Lock()
        # a resumed run already announced the limits its earlier part had spent 80 % of
        self._warned: set[str] = {kind for kind in ("usd", "tokens", "seconds")
                                  if self._past_warning(kind)}
        # resolve every routed spec now: a bad spec or a missing key fails before the run starts
        for spec in routing.specs():
            self.model_for(spec)

    def model_for(self, spec: str) -> Model:
        """The model behind ``spec`` (resolved once per client; a replay keeps one cursor)."""
        with self._lock:
            if spec not in self._models:
                self._models[spec] = self.routing.resolve(
                    spec, env=self._env, api_keys=self._api_keys, replay_lenient=self.replay_lenient
                )
            return self._models[spec]

    def parallel_calls(self, agent: str = "", tier: str | None = None) -> int:
        """How many calls the model routed to ``agent`` takes at once (its ``parallel``; 1 when it does not say)."""
        return max(1, int(getattr(self.model_for(self.routing.spec_for(agent, tier)), "parallel", 1)))

    def compact_prompts(self, agent: str = "", tier: str | None = None) -> bool:
        """Whether the model routed to ``agent`` takes the compact form of prompts (its ``compact_prompts``: a
        local llama.cpp server with a small context; False when it does not say)."""
        return bool(getattr(self.model_for(self.routing.spec_for(agent, tier)), "compact_prompts", False))

    def check_budget(self) -> None:
        """Raise :class:`BudgetExceeded` when a limit is reached; emit warnings past 80 %."""
        self._warn()
        self.ledger.check(self.budget)
        if self.shared_budget is not None:
            self.shared_budget.check()

    def request(
        self,
        *,
        agent: str,
        request: ModelRequest,
        tier: str | None = None,
        on_text: StreamCallback | None = None,
    ) -> ModelResponse:
        """Send ``request`` for ``agent`` to its routed model; repair faulty replies; account for it all."""
        spec = self.routing.spec_for(agent, tier)
        model = self.model_for(spec)
        # the prompt form the caller rendered for this model (read before the call: a replay's answer is per record)
        compact = bool(getattr(model, "compact_prompts", False))
        current = request.model_copy(update={"agent": agent or request.agent})
        limit = self.routing.max_tokens_for(current.agent, tier)
        wanted = current.settings.max_tokens
        current.settings = current.settings.model_copy(update={"max_tokens": limit if wanted is None
                                                               else min(wanted, limit)})
        guarded = self.repetition_guard and getattr(model, "guarded", True)
        repairs = repeats = 0
        while True:
            if self.interrupt is not None:
                self.interrupt()
            self.check_budget()
            canonical = canonical_request(current, self._scrub)
            guard = RepetitionGuard(structured=current.output_schema is not None) if guarded else None
            stream = self._stream_callback(current.agent, on_text, guard)
            started = time.monotonic()
            try:
                with call_deadline(self._time_left(), abort=self._abort):
                    response = model.request(current, on_text=stream)
            except RepetitionDetected as exc:  # cut as soon as it looped: asked once more, naming the repetition
                partial = _partial(exc, spec) or ModelResponse(text=guard.text if guard else "", model=spec)
                self._record(current.agent, spec, canonical, partial, time.monotonic() - started, exc, compact=compact)
                repeats += 1
                if repeats > 1:
                    raise OutputValidationError(
                        f"agent {current.agent!r} ({spec}): the reply repeated itself twice, and was cut both times "
                        f"({exc}). Route this agent to a stronger model (--agent-model {current.agent or 'AGENT'}"
                        "=SPEC).", output=partial.text[:2000]) from exc
                current = _repeat_request(current, exc)
                if on_text is not None:  # a live view shows that the text starts over
                    on_text(REPEAT_NOTICE)
                self._emit("text_delta", {"agent": current.agent, "text": REPEAT_NOTICE})
                continue
            except DeadlineReached as exc:
                self._record(current.agent, spec, canonical, _partial(exc, spec), time.monotonic() - started, exc,
                             compact=compact)
                seconds = self.budget.seconds or 0.0
                why = (f"the time budget of {seconds:g} s ran out during a call of agent {current.agent!r} "
                       f"({exc})")
                raise exhausted("seconds", self.ledger.elapsed_s, seconds, why=why) from exc
            except BaseException as exc:  # model errors, and a run interrupted mid-call: on record either way
                self._record(current.agent, spec, canonical, _partial(exc, spec), time.monotonic() - started, exc,
                             compact=compact)
                if isinstance(exc, CallAborted) and self.interrupt is not None:
                    self.interrupt()  # the cancel that stopped the call (RunCancelled), not a model error
                raise
            response.latency_s = response.latency_s or (time.monotonic() - started)
            response.cost_usd = cost_usd(spec, response.usage, model_id=response.model)
            self._record(current.agent, spec, canonical, response, response.latency_s, None, compact=compact)
            if self.shared_budget is not None:
                self.shared_budget.charge(response.cost_usd or 0.0,
                                          response.usage.input_tokens + response.usage.output_tokens)
            if self.interrupt is not None:
                self.interrupt()
            issue = problem(current, response)
            if issue is None:
                return response
            if repairs == self.max_repairs:
                quoted = response.text or str([c.raw_arguments or c.arguments for c in response.tool_calls])
                raise OutputValidationError(
                    f"agent {current.agent!r} ({spec}): the reply is still invalid after {self.max_repairs} "
                    f"repairs.\n{issue_text(issue)}\nOffending output: {quoted[:2000]!r}\nRoute this agent to a "
                    f"stronger model (--agent-model {current.agent or 'AGENT'}=SPEC) or allow more repairs.",
                    output=quoted,
                )
            repairs += 1
            current = repair_request(current, response, issue)

    def abort_calls(self) -> None:
        """Stop the call in flight now, from any thread, and every later one (a cancelled run): a streamed reply
        is cut within a tenth of a second; the call then raises what ``interrupt`` raises (the cancel), or
        ``CallAborted``.  A call waiting for a reply that does not stream ends at its deadline."""
        self._abort.set()

    def close(self) -> None:
        """Close the models this client resolved (SDK connection pools, in-process servers)."""
        with self._lock:
            models, self._models = list(self._models.values()), {}
        injected = set(map(id, self.routing.models.values()))
        for model in models:
            close = getattr(model, "close", None)
            if callable(close) and id(model) not in injected:  # injected models belong to the caller
                close()

    def __enter__(self) -> ModelClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals --------------------------------------------------------------------------------

    def _emit(self, kind: str, data: dict[str, Any]) -> None:
        if self.on_event is not None:
            self.on_event(kind, data)

    def _stream_callback(self, agent: str, on_text: StreamCallback | None,
                         guard: RepetitionGuard | None = None) -> StreamCallback | None:
        """What the model streams its text to: the guard first (it raises to cut a looping reply), then the caller's
        ``on_text`` and the ``text_delta`` events.  None (the model need not stream) when nobody listens."""
        if on_text is None and self.on_event is None and guard is None:
            return None

        def forward(text: str) -> None:
            if guard is not None:
                if text == RETRY_NOTICE:  # a cut-off stream is asked for again: its text starts over
                    guard.reset()
                else:
                    guard.feed(text)
            if on_text is not None:
                on_text(text)
            if self.on_event is not None:
                self._emit("text_delta", {"agent": agent, "text": text})

        return forward

    def _record(
        self,
        agent: str,
        spec: str,
        canonical: dict[str, Any],
        response: ModelResponse | None,
        latency_s: float,
        error: BaseException | None,
        *,
        compact: bool = False,
    ) -> None:
        usage = response.usage if response is not None else None
        cost = response.cost_usd if response is not None else 0.0
        timings = response.timings if response is not None else None
        self.ledger.add(CallRecord(
            agent=agent, model=spec,
            input_tokens=usage.input_tokens if usage else 0,
            output_tokens=usage.output_tokens if usage else 0,
            cached_tokens=usage.cached_tokens if usage else 0,
            cost_usd=cost, latency_s=latency_s, usage_source=usage.source if usage else "provider",
            prefill_s=timings.prefill_s if timings else None, generation_s=timings.generation_s if timings else None,
        ))
        if self.transcript is not None:
            self.transcript.append(agent=agent, spec=spec, canonical=canonical, response=response,
                                   cost_usd=cost, latency_s=latency_s, error=error, compact=compact)
        if response is not None:
            self._emit("model_call", {
                "agent": agent, "model": spec, "model_id": response.model,
                "input_tokens": response.usage.input_tokens, "output_tokens": response.usage.output_tokens,
                "cached_tokens": response.usage.cached_tokens, "cost_usd": cost,
                "latency_s": round(latency_s, 4), "usage_source": response.usage.source,
                "finish_reason": response.finish_reason,
                **({"prefill_s": round(timings.prefill_s, 3), "generation_s": round(timings.generation_s, 3)}
                   if timings else {}),
            })
        self._warn()

    def _time_left(self) -> float | None:
        """Seconds left of the run's time budget (the deadline of the next call), or ``None``."""
        if self.budget.seconds is None:
            return None
        return self.budget.seconds - self.ledger.elapsed_s

    def _past_warning(self, kind: str) -> bool:
        limit = getattr(self.budget, kind)
        return limit is not None and self.ledger.spent(kind) >= WARN_FRACTION * limit

    def _warn(self) -> None:
        for kind in ("usd", "tokens", "seconds"):
            with self._warn_lock:  # parallel agents must not announce the same limit twice
                if kind in self._warned or not self._past_warning(kind):
                    continue
                self._warned.add(kind)
                spent = self.ledger.spent(kind)
            self._emit("budget_warning", {"kind": kind, "spent": round(spent, 6), "limit": getattr(self.budget, kind)})


def _call_from_record(record: Mapping[str, Any]) -> CallRecord:
    usage = record.get("usage") or {}
    timings = record.get("timings") if isinstance(record.get("timings"), dict) else {}
    return CallRecord(
        agent=str(record.get("agent", "")),
        model=str(record.get("model", "")),
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        cached_tokens=int(usage.get("cached_tokens", 0)),
        cost_usd=record.get("cost_usd"),
        latency_s=float(record.get("latency_s", 0.0)),
        usage_source=str(record.get("usage_source") or "provider"),
        prefill_s=timings.get("prefill_s") if timings else None,
        generation_s=timings.get("generation_s") if timings else None,
    )


def _repeat_request(request: ModelRequest, exc: RepetitionDetected) -> ModelRequest:
    """The request once more, with a note that names the repetition that cut the last reply.  The note comes last,
    so the prompt's stable beginning (the agent's instructions, the context) is read from a server's cache."""
    note = (f"Your previous reply was stopped because it started repeating itself ({exc}). Answer again from the "
            "start: write each field once, briefly, and do not repeat any text.")
    return request.model_copy(update={"messages": [*request.messages, Message(role="user", content=note)]})


def _partial(exc: BaseException, spec: str) -> ModelResponse | None:
    """What a failed call still produced (:func:`partial_of`), priced: a cut-off call is billed for what it read
    and wrote."""
    partial = partial_of(exc)
    if partial is not None:
        partial.cost_usd = cost_usd(spec, partial.usage, model_id=partial.model)
    return partial
