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
