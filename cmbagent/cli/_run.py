"""`cmbagent solve|resume|replay|runs|report`: run a task, continue or replay a run, list and re-render runs.

Exit codes: 0 done, 1 the task failed (the report says why), 2 usage error (a second `resume` of a run
that is going included; a task too unclear to run on a guess), 3 budget exhausted (partial report written),
4 cancelled (`cmbagent cancel`; partial report written, resumable), 5 unmet (the run finished, but did not do
what the task asked: requirements.json and the report's first lines say which requirement), 130 interrupted
by SIGINT and 143 by SIGTERM (resumable).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer

from cmbagent.cli._common import (
    EXIT_BUDGET,
    EXIT_CANCELLED,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_TERMINATED,
    EXIT_UNMET,
    EXIT_USAGE,
    fail,
    print_json,
)

_EXIT = {"done": EXIT_OK, "unmet": EXIT_UNMET, "failed": EXIT_FAILED, "budget_exhausted": EXIT_BUDGET, "interrupted": EXIT_INTERRUPTED,
         "cancelled": EXIT_CANCELLED, "awaiting_approval": EXIT_OK}
_SIGNALLED: list[int] = []  # the signal that stopped the run (SIGTERM exits 143, SIGINT 130)


def _summary(result: Any) -> dict[str, Any]:
    return {"run_dir": str(result.run_dir), "run_id": result.run_id, "status": result.status,
            "report": str(result.report_path) if result.report_path else None,
            "steps": [{k: s.get(k) for k in ("id", "title", "agent", "status")} for s in result.steps],
            "values": result.values, "cost_usd": result.cost_usd, "duration_s": result.duration_s,
            "error": result.error}


def _finish(result: Any, as_json: bool) -> None:
    if as_json:
        print_json(_summary(result))
    else:
        if result.status == "awaiting_approval":
            held = _open_points(result.run_dir)
            if held:
                typer.echo("code's reading of the task left these points open; the task analyst's arguments would "
                           "decide them:")
                for point in held["open"]:
                    typer.echo(f"  - {point}")
                typer.echo("the analyst's arguments: " + ", ".join(
                    f"{k}={v!r}" for k, v in (held.get("analyst_arguments") or {}).items()))
                typer.echo("settle them in the task's front matter (arguments:) and run it again, or let the analyst "
                           "decide (--accept-analyst)")
            typer.echo(f"plan awaiting approval; continue with: cmbagent resume {result.run_dir} --approve "
                       "(or --reject 'why' / --edit plan.json)")
        elif result.status == "interrupted":
            typer.echo(f"status: interrupted (every completed step is kept); resume with: cmbagent resume "
                       f"{result.run_dir}")
        else:
            typer.echo(f"status: {result.status}; report: {result.report_path or '(none)'}")
        if result.error:
            typer.echo(f"error: {result.error}", err=True)
    import signal

    if result.status == "interrupted" and signal.SIGTERM in _SIGNALLED:
        raise typer.Exit(EXIT_TERMINATED)
    if result.status == "awaiting_approval" and _open_points(result.run_dir):
        raise typer.Exit(EXIT_USAGE)  # a question to the person, as when offline pre-flight asks
    raise typer.Exit(_EXIT.get(result.status, EXIT_FAILED))


def _open_points(run_dir: Path) -> dict[str, Any]:
    """The run's ``understanding`` when code's reading left points open for the plan's method call, else {}."""
    import json

    try:
        understanding = json.loads((Path(run_dir) / "run.json").read_text(encoding="utf-8")).get("understanding")
    except (OSError, ValueError):
        return {}
    return understanding if isinstance(understanding, dict) and understanding.get("open") else {}


def _is_idea_run(run_dir: Path) -> bool:
    import json

    try:
        return bool(json.loads((run_dir / "run.json").read_text(encoding="utf-8")).get("kind") == "ideas")
    except (OSError, ValueError):
        return False


def _replay_ideas(run_dir: Path, workspace: Path | None, lenient: bool, as_json: bool) -> None:
    from cmbagent.exceptions import UserError
    from cmbagent.ideas import replay_ideas

    try:
        result, comparison = replay_ideas(run_dir, workspace=workspace, lenient=lenient)
    except UserError as exc:
        fail(str(exc))
    if as_json:
        print_json({**result.summary(), "comparison": comparison})
    else:
        typer.echo(f"replay: {result.run_dir} ({result.status})")
        typer.echo(f"  same ideas: {'yes' if comparison['same_ideas'] else 'NO'}")
    raise typer.Exit(EXIT_OK if comparison["identical"] and result.status == "done" else EXIT_FAILED)


@contextlib.contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """SIGTERM stops a run the way Ctrl-C does: checkpointed, status interrupted, resumable (exit 143)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        _SIGNALLED.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interactive_approval(result: Any, as_json: bool) -> Any:
    """On a terminal, ask the person about a plan awaiting approval; loop until approved or declined."""
    import json

    from cmbagent.api import PlanDecision, resume

    while result.status == "awaiting_approval" and sys.stdin.isatty() and not as_json:
        from cmbagent.report import reading_lines

        plan = json.loads((Path(result.run_dir) / "plan.json").read_text())
        run = json.loads((Path(result.run_dir) / "run.json").read_text())
        read = reading_lines(run.get("understanding"))
        if read:  # what the plan rests on: how the task was read, each mapping with its confidence
            typer.echo("\nHow the task was read:")
            for line in read:
                typer.echo(f"  - {line}")
        typer.echo("\nProposed plan:")
        for n, step in enumerate(plan["steps"], 1):
            typer.echo(f"  {n}. {step['title']} [{step['agent']}]: {step['goal']}")
        answer = typer.prompt("approve (a), reject with a comment (r), edit a plan file (e), leave for later (q)",
                              default="a")
        if answer.startswith("q"):
            return result
        if answer.startswith("r"):
            decision = PlanDecision(action="reject", comment=typer.prompt("what should change"))
        elif answer.startswith("e"):
            path = typer.prompt("path of the edited plan JSON", default=str(Path(result.run_dir) / "plan.json"))
            decision = PlanDecision(action="edit", plan=json.loads(Path(path).read_text()))
        else:
            decision = PlanDecision(action="approve")
        result = resume(result.run_dir, decision=decision, on_event=_listener(False))
    return result


_PROGRESS: list[Any] = []


def _listener(as_json: bool) -> Any:
    from cmbagent.progress import make_progress

    progress = make_progress(sys.stderr if as_json else sys.stdout)
    if progress is not None:
        _PROGRESS.append(progress)
    return progress


def _close_progress() -> None:
    while _PROGRESS:
        _PROGRESS.pop().close()


def register(app: typer.Typer) -> None:
    @app.command("solve")
    def solve_cmd(
        task: str = typer.Argument(..., help="Task markdown file (or the task text itself)."),
        model: str | None = typer.Option(None, "--model", "-m", help="Default model spec, e.g. openai:gpt-4.1, offline."),
        agent_model: list[str] = typer.Option([], "--agent-model", help="AGENT=SPEC override (repeatable)."),
        config: Path | None = typer.Option(None, "--config", help="cmbagent.toml with models, tiers, budgets."),
        workspace: Path | None = typer.Option(None, "--workspace", help="Folder for run folders (default ./workspaces)."),
        run_dir: Path | None = typer.Option(None, "--run-dir", help="Exact run folder to create."),
        max_steps: int | None = typer.Option(
            None, "--max-steps", min=1, help="Most steps a plan may have (default: front matter, else 12)."),
        n_reviews: int | None = typer.Option(
            None, "--n-reviews", min=0, help="Plan review rounds (default: front matter, else 1)."),
        max_attempts: int | None = typer.Option(
            None, "--max-attempts", min=1, help="Attempts per step before replanning (default: front matter, else 3)."),
        cell_timeout: float | None = typer.Option(
            None, "--cell-timeout", min=1,
            help="Seconds one code cell may run before it is stopped (default: CMBAGENT_CELL_TIMEOUT, front "
                 "matter, [run] cell_timeout in --config, else 900)."),
        budget_usd: float | None = typer.Option(None, "--budget-usd", help="Stop (with a partial report) past this cost."),
        budget_tokens: int | None = typer.Option(None, "--budget-tokens", help="Stop past this many tokens."),
        timeout: float | None = typer.Option(None, "--timeout", help="Wall-clock budget of the run in seconds."),
        approve_plan: bool = typer.Option(False, "--approve-plan", help="Stop for a person to approve the plan."),
        accept_analyst: bool = typer.Option(
            False, "--accept-analyst",
            help="Let the model's task analyst decide what code's reading of the task left open (the report "
                 "says so); without it such a plan waits for a person."),
        sandbox: str = typer.Option("auto", "--sandbox", help="auto, bwrap, docker or process."),
        allow_install: bool = typer.Option(
            False, "--allow-install",
            help="Let the host pip-install a package a cell is missing into the run's overlay "
                 "(<run>/.overlay/site-packages), never the host environment; extra pip arguments from "
                 "CMBAGENT_PIP_ARGS."),
        data: list[Path] = typer.Option([], "--data", help="Extra data file to copy into the run (repeatable)."),
        data_dir: list[Path] = typer.Option(
            [], "--data-dir",
            help="A folder the task may read data from besides its own folder tree (repeatable; also "
                 "data_dirs under [paths] in the --config file)."),
        collection: str | None = typer.Option(
            None, "--collection",
            help="A knowledge-index collection (`cmbagent index ... --collection NAME`): text steps get passages "
                 "retrieved from it, the report cites them under References."),
        index_dir: Path | None = typer.Option(
            None, "--index-dir", help="Index folder holding the collection (default: CMBAGENT_INDEX_DIR, "
                                      "[index] dir in --config, else the user data folder)."),
        as_json: bool = typer.Option(False, "--json", help="Print one final JSON object."),
    ) -> None:
        """Plan, run, critique and report a task."""
        from cmbagent.api import offline_fallback, solve
        from cmbagent.exceptions import SandboxUnavailable, UserError
        from cmbagent.models import parse_agent_models

        out = sys.stderr if as_json else sys.stdout
        try:
            overrides = parse_agent_models(agent_model)
            if offline_fallback(model, config):
                out.write("no model configured (no --model, CMBAGENT_MODEL, config file or API key): using the "
                          "deterministic offline backend\n")
            else:
                out.write(f"model: {model or 'from configuration'}\n")
            out.flush()
            listener = _listener(as_json)
            with _sigterm_interrupts():
                settings = {  # the run's settings, one object: None is "not given", left to the other sources
                    "max_steps": max_steps, "n_reviews": n_reviews, "max_attempts": max_attempts,
                    "cell_timeout": cell_timeout, "approve_plan": approve_plan or None, "sandbox": sandbox,
                    "accept_analyst": accept_analyst or None,
                    "allow_install": allow_install or None, "collection": collection,
                    "index_dir": str(index_dir) if index_dir is not None else None}
                result = solve(task, workspace=workspace, run_dir=run_dir, model=model, agent_models=overrides,
                               config=config, budget_usd=budget_usd, budget_tokens=budget_tokens, timeout=timeout,
                               data_files=list(data), data_dirs=list(data_dir), on_event=listener, settings=settings)
            _close_progress()
            result = _interactive_approval(result, as_json)
        except (UserError, SandboxUnavailable) as exc:
            _close_progress()
            fail(str(exc))
        _finish(result, as_json)

    @app.command("resume")
    def resume_cmd(
        run_dir: Path = typer.Argument(..., help="Run folder to continue."),
        approve: bool = typer.Option(False, "--approve", help="Approve the plan awaiting approval."),
        reject: str | None = typer.Option(None, "--reject", help="Reject the plan with this comment."),
        edit: Path | None = typer.Option(None, "--edit", help="Approve an edited plan (JSON file)."),
        sandbox: str | None = typer.Option(
            None, "--sandbox",
            help="Sandbox backend for the rest of the run (default: the one run.json names, which the run's "
                 "own code can rewrite; name it to be sure)."),
        config: Path | None = typer.Option(
            None, "--config", help="cmbagent.toml naming the checkpoint database ([checkpoints] url)."),
        as_json: bool = typer.Option(False, "--json", help="Print one final JSON object."),
    ) -> None:
        """Continue a run after a kill, an interrupt, a cancel or a plan awaiting approval."""
        import json

        from cmbagent.api import PlanDecision, resume
        from cmbagent.exceptions import UserError

        decision = None
        if sum(bool(x) for x in (approve, reject, edit)) > 1:
            fail("choose one of --approve, --reject, --edit")
        if approve:
            decision = PlanDecision(action="approve")
        elif reject is not None:
            decision = PlanDecision(action="reject", comment=reject)
        elif edit is not None:
            try:
                decision = PlanDecision(action="edit", plan=json.loads(edit.read_text()))
            except (OSError, json.JSONDecodeError) as exc:
                fail(f"cannot read the edited plan {edit}: {exc}")
        try:
            with _sigterm_interrupts():
                result = resume(run_dir, decision=decision, on_event=_listener(as_json), sandbox=sandbox,
                                config=config)
            _close_progress()
            result = _interactive_approval(result, as_json)
        except UserError as exc:
            _close_progress()
            fail(str(exc))
        _finish(result, as_json)

    @app.command("replay")
    def replay_cmd(
        run_dir: Path = typer.Argument(..., help="Recorded run folder."),
        lenient: bool = typer.Option(False, "--replay-lenient", "--lenient", help="Continue past requests that differ from the recording (e.g. a changed method catalogue)."),
        workspace: Path | None = typer.Option(None, "--workspace", help="Where the replay's run folder goes."),
        sandbox: str | None = typer.Option(None, "--sandbox", help="Sandbox backend (default: the recorded one)."),
        as_json: bool = typer.Option(False, "--json", help="Print one final JSON object."),
    ) -> None:
        """Re-run a recorded run (or idea run) from its transcript with no network; compare plan, cells and
        numbers (the ranked ideas)."""
        from cmbagent.api import replay
        from cmbagent.exceptions import UserError

        if _is_idea_run(run_dir):
            _replay_ideas(run_dir, workspace, lenient, as_json)
        try:
            result, comparison = replay(run_dir, workspace=workspace, lenient=lenient, sandbox=sandbox,
                                        on_event=_listener(as_json))
            _close_progress()
        except UserError as exc:
            _close_progress()
            fail(str(exc))
        if as_json:
            print_json({**_summary(result), "comparison": comparison})
        else:
            typer.echo(f"replay: {result.run_dir} ({result.status})")
            for key in ("same_plan", "same_cells", "same_numbers"):
                typer.echo(f"  {key.replace('_', ' ')}: {'yes' if comparison[key] else 'NO'}")
            for cell in comparison["differing_cells"]:
                typer.echo(f"  differs: {cell}")
        raise typer.Exit(EXIT_OK if comparison["identical"] and result.status == "done" else EXIT_FAILED)

    @app.command("runs")
    def runs_cmd(
        workspace: Path | None = typer.Option(None, "--workspace", help="Folder of run folders (default ./workspaces)."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ) -> None:
        """List runs: id, task, status, steps, cost, duration."""
        from cmbagent.run import default_workspace, list_runs

        rows = list_runs(workspace or default_workspace())
        if as_json:
            print_json(rows)
            return
        if not rows:
            typer.echo(f"no runs in {workspace or default_workspace()}")
            return
        typer.echo(f"{'run id':44s} {'status':17s} {'steps':>6s} {'cost':>9s} {'time':>8s}  {'batch':28s} task")
        for r in rows:
            cost = "-" if r["cost_usd"] is None else f"${r['cost_usd']:.4f}"
            dur = "-" if r["duration_s"] is None else f"{r['duration_s']:.0f}s"
            typer.echo(f"{r['run_id']:44s} {r['status']:17s} {r['steps']:>2}/{r['steps_total']:<3} {cost:>9s} "
                       f"{dur:>8s}  {(r.get('batch') or '-')[:28]:28s} {r['task'][:50]}")

    @app.command("report")
    def report_cmd(run_dir: Path = typer.Argument(..., help="Run folder.")) -> None:
        """Render report.md of a run again (from run.json); a run with a knowledge index has its citations
        checked against the index as it is now."""
        from cmbagent.config import RunConfig
        from cmbagent.exceptions import UserError
        from cmbagent.report import rerender
        from cmbagent.run import RunFolder
        from cmbagent.session import citation_resolver

        if not (run_dir / "run.json").is_file():
            fail(f"{run_dir} is not a run folder (no run.json)")
        try:
            folder = RunFolder(run_dir)
            settings = RunConfig.stored(folder.record().config, str(run_dir)).settings
            path = rerender(folder, resolve=citation_resolver(settings))  # citations are audited again
        except UserError as exc:
            fail(str(exc))
        typer.echo(str(path))
