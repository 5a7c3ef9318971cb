"""`cmbagent mcp` driven by the MCP SDK's own client, over stdio and over streamable HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cmbagent.cli import app
from cmbagent.literature import Index, MiniLMEmbedder

pytest.importorskip("mcp", reason="the MCP SDK is in the interop extra")

TOOLS = ["methods_list", "method_show", "method_run", "solve", "run_status", "run_report", "search"]
ENV = {"CMBAGENT_EMBED_THREADS": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
       "CMBAGENT_BLOCK_NETWORK": "1", "ANONYMIZED_TELEMETRY": "False"}


def _server_args(tmp_path: Path, data_dir: Path, sandbox: str) -> list[str]:
    index_dir = tmp_path / "index"
    notes = data_dir / "notes.md"
    notes.write_text("# Lensing\n\nWeak gravitational lensing measures the matter power spectrum.\n")
    Index(index_dir, embedder=MiniLMEmbedder(threads=1)).ingest([notes])
    return ["--workspace", str(tmp_path / "ws"), "--data-dir", str(data_dir), "--index-dir", str(index_dir),
            "--sandbox", sandbox, "--model", "offline"]


def _structured(result: Any) -> Any:
    assert not result.is_error, result.content[0].text
    data = result.structured_content
    return data["result"] if isinstance(data, dict) and set(data) == {"result"} else data


async def _exercise(client: Any, tmp_path: Path, *, with_solve: bool) -> None:
    listed = await client.list_tools()
    assert sorted(t.name for t in listed.tools) == sorted(TOOLS)

    methods = _structured(await client.call_tool("methods_list", {"family": "cosmology"}))
    assert {m["name"] for m in methods} == {"cosmology.cmb_spectra", "cosmology.fit_cmb", "cosmology.fit_supernovae",
                                            "cosmology.summarize_chain"}
    shown = _structured(await client.call_tool("method_show", {"name": "cosmology.summarize_chain"}))
    assert shown["parameters"]["required"] == ["chain"]
    unknown = await client.call_tool("method_show", {"name": "cosmology.nope"})
    assert unknown.is_error and "unknown method 'cosmology.nope'" in unknown.content[0].text

    ran = _structured(await client.call_tool("method_run", {"name": "cosmology.summarize_chain",
                                                            "arguments": {"chain": "chain.txt"}}))
    assert ran["values"]["Omega_m"]["mean"] == pytest.approx(0.30, abs=0.01)
    assert ran["diagnostics"]["sandbox"]["backend"] in ("bwrap", "docker")
    assert Path(ran["diagnostics"]["sandbox"]["run_dir"]).parent == tmp_path / "ws"
    refused = await client.call_tool("method_run", {"name": "cosmology.summarize_chain",
                                                    "arguments": {"chain": "/etc/hostname"}})
    assert refused.is_error and "outside the allowed folders" in refused.content[0].text

    hits = _structured(await client.call_tool("search", {"query": "what measures the matter power spectrum", "k": 3}))
    assert hits[0]["source"].endswith("notes.md") and hits[0]["lines"] == [1, 3] and hits[0]["chunk_id"]

    if not with_solve:
        return
    started = _structured(await client.call_tool("solve", {"task": "task.md"}))
    run_id = started["run_id"]
    assert started["status"] in ("starting", "running")
    status: dict[str, Any] = started
    for _ in range(600):
        status = _structured(await client.call_tool("run_status", {"run": run_id}))
        if not status["running"]:
            break
        await asyncio.sleep(0.5)
    assert status["status"] == "done", status
    report = await client.call_tool("run_report", {"run": run_id})
    assert not report.is_error and "Omega_m" in report.content[0].text
    outside = await client.call_tool("run_status", {"run": "/etc"})
    assert outside.is_error and "not in this server's workspace" in outside.content[0].text


@pytest.mark.slow
def test_stdio(tmp_path: Path, data_dir: Path, isolating_sandbox: str) -> None:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, cwd=str(data_dir), env={**os.environ, **ENV},
                                   args=["-m", "cmbagent", "mcp", *_server_args(tmp_path, data_dir, isolating_sandbox)])

    async def main() -> None:
        async with Client(params, read_timeout_seconds=300) as client:
            await _exercise(client, tmp_path, with_solve=True)

    asyncio.run(main())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_streamable_http_on_loopback(tmp_path: Path, data_dir: Path, isolating_sandbox: str) -> None:
    from mcp import Client

    port = _free_port()
    log = open(tmp_path / "server.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "cmbagent", "mcp", "--transport", "http", "--port", str(port),
                             *_server_args(tmp_path, data_dir, isolating_sandbox)],
                            cwd=data_dir, env={**os.environ, **ENV}, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            assert proc.poll() is None, (tmp_path / "server.log").read_text()
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=300) as client:
                await _exercise(client, tmp_path, with_solve=False)

        asyncio.run(main())
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    assert b"http://127.0.0.1:" in (tmp_path / "server.log").read_bytes()


def test_cli_refuses_unsafe_settings(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["mcp", "--transport", "http", "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "--allow-remote" in result.stderr
    result = runner.invoke(app, ["mcp", "--transport", "sse"])
    assert result.exit_code == 2 and "stdio or http" in result.stderr
    result = runner.invoke(app, ["mcp", "--data-dir", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "is not a folder" in result.stderr


def test_server_lists_tools_in_process(tmp_path: Path) -> None:
    """The SDK's in-process client, no transport: the tool schemas the server declares."""
    from mcp import Client

    from cmbagent.interop.mcp import ServerSettings, build_server

    server = build_server(ServerSettings(workspace_root=tmp_path / "ws", data_roots=[tmp_path]))

    async def main() -> list[Any]:
        async with Client(server) as client:
            return list((await client.list_tools()).tools)

    tools = {t.name: t for t in asyncio.run(main())}
    assert sorted(tools) == sorted(TOOLS)
    assert tools["search"].input_schema["required"] == ["query"]
    assert json.dumps(tools["method_run"].input_schema).count("arguments") >= 1


def test_a_client_of_the_server_may_not_choose_a_model_server_transcript_or_file(tmp_path: Path,
                                                                                 data_dir: Path) -> None:
    """``solve(model=...)`` is the client's choice (a model's, often): held to a task's rule."""
    from mcp import Client

    from cmbagent.interop.mcp import ServerSettings, build_server

    server = build_server(ServerSettings(workspace_root=tmp_path / "ws", data_roots=[data_dir], sandbox="process"))

    async def main() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool("solve", {"task": "task.md", "model": spec}) for spec in
                    ("openai-compatible:m@http://attacker.example/v1", "replay:/etc/passwd", "local:/etc/passwd")]

    for reply in asyncio.run(main()):
        assert reply.is_error and "may not" in reply.content[0].text
    assert not (tmp_path / "ws").exists() or not any((tmp_path / "ws").iterdir())
