"""Distances agree with astropy.cosmology (no radiation) to 1e-6 relative for every model."""

from __future__ import annotations

import numpy as np
import pytest
from astropy import units as u
from astropy.cosmology import FLRW, FlatLambdaCDM, LambdaCDM, w0waCDM, wCDM

from cmbagent.tools.methods.cosmology import DistanceGrid, expansion_rate

Z = np.concatenate([np.geomspace(0.001, 3.0, 250), [3.0]])

CASES = [
    ("flat LCDM", FlatLambdaCDM(H0=70, Om0=0.3, Tcmb0=0), (0.3, 0.7, -1.0, 0.0)),
    ("open LCDM", LambdaCDM(H0=70, Om0=0.3, Ode0=0.5, Tcmb0=0), (0.3, 0.5, -1.0, 0.0)),
    ("closed LCDM", LambdaCDM(H0=70, Om0=0.45, Ode0=0.85, Tcmb0=0), (0.45, 0.85, -1.0, 0.0)),
    ("flat wCDM", wCDM(H0=70, Om0=0.3, Ode0=0.7, w0=-0.8, Tcmb0=0), (0.3, 0.7, -0.8, 0.0)),
    ("curved wCDM", wCDM(H0=70, Om0=0.25, Ode0=0.6, w0=-1.3, Tcmb0=0), (0.25, 0.6, -1.3, 0.0)),
    ("flat w0waCDM", w0waCDM(H0=70, Om0=0.3, Ode0=0.7, w0=-0.9, wa=0.5, Tcmb0=0), (0.3, 0.7, -0.9, 0.5)),
    ("curved w0waCDM", w0waCDM(H0=70, Om0=0.3, Ode0=0.8, w0=-1.1, wa=-0.7, Tcmb0=0), (0.3, 0.8, -1.1, -0.7)),
]


@pytest.mark.parametrize(("label", "cosmo", "params"), CASES, ids=[c[0] for c in CASES])
def test_transverse_distance_matches_astropy(label: str, cosmo: FLRW, params: tuple[float, ...]) -> None:
    ref = cosmo.comoving_transverse_distance(Z).to_value(u.Mpc) / cosmo.hubble_distance.to_value(u.Mpc)
    ours = DistanceGrid.build(Z).transverse(*params)[0]
    assert np.max(np.abs(ours / ref - 1.0)) < 1e-6, label


def test_luminosity_distance_modulus_matches_astropy() -> None:
    cosmo = LambdaCDM(H0=68, Om0=0.32, Ode0=0.6, Tcmb0=0)
    dm = DistanceGrid.build(Z).transverse(0.32, 0.6)[0] * 299792.458 / 68.0
    mu = 5 * np.log10((1 + Z) * dm) + 25
    np.testing.assert_allclose(mu, cosmo.distmod(Z).value, atol=5e-6)


def test_vectorised_over_samples_equals_one_at_a_time() -> None:
    rng = np.random.default_rng(1)
    om, ode = rng.uniform(0.1, 0.5, 7), rng.uniform(0.4, 0.9, 7)
    w0, wa = rng.uniform(-1.3, -0.7, 7), rng.uniform(-0.5, 0.5, 7)
    grid = DistanceGrid.build(Z)
    batch = grid.transverse(om, ode, w0, wa)
    assert batch.shape == (7, Z.size)
    for i in range(7):
        np.testing.assert_allclose(batch[i], grid.transverse(om[i], ode[i], w0[i], wa[i])[0], rtol=1e-13)


def test_unphysical_expansion_history_is_nan() -> None:
    # Omega_m = 0.1, Omega_L = 1.5: E^2 < 0 at moderate z (a "bounce" universe without a big bang)
    assert np.isnan(expansion_rate([2.0], 0.1, 1.5)).all()
    assert np.isnan(DistanceGrid.build([0.5, 2.0]).transverse(0.1, 1.5)[0, -1])
    assert np.isfinite(expansion_rate([2.0], 0.3, 0.7)).all()


def test_grid_rejects_negative_redshift() -> None:
    with pytest.raises(ValueError, match="redshifts"):
        DistanceGrid.build([0.1, -0.2])
