"""`cmbagent exec`: output, the --json shape and the exit codes (0 ok, 1 raised or stopped, 2 usage)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import require_backend

HOSTILE = Path(__file__).parent / "hostile"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cmbagent", "exec", *args], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("backend", ["bwrap", "process", "docker"])
def test_json_result_and_exit_codes(backend: str, tmp_path: Path) -> None:
    require_backend(backend)
    good = tmp_path / "good.py"
    good.write_text("import numpy as np\nprint(np.arange(3).sum())\nnp.pi")
    out = cli(str(good), "--workspace", str(tmp_path / "run"), "--sandbox", backend, "--json")
    assert out.returncode == 0, out.stderr
    payload = json.loads(out.stdout)
    assert payload["status"] == "ok" and payload["ok"] is True
    assert payload["stdout"] == {"text": "3\n", "dropped_bytes": 0}
    assert payload["results"] == [{"text/plain": "3.141592653589793"}]
    assert payload["backend"] == backend and payload["workspace"] == str(tmp_path / "run")
    assert set(payload) >= {"stderr", "images", "error_name", "error_value", "traceback", "duration_s", "message",
                            "execution_count", "notebook"}
    assert (tmp_path / "run" / "notebook.ipynb").exists()
    if backend == "process":
        assert "does not isolate" in out.stderr or "can read and write your files" in out.stderr

    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('nope')")
    out = cli(str(bad), "--workspace", str(tmp_path / "run"), "--sandbox", backend, "--json")
    assert out.returncode == 1
    payload = json.loads(out.stdout)
    assert payload["status"] == "error" and payload["error_name"] == "RuntimeError"


def test_plain_output_and_timeout_exit_code(tmp_path: Path) -> None:
    require_backend("bwrap")
    out = cli(str(HOSTILE / "sleep_past_timeout.py"), "--workspace", str(tmp_path / "run"), "--timeout", "1")
    assert out.returncode == 1
    assert "[timeout]" in out.stderr
    ok = tmp_path / "ok.py"
    ok.write_text("print('hello')\n")
    out = cli(str(ok), "--workspace", str(tmp_path / "run"))
    assert out.returncode == 0 and out.stdout == "hello\n"


@pytest.mark.parametrize(
    "args, needle",
    [
        (["/nonexistent/file.py"], "does not exist"),
        (["{file}", "--sandbox", "chroot"], "--sandbox must be one of"),
        (["{file}", "--timeout", "0"], "--timeout must be"),
    ],
)
def test_usage_errors_exit_2(args: list[str], needle: str, tmp_path: Path) -> None:
    f = tmp_path / "x.py"
    f.write_text("print(1)\n")
    out = cli(*[a.replace("{file}", str(f)) for a in args])
    assert out.returncode == 2
    assert needle in out.stderr
