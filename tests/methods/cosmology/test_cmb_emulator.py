"""The CAMB emulator of ``cosmology.fit_cmb``: its error against fresh CAMB runs, in the units of the Planck
band powers, and the parameter bias that error induces, at points it was not trained on."""

from __future__ import annotations

import numpy as np
import pytest

from cmbagent.tools.methods.cosmology._camb import camb_spectra
from cmbagent.tools.methods.cosmology._cmbfit import CMBPosterior, check_emulator
from cmbagent.tools.methods.cosmology._emulator import BOX, LMAX, CMBEmulator
from cmbagent.tools.methods.cosmology._plik import A_PLANCK_PRIOR, LOWE_TAU_PRIOR, load_plik_lite
from cmbagent.tools.methods.cosmology.planck import EMULATOR_BIAS_MAX, PLANCK_2018_TTTEEE_LOWE

LCDM = ("ombh2", "omch2", "theta_MC_100", "tau", "logA", "ns")


@pytest.fixture(scope="module")
def posterior() -> CMBPosterior:
    emulator = CMBEmulator.load()
    names = (*LCDM, "A_planck")  # ΛCDM, as fit_cmb samples it: w fixed at -1
    bounds = np.array([BOX[n] for n in names[:-1]] + [(0.9, 1.1)])
    return CMBPosterior(emulator=emulator, bands=load_plik_lite(), names=names, bounds=bounds,
                        gaussian={"tau": LOWE_TAU_PRIOR, "A_planck": A_PLANCK_PRIOR}, fixed={"w": -1.0})


def test_the_shipped_emulator_states_how_it_was_built() -> None:
    emulator = CMBEmulator.load()
    report = emulator.meta["report"]
    assert emulator.names == tuple(BOX) and report["n_train"] >= 40 and report["n_test"] >= 3
    assert report["held_out"]["TT"]["rms_rel"] < 5e-4  # at held-out training-set points, 2 <= ell <= 2508
    assert report["held_out"]["H0"]["max_rel"] < 2e-3
    assert emulator.meta["camb"] and emulator.meta["accuracy"]["lens_potential_accuracy"] == 1


@pytest.mark.parametrize("offset", [0.0, 2.5])
def test_error_and_induced_bias_against_camb(posterior: CMBPosterior, offset: float) -> None:
    """At the Planck 2018 means, and 2.5 published sigma away in a direction no training point was chosen
    along, the emulator's band powers are within a small fraction of the data errors of CAMB's and move no
    parameter by more than 0.1 sigma (published sigma; the posterior's are within 10% of them)."""
    rng = np.random.default_rng(7)
    direction = rng.choice([-1.0, 1.0], size=len(LCDM))
    x = np.array([PLANCK_2018_TTTEEE_LOWE[n][0] + offset * d * PLANCK_2018_TTTEEE_LOWE[n][1]
                  for n, d in zip(LCDM, direction, strict=True)] + [1.0])
    std = {n: s for n, (_, s) in PLANCK_2018_TTTEEE_LOWE.items()} | {"A_planck": 0.0025}
    check = check_emulator(posterior, x, std, lambda p: camb_spectra(p, lmax=LMAX))
    assert check.error_norm < 0.3  # |C^-1/2 (emulator - CAMB)| over 615 bins
    assert check.max_error_sigma < 0.05
    assert abs(check.chi2_emulator - check.chi2_camb) < 0.5
    assert max(abs(b) for b in check.bias_sigma.values()) < EMULATOR_BIAS_MAX, check.bias_sigma
    assert abs(check.h0_error) < 0.05  # km/s/Mpc


def test_the_box_is_the_prior(posterior: CMBPosterior) -> None:
    inside = np.array([[PLANCK_2018_TTTEEE_LOWE[n][0] for n in LCDM] + [1.0]])
    outside = inside.copy()
    outside[0, 1] = BOX["omch2"][1] + 0.001
    assert np.isfinite(posterior.log_posterior(inside)[0])
    assert posterior.log_posterior(outside)[0] == -np.inf
    assert posterior.emulator.in_box(posterior.full_inputs(inside)).all()
