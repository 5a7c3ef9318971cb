"""Checks of the prose task set itself (tasks.yaml, tasks/, data/, reference/): not of the code that reads it.

The set is only a fair measure if it is internally right: every expected method and argument is one the
catalogue accepts, every file exists and is the one the text names, the data regenerate byte for byte from
make_data.py, and every stated answer is what the independent reference computation gives.
"""

from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from cmbagent.tools.methods import get_method, path_arguments
from tests.prose_sets.checks import NOT_DATA, check_expected_call, check_prose, digest, method_of

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
MANIFEST = yaml.safe_load((HERE / "tasks.yaml").read_text())
TASKS: list[dict[str, Any]] = MANIFEST["tasks"]
BY_NAME = {t["name"]: t for t in TASKS}

# The methods the set was written for (`cmbagent methods list` when it was written). A method added later
# needs its own tasks from its author; it is not silently counted here.
COVERED = [
    "anomaly.wsad_dt", "bayes.aisivi", "bayes.icl_posterior", "bayes.pfn_regression", "bayes.spec_avg",
    "causal.brace_counterfactual", "causal.dml_ate", "causal.iv_cate_bounds", "causal.value_of_prediction",
    "cosmology.fit_supernovae", "cosmology.summarize_chain", "lm.compositional_diversity", "lm.jola",
    "lm.knowledge_editing_stream", "lm.lora_symmetry", "lm.nolima", "lm.number_token_loss",
    "rl.diffusion_world_model", "rl.distinguishability_queries", "robustness.class_stability",
    "robustness.x_hacking", "theory.lif_snn_regions", "theory.tubal_tensor_gd",
]
TASK_KEYS = {"name", "file", "data", "via", "expect", "issue_case"}
EXPECT_KEYS = {"method", "arguments", "answer", "unconstrained", "may_set", "ask", "candidates", "why"}
ANSWER_KEYS = {"value", "equals", "tolerance", "why"}


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"prose_set_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_manifest_shape() -> None:
    assert MANIFEST["version"] == 1
    names = [t["name"] for t in TASKS]
    assert len(names) == len(set(names)), "duplicate task names"
    for task in TASKS:
        where = task.get("name", task)
        assert set(task) <= TASK_KEYS, f"{where}: unknown keys {set(task) - TASK_KEYS}"
        assert {"name", "file", "data", "via", "expect"} <= set(task), f"{where}: missing keys"
        assert task["file"] == f"tasks/{task['name']}.md", f"{where}: file must be tasks/<name>.md"
        assert task["via"] in ("path", "--data"), f"{where}: via is path or --data"
        assert isinstance(task["data"], list)
        expect = task["expect"]
        assert set(expect) <= EXPECT_KEYS, f"{where}: unknown expect keys {set(expect) - EXPECT_KEYS}"
        if expect.get("ask"):
            assert "method" not in expect and expect["candidates"], f"{where}: ask lists candidates, no method"
        elif expect["method"] == "none":
            assert set(expect) <= {"method", "why"}, f"{where}: a task with no method has nothing else to expect"
        else:
            assert isinstance(expect.get("arguments"), dict), f"{where}: a method task lists its arguments"
        if "answer" in expect:
            answer = expect["answer"]
            assert set(answer) == ANSWER_KEYS, f"{where}: answer needs exactly {sorted(ANSWER_KEYS)}"
            assert isinstance(answer["equals"], (int, float)) and answer["tolerance"] > 0
        for name in expect.get("unconstrained", []):
            assert isinstance(name, str)


def test_coverage() -> None:
    assert len(TASKS) >= 60
    counts = {m: sum(method_of(t) == m for t in TASKS) for m in COVERED}
    assert all(n >= 2 for n in counts.values()), {m: n for m, n in counts.items() if n < 2}
    assert sum(t["expect"].get("method") == "none" for t in TASKS) >= 8
    assert sum(bool(t["expect"].get("ask")) for t in TASKS) >= 4
    cases = sorted(t["issue_case"] for t in TASKS if "issue_case" in t)
    assert cases == [1, 2, 3, 4, 5, 6], "each situation of the issue appears exactly once"


def test_every_file_exists_and_is_used() -> None:
    listed = {t["file"] for t in TASKS}
    on_disk = {f"tasks/{p.name}" for p in (HERE / "tasks").glob("*.md")}
    assert listed == on_disk, f"in the manifest only: {listed - on_disk}; on disk only: {on_disk - listed}"
    used: set[str] = set()
    for task in TASKS:
        for rel in task["data"]:
            assert rel.startswith("data/") and (HERE / rel).exists(), f"{task['name']}: {rel} does not exist"
            used.add(rel)
    files = {str(p.relative_to(HERE)) for p in DATA.iterdir() if p.name not in NOT_DATA | {"truths.json"}}
    assert files == used, f"data files no task uses: {files - used}"
    size = sum(p.stat().st_size for p in DATA.rglob("*") if p.is_file())
    assert size < 3_000_000, f"data/ holds {size} bytes; keep it under 3 MB"


@pytest.mark.parametrize("task", TASKS, ids=lambda t: t["name"])
def test_text_is_prose(task: dict[str, Any]) -> None:
    """No front matter, no method name, no argument written as `name: value`; files named as the manifest says."""
    text = (HERE / task["file"]).read_text()
    check_prose(text, COVERED, method_of(task))  # the checks every prose set makes of a text
    named = {n.rstrip("/") for n in re.findall(r"data/[\w./-]+\w/?", text)}
    if task["via"] == "path":
        assert named <= set(task["data"]), f"unlisted files {named - set(task['data'])}"
        for rel in task["data"]:
            assert rel in text, f"{rel} is passed by path but the text does not name it"
    else:
        assert not named, f"a --data task names paths {named}"


@pytest.mark.parametrize("task", [t for t in TASKS if method_of(t)], ids=lambda t: t["name"])
def test_arguments_pass_the_method_schema(task: dict[str, Any]) -> None:
    method = method_of(task)
    assert method is not None
    expect = task["expect"]
    check_expected_call(method, expect)  # the checks every prose set makes of an expected call
    for arg, kind in path_arguments(method).items():
        value = expect["arguments"].get(arg)
        if kind == "input" and value is not None:
            assert value in task["data"], f"{arg}={value} is not among the task's data"
    for cand in expect.get("candidates", []):
        get_method(cand)


@pytest.mark.parametrize("task", [t for t in TASKS if t["expect"].get("ask")], ids=lambda t: t["name"])
def test_ask_candidates_exist(task: dict[str, Any]) -> None:
    for cand in task["expect"]["candidates"]:
        assert cand in COVERED, cand
        get_method(cand)


def test_make_data_regenerates_identical_files(tmp_path: Path) -> None:
    load(HERE / "make_data.py").generate(tmp_path)
    fresh, committed = digest(tmp_path), digest(DATA)
    assert fresh.keys() == committed.keys(), set(fresh) ^ set(committed)
    changed = [name for name in fresh if fresh[name] != committed[name]]
    assert not changed, f"make_data.py no longer reproduces {changed}"


def test_reference_reproduces_every_answer() -> None:
    """Each stated answer equals the reference computation to within 2% of its tolerance (rounding)."""
    answers = load(HERE / "reference" / "answers.py").ANSWERS
    with_answer = {t["name"] for t in TASKS if "answer" in t["expect"]}
    assert with_answer == set(answers), f"answers without reference: {with_answer - set(answers)}; " \
                                        f"reference without answer: {set(answers) - with_answer}"
    for name in sorted(with_answer):
        answer = BY_NAME[name]["expect"]["answer"]
        got = answers[name](DATA)
        assert math.isfinite(got)
        assert abs(got - answer["equals"]) <= 0.02 * answer["tolerance"], f"{name}: reference {got}, " \
                                                                         f"manifest {answer['equals']}"
