"""The checks of a prose task set itself (tasks.yaml, tasks/, data/), not of the reader that is measured on it.

A set measures the reader only if it is sound and really unseen: every expected method and argument is one the
catalogue accepts, every file is the one the text names, the data regenerate byte for byte from the set's
``make_data.py``, and neither the data nor the wording is borrowed from the sets written before it or from the
examples. A set's ``test_set.py`` describes itself with a ``ProseSet`` (a blind set from the fourth on with
``blind_set``, which states what those sets promise alike) and inherits every check::

    class TestSixthBlindSet(ProseSetChecks):
        prose_set = blind_set(__file__, min_tasks=40, min_ask=4, min_texts=220)

The per-task checks are parametrised by task name (``pytest_generate_tests`` below): ``task`` runs over every
task, ``method_task`` over the tasks that expect a method, ``ask_task`` over the tasks answered with a question.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import pytest
import yaml

from cmbagent.tools.methods import argument_problems, get_method, iter_methods, path_arguments

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
NOT_DATA = frozenset({"SOURCES.md"})  # documentation inside data/, not made by make_data.py
TASK_KEYS = frozenset({"name", "file", "data", "via", "expect"})
EXPECT_KEYS = frozenset({"method", "arguments", "may_set", "ask", "candidates", "why"})
# A set with answers (the held-out set) may also state, per task, an answer and the issue case it stands for.
ANSWER_TASK_KEYS = frozenset({"issue_case"})
ANSWER_EXPECT_KEYS = frozenset({"answer", "unconstrained"})
ANSWER_KEYS = frozenset({"value", "equals", "tolerance", "why"})
SHARED_WORDS = 8  # a run of this many words in common with an earlier task text or example counts as borrowed

#: The 26 methods of `cmbagent methods list` since the two CMB methods joined (the catalogue the held-out, blind,
#: fourth, fifth and sixth blind sets were written against).
CATALOGUE_26 = (
    "alignment.survey_benchmark", "anomaly.wsad_dt", "bayes.aisivi", "bayes.icl_posterior",
    "bayes.pfn_regression", "bayes.spec_avg", "causal.brace_counterfactual", "causal.dml_ate",
    "causal.iv_cate_bounds", "causal.value_of_prediction", "cosmology.cmb_spectra", "cosmology.fit_cmb",
    "cosmology.fit_supernovae", "cosmology.summarize_chain", "lm.compositional_diversity", "lm.jola",
    "lm.knowledge_editing_stream", "lm.lora_symmetry", "lm.nolima", "lm.number_token_loss",
    "rl.diffusion_world_model", "rl.distinguishability_queries", "robustness.class_stability",
    "robustness.x_hacking", "theory.lif_snn_regions", "theory.tubal_tensor_gd",
)
#: The methods scientists reach for most: the blind sets from the fourth on have at least 10 tasks beyond one
#: per method among them.
MOST_USED = frozenset({
    "causal.dml_ate", "cosmology.fit_supernovae", "cosmology.fit_cmb", "cosmology.cmb_spectra",
    "alignment.survey_benchmark", "anomaly.wsad_dt", "robustness.class_stability", "cosmology.summarize_chain",
})
#: The prose sets (folders under tests/) in the order they were written; a blind set is compared with every other
#: set, and those written before it must be among the ones found (``blind_set``). A new set is added at the end.
WRITTEN_IN_ORDER = (
    "understanding", "understanding_heldout", "understanding_blind", "understanding_blind4", "understanding_blind5",
    "understanding_blind6", "understanding_blind7", "understanding_blind8", "understanding_blind9",
    "understanding_blind10", "understanding_blind11", "understanding_blind12", "understanding_blind13",
    "understanding_blind14", "understanding_blind15", "understanding_blind16", "understanding_blind17",
    "understanding_blind18", "understanding_blind19", "understanding_blind20", "understanding_blind21",
    "understanding_blind22",
    "understanding_blind23",
    "understanding_blind24",
    "understanding_blind25",
    "understanding_blind26",
    "understanding_blind27",
    "understanding_blind28",
    "understanding_blind29",
    "understanding_blind30",
    "understanding_blind31",
    "understanding_blind32",
)


@dataclass(frozen=True)
class ProseSet:
    """One prose set and what it promises: its coverage, the sets it is unseen by, the size of its data."""

    folder: Path
    #: the catalogue when the set was written; a method added later is not silently counted as covered
    covered: tuple[str, ...]
    min_tasks: int
    min_none: int
    min_ask: int
    #: at least ``min_extra`` tasks beyond the first for the methods in ``most_used``
    most_used: frozenset[str] = frozenset()
    min_extra: int = 0
    #: the folders (names under tests/) the set is compared with; None: every other folder tests/understanding*
    #: with a manifest, the earlier sets and any added later
    earlier: tuple[str, ...] | None = None
    #: with ``earlier=None``: the sets written before this one, which must be among those compared with
    written_before: frozenset[str] = frozenset()
    #: the number of task texts and examples the comparison must find (so that a moved folder cannot pass it)
    min_texts: int = 0
    #: the set states answers (``answer`` in expect, ``issue_case`` per task; reference/ computes them)
    answers: bool = False
    #: files make_data.py writes into data/ that no task names (the held-out set's truths.json)
    unnamed_data: frozenset[str] = frozenset()
    max_bytes: int = 1_000_000

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @cached_property
    def manifest(self) -> dict[str, Any]:
        return yaml.safe_load((self.folder / "tasks.yaml").read_text())

    @property
    def tasks(self) -> list[dict[str, Any]]:
        return self.manifest["tasks"]

    @property
    def method_tasks(self) -> list[dict[str, Any]]:
        return [t for t in self.tasks if method_of(t)]

    @property
    def ask_tasks(self) -> list[dict[str, Any]]:
        return [t for t in self.tasks if t["expect"].get("ask")]

    def earlier_folders(self) -> list[Path]:
        if self.earlier is not None:
            return [ROOT / "tests" / name for name in self.earlier]
        return sorted(p for p in (ROOT / "tests").glob("understanding*")
                      if p.is_dir() and p != self.folder and (p / "tasks.yaml").is_file())

    def load(self, relative: str) -> ModuleType:
        """A Python file of the set (make_data.py, reference/answers.py) as a module of its own."""
        path = self.folder / relative
        spec = importlib.util.spec_from_file_location(f"{self.folder.name}_{path.stem}", path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


def blind_set(test_file: str, *, min_tasks: int, min_ask: int, min_texts: int) -> ProseSet:
    """A blind set from the fourth on, as its ``test_set.py`` (``test_file``, its ``__file__``) describes it.

    What those sets promise alike is stated here once: each was written against ``CATALOGUE_26`` (`cmbagent
    methods list` when it was written); each has at least 4 tasks that need no method and 10 tasks beyond one per
    method among ``MOST_USED``; each states no answers; each is compared with every other set and the examples,
    and the sets written before it (``WRITTEN_IN_ORDER``) must be among those found. A set states what is its own:
    its size, how many tasks are answered with a question, and how many earlier texts the comparison must find (so
    that a moved folder cannot pass it)."""
    folder = Path(test_file).resolve().parent
    if folder.name not in WRITTEN_IN_ORDER:
        raise ValueError(f"{folder.name} is not in WRITTEN_IN_ORDER: add it after the sets written before it")
    before = frozenset(WRITTEN_IN_ORDER[:WRITTEN_IN_ORDER.index(folder.name)])
    return ProseSet(folder, covered=CATALOGUE_26, min_tasks=min_tasks, min_none=4, min_ask=min_ask,
                    most_used=MOST_USED, min_extra=10, written_before=before, min_texts=min_texts)


def method_of(task: dict[str, Any]) -> str | None:
    method = task["expect"].get("method")
    return None if method in (None, "none") else method


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def runs(text: str, n: int = SHARED_WORDS) -> list[tuple[str, ...]]:
    w = words(text)
    return [tuple(w[i:i + n]) for i in range(len(w) - n + 1)]


def check_prose(text: str, covered: Collection[str], method: str | None) -> None:
    """No front matter, long enough to be a task, no name of a covered method, no argument of the expected method
    written as ``name: value``: what every prose set checks of a task's text (the public set, which checks the
    files a text names in its own way, calls this from its ``test_set.py``)."""
    assert not text.lstrip().startswith("---"), "front matter"
    assert len(text.split()) >= 15, "too short to be a task"
    lowered = text.lower()
    for name in covered:
        assert name not in lowered and name.split(".")[1] not in lowered, f"names the method {name}"
    if method:
        for arg in get_method(method).arguments:
            if "_" in arg:  # plain words (data, model, label) are English too
                assert not re.search(rf"\b{arg}\s*[:=]", text), f"writes the argument {arg!r} as name: value"


def check_expected_call(method: str, expect: Mapping[str, Any]) -> None:
    """The expected arguments and the optional ones (``may_set``) are arguments of ``method`` that pass its schema,
    and every argument it requires is expected: what every prose set checks of an expected call (the public set,
    which keeps checks of its own, calls this from its ``test_set.py``)."""
    spec = get_method(method)  # raises for an unknown method
    for group in ("arguments", "may_set"):
        args = expect.get(group, {})
        assert set(args) <= set(spec.arguments), f"not arguments of {method}: {set(args) - set(spec.arguments)}"
        problems = argument_problems(method, args, require=False)
        assert not problems, [str(p) for p in problems]
    missing = [a for a in spec.required if a not in expect["arguments"]]
    assert not missing, f"required arguments of {method} the text must determine: {missing}"


def digest(root: Path, skip: Collection[str] = NOT_DATA) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name not in skip}


class ProseSetChecks:
    """Every check of a prose set; a set's test class sets ``prose_set`` and inherits them."""

    prose_set: ClassVar[ProseSet]

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        s = self.prose_set
        for fixture, tasks in (("task", s.tasks), ("method_task", s.method_tasks), ("ask_task", s.ask_tasks)):
            if fixture in metafunc.fixturenames:
                metafunc.parametrize(fixture, tasks, ids=[t["name"] for t in tasks])

    def test_manifest_shape(self) -> None:
        s = self.prose_set
        assert s.manifest["version"] == 1
        names = [t["name"] for t in s.tasks]
        assert len(names) == len(set(names)), "duplicate task names"
        task_keys = TASK_KEYS | (ANSWER_TASK_KEYS if s.answers else frozenset())
        expect_keys = EXPECT_KEYS | (ANSWER_EXPECT_KEYS if s.answers else frozenset())
        for task in s.tasks:
            where = task.get("name", task)
            assert set(task) <= task_keys, f"{where}: unknown keys {set(task) - task_keys}"
            assert TASK_KEYS <= set(task), f"{where}: missing keys {TASK_KEYS - set(task)}"
            assert task["file"] == f"tasks/{task['name']}.md", f"{where}: file must be tasks/<name>.md"
            assert task["via"] in ("path", "--data"), f"{where}: via is path or --data"
            assert isinstance(task["data"], list)
            expect = task["expect"]
            assert set(expect) <= expect_keys, f"{where}: unknown expect keys {set(expect) - expect_keys}" + (
                "" if s.answers else " (this set has no answers)")
            if expect.get("ask"):
                assert set(expect) == {"ask", "candidates", "why"} and expect["candidates"] and expect["why"], \
                    f"{where}: an ask task has exactly ask, candidates and why"
            elif expect["method"] == "none":
                assert set(expect) == {"method", "why"}, f"{where}: a task with no method expects only its why"
            else:
                assert isinstance(expect.get("arguments"), dict) and expect["arguments"], f"{where}: arguments"
            if "answer" in expect:
                answer = expect["answer"]
                assert set(answer) == ANSWER_KEYS, f"{where}: answer needs exactly {sorted(ANSWER_KEYS)}"
                assert isinstance(answer["equals"], (int, float)) and answer["tolerance"] > 0

    def test_coverage(self) -> None:
        s = self.prose_set
        assert len(s.tasks) >= s.min_tasks
        counts = {m: sum(method_of(t) == m for t in s.tasks) for m in s.covered}
        assert all(counts.values()), [m for m, n in counts.items() if not n]
        extra = sum(counts[m] - 1 for m in s.most_used)
        assert extra >= s.min_extra, f"only {extra} tasks beyond the first for the most used methods"
        assert sum(t["expect"].get("method") == "none" for t in s.tasks) >= s.min_none
        assert sum(bool(t["expect"].get("ask")) for t in s.tasks) >= s.min_ask

    def test_every_catalogue_method_is_covered(self) -> None:
        """A method added to the catalogue after the set was written needs unseen tasks of its own."""
        # the product's methods (a test may register a method of its own, e.g. testfamily.*, in the same process)
        catalogue = sorted(spec.name for spec in iter_methods()
                           if spec.function.__module__.startswith("cmbagent.tools.methods."))
        covered = self.prose_set.covered
        assert sorted(covered) == catalogue, \
            f"new: {set(catalogue) - set(covered)}; gone: {set(covered) - set(catalogue)}"

    def test_every_file_exists_and_is_used(self) -> None:
        s = self.prose_set
        listed = {t["file"] for t in s.tasks}
        on_disk = {f"tasks/{p.name}" for p in (s.folder / "tasks").glob("*.md")}
        assert listed == on_disk, f"in the manifest only: {listed - on_disk}; on disk only: {on_disk - listed}"
        used = {rel for t in s.tasks for rel in t["data"]}
        for rel in used:
            assert rel.startswith("data/") and (s.folder / rel).is_file(), f"{rel} does not exist"
        files = {f"data/{p.name}" for p in s.data.iterdir() if p.name not in NOT_DATA | s.unnamed_data}
        assert files == used, f"unused data files: {files - used}; missing: {used - files}"
        size = sum(p.stat().st_size for p in s.data.rglob("*") if p.is_file())
        assert size <= s.max_bytes, f"data/ holds {size} bytes; keep it at most {s.max_bytes}"

    def test_unseen_by_the_earlier_sets_and_the_examples(self) -> None:
        """No task name or data file name of the earlier sets or the examples, and no run of words from their
        texts."""
        s = self.prose_set
        earlier = s.earlier_folders()
        theirs_names: set[str] = set()
        theirs_files = {p.name for p in (EXAMPLES / "data").rglob("*")}
        texts = list(EXAMPLES.glob("*.md"))
        for folder in earlier:
            theirs_names |= {t["name"] for t in yaml.safe_load((folder / "tasks.yaml").read_text())["tasks"]}
            theirs_files |= {p.name for p in (folder / "data").rglob("*")}
            texts += list((folder / "tasks").glob("*.md"))
        assert s.written_before <= {p.name for p in earlier}, f"an earlier set is missing: {s.written_before}"
        assert len(texts) > s.min_texts, "the earlier task texts were not found"
        assert not {t["name"] for t in s.tasks} & theirs_names
        ours = {p.name for p in s.data.iterdir()} - NOT_DATA - s.unnamed_data
        assert not ours & theirs_files, f"data file names used before: {ours & theirs_files}"
        seen: set[tuple[str, ...]] = set()
        for path in texts:
            seen.update(runs(path.read_text()))
        borrowed = {}
        for task in s.tasks:
            shared = [" ".join(r) for r in runs((s.folder / task["file"]).read_text()) if r in seen]
            if shared:
                borrowed[task["name"]] = shared[:2]
        assert not borrowed, f"tasks repeating earlier wording: {borrowed}"

    def test_text_is_prose(self, task: dict[str, Any]) -> None:
        """No front matter, no method name, no `name: value` argument; exactly the manifest's files named."""
        s = self.prose_set
        text = (s.folder / task["file"]).read_text()
        check_prose(text, s.covered, method_of(task))
        named = {n.rstrip("/") for n in re.findall(r"data/[\w./-]+\w/?", text)}
        if task["via"] == "path":
            assert named == set(task["data"]), f"named {sorted(named)}, manifest {task['data']}"
        else:
            assert not named, f"a --data task names paths {named}"
            assert task["data"], "a --data task passes at least one file"

    def test_arguments_pass_the_method_schema(self, method_task: dict[str, Any]) -> None:
        method = method_of(method_task)
        assert method is not None
        expect = method_task["expect"]
        check_expected_call(method, expect)
        assert not set(expect.get("may_set", {})) & set(expect["arguments"]), "an argument both expected and optional"
        for arg, kind in path_arguments(method).items():
            value = expect["arguments"].get(arg)
            values = value if isinstance(value, list) else [value]
            if kind == "input" and value is not None:
                assert all(v in method_task["data"] for v in values), f"{arg}={value} is not among the task's data"
        passed = set()
        for value in expect["arguments"].values():
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and v.startswith("data/"):
                    passed.add(v)
        assert passed == set(method_task["data"]), \
            f"files the task has but no argument takes: {set(method_task['data']) - passed}"

    def test_ask_candidates_exist(self, ask_task: dict[str, Any]) -> None:
        for cand in ask_task["expect"]["candidates"]:
            assert cand in self.prose_set.covered, cand
            get_method(cand)

    def test_make_data_regenerates_identical_files(self, tmp_path: Path) -> None:
        s = self.prose_set
        s.load("make_data.py").generate(tmp_path)
        fresh, committed = digest(tmp_path), digest(s.data)
        assert fresh.keys() == committed.keys(), set(fresh) ^ set(committed)
        changed = [name for name in fresh if fresh[name] != committed[name]]
        assert not changed, f"make_data.py no longer reproduces {changed}"
