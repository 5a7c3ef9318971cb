"""causal.dml_ate: the validations of METHODS.md ("ATE with pre-trained representations")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import get_method, run_method
from cmbagent.tools.methods.causal import dml_ate
from cmbagent.tools.methods.causal._simulate import latent_confounding
from cmbagent.tools.methods.causal.dml import _scale_blocks, estimate_ate
from tests.conftest import EXAMPLE_DATA

COVARIATES_401K = ["age", "inc", "educ", "fsize", "marr", "twoearn", "db", "pira", "hown"]
IHDP_COLUMNS = ["treatment", "y_factual", "y_cfactual", "mu0", "mu1"] + [f"x{i}" for i in range(1, 26)]


def test_registered_with_schema() -> None:
    spec = get_method("causal.dml_ate")
    assert spec.paper.arxiv == "2506.14329"
    assert {"data", "outcome", "treatment"} <= set(spec.required)
    assert spec.arguments["model"]["enum"] == ["auto", "plr", "irm"]
    assert spec.arguments["model"]["default"] == "auto"


def _heterogeneous(tmp_path: Path) -> tuple[Path, float]:
    """A binary treatment whose effect (2 + 2·x0) grows where treatment is likely: the ATE (1.78 here) and
    the partially linear model's variance-weighted effect (1.29) differ by several standard errors."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(600, 3))
    d = (rng.uniform(size=600) < 1 / (1 + np.exp(-(1.5 * x[:, 0] + 1.0)))).astype(int)
    tau = 2 + 2 * x[:, 0]
    y = x[:, 0] + 0.5 * x[:, 1] + tau * d + 0.5 * rng.normal(size=600)
    path = tmp_path / "heterogeneous.csv"
    pd.DataFrame({"y": y, "d": d, "x0": x[:, 0], "x1": x[:, 1], "x2": x[:, 2]}).to_csv(path, index=False)
    return path, float(tau.mean())


@pytest.mark.slow
def test_the_default_estimates_the_ate_of_a_binary_treatment(tmp_path: Path) -> None:
    path, ate = _heterogeneous(tmp_path)
    default = dml_ate(str(path), "y", "d", ["x0", "x1", "x2"], output_dir=str(tmp_path))
    assert default.diagnostics["model"] == "irm" and default.values["estimand"] == "ATE"
    assert abs(default.values["ate"]["mean"] - ate) < 2.5 * default.values["ate"]["std"]
    assert "average treatment effect" in default.summary
    plr = dml_ate(str(path), "y", "d", ["x0", "x1", "x2"], model="plr", output_dir=str(tmp_path))
    assert plr.values["estimand"] == "variance-weighted effect" and "equals the ATE only when" in plr.summary
    assert abs(plr.values["ate"]["mean"] - ate) > 3 * plr.values["ate"]["std"]  # what the old default reported


def test_rotation_of_latent_features_leaves_estimate_unchanged() -> None:
    y, d, z = latent_confounding(300, seed=3)
    rotation = np.linalg.qr(np.random.default_rng(7).normal(size=(64, 64)))[0]
    for model in ("plr", "irm"):
        first = estimate_ate(y, d, _scale_blocks(None, z), model=model, learner="kernel_ridge", seed=1)
        rotated = estimate_ate(
            y, d, _scale_blocks(None, z @ rotation), model=model, learner="kernel_ridge", seed=1
        )
        assert abs(first["estimate"] - rotated["estimate"]) < 1e-8
        assert abs(first["se"] - rotated["se"]) < 1e-8


@pytest.mark.slow
def test_simulation_bias_and_coverage_over_50_replications() -> None:
    estimates, covered, naive_covered = [], [], []
    for rep in range(50):
        y, d, z = latent_confounding(500, seed=rep)
        fit = estimate_ate(y, d, _scale_blocks(None, z), model="plr", learner="kernel_ridge", seed=rep)
        estimates.append(fit["estimate"])
        covered.append(abs(fit["estimate"] - 1.0) <= 1.96 * fit["se"])
        t, c = y[d == 1], y[d == 0]
        naive, naive_se = t.mean() - c.mean(), np.sqrt(t.var() / t.size + c.var() / c.size)
        naive_covered.append(abs(naive - 1.0) <= 1.96 * naive_se)
    assert abs(np.mean(estimates) - 1.0) < 0.1
    assert np.mean(covered) >= 0.85
    assert np.mean(naive_covered) <= 0.05


def test_401k_eligibility_effect(tmp_path: Path) -> None:
    result = dml_ate(
        str(EXAMPLE_DATA / "causal" / "sipp1991.csv"),
        outcome="net_tfa",
        treatment="e401",
        covariates=COVARIATES_401K,
        output_dir=str(tmp_path),
    )
    ate = result.values["ate"]["mean"]
    naive = result.values["naive_difference"]["mean"]
    assert abs(naive - 19559.3) < 1.0
    assert 6000 < ate < 10500
    assert ate < naive / 2
    assert result.values["ci_95"][0] < ate < result.values["ci_95"][1]
    assert Path(result.artifacts[0]).is_file()


def test_ihdp_replications_1_to_5(reference_data: Path, tmp_path: Path) -> None:
    errors = []
    for rep in range(1, 6):
        frame = pd.read_csv(reference_data / f"causal/ihdp_npci_{rep}.csv.gz", header=None, names=IHDP_COLUMNS)
        path = tmp_path / f"ihdp_{rep}.csv"
        frame.to_csv(path, index=False)
        result = dml_ate(
            str(path),
            outcome="y_factual",
            treatment="treatment",
            covariates=IHDP_COLUMNS[5:],
            model="irm",
            output_dir=str(tmp_path),
        )
        truth = float((frame["mu1"] - frame["mu0"]).mean())
        errors.append(abs(result.values["ate"]["mean"] - truth) / truth)
    # measured with the default learner (kernel ridge): |errors| 0.003, 0.003, 0.043, 0.077, 0.085 (<= 2.0%)
    assert max(errors) < 0.05, errors


def test_text_column_is_embedded_and_adjusted_for(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    severity = rng.integers(0, 3, size=240)
    phrases = [
        "The patient feels fine and is recovering well.",
        "The patient has a moderate fever and a persistent cough.",
        "The patient is critically ill and struggling to breathe.",
    ]
    texts = [phrases[s] for s in severity]
    d = (rng.uniform(size=240) < np.array([0.15, 0.5, 0.85])[severity]).astype(int)
    y = 2.0 * d - 3.0 * severity + rng.normal(scale=0.5, size=240)
    path = tmp_path / "notes.csv"
    pd.DataFrame({"note": texts, "treated": d, "outcome": y}).to_csv(path, index=False)
    result = dml_ate(
        str(path),
        outcome="outcome",
        treatment="treated",
        text_column="note",
        n_folds=3,
        output_dir=str(tmp_path),
    )
    assert result.diagnostics["n_features"] == 384
    assert result.diagnostics["learner"] == "kernel_ridge"
    assert abs(result.values["ate"]["mean"] - 2.0) < 0.5
    assert abs(result.values["naive_difference"]["mean"] - 2.0) > 1.5


def _table(tmp_path: Path, **columns: object) -> str:
    path = tmp_path / "bad.csv"
    pd.DataFrame(columns).to_csv(path, index=False)
    return str(path)


def test_bad_inputs_name_the_argument(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=50)
    with pytest.raises(DataError, match="treatment"):
        dml_ate(_table(tmp_path, y=x, d=rng.normal(size=50), x=x), "y", "d", ["x"], model="irm")
    with pytest.raises(DataError, match="covariates"):
        dml_ate(
            _table(tmp_path, y=x, d=rng.integers(0, 2, 50), x=np.where(x > 1, np.nan, x)), "y", "d", ["x"]
        )
    with pytest.raises(DataError, match="constant"):
        dml_ate(_table(tmp_path, y=x, d=rng.integers(0, 2, 50), c=np.ones(50)), "y", "d", ["c"])
    emb = tmp_path / "emb.npy"
    np.save(emb, rng.normal(size=(40, 8)))
    with pytest.raises(DataError, match="mismatched lengths"):
        dml_ate(_table(tmp_path, y=x, d=rng.integers(0, 2, 50)), "y", "d", embeddings=str(emb))
    with pytest.raises(UserError, match="covariates, embeddings, text_column"):
        dml_ate(_table(tmp_path, y=x, d=rng.integers(0, 2, 50)), "y", "d")
    with pytest.raises(UserError, match="invalid arguments"):
        run_method("causal.dml_ate", {"data": "x.csv", "outcome": "y", "treatment": "d", "model": "iv"})


def _headerless(tmp_path: Path) -> tuple[Path, list[str]]:
    """A confounded binary treatment with a constant effect of 1.5, written without a header row."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(500, 2))
    d = (rng.uniform(size=500) < 1 / (1 + np.exp(-(x[:, 0] - 0.5 * x[:, 1])))).astype(int)
    y = 1.5 * d + 2 * x[:, 0] + np.sin(x[:, 1]) + rng.normal(size=500)
    path = tmp_path / "no_header.csv"
    pd.DataFrame({"y": y, "d": d, "x1": x[:, 0], "x2": x[:, 1]}).to_csv(path, index=False, header=False)
    return path, ["y", "d", "x1", "x2"]


def test_a_file_without_a_header_is_named_as_such_and_column_names_read_it(tmp_path: Path) -> None:
    path, names = _headerless(tmp_path)
    args = {"data": str(path), "outcome": "y", "treatment": "d", "covariates": ["x1", "x2"],
            "output_dir": str(tmp_path)}
    with pytest.raises(UserError, match="appears to have no header row") as error:
        run_method("causal.dml_ate", args)
    assert "column_names=[...]" in str(error.value) and "4 columns" in str(error.value)
    result = run_method("causal.dml_ate", {**args, "column_names": names})
    assert result.diagnostics["n_units"] == 500  # the first line is a unit, not a header
    ate = result.values["ate"]
    assert abs(ate["mean"] - 1.5) < 3 * ate["std"], ate
    # a wrong count, or names for a file that has its header, are refused rather than misread
    with pytest.raises(UserError, match="3 name"):
        run_method("causal.dml_ate", {**args, "column_names": names[:3]})
    with_header = tmp_path / "with_header.csv"
    pd.read_csv(path, header=None, names=names).to_csv(with_header, index=False)
    with pytest.raises(UserError, match="already names the columns"):
        run_method("causal.dml_ate", {**args, "data": str(with_header), "column_names": names})
    # a file with a header and a misspelt column keeps the plain message
    with pytest.raises(UserError, match="available columns: y, d, x1, x2") as error:
        run_method("causal.dml_ate", {**args, "data": str(with_header), "outcome": "Y"})
    assert "header" not in str(error.value)


def test_the_interval_at_the_level_asked_for(tmp_path: Path) -> None:
    """A "90% range" is the estimate ± 1.645 standard errors, beside the 95% interval; a level outside [0.5, 1)
    is an error that says what to give."""
    path, _ = _heterogeneous(tmp_path)
    result = dml_ate(str(path), outcome="y", treatment="d", covariates=["x0", "x1", "x2"], n_folds=3,
                     confidence=0.9, output_dir=str(tmp_path))
    ate, se = result.values["ate"]["mean"], result.values["ate"]["std"]
    low, high = result.values["ci"]
    assert result.values["ci_level"] == 0.9
    assert low == pytest.approx(ate - 1.6449 * se, rel=1e-3) and high == pytest.approx(ate + 1.6449 * se, rel=1e-3)
    assert result.values["ci_95"][0] < low < high < result.values["ci_95"][1]
    assert "90% CI" in result.summary
    with pytest.raises(UserError, match="confidence"):
        dml_ate(str(path), outcome="y", treatment="d", covariates=["x0"], confidence=90, output_dir=str(tmp_path))
