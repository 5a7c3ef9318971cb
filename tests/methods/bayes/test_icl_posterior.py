"""bayes.icl_posterior: calibrated credible intervals and posterior widths on conjugate Bayesian linear
regression; the MCMC reference of the other families; refusals of bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.bayes._simulators import ModelFamily, mcmc_posterior
from cmbagent.tools.methods.bayes.icl_posterior import posterior_samples, trained_network

FAMILY = ModelFamily("linear_regression", n_features=1, prior_std=1.0, noise_std=1.0)
DEFAULTS = {"n_min": 10, "n_max": 60, "train_steps": 3000, "batch_size": 64, "width": 64, "seed": 0}  # the tool's


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.set_num_threads(1)
    folder = tmp_path_factory.mktemp("icl-cache")
    trained_network(FAMILY, **DEFAULTS, cache_dir=str(folder))
    return folder


@pytest.mark.slow
def test_conjugate_linear_regression_coverage_and_width(cache: Path) -> None:
    net = trained_network(FAMILY, **DEFAULTS, cache_dir=str(cache)).net
    gen = torch.Generator().manual_seed(2024)
    inside, ratios = [], []
    for i in range(200):
        n = int(torch.randint(10, 61, (1,), generator=gen))
        theta = FAMILY.sample_parameters(1, gen)
        data = FAMILY.simulate(theta, n, gen)[0].numpy().astype(float)
        samples = posterior_samples(net, FAMILY, data, 400, seed=i)
        low, high = np.quantile(samples, [0.05, 0.95], axis=0)
        truth = theta[0].numpy()
        inside.append((low <= truth) & (truth <= high))
        _, cov = FAMILY.exact_posterior(data)
        ratios.append(samples.std(0, ddof=1) / np.sqrt(np.diag(cov)))
    coverage, ratio = np.mean(inside, axis=0), np.mean(ratios, axis=0)
    assert ((coverage >= 0.85) & (coverage <= 0.95)).all(), coverage
    assert ((ratio >= 0.8) & (ratio <= 1.2)).all(), ratio


@pytest.mark.slow
def test_tool_on_a_users_table_reuses_the_network(cache: Path, tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(5.0, 2.0, size=35)
    y = 0.3 + 0.4 * (x - 5.0) + rng.normal(size=35)  # coefficients of the standardised dose inside the prior
    table = tmp_path / "table.csv"
    table.write_text("dose,response\n" + "".join(f"{a},{b}\n" for a, b in zip(x, y, strict=True)))
    result = run_method("bayes.icl_posterior", {"data": str(table), "target": "response",
                                                "cache_dir": str(cache), "output_dir": str(tmp_path)})
    assert result.diagnostics["loaded_from_cache"] is True
    standardised = np.column_stack([(x - x.mean()) / x.std(), y])
    mean, cov = FAMILY.exact_posterior(standardised)
    for i, name in enumerate(("intercept", "w_1")):
        sd = float(np.sqrt(cov[i, i]))
        assert abs(result.values["reference"][name]["mean"] - mean[i]) < 0.1 * sd  # Monte Carlo error only
        assert abs(result.values["posterior"][name]["mean"] - mean[i]) < 1.0 * sd
        assert 0.7 <= result.values["posterior"][name]["std"] / sd <= 1.4
    assert (tmp_path / "icl_posterior.png").is_file() and (tmp_path / "icl_posterior_samples.npz").is_file()


def test_mcmc_reference_recovers_a_separated_mixture() -> None:
    family = ModelFamily("gaussian_mixture_1d", prior_std=3.0)
    rng = np.random.default_rng(0)
    data = np.concatenate([rng.normal(-2, 1, 40), rng.normal(3, 1, 40)])[:, None]
    samples = mcmc_posterior(family, data, n_samples=500, seed=0)
    assert (samples[:, 0] <= samples[:, 1]).all()
    assert abs(samples[:, 0].mean() + 2) < 0.5 and abs(samples[:, 1].mean() - 3) < 0.5


def test_bad_inputs_name_the_argument(tmp_path: Path) -> None:
    nan = tmp_path / "nan.csv"
    nan.write_text("x,y\n" + "".join(f"{i},{i}\n" for i in range(20)) + "nan,1\n")
    with pytest.raises(DataError, match="data"):
        run_method("bayes.icl_posterior", {"data": str(nan), "cache_dir": None})
    wide = tmp_path / "wide.csv"
    wide.write_text("a,b,y\n" + "".join(f"{i},{i * i},{i}\n" for i in range(20)))
    with pytest.raises(UserError, match="n_features"):
        run_method("bayes.icl_posterior", {"data": str(wide), "cache_dir": None})
    many = tmp_path / "many.csv"
    many.write_text("x,y\n" + "".join(f"{i},{i}\n" for i in range(100)))
    with pytest.raises(UserError, match="n_max"):
        run_method("bayes.icl_posterior", {"data": str(many), "cache_dir": None})
    labels = tmp_path / "labels.csv"
    labels.write_text("x,y\n" + "".join(f"{i},{i % 3}\n" for i in range(20)))
    with pytest.raises(DataError, match="0 or 1"):
        run_method("bayes.icl_posterior", {"family": "logistic_regression", "data": str(labels), "cache_dir": None})
    with pytest.raises(UserError, match="family"):
        run_method("bayes.icl_posterior", {"family": "poisson", "cache_dir": None})
