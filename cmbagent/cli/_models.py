"""`cmbagent models [list|resolve|ping]`: providers, routing and a one-call health check."""

from __future__ import annotations

from pathlib import Path

import typer

from cmbagent.cli._common import EXIT_FAILED, EXIT_USAGE, fail, print_json


def register(app: typer.Typer) -> None:
    models = typer.Typer(help="List model providers, resolve a model spec, ping a model.")
    app.add_typer(models, name="models")

    def _list(as_json: bool, config: Path | None) -> None:
        from cmbagent.exceptions import UserError
        from cmbagent.models import CONFIG_FILENAME, Routing, configured_providers, spec_forms

        if config is None and Path(CONFIG_FILENAME).is_file():
            config = Path(CONFIG_FILENAME)
        try:
            routing = Routing.from_sources(config_file=config)
        except UserError as exc:
            fail(str(exc))
        providers = configured_providers()
        if as_json:
            print_json({"providers": providers, "routing": routing.to_dict(), "spec_forms": spec_forms()})
            return
        typer.echo("providers:")
        for row in providers:
            state = "" if row["is_set"] is None else f"  [{row['env_var']} {'set' if row['is_set'] else 'not set'}]"
            if row["unavailable"]:
                state += f"  [unavailable: {row['unavailable']}]"
            typer.echo(f"  {row['provider']:18s} {row['description']}{state}")
            typer.echo(f"  {'':18s} e.g. {row['example']}")
        typer.echo(f"\ndefault model: {routing.default}  (from {routing.sources.get('default', 'default')})")
        for tier, spec in sorted(routing.tiers.items()):
            typer.echo(f"  tier {tier}: {spec}")
        for agent, spec in sorted(routing.agents.items()):
            typer.echo(f"  agent {agent}: {spec}")
        typer.echo("\nspec forms: " + ", ".join(spec_forms()))

    @models.callback(invoke_without_command=True)
    def models_root(
        ctx: typer.Context,
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        config: Path | None = typer.Option(None, "--config", help="cmbagent.toml to read (default: ./cmbagent.toml)."),
    ) -> None:
        """Without a subcommand: list providers and the model routing in effect."""
        if ctx.invoked_subcommand is None:
            _list(as_json, config)

    @models.command("list")
    def list_cmd(
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
        config: Path | None = typer.Option(None, "--config", help="cmbagent.toml to read (default: ./cmbagent.toml)."),
    ) -> None:
        """List providers (and whether their key is set, never its value) and the routing in effect."""
        _list(as_json, config)

    @models.command("resolve")
    def resolve_cmd(
        spec: str = typer.Argument(..., help="Model spec, e.g. openai:gpt-4.1 or openai-compatible:llama3@http://127.0.0.1:11434/v1."),
        as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    ) -> None:
        """Check a spec and its key without calling the model; print provider, model, base URL, price."""
        from cmbagent.exceptions import UserError
        from cmbagent.models import get_provider, parse_spec, price_for, resolve

        try:
            parsed = parse_spec(spec)
            model = resolve(spec)
        except UserError as exc:
            fail(str(exc))
        provider = get_provider(parsed.provider)
        pricing = provider.pricing if provider is not None else None
        price = price_for(pricing, parsed.model) if pricing else None
        info = {
            "spec": model.spec or spec,
            "provider": parsed.provider,
            "model": parsed.model or getattr(model, "model", ""),
            "base_url": getattr(model, "base_url", None),
            "price_per_million": None if price is None else price.__dict__,
            "cost": "free" if pricing is None else ("known" if price else "unknown"),
        }
        if as_json:
            print_json(info)
            return
        for key, value in info.items():
            typer.echo(f"{key}: {value}")

    @models.command("ping")
    def ping_cmd(
        spec: str = typer.Argument(..., help="Model spec to call once."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
        timeout: float | None = typer.Option(None, "--timeout", help="Seconds per HTTP request."),
        retries: int | None = typer.Option(None, "--retries", help="Retries (429, 5xx, timeouts) before failing."),
    ) -> None:
        """Make one tiny call; print model id, latency and usage. Exit 1 on a provider error, 2 on a usage error."""
        from cmbagent.exceptions import ModelError, UserError
        from cmbagent.models import ping

        try:
            result = ping(spec, timeout=timeout, max_retries=retries)
        except ModelError as exc:
            _report_failure(exc, EXIT_FAILED)
        except UserError as exc:
            _report_failure(exc, EXIT_USAGE)
        if as_json:
            print_json(result)
            return
        usage = result["usage"]
        cost = result["cost_usd"]
        typer.echo(
            f"ok  {result['spec']}  model={result['model']}  latency={result['latency_s']:.2f}s  "
            f"tokens in={usage['input_tokens']} out={usage['output_tokens']}  "
            f"cost={'unknown' if cost is None else f'${cost:.6f}'}"
        )
        if result.get("note"):
            typer.echo(f"    {result['note']}")


def _report_failure(exc: Exception, code: int) -> None:
    """The error, as every command reports one (with ``--json``: its type and HTTP status besides)."""
    fail(f"{type(exc).__name__}: {exc}", code, type=type(exc).__name__, status_code=getattr(exc, "status_code", None))
