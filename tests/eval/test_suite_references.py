"""The shipped research suite (evals/research) is what it claims: at least 40 prose tasks without front matter,
about half answered by a method tool and half by code, with tasks that cannot be done as asked; every
expected number of every grader is reproduced by the suite's independent reference scripts (numpy, scipy,
pandas, scikit-learn; never cmbagent's tools), every premise of a cannot-be-done task holds on the data,
and the synthetic tables are exactly what their generator writes.

The reference scripts run here in parallel, one thread each: about 35 s of CPU in all (supernova grid
posteriors ~10 s, cross-fitted AIPW on 9,915 households ~10 s, bootstrap and isolation-forest seeds ~8 s).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cmbagent.eval import load_suite

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "evals" / "research"


@pytest.fixture(scope="module")
def suite() -> Any:
    return load_suite(SUITE)


@pytest.fixture(scope="module")
def references(suite: Any) -> dict[str, dict[str, Any]]:
    """Every reference script's output, ``{task: {name: value}}`` merged (each script run once)."""
    scripts = sorted({t.grader.reference for t in suite.tasks if t.grader.reference})
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    running = {s: subprocess.Popen([sys.executable, str(SUITE / s)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, env=env, cwd=SUITE) for s in scripts}
    merged: dict[str, dict[str, Any]] = {}
    for script, proc in running.items():
        out, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, f"{script} failed:\n{err[-2000:]}"
        for task, values in json.loads(out).items():
            assert task not in merged, f"{task} is computed by two reference scripts"
            merged[task] = values
    return merged


def test_the_suite_is_a_benchmark_of_prose_tasks(suite: Any) -> None:
    kinds = [t.kind for t in suite.tasks]
    assert len(suite.tasks) >= 40
    assert kinds.count("method") >= 18 and kinds.count("code") >= 18 and kinds.count("impossible") >= 4
    with_data = 0
    for task in suite.tasks:
        text = Path(task.path).read_text(encoding="utf-8")
        assert not text.startswith("---"), f"{task.name} has front matter"
        assert "method:" not in text and "arguments:" not in text, task.name
        named = [w.strip("`") for w in text.split() if w.startswith("`data/")]
        with_data += bool(named)
        for rel in named:
            rel = rel.rstrip(".,;:)`")
            assert (SUITE / rel).is_file(), f"{task.name} names {rel}, which the suite does not carry"
        for check in task.grader.checks:
            assert check.why.strip(), f"{task.name}: every check says why its tolerance is what it is"
        if task.kind == "method":
            assert task.grader.method, f"{task.name}: a method task names the tool that answers it"
        if task.kind == "impossible":
            assert any(c.kind == "says" for c in task.grader.checks), task.name
            assert task.grader.facts, f"{task.name}: the premise is checked on the data"
    assert with_data >= 40, "the tasks are about data the repository carries (a few are about a model alone)"


def _reproduced(expected: Any, computed: Any, check: Any) -> bool:
    if isinstance(expected, str):
        return computed == expected
    tol = check.tolerance
    if tol is not None and tol.abs is not None:
        margin = max(tol.abs / 5, 1e-9)
    elif tol is not None and tol.rel is not None:
        margin = tol.rel * abs(expected) / 5
    else:  # in the run's own σ: the grader rounds the reference to four significant figures
        margin = 5e-4 * abs(expected)
    return abs(float(computed) - float(expected)) <= margin


@pytest.mark.slow
def test_the_reference_scripts_reproduce_every_expected_answer(suite: Any, references: dict[str, dict[str, Any]]) -> None:
    problems = []
    for task in suite.tasks:
        computed = references.get(task.name, {})
        for name, fact in task.grader.facts.items():
            if name not in computed or abs(float(computed[name]) - fact) > 1e-6:
                problems.append(f"{task.name}: fact {name} = {fact}, the data say {computed.get(name)}")
        for check in task.grader.checks:
            if check.kind != "value":
                continue
            if check.value not in computed:
                problems.append(f"{task.name}: {check.value} is not computed by {task.grader.reference}")
                continue
            if not _reproduced(check.expected, computed[check.value], check):
                problems.append(f"{task.name}: {check.value} expected {check.expected}, reference gives "
                                f"{computed[check.value]}")
            spec = check.std
            if spec is not None and spec.expected is not None:
                std = next((computed[k] for k in (f"{check.value}_std", f"{check.value}_se") if k in computed), None)
                if std is None or abs(std - spec.expected) > 0.02 * spec.expected:
                    problems.append(f"{task.name}: std of {check.value} expected {spec.expected}, reference gives {std}")
    assert not problems, "\n".join(problems)


def test_the_synthetic_tables_are_what_the_generator_writes(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SUITE / "reference" / "make_data.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in tmp_path.iterdir())
    assert len(made) == 6
    for name in made:
        assert (tmp_path / name).read_bytes() == (SUITE / "data" / name).read_bytes(), name
