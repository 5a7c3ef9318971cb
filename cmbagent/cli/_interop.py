"""`cmbagent mcp`: serve the method tools, runs and the knowledge index over MCP."""

from __future__ import annotations

import ipaddress
from pathlib import Path

import typer

from cmbagent.cli._common import fail

__all__ = ["register"]


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def register(app: typer.Typer) -> None:
    @app.command("mcp")
    def mcp_cmd(
        transport: str = typer.Option("stdio", "--transport", help="stdio (launched by a client) or http "
                                      "(streamable HTTP at http://HOST:PORT/mcp)."),
        host: str = typer.Option("127.0.0.1", "--host", help="Address to bind for http (loopback by default)."),
        port: int = typer.Option(8765, "--port", help="Port for http."),
        allow_remote: bool = typer.Option(False, "--allow-remote", help="Allow a non-loopback --host (the server "
                                          "has no authentication: anyone who reaches it can run methods)."),
        workspace: Path | None = typer.Option(None, "--workspace", help="Where runs and method runs go."),
        data_dir: list[Path] = typer.Option([], "--data-dir", help="A folder whose files tools may use "
                                            "(repeatable; default: the current folder)."),
        sandbox: str = typer.Option("auto", "--sandbox", help="Isolation backend: auto, bwrap, docker or process."),
        model: str | None = typer.Option(None, "--model", help="Model spec for solve when a call names none."),
        index_dir: Path | None = typer.Option(None, "--index-dir", help="Knowledge index folder for search."),
        collection: str = typer.Option("default", "--collection", help="Default collection for search."),
    ) -> None:
        """Serve methods_list, method_show, method_run, solve, run_status, run_report and search over MCP."""
        from cmbagent.exceptions import UserError
        from cmbagent.literature import check_collection

        if transport not in ("stdio", "http"):
            fail(f"--transport must be stdio or http (got {transport!r})")
        if sandbox not in ("auto", "bwrap", "docker", "process"):
            fail(f"--sandbox must be one of auto, bwrap, docker, process (got {sandbox!r})")
        if not 0 < port < 65536:
            fail(f"--port must be between 1 and 65535 (got {port})")
        if transport == "http" and not _is_loopback(host) and not allow_remote:
            fail(f"--host {host} is not a loopback address; the server has no authentication, so pass "
                 "--allow-remote to expose it (behind your own authenticating proxy)")
        for folder in data_dir:
            if not folder.is_dir():
                fail(f"--data-dir {folder} is not a folder")
        try:
            check_collection(collection)
        except UserError as exc:
            fail(str(exc))
        from cmbagent.interop.mcp import ServerSettings, build_server

        server = build_server(ServerSettings(workspace_root=workspace, data_roots=data_dir or None, sandbox=sandbox,
                                             model=model, index_dir=index_dir, collection=collection))
        if transport == "stdio":
            server.run("stdio")
        else:
            typer.echo(f"cmbagent MCP server on http://{host}:{port}/mcp", err=True)
            server.run("streamable-http", host=host, port=port)
