"""`cmbagent doctor` tells the truth about this machine and never shows a key's value."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

EXE = str(Path(sys.executable).parent / "cmbagent")


def _doctor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [EXE, "doctor", *args], capture_output=True, text=True, timeout=180, env={**os.environ, **(env or {})}
    )


def test_doctor_json_reports_backends_providers_and_runs(tmp_path: Path) -> None:
    secret = "sk-test-doctor-value-that-must-not-appear-0123456789"
    done = _doctor("--json", "--workspace", str(tmp_path / "runs"), env={"OPENAI_API_KEY": secret})
    assert done.returncode == 0, done.stderr
    assert secret not in done.stdout + done.stderr
    report = json.loads(done.stdout)
    backends = report["sandbox_backends"]
    assert set(backends) >= {"bwrap", "process", "docker"}
    # honest: no bwrap binary means bwrap is not available; no Docker engine here means docker is not
    if shutil.which("bwrap") is None:
        assert backends["bwrap"]["available"] is False
    assert backends["process"]["available"] is True and "isolate" in backends["process"]["reason"]
    assert all(status["reason"] for status in backends.values())
    providers = {p["provider"]: p for p in report["model_providers"]}
    assert providers["openai"]["env_var"] == "OPENAI_API_KEY" and providers["openai"]["is_set"] is True
    assert providers["anthropic"]["is_set"] is False
    assert report["runs_go_to"] == str((tmp_path / "runs").resolve())
    assert report["methods"] >= 5 and report["method_families_not_loaded"] == {}
    assert report["packages"]["langgraph"]


def test_doctor_text_output(tmp_path: Path) -> None:
    done = _doctor("--workspace", str(tmp_path))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for needle in ("sandbox backends:", "bwrap", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "runs go to:", "offline"):
        assert needle in out, needle
