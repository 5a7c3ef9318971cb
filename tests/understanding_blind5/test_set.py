"""Checks of the fifth blind prose task set itself (tasks.yaml, tasks/, data/), not of the reader.

The set measures the reader only if it is sound and really unseen: every expected method and argument is one
the catalogue accepts, every file is the one the text names, the data regenerate byte for byte, and neither
the data nor the wording is borrowed from any other prose set (every ``tests/understanding*`` folder with a
manifest: the public, held-out, blind and fourth blind sets, and any set added later) or the examples. The set states
no answers (README.md, "What is expected").
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from cmbagent.tools.methods import argument_problems, get_method, iter_methods, path_arguments

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
ROOT = HERE.parents[1]
# Every other prose set, the ones written before this (public, held-out, blind, fourth blind) and any added later.
EARLIER = sorted(p for p in (ROOT / "tests").glob("understanding*")
                 if p.is_dir() and p != HERE and (p / "tasks.yaml").is_file())
WRITTEN_BEFORE = {"understanding", "understanding_heldout", "understanding_blind", "understanding_blind4"}
EXAMPLES = ROOT / "examples"
MANIFEST = yaml.safe_load((HERE / "tasks.yaml").read_text())
TASKS: list[dict[str, Any]] = MANIFEST["tasks"]

# The catalogue the set covers (`cmbagent methods list` when it was written). A method added later is not
# silently counted as covered: test_every_catalogue_method_is_covered names it.
COVERED = [
    "alignment.survey_benchmark", "anomaly.wsad_dt", "bayes.aisivi", "bayes.icl_posterior",
    "bayes.pfn_regression", "bayes.spec_avg", "causal.brace_counterfactual", "causal.dml_ate",
    "causal.iv_cate_bounds", "causal.value_of_prediction", "cosmology.cmb_spectra", "cosmology.fit_cmb",
    "cosmology.fit_supernovae", "cosmology.summarize_chain", "lm.compositional_diversity", "lm.jola",
    "lm.knowledge_editing_stream", "lm.lora_symmetry", "lm.nolima", "lm.number_token_loss",
    "rl.diffusion_world_model", "rl.distinguishability_queries", "robustness.class_stability",
    "robustness.x_hacking", "theory.lif_snn_regions", "theory.tubal_tensor_gd",
]
TASK_KEYS = {"name", "file", "data", "via", "expect"}
EXPECT_KEYS = {"method", "arguments", "may_set", "ask", "candidates", "why"}
NOT_DATA = {"SOURCES.md"}
# The methods scientists reach for most: the brief asked for at least 10 tasks beyond one per method among them.
MOST_USED = {"causal.dml_ate", "cosmology.fit_supernovae", "cosmology.fit_cmb", "cosmology.cmb_spectra",
             "alignment.survey_benchmark", "anomaly.wsad_dt", "robustness.class_stability",
             "cosmology.summarize_chain"}
SHARED_WORDS = 8  # a run of this many words in common with an earlier task text or example counts as borrowed
MAX_BYTES = 1_000_000


def method_of(task: dict[str, Any]) -> str | None:
    method = task["expect"].get("method")
    return None if method in (None, "none") else method


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def test_manifest_shape() -> None:
    assert MANIFEST["version"] == 1
    names = [t["name"] for t in TASKS]
    assert len(names) == len(set(names)), "duplicate task names"
    for task in TASKS:
        where = task.get("name", task)
        assert set(task) <= TASK_KEYS, f"{where}: unknown keys {set(task) - TASK_KEYS}"
        assert TASK_KEYS <= set(task), f"{where}: missing keys {TASK_KEYS - set(task)}"
        assert task["file"] == f"tasks/{task['name']}.md", f"{where}: file must be tasks/<name>.md"
        assert task["via"] in ("path", "--data"), f"{where}: via is path or --data"
        assert isinstance(task["data"], list)
        expect = task["expect"]
        assert set(expect) <= EXPECT_KEYS, f"{where}: unknown expect keys (this set has no answers) " \
                                           f"{set(expect) - EXPECT_KEYS}"
        if expect.get("ask"):
            assert set(expect) == {"ask", "candidates", "why"} and expect["candidates"] and expect["why"], \
                f"{where}: an ask task has exactly ask, candidates and why"
        elif expect["method"] == "none":
            assert set(expect) == {"method", "why"}, f"{where}: a task with no method expects only its why"
        else:
            assert isinstance(expect.get("arguments"), dict) and expect["arguments"], f"{where}: arguments"


def test_coverage() -> None:
    assert len(TASKS) >= 40
    counts = {m: sum(method_of(t) == m for t in TASKS) for m in COVERED}
    assert all(counts.values()), [m for m, n in counts.items() if not n]
    extra = sum(counts[m] - 1 for m in MOST_USED)
    assert extra >= 10, f"only {extra} tasks beyond the first for the most used methods"
    assert sum(t["expect"].get("method") == "none" for t in TASKS) >= 4
    assert sum(bool(t["expect"].get("ask")) for t in TASKS) >= 4


def test_every_catalogue_method_is_covered() -> None:
    """A method added to the catalogue after this set was written needs blind tasks of its own."""
    catalogue = sorted(spec.name for spec in iter_methods()
                       if spec.function.__module__.startswith("cmbagent.tools.methods."))
    assert sorted(COVERED) == catalogue, f"new: {set(catalogue) - set(COVERED)}; gone: {set(COVERED) - set(catalogue)}"


def test_every_file_exists_and_is_used() -> None:
    listed = {t["file"] for t in TASKS}
    on_disk = {f"tasks/{p.name}" for p in (HERE / "tasks").glob("*.md")}
    assert listed == on_disk, f"in the manifest only: {listed - on_disk}; on disk only: {on_disk - listed}"
    used = {rel for t in TASKS for rel in t["data"]}
    for rel in used:
        assert rel.startswith("data/") and (HERE / rel).is_file(), f"{rel} does not exist"
    files = {f"data/{p.name}" for p in DATA.iterdir() if p.name not in NOT_DATA}
    assert files == used, f"unused data files: {files - used}; missing: {used - files}"
    size = sum(p.stat().st_size for p in DATA.rglob("*") if p.is_file())
    assert size <= MAX_BYTES, f"data/ holds {size} bytes; keep it at most {MAX_BYTES}"


def test_unseen_by_the_earlier_sets_and_the_examples() -> None:
    """No task name or data file name of the earlier sets or the examples, and no run of words from their texts."""
    theirs_names: set[str] = set()
    theirs_files: set[str] = set()
    texts = list(EXAMPLES.glob("*.md"))
    for folder in EARLIER:
        theirs_names |= {t["name"] for t in yaml.safe_load((folder / "tasks.yaml").read_text())["tasks"]}
        theirs_files |= {p.name for p in (folder / "data").rglob("*")}
        texts += list((folder / "tasks").glob("*.md"))
    theirs_files |= {p.name for p in (EXAMPLES / "data").rglob("*")}
    assert WRITTEN_BEFORE <= {p.name for p in EARLIER}, f"an earlier set is missing: {WRITTEN_BEFORE}"
    assert len(texts) > 180, "the earlier task texts were not found"
    assert not {t["name"] for t in TASKS} & theirs_names
    ours = {p.name for p in DATA.iterdir()} - NOT_DATA
    assert not ours & theirs_files, f"data file names used before: {ours & theirs_files}"
    seen: set[tuple[str, ...]] = set()
    for path in texts:
        w = words(path.read_text())
        seen |= {tuple(w[i:i + SHARED_WORDS]) for i in range(len(w) - SHARED_WORDS + 1)}
    borrowed = {}
    for task in TASKS:
        w = words((HERE / task["file"]).read_text())
        shared = [" ".join(w[i:i + SHARED_WORDS]) for i in range(len(w) - SHARED_WORDS + 1)
                  if tuple(w[i:i + SHARED_WORDS]) in seen]
        if shared:
            borrowed[task["name"]] = shared[:2]
    assert not borrowed, f"tasks repeating earlier wording: {borrowed}"


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t["name"])
def test_text_is_prose(task: dict[str, Any]) -> None:
    """No front matter, no method name, no `name: value` argument; exactly the manifest's files named."""
    text = (HERE / task["file"]).read_text()
    assert not text.lstrip().startswith("---"), "front matter"
    assert len(text.split()) >= 15, "too short to be a task"
    lowered = text.lower()
    for name in COVERED:
        assert name not in lowered and name.split(".")[1] not in lowered, f"names the method {name}"
    method = method_of(task)
    if method:
        for arg in get_method(method).arguments:
            if "_" in arg:
                assert not re.search(rf"\b{arg}\s*[:=]", text), f"writes the argument {arg!r} as name: value"
    named = {n.rstrip("/") for n in re.findall(r"data/[\w./-]+\w/?", text)}
    if task["via"] == "path":
        assert named == set(task["data"]), f"named {sorted(named)}, manifest {task['data']}"
    else:
        assert not named, f"a --data task names paths {named}"
        assert task["data"], "a --data task passes at least one file"


@pytest.mark.parametrize("task", [t for t in TASKS if method_of(t)], ids=lambda t: t["name"])
def test_arguments_pass_the_method_schema(task: dict[str, Any]) -> None:
    method = method_of(task)
    assert method is not None
    spec = get_method(method)
    expect = task["expect"]
    for group in ("arguments", "may_set"):
        args = expect.get(group, {})
        assert set(args) <= set(spec.arguments), f"not arguments of {method}: {set(args) - set(spec.arguments)}"
        problems = argument_problems(method, args, require=False)
        assert not problems, [str(p) for p in problems]
    missing = [a for a in spec.required if a not in expect["arguments"]]
    assert not missing, f"required arguments of {method} the text must determine: {missing}"
    assert not set(expect.get("may_set", {})) & set(expect["arguments"]), "an argument both expected and optional"
    for arg, kind in path_arguments(method).items():
        value = expect["arguments"].get(arg)
        values = value if isinstance(value, list) else [value]
        if kind == "input" and value is not None:
            assert all(v in task["data"] for v in values), f"{arg}={value} is not among the task's data"
    passed = set()
    for value in expect["arguments"].values():
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str) and v.startswith("data/"):
                passed.add(v)
    assert passed == set(task["data"]), f"files the task has but no argument takes: {set(task['data']) - passed}"


@pytest.mark.parametrize("task", [t for t in TASKS if t["expect"].get("ask")], ids=lambda t: t["name"])
def test_ask_candidates_exist(task: dict[str, Any]) -> None:
    for cand in task["expect"]["candidates"]:
        assert cand in COVERED, cand
        get_method(cand)


def load_make_data() -> ModuleType:
    spec = importlib.util.spec_from_file_location("blind5_set_make_data", HERE / "make_data.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def digest(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name not in NOT_DATA}


def test_make_data_regenerates_identical_files(tmp_path: Path) -> None:
    load_make_data().generate(tmp_path)
    fresh, committed = digest(tmp_path), digest(DATA)
    assert fresh.keys() == committed.keys(), set(fresh) ^ set(committed)
    changed = [name for name in fresh if fresh[name] != committed[name]]
    assert not changed, f"make_data.py no longer reproduces {changed}"
