"""`cmbagent eval`: run a suite of graded research tasks with the graph, one model alone, or both.

Exit codes: 0 every run was graded (whatever the pass rate), 1 some runs did not happen (cancelled), 2 usage
error, 3 the budget stopped the eval (the runs it kept from starting are listed as not run;
`cmbagent eval --resume EVAL --budget-usd LARGER` runs them).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import typer

from cmbagent.cli._common import EXIT_BUDGET, EXIT_FAILED, EXIT_OK, fail, print_json


def _print_row(row: Any) -> None:
    took = "-" if row.duration_s is None else f"{row.duration_s:.1f}s"
    cost = "-" if row.cost_usd is None else f"${row.cost_usd:.4f}"
    sys.stderr.write(f"[eval] {row.item.index:>3} {row.item.name[:48]:48s} {row.status:17s} {cost:>9s} {took:>8s}\n")
    sys.stderr.flush()


def _side(text: str) -> tuple[Path, str | None]:
    """``FOLDER`` or ``FOLDER:MODE`` (``pc`` or ``one-shot``)."""
    for mode in ("pc", "one-shot"):
        if text.endswith(f":{mode}"):
            return Path(text[: -len(mode) - 1]), mode
    return Path(text), None


def register(app: typer.Typer) -> None:
    @app.command("eval")
    def eval_cmd(
        suite: Path | None = typer.Argument(None, help="Suite folder: task .md files, each with NAME.grade.yaml."),
        model: str | None = typer.Option(None, "--model", "-m", help="Model spec of every run (both modes)."),
        mode: str = typer.Option("pc", "--mode", help="pc (the Planning & Control graph), one-shot, or both."),
        repeats: int = typer.Option(1, "--repeats", min=1, metavar="N", help="Runs per task and mode."),
        repairs: int = typer.Option(0, "--repairs", min=0, metavar="N", help="One-shot self-repair rounds after an error."),
        only: list[str] = typer.Option([], "--only", metavar="NAME", help="Only these tasks (names or globs such as 'm0*'; repeatable)."),
        max_concurrent: int | None = typer.Option(None, "--max-concurrent", min=1, metavar="N", help="Most runs at once."),
        ray_address: str | None = typer.Option(
            None, "--ray-address", metavar="ADDRESS", help="Join a Ray cluster (auto, ray://host:port); default: a local one."),
        budget_usd: float | None = typer.Option(None, "--budget-usd", help="Total USD budget of the eval."),
        budget_usd_per_run: float | None = typer.Option(None, "--budget-usd-per-run", metavar="USD", help="USD budget of each run."),
        timeout_per_run: float | None = typer.Option(None, "--timeout-per-run", metavar="SECONDS", help="Wall-clock budget of each run (s)."),
        sandbox: str = typer.Option("auto", "--sandbox", help="auto, bwrap, docker or process."),
        rubric: bool = typer.Option(False, "--rubric", help="Also judge the graders' rubrics with a model (off by default)."),
        judge_model: str | None = typer.Option(None, "--judge-model", metavar="SPEC", help="Model spec of the rubric judge."),
        eval_dir: Path | None = typer.Option(None, "--eval-dir", metavar="DIR", help="Folder of the new eval."),
        workspace: Path | None = typer.Option(None, "--workspace", help="Where a new eval folder goes (default ./workspaces)."),
        resume_dir: Path | None = typer.Option(
            None, "--resume", metavar="DIR",
            help="Continue this eval: finished runs are kept (--budget-usd may raise its total budget)."),
        regrade_dir: Path | None = typer.Option(None, "--regrade", metavar="DIR", help="Grade this eval's runs again (no run is made)."),
        compare: tuple[str, str] | None = typer.Option(
            None, "--compare", metavar="A B", help="Two eval folders side by side: A B (FOLDER or FOLDER:MODE)."),
        list_tasks: bool = typer.Option(False, "--list", help="List the suite's tasks and graders, run nothing."),
        as_json: bool = typer.Option(False, "--json", help="Print one final JSON object."),
    ) -> None:
        """Run a suite of graded research tasks: the graph against one model alone; eval.md and eval.json."""
        from cmbagent.config import SANDBOXES
        from cmbagent.eval import (
            EvalSettings,
            compare_evals,
            load_suite,
            read_eval,
            regrade,
            render_comparison,
            run_eval,
        )
        from cmbagent.exceptions import UserError
        from cmbagent.run import default_workspace

        given = sum(bool(x) for x in (suite, resume_dir, regrade_dir, compare))
        if given != 1:
            fail("give a SUITE folder, or --resume EVAL_DIR, --regrade EVAL_DIR or --compare A B (one of them)")
        if mode not in ("pc", "one-shot", "both"):
            fail(f"--mode {mode!r}: choose pc, one-shot or both")
        if sandbox not in SANDBOXES:
            fail(f"unknown sandbox {sandbox!r}; choose auto, bwrap, docker or process")
        try:
            if compare is not None:
                (path_a, mode_a), (path_b, mode_b) = _side(compare[0]), _side(compare[1])
                result = compare_evals(read_eval(path_a), read_eval(path_b), mode_a, mode_b)
                if as_json:
                    print_json(result)
                else:
                    typer.echo(render_comparison(result))
                raise typer.Exit(EXIT_OK)
            if regrade_dir is not None:
                record = regrade(regrade_dir)
            elif resume_dir is not None:
                record = run_eval(None, resume_dir, budget_usd=budget_usd, on_update=_print_row)
            else:
                assert suite is not None
                chosen = load_suite(suite).select(only)
                if list_tasks:
                    for task in chosen.tasks:
                        checks = ", ".join(c.label() for c in task.grader.checks)
                        typer.echo(f"{task.name:40s} {task.kind:10s} {checks}")
                    raise typer.Exit(EXIT_OK)
                modes: list[Any] = ["pc", "one-shot"] if mode == "both" else [mode]
                settings = EvalSettings(
                    model=model, modes=modes, repeats=repeats,
                    repairs=repairs, max_concurrent=max_concurrent, ray_address=ray_address, budget_usd=budget_usd,
                    budget_usd_per_run=budget_usd_per_run, timeout_per_run=timeout_per_run, sandbox=sandbox,
                    rubric=rubric, judge_model=judge_model)
                folder = eval_dir or (workspace or default_workspace()) / f"eval-{time.strftime('%Y%m%d-%H%M%S')}"
                runs = len(chosen.tasks) * len(settings.modes) * repeats
                sys.stderr.write(f"[eval] {len(chosen.tasks)} tasks x {'/'.join(settings.modes)} x {repeats}: "
                                 f"{runs} runs in {folder}\n")
                record = run_eval(chosen, folder, settings, on_update=_print_row)
        except UserError as exc:
            fail(str(exc))
        if as_json:
            print_json(record.model_dump(mode="json"))
        else:
            for name, block in record.summary.items():
                rate = "-" if block["pass_rate"] is None else f"{block['pass_rate']:.0%}"
                typer.echo(f"{name}: {block['pass']}/{block['graded']} pass ({rate}), {block['needs_model']} need a "
                           f"model, {block['not_run']} not run, {block.get('asked', 0)} asked instead of answering")
            typer.echo(f"eval: {record.path}/eval.md")
        not_run = [g for g in record.grades if g.verdict == "not_run"]
        if any(g.status == "budget_exhausted" for g in not_run):
            raise typer.Exit(EXIT_BUDGET)
        raise typer.Exit(EXIT_FAILED if not_run else EXIT_OK)
