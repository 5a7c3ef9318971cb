"""docs/extending.md says how many files of the product each addition touches; these counts are recounted from
the code, so the page cannot go stale silently.

A new member of a kind (a provider's adapter module, an audit module, a method family, a method of a family, a
plan-step agent, an eval task) touches its own files plus every *list* of that kind: a file, not a member
itself, that names every member there is (the import line of ``cmbagent/models/__init__.py`` names every adapter
module that registers a provider row; ``pyproject.toml`` names every method family as an entry point). Each count
below is "own files + lists" found in the import graph or the text of the product, and each list must be a
file the page names in that recipe.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from tests.package.test_import_cycles import import_graph, modules

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "extending.md"
#: product files that are not Python modules but can list members (package metadata)
METADATA = (ROOT / "pyproject.toml", ROOT / "setup.py")


@functools.cache
def _graph() -> dict[str, set[str]]:
    return import_graph()


@functools.cache
def _modules() -> dict[str, tuple[Path, bool]]:
    return modules()


def _rel(module: str) -> str:
    return str(_modules()[module][0].resolve().relative_to(ROOT))


def _tree(module: str) -> ast.Module:
    return ast.parse(_modules()[module][0].read_text(encoding="utf-8"))


def _calls(module: str, name: str) -> int:
    """How many calls of ``name(...)`` the module makes (decorators included)."""
    return sum(1 for node in ast.walk(_tree(module)) if isinstance(node, ast.Call)
               and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name))


def lists_importing(members: set[str], graph: dict[str, set[str]]) -> set[str]:
    """The modules, not members, that import every member: the import lists a new member must join."""
    importers = [{m for m, targets in graph.items() if member in targets} for member in members]
    return set.intersection(*importers) - members if importers else set()


def lists_naming(words: set[str], files: list[Path]) -> set[Path]:
    """The files whose text names every one of ``words`` (as a whole word)."""
    return {p for p in files if all(re.search(rf"(?<![\w.]){re.escape(w)}\b", p.read_text(encoding="utf-8"))
                                    for w in words)}


def _product_files() -> list[Path]:
    return sorted({path.resolve() for path, _ in _modules().values()} | set(METADATA))


def _section(title: str) -> str:
    parts = re.split(r"^## ", DOC.read_text(encoding="utf-8"), flags=re.MULTILINE)
    found = [p for p in parts if p.startswith(title)]
    assert len(found) == 1, f"docs/extending.md has no one section {title!r}"
    return found[0]


def _claim(section: str, pattern: str) -> int:
    match = re.search(pattern, re.sub(r"\s+", " ", section))
    assert match is not None, f"docs/extending.md no longer says {pattern!r}; recount and say it again"
    return int(match.group(1))


def _named(section: str, path: str) -> bool:
    return f"`{path}`" in section


def test_a_provider_with_a_new_wire_format_touches_its_module_and_the_import_line() -> None:
    section = _section("Add a provider")
    adapters = {m for m in _modules() if m.startswith("cmbagent.models.") and m != "cmbagent.models._providers"
                and _calls(m, "register_provider")}
    assert {"cmbagent.models.openai", "cmbagent.models.anthropic", "cmbagent.models.replay"} <= adapters
    lists = lists_importing(adapters, _graph())
    assert lists == {"cmbagent.models"}, lists
    assert all(_named(section, _rel(m)) for m in lists)
    assert _claim(section, r"\*\*Files to touch: (\d+)\*\* for a new wire format") == 1 + len(lists)
    # a row that reuses the chat-completions adapter goes into compatible.py, a module already on the list that
    # builds that adapter: that file only
    assert "cmbagent.models.compatible" in adapters and "cmbagent.models.openai" in _graph()["cmbagent.models.compatible"]
    assert _named(section, "cmbagent/models/compatible.py")
    assert _claim(section, r"\*\*(\d+)\*\* for a provider that speaks a wire format cmbagent already has") == 1
    # the registry itself lists no adapter
    assert not _graph()["cmbagent.models._providers"] & adapters


def test_an_audit_touches_its_module_the_import_list_and_maybe_the_code_table() -> None:
    section = _section("Add an audit")
    audits = {m for m in _modules() if m.startswith("cmbagent.audits.")
              and (_calls(m, "step_audit") or _calls(m, "run_audit"))}
    assert len(audits) >= 5, audits
    lists = lists_importing(audits, _graph())
    assert lists == {"cmbagent.audits"}, lists
    assert all(_named(section, _rel(m)) for m in lists)
    assert _claim(section, r"\*\*Files to touch: (\d+)\*\* \(the audit's module") == 1 + len(lists)
    tables = [m for m in _modules() if m.startswith("cmbagent.audits.") and any(
        isinstance(n, ast.AnnAssign | ast.Assign) and "BUILT_IN" in ast.unparse(n).split("=")[0]
        for n in _tree(m).body)]
    assert tables == ["cmbagent.audits._finding_codes"] and _named(section, _rel(tables[0]))
    assert _claim(section, r"\*\*(\d+)\*\* when its code is declared with the built-in ones") == 2 + len(lists)


def _families() -> dict[str, set[str]]:
    """Each method family package -> the modules of it that register a method."""
    families = {m for m, (_, package) in _modules().items() if package and m.startswith("cmbagent.tools.methods.")
                and _calls(m, "family")}
    return {f: {m for m in _modules() if m.startswith(f + ".") and _calls(m, "method")} for f in families}


def test_a_method_family_touches_its_init_its_paper_and_the_entry_point_list() -> None:
    section = _section("Add a method family")
    families = _families()
    assert len(families) >= 8, sorted(families)
    by_import = lists_importing(set(families), _graph())
    by_name = lists_naming(set(families), [p for p in _product_files() if p.suffix != ".py"])
    assert not by_import and by_name == {ROOT / "pyproject.toml"}, (by_import, by_name)
    assert _named(section, "pyproject.toml")
    count = 2 + len(by_import) + len(by_name)  # the family's __init__.py and its paper module, then the lists
    assert _claim(section, r"^Add a method family — (\d+) files") == count
    assert _claim(section, r"\*\*Files to touch: (\d+)\*\* — the family's") == count


def test_a_method_of_a_family_touches_its_module_and_the_familys_init() -> None:
    section = _section("Add a method family")
    for family, methods in _families().items():
        if len(methods) < 2:
            continue  # one member: every importer of it would look like a list
        lists = lists_importing(methods, _graph())
        assert lists == {family}, (family, lists)
    assert _claim(section, r"A method added to an existing family touches (\d+) files") == 2


def test_a_plan_step_agent_is_one_prompt_file() -> None:
    from cmbagent.agents import load_registry

    agents = set(load_registry().step_agents())
    assert len(agents) >= 10 and all((ROOT / "prompts" / f"{name}.md").is_file() for name in agents)
    assert not lists_naming(agents, _product_files())
    assert '"cmbagent.prompts" = ["*.md"]' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert _claim(_section("Add an agent"), r"^Add an agent — (\d+) file") == 1


def test_an_eval_task_is_two_files_and_its_reference() -> None:
    suite = ROOT / "evals" / "research"
    tasks = sorted(p.stem for p in suite.glob("*.md") if p.name != "README.md")
    assert len(tasks) >= 10 and all((suite / f"{t}.grade.yaml").is_file() for t in tasks)
    scripts = sorted((suite / "reference").glob("*.py"))
    for task in tasks:  # the reference its grader names: the script that computes its expected values
        grader = (suite / f"{task}.grade.yaml").read_text(encoding="utf-8")
        reference = re.search(r"^reference: (\S+)$", grader, flags=re.MULTILINE)
        assert reference is not None and (suite / reference.group(1)).resolve() in scripts, task
    assert not lists_naming(set(tasks), [*_product_files(), *scripts, suite / "README.md"])
    assert _claim(_section("Add an eval task"), r"^Add an eval task — (\d+) files and a reference") == 2


def test_a_list_is_what_names_every_member() -> None:
    graph = {"a": set(), "b": set(), "init": {"a", "b", "x"}, "user": {"a"}, "x": set()}
    assert lists_importing({"a", "b"}, graph) == {"init"}
    assert lists_importing({"a"}, graph) == {"init", "user"}


def test_a_run_setting_touches_its_field_its_node_and_its_cli_option() -> None:
    from cmbagent.config import RunSettings

    def naming(words: set[str]) -> set[Path]:  # attribute reads too (``rt.settings.cell_timeout``)
        return {p for p in _product_files() if all(re.search(rf"\b{w}\b", p.read_text(encoding="utf-8")) for w in words)}

    section = _section("Add a run setting")
    files = naming({"cell_timeout"})
    assert files == {ROOT / "cmbagent" / "config.py", ROOT / "cmbagent" / "cli" / "_run.py",
                     ROOT / "planner" / "_roles.py"}, files
    assert all(_named(section, str(p.relative_to(ROOT))) for p in files)
    assert _claim(section, r"^Add a run setting — (\d+) files") == len(files)
    assert _claim(section, r"\*\*Files to touch: (\d+)\*\*") == len(files)
    # nothing copies the settings field by field (as GraphSettings did): only their home names them all
    assert naming(set(RunSettings.model_fields)) == {ROOT / "cmbagent" / "config.py"}
