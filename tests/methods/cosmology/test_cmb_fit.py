"""Validation of ``cosmology.fit_cmb`` against Planck 2018 (Paper VI, Table 2, TT,TE,EE+lowE), and the joint
fit with Pantheon+ supernovae with w free.

Slow: each fit runs Cobaya to R-1 < 0.01 over the CAMB emulator and one CAMB run for the emulator check
(about 1.5-3 minutes each on two idle cores; 3 minutes each on this project's shared development machine).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.cosmology.planck import PLANCK_2018_TTTEEE_LOWE

from ._paths import PANTHEON


@pytest.mark.slow
def test_planck_2018_lcdm_within_a_third_of_a_sigma(tmp_path: Path) -> None:
    result = run_method("cosmology.fit_cmb", {"seed": 1, "output_dir": str(tmp_path)})
    assert "tau" not in result.values and "tau" in result.diagnostics["nuisance"]  # its prior's, not measured
    for name, (mean, std) in PLANCK_2018_TTTEEE_LOWE.items():
        value = result.values[name] if name != "tau" else result.diagnostics["nuisance_summary"]["tau"]
        assert abs(value["mean"] - mean) < 0.3 * std, (name, value, mean, std)
        assert value["std"] == pytest.approx(std, rel=0.2), (name, value, std)
    failed = [c.message for c in result.checks if not c.passed]
    assert not failed, failed
    names = {c.name for c in result.checks}
    assert {"convergence_rminus1", "convergence_rhat", "emulator_bias", "matches_planck2018"} <= names
    check = result.diagnostics["emulator_check"]
    assert max(abs(b) for b in check["bias_sigma"].values()) < 0.1
    assert result.values["n_bins"] == 615 and 560 < result.values["chi2_cmb"] < 620
    assert "A_planck" not in result.values and "A_planck" in result.diagnostics["nuisance"]
    assert "tau prior 0.0506 ± 0.0086" in result.summary
    assert all(Path(p).is_file() for p in result.artifacts) and len(result.artifacts) == 3
    assert result.diagnostics["timing_s"]["total"] < 600


@pytest.mark.slow
def test_pantheon_plus_and_cmb_with_w_free_in_one_call(tmp_path: Path) -> None:
    cmb_only_h0_std = PLANCK_2018_TTTEEE_LOWE["H0"][1]
    result = run_method("cosmology.fit_cmb", {"model": "wcdm", "supernovae": str(PANTHEON), "seed": 0,
                                              "output_dir": str(tmp_path)})
    failed = [c.message for c in result.checks if not c.passed and c.name != "goodness_of_fit"]
    assert not failed, failed
    w = result.values["w"]
    assert -1.15 < w["mean"] < -0.85 and 0.02 < w["std"] < 0.1
    # with w free, H0 is set by the supernovae's Omega_m and the CMB's omega_m h^2: wider than ΛCDM's
    assert result.values["H0"]["std"] > cmb_only_h0_std
    assert result.values["n_sne"] == 1590 and "chi2_sn" in result.values
    assert any(p.endswith("_hubble.png") for p in result.artifacts)
    assert "Pantheon+SH0ES.dat" in result.summary


def test_bad_arguments_say_what_to_fix(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="rminus1_stop"):
        run_method("cosmology.fit_cmb", {"rminus1_stop": 2.0, "output_dir": str(tmp_path)})
    with pytest.raises(UserError, match="tau_prior mean"):
        run_method("cosmology.fit_cmb", {"tau_prior": {"mean": 0.5, "std": 0.01}, "output_dir": str(tmp_path)})
