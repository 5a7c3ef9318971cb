"""The package installs both ways and maps the design's folders into ``cmbagent.*``."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_editable_install_maps_top_level_folders() -> None:
    import cmbagent.agents
    import cmbagent.planner
    import cmbagent.sandbox
    import cmbagent.tools.methods

    assert Path(cmbagent.agents.__file__).parent == ROOT / "agents"
    assert Path(cmbagent.planner.__file__).parent == ROOT / "planner"
    assert Path(cmbagent.sandbox.__file__).parent == ROOT / "sandbox"
    assert Path(cmbagent.tools.methods.__file__).parent == ROOT / "tools" / "methods"


@pytest.mark.slow
def test_regular_wheel_install(tmp_path: Path) -> None:
    """Build a wheel, install it into a folder and import from there (not from the checkout)."""
    wheel_dir = tmp_path / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheel_dir), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheel_dir.glob("cmbagent-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names}
    # nothing generic such as `tools` or `agents` lands in site-packages
    assert {n for n in top_level if not n.startswith("cmbagent")} == set()
    assert "cmbagent/agents/__init__.py" in names
    assert "cmbagent/tools/methods/_registry.py" in names
    assert any(n.startswith("cmbagent/prompts/") and n.endswith(".md") for n in names) or not list(
        (ROOT / "prompts").glob("*.md")
    )
    # the Bayesian tools' default networks ship with the package (scripts/train_networks.py)
    shipped = {n.rsplit("/", 1)[-1] for n in names if n.startswith("cmbagent/tools/methods/bayes/trained/")}
    assert shipped == {p.name for p in (ROOT / "tools" / "methods" / "bayes" / "trained").iterdir()}, shipped

    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
    )
    probe = (
        "import cmbagent, cmbagent.agents, cmbagent.tools.methods as m, cmbagent.sandbox;"
        "print(cmbagent.__file__); print(cmbagent.agents.__file__); print(len(list(m.iter_methods())))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
    ).stdout.splitlines()
    assert out[0].startswith(str(target))
    assert out[1].startswith(str(target))


def test_cli_import_stays_light() -> None:
    """`cmbagent --help` must be fast: the CLI module may not import heavy libraries."""
    heavy = ["torch", "langgraph", "openai", "anthropic", "gradio", "jupyter_client", "matplotlib", "sklearn", "scipy"]
    code = (
        "import sys, cmbagent.cli;"
        f"print([m for m in {heavy!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_version_and_help() -> None:
    from cmbagent import __version__

    exe = Path(sys.executable).parent / "cmbagent"
    version = subprocess.run([str(exe), "--version"], check=True, capture_output=True, text=True).stdout
    assert version.strip() == f"cmbagent {__version__}"
    helptext = subprocess.run([str(exe), "--help"], check=True, capture_output=True, text=True).stdout
    for command in ("solve", "resume", "replay", "runs", "report", "methods", "exec", "models", "agents", "ui", "doctor"):
        assert command in helptext, command


def test_public_surface() -> None:
    import cmbagent
    import cmbagent.exceptions
    import cmbagent.tools.methods

    assert set(cmbagent.__all__) == {"RunResult", "RunSettings", "__version__", "resume", "solve"}
    assert cmbagent.RunSettings is __import__("cmbagent.config").config.RunSettings
    assert {"method", "Paper", "MethodResult", "Check", "run_method", "get_method", "iter_methods"} <= set(
        cmbagent.tools.methods.__all__
    )
    for name in cmbagent.exceptions.__all__:
        assert issubclass(getattr(cmbagent.exceptions, name), Exception)
