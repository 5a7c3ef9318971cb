"""OpenAI-compatible servers (``openai-compatible:<model>@<base_url>``): Ollama, vLLM, llama.cpp, LM Studio.

Same wire format as :mod:`cmbagent.models.openai`, with what local servers differ in:

* structured output asks for ``json_schema`` first; a server that rejects it (HTTP 400/422) is asked again
  in JSON mode (``json_object``) with the schema in a system message, and if that is rejected too, with
  the instruction alone.  The mode that worked is remembered for the adapter's later calls, and every
  reply is validated (and repaired by the client) whatever the mode;
* ``max_tokens`` instead of ``max_completion_tokens``;
* no key is needed unless the server wants one (``OPENAI_COMPATIBLE_API_KEY``); local calls cost nothing.
"""

from __future__ import annotations

from typing import Any, Literal

from cmbagent.models._protocol import Message, ModelRequest, ModelResponse, StreamCallback
from cmbagent.models._structured import schema_instruction
from cmbagent.models.openai import OpenAIModel, to_openai_messages

__all__ = ["OpenAICompatibleModel"]

StructuredMode = Literal["json_schema", "json_object", "prompt"]
_NEXT_MODE: dict[str, StructuredMode] = {"json_schema": "json_object", "json_object": "prompt"}


class OpenAICompatibleModel(OpenAIModel):
    """A self-hosted chat-completions server."""

    provider = "openai-compatible"
    key_variable = "OPENAI_COMPATIBLE_API_KEY"
    max_tokens_param = "max_tokens"

    def __init__(self, model: str, *, api_key: str, base_url: str, max_retries: int, timeout: float):
        super().__init__(model, api_key=api_key, base_url=base_url, max_retries=max_retries, timeout=timeout)
        #: how structured output is asked for; downgraded when the server rejects a mode
        self.structured_mode: StructuredMode = "json_schema"

    def _params_for(self, request: ModelRequest, mode: StructuredMode) -> dict[str, Any]:
        params = self.params(request.model_copy(update={"output_schema": None}))
        schema = request.output_schema
        if schema is None:
            return params
        if mode == "json_schema":
            format_ = self.response_format(request)
            if format_ is not None:
                params["response_format"] = format_
            return params
        instruction = Message(role="system", content=schema_instruction(schema))
        params["messages"] = to_openai_messages([instruction, *request.messages])
        if mode == "json_object":
            params["response_format"] = {"type": "json_object"}
        return params

    def _send(self, request: ModelRequest, on_text: StreamCallback | None) -> ModelResponse:
        if request.output_schema is None:
            return self.call(self.params(request), on_text)
        sdk = self._sdk()
        while True:
            mode = self.structured_mode
            try:
                return self.call(self._params_for(request, mode), on_text)
            except (sdk.BadRequestError, sdk.UnprocessableEntityError):
                if mode not in _NEXT_MODE:
                    raise
                self.structured_mode = _NEXT_MODE[mode]
