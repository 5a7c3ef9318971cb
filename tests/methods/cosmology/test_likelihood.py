"""The likelihood: analytic offset marginalisation, full covariance, sampled offset."""

from __future__ import annotations

import numpy as np
import pytest
from astropy.cosmology import FlatLambdaCDM

from cmbagent.exceptions import UserError
from cmbagent.tools.methods.cosmology import SNLikelihood, load_sn_data

from ._paths import JLA, JLA_COV, PANTHEON, UNION


def test_marginalised_chi2_equals_numerical_marginalisation_over_offset() -> None:
    like = SNLikelihood(load_sn_data(JLA, JLA_COV))
    data = like.data
    cinv = np.linalg.inv(data.covariance)
    offsets = np.linspace(-3.0, 3.0, 20001)
    for om in (0.2, 0.3, 0.45):
        shape = like.distance_shape([[om]])[0]
        r = data.obs - shape
        base = float(like.best_offset([[om]])[0])
        a = base + offsets
        # chi2(a) = (r - a)^T C^-1 (r - a), integrated over a with a flat prior
        chi2_a = r @ cinv @ r - 2 * a * (np.ones(data.n) @ cinv @ r) + a * a * cinv.sum()
        log_int = np.log(np.trapezoid(np.exp(-0.5 * (chi2_a - chi2_a.min())), a)) - 0.5 * chi2_a.min()
        expected = -2 * log_int - np.log(cinv.sum() / (2 * np.pi))  # minus the theta-independent constant
        assert like.chi2([[om]])[0] == pytest.approx(expected, abs=1e-6)
        assert chi2_a.min() == pytest.approx(like.chi2([[om]])[0], rel=1e-8)


def test_sampled_offset_profile_equals_marginalised_chi2() -> None:
    data = load_sn_data(UNION)
    marg = SNLikelihood(data)
    free = SNLikelihood(data, sample_offset=True)
    assert free.names == ("Omega_m", "H0")
    om = 0.28
    implied = marg.implied_h0([[om]])
    assert implied is not None
    assert free.chi2([[om, implied]])[0] == pytest.approx(marg.chi2([[om]])[0], rel=1e-9)
    assert free.chi2([[om, implied * 1.01]])[0] > marg.chi2([[om]])[0] + 1.0


def test_distance_modulus_with_free_h0_matches_astropy() -> None:
    data = load_sn_data(UNION)
    like = SNLikelihood(data, sample_offset=True)
    mu = like.distance_shape([[0.3, 69.0]])[0] + like.offset([[0.3, 69.0]])[0]
    cosmo = FlatLambdaCDM(H0=69.0, Om0=0.3, Tcmb0=0)
    np.testing.assert_allclose(mu, cosmo.distmod(data.z_cmb).value, atol=1e-6)


def test_diagonal_chi2_matches_direct_sum_and_prior_bounds() -> None:
    data = load_sn_data(PANTHEON)
    like = SNLikelihood(data, sample_offset=True)  # magnitudes: the offset is M at H0 = 70
    theta = np.array([[0.35, -19.35]])
    model = FlatLambdaCDM(H0=70, Om0=0.35, Tcmb0=0).distmod(data.z_cmb).value
    model += 5 * np.log10((1 + data.z_hel) / (1 + data.z_cmb)) - 19.35
    expected = np.sum(((data.obs - model) / data.sigma) ** 2)
    assert like.chi2(theta)[0] == pytest.approx(expected, rel=1e-6)
    assert like.log_posterior([[1.2, -19.35]])[0] == -np.inf  # outside the Omega_m prior
    batch = like.log_posterior(np.array([[0.3, -19.3], [0.35, -19.35]]))
    assert batch.shape == (2,) and np.all(np.isfinite(batch))


def test_priors_can_be_overridden_and_are_validated() -> None:
    data = load_sn_data(UNION)
    like = SNLikelihood(data, priors={"Omega_m": (0.1, 0.5)})
    np.testing.assert_array_equal(like.bounds, [[0.1, 0.5]])
    with pytest.raises(UserError, match="unknown parameter"):
        SNLikelihood(data, priors={"sigma8": (0.5, 1.0)})
    with pytest.raises(UserError, match="must be below"):
        SNLikelihood(data, priors={"Omega_m": (0.5, 0.1)})
    with pytest.raises(UserError, match="unknown model"):
        SNLikelihood(data, "lambda_cdm")


def test_dark_energy_models_reduce_to_lcdm() -> None:
    data = load_sn_data(UNION)
    flat = SNLikelihood(data, "flat_lcdm").chi2([[0.3]])[0]
    assert SNLikelihood(data, "wcdm").chi2([[0.3, -1.0]])[0] == pytest.approx(flat, rel=1e-12)
    assert SNLikelihood(data, "w0wacdm").chi2([[0.3, -1.0, 0.0]])[0] == pytest.approx(flat, rel=1e-12)
    assert SNLikelihood(data, "lcdm").chi2([[0.3, 0.7]])[0] == pytest.approx(flat, rel=1e-12)
    # and they respond to their extra parameters
    assert SNLikelihood(data, "w0wacdm").chi2([[0.3, -1.0, 1.0]])[0] > flat + 1.0


def test_a_gaussian_prior_adds_its_term_and_is_validated() -> None:
    data = load_sn_data(UNION)
    flat = SNLikelihood(data)
    normal = SNLikelihood(data, priors={"Omega_m": {"mean": 0.3, "std": 0.02}})
    theta = np.array([[0.3], [0.34]])
    diff = normal.log_posterior(theta) - flat.log_posterior(theta)
    np.testing.assert_allclose(diff, [0.0, -0.5 * (0.04 / 0.02) ** 2])
    np.testing.assert_array_equal(normal.bounds, flat.bounds)  # truncated to the default range
    assert normal.prior_std()[0] == 0.02 and normal.start[0] == 0.3
    assert "Omega_m ~ N(0.3, 0.02)" in normal.describe_priors()
    with pytest.raises(UserError, match="std must be a positive"):
        SNLikelihood(data, priors={"Omega_m": {"mean": 0.3, "std": 0}})
    with pytest.raises(UserError, match="does not sample"):
        SNLikelihood(data, priors={"w0": {"mean": -1.0, "std": 0.1}})
    with pytest.raises(UserError, match="Gaussian prior is"):
        SNLikelihood(data, priors={"Omega_m": {"mu": 0.3, "sigma": 0.02}})
