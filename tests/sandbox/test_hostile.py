"""Hostile cells (tests/sandbox/hostile/*.py), run only inside isolating backends.

Each file attacks one way; it is contained when it ends with the status its header names (``# expect:``),
with one of the named error classes, never prints ``ESCAPED``, and the next cell still answers (the same
kernel, or a restarted one). Before each attack the test checks that isolation is really in place and
skips loudly otherwise: these cells must never run unsandboxed.
"""

from __future__ import annotations

import os
import re
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cmbagent.sandbox import Executor, GiB, MiB, SandboxLimits

from .conftest import ISOLATING, start

pytestmark = [pytest.mark.hostile, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

HOSTILE = Path(__file__).parent / "hostile"
FILES = sorted(p.name for p in HOSTILE.glob("*.py"))
# smaller than the defaults so the bombs are quick; the defaults are checked in test_backends.py
LIMITS = SandboxLimits(address_space=2 * GiB, file_size=64 * MiB, tmp_size=64 * MiB, processes=128,
                       interrupt_grace=2.0)

_ISOLATION_PROBE = """\
import os, socket
problems = []
if os.getuid() == 0:
    problems.append("kernel runs as uid 0")
ifaces = [l.split(":")[0].strip() for l in open("/proc/net/dev").read().splitlines()[2:]]
if [i for i in ifaces if i != "lo"]:
    problems.append(f"network interfaces {ifaces}")
if os.path.exists("/etc/shadow") and os.access("/etc/shadow", os.R_OK):
    problems.append("/etc/shadow readable")
for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
    if key in os.environ:
        problems.append(f"{key} in environment")
print("ISOLATED" if not problems else "NOT ISOLATED: " + "; ".join(problems))
"""


def assert_isolated(ex: Executor) -> None:
    """Skip loudly unless the kernel is demonstrably isolated (never run a hostile cell unsandboxed)."""
    if not getattr(getattr(ex, "backend", None), "isolating", False):
        pytest.skip("REFUSING to run a hostile cell: this executor's backend does not isolate")
    res = ex.execute(_ISOLATION_PROBE, timeout=30)
    if res.stdout.text.strip() != "ISOLATED":
        pytest.skip(f"REFUSING to run a hostile cell: isolation check failed: {res.stdout.text or res}")


class _Server:
    """A TCP server on the host's 127.0.0.1 that records whether anyone connected."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        self.connected = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        self.connected = True
        conn.sendall(b"host-secret")
        conn.close()


@pytest.fixture(scope="module", params=ISOLATING)
def hostile_env(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """An isolating kernel started while the parent holds API keys; a secret file and a sibling run nearby."""
    base = tmp_path_factory.mktemp("hostile")
    other = base / "other-run"
    other.mkdir()
    (other / "result.txt").write_text("other run's data")
    secret = base / "secrets.env"
    secret.write_text("OPENAI_API_KEY=sk-host-secret\n")
    saved = {k: os.environ.get(k) for k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")}
    os.environ["OPENAI_API_KEY"] = "sk-parent-openai-secret"
    os.environ["ANTHROPIC_API_KEY"] = "sk-ant-parent-secret"
    try:
        ex = start(base / "run", str(request.param), limits=LIMITS)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    server = _Server()
    marker = f"cmbagent-hostile-{secrets.token_hex(4)}"
    prelude = f"HOST_PORT = {server.port}\nSECRET_PATH = {str(secret)!r}\nOTHER_RUN = {str(other)!r}\nMARKER = {marker!r}"
    yield {"ex": ex, "server": server, "other": other, "marker": marker, "prelude": prelude, "run": base / "run"}
    ex.close()
    server.sock.close()


def _header(source: str, key: str) -> str:
    match = re.search(rf"^# {key}: (.+)$", source, re.MULTILINE)
    assert match, f"hostile file lacks a '# {key}:' line"
    return match.group(1).strip()


@pytest.mark.parametrize("name", FILES)
def test_hostile_cell_is_contained(name: str, hostile_env: dict) -> None:
    ex: Executor = hostile_env["ex"]
    assert_isolated(ex)
    assert ex.execute(hostile_env["prelude"], timeout=30).ok
    source = (HOSTILE / name).read_text()
    statuses, *errors = _header(source, "expect").split()
    res = ex.execute(source, timeout=float(_header(source, "timeout")))

    assert "ESCAPED" not in res.stdout.text, res.stdout.text
    assert res.status in statuses.split("|"), f"{name}: {res.status}: {res.message}\n{res.traceback}"
    if res.status == "error" and errors:
        assert res.error_name in errors, f"{name}: {res.error_name}: {res.error_value}"
    if res.status in ("timeout", "restarted", "died"):
        assert res.message, "a stopped cell must say what happened"
    nxt = ex.execute("print('next cell answers')", timeout=60)
    assert nxt.status == "ok" and nxt.stdout.text == "next cell answers\n", nxt

    # checks on the host side
    assert not hostile_env["server"].connected, "the sandbox reached a server on the host's loopback"
    assert not (Path("/tmp") / hostile_env["marker"]).exists(), "the sandbox wrote into the host's /tmp"
    assert not (hostile_env["other"] / "planted.txt").exists(), "the sandbox wrote into another run's folder"
    if name == "stdout_flood.py":
        assert res.stdout.dropped_bytes >= 99_000_000 and len(res.stdout.text) < 50_000
    if name == "invalid_utf8.py":
        assert "done" in res.stdout.text and "\ufffd" in res.stdout.text + res.stderr.text
        (hostile_env["run"] / "notebook.ipynb").read_text(encoding="utf-8")  # still valid UTF-8


def test_daemon_is_gone_when_the_run_ends(tmp_path: Path) -> None:
    for backend in ISOLATING:
        try:
            ex = start(tmp_path / backend, backend, limits=LIMITS)
        except pytest.skip.Exception:
            continue
        try:
            assert_isolated(ex)
            res = ex.execute((HOSTILE / "daemon_child.py").read_text(), timeout=10)
            assert res.ok and "daemon started" in res.stdout.text
            beat = tmp_path / backend / "daemon.heartbeat"
            first = beat.stat().st_mtime
            time.sleep(0.6)
            assert beat.stat().st_mtime > first, "the daemon should outlive its cell while the run goes on"
        finally:
            ex.close()
        time.sleep(0.3)
        last = beat.stat().st_mtime
        time.sleep(1.0)
        assert beat.stat().st_mtime == last, "the daemon outlived the run"


MANY_FILES = """\
import os
os.makedirs("fill", exist_ok=True)
chunk = b"\\0" * (16 * 1024 * 1024)
for i in range(4096):  # 64 GiB in files that each stay under the file-size limit
    with open(f"fill/{i}", "wb") as fh:
        fh.write(chunk)
print("ESCAPED: wrote 64 GiB")
"""


@pytest.mark.parametrize("backend", ISOLATING)
def test_disk_fill_with_many_small_files_is_stopped(backend: str, tmp_path: Path) -> None:
    import dataclasses
    import shutil

    free = shutil.disk_usage(tmp_path).free
    limits = dataclasses.replace(LIMITS, min_free_disk=max(free - 256 * MiB, 0))
    ex = start(tmp_path / "run", backend, limits=limits)
    try:
        assert_isolated(ex)
        res = ex.execute(MANY_FILES, timeout=120)
        shutil.rmtree(tmp_path / "run" / "fill")
        nxt = ex.execute("print('next cell answers')", timeout=60)
    finally:
        ex.close()
    assert "ESCAPED" not in res.stdout.text
    assert res.status == "error" and res.error_name == "DiskSpaceExhausted", res
    assert nxt.stdout.text == "next cell answers\n"
