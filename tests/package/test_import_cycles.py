"""Import circles of the installed package can only shrink (docs/architecture.md, "Layers").

The graph is read from the package as installed: ``cmbagent`` and the folders setup.py maps into it
(``agents/`` as ``cmbagent.agents`` and so on), located through the import system, so a remapped folder is
walked under its real module name. Every ``import`` counts, at module level or inside a function: a lazy
import hides a circle from the interpreter, not from the design. ``from package import name`` points at the
submodule when ``name`` is one, else at the package; importing a submodule is not counted as importing its
parent package's ``__init__`` (that would make every package that re-exports its modules a circle).

A circle is a strongly connected component of that graph with two or more modules. Each must lie inside one
entry of :data:`ALLOWED`, the circles still left; a new circle, or a module joining an old one, fails. When a
change breaks an allowed circle, its entry must shrink or go (the second test says which), so the list only
gets shorter.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

#: the top-level packages of the namespace (setup.py maps the last five from folders of the checkout)
ROOTS = ("cmbagent", "cmbagent.agents", "cmbagent.planner", "cmbagent.tools", "cmbagent.sandbox", "cmbagent.prompts")

#: the circles still left (issue 32): none (the models/paths and ui circles are gone); any new one fails
ALLOWED: dict[str, frozenset[str]] = {
}


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the installed package: name -> (source file, is a package)."""
    found: dict[str, tuple[Path, bool]] = {}
    for root in ROOTS:
        spec = importlib.util.find_spec(root)
        assert spec is not None and spec.submodule_search_locations, f"{root} is not an installed package"
        for location in spec.submodule_search_locations:
            _walk(root, Path(location), found)
    return found


def _walk(package: str, folder: Path, found: dict[str, tuple[Path, bool]]) -> None:
    found[package] = (folder / "__init__.py", True)
    for path in sorted(folder.iterdir()):
        if path.is_dir() and (path / "__init__.py").is_file():
            name = f"{package}.{path.name}"
            if name not in ROOTS:  # a mapped package is walked from its own folder
                _walk(name, path, found)
        elif path.suffix == ".py" and path.name != "__init__.py":
            found[f"{package}.{path.stem}"] = (path, False)


def _targets(name: str, is_package: bool, node: ast.Import | ast.ImportFrom, known: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = (name if is_package else name.rpartition(".")[0]).split(".")
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join([*parts, node.module] if node.module else parts)
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    found = modules()
    known = set(found)
    edges: dict[str, set[str]] = {name: set() for name in found}
    for name, (path, is_package) in found.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _targets(name, is_package, node, known):
                while target and target not in known:  # a name inside a module: the module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges[name].add(target)
    return edges


def circles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with two or more modules (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_walker_finds_the_remapped_folders_and_a_known_edge() -> None:
    """The graph is the real one: remapped folders are in it under their module names, with their imports."""
    edges = import_graph()
    assert {"cmbagent.agents", "cmbagent.planner", "cmbagent.tools.methods", "cmbagent.sandbox"} <= set(edges)
    assert len(edges) > 200
    assert "cmbagent.agents._offline_rules" in edges["cmbagent.agents._offline_model"]  # a function-level import
    assert "cmbagent.tools.methods._kit" in edges["cmbagent.tools.methods.lm.jola"]


def test_circles_finds_a_circle_and_only_circles() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}}
    assert circles(edges) == [frozenset({"a", "b", "c"})]


def test_no_import_circle_beyond_the_ones_still_left() -> None:
    unexpected = [sorted(c) for c in circles(import_graph()) if not any(c <= allowed for allowed in ALLOWED.values())]
    assert not unexpected, (
        "new import circle(s); make the lower module stop importing the higher one (move the shared piece "
        f"into a module both import): {unexpected}")


def test_the_allow_list_names_only_circles_that_are_left() -> None:
    """An entry that a change untangled (in part or whole) is shrunk to what is left, so it cannot grow back."""
    found = circles(import_graph())
    stale = {}
    for label, allowed in ALLOWED.items():
        left = set().union(*(c for c in found if c <= allowed))
        if left != allowed:
            stale[label] = sorted(left) or "gone: delete the entry"
    assert not stale, f"shrink ALLOWED in tests/package/test_import_cycles.py to what is left: {stale}"
