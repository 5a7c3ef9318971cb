"""bayes.spec_avg: exact invariance under a finite group, accuracy against tuned kernel ridge, bad generators."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.bayes import SpecAvg
from cmbagent.tools.methods.bayes._groups import group_order, parse_generators


@pytest.mark.slow
def test_sign_flips_on_the_torus_are_exact_and_competitive(tmp_path: Path) -> None:
    result = run_method("bayes.spec_avg", {"n_values": [100, 200, 400, 800], "seed": 0, "output_dir": str(tmp_path)})
    gap = result.values["invariance_gap"]
    assert gap["spec_avg"] <= 1e-10
    assert gap["kernel_ridge"] > 1e-2
    mse = [row["spec_avg_mse"] for row in result.values["sweep"]]
    assert all(b < a for a, b in itertools.pairwise(mse)), mse
    assert result.values["test_mse"]["ratio"] <= 2.0
    assert result.values["group_order"] == 4
    assert result.ok, result.checks
    assert (tmp_path / "spec_avg_mse.png").is_file()


def test_fitted_function_is_invariant_to_every_group_element() -> None:
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 2 * np.pi, size=(300, 3))
    y = np.cos(x[:, 0]) * np.cos(x[:, 1]) + np.cos(2 * x[:, 2]) + 0.1 * rng.normal(size=300)
    model = SpecAvg("torus", ["swap:0,1", "flip:0", "shift:2:2"]).fit(x, y)
    probe = rng.uniform(0, 2 * np.pi, size=(200, 3))
    base = model.predict(probe)
    swapped = probe[:, [1, 0, 2]]
    shifted = probe + np.array([0, 0, np.pi])
    for moved in (swapped, probe * [-1, -1, 1], shifted, swapped * [-1, 1, 1] + [0, 0, np.pi]):
        assert np.abs(model.predict(moved) - base).max() <= 1e-10
    assert model.group_order_ == 16


def test_sphere_rotations_and_reflections(tmp_path: Path) -> None:
    result = run_method("bayes.spec_avg", {"domain": "sphere", "n_values": [100, 400], "seed": 0,
                                           "output_dir": str(tmp_path)})
    assert result.values["group_order"] == 8
    assert result.values["invariance_gap"]["spec_avg"] <= 1e-10
    assert result.values["invariance_gap"]["kernel_ridge"] > 1e-2


def test_group_orders_by_closure() -> None:
    assert group_order(parse_generators(["flip:0", "flip:1"], domain="torus", dim=2)) == 4
    assert group_order(parse_generators(["swap:0,1", "flip:0"], domain="torus", dim=2)) == 8  # dihedral D4
    assert group_order(parse_generators(["shift:0:5"], domain="torus", dim=2)) == 5
    assert group_order(parse_generators(["rot:z:4", "reflect:z"], domain="sphere", dim=3)) == 8
    assert group_order(parse_generators(["perm:1,2,0"], domain="torus", dim=3)) == 3


def test_reads_a_users_table(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 2 * np.pi, size=(500, 2))
    y = np.cos(x[:, 0]) + np.cos(x[:, 0]) * np.cos(x[:, 1]) + 0.2 * rng.normal(size=500)
    table = tmp_path / "angles.csv"
    table.write_text("a,b,y\n" + "".join(f"{p},{q},{v}\n" for (p, q), v in zip(x, y, strict=True)))
    result = run_method("bayes.spec_avg", {"data": str(table), "n_values": [100, 300], "output_dir": str(tmp_path)})
    assert result.values["invariance_gap"]["spec_avg"] <= 1e-10
    assert result.values["test_mse"]["spec_avg"] < 0.1  # noise variance 0.04 plus a small estimation error


@pytest.mark.parametrize(("generators", "domain", "words"), [
    (["perm:0,0"], "torus", "not a bijection"),
    (["linear:2,0;0,1"], "torus", "not a bijection"),
    (["linear:1,1;0,1"], "torus", "not an isometry"),
    (["flip:5"], "torus", "outside"),
    (["twist:0"], "torus", "not a torus generator"),
    (["matrix:1,0.5,0;0,1,0;0,0,1"], "sphere", "not a bijection"),
    (["matrix:0.5403023058681398,-0.8414709848078965,0;0.8414709848078965,0.5403023058681398,0;0,0,1"], "sphere",
     "infinite"),
])
def test_bad_generators_name_the_argument(generators: list[str], domain: str, words: str, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="generators") as info:
        run_method("bayes.spec_avg", {"domain": domain, "generators": generators, "n_values": [50],
                                      "output_dir": str(tmp_path)})
    assert words in str(info.value)


def test_bad_data_name_the_argument(tmp_path: Path) -> None:
    table = tmp_path / "nan.csv"
    table.write_text("a,b,y\n" + "".join(f"{i * 0.1},{i * 0.2},{i}\n" for i in range(40)) + "0.5,nan,1\n")
    with pytest.raises(DataError, match="data"):
        run_method("bayes.spec_avg", {"data": str(table), "n_values": [20]})
    good = tmp_path / "good.csv"
    good.write_text("a,b,y\n" + "".join(f"{i * 0.1},{i * 0.2},{i}\n" for i in range(40)))
    other = tmp_path / "other.csv"
    other.write_text("a,c,y\n" + "".join(f"{i * 0.1},{i * 0.2},{i}\n" for i in range(10)))
    with pytest.raises(DataError, match="test"):
        run_method("bayes.spec_avg", {"data": str(good), "test": str(other), "n_values": [20]})
    with pytest.raises(UserError, match="data"):
        run_method("bayes.spec_avg", {"data": str(good), "domain": "sphere", "n_values": [20]})
    with pytest.raises(UserError, match="n_values"):
        run_method("bayes.spec_avg", {"data": str(good), "n_values": [500]})


@pytest.mark.slow
def test_kernel_ridge_baseline_is_tuned_like_a_careful_user_would(tmp_path: Path) -> None:
    """A swap-and-flip invariant target (not the example's): the tool's kernel ridge is within 10% of one tuned
    independently here (10-fold CV on a half-decade grid over α ∈ [1e-8, 10], γ ∈ [1e-3, 100]: the quarter-decade
    grid found the same optimum and test error in 3.5 times as long), and its optimum lies inside its grid."""
    from sklearn.kernel_ridge import KernelRidge
    from sklearn.model_selection import GridSearchCV, KFold

    rng = np.random.default_rng(11)
    x = rng.uniform(0, 2 * np.pi, size=(600, 2))

    def f(v: np.ndarray) -> np.ndarray:
        return np.cos(v[:, 0]) * np.cos(v[:, 1]) + 0.5 * np.cos(2 * v[:, 0]) + 0.5 * np.cos(2 * v[:, 1])

    y = f(x) + 0.2 * rng.normal(size=600)
    table = tmp_path / "train.csv"
    table.write_text("a,b,y\n" + "".join(f"{p},{q},{v}\n" for (p, q), v in zip(x[:400], y[:400], strict=True)))
    test = tmp_path / "test.csv"
    test.write_text("a,b,y\n" + "".join(f"{p},{q},{v}\n" for (p, q), v in zip(x[400:], f(x[400:]), strict=True)))
    result = run_method("bayes.spec_avg", {"data": str(table), "test": str(test), "n_values": [100, 400],
                                           "generators": ["swap:0,1", "flip:0"], "output_dir": str(tmp_path)})
    checks = {c.name: c for c in result.checks}
    assert checks["kernel ridge tuned to its CV optimum"].passed, checks
    embed = np.hstack([np.cos(x[:400]), np.sin(x[:400])])
    grid = {"alpha": 10.0 ** np.arange(-8, 1.01, 0.5), "gamma": 10.0 ** np.arange(-3, 2.01, 0.5)}
    search = GridSearchCV(KernelRidge(kernel="rbf"), grid, cv=KFold(10, shuffle=True, random_state=1),
                          scoring="neg_mean_squared_error").fit(embed, y[:400])
    independent = np.mean((search.predict(np.hstack([np.cos(x[400:]), np.sin(x[400:])])) - f(x[400:])) ** 2)
    assert result.values["test_mse"]["kernel_ridge"] <= 1.1 * independent, (result.values["test_mse"], independent)
    assert f"D = n^(1/(1+α)) = {result.values['truncation_D']}" in result.summary
    assert f"the {result.values['kept_eigenfunctions']} eigenfunctions" in result.summary


def test_error_falls_with_n_only_when_no_step_rises() -> None:
    from cmbagent.tools.methods.bayes.spec_avg import _falls

    def rows(mse: list[float]) -> list[dict[str, float]]:
        return [{"n": 100 * 2**i, "spec_avg_mse": m} for i, m in enumerate(mse)]

    assert _falls(rows([0.02, 0.011, 0.0067, 0.0037]))[0]
    assert not _falls(rows([0.02, 0.01, 0.015]))[0]  # ends below 70% of its start, yet rose at the last step
    assert not _falls(rows([0.01, 0.012]))[0]
