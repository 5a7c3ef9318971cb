"""What the HTTP adapters share: the lazily made SDK client, the network guard, and error translation.

Each adapter speaks one wire format; this base holds the credentials and the connection settings (STYLE
rule 5).  Retries are the SDK's own (exponential backoff, ``Retry-After`` honoured, for 429, 5xx, timeouts
and dropped connections); only after they are spent is the SDK's exception translated into ours:

* 400/401/403/404/422 -> :class:`ModelRequestRejected` (a :class:`ModelHTTPError` that is also a
  :class:`ConfigError`: a wrong key, model name or parameter is the caller's to fix);
* other statuses -> :class:`ModelHTTPError` carrying ``status_code``;
* no answer / timeout / dropped connection -> :class:`ModelConnectionError` naming the URL;
* a body that is not the wire format -> :class:`ModelHTTPError` with the status it came with.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from typing import Any

from cmbagent.exceptions import (
    ConfigError,
    ModelConnectionError,
    ModelError,
    ModelHTTPError,
    ModelRequestRejected,
)
from cmbagent.models._protocol import Model, ModelRequest, ModelResponse, StreamCallback
from cmbagent.models._specs import ensure_network_allowed
from cmbagent.models._structured import finish

__all__ = ["HTTPModel", "ModelRequestRejected", "image_base64", "parse_arguments"]

_CALLER_STATUSES = {400, 401, 403, 404, 413, 422}


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


class HTTPModel(Model):
    """An adapter over a vendor SDK client created at the first request (the SDK is imported only then)."""

    provider = ""
    key_variable = ""

    def __init__(self, model: str, *, api_key: str, base_url: str, max_retries: int, timeout: float):
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.max_retries = max_retries
        self.timeout = timeout
        self._api_key = api_key
        self._client: Any = None

    def __repr__(self) -> str:  # never shows the key
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.base_url!r})"

    @abstractmethod
    def _make_client(self) -> Any:
        """Create the SDK client (import the SDK here)."""

    @abstractmethod
    def _send(self, request: ModelRequest, on_text: StreamCallback | None) -> ModelResponse:
        """One call on the wire, retried by the SDK; returns the raw response."""

    @abstractmethod
    def _sdk(self) -> Any:
        """The vendor SDK module, for its exception classes."""

    def client(self) -> Any:
        if self._client is None:
            self._client = self._make_client()
        return self._client

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        ensure_network_allowed(self.base_url)
        started = time.monotonic()
        try:
            response = self._send(request, on_text)
        except ModelError:
            raise
        except Exception as exc:
            raise self._translate(exc) from exc
        response.latency_s = time.monotonic() - started
        if not response.model:
            response.model = self.model
        return finish(request, response)

    def _translate(self, exc: Exception) -> Exception:
        sdk = self._sdk()
        spec = self.spec or self.provider
        where = spec if self.base_url in spec else f"{spec} at {self.base_url}"
        retries = f"after {self.max_retries} retries"
        if isinstance(exc, sdk.APIStatusError):
            status = int(exc.status_code)
            body = _body_text(exc)
            if status in (401, 403):
                fix = f"check the key in {self.key_variable or 'the API key'}" if self.key_variable else "check the key"
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
        if isinstance(exc, (sdk.APIConnectionError, *_transport_errors())):
            kind = "timed out" if isinstance(exc, sdk.APITimeoutError) else "could not be reached"
            return ModelConnectionError(
                f"{where} {kind} {retries} ({type(exc).__name__}); check that the server at {self.base_url} "
                "is running and reachable", url=self.base_url)
        if isinstance(exc, (sdk.APIResponseValidationError, ValueError)):
            status = getattr(getattr(exc, "response", None), "status_code", 200)
            return ModelHTTPError(
                f"{where} answered with a body that is not the expected wire format ({type(exc).__name__}: "
                f"{str(exc)[:200]}); check that {self.base_url} serves the {self.provider} API",
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
