"""Validation of ``cosmology.fit_supernovae`` against the COMPUTED numbers of tests/data/SOURCES.md
("Reference numbers: supernovae").

Each fit must land within 0.25 sigma of the reference mean, with a standard deviation within 10%.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import get_method, run_method

from ._paths import JLA, JLA_COV, PANTHEON, UNION


def _close(value: dict[str, float], mean: float, std: float) -> None:
    assert abs(value["mean"] - mean) < 0.25 * std, (value, mean, std)
    assert value["std"] == pytest.approx(std, rel=0.1)
    assert value["lower_68"] < value["mean"] < value["upper_68"]
    assert value["lower_95"] < value["lower_68"] and value["upper_95"] > value["upper_68"]


@pytest.mark.slow
def test_pantheon_plus_diagonal_flat_lcdm(tmp_path: Path) -> None:
    result = run_method("cosmology.fit_supernovae", {"data": str(PANTHEON), "output_dir": str(tmp_path)})
    _close(result.values["Omega_m"], 0.351, 0.019)
    om, ode = result.values["Omega_m"], result.values["Omega_de"]
    assert ode["mean"] == pytest.approx(1 - om["mean"], abs=1e-12)
    assert result.values["chi2"] == pytest.approx(697.3, abs=0.1)
    assert result.values["dof"] == 1590 - 2
    # chi2/dof = 0.44 over 1588 dof is far too good a fit (diagonal errors, no covariance): the two-sided
    # goodness-of-fit check says so, every other check passes
    failed = [c for c in result.checks if not c.passed]
    assert [c.name for c in failed] == ["goodness_of_fit"] and "too low" in failed[0].message, failed
    assert result.diagnostics["error_model"] == "diagonal"
    assert result.diagnostics["missing_covariance"] == "Pantheon+SH0ES_STAT+SYS.cov"
    assert result.diagnostics["rows"] == {"read": 1701, "used": 1590, "reasons": {"with zHD <= 0.01": 111}}
    assert "1590 of 1701 rows kept" in result.summary
    names = {c.name for c in result.checks}
    assert {"convergence_autocorr", "convergence_rhat", "acceptance_fraction", "posterior_narrower_than_prior"} <= names
    assert "0.334" in result.summary and "covariance" in result.summary
    assert all(Path(p).is_file() for p in result.artifacts) and len(result.artifacts) == 3


@pytest.mark.slow
def test_union21_free_h0_and_omega_lambda(tmp_path: Path) -> None:
    """The cmbagent paper's demo: H0 = 70.00 +- 0.34, Omega_L = 0.7215 +- 0.0195."""
    result = run_method(
        "cosmology.fit_supernovae", {"data": str(UNION), "free_h0": True, "seed": 1, "output_dir": str(tmp_path)}
    )
    _close(result.values["H0"], 70.00, 0.34)
    _close(result.values["Omega_de"], 0.7215, 0.0195)
    assert result.values["chi2"] == pytest.approx(562.227, abs=0.01)
    assert result.values["dof"] == 578
    assert result.ok


@pytest.mark.slow
def test_jla_binned_full_covariance(tmp_path: Path) -> None:
    result = run_method(
        "cosmology.fit_supernovae",
        {"data": str(JLA), "covariance": str(JLA_COV), "seed": 2, "output_dir": str(tmp_path)},
    )
    _close(result.values["Omega_m"], 0.2970, 0.0338)
    assert result.values["chi2"] == pytest.approx(33.62, abs=0.01)
    assert result.ok


@pytest.mark.slow
def test_curved_lcdm_reports_curvature(tmp_path: Path) -> None:
    result = run_method("cosmology.fit_supernovae",
                        {"data": str(UNION), "model": "lcdm", "output_dir": str(tmp_path)})
    ok = result.values["Omega_k"]
    assert ok["mean"] == pytest.approx(1 - result.values["Omega_m"]["mean"] - result.values["Omega_de"]["mean"], abs=1e-9)
    assert result.checks[0].passed


def test_registered_schema() -> None:
    spec = get_method("cosmology.fit_supernovae")
    args = spec.arguments
    assert spec.required == ["data"]
    assert args["model"]["default"] == "flat_lcdm"
    assert set(args["model"]["enum"]) == {"flat_lcdm", "lcdm", "wcdm", "w0wacdm"}
    assert args["format"]["default"] == "auto"
    assert {"covariance", "free_h0", "seed", "output_dir"} <= set(args)
    assert get_method("cosmology.summarize_chain").required == ["chain"]


def test_bad_arguments_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="model"):
        run_method("cosmology.fit_supernovae", {"data": str(UNION), "model": "lambda"})
    with pytest.raises(UserError, match="not found"):
        run_method("cosmology.fit_supernovae", {"data": str(tmp_path / "nope.dat")})


def test_cli_prints_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cmbagent.cli import app

    monkeypatch.chdir(tmp_path)
    args = json.dumps({"data": str(JLA), "covariance": str(JLA_COV), "max_steps": 2000})
    command = ["methods", "run", "cosmology.fit_supernovae", "--args", args, "--json"]
    refused = CliRunner().invoke(app, command)  # the data lie outside the working folder
    assert refused.exit_code == 2 and "--data-dir" in refused.output
    out = CliRunner().invoke(app, [*command, "--data-dir", str(JLA.parent)])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert set(result["values"]["Omega_m"]) >= {"mean", "std", "lower_68", "upper_68"}
    assert (tmp_path / "figures").is_dir()


def test_gaussian_prior_combines_with_the_data(tmp_path: Path) -> None:
    """JLA binned alone gives Omega_m = 0.297 ± 0.034; with N(0.30, 0.02) the posterior is their product,
    0.2992 ± 0.0172 (inverse-variance weighting)."""
    result = run_method(
        "cosmology.fit_supernovae",
        {"data": str(JLA), "covariance": str(JLA_COV), "seed": 2, "output_dir": str(tmp_path),
         "priors": {"Omega_m": {"mean": 0.30, "std": 0.02}}},
    )
    om = result.values["Omega_m"]
    assert om["std"] == pytest.approx(0.0172, rel=0.1) and om["mean"] == pytest.approx(0.2992, abs=0.005)
    assert "Omega_m ~ N(0.3, 0.02)" in result.summary
    assert result.diagnostics["gaussian_priors"] == {"Omega_m": {"mean": 0.30, "std": 0.02}}
    ratio = next(c for c in result.checks if c.name == "posterior_narrower_than_prior")
    assert "Omega_m 0.8" in ratio.message  # the prior's own std, not the flat range's, is the reference
    assert ratio.passed and result.ok  # a posterior close to an informative prior is expected, not a failure


@pytest.mark.slow
def test_a_gaussian_prior_fit_is_audited_against_what_the_data_alone_give(tmp_path: Path) -> None:
    """``param.prior_shift`` recovers the data-only posterior from a Gaussian-prior fit (Gaussian
    approximation); on Pantheon+ it agrees with the actual flat-prior fit (0.351 ± 0.019) within 0.2σ."""
    from cmbagent.audits import StepEvidence, audit_step

    def audit_step_result(result):  # type: ignore[no-untyped-def]
        return audit_step(StepEvidence(step_id="s1", method="cosmology.fit_supernovae", values=result.values,
                                       diagnostics=result.diagnostics)).findings

    flat = run_method("cosmology.fit_supernovae", {"data": str(PANTHEON), "output_dir": str(tmp_path / "flat")})
    prior = run_method("cosmology.fit_supernovae", {"data": str(PANTHEON), "output_dir": str(tmp_path / "prior"),
                                                    "priors": {"Omega_m": {"mean": 0.30, "std": 0.02}}})
    assert prior.diagnostics["gaussian_priors"] == {"Omega_m": {"mean": 0.30, "std": 0.02}}
    shift = [f for f in audit_step_result(prior) if f.code == "param.prior_shift"]
    assert len(shift) == 1 and shift[0].evidence["shift_sigma"] >= 1.0
    mean, std = shift[0].evidence["data_alone"]
    truth = flat.values["Omega_m"]
    assert abs(mean - truth["mean"]) < 0.2 * truth["std"] and std == pytest.approx(truth["std"], rel=0.1)
    assert not [f for f in audit_step_result(flat) if f.code == "param.prior_shift"]
