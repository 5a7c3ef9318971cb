"""`cmbagent batch` (many runs on Ray) and `cmbagent cancel` (stop a run or a batch from another process).

Exit codes of `batch`: 0 every run done, 1 some run did not end done (see batch.md), 2 usage error.
`cancel`: 0 the run stopped as cancelled, 1 it was not running or did not stop in time, 2 usage error.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import typer

from cmbagent.cli._common import EXIT_FAILED, EXIT_OK, fail, print_json


def _size(text: str | None) -> int | None:
    """``"2GB"``, ``"512MiB"``, ``"1e9"`` -> bytes."""
    import re

    if text is None:
        return None
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*([kmgt]?)(i?)b?\s*", text.lower())
    if match is None:
        fail(f"--memory-per-run {text!r} is not a size such as 2GB or 512MiB")
    base = 1024 if match.group(3) else 1000
    return int(float(match.group(1)) * base ** " kmgt".index(match.group(2) or " "))


def _print_row(row: Any) -> None:
    took = "-" if row.duration_s is None else f"{row.duration_s:.1f}s"
    cost = "-" if row.cost_usd is None else f"${row.cost_usd:.4f}"
    sys.stderr.write(f"[batch] {row.item.index:>3} {row.item.name[:40]:40s} {row.status:17s} {cost:>9s} {took:>8s}\n")
    sys.stderr.flush()


def register(app: typer.Typer) -> None:
    @app.command("batch")
    def batch_cmd(
        tasks: list[Path] = typer.Argument(None, help="Task .md files, or folders of them."),
        sweep: Path | None = typer.Option(None, "--sweep", help="A sweep file: one task and a parameter grid."),
        resume_dir: Path | None = typer.Option(
            None, "--resume", help="Continue this batch folder: finished runs are kept, the others resume."),
        batch_dir: Path | None = typer.Option(None, "--batch-dir", help="Folder of the new batch."),
        workspace: Path | None = typer.Option(None, "--workspace", help="Where a new batch folder goes (default ./workspaces)."),
        model: str | None = typer.Option(None, "--model", "-m", help="Default model spec of every run."),
        ray_address: str | None = typer.Option(
            None, "--ray-address", help="Join a Ray cluster (auto, ray://host:port); default: a local one."),
        max_concurrent: int | None = typer.Option(None, "--max-concurrent", min=1, help="Most runs at once."),
        cpus_per_run: float = typer.Option(1.0, "--cpus-per-run", min=0.01, help="CPUs Ray reserves per run."),
        memory_per_run: str | None = typer.Option(None, "--memory-per-run", help="Memory Ray reserves per run (2GB)."),
        budget_usd: float | None = typer.Option(None, "--budget-usd", help="Total USD budget of the batch."),
        budget_usd_per_run: float | None = typer.Option(None, "--budget-usd-per-run", help="USD budget of each run."),
        timeout_per_run: float | None = typer.Option(None, "--timeout-per-run", help="Wall-clock budget of each run (s)."),
        sandbox: str = typer.Option("auto", "--sandbox", help="auto, bwrap, docker or process."),
        data_dir: list[Path] = typer.Option([], "--data-dir", help="A folder the tasks may read data from (repeatable)."),
        as_json: bool = typer.Option(False, "--json", help="Print one final JSON object (batch.json)."),
    ) -> None:
        """Run many tasks (or one task over a parameter grid) as Ray tasks; a summary in batch.json and batch.md."""
        from cmbagent.batch import BatchSettings, collect_items, load_sweep, run_batch
        from cmbagent.config import SANDBOXES
        from cmbagent.exceptions import UserError
        from cmbagent.run import default_workspace

        given = sum(bool(x) for x in (tasks, sweep, resume_dir))
        if given != 1:
            fail("give task files or folders, or --sweep SWEEP.yaml, or --resume BATCH_DIR (one of them)")
        if sandbox not in SANDBOXES:
            fail(f"unknown sandbox {sandbox!r}; choose auto, bwrap, docker or process")
        try:
            if resume_dir is not None:
                record = run_batch(None, batch_dir=resume_dir, on_update=_print_row)
            else:
                items = load_sweep(sweep) if sweep is not None else collect_items(list(tasks))
                settings = BatchSettings(
                    model=model, sandbox=sandbox, budget_usd=budget_usd, budget_usd_per_run=budget_usd_per_run,
                    timeout_per_run=timeout_per_run, max_concurrent=max_concurrent, cpus_per_run=cpus_per_run,
                    memory_per_run=_size(memory_per_run), ray_address=ray_address,
                    data_dirs=[str(d.resolve()) for d in data_dir])
                folder = batch_dir or (workspace or default_workspace()) / f"batch-{time.strftime('%Y%m%d-%H%M%S')}"
                sys.stderr.write(f"[batch] {len(items)} runs in {folder}\n")
                record = run_batch(items, batch_dir=folder, settings=settings, on_update=_print_row)
        except UserError as exc:
            fail(str(exc))
        if as_json:
            print_json({**record.model_dump(mode="json"), "totals": record.totals()})
        else:
            typer.echo(f"batch: {record.path}/batch.md  ({record.totals()['statuses']})")
        raise typer.Exit(EXIT_OK if all(row.status == "done" for row in record.items) else EXIT_FAILED)

    @app.command("cancel")
    def cancel_cmd(
        run_dir: Path = typer.Argument(..., help="Run folder (or batch folder) to stop."),
        wait: float = typer.Option(60.0, "--wait", help="Seconds to wait for the run to stop (0: do not wait)."),
        reason: str = typer.Option("", "--reason", help="Why (shown in the report)."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ) -> None:
        """Stop a running run from any process: the step in flight is interrupted, the kernel stopped, the run
        ends `cancelled` with a partial report and can be resumed."""
        from cmbagent.control import request_cancel, run_owner
        from cmbagent.run import RunFolder

        if (run_dir / "batch.json").is_file():
            from cmbagent.batch import read_batch

            record = read_batch(run_dir)
            request_cancel(run_dir, reason=reason or "the batch was cancelled")
            folders = [run_dir / row.item.run_dir for row in record.items]
        elif (run_dir / "run.json").is_file():
            folders = [run_dir]
        else:
            fail(f"{run_dir} is neither a run folder (run.json) nor a batch folder (batch.json)")
        running = [f for f in folders if f.is_dir() and run_owner(f) is not None]
        if not running:
            status = RunFolder(run_dir).read_run().get("status") if len(folders) == 1 else "batch"
            fix = (f"no process is working on it: it was interrupted, and `cmbagent resume {run_dir}` continues it"
                   if status == "running" else "it has stopped already")
            fail(f"nothing to cancel: {run_dir} is not running (status {status})", EXIT_FAILED, fix=fix)
        for folder in running:
            request_cancel(folder, reason=reason)
        deadline = time.monotonic() + max(0.0, wait)
        while wait > 0 and time.monotonic() < deadline and any(run_owner(f) is not None for f in running):
            time.sleep(0.2)
        rows = [{"run_dir": str(f), "status": RunFolder(f).read_run().get("status"),
                 "stopped": run_owner(f) is None} for f in running]
        if as_json:
            print_json(rows)
        else:
            for row in rows:
                state = row["status"] if row["stopped"] else "cancel requested (still stopping)"
                typer.echo(f"{row['run_dir']}: {state}")
        raise typer.Exit(EXIT_OK if all(r["stopped"] for r in rows) else EXIT_FAILED)
