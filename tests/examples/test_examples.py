"""The examples table cannot drift: examples/README.md is generated from examples/results.json, every example
has its row, and fresh runs of a representative subset match the stored numbers within the tolerances each
example states under ``expected:`` — and replay strictly right after running.

The subset (about three minutes of runs and replays on two busy cores): ``supernova_jla.md`` (cosmology, an
emcee fit with a full covariance), ``causal_dml_ihdp.md`` (causal, interactive DML: the example whose table
row had drifted) and ``causal_brace.md`` (causal, convex programmes).  The other examples (anomaly detection,
robustness and the other method families) take up to three minutes each with their replay — all
twenty-five took 7.5 minutes, two at a time, on the same machine — so ``python scripts/examples_table.py``
runs all of them, each with a strict replay, and regenerates the table.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUBSET = ("supernova_jla.md", "causal_dml_ihdp.md", "causal_brace.md")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("examples_table", ROOT / "scripts" / "examples_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TABLE = _script()


def test_the_readme_table_is_the_rendering_of_the_results() -> None:
    results = TABLE.load_results()
    readme = (ROOT / "examples" / "README.md").read_text(encoding="utf-8")
    inside = readme.split(TABLE.BEGIN, 1)[1].split(TABLE.END, 1)[0].strip()
    assert inside == TABLE.render_table(results), "regenerate it: python scripts/examples_table.py"


def test_every_example_has_its_row_with_the_tolerances_it_states() -> None:
    rows = TABLE.load_results()["examples"]
    names = {p.name for p in TABLE.examples()}
    assert set(rows) == names, ("add the new example's row: python scripts/examples_table.py --only "
                                f"{sorted(names - set(rows))}; stale rows: {sorted(set(rows) - names)}")
    for path in TABLE.examples():
        declared = TABLE.front_matter(path).get("expected")
        if declared:
            assert rows[path.name]["tolerance"] == declared, path.name
        assert rows[path.name]["status"] == "done" and rows[path.name]["replay"].get("identical") is True, (
            path.name, "its strict replay differs")
        assert None not in rows[path.name]["values"].values(), (path.name, "a path under expected: names no value")


def test_tolerances_and_paths_mean_what_the_script_says() -> None:
    values = {"ate": {"mean": 4.01, "std": 0.1}, "per_k": [{"u": 0.1}, {"u": 0.3}], "ok": True}
    assert TABLE.lookup(values, "per_k.1.u") == 0.3 and TABLE.lookup(values, "ate.mean") == 4.01
    with pytest.raises(KeyError):
        TABLE.lookup(values, "ate.median")
    assert TABLE.within(4.01, 4.02, 0.02)[0] and not TABLE.within(4.01, 4.05, 0.02)[0]
    assert TABLE.within(100.0, 104.0, "5%")[0] and not TABLE.within(100.0, 106.0, "5%")[0]
    assert TABLE.within(True, True, "exact")[0] and not TABLE.within("ATE", "variance-weighted effect", "exact")[0]
    assert TABLE.headline({"Omega_m": {"mean": 0.3, "std": 0.02}, "chi2": 33.6, "dof": 29, "n": 31}) == {
        "Omega_m.mean": "5%", "Omega_m.std": "5%", "chi2": "5%", "dof": "5%"}


@pytest.mark.slow
@pytest.mark.parametrize("name", SUBSET)
def test_a_fresh_run_matches_the_table_and_replays_strictly(name: str, tmp_path: Path) -> None:
    stored = TABLE.load_results()["examples"][name]
    fresh = TABLE.run_example(ROOT / "examples" / name, tmp_path / "ws", replay=True)
    assert TABLE.compare(stored, fresh) == [], json.dumps(fresh, indent=1)
    checklist = json.loads((Path(fresh["run_dir"]) / "requirements.json").read_text())
    assert checklist["unmet"] == 0 and checklist["met"] > 0, checklist  # the example does what it asks
