"""docs/architecture.md stays true: every path, module and name it gives in backticks exists, and every
citation of it in the code names a section or rule it has.

What a backticked token must be, by its form:

* a path of the checkout (``planner/_graph.py``, ``tests/methods/``): the file or folder exists;
* a dotted ``cmbagent.…`` name: the module imports and the attribute resolves (or it is an entry-point group);
* a ``CMBAGENT_…`` environment variable: the source reads it;
* ``Class.attribute``: the class is defined in the source and the attribute in the same file;
* a ``CamelCase`` or ``UPPER_CASE`` name: a class, function or constant of that name is defined in the source;
* a ``snake_case`` name: it occurs as a word in the source, prompts or package metadata.

Run-folder paths (``steps/NN-slug/``), flags, commands and field names of other forms are prose.
"""

from __future__ import annotations

import functools
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
SOURCE_FOLDERS = ("cmbagent", "agents", "planner", "tools", "sandbox")
#: top-level names of the checkout a backticked path may start with
CHECKOUT = ("cmbagent", "agents", "planner", "tools", "sandbox", "prompts", "docs", "tests", "bench", "scripts",
            "examples", "docker", "workspaces")
TOP_FILES = ("setup.py", "pyproject.toml", "README.md", "CHANGELOG.md", "app.py")
#: folders whose files may cite the document
CITING = (*SOURCE_FOLDERS, "prompts", "tests", "docs", "bench", "scripts")

_PATH = re.compile(rf"^(?:{'|'.join(CHECKOUT)})/[\w./+-]*$")
_DOTTED = re.compile(r"^cmbagent(?:\.\w+)+$")
_ATTRIBUTE = re.compile(r"^([A-Z]\w*)\.(\w+)$")
_CONSTANT_OR_CLASS = re.compile(r"^(?:[A-Z][a-z0-9]+[A-Za-z0-9]*|[A-Z][A-Z0-9_]+)$")
_SNAKE = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$")


def _tokens() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # the diagram is prose
    return sorted(set(re.findall(r"`([^`\n]+)`", text)))


@functools.cache
def _source() -> dict[Path, str]:
    files = [p for folder in SOURCE_FOLDERS for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts]
    return {p: p.read_text(encoding="utf-8") for p in files}


@functools.cache
def _all_text() -> str:
    extra = [*sorted((ROOT / "prompts").glob("*.md")), ROOT / "pyproject.toml", ROOT / "setup.py"]
    return "\n".join([*_source().values(), *(p.read_text(encoding="utf-8") for p in extra)])


def _defining(name: str) -> list[Path]:
    pattern = re.compile(rf"^\s*(?:class|def)\s+{name}\b|^\s*{name}\s*[:=]", re.MULTILINE)
    return [p for p, text in _source().items() if pattern.search(text)]


def _problem(token: str) -> str | None:
    if _PATH.match(token) or token in TOP_FILES:
        return None if (ROOT / token).exists() else "no such file or folder in the checkout"
    if _DOTTED.match(token):
        if f'[project.entry-points."{token}"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8"):
            return None  # an entry-point group
        parts = token.split(".")
        for cut in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attribute in parts[cut:]:
                if not hasattr(obj, attribute):
                    return f"{'.'.join(parts[:cut])} has no {attribute!r}"
                obj = getattr(obj, attribute)
            return None
        return "does not import"
    if match := _ATTRIBUTE.match(token):
        name, attribute = match.groups()
        files = _defining(name)
        if not files:
            return f"no class {name} in the source"
        if not any(re.search(rf"\b{attribute}\b", _source()[p]) for p in files):
            return f"{name} has no {attribute}"
        return None
    if token.startswith("CMBAGENT_"):  # an environment variable: read somewhere
        return None if re.search(rf"\b{token}\b", _all_text()) else "read nowhere in the source"
    if _CONSTANT_OR_CLASS.match(token):
        return None if _defining(token) else "defined nowhere in the source"
    if _SNAKE.match(token):
        return None if re.search(rf"\b{token}\b", _all_text()) else "occurs nowhere in the source"
    return None


def test_the_document_names_only_what_exists() -> None:
    tokens = _tokens()
    assert len(tokens) > 80, "the document lost its names; this test reads backticked tokens"
    problems = [f"`{t}`: {why}" for t in tokens if (why := _problem(t)) is not None]
    assert not problems, "docs/architecture.md names what the code does not have:\n" + "\n".join(problems)


def test_the_checks_catch_a_wrong_name() -> None:
    """The forms above are checked, not waved through."""
    assert _problem("planner/_no_such_module.py") is not None
    assert _problem("cmbagent.planner.NO_SUCH_NAME") is not None
    assert _problem("RunConfig.no_such_method") is not None
    assert _problem("NoSuchClass") is not None
    assert _problem("no_such_function_anywhere") is not None
    assert _problem("planner/_graph.py") is None and _problem("cmbagent.planner.ROUTES") is None


def _sections() -> tuple[set[str], set[int]]:
    text = DOC.read_text(encoding="utf-8")
    headings = {h.strip() for h in re.findall(r"^#{2,4}\s+(.+)$", text, flags=re.MULTILINE)}
    rules_part = text.split("## Rules the code follows", 1)[1]
    rules = {int(n) for n in re.findall(r"^(\d+)\. \*\*", rules_part, flags=re.MULTILINE)}
    return headings, rules


def _citing_files() -> list[Path]:
    out = []
    for folder in CITING:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".md"} and path.is_file() and "__pycache__" not in path.parts:
                out.append(path)
    return [p for p in out if p != Path(__file__).resolve() and p != DOC]


def test_citations_name_a_section_or_rule_that_exists() -> None:
    headings, rules = _sections()
    assert rules == set(range(1, max(rules) + 1)), "rules are numbered 1..n without gaps (code cites numbers)"
    cited = 0
    wrong = []
    for path in _citing_files():
        text = re.sub(r"\s+", " ", path.read_text(encoding="utf-8", errors="replace"))
        for match in re.finditer(r"docs/architecture\.md,? (?:\"([^\"]+)\"|Rules (\d+))", text):
            cited += 1
            heading, rule = match.groups()
            if heading is not None and heading not in headings:
                wrong.append(f"{path.relative_to(ROOT)}: no section {heading!r}")
            if rule is not None and int(rule) not in rules:
                wrong.append(f"{path.relative_to(ROOT)}: no rule {rule}")
    assert cited >= 10, cited
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("gone", ["DESIGN.md", "STYLE rule", "STYLE.md"])
def test_nothing_cites_a_document_that_is_not_in_the_repository(gone: str) -> None:
    found = [f"{p.relative_to(ROOT)}" for p in _citing_files() if gone in p.read_text(encoding="utf-8", errors="replace")]
    assert not found, f"cite docs/architecture.md instead of {gone}: {found}"
