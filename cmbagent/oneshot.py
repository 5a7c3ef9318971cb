"""The one-model baseline: one call to the engineer agent, one program, run once in the same sandbox.

It lives beside :mod:`cmbagent.api` (not in :mod:`cmbagent.eval`) because the batch layer runs it as one kind of
batch item, and the eval layer sits above the batch layer (docs/architecture.md, "Layers").

The engineer is asked, with its own prompt, for one complete program that does the whole task; it is told
the task, what the data files look like (their first lines, or the arrays of an ``.npz``) and the method
catalogue, and nothing else — no plan, no critic, no audits.  The program runs once in the run folder's
sandboxed kernel, exactly as a Planning & Control cell would.  With ``repairs=N`` a program that raises is
sent back to the same agent with its error, up to N times (the default is 0: one shot).  The model
client, its budget (the eval's shared account included), the transcript and the cost table are the same
as a graph run's, so the only difference between the modes is the graph.

The run folder is a normal one (``task.md``, ``data/``, ``run.json`` with the sealed settings, a transcript)
plus ``program.py`` (each attempt under ``attempts/``), ``output.txt`` and a short ``report.md``; ``run.json``
records ``mode: one-shot``, the status (``done`` when the final program ran), the values it printed, its
explanation and output, and what it cost.  The ``offline`` backend writes no program from a task, so a
one-shot run with it makes no call and records that it needs a model.
"""

from __future__ import annotations

import gzip
import time
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from cmbagent.agents import AgentContext, CodeDraft, catalogue_lines, clip
from cmbagent.cells import RESULT_BEGIN, RESULT_END, parse_result
from cmbagent.exceptions import BudgetExceeded, CmbagentError, RunCancelled

__all__ = ["ONE_SHOT_AGENT", "OneShotContext", "PreviousAttempt", "describe_data", "run_one_shot"]

ONE_SHOT_AGENT = "engineer"
DATA_CHARS = 6000  # the data description, all files together
CELL_TIMEOUT_S = 900.0
NEEDS_MODEL = ("the offline backend answers the graph's agents by rules and writes no program from a task; "
               "one-shot needs a language model (--model)")


class PreviousAttempt(BaseModel):
    code: str
    error: str


class OneShotContext(AgentContext):
    """What the engineer is told in one-shot mode: the task, the data files, the method tools."""

    title: str
    text: str
    data: list[str] = Field(default_factory=list)
    methods: str = ""
    attempts: list[PreviousAttempt] = Field(default_factory=list)

    def sections(self) -> list[tuple[str, str]]:
        failed = "\n\n".join(f"Program:\n```python\n{clip(a.code, 4000)}\n```\nError:\n{clip(a.error, 1500)}"
                             for a in self.attempts[-2:])
        return [
            ("Task", f"{self.title}\n\n{self.text}"),
            ("Data files (paths relative to the working folder)", "\n\n".join(self.data) or "(none)"),
            ("Method tools", "Call one with `from cmbagent.tools.methods import run_method; "
                             "result = run_method(NAME, {ARGUMENTS})`; `result.values` holds its numbers, "
                             "`result.summary` says what it found.\n" + self.methods),
            ("What to write",
             "There is no plan and no later step: write ONE complete Python program that carries out the whole "
             "task in a single run and is executed once. Read the data files above, save any figure under "
             "figures/, fix random seeds, and at the end print the answer as one JSON object between the lines "
             f"`{RESULT_BEGIN}` and `{RESULT_END}`, using the names the task asks for (a quantity with an "
             'uncertainty as {"mean": x, "std": s}). If the task cannot be done as asked, print a sentence '
             "that says why instead of a number."),
            ("Your previous program failed; fix it", failed),
        ]


def _head(path: Path, lines: int = 6, width: int = 240) -> list[str]:
    opener: Any = gzip.open if path.suffix == ".gz" else open
    out: list[str] = []
    with opener(path, "rt", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            out.append(line.rstrip("\n")[:width])
            if len(out) >= lines:
                break
    return out


def describe_data(folder: Path, files: list[str]) -> list[str]:
    """One short description per data file: size, and its first lines or its arrays (bounded)."""
    out: list[str] = []
    left = DATA_CHARS
    for rel in files:
        path = folder / rel
        try:
            size = path.stat().st_size
            if path.suffix == ".npz":
                import numpy as np

                with np.load(path, allow_pickle=False) as arrays:
                    body = "arrays: " + ", ".join(f"{k} {arrays[k].shape} {arrays[k].dtype}" for k in arrays.files)
            elif path.suffix in (".npy", ".png", ".jpg", ".fits", ".fit", ".parquet", ".h5", ".hdf5", ".pkl", ".zip"):
                body = "(binary file)"
            else:
                body = "first lines:\n" + "\n".join(_head(path))
        except (OSError, ValueError) as exc:
            size, body = 0, f"(cannot be read: {exc})"
        text = clip(f"`{rel}` ({size:,} bytes) {body}", max(200, left))
        left -= len(text)
        out.append(text)
        if left <= 0:
            out.append(f"(and {len(files) - len(out)} more files)")
            break
    return out


def _error_text(result: Any) -> str:
    if result.status == "ok":
        return ""
    head = f"{result.error_name or result.status}: {result.error_value or result.message}"
    return head + ("\n" + result.traceback if result.traceback else "")


def run_one_shot(
    task: Any,
    *,
    run_dir: str | Path,
    model: str | None = None,
    repairs: int = 0,
    budget_usd: float | None = None,
    timeout: float | None = None,
    sandbox: str = "auto",
    executor: Any = None,
    models: dict[str, Any] | None = None,
    api_keys: dict[str, str] | None = None,
    shared_budget: Any = None,
) -> dict[str, Any]:
    """Run ``task`` (a :class:`cmbagent.task.Task`) in one-shot mode in ``run_dir`` and return its record
    (also ``run.json``).  An unfinished folder (an interrupted attempt) is continued: its transcript's spend
    counts towards the budget and the program is asked for again."""
    import os

    from cmbagent.agents import load_registry
    from cmbagent.config import RunConfig
    from cmbagent.control import CancelWatch, RunLock, clear_cancel
    from cmbagent.events import EventLog
    from cmbagent.models import ModelClient
    from cmbagent.planner import Runtime
    from cmbagent.run import RunFolder, write_text
    from cmbagent.sandbox import Executor, open_sandbox
    from cmbagent.tools.methods import iter_methods

    if repairs < 0:
        raise CmbagentError(f"repairs must be >= 0 (got {repairs})")
    flags = {"model": model, "budget_usd": budget_usd, "timeout": timeout,
             "sandbox": sandbox if sandbox != "auto" else None}
    config = RunConfig.resolve(flags=flags, env=os.environ, front_matter=task.front_matter, models=models)
    target = Path(run_dir)
    if (target / "run.json").is_file():
        folder = RunFolder(target)
        record = folder.read_run()
        if record.get("finished") and record.get("status") in ("done", "failed"):
            return record
    else:
        folder = RunFolder.create(task, workspace=None, run_dir=target, config=config.model_dump(mode="json"))
    folder.update_run(mode="one-shot", status="running", repairs=repairs,
                      task={"text": task.text, "title": task.title, "data_files": task.data_files})
    if all(spec == "offline" for spec in config.specs()):
        return folder.update_run(status="failed", needs_model=NEEDS_MODEL, error=None, finished=time.time(),
                                 duration_s=0.0, cost_usd=0.0, costs={"total": {"calls": 0}})
    started = time.monotonic()
    previous = float(folder.read_run().get("duration_s") or 0.0)
    with RunLock(folder.path):
        clear_cancel(folder.path)
        watch = CancelWatch(folder.path).start()
        client = ModelClient(config.routing(models), transcript_path=folder.transcript, budget=config.budget_limits(),
                             api_keys=api_keys, interrupt=watch.check, shared_budget=shared_budget,
                             elapsed_offset_s=previous)
        watch.on_cancel(client.abort_calls)

        def open_executor() -> Executor:
            made = executor(folder.path) if callable(executor) and not isinstance(executor, Executor) else executor
            made = made or open_sandbox(folder.path, backend=config.settings.sandbox)
            watch.on_cancel(made.cancel)
            return made

        rt = Runtime(folder=folder, registry=load_registry(), client=client, events=EventLog(folder.events, folder.run_id),
                     settings=config.settings, open_executor=open_executor)
        context = OneShotContext(title=task.title, text=task.text, data=describe_data(folder.path, task.data_files),
                                 methods="\n".join(catalogue_lines(iter_methods())))
        status, error, values, stdout, explanation = "failed", None, {}, "", ""
        attempts = sorted((folder.path / "attempts").glob("attempt-*.py"))
        n = len(attempts)
        try:
            for _ in range(repairs + 1):
                draft = rt.ask(ONE_SHOT_AGENT, context, CodeDraft)
                n += 1
                explanation = draft.explanation
                write_text(folder.path / "attempts" / f"attempt-{n}.py", draft.code)
                write_text(folder.path / "program.py", draft.code)
                watch.check()
                limit = min(CELL_TIMEOUT_S, float(timeout)) if timeout else CELL_TIMEOUT_S
                result = rt.executor.execute(draft.code, timeout=limit)
                stdout = result.stdout.text
                write_text(folder.path / "output.txt", stdout + ("\n" + result.stderr.text if result.stderr.text else "")
                           + ("\n" + _error_text(result) if not result.ok else ""))
                if result.ok:
                    status, error, values = "done", None, parse_result(stdout) or {}
                    break
                error = _error_text(result).splitlines()[0][:500]
                context = context.model_copy(update={"attempts": [*context.attempts,
                                                                  PreviousAttempt(code=draft.code, error=_error_text(result))]})
        except BudgetExceeded as exc:
            status, error = "budget_exhausted", str(exc)
        except RunCancelled as exc:
            status, error = "cancelled", str(exc)
        except CmbagentError as exc:
            status, error = "failed", f"{type(exc).__name__}: {exc}"
        finally:
            rt.close()
            client.close()
            watch.stop()
        totals = client.ledger.totals()
        duration = previous + time.monotonic() - started
        record = folder.update_run(
            status=status, error=error, values=values, explanation=explanation, stdout=clip(stdout, 20000),
            attempts=n, duration_s=round(duration, 3), cost_usd=totals.get("cost_usd"),
            costs={"total": totals, "per_agent": client.ledger.per_agent()},
            finished=time.time() if status in ("done", "failed", "budget_exhausted") else None)
        write_text(folder.report, _report(task.title, record))
        return record


def _report(title: str, record: dict[str, Any]) -> str:
    import json

    cost = record.get("cost_usd")
    lines = [f"# {title} (one-shot)", "",
             f"Status **{record.get('status')}** after {record.get('attempts', 0)} program(s), "
             f"{record.get('duration_s', 0):.1f} s, " + ("cost unknown" if cost is None else f"${cost:.4f}") + ".", ""]
    if record.get("error"):
        lines += [f"> {record['error']}", ""]
    if record.get("explanation"):
        lines += ["## What the program does", "", str(record["explanation"]), ""]
    if record.get("values"):
        lines += ["## Result", "", "```json", json.dumps(record["values"], indent=1, default=str)[:6000], "```", ""]
    lines += ["## Output", "", "```", str(record.get("stdout") or "")[-6000:], "```", "",
              "The program: [program.py](program.py); every attempt under [attempts/](attempts/).", ""]
    return "\n".join(lines)
