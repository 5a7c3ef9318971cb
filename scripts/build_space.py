"""Assemble the HuggingFace Space folder (Docker SDK) from this repository.

    python scripts/build_space.py build/space            # then push that folder to the Space's git repo

The folder holds the Space README (front matter: sdk docker, app_port 7860), ``Dockerfile`` (the app image,
``docker/app.Dockerfile``, building from ``project/``), ``app.py``, ``examples/`` and ``project/`` (the source
tree ``pip install`` needs).  The source goes under ``project/`` so that running ``python app.py`` in the
folder imports the installed package, never a half copy of it.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: what ``pip install`` of the project needs (setup.py maps the top-level folders into ``cmbagent.*``)
PROJECT_ITEMS = (
    "pyproject.toml",
    "setup.py",
    "README.md",
    "CHANGELOG.md",
    "LICENSE",
    "cmbagent",
    "agents",
    "planner",
    "tools",
    "sandbox",
    "prompts",
)
IGNORE = shutil.ignore_patterns(
    "__pycache__", "*.pyc", "*.egg-info", ".pytest_cache", ".mypy_cache", ".ruff_cache"
)


def build_space(out: Path, *, root: Path = ROOT, force: bool = False) -> Path:
    """Write the Space folder to ``out`` and return it; refuses a non-empty ``out`` unless ``force``."""
    out = out.resolve()
    if out.exists() and any(out.iterdir()):
        if not force:
            raise SystemExit(f"error: {out} is not empty; pass --force to replace it")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)

    shutil.copy2(root / "docker" / "space" / "README.md", out / "README.md")
    dockerfile = (root / "docker" / "app.Dockerfile").read_text(encoding="utf-8")
    dockerfile, count = re.subn(r"(?m)^ARG SRC=\.$", "ARG SRC=project", dockerfile)
    if count != 1:
        raise SystemExit("error: docker/app.Dockerfile must declare `ARG SRC=.` exactly once")
    (out / "Dockerfile").write_text(dockerfile, encoding="utf-8")
    shutil.copy2(root / "app.py", out / "app.py")
    if (root / "examples").is_dir():
        shutil.copytree(root / "examples", out / "examples", ignore=IGNORE)
    else:
        (out / "examples").mkdir()

    project = out / "project"
    project.mkdir()
    for item in PROJECT_ITEMS:
        source = root / item
        if source.is_dir():
            shutil.copytree(source, project / item, ignore=IGNORE)
        elif source.is_file():
            shutil.copy2(source, project / item)
    for required in ("pyproject.toml", "setup.py", "cmbagent"):
        if not (project / required).exists():
            raise SystemExit(f"error: {root} has no {required}; run this script from a cmbagent checkout")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder to write the Space into (e.g. build/space)")
    parser.add_argument("--force", action="store_true", help="replace a non-empty output folder")
    args = parser.parse_args(argv)
    out = build_space(args.out, force=args.force)
    print(f"Space folder written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
