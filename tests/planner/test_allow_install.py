"""--allow-install: a missing package goes into the run's overlay (never the venv), only when allowed, only
with a safe name.  No network: the package is a wheel built here and installed with --no-index."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import sysconfig
import uuid
import zipfile
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import CodeDraft, DebugFix, InstallAdvice, ReplanDecision
from cmbagent.api import solve
from cmbagent.models import ModelRequest
from cmbagent.planner import Plan, PlanStep
from cmbagent.planner._install import MAX_PACKAGES, safe_packages
from cmbagent.session import RunSession
from tests.planner._support import BEGIN, END, brain, of_type

pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning"), pytest.mark.slow]

PLAN = Plan(steps=[PlanStep(id="s1", title="Use a helper package", goal="Import the helper and print its value.",
                            agent="engineer", acceptance_criteria=["prints value"])])


def sandbox_backend() -> str:
    from cmbagent.sandbox import probe_backends

    return "bwrap" if probe_backends()["bwrap"].available else "process"


def build_wheel(folder: Path, module: str, value: int) -> str:
    """A pure-Python wheel providing ``module`` (its distribution name is returned)."""
    dist = module.replace("_", "-")
    info = f"{module}-0.1.dist-info"
    files = {
        f"{module}/__init__.py": f"VALUE = {value}\n",
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(folder / f"{module}-0.1-py3-none-any.whl", "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
    return dist


def site_listing() -> set[str]:
    return {p.name for p in Path(sysconfig.get_paths()["purelib"]).iterdir()}


def uses_module(module: str) -> str:
    return (f"import json\nimport {module}\nprint({BEGIN!r})\nprint(json.dumps({{'value': {module}.VALUE}}))\n"
            f"print({END!r})\n")


def without_module() -> str:
    return f"import json\nprint({BEGIN!r})\nprint(json.dumps({{'value': 7}}))\nprint({END!r})\n"


def step_record(run: Path) -> dict[str, Any]:
    return dict(json.loads(next(run.glob("steps/*/step.json")).read_text()))


def test_package_names_from_a_model_are_checked() -> None:
    good, bad = safe_packages(["numpy", "scikit-learn==1.5.2", "zope.interface", "--index-url=http://x",
                               "pkg @ https://example.org/pkg.whl", "../evil", "/tmp/x.whl", "a;b", "pkg[extra]",
                               "pkg>=1", "-e.", "pkg==1.0 ; python_version>'3'", "", "x" * 120])
    assert good == ["numpy", "scikit-learn==1.5.2", "zope.interface"]
    assert len(bad) == 11
    many, over = safe_packages([f"p{i}" for i in range(MAX_PACKAGES + 2)] + ["P0"])
    assert len(many) == MAX_PACKAGES and len(over) == 2  # the duplicate P0 is dropped, not counted


def test_off_by_default_advises_and_installs_nothing(tmp_path: Path) -> None:
    module = f"cmbtiny_{uuid.uuid4().hex[:8]}"

    def debugger(request: ModelRequest) -> DebugFix:
        assert "--allow-install" in request.messages[-1].text()
        return DebugFix(diagnosis=f"{module} is not installed", give_up=True)

    model = brain(planner=lambda r: PLAN, engineer=lambda r: CodeDraft(code=uses_module(module)),
                  installer=lambda r: InstallAdvice(module=module, available=False, packages=[module.replace("_", "-")],
                                                    advice="not installed"),
                  debugger=debugger, replanner=lambda r: ReplanDecision(action="skip", reason="needs the package"))
    result = solve("Use the helper.", workspace=tmp_path, model="scripted", models={"scripted": model},
                   n_reviews=0, sandbox="process")
    run = result.run_dir
    assert not (run / ".overlay").exists()
    assert not list(run.glob("steps/*/outputs/install-*"))
    (entry,) = step_record(run)["installs"]
    assert entry["status"] == "not_allowed" and "--allow-install" in entry["note"]
    assert json.loads((run / "run.json").read_text())["config"]["settings"]["allow_install"] is False
    assert "--allow-install" in (run / "report.md").read_text()


def test_allowed_install_goes_to_the_overlay_and_the_retry_imports_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    module = f"cmbtiny_{uuid.uuid4().hex[:8]}"
    dist = build_wheel(tmp_path / "wheels", module, 42)
    monkeypatch.setenv("CMBAGENT_PIP_ARGS", f"--no-index --find-links {tmp_path / 'wheels'}")
    before = site_listing()

    def debugger(request: ModelRequest) -> DebugFix:
        raise AssertionError("an installed package is retried without the debugger")

    model = brain(planner=lambda r: PLAN, engineer=lambda r: CodeDraft(code=uses_module(module)),
                  installer=lambda r: InstallAdvice(module=module, available=False, packages=[dist], advice="install it"),
                  debugger=debugger)
    result = solve("Use the helper.", workspace=tmp_path / "ws", model="scripted", models={"scripted": model},
                   n_reviews=0, sandbox=sandbox_backend(), allow_install=True)
    run = result.run_dir
    assert result.status == "done", result.error
    assert result.values["value"] == 42
    assert (run / ".overlay" / "site-packages" / module / "__init__.py").is_file()
    cells = of_type(run, "cell_executed")
    assert [c["status"] for c in cells if c["step_id"] == "s1"] == ["error", "ok"]
    (entry,) = step_record(run)["installs"]
    assert entry["status"] == "installed" and entry["packages"] == [dist]
    assert "Successfully installed" in (run / entry["output"]).read_text()
    config = json.loads((run / "run.json").read_text())["config"]
    assert config["settings"]["allow_install"] is True
    assert RunSession.open(run).config.settings.allow_install is True  # what resume rebuilds its settings from
    # the host environment never changed
    assert site_listing() == before
    assert importlib.util.find_spec(module) is None


def test_hostile_package_names_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = f"cmbtiny_{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("CMBAGENT_PIP_ARGS", f"--no-index --find-links {tmp_path / 'none'}")
    hostile = ["--index-url=http://x", f"{module} @ https://example.org/{module}.whl"]

    def debugger(request: ModelRequest) -> DebugFix:
        assert "refused unsafe names" in request.messages[-1].text()
        return DebugFix(diagnosis="use no helper", code=without_module())

    model = brain(planner=lambda r: PLAN, engineer=lambda r: CodeDraft(code=uses_module(module)),
                  installer=lambda r: InstallAdvice(module=module, available=False, packages=hostile, advice="x"),
                  debugger=debugger)
    result = solve("Use the helper.", workspace=tmp_path, model="scripted", models={"scripted": model},
                   n_reviews=0, sandbox="process", allow_install=True)
    run = result.run_dir
    assert result.status == "done", result.error
    assert not (run / ".overlay").exists()
    (entry,) = step_record(run)["installs"]
    assert entry["status"] == "refused" and entry["refused"] == hostile and entry["packages"] == []
