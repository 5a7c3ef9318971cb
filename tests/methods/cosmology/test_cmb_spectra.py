"""``cosmology.cmb_spectra``: CAMB's own reference values, the wrapper's parameter mapping, and the CLASS
cross-check at the level the codes' papers document."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.cosmology._camb import camb_spectra


def test_camb_reference_values_of_its_own_test_suite() -> None:
    """CAMB's test suite (camb/tests/camb_test.py, "base_plikHM_TT_lowTEB best fit model") asserts
    theta_MC = 0.0104090733 to 7 places and Y_He = 0.24560055 to 5 places for these parameters at CAMB's
    default N_eff; the same tolerances here (100 theta_MC to 5e-6)."""
    s = camb_spectra({"H0": 67.31, "ombh2": 0.022242, "omch2": 0.11977, "mnu": 0.06, "nnu": 3.044}, lmax=100)
    assert s.derived["theta_MC_100"] == pytest.approx(1.04090733, abs=5e-6)
    # Y_He follows BBN at ΔN_eff = N_eff - the standard N_eff; ours is Planck 2018's 3.046, CAMB's test's 3.044:
    # the same ΔN_eff = 0 is N_eff = 3.046 here
    s = camb_spectra({"H0": 67.31, "ombh2": 0.022242, "omch2": 0.11977, "mnu": 0.06, "nnu": 3.046}, lmax=100)
    assert s.derived["YHe"] == pytest.approx(0.24560055, abs=1e-5)


def test_spectra_equal_a_plain_camb_run_with_the_stated_settings() -> None:
    """The wrapper passes every parameter of an extended model (Σmν, N_eff, w0/wa, Ω_k, r) to CAMB: its
    spectra equal CAMB's documented high-level calls with the same settings."""
    import camb

    params = {"H0": 70.0, "ombh2": 0.0225, "omch2": 0.118, "tau": 0.06, "logA": 3.05, "ns": 0.97, "mnu": 0.12,
              "nnu": 3.2, "w": -0.9, "wa": -0.2, "omk": 0.01, "r": 0.05}
    ours = camb_spectra(params, lmax=800)
    cp = camb.CAMBparams()
    cp.set_dark_energy(w=-0.9, wa=-0.2, dark_energy_model="ppf")
    cp.set_cosmology(H0=70.0, ombh2=0.0225, omch2=0.118, omk=0.01, mnu=0.12, nnu=3.2, standard_neutrino_neff=3.046,
                     tau=0.06)
    cp.InitPower.set_params(As=np.exp(3.05) * 1e-10, ns=0.97, r=0.05)
    cp.WantTensors = True
    cp.set_for_lmax(800, lens_potential_accuracy=1, lens_output_margin=200)
    cp.NonLinear = camb.model.NonLinear_lens
    ref = camb.get_results(cp).get_cmb_power_spectra(cp, lmax=800, CMB_unit="muK")["total"]
    np.testing.assert_allclose(ours.tt[2:], ref[2:, 0], rtol=1e-10)
    np.testing.assert_allclose(ours.bb[2:], ref[2:, 2], rtol=1e-10)
    assert ours.bb[100] > 0  # tensors and lensing both make B modes
    assert ours.derived["Omega_m"] == pytest.approx((0.0225 + 0.118 + cp.omnuh2) / 0.49, rel=1e-12)


def test_bad_parameters_are_refused_with_the_fix() -> None:
    with pytest.raises(UserError, match=r"unknown cosmological parameter.*Omega_b"):
        camb_spectra({"Omega_b": 0.05})
    with pytest.raises(UserError, match="either H0 or theta_MC_100"):
        camb_spectra({"H0": 67.0, "theta_MC_100": 1.04})
    with pytest.raises(UserError, match="lmax"):
        camb_spectra({}, lmax=10)


@pytest.mark.slow
def test_class_cross_check_agrees_within_the_documented_level(tmp_path: Path) -> None:
    """Planck 2018 baseline: CLASS and CAMB (default precision of each) agree in TT within 0.3% for
    2 <= ell <= 2000 (measured 0.21%, at ell = 18), EE and TE within 0.5% (0.41%, 0.24%)."""
    result = run_method("cosmology.cmb_spectra", {"cross_check": "class", "output_dir": str(tmp_path)})
    assert result.ok, [c.message for c in result.checks if not c.passed]
    diff = result.values["class_max_rel_diff"]
    assert diff["TT"] < 3e-3 and diff["EE"] < 5e-3 and diff["TE"] < 5e-3
    assert result.diagnostics["class_comparison"]["TT"]["rms_rel_diff"] < 1e-3
    assert result.values["first_peak_ell"] in range(215, 226)
    assert result.values["H0"] == pytest.approx(67.28, abs=0.05)  # CAMB's H0 for 100 theta_MC = 1.04090
    figure, table = (Path(p) for p in result.artifacts)
    assert figure.is_file() and figure.stat().st_size > 10_000
    with table.open() as f:
        rows = list(csv.reader(f))
    assert rows[0][:6] == ["ell", "TT", "EE", "BB", "TE", "PP"] and "TT_class" in rows[0]
    assert len(rows) - 1 == 2500 - 1  # ell = 2..2500
    assert "0.3%" in result.summary and "CLASS" in result.summary
