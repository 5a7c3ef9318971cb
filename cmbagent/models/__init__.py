"""Language models: one protocol, adapters per provider, routing, budgets, transcripts and replay.

Usage (what the graph does)::

    from cmbagent.models import Budget, ModelClient, ModelRequest, Message, Routing, ScriptedModel

    routing = Routing.from_sources(config_file=None, env=os.environ, model="openai:gpt-4.1",
                                   agent_models={"planner": "anthropic:claude-sonnet-4-5"}, tiers={})
    client = ModelClient(routing, transcript_path=run_dir / "transcript.jsonl",
                         budget=Budget(usd=2.0), on_event=lambda kind, data: events.emit(kind, **data))
    response = client.request(agent="planner", tier="strong",
                              request=ModelRequest(messages=[Message(role="user", content="...")],
                                                   output_schema=Plan))
    response.output        # a validated Plan (faulty replies were repaired, else OutputValidationError)
    client.ledger.to_dict()  # usage and cost per call / agent / run

Specs: ``openai:<model>``, ``anthropic:<model>``, ``openai-compatible:<model>@<base_url>`` (or with
``OPENAI_BASE_URL``), ``local[:<path.gguf>]``, ``replay:<transcript.jsonl>``, ``offline`` — the rows of
one provider table (:func:`providers`; a higher layer adds one with :func:`register_provider`, see
``docs/extending.md``).  Tests inject ready models by name —
the one mechanism for that is ``Routing(models={name: instance})`` (also ``resolve(spec, models=...)``)::

    routing = Routing(default="scripted", models={"scripted": ScriptedModel(replies=["hi", Plan(...)])})

Real SDKs against the fake server of ``tests/fakes``: ``openai-compatible:<model>@<server.openai_url>``
needs no key; ``openai:``/``anthropic:`` take ``env={"OPENAI_API_KEY": ..., "OPENAI_BASE_URL": ...}``.
``Model.request`` makes exactly one call (and sets ``output`` when the reply validates); repairs, budgets,
ledger, events and transcripts live in :class:`ModelClient`.  Config precedence: see
:mod:`cmbagent.models._routing` and ``docs/models.md``.
"""

from __future__ import annotations

# the built-in provider rows, each registered by its own module, in the table's order (a listing, the spec forms of
# an error and "configure a model" advice read them in this order; the first keyed row set is the default model)
from cmbagent.models import openai, anthropic, compatible, local, replay  # noqa: F401  # isort: skip
from cmbagent.models._budget import Budget, CallRecord, Ledger
from cmbagent.models._client import EventCallback, ModelClient
from cmbagent.models._http import ModelRequestRejected
from cmbagent.models._ping import ping
from cmbagent.models._pricing import cost_usd, price_for
from cmbagent.models._protocol import (
    ImagePart,
    Message,
    Model,
    ModelRequest,
    ModelResponse,
    ModelSettings,
    StreamCallback,
    TextPart,
    Timings,
    ToolCall,
    ToolSpec,
    Usage,
)
from cmbagent.models._providers import (
    Provider,
    ProviderCall,
    configured_providers,
    default_model_spec,
    fallback_provider,
    get_provider,
    how_to_configure,
    provider_load_errors,
    providers,
    register_provider,
    spec_forms,
)
from cmbagent.models._repetition import RepetitionDetected, RepetitionGuard
from cmbagent.models._routing import (
    CONFIG_FILENAME,
    DEFAULT_MAX_TOKENS,
    Routing,
    load_config,
    parse_agent_models,
)
from cmbagent.models._specs import ParsedSpec, parse_spec, resolve
from cmbagent.models._structured import model_schema, output_budget, reply_chars, unbounded_fields
from cmbagent.models._transcript import read_transcript
from cmbagent.models.scripted import ScriptedModel, ScriptExhausted

__all__ = [
    "CONFIG_FILENAME",
    "DEFAULT_MAX_TOKENS",
    "Budget",
    "CallRecord",
    "EventCallback",
    "ImagePart",
    "Ledger",
    "Message",
    "Model",
    "ModelClient",
    "ModelRequest",
    "ModelRequestRejected",
    "ModelResponse",
    "ModelSettings",
    "ParsedSpec",
    "Provider",
    "ProviderCall",
    "RepetitionDetected",
    "RepetitionGuard",
    "Routing",
    "ScriptExhausted",
    "ScriptedModel",
    "StreamCallback",
    "TextPart",
    "Timings",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "configured_providers",
    "cost_usd",
    "default_model_spec",
    "fallback_provider",
    "get_provider",
    "how_to_configure",
    "load_config",
    "model_schema",
    "output_budget",
    "parse_agent_models",
    "parse_spec",
    "ping",
    "price_for",
    "provider_load_errors",
    "providers",
    "read_transcript",
    "register_provider",
    "reply_chars",
    "resolve",
    "spec_forms",
    "unbounded_fields",
]
