"""Fixtures of the UI tests: the app served on 127.0.0.1 (ephemeral port) and Debian's chromium via Playwright.

The browser tests skip loudly when ``playwright`` (pip) or ``/usr/bin/chromium`` (apt) is missing; CI installs
both.  ``playwright install`` is never used: it downloads a browser.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CMBAGENT_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_URL = re.compile(r"^(https?://(127\.0\.0\.1|localhost)(:\d+)?/|data:|blob:|about:blank)")


@pytest.fixture(scope="session", autouse=True)
def _gradio_temp_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Uploads of this worker go to a private folder (the key test searches it, nothing else shares it)."""
    path = tmp_path_factory.mktemp("gradio-tmp")
    os.environ["GRADIO_TEMP_DIR"] = str(path)
    return path


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots and measured numbers go: ``$CMBAGENT_TEST_ARTIFACTS/ui`` or pytest's tmp dir."""
    base = os.environ.get("CMBAGENT_TEST_ARTIFACTS")
    path = Path(base) / "ui" if base else tmp_path_factory.mktemp("ui-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium under Playwright's sync API, per test module: while it is open, the API keeps an asyncio loop
    running in this thread, so a test of another module that calls ``asyncio.run`` (the AutoGen and idea tests)
    would fail after it on the same worker; per module, it is closed before pytest moves on."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: `pip install playwright` (do not run `playwright install`)")
    if not CHROMIUM.exists():
        pytest.skip(f"chromium not found at {CHROMIUM}: `apt-get install -y chromium`")
    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@dataclass
class Example:
    """The supernova example task, in a folder of its own (with the data files it names)."""

    folder: Path
    task: Path
    data: list[Path]
    title: str


def _file_arguments(task: Path) -> list[Path]:
    text = task.read_text(encoding="utf-8")
    match = re.match(r"^---\s*\n(.*?)\n---", text, flags=re.DOTALL)
    front = yaml.safe_load(match.group(1)) if match else {}
    files = []
    for value in (front.get("arguments") or {}).values():
        if isinstance(value, str) and (task.parent / value).is_file():
            files.append(task.parent / value)
    return files


@pytest.fixture(scope="session")
def supernova_example(tmp_path_factory: pytest.TempPathFactory) -> Example:
    """``examples/supernova.md`` and its data copied into an examples folder holding only it."""
    folder = tmp_path_factory.mktemp("examples")
    source = ROOT / "examples" / "supernova.md"
    data = _file_arguments(source)
    assert data, "examples/supernova.md names no data file that exists (examples/data/sn/)"
    shutil.copy2(source, folder / "supernova.md")
    for path in data:
        target = folder / path.relative_to(source.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    task = folder / "supernova.md"
    match = re.search(r"^title:\s*(.+)$", task.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return Example(
        folder=folder,
        task=task,
        data=_file_arguments(task),
        title=match.group(1).strip() if match else "supernova",
    )


@dataclass
class Served:
    url: str
    workspaces: Path
    app: Any
    manager: Any


@pytest.fixture
def serve_app(tmp_path: Path, supernova_example: Example) -> Iterator[Any]:
    """A factory: ``serve_app(max_concurrent_runs=2)`` starts the app in a thread and returns :class:`Served`."""
    import uvicorn

    from cmbagent.ui import UISettings, create_server

    started: list[tuple[Any, threading.Thread, Any]] = []

    def start(**overrides: Any) -> Served:
        settings = UISettings(
            workspaces=tmp_path / f"workspaces-{len(started)}",
            examples_dir=supernova_example.folder,
            sandbox=os.environ.get("CMBAGENT_TEST_SANDBOX", "auto"),
            **overrides,
        )
        app, manager = create_server(settings)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        deadline = time.monotonic() + 60
        while not server.started:
            if time.monotonic() > deadline or not thread.is_alive():
                raise RuntimeError("the UI server did not start")
            time.sleep(0.05)
        started.append((server, thread, manager))
        return Served(
            url=f"http://127.0.0.1:{port}/", workspaces=settings.workspaces, app=app, manager=manager
        )

    yield start
    for server, thread, manager in started:
        server.should_exit = True
        thread.join(timeout=15)
        manager.shutdown(wait=True)


class RequestLog:
    """Every URL a page asked for (documents, scripts, fonts, XHR, websockets)."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def attach(self, context: Any) -> None:
        context.on("request", lambda request: self.urls.append(request.url))
        context.on("websocket", lambda ws: self.urls.append(ws.url))

    def outside(self) -> list[str]:
        return [url for url in self.urls if not LOCAL_URL.match(url) and not url.startswith("ws://127.0.0.1")]


# Records (time, data-last-seq) each time the status header changes: the event-to-screen latency probe.
LATENCY_PROBE = """
window.__cmbSeen = [];
new MutationObserver(() => {
  const el = document.querySelector('.cmb-status');
  if (!el) return;
  const seq = Number(el.dataset.lastSeq);
  const seen = window.__cmbSeen;
  if (!seen.length || seen[seen.length - 1][1] !== seq) seen.push([Date.now() / 1000, seq]);
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """A factory of fresh browser contexts (a context is one person's browser: its own cookies)."""
    contexts: list[Any] = []

    def make() -> tuple[Any, Any, RequestLog]:
        context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
        log = RequestLog()
        log.attach(context)
        context.add_init_script(LATENCY_PROBE)
        contexts.append(context)
        return context, context.new_page(), log

    yield make
    for context in contexts:
        context.close()


def random_secret() -> str:
    return "sk-test-" + secrets.token_hex(16)


def grep_tree(folder: Path, needle: bytes) -> list[Path]:
    """Files under ``folder`` whose bytes contain ``needle``."""
    hits = []
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            try:
                if needle in path.read_bytes():
                    hits.append(path)
            except OSError:
                continue
    return hits
