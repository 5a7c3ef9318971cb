"""What the HTTP adapters share: the connection, the lazily made SDK client, retries, deadlines, errors.

Each adapter speaks one wire format; the :class:`Connection` its provider hands it holds the credentials and
the endpoint (docs/architecture.md, Rules 5).  Retries are done here rather than by the SDKs (their clients
are made with ``max_retries=0``) because an SDK's retry loop cannot be bounded by a deadline: 429, 408, 409,
5xx, timeouts, dropped connections and replies cut off mid-stream are retried with exponential backoff
(``Retry-After`` honoured up to 60 s), each attempt's timeout capped by the time left before the current
call's deadline (:mod:`cmbagent.models._deadline`), and no retry starts past it.  After the retries the
SDK's exception is translated into ours:

* 400/401/403/404/413/422 -> :class:`ModelRequestRejected` (a :class:`ModelHTTPError` that is also a
  :class:`ConfigError`: a wrong key, model name or parameter is the caller's to fix);
* other statuses -> :class:`ModelHTTPError` carrying ``status_code``;
* no answer / timeout / dropped connection / a stream that ended before the model said why it stopped
  -> :class:`ModelConnectionError` naming the URL;
* a body that is not the wire format -> :class:`ModelHTTPError` with the status it came with.

:func:`ensure_network_allowed` refuses a request to a non-loopback server while ``CMBAGENT_BLOCK_NETWORK=1``.
"""

from __future__ import annotations

import email.utils
import ipaddress
import os
import random
import socket
import threading
import time
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cmbagent.exceptions import (
    ConfigError,
    ModelConnectionError,
    ModelError,
    ModelHTTPError,
    ModelRequestRejected,
)
from cmbagent.models._deadline import CallAborted, DeadlineReached, abort_signal, aborted, remaining
from cmbagent.models._protocol import Model, ModelRequest, ModelResponse, StreamCallback, Usage, keep_partial
from cmbagent.models._structured import finish

__all__ = [
    "Connection",
    "HTTPModel",
    "IncompleteStream",
    "ModelRequestRejected",
    "cut_at_deadline",
    "ensure_network_allowed",
    "image_base64",
    "parse_arguments",
]

_CALLER_STATUSES = {400, 401, 403, 404, 413, 422}
_RETRY_STATUSES = {408, 409, 429}
#: shown in the live text stream before a cut-off reply is asked for again
RETRY_NOTICE = "\n[the reply was cut off; asking again]\n"
#: how often a call in flight looks at its abort event (a cancel ends the call within this)
_ABORT_POLL_S = 0.1


def _is_loopback_host(host: str) -> bool:
    if host in {"localhost", ""}:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]").split("%")[0]).is_loopback
    except ValueError:
        return False


def ensure_network_allowed(url: str, env: Mapping[str, str] | None = None) -> None:
    """Refuse a non-loopback ``url`` while ``CMBAGENT_BLOCK_NETWORK=1`` (set by the test suite).

    A second guard besides the socket guard of ``tests/conftest.py``: it fires before any request.
    """
    flags = {os.environ.get("CMBAGENT_BLOCK_NETWORK", "")}
    if env is not None:
        flags.add(env.get("CMBAGENT_BLOCK_NETWORK", ""))
    if "1" not in flags:
        return
    host = urlsplit(url).hostname or ""
    if not _is_loopback_host(host):
        raise ConfigError(
            f"CMBAGENT_BLOCK_NETWORK=1 forbids model calls to {url}; point the base URL at a local "
            "server (127.0.0.1) or unset CMBAGENT_BLOCK_NETWORK"
        )


@dataclass(frozen=True)
class Connection:
    """Where and as whom an adapter calls: what a provider hands its wire adapter."""

    provider: str
    model: str
    api_key: str
    base_url: str
    max_retries: int
    timeout: float
    key_variable: str = ""


class IncompleteStream(Exception):
    """A streamed reply that ended (or broke off) before the model said why it stopped; retried."""


def _transport_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = []
    for name in ("httpx2", "httpx"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        errors.append(module.TransportError)
        errors.append(module.StreamError)
    return tuple(errors)


def _header_delay(headers: Any) -> float | None:
    """Seconds a server asked us to wait (``retry-after-ms`` / ``retry-after``), when sane (0-60 s)."""
    if headers is None:
        return None
    value: float | None = None
    try:
        if headers.get("retry-after-ms"):
            value = float(headers["retry-after-ms"]) / 1000
        elif headers.get("retry-after"):
            text = headers["retry-after"]
            try:
                value = float(text)
            except ValueError:
                when = email.utils.parsedate_to_datetime(text)
                value = when.timestamp() - time.time()
    except (TypeError, ValueError):
        return None
    return value if value is not None and 0 < value <= 60 else None


@contextmanager
def cut_at_deadline(response: Any) -> Iterator[None]:
    """Shut a streamed response's socket when the call's deadline passes.

    Checking the deadline per chunk is not enough: servers send SSE keep-alive comments (llama.cpp every
    30 s while it reads a long prompt) that the SDKs swallow, so no chunk reaches our loop and every read
    restarts the read timeout.  Shutting the socket down wakes the blocked read, which then fails.
    """
    left, abort = remaining(), abort_signal()
    if left is None and abort is None:
        yield
        return

    def cut() -> None:
        extensions = getattr(response, "extensions", None) or {}
        stream = extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    if abort is None:
        timer = threading.Timer(max(0.0, left or 0.0), cut)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
        return
    done = threading.Event()
    end = None if left is None else time.monotonic() + max(0.0, left)

    def watch() -> None:  # the deadline, or an abort (a cancel) from another thread, whichever comes first
        while not done.is_set():
            if abort.is_set() or (end is not None and time.monotonic() >= end):
                cut()
                return
            done.wait(_ABORT_POLL_S)

    threading.Thread(target=watch, name="cmbagent-call-cut", daemon=True).start()
    try:
        yield
    finally:
        done.set()


@contextmanager
def unanswered(usage: Callable[[], Usage]) -> Iterator[None]:
    """Around a request that has not answered yet: if it fails other than by an error status (which is not
    billed; a cut or timed-out request may be), the failure carries the prompt's ``usage()`` as its partial."""
    try:
        yield
    except BaseException as exc:
        if getattr(exc, "status_code", None) is None:
            keep_partial(exc, ModelResponse(text="", usage=usage()))
        raise


def backoff(attempt: int) -> float:
    """Exponential backoff with jitter: 0.5 s, 1 s, 2 s, ... capped at 8 s."""
    return min(0.5 * 2**attempt, 8.0) * (1 - 0.25 * random.random())


class HTTPModel(Model):
    """An adapter over a vendor SDK client created at the first request (the SDK is imported only then).

    Subclasses give ``wire`` (for messages), :meth:`_sdk`, :meth:`_make_client` (with ``max_retries=0``)
    and :meth:`_send` (one attempt on the wire).
    """

    wire = ""
    #: a hosted API or a server takes several calls at once (one without slots queues them)
    parallel = 4

    def __init__(self, connection: Connection):
        self.connection = connection
        self.model = connection.model
        self.base_url = connection.base_url.rstrip("/")
        self.max_retries = connection.max_retries
        self.timeout = connection.timeout
        self._api_key = connection.api_key
        self._client: Any = None

    @property
    def provider(self) -> str:
        return self.connection.provider

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}(provider={self.provider!r}, model={self.model!r}, base_url={self.base_url!r})"

    @abstractmethod
    def _make_client(self) -> Any:
        """Create the SDK client (import the SDK here), with ``max_retries=0``: retries are ours."""

    @abstractmethod
    def _send(self, request: ModelRequest, on_text: StreamCallback | None, timeout: float) -> ModelResponse:
        """One attempt on the wire with this timeout; raise :class:`IncompleteStream` for a cut-off reply."""

    @abstractmethod
    def _sdk(self) -> Any:
        """The vendor SDK module, for its exception classes."""

    def client(self) -> Any:
        if self._client is None:
            self._client = self._make_client()
        return self._client

    def close(self) -> None:
        """Close the SDK client's connection pool."""
        client, self._client = self._client, None
        if client is not None and hasattr(client, "close"):
            client.close()

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        ensure_network_allowed(self.base_url)
        started = time.monotonic()
        response = self.with_retries(lambda timeout, relay: self._send(request, relay, timeout), request, on_text)
        response.latency_s = time.monotonic() - started
        if not response.model:
            response.model = self.model
        return finish(request, response)

    def with_retries(self, attempt: Callable[[float, StreamCallback | None], ModelResponse], request: ModelRequest,
                     on_text: StreamCallback | None) -> ModelResponse:
        """Run ``attempt(timeout, on_text)`` until it succeeds, the retries are spent or the deadline passes.

        When an attempt that had already streamed text is retried, :data:`RETRY_NOTICE` goes to ``on_text``
        first, so a live view shows that the text starts over instead of silently repeating it.
        """
        self.client()  # the SDK import is not part of any attempt's timeout
        streamed = False

        def relay(text: str) -> None:
            nonlocal streamed
            streamed = True
            if on_text is not None:
                on_text(text)

        tries = 0
        while True:
            timeout = self._attempt_timeout(request.settings.timeout)
            streamed = False
            try:
                return attempt(timeout, relay if on_text is not None else None)
            except ModelError:
                raise
            except Exception as exc:
                if aborted():
                    raise CallAborted(f"{self._where()}: the call was stopped: the run was cancelled") from exc
                left = remaining()
                if left is not None and left <= 0:
                    raise self._deadline_error(exc) from exc
                delay = self._retry_delay(exc, tries)
                if delay is None or tries >= self.max_retries:
                    raise self._translate(exc, tries) from exc
                if left is not None and left <= delay:
                    raise self._deadline_error(exc) from exc
                if streamed and on_text is not None:
                    on_text(RETRY_NOTICE)
                abort = abort_signal()
                if abort is not None and abort.wait(delay):  # a cancel during the backoff ends the call now
                    raise CallAborted(f"{self._where()}: the call was stopped: the run was cancelled") from exc
                if abort is None:
                    time.sleep(delay)
                tries += 1

    def check_deadline(self) -> None:
        """Raise :class:`DeadlineReached` when the current call's deadline has passed, :class:`CallAborted` when
        it was asked to stop (stream loops)."""
        if aborted():
            raise CallAborted(f"{self._where()}: the call was stopped while the reply was streaming: the run was "
                              "cancelled")
        left = remaining()
        if left is not None and left <= 0:
            raise DeadlineReached(f"{self._where()}: the call's deadline passed while the reply was streaming")

    # -- internals --------------------------------------------------------------------------------

    def _attempt_timeout(self, requested: float | None) -> float:
        timeout = requested or self.timeout
        left = remaining()
        if left is None:
            return timeout
        if left <= 0:
            raise DeadlineReached(f"{self._where()}: no time was left for this call")
        return min(timeout, left)

    def _where(self) -> str:
        spec = self.spec or self.provider
        return spec if self.base_url in spec else f"{spec} at {self.base_url}"

    def _deadline_error(self, exc: BaseException) -> DeadlineReached:
        return DeadlineReached(f"{self._where()}: the call's deadline passed ({type(exc).__name__})")

    def _retry_delay(self, exc: Exception, tries: int) -> float | None:
        """Seconds to wait before trying again, or ``None`` when ``exc`` is not worth a retry."""
        sdk = self._sdk()
        if isinstance(exc, sdk.APIStatusError):
            headers = getattr(exc.response, "headers", None)
            should = (headers.get("x-should-retry") if headers is not None else None) or ""
            if should.lower() == "false":
                return None
            status = int(exc.status_code)
            if should.lower() != "true" and status not in _RETRY_STATUSES and status < 500:
                return None
            return _header_delay(headers) or backoff(tries)
        if isinstance(exc, (IncompleteStream, sdk.APIConnectionError, *_transport_errors())):
            return backoff(tries)
        return None

    def _translate(self, exc: Exception, tries: int) -> Exception:
        sdk = self._sdk()
        where = self._where()
        retries = f"after {tries} retries"
        if isinstance(exc, sdk.APIStatusError):
            status = int(exc.status_code)
            body = _body_text(exc)
            if status in (401, 403):
                variable = self.connection.key_variable
                fix = f"check the key in {variable}" if variable else "check the key"
                return ModelRequestRejected(
                    f"{where} refused the credentials (HTTP {status}); {fix}", status_code=status,
                    model=self.model, body=body)
            if status in _CALLER_STATUSES:
                return ModelRequestRejected(
                    f"{where} rejected the request (HTTP {status}): {body[:300]}; check the model name "
                    "and settings", status_code=status, model=self.model, body=body)
            return ModelHTTPError(
                f"{where} answered HTTP {status} {retries}: {body[:300]}; try again later or raise the "
                "retries (cmbagent.toml [models] retries)", status_code=status, model=self.model, body=body)
        if isinstance(exc, IncompleteStream):
            return ModelConnectionError(
                f"{where}: the reply stream ended before the model finished ({exc}) {retries}; check the "
                f"server at {self.base_url} (its logs may say why it stopped)", url=self.base_url)
        if isinstance(exc, (sdk.APIConnectionError, *_transport_errors())):
            kind = "timed out" if isinstance(exc, sdk.APITimeoutError) else "could not be reached"
            return ModelConnectionError(
                f"{where} {kind} {retries} ({type(exc).__name__}); check that the server at {self.base_url} "
                "is running and reachable", url=self.base_url)
        if isinstance(exc, (sdk.APIResponseValidationError, ValueError)):
            status = getattr(getattr(exc, "response", None), "status_code", 200)
            return ModelHTTPError(
                f"{where} answered with a body that is not the expected wire format ({type(exc).__name__}: "
                f"{str(exc)[:200]}); check that {self.base_url} serves the {self.wire or self.provider} API",
                status_code=int(status), model=self.model)
        return exc


def _body_text(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if body is None:
        return str(getattr(exc, "message", exc))
    if isinstance(body, dict):
        error = body.get("error", body)
        if isinstance(error, dict):
            return str(error.get("message") or error)
        return str(error)
    return str(body)


def image_base64(part: Any) -> tuple[str, str]:
    """``(media_type, base64 data)`` of an :class:`ImagePart` given by path or data URL."""
    import base64

    if part.data_url:
        header, _, data = part.data_url.partition(",")
        media_type = header.removeprefix("data:").split(";")[0] or part.media_type
        return media_type, data
    if not part.path:
        raise ConfigError("an image part needs a path or a data_url")
    try:
        with open(part.path, "rb") as handle:
            raw = handle.read()
    except OSError as exc:
        raise ConfigError(f"cannot read image {part.path}: {exc.strerror}; check the path") from exc
    return part.media_type, base64.b64encode(raw).decode("ascii")


def parse_arguments(text: str | None) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments as a dict, or ``({}, raw)`` when the model's text is not a JSON object."""
    import json

    raw = text or "{}"
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        return {}, raw
    if not isinstance(value, dict):
        return {}, raw
    return value, None
