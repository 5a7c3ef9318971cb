"""The llama.cpp server of ``--model local``, run as a child process of cmbagent.

Run as a plain script (``python -I _llama_child.py``), never imported by cmbagent: it imports nothing but
``xllamacpp`` and the standard library.  That is the point of a separate process.  xllamacpp's Cython runtime
and astropy's cannot share one interpreter ("Shared Cython type cython_function_or_method has the wrong
size"), and the host process of a run imports astropy; a child process also keeps llama.cpp's threads and
memory out of the run's process and lets the parent stop it for certain.

Protocol: the parent writes one JSON line of settings to stdin; the child starts the server and answers with
one JSON line on stdout, ``{"url": ...}`` or ``{"error": ...}``; then it serves until its stdin closes (the
parent closed it, or the parent died), and exits without running the native server's destructor.
"""

from __future__ import annotations

import json
import os
import sys


def _serve(settings: dict[str, object]) -> object:
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(settings["gguf"])
    params.model_alias = {str(settings["alias"])}
    params.hostnames = ["127.0.0.1"]
    params.port = 0  # the OS picks a free port; listening_address reports it
    params.api_keys = [str(settings["api_key"])]
    slots = int(settings.get("slots", 1))  # type: ignore[call-overload]
    # each slot gets ``ctx`` tokens of its own (llama.cpp splits n_ctx among the slots when the cache is not unified)
    params.n_ctx = int(settings["ctx"]) * slots  # type: ignore[call-overload]
    params.n_parallel = slots
    params.kv_unified = False
    # prompts a slot gives up are kept in host memory and restored when a later prompt starts the same way
    params.cache_ram_mib = int(settings.get("cache_mib", 1024))  # type: ignore[call-overload]
    params.cpuparams.n_threads = int(settings["threads"])  # type: ignore[call-overload]
    params.cpuparams_batch.n_threads = int(settings["threads"])  # type: ignore[call-overload]
    params.warmup = False
    params.fit_params = False
    params.ui = False
    params.verbosity = 0
    params.sampling.seed = 42  # the same request gets the same reply
    return xllamacpp.Server(params)


def main() -> None:
    settings = json.loads(sys.stdin.readline())
    try:
        server = _serve(settings)
        reply = {"url": str(server.listening_address).rstrip("/")}  # type: ignore[attr-defined]
    except Exception as exc:  # reported to the parent, which raises a ConfigError naming the file
        reply = {"error": f"{type(exc).__name__}: {exc}"}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
    if "error" in reply:
        os._exit(1)
    while sys.stdin.readline():  # nothing more is sent; EOF means stop
        pass
    os._exit(0)  # the native server's destructor can hang; the process ending frees everything


if __name__ == "__main__":
    main()
