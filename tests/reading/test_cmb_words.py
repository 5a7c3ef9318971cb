"""How cosmologists ask for the CMB methods (issue 33's methods in the offline reading of issue 29).

Found by hand: "Compute the lensed CMB power spectra with CAMB for Planck-like parameters" was a tie between
fitting band powers (51%) and computing spectra (48%) — "Planck" pulled it towards the fit.  Sentences of our own.
"""

from __future__ import annotations

import pytest

from cmbagent.agents import read_task

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(("text", "method"), [
    ("Compute the lensed CMB power spectra with CAMB for Planck-like parameters.", "cosmology.cmb_spectra"),
    ("Plot the TT spectrum for a universe with 0.2 eV of neutrino mass, and check it against CLASS.",
     "cosmology.cmb_spectra"),
    ("What B-mode power does a tensor-to-scalar ratio of 0.03 give at ell = 80?", "cosmology.cmb_spectra"),
    ("Fit LCDM to the Planck 2018 band powers and report H0.", "cosmology.fit_cmb"),
    ("What do the CMB data alone say about H0? Run the chains on the Planck likelihood.", "cosmology.fit_cmb"),
    ("Measure Omega_m from the supernova distance moduli with a prior from Planck.", "cosmology.fit_supernovae"),
])
def test_the_cmb_methods_are_told_apart(text: str, method: str) -> None:
    reading = read_task(text=text)
    assert reading.choice.status == "chosen" and reading.method == method, reading.choice.candidates[:2]


def test_the_word_class_is_not_the_code() -> None:
    # a classifier's classes and a table's cells are not CLASS and C_ell
    reading = read_task(text="Which class does each cell of the table belong to? Count the rows per class.")
    assert reading.method not in {"cosmology.cmb_spectra", "cosmology.fit_cmb"}


@pytest.mark.parametrize("text", [
    "How much does adding the supernovae to Planck tighten the constraint on w?",
    "Fit w to Planck plus the Pantheon supernovae.",
    "Combine the CMB band powers with the SNe and report Omega_m.",
])
def test_the_joint_fit_in_words_leads_with_the_cmb_fit(text: str) -> None:
    """Session 12: "adding the supernovae to Planck" is the CMB fit run jointly with supernovae.  Before, the two
    fits were near a tie (51% and 55% for the CMB fit); without data files to vote it may still be asked, but the
    CMB fit leads clearly and the supernova fit is never chosen."""
    reading = read_task(text=text)
    best = reading.choice.candidates[0]
    assert best.method == "cosmology.fit_cmb" and best.probability >= 0.75, reading.choice.candidates[:2]
    assert reading.method in (None, "cosmology.fit_cmb")


def test_a_planck_prior_on_a_supernova_fit_is_no_joint_fit() -> None:
    reading = read_task(text="Fit w to the binned supernova distances with a Gaussian prior on Omega_m from Planck.")
    assert reading.method == "cosmology.fit_supernovae", reading.choice.candidates[:2]
