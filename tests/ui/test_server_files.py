"""A visitor cannot read any file of the server: typed and uploaded tasks that name server files are refused,
and nothing of the server (a planted canary file, a canary environment variable) appears in any route, zip,
event, transcript or checkpoint of the session.

The server runs as its own process (``python app.py``) from a working folder of its own, with a canary in its
environment from the start (``/proc/self/environ`` shows a process's initial environment) and ``HOME``
pointing at a folder holding a canary file, as a Space's secrets and files would be.
"""

from __future__ import annotations

import io
import json
import os
import secrets
import socket
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from cmbagent.ui._sessions import SessionStore
from tests.ui.conftest import ROOT, Example, grep_tree

pytestmark = [pytest.mark.slow]

REFUSED = "attach the file instead"


@dataclass
class Probe:
    url: str
    workspaces: Path
    server: Path  # a folder of the server holding secret.txt
    cwd: Path  # the server's working folder, holding secret-in-cwd.txt
    gradio_tmp: Path
    file_canary: str
    env_canary: str
    pid: int

    @property
    def secret(self) -> Path:
        return self.server / "secret.txt"

    def leaks(self, data: bytes | str) -> list[str]:
        raw = data.encode() if isinstance(data, str) else data
        return [c for c in (self.file_canary, self.env_canary) if c.encode() in raw]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory, supernova_example: Example) -> Iterator[Probe]:
    """One server process for the module (each test uses fresh sessions)."""
    tmp_path = tmp_path_factory.mktemp("probe")
    file_canary, env_canary = f"FILE-CANARY-{secrets.token_hex(12)}", f"ENV-CANARY-{secrets.token_hex(12)}"
    server, cwd, gradio_tmp = tmp_path / "server", tmp_path / "cwd", tmp_path / "gradio"
    for folder in (server, cwd, gradio_tmp):
        folder.mkdir()
    secret = f"# {file_canary}\n0.1 35.0 0.2\n0.2 36.5 0.2\n"
    (server / "secret.txt").write_text(secret)
    (cwd / "secret-in-cwd.txt").write_text(secret)
    (cwd / "data").mkdir()
    (cwd / "data" / "x.dat").write_text(secret)
    port = _free_port()
    env = {
        **os.environ,
        "HOME": str(server),
        "CMBAGENT_TEST_SECRET": env_canary,
        "OPENAI_COMPATIBLE_API_KEY": env_canary,  # a server key a visitor's base URL must never receive
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_TEMP_DIR": str(gradio_tmp),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "CMBAGENT_UI_WORKSPACES": str(tmp_path / "workspaces"),
        "CMBAGENT_UI_EXAMPLES": str(supernova_example.folder),
        "CMBAGENT_UI_SANDBOX": os.environ.get("CMBAGENT_TEST_SANDBOX", "auto"),
    }
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen([sys.executable, str(ROOT / "app.py")], cwd=cwd, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 180
        while True:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the app did not start:\n{log.read_text(errors='replace')[-3000:]}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.3)
        yield Probe(url=f"http://127.0.0.1:{port}/", workspaces=tmp_path / "workspaces", server=server, cwd=cwd,
                    gradio_tmp=gradio_tmp, file_canary=file_canary, env_canary=env_canary, pid=process.pid)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _task(**arguments: Any) -> str:
    lines = "".join(f"  {key}: {json.dumps(value)}\n" for key, value in arguments.items())
    return (f"---\ntitle: probe\nmethod: cosmology.fit_supernovae\narguments:\n{lines}---\n"
            "Fit supernova distances from the named file.\n")


def _token(page: Any) -> str:
    page.locator(".cmb-session").wait_for()
    return str(page.locator(".cmb-session a").get_attribute("href")).split("session=", 1)[1]


def _refusal(page: Any) -> str:
    """The message the page shows for a refused submission (a Gradio error toast)."""
    toast = page.locator(".toast-item").last
    toast.wait_for(timeout=60_000)
    return str(toast.inner_text())


def _submit_typed(page: Any, url: str, text: str) -> str:
    page.goto(url)
    page.locator(".cmb-session").wait_for()
    page.locator("#cmb-task textarea").fill(text)
    page.locator("#cmb-send").click()
    return _refusal(page)


def _submit_uploaded(page: Any, url: str, task_file: Path) -> str:
    page.goto(url)
    page.locator(".cmb-session").wait_for()
    page.locator("#cmb-files input[type=file]").set_input_files([str(task_file)])
    page.locator("#cmb-files tr", has_text=task_file.stem).first.wait_for(state="attached", timeout=60_000)
    page.locator("#cmb-send").click()
    return _refusal(page)


def _run_ids(workspaces: Path, token: str) -> set[str]:
    root = SessionStore(workspaces).session(token).root
    return {p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")} if root.is_dir() else set()


def test_tasks_naming_server_files_are_refused_and_nothing_of_the_server_leaks(
    probe: Probe, new_page: Any, supernova_example: Example, artifacts: Path, tmp_path: Path
) -> None:
    # the probes aim at something real: the canary file exists and the server's environment holds the canary
    assert probe.file_canary in probe.secret.read_text()
    assert probe.env_canary.encode() in Path(f"/proc/{probe.pid}/environ").read_bytes()

    # person A: a run of the shipped example that waits, cheaply, at its plan
    ctx_a, page_a, _ = new_page()
    page_a.goto(probe.url)
    token_a = _token(page_a)
    page_a.locator("#cmb-settings").click()
    page_a.locator("#cmb-approve-plan input").check()
    page_a.locator("#cmb-run-example").click()
    page_a.locator(".cmb-status[data-state='awaiting_approval']").wait_for(timeout=120_000)
    run_a = str(page_a.locator(".cmb-status").get_attribute("data-run"))
    dir_a = SessionStore(probe.workspaces).session(token_a).root / run_a
    data_a = next(p for p in (dir_a / "data").rglob("*") if p.is_file())

    # person B, the attacker
    ctx_b, page_b, requests_b = new_page()
    page_b.goto(probe.url)
    token_b = _token(page_b)
    session_b = SessionStore(probe.workspaces).session(token_b)
    staging = session_b.root / ".staging"
    staging.mkdir(parents=True)
    (staging / "leak.txt").symlink_to(probe.secret)  # a link planted in the staging folder
    example_data = next(p for p in supernova_example.folder.rglob("*.dat"))
    deep = "../" * (len((staging / "r").parts) - 1) + str(probe.secret).lstrip("/")
    names = [
        str(probe.secret),  # an absolute server path
        "/proc/self/environ",
        f"/proc/{probe.pid}/environ",
        "/proc/self/cwd/secret-in-cwd.txt",
        f"/proc/self/root{probe.secret}",
        "/dev/stdin",
        deep,  # a `..` path from the staging folder up to the server's secret
        "../leak.txt",  # through the link planted beside the staging folder
        "secret-in-cwd.txt",  # relative to the server's working folder
        "data/x.dat",  # ditto
        "~/secret.txt",  # the server's home
        str(data_a),  # another session's run, by absolute path
        f"../../{dir_a.parent.name}/{run_a}/data/{data_a.name}",  # and by a relative one
        str(example_data),  # a shipped example's file, by absolute path
        f"file://{probe.secret}",
    ]
    shown: list[str] = []
    for n, name in enumerate(names):
        message = _submit_typed(page_b, probe.url, _task(data=name, covariance="/proc/self/environ"))
        assert REFUSED in message, (name, message)
        shown.append(message)
        if n == 0:
            page_b.screenshot(path=str(artifacts / "30-refused-server-path.png"))
        # the same task as an uploaded task.md
        task_file = tmp_path / f"probe-{n}.md"
        task_file.write_text(_task(data=name))
        message = _submit_uploaded(page_b, probe.url, task_file)
        assert REFUSED in message, (name, message)
        shown.append(message)
    for text in (f"---\ntitle: probe\ndata: [{json.dumps(str(probe.secret))}]\n---\nLook at the data.\n",
                 _task(data="data/sn.dat", chain=str(probe.secret))):
        assert REFUSED in _submit_typed(page_b, probe.url, text)
    message = _submit_typed(page_b, probe.url, "---\ntitle: probe\nmodel: 'replay:/proc/self/environ'\n---\nGo.\n")
    assert "may not" in message
    assert _run_ids(probe.workspaces, token_b) == set(), "a refused task starts no run"

    # a bare path typed as the task is text, never a file to read
    for text in (str(probe.secret), "/proc/self/environ"):
        page_b.goto(probe.url)
        page_b.locator("#cmb-task textarea").fill(text)
        page_b.locator("#cmb-send").click()
        page_b.locator(".cmb-status[data-state='error']").wait_for(timeout=120_000)

    # a visitor's model server may be loopback only, and never gets the server's key
    page_b.goto(probe.url)
    page_b.locator("#cmb-settings").click()
    page_b.locator("#cmb-provider input").click()
    page_b.get_by_role("option", name="openai-compatible").click()
    page_b.locator("#cmb-base-url textarea, #cmb-base-url input").first.wait_for()
    # the provider's change event sets the model field from the server; on a busy machine its reply can land
    # after a fill, so fill until the values stay
    fields = {"#cmb-model": "m", "#cmb-base-url": "http://169.254.169.254/v1"}
    for _ in range(20):
        for field, value in fields.items():
            page_b.locator(f"{field} textarea, {field} input").first.fill(value)
        page_b.wait_for_timeout(500)
        if all(page_b.locator(f"{field} textarea, {field} input").first.input_value() == value
               for field, value in fields.items()):
            break
    page_b.locator("#cmb-task textarea").fill("Fit supernova distances.")
    page_b.locator("#cmb-send").click()
    assert "does not send model requests" in _refusal(page_b)

    # B's own run, with links planted in it as code in the sandbox could: the server must not follow them
    page_b.goto(probe.url)
    page_b.locator("#cmb-settings").click()
    page_b.locator("#cmb-approve-plan input").check()
    page_b.locator("#cmb-run-example").click()
    page_b.locator(".cmb-status[data-state='awaiting_approval']").wait_for(timeout=120_000)
    run_b = str(page_b.locator(".cmb-status").get_attribute("data-run"))
    dir_b = session_b.root / run_b
    (dir_b / "report.md").symlink_to(probe.secret)
    (dir_b / "notebook.ipynb").symlink_to("/proc/self/environ")
    (dir_b / "figures" / "leak.png").symlink_to(probe.secret)
    (dir_b / "figures" / "sub").symlink_to(probe.server, target_is_directory=True)
    step_cells = next(dir_b.glob("steps/*/cells"), None) or (dir_b / "steps" / "01-x" / "cells")
    step_cells.mkdir(parents=True, exist_ok=True)
    (step_cells / "attempt-9.py").symlink_to(probe.secret)
    page_b.goto(probe.url)
    page_b.locator(f".cmb-status[data-run='{run_b}']").wait_for(timeout=60_000)
    page_b.wait_for_timeout(2500)  # a few live-view ticks
    page_b.screenshot(path=str(artifacts / "31-planted-links.png"), full_page=True)

    def get(context: Any, path: str) -> Any:
        return context.request.get(probe.url + path, max_redirects=0)

    for rel in ("report.md", "notebook.ipynb", "figures/leak.png", "figures/sub/secret.txt",
                f"{step_cells.relative_to(dir_b)}/attempt-9.py"):
        assert get(ctx_b, f"cmbagent/files/{run_b}/{rel}").status == 404, rel
    for run_id, context in ((run_a, ctx_a), (run_b, ctx_b)):
        run_dir = dir_a if run_id == run_a else dir_b
        for path in run_dir.rglob("*"):  # every file the session may fetch, through the route
            if path.is_file() and not path.is_symlink():
                response = get(context, f"cmbagent/files/{run_id}/{path.relative_to(run_dir).as_posix()}")
                assert response.status == 200 and not probe.leaks(response.body()), path
        archive = get(context, f"cmbagent/download/{run_id}.zip").body()
        with zipfile.ZipFile(io.BytesIO(archive)) as zipped:
            for name in zipped.namelist():
                assert not probe.leaks(zipped.read(name)), name
            assert not any(n.endswith(("leak.png", "secret.txt", "report.md", "attempt-9.py")) for n in zipped.namelist())
    for page in (page_a, page_b):
        assert not probe.leaks(page.content())
    assert not any(probe.leaks(m) for m in shown)
    # nothing on disk either: events, transcripts, checkpoints, task copies, staging leftovers, uploads
    for needle in (probe.file_canary, probe.env_canary):
        assert grep_tree(probe.workspaces, needle.encode()) == []
        assert grep_tree(probe.gradio_tmp, needle.encode()) == []
    assert (probe.server / "secret.txt").read_text().count(probe.file_canary) == 1  # never written to
    assert requests_b.outside() == []


def _gradio_call(client: httpx.Client, api_name: str, data: list[Any], session_hash: str) -> dict[str, Any]:
    """Call an event of the app the way its page does (``queue/join``, then the session's event stream) and
    return Gradio's ``process_completed`` message."""
    config = client.get("config").json()
    fn = next(d["id"] for d in config["dependencies"] if d.get("api_name") == api_name)
    joined = client.post("gradio_api/queue/join", json={"data": data, "fn_index": fn, "session_hash": session_hash,
                                                          "event_data": None, "trigger_id": None})
    assert joined.status_code == 200, joined.text
    with client.stream("GET", f"gradio_api/queue/data?session_hash={session_hash}") as stream:
        for line in stream.iter_lines():
            if line.startswith("data:"):
                message = json.loads(line[5:])
                if message.get("msg") == "process_completed":
                    return dict(message)
    raise AssertionError(f"{api_name}: no process_completed message")


def test_the_apps_api_takes_only_this_apps_uploads_and_exposes_no_unused_route(probe: Probe) -> None:
    """A client of the Gradio API writes the attachment paths itself: naming a server file, the server's own
    environment or a URL must be refused before Gradio copies or fetches anything; routes the app does not use
    (``deep_link`` writes a session's typed API key to a served file) answer 404."""
    client = httpx.Client(base_url=probe.url, timeout=120)
    client.get("")
    token = client.cookies["cmbagent_session"]
    port = probe.url.rsplit(":", 1)[1].strip("/")
    key = f"sk-visitor-{secrets.token_hex(12)}"
    settings = ["offline", "", "", key, 0, 0, 0, 1, False]
    for n, path in enumerate([str(probe.secret), "/proc/self/environ", f"/proc/{probe.pid}/environ",
                              str(probe.cwd / "secret-in-cwd.txt"), "secret-in-cwd.txt", f"{probe.gradio_tmp}/../server/secret.txt",
                              f"http://127.0.0.1:{port}/manifest.json", f"file://{probe.secret}"]):
        attachment = {"path": path, "orig_name": "data.csv", "meta": {"_type": "gradio.FileData"}}
        done = _gradio_call(client, "submit_task", ["Fit supernova distances.", [attachment], *settings], f"probe{n}")
        assert REFUSED in str((done.get("output") or {}).get("error")), (path, done)
        assert not probe.leaks(json.dumps(done)), path
    # the other API entry point takes the same path
    called = client.post("gradio_api/call/submit_task", json={"data": [
        "Fit supernova distances.", [{"path": str(probe.secret), "meta": {"_type": "gradio.FileData"}}], *settings]})
    with client.stream("GET", f"gradio_api/call/submit_task/{called.json()['event_id']}") as stream:
        reply = "".join(stream.iter_lines())
    assert "event: error" in reply and REFUSED in reply and not probe.leaks(reply)
    # the Ideas tab's upload takes the same check (rounds, ideas, then the model and budget settings)
    for n, path in enumerate([str(probe.secret), "/proc/self/environ", f"http://127.0.0.1:{port}/manifest.json"]):
        attachment = {"path": path, "orig_name": "task.md", "meta": {"_type": "gradio.FileData"}}
        done = _gradio_call(client, "submit_ideas", ["Ideas for supernova distances.", [attachment], 1, 3,
                                                     "offline", "", "", key, 0, 0, 0], f"ideas{n}")
        assert REFUSED in str((done.get("output") or {}).get("error")), (path, done)
        assert not probe.leaks(json.dumps(done)), path
    assert _run_ids(probe.workspaces, token) == set(), "a refused attachment starts no run"

    for route in ("gradio_api/deep_link?session_hash=probe0", f"gradio_api/proxy=http://127.0.0.1:{port}/",
                  "gradio_api/stream/x/y/0/playlist.m3u8", "gradio_api/vibe-code", "monitoring",
                  "gradio_api/custom_component/x/client/x/x", "gradio_api/run-history/records"):
        assert client.get(route).status_code == 404, route
    assert client.post("gradio_api/process_recording").status_code == 404
    for needle in (probe.file_canary, probe.env_canary, key):
        assert grep_tree(probe.workspaces, needle.encode()) == [], needle
        assert grep_tree(probe.gradio_tmp, needle.encode()) == [], needle
