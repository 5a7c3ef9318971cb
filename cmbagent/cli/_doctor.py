"""`cmbagent doctor`: what this machine can do, said honestly."""

from __future__ import annotations

import typer

KEY_PACKAGES = (
    "langgraph",
    "langgraph-checkpoint-sqlite",
    "langgraph-checkpoint-postgres",
    "ray",
    "openai",
    "anthropic",
    "pydantic",
    "jupyter-client",
    "ipykernel",
    "numpy",
    "scipy",
    "astropy",
    "emcee",
    "torch",
    "scikit-learn",
    "doubleml",
    "shap",
    "optuna",
    "pyod",
    "gradio",
    "xllamacpp",
    # the cosmologist's stack (cosmology.cmb_spectra / fit_cmb; classy is the `cosmology` extra)
    "camb",
    "classy",
    "cobaya",
    "getdist",
)


def _checkpoints() -> str:
    """Where new runs keep their graph state (no password shown)."""
    from cmbagent.checkpoints import checkpoint_url, redact
    from cmbagent.exceptions import ConfigError

    try:
        url = checkpoint_url()
    except ConfigError as exc:
        return f"invalid: {exc}"
    return "SQLite in each run folder" if url is None else f"PostgreSQL {redact(url)}"


def collect(*, ping: bool = False, workspace: str | None = None) -> dict[str, object]:
    """Gather the doctor report as plain data (no secrets: key variable names only)."""
    import os
    import platform
    import sys
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    from cmbagent._version import __version__
    from cmbagent.run import default_workspace

    packages: dict[str, str | None] = {}
    for name in KEY_PACKAGES:
        try:
            packages[name] = version(name)
        except PackageNotFoundError:
            packages[name] = None

    from cmbagent.sandbox import probe_backends

    backends = {
        name: {"available": status.available, "reason": status.reason} for name, status in probe_backends().items()
    }

    from cmbagent.models import configured_providers, default_model_spec, provider_load_errors

    providers = configured_providers(os.environ)
    report: dict[str, object] = {
        "cmbagent": __version__,
        "python": f"{platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
        "packages": packages,
        "sandbox_backends": backends,
        "model_providers": providers,
        "model_providers_not_loaded": provider_load_errors(),
        "default_model": default_model_spec(os.environ),
        "runs_go_to": str((Path(workspace) if workspace else default_workspace()).resolve()),
        "checkpoints": _checkpoints(),
    }
    from cmbagent.tools.methods import iter_methods, load_errors

    report["methods"] = len(list(iter_methods()))
    report["method_families_not_loaded"] = load_errors()
    if ping:
        from cmbagent.models import ping as ping_model

        results = {}
        for provider in providers:
            spec = provider.get("ping_spec")
            if provider.get("is_set") and spec:
                try:
                    results[str(spec)] = ping_model(str(spec))
                except Exception as exc:  # reported, not raised: doctor diagnoses
                    results[str(spec)] = {"error": f"{type(exc).__name__}: {exc}"}
        report["ping"] = results
    return report


def register(app: typer.Typer) -> None:
    @app.command("doctor")
    def doctor(
        ping: bool = typer.Option(False, "--ping", help="Also make one tiny call to each configured provider."),
        workspace: str = typer.Option(None, "--workspace", help="Runs root to report (default: ./workspaces if it "
                                                               "exists, else ~/.cmbagent/workspaces)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    ) -> None:
        """Report versions, working sandbox backends, configured model providers and where runs go."""
        from cmbagent.cli._common import print_json

        report = collect(ping=ping, workspace=workspace)
        if as_json:
            print_json(report)
            return
        typer.echo(f"cmbagent {report['cmbagent']}  python {report['python']}")
        typer.echo(f"platform: {report['platform']}")
        typer.echo("packages:")
        for name, ver in report["packages"].items():  # type: ignore[attr-defined]
            typer.echo(f"  {name:28s} {ver or 'not installed'}")
        typer.echo("sandbox backends:")
        for name, status in report["sandbox_backends"].items():  # type: ignore[attr-defined]
            mark = "ok " if status["available"] else "no "
            typer.echo(f"  [{mark}] {name:8s} {status['reason']}")
        typer.echo("model providers (API keys are read from these variables; values are never shown):")
        for provider in report["model_providers"]:  # type: ignore[attr-defined]
            env_var = provider.get("env_var") or ""
            if provider.get("unavailable"):
                state = f"unavailable: {provider['unavailable']}"
            elif provider.get("is_set") is None:
                state = "no key needed"
            else:
                state = "set" if provider.get("is_set") else "not set"
            typer.echo(f"  {provider.get('provider') or '':20s} {env_var:22s} {state}")
        for name, why in report["model_providers_not_loaded"].items():  # type: ignore[attr-defined]
            typer.echo(f"  provider plugin {name} not loaded: {why}")
        typer.echo(f"default model: {report['default_model']}")
        typer.echo(f"method tools: {report['methods']} registered")
        for family, why in report["method_families_not_loaded"].items():  # type: ignore[attr-defined]
            typer.echo(f"  family {family} not loaded: {why}")
        typer.echo(f"runs go to: {report['runs_go_to']}")
        typer.echo(f"checkpoints: {report['checkpoints']}")
        if ping:
            typer.echo("ping:")
            for spec, result in report.get("ping", {}).items():  # type: ignore[attr-defined]
                typer.echo(f"  {spec}: {result}")
