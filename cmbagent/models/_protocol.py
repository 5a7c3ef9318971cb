"""The one request/response protocol every agent uses to talk to a language model.

Adapters (one file per provider) translate it to and from a vendor wire format.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ImagePart",
    "Message",
    "Model",
    "ModelRequest",
    "ModelResponse",
    "ModelSettings",
    "StreamCallback",
    "TextPart",
    "Timings",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "UsageSource",
    "keep_partial",
    "partial_of",
]


class TextPart(BaseModel):
    type: Literal["text"] = "text"
    text: str


class ImagePart(BaseModel):
    """An image given by file path (read and base64-encoded by the adapter) or by data URL."""

    type: Literal["image"] = "image"
    path: str | None = None
    data_url: str | None = None
    media_type: str = "image/png"


class ToolCall(BaseModel):
    """A tool call the model asked for.

    ``raw_arguments`` holds the model's argument text only when it was not a JSON object; ``arguments`` is
    then empty and :class:`cmbagent.models.ModelClient` sends the problem back to the model as a repair.
    """

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str | None = None


class Message(BaseModel):
    """One chat message. ``content`` is text or a list of text/image parts."""

    role: Literal["system", "user", "assistant", "tool"]
    content: str | list[TextPart | ImagePart] = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None

    def text(self) -> str:
        if isinstance(self.content, str):
            return self.content
        return "\n".join(part.text for part in self.content if isinstance(part, TextPart))


class ToolSpec(BaseModel):
    """A tool offered to the model; ``parameters`` comes from :func:`cmbagent.tools.function_schema`."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})


class ModelSettings(BaseModel):
    temperature: float | None = None
    max_tokens: int | None = None
    reasoning_effort: Literal["low", "medium", "high"] | None = None
    timeout: float | None = None


class ModelRequest(BaseModel):
    """What an agent asks of a model.

    ``output_schema`` is a pydantic model class; the response's ``output`` is then an instance of it.
    ``agent`` names the asking agent (routing, transcripts and per-agent cost); ``context`` is the typed
    object the messages were rendered from.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    messages: list[Message]
    tools: list[ToolSpec] = Field(default_factory=list)
    output_schema: type[BaseModel] | None = Field(default=None, exclude=True)
    settings: ModelSettings = Field(default_factory=ModelSettings)
    agent: str = ""
    # The typed object the caller rendered ``messages`` from (an agent context of cmbagent.agents).  It is not
    # sent and not recorded: the messages are its rendering, so transcripts hash what the model saw.  Models
    # that answer by rules (the offline backend, scripted test models) read it instead of parsing prose.
    context: BaseModel | None = Field(default=None, exclude=True)
    # The call's material (its first user message) is what the call just before or after it reads too (the task
    # analyst and the requirements analyst the task, a step's critics and summariser the step).  A provider whose
    # prompt cache lives for one run may send that material before the instructions so the next call reads it from
    # the cache (``local``, ``CMBAGENT_LOCAL_LAYOUT``).  Not sent and not recorded: it changes no word of the prompt.
    shared_material: bool = Field(default=False, exclude=True)


UsageSource = Literal["provider", "tokenizer", "estimate"]
_SOURCE_RANK = {"provider": 0, "tokenizer": 1, "estimate": 2}


class Usage(BaseModel):
    """Token counts of a call.

    ``source`` says where they come from: the provider's own report, the server's tokenizer (a stream that
    carried no usage), or an estimate from the text length (~4 characters a token).  It is kept out of
    ``model_dump`` so usage records keep their shape; transcripts and events carry it as ``usage_source``.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    source: UsageSource = Field(default="provider", exclude=True)

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            source=max(self.source, other.source, key=_SOURCE_RANK.__getitem__),
        )

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class Timings(BaseModel):
    """What a server reports of a call's work (llama.cpp's ``timings``): the prompt tokens it read and those it took
    from its prompt cache, and the seconds of prefill (reading the prompt) and of generation."""

    prompt_tokens: int = 0  # read this call
    cached_tokens: int = 0  # taken from the cache
    prefill_s: float = 0.0
    generated_tokens: int = 0
    generation_s: float = 0.0

    @property
    def tokens_per_s(self) -> float | None:
        """Generation speed, when the server measured it."""
        return self.generated_tokens / self.generation_s if self.generation_s > 0 else None


class ModelResponse(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    text: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    output: Any = None  # an instance of the request's output_schema, when one was asked for
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    model: str = ""
    cost_usd: float | None = None  # None: price unknown for this model
    #: why generation stopped: "stop", "length" (the max_tokens limit), "tool_calls", "content_filter";
    #: None when the backend does not say (scripted, offline, older transcripts)
    finish_reason: str | None = None
    #: the server's own account of prefill, cache and generation (llama.cpp); None where it gives none
    timings: Timings | None = None


StreamCallback = Callable[[str], None]
"""Receives text deltas as they stream in."""


class Model(ABC):
    """A language model. One abstract method; everything else is built on it."""

    #: the spec string it was resolved from, e.g. ``openai:gpt-4.1``
    spec: str = ""
    #: whether the client watches its streamed replies for repetition (a language model's); rule-based and
    #: recorded backends set it false
    guarded: bool = True
    #: how many calls it serves at once (independent judgements, such as a step's critics, run that many at a time);
    #: 1 keeps calls in the order the graph makes them (scripted, replayed and rule-based models)
    parallel: int = 1
    #: whether agents give it the compact form of their prompts: a model that reads every prompt token on this
    #: machine's CPU in a small context (a local llama.cpp server) is not told what its grammar already enforces or
    #: what another section of the prompt already shows (``cmbagent.agents`` states each cut); hosted and large
    #: models keep the full form
    compact_prompts: bool = False

    @abstractmethod
    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        """Send one request and return the response (validated output when a schema was given)."""


_PARTIAL = "partial_response"


def keep_partial(exc: BaseException, response: ModelResponse) -> None:
    """Attach to a failed call's exception what it still produced (the prompt read, the text streamed before
    it was cut) with its token counts, for the client's ledger and transcript."""
    setattr(exc, _PARTIAL, response)


def partial_of(exc: BaseException) -> ModelResponse | None:
    """What :func:`keep_partial` attached to ``exc`` or to an exception it was raised from (adapters wrap SDK
    errors), if anything."""
    seen: BaseException | None = exc
    for _ in range(5):
        if seen is None:
            return None
        partial = getattr(seen, _PARTIAL, None)
        if isinstance(partial, ModelResponse):
            return partial
        seen = seen.__cause__ or seen.__context__
    return None
