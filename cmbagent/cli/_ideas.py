"""`cmbagent ideas TASK.md`: research ideas from an idea maker and an idea hater (autogen-agentchat).

Exit codes: 0 done, 1 the run failed, 2 usage error, 3 budget exhausted (the ideas so far are written).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from cmbagent.cli._common import EXIT_BUDGET, EXIT_FAILED, EXIT_OK, fail, print_json

__all__ = ["register"]

_EXIT = {"done": EXIT_OK, "failed": EXIT_FAILED, "budget_exhausted": EXIT_BUDGET}


def _printer(as_json: bool) -> Any:
    """Each round as it happens, on stderr (stdout carries the JSON with --json)."""
    out = sys.stderr if as_json else sys.stdout

    def show(event: Any) -> None:
        if event.type != "idea_round":
            return
        data = event.data
        if "ideas" in data:
            titles = "; ".join(i["title"] for i in data["ideas"]["ideas"])
            out.write(f"round {data['round']} {data['agent']}: {len(data['ideas']['ideas'])} idea(s): {titles}\n")
        elif "review" in data:
            crit = data["review"]["critiques"]
            kept = sum(1 for c in crit if c["keep"])
            out.write(f"round {data['round']} {data['agent']}: kept {kept} of {len(crit)}"
                      + (" (satisfied)" if data["review"]["satisfied"] else "") + "\n")
        out.flush()

    return show


def register(app: typer.Typer) -> None:
    @app.command("ideas")
    def ideas_cmd(
        task: str = typer.Argument(..., help="Task markdown file (or the task text itself)."),
        rounds: int = typer.Option(3, "--rounds", min=1, help="Most rounds of proposal/revision and criticism."),
        n_ideas: int = typer.Option(5, "--n-ideas", min=1, help="Ideas to propose."),
        to_tasks: Path | None = typer.Option(
            None, "--to-tasks", help="Write each selected idea as a runnable task.md into this folder "
                                     "(with the data it names)."),
        model: str | None = typer.Option(None, "--model", "-m", help="Default model spec (offline without a key)."),
        agent_model: list[str] = typer.Option([], "--agent-model", help="AGENT=SPEC, e.g. idea_hater=SPEC."),
        config: Path | None = typer.Option(None, "--config", help="cmbagent.toml with models, tiers, budgets."),
        workspace: Path | None = typer.Option(None, "--workspace", help="Runs go to WORKSPACE/ideas/ "
                                                                       "(default ./workspaces)."),
        budget_usd: float | None = typer.Option(None, "--budget-usd", help="Stop past this cost (ideas so far kept)."),
        budget_tokens: int | None = typer.Option(None, "--budget-tokens", help="Stop past this many tokens."),
        timeout: float | None = typer.Option(None, "--timeout", help="Wall-clock budget in seconds."),
        collection: str | None = typer.Option(None, "--collection", help="Ground the ideas in passages of this "
                                                                         "knowledge-index collection."),
        index_dir: Path | None = typer.Option(None, "--index-dir", help="Index folder of the collection."),
        data_dir: list[Path] = typer.Option([], "--data-dir", help="Another folder the task may read data from."),
        as_json: bool = typer.Option(False, "--json", help="Print one final JSON object."),
    ) -> None:
        """Propose research ideas for a task; an idea hater criticises them and the maker revises."""
        from cmbagent.api import offline_fallback
        from cmbagent.exceptions import UserError
        from cmbagent.ideas import generate_ideas
        from cmbagent.models import parse_agent_models

        out = sys.stderr if as_json else sys.stdout
        try:
            if offline_fallback(model, config):
                out.write("no model configured: using the deterministic offline backend (ideas from the method "
                          "catalogue around the task's method)\n")
            result = generate_ideas(task, rounds=rounds, n_ideas=n_ideas, to_tasks=to_tasks, workspace=workspace,
                                    model=model, agent_models=parse_agent_models(agent_model), config=config,
                                    budget_usd=budget_usd, budget_tokens=budget_tokens, timeout=timeout,
                                    collection=collection, index_dir=index_dir, data_dirs=list(data_dir),
                                    on_event=_printer(as_json))
        except UserError as exc:
            fail(str(exc))
        if as_json:
            print_json(result.summary())
        else:
            for row in result.ideas:
                mark = "" if row.selected else "  (not selected)"
                typer.echo(f"{row.rank}. {row.idea.title} [{row.idea.method}] — {row.reasons}{mark}")
            for path in result.tasks:
                typer.echo(f"task: {path}")
            for why in result.tasks_not_written:
                typer.echo(f"no task for {why}", err=True)
            typer.echo(f"status: {result.status}; ideas: {result.ideas_md}")
            if result.error:
                typer.echo(f"error: {result.error}", err=True)
        raise typer.Exit(_EXIT.get(result.status, EXIT_FAILED))
