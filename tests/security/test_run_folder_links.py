"""A run folder is writable by the run's sandboxed code: links it plants there must never lead the host to a
file of its own, whether the host reads (run.json, task.md, a cell for the debugger) or writes (pip's overlay)."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest

from cmbagent.agents import CodeDraft, DebugFix, InstallAdvice, ReplanDecision
from cmbagent.api import solve
from cmbagent.exceptions import PathNotAllowed
from cmbagent.models import ModelRequest
from cmbagent.planner import Plan, PlanStep
from cmbagent.run import RunFolder
from cmbagent.sandbox import InMemoryExecutor
from tests.planner._support import brain
from tests.ui.conftest import grep_tree

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

PLAN = Plan(steps=[PlanStep(id="s1", title="Inspect", goal="Print the data.", agent="engineer",
                            acceptance_criteria=["prints"])])


@pytest.fixture
def secrets_of_the_host(tmp_path: Path) -> tuple[str, Path, Path]:
    canary = f"HOST-CANARY-{secrets.token_hex(10)}"
    host = tmp_path / "host"
    host.mkdir()
    (host / "notes.txt").write_text(f"{canary}\n")
    (host / "creds.json").write_text(json.dumps({"title": canary, "status": canary, "token": canary}))
    return canary, host / "notes.txt", host / "creds.json"


def _plant(links: dict[str, Path]) -> str:
    """A cell that replaces run-folder files with links to host files, as code in the sandbox can, then fails."""
    lines = ["import glob, os", "def plant(rel, target):",
             "    if os.path.lexists(rel):", "        os.remove(rel)", "    os.symlink(target, rel)"]
    for rel, target in links.items():
        lines.append(f"plant(sorted(glob.glob({rel!r}))[0] if '*' in {rel!r} else {rel!r}, {str(target)!r})")
    return "\n".join([*lines, "raise RuntimeError('planted')", ""])


def test_links_a_run_plants_in_its_folder_are_never_followed_by_the_host(
    tmp_path: Path, secrets_of_the_host: tuple[str, Path, Path]
) -> None:
    canary, notes, creds = secrets_of_the_host
    seen: list[str] = []

    def debugger(request: ModelRequest) -> DebugFix:
        seen.append(request.messages[-1].text())
        return DebugFix(diagnosis="gave up", give_up=True)

    code = _plant({"steps/*/cells/attempt-1.py": notes, "task.md": notes, "run.json": creds})
    model = brain(planner=lambda r: PLAN, engineer=lambda r: CodeDraft(code=code), debugger=debugger,
                  replanner=lambda r: ReplanDecision(action="skip", reason="planted links"))
    ws = tmp_path / "ws"
    result = solve("Print the data.", workspace=ws, model="scripted", models={"scripted": model}, n_reviews=0,
                   executor=InMemoryExecutor)
    # the host refuses to read its record through the link: the run fails, saying why
    assert result.status == "failed" and "PathNotAllowed" in (result.error or "") and "run.json" in result.error
    assert seen and not any(canary in text for text in seen), "the debugger was shown a host file"
    (run,) = [p for p in ws.iterdir() if p.is_dir()]
    assert grep_tree(run, canary.encode()) == []
    with pytest.raises(PathNotAllowed):
        RunFolder(run).task_text()
    assert canary in notes.read_text() and canary in creds.read_text()  # and nothing was written through a link


def test_pip_never_installs_through_a_link_in_place_of_the_overlay(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Code in the run replaces ``.overlay`` with a link to a host folder (a site-packages, say) and then needs a
    package: pip must not write into the host folder."""
    from tests.planner.test_allow_install import build_wheel

    module = f"cmbtiny_{secrets.token_hex(4)}"
    dist = build_wheel(tmp_path / "wheels", module, 1)
    monkeypatch.setenv("CMBAGENT_PIP_ARGS", f"--no-index --find-links {tmp_path / 'wheels'}")
    host_site = tmp_path / "host-site-packages"
    host_site.mkdir()
    code = (f"import os\nos.makedirs({str(host_site)!r} + '/site-packages', exist_ok=True)\n"
            f"os.symlink({str(host_site)!r}, '.overlay')\nimport {module}\n")
    installs: list[Any] = []

    def debugger(request: ModelRequest) -> DebugFix:
        installs.append(request.messages[-1].text())
        return DebugFix(diagnosis="gave up", give_up=True)

    model = brain(planner=lambda r: PLAN, engineer=lambda r: CodeDraft(code=code), debugger=debugger,
                  installer=lambda r: InstallAdvice(module=module, available=False, packages=[dist], advice="install"),
                  replanner=lambda r: ReplanDecision(action="skip", reason="no package"))
    result = solve("Use the helper.", workspace=tmp_path / "ws", model="scripted", models={"scripted": model},
                   n_reviews=0, executor=InMemoryExecutor, allow_install=True)
    assert list(host_site.rglob("*")) == [host_site / "site-packages"], "pip wrote into the host folder"
    (entry,) = json.loads(next(result.run_dir.glob("steps/*/step.json")).read_text())["installs"]
    assert entry["status"] == "failed" and "replaced by a link" in (result.run_dir / entry["output"]).read_text()
