"""``openai-compatible:<model>@<base_url>``: any self-hosted chat-completions server (Ollama, vLLM, llama.cpp,
LM Studio).

Not an adapter of its own: a provider row that builds :class:`~cmbagent.models.openai.ChatCompletionsModel`
with other settings (a base URL it must be given, a key it may go without, the fallbacks for servers that
lack ``json_schema``).  It registers itself in the provider table as every built-in row does.
"""

from __future__ import annotations

from cmbagent.models._providers import Provider, ProviderCall, register_provider
from cmbagent.models._specs import spec_error
from cmbagent.models.openai import ChatCompletionsModel

__all__: list[str] = []


def _openai_compatible(call: ProviderCall) -> ChatCompletionsModel:
    key = call.optional_key()
    base_url = call.base_url()
    if not base_url:
        raise spec_error(call.spec.spec, "no base URL: append '@http://host:port/v1' or set OPENAI_BASE_URL")
    if call.spec.base_url is None:
        # the user paired OPENAI_BASE_URL with OPENAI_API_KEY themselves; never send that key elsewhere
        key = key or call.env.get("OPENAI_API_KEY", "")
    return ChatCompletionsModel(call.connection(api_key=key or "not-needed", base_url=base_url),
                                max_tokens_param="max_tokens", fallback=True,
                                structured_output=call.options.get("structured_output"))


register_provider(Provider(
    name="openai-compatible",
    description="local or self-hosted OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio)",
    factory=_openai_compatible,
    forms=("openai-compatible:<model>@<base_url>", "openai-compatible:<model> (with OPENAI_BASE_URL set)"),
    example="openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1",
    key_variable="OPENAI_COMPATIBLE_API_KEY", key_required=False, base_url_variable="OPENAI_BASE_URL",
    takes_base_url=True,
    hint="a local server with `--model openai-compatible:<model>@<url>` (e.g. Ollama at http://127.0.0.1:11434/v1)",
))
