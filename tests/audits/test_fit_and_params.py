"""fit.chi2_low / fit.chi2_high, param.prior_dominated, param.degenerate on constructed results."""

from __future__ import annotations

import pytest

from tests.audits._evidence import audit, codes, posterior


@pytest.mark.parametrize(("chi2", "dof", "expected"), [(697.3, 1588, ["fit.chi2_low"]), (2400.0, 1588, ["fit.chi2_high"]),
                                                       (1600.0, 1588, []), (33.6, 30, [])])
def test_goodness_of_fit_is_two_sided(chi2: float, dof: int, expected: list[str]) -> None:
    found = audit(values={"Omega_m": posterior(0.35, 0.02), "chi2": chi2, "dof": dof}, method="cosmology.fit_supernovae")
    assert codes(found) == expected


def test_a_low_chi2_with_diagonal_errors_names_the_missing_covariance() -> None:
    found = audit(values={"chi2": 697.3, "dof": 1588}, diagnostics={"error_model": "diagonal",
                                                                  "missing_covariance": "Pantheon+SH0ES_STAT+SYS.cov"})
    (f,) = found
    assert f.severity == "warning" and "Pantheon+SH0ES_STAT+SYS.cov" in f.message and "diagonal" in f.message
    assert "Pantheon+SH0ES_STAT+SYS.cov" in f.settle and f.evidence["dof"] == 1588 and f.evidence["p_value"] > 0.999


def test_chi2_from_reduced_chi2_and_a_nested_fit_table() -> None:
    assert codes(audit(values={"fit": {"chi2_per_dof": 3.0, "dof": 200}})) == ["fit.chi2_high"]


def test_posterior_as_wide_as_a_flat_prior_is_a_result_stated_with_its_interval() -> None:
    """A parameter these data do not constrain is an answer, not a failure: a warning whose ``answer`` says so
    with the interval and the prior's range (the report prints it; only quoting the mean as a value is wrong)."""
    values = {"wa": {**posterior(-0.2, 1.3), "lower_95": -2.8, "upper_95": 1.6}, "Omega_m": posterior(0.3, 0.02)}
    found = audit(values=values, diagnostics={"priors": {"wa": [-3, 2], "Omega_m": [0.01, 0.99]}})
    (f,) = found
    assert (f.code, f.severity, f.evidence["parameter"]) == ("param.unconstrained", "warning", "wa")
    assert f.evidence["ratio"] > 0.5
    assert "not constrained by these data" in f.evidence["answer"] and "[-2.8, 1.6]" in f.evidence["answer"]
    assert "[-3, 2]" in f.evidence["answer"]


def test_posterior_against_a_prior_bound_is_a_warning_and_a_central_one_is_not() -> None:
    edge = audit(values={"Omega_m": {**posterior(0.03, 0.012), "lower_95": 0.0105}},
                 diagnostics={"priors": {"Omega_m": [0.01, 0.99]}})
    assert [(f.code, f.severity) for f in edge] == [("param.unconstrained", "warning")]
    assert edge[0].evidence["one_sided"] == "Omega_m < 0.0105 (95%)" or "Omega_m <" in edge[0].evidence["answer"]
    assert audit(values={"Omega_m": posterior(0.3, 0.02)}, diagnostics={"priors": {"Omega_m": [0.01, 0.99]}}) == []


def test_gaussian_prior_that_the_data_do_not_move() -> None:
    priors = {"H0": {"gaussian": [73.0, 1.0]}}
    assert codes(audit(values={"H0": posterior(73.0, 0.95)}, diagnostics={"priors": priors})) == ["param.prior_dominated"]
    assert audit(values={"H0": posterior(70.0, 0.3)}, diagnostics={"priors": priors}) == []


def test_h0_asked_for_from_magnitudes_with_a_free_absolute_magnitude() -> None:
    diagnostics = {"not_constrained": {"H0": {"reason": "magnitudes constrain only M - 5 log10 H0", "severity": "error"}},
                   "nuisance": {"M": "degenerate with H0"}}
    values = {"Omega_m": posterior(0.33, 0.02), "M": posterior(-19.3, 0.01)}
    found = audit(values=values, diagnostics=diagnostics, task_text="Measure the Hubble constant H0 from these SNe.")
    # the answer is that these data cannot measure H0: a result to state, never a failure of the run
    assert [(f.code, f.severity) for f in found] == [("param.degenerate", "warning"), ("param.degenerate", "warning")]
    assert found[0].evidence["requested"] and found[1].evidence["nuisance"]
    assert found[0].evidence["answer"].startswith("H0 cannot be measured from these data")


def test_h0_mentioned_as_degenerate_is_not_a_request() -> None:
    diagnostics = {"not_constrained": {"H0": {"reason": "r", "severity": "error"}}}
    text = "Measure Omega_m. The absolute magnitude M (degenerate with H0) is marginalised analytically."
    assert audit(values={"Omega_m": posterior(0.33, 0.02)}, diagnostics=diagnostics, task_text=text) == []


def test_an_informative_gaussian_prior_that_moves_the_result_is_a_warning() -> None:
    """Pantheon+ (diagonal errors) alone: Omega_m 0.351 ± 0.019; with the prior N(0.30, 0.02) the posterior is
    0.327 ± 0.013 — 1.2σ of the data's from where the data put it, and the prior disagrees with them by 1.8σ.
    The report of such a run said nothing of it."""
    diagnostics = {"priors": {"Omega_m": [0.01, 0.99]}, "gaussian_priors": {"Omega_m": {"mean": 0.3, "std": 0.02}}}
    (f,) = audit(values={"Omega_m": posterior(0.3274, 0.0134)}, diagnostics=diagnostics)
    assert (f.code, f.severity, f.evidence["parameter"]) == ("param.prior_shift", "warning", "Omega_m")
    mean, std = f.evidence["data_alone"]
    assert mean == pytest.approx(0.351, abs=0.003) and std == pytest.approx(0.019, abs=0.002)
    assert f.evidence["shift_sigma"] == pytest.approx(1.2, abs=0.1)
    assert f.evidence["tension_sigma"] == pytest.approx(1.8, abs=0.1)
    assert "N(0.3, 0.02)" in f.message and "data-only" in f.settle
    # a prior that agrees with the data and barely narrows them moves nothing worth a word
    weak = {"priors": {"Omega_m": [0.01, 0.99]}, "gaussian_priors": {"Omega_m": {"mean": 0.35, "std": 0.1}}}
    assert audit(values={"Omega_m": posterior(0.3505, 0.0186)}, diagnostics=weak) == []


def test_data_alone_inverts_a_gaussian_prior_exactly() -> None:
    from cmbagent.audits._params import data_alone

    # a likelihood N(0.35, 0.019) times a prior N(0.30, 0.02) is N(m, s) with these; data_alone undoes it
    precision = 1 / 0.019**2 + 1 / 0.02**2
    m, s = (0.35 / 0.019**2 + 0.30 / 0.02**2) / precision, precision**-0.5
    assert data_alone(m, s, 0.30, 0.02) == pytest.approx((0.35, 0.019), rel=1e-9)
    assert data_alone(0.3, 0.025, 0.30, 0.02) is None  # wider than the prior: nothing to undo


def test_a_gaussian_prior_carrying_most_of_the_posterior_is_a_warning_with_the_data_only_value() -> None:
    """Binned JLA with the prior N(0.30, 0.02): posterior std 0.0168 is 0.84 of the prior's — the data alone
    give ± 0.031.  A warning that says so, with the data-alone value and how much the data narrow the prior;
    never an error, however much the prior carries: that is what these data say."""
    diagnostics = {"gaussian_priors": {"Omega_m": {"mean": 0.3, "std": 0.02}}}
    (f,) = audit(values={"Omega_m": posterior(0.2993, 0.01683)}, diagnostics=diagnostics)
    assert (f.code, f.severity) == ("param.prior_dominated", "warning")
    assert f.evidence["data_alone"][1] == pytest.approx(0.031, abs=0.001) and "data alone give" in f.message
    (g,) = audit(values={"Omega_m": posterior(0.30, 0.0185)}, diagnostics=diagnostics)
    assert (g.code, g.severity) == ("param.prior_dominated", "warning")
    assert g.evidence["narrowing"] == pytest.approx(0.02 / 0.0185, rel=1e-3) and "narrow the prior" in g.evidence["answer"]
