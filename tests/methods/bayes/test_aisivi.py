"""bayes.aisivi: the learned proposal's score error against the exact-posterior and the naive prior proposals,
the fitted q against exact banana samples, a user's log density, and refusals of bad input."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.bayes import mmd_test
from cmbagent.tools.methods.bayes._flows import SemiImplicit
from cmbagent.tools.methods.bayes.aisivi import exact_score, fit_proposal, score


def _linear_gaussian_q(dim: int = 5, sigma: float = 0.2) -> SemiImplicit:
    """A linear-Gaussian semi-implicit q: z = Aε + b + σ·η, so ∇log q and q(ε | z) are exact."""
    torch.manual_seed(0)
    q = SemiImplicit(dim, dim, kernel="linear")
    with torch.no_grad():
        q.net.weight.copy_(torch.randn(dim, dim) / dim**0.5 + torch.eye(dim))
        q.net.bias.copy_(torch.randn(dim))
        q.log_sigma.fill_(float(np.log(sigma)))
    return q


@pytest.mark.slow
def test_learned_proposal_scores_like_the_exact_posterior_and_far_better_than_the_prior() -> None:
    q = _linear_gaussian_q()
    tau = fit_proposal(q, steps=600, seed=0)
    gen = torch.Generator().manual_seed(5)
    with torch.no_grad():
        z, _ = q.sample(2000, gen)
        truth = exact_score(q, z)
        error = {}
        for proposal in ("learned", "exact", "prior"):
            estimate, variance = score(q, tau, z, 32, gen, proposal=proposal)
            error[proposal] = float(((estimate - truth) ** 2).sum(-1).mean())
            if proposal != "prior":  # the SNIS variance estimate is honest when the weights are not degenerate
                assert 0.7 <= float(variance.mean()) / error[proposal] <= 1.4
    assert error["learned"] <= 2 * error["exact"], error
    assert error["prior"] >= 100 * error["learned"], error


def test_mmd_null_calibration() -> None:
    rng = np.random.default_rng(0)
    same = [mmd_test(rng.normal(size=(100, 2)), rng.normal(size=(100, 2)), permutations=100, seed=s)["p_value"]
            for s in range(8)]
    assert np.mean(np.array(same) < 0.05) <= 0.25  # about 5% of same-distribution pairs reject
    shifted = mmd_test(rng.normal(size=(100, 2)), rng.normal(size=(100, 2)) + np.array([0.8, 0.0]), permutations=100)
    assert shifted["mmd2"] > shifted["null_q95"]


@pytest.mark.slow
def test_banana_samples_match_the_target(tmp_path: Path) -> None:
    """The fitted q against exact banana samples and the exact density (normalised, so KL(q‖p) = −ELBO).

    Not ``result.ok``: the Pareto-k̂ tail check is borderline on the banana.  Over seeds 0-7 (4,000 draws of q)
    k̂ was 0.85, 0.46, 0.59, 0.65, 0.68, 0.47, 0.48, 0.71: the reverse-KL fit is thin in the banana's arms
    (|z₁| > 2.5 hold the largest ratios; z₂'s sd is 0.78-0.86 of the target's), and the importance-sampled
    log q there is itself noisy.  The bulk is right at every seed: KL 0.014-0.021 nats, MMD p 0.08-0.78,
    mean errors ≤ 0.13 sd.  So the test holds the fit to those, and the tail check to reporting what it measured.
    """
    result = run_method("bayes.aisivi", {"target": "banana2d", "seed": 0, "cache_dir": None,
                                         "output_dir": str(tmp_path)})
    values = result.values
    mmd = values["mmd"]
    assert mmd["mmd2"] <= mmd["null_q95"], mmd
    checks = {c.name: c for c in result.checks}
    assert checks["q matches the reference samples"].passed and checks["samples finite"].passed, checks
    assert -values["elbo"]["mean"] < 0.05, values["elbo"]  # KL(q‖p) in nats
    assert max(values["mean_error_in_sd"]) < 0.2, values["mean_error_in_sd"]
    sd_ratio = np.array(values["sample_std"]) / np.array([1.0, 1.5])
    assert 0.9 <= sd_ratio[0] <= 1.1 and 0.75 <= sd_ratio[1] <= 1.05, sd_ratio
    k = values["importance"]["pareto_k"]
    assert values["importance"]["n"] == 4000 and k < 1.0, values["importance"]  # the weights have a finite mean
    assert checks["importance weights p/q have a light tail"].passed == (k < 0.7), checks
    with np.load(tmp_path / "aisivi_samples.npz") as saved:
        assert saved["samples"].shape == (2000, 2)
    assert (tmp_path / "aisivi_pairs.png").is_file()


@pytest.mark.slow
def test_users_log_density_and_the_cache(tmp_path: Path) -> None:
    density = tmp_path / "density.py"
    density.write_text("import torch\n\ndef log_prob(z):\n    return -0.5 * ((z[:, 0] - 3.0) / 0.5) ** 2\n")
    arguments = {"log_density": str(density), "dim": 1, "steps": 400, "cache_dir": str(tmp_path / "models"),
                 "output_dir": str(tmp_path)}
    first = run_method("bayes.aisivi", arguments)
    assert abs(first.values["sample_mean"][0] - 3.0) < 0.15
    assert abs(first.values["sample_std"][0] - 0.5) < 0.15
    second = run_method("bayes.aisivi", arguments)
    assert first.diagnostics["loaded_from_cache"] is False and second.diagnostics["loaded_from_cache"] is True
    # every result states the measured speed shortfall against UIVI, with the bench's numbers
    assert [f.code for f in first.findings] == ["method.known_shortfall"]
    assert "0.8-0.9x (τ 2,000 steps)" in first.findings[0].message
    assert first.findings[0].evidence["ratios"]["conditioned diffusion process size (z and ε 100-d)"][
        "τ 12,000 steps"] == [2.0, 2.2]
    assert second.values["sample_mean"] == first.values["sample_mean"]


@pytest.mark.parametrize(("body", "words"), [
    ("def log_prob(z):\n    return z[:, 0] * float('nan')\n", "non-finite"),
    ("def log_prob(z):\n    return -0.5 * z ** 2\n", "shape"),
    ("def log_prob(z):\n    return 1.0\n", "torch.Tensor"),
    ("def density(z):\n    return -z.sum(-1)\n", "defines no function log_prob"),
    ("raise RuntimeError('boom')\n", "boom"),
])
def test_bad_log_density_names_the_argument(body: str, words: str, tmp_path: Path) -> None:
    density = tmp_path / "density.py"
    density.write_text("import torch\n\n" + body)
    with pytest.raises(UserError, match="log_density") as info:
        run_method("bayes.aisivi", {"log_density": str(density), "dim": 2, "steps": 5, "cache_dir": None})
    assert words in str(info.value)


def test_bad_targets_and_data_name_the_argument(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="target"):
        run_method("bayes.aisivi", {"target": "donut", "cache_dir": None})
    with pytest.raises(UserError, match="data"):
        run_method("bayes.aisivi", {"target": "bayes_logreg", "cache_dir": None})
    labels = tmp_path / "labels.csv"
    labels.write_text("a,y\n" + "".join(f"{i},{i % 3}\n" for i in range(20)))
    with pytest.raises(DataError, match="data"):
        run_method("bayes.aisivi", {"target": "bayes_logreg", "data": str(labels), "cache_dir": None})
    nan = tmp_path / "nan.csv"
    nan.write_text("a,y\n1,0\nnan,1\n")
    with pytest.raises(DataError, match="data"):
        run_method("bayes.aisivi", {"target": "bayes_logreg", "data": str(nan), "cache_dir": None})
    with pytest.raises(UserError, match="steps"):
        run_method("bayes.aisivi", {"steps": 0, "cache_dir": None})


def test_pareto_k_matches_the_tail_of_gaussian_ratios() -> None:
    """q = N(0, 1), p = N(0, s²): the ratios p/q have a Pareto tail with k = 1 − 1/s² (bounded when s < 1)."""
    from cmbagent.tools.methods.bayes._quality import pareto_k

    rng = np.random.default_rng(0)
    z = rng.normal(size=20000)
    for s in (1.5, 2.0, 4.0):
        k = pareto_k(-0.5 * z**2 / s**2 - np.log(s) + 0.5 * z**2)
        assert abs(k - (1 - 1 / s**2)) < 0.15, (s, k)
    assert pareto_k(-0.5 * z**2 / 0.7**2 + 0.5 * z**2) < 0.0


@pytest.mark.slow
def test_users_density_is_judged_without_an_exact_answer(tmp_path: Path) -> None:
    """A correlated 2-d density from a file: the fitted q passes Pareto-k̂ and the MCMC comparison; a q fitted
    for 15 steps (still near its N(0, I) start, 3× narrower than the target) fails both."""
    density = tmp_path / "density.py"
    density.write_text("import torch\n\ndef log_prob(z):\n    a = (z[:, 0] - 2.0) / 3.0\n"
                       "    b = (z[:, 1] + 1.0 - 0.4 * (z[:, 0] - 2.0)) / 0.6\n    return -0.5 * (a**2 + b**2)\n")
    good = run_method("bayes.aisivi", {"log_density": str(density), "dim": 2, "cache_dir": None,
                                       "output_dir": str(tmp_path)})
    checks = {c.name: c for c in good.checks}
    assert checks["importance weights p/q have a light tail"].passed, checks
    assert checks["q agrees with a short MCMC run"].passed, checks
    assert abs(good.values["mcmc"]["mean"][0] - 2.0) < 0.4 and abs(good.values["mcmc"]["sd"][0] - 3.0) < 0.4
    poor = run_method("bayes.aisivi", {"log_density": str(density), "dim": 2, "steps": 15, "cache_dir": None,
                                       "output_dir": str(tmp_path)})
    checks = {c.name: c for c in poor.checks}
    assert poor.values["importance"]["pareto_k"] > 0.7
    assert not checks["importance weights p/q have a light tail"].passed
    assert not checks["q agrees with a short MCMC run"].passed
