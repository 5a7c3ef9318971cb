"""The shipped Planck 2018 plik_lite band powers: the files are the release's, the reader reads them as the
release lays them out, and binning a CAMB spectrum gives the chi-square Planck's best fit has."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods.cosmology._plik import load_plik_lite

DATA = Path(__file__).resolve().parents[3] / "tools" / "methods" / "cosmology" / "data"


def test_shipped_files_match_the_checksums_in_sources() -> None:
    listed = re.findall(r"\| `([\w.]+)`[^|]*\| (\d+) \| ([0-9a-f]{64}) \|", (DATA / "SOURCES.md").read_text())
    assert len(listed) == 10
    for name, size, digest in listed:
        path = next(DATA.glob(f"*/{name}"))
        assert path.stat().st_size == int(size), name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, name


def test_reader_builds_the_release_bins_and_covariance() -> None:
    bands = load_plik_lite(low_ell_tt=False)
    assert bands.n == 613 and bands.names.count("TT") == 215 and bands.names.count("EE") == 199
    assert bands.lmax() == 2508
    cov = bands.covariance
    assert np.allclose(cov, cov.T) and np.all(np.linalg.eigvalsh(cov) > 0)
    np.testing.assert_allclose(np.sqrt(np.diag(cov)), bands.sigma, rtol=1e-3)  # the file's σ column
    lo, w = bands.windows["TT"]
    assert lo == 30 and w.shape == (215, 2479)
    # the binned window of a flat C_ell is the bin's weight sum (the release's weights sum to one per bin)
    ell = np.arange(2509.0)
    flat = {s: ell * (ell + 1) / (2 * np.pi) for s in ("TT", "TE", "EE")}
    np.testing.assert_allclose(bands.bin_theory(flat), 1.0, rtol=1e-6)
    with_low = load_plik_lite()
    assert with_low.n == 615 and with_low.windows["TT"][0] == 2
    tt = load_plik_lite(spectra="TT", low_ell_tt=False)
    assert tt.n == 215 and set(tt.windows) == {"TT"}


def test_planck_best_fit_has_the_expected_chi2() -> None:
    """Planck 2018 TT,TE,EE+lowE best fit (CAMB at Planck's settings): chi2 ≈ 584 for the 613 high-ell bins
    (Planck 2018 V, arXiv:1907.12875, quotes chi2 ≈ 580-590 for plik_lite TTTEEE at its best fits)."""
    from cmbagent.tools.methods.cosmology._camb import camb_spectra

    s = camb_spectra({"ombh2": 0.022383, "omch2": 0.12011, "theta_MC_100": 1.040909, "tau": 0.0543,
                      "logA": 3.0448, "ns": 0.96605})
    bands = load_plik_lite(low_ell_tt=False)
    chi2 = float(bands.chi2(bands.bin_theory({"TT": s.tt, "TE": s.te, "EE": s.ee}, 1.00044))[0])
    assert 575 < chi2 < 595
    off = camb_spectra({"ombh2": 0.022383, "omch2": 0.13, "theta_MC_100": 1.040909, "tau": 0.0543,
                        "logA": 3.0448, "ns": 0.96605})
    assert float(bands.chi2(bands.bin_theory({"TT": off.tt, "TE": off.te, "EE": off.ee}))[0]) > chi2 + 100


def test_bad_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="not found"):
        load_plik_lite(tmp_path / "absent")
    with pytest.raises(DataError, match="no cl_cmb_plik"):
        load_plik_lite(tmp_path)
    (tmp_path / "cl_cmb_plik_v22.dat").write_text("30 1 1\n")
    with pytest.raises(DataError, match=r"missing c_matrix_plik_v22\.dat"):
        load_plik_lite(tmp_path)
    with pytest.raises(UserError, match="spectra must be"):
        load_plik_lite(spectra="BB")  # type: ignore[arg-type]
