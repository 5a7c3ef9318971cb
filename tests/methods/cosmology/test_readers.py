"""Readers: every format reads, and malformed files fail with a DataError naming the problem."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.exceptions import DataError
from cmbagent.tools.methods.cosmology import detect_format, load_sn_data, read_covariance

from ._paths import JLA, JLA_COV, PANTHEON, UNION

PANTHEON_HEADER = "CID zHD zHEL m_b_corr m_b_corr_err_DIAG IS_CALIBRATOR"


def _pantheon_like(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "mini_pantheon.dat"
    path.write_text("\n".join([PANTHEON_HEADER, *rows]) + "\n")
    return path


def test_pantheon_plus_cut_and_columns() -> None:
    data = load_sn_data(PANTHEON)
    assert data.format == "pantheon_plus" and data.kind == "mb"
    assert data.n == 1590
    assert np.all(data.z_cmb > 0.01)
    assert data.covariance is None and np.all(data.sigma > 0)
    assert any("1590 of 1701" in note for note in data.notes)


def test_union21_reads_580_rows_with_comments() -> None:
    data = load_sn_data(UNION)
    assert (data.format, data.kind, data.n) == ("union21", "mu", 580)
    assert data.names[0] == "1993ah"
    np.testing.assert_allclose([data.z_cmb[0], data.obs[0], data.sigma[0]], [0.028488, 35.3465833928, 0.223905932998])


def test_jla_binned_with_covariance_with_and_without_leading_n(tmp_path: Path) -> None:
    data = load_sn_data(JLA, JLA_COV)
    assert (data.format, data.n) == ("jla_binned", 31)
    assert data.covariance is not None and data.covariance.shape == (31, 31)
    with_n = tmp_path / "cov_with_n.txt"
    with_n.write_text("31\n" + JLA_COV.read_text())
    np.testing.assert_array_equal(load_sn_data(JLA, with_n).covariance, data.covariance)


def test_binned_file_without_covariance_says_to_pass_one() -> None:
    with pytest.raises(DataError, match="pass its covariance"):
        load_sn_data(JLA)


def test_pantheon_covariance_is_restricted_to_kept_rows(tmp_path: Path) -> None:
    rows = ["a 0.005 0.005 14.0 0.2 1", "b 0.02 0.02 15.0 0.2 0", "c 0.1 0.1 18.5 0.15 0", "d 0.5 0.5 22.3 0.1 0"]
    path = _pantheon_like(tmp_path, rows)
    full = np.diag([1.0, 2.0, 3.0, 4.0]) + 0.1
    cov = tmp_path / "mini.cov"
    cov.write_text("4\n" + "\n".join(f"{v:.6f}" for v in full.ravel()) + "\n")
    data = load_sn_data(path, cov)
    assert data.n == 3
    np.testing.assert_allclose(data.covariance, full[1:, 1:])
    np.testing.assert_allclose(data.sigma, np.sqrt(np.diag(full)[1:]))


def test_lcparam_adds_statistical_errors_to_systematic_covariance(tmp_path: Path) -> None:
    path = tmp_path / "lcparam_test.txt"
    path.write_text(
        "#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec biascor\n"
        "sn1 0.05 0.051 0 17.0 0.10 0 0 0 0 10 0 0 0 0 1 0 0 0\n"
        "sn2 0.20 0.201 0 20.2 0.12 0 0 0 0 10 0 0 0 0 1 0 0 0\n"
        "sn3 0.60 0.600 0 23.0 0.15 0 0 0 0 10 0 0 0 0 1 0 0 0\n"
    )
    sys_cov = tmp_path / "sys.txt"
    sys_cov.write_text("3\n" + "\n".join(["0.01", "0.002", "0", "0.002", "0.01", "0", "0", "0", "0.02"]))
    assert detect_format(path) == "lcparam"
    data = load_sn_data(path, sys_cov)
    assert data.kind == "mb"
    np.testing.assert_allclose(np.diag(data.covariance), [0.01 + 0.01, 0.01 + 0.0144, 0.02 + 0.0225])
    np.testing.assert_allclose(data.z_hel, [0.051, 0.201, 0.6])


@pytest.mark.parametrize(
    ("header", "kind"), [("z,mu,sigma_mu", "mu"), ("redshift,distmod,err", "mu"), ("zcmb,mb,dmb", "mb")]
)
def test_csv_accepts_documented_column_names(tmp_path: Path, header: str, kind: str) -> None:
    path = tmp_path / "table.csv"
    path.write_text(header + "\n0.1,38.3,0.1\n0.5,42.3,0.2\n")
    data = load_sn_data(path)
    assert (data.format, data.kind, data.n) == ("csv", kind, 2)


# ------------------------------------------------------------------------------------------ malformed data
def test_missing_column_is_named(tmp_path: Path) -> None:
    path = tmp_path / "p.dat"
    path.write_text("CID zHD zHEL m_b_corr\nx 0.1 0.1 18.0\n")
    with pytest.raises(DataError, match="m_b_corr_err_DIAG"):
        load_sn_data(path, format="pantheon_plus")
    csv = tmp_path / "nomu.csv"
    csv.write_text("z,sigma\n0.1,0.1\n")
    with pytest.raises(DataError, match="missing distance column"):
        load_sn_data(csv)


def test_nan_value_names_line_and_column(tmp_path: Path) -> None:
    path = _pantheon_like(tmp_path, ["a 0.1 0.1 18.0 0.1 0", "b 0.2 0.2 nan 0.1 0"])
    with pytest.raises(DataError, match=r"line 3, column 'm_b_corr'.*NaN"):
        load_sn_data(path)


@pytest.mark.parametrize("bad", ["-0.1", "0"])
def test_non_positive_error_is_rejected(tmp_path: Path, bad: str) -> None:
    path = tmp_path / "u.txt"
    path.write_text(f"# comment\nsn1\t0.1\t38.3\t0.1\t0.5\nsn2\t0.3\t41.0\t{bad}\t0.5\n")
    with pytest.raises(DataError, match=r"line 3, column 'sigma_mu'.*not positive"):
        load_sn_data(path, format="union21")


def test_non_positive_redshift_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("z,mu,err\n0.1,38.3,0.1\n-0.02,30.0,0.1\n")
    with pytest.raises(DataError, match=r"line 3, column 'z'.*<= 0"):
        load_sn_data(path)


def test_covariance_of_wrong_size(tmp_path: Path) -> None:
    cov = tmp_path / "cov.txt"
    cov.write_text("\n".join(["1.0"] * 30 * 30))
    with pytest.raises(DataError, match=r"900 values \(looks like a 30x30 matrix\).*31 rows"):
        load_sn_data(JLA, cov)
    wrong_n = tmp_path / "cov_n.txt"
    wrong_n.write_text("32\n" + JLA_COV.read_text())
    with pytest.raises(DataError, match="first line says N = 32, but the data have 31 rows"):
        load_sn_data(JLA, wrong_n)


def test_covariance_not_positive_definite(tmp_path: Path) -> None:
    cov = tmp_path / "cov.txt"
    cov.write_text("2\n1.0 2.0\n2.0 1.0\n")
    with pytest.raises(DataError, match="not positive definite"):
        read_covariance(cov, 2)


def test_covariance_not_symmetric(tmp_path: Path) -> None:
    cov = tmp_path / "cov.txt"
    cov.write_text("1.0 0.5\n0.1 1.0\n")
    with pytest.raises(DataError, match="not symmetric"):
        read_covariance(cov, 2)


def test_unrecognised_file_and_unknown_format(tmp_path: Path) -> None:
    path = tmp_path / "junk.txt"
    path.write_text("hello world\nfoo bar baz\n")
    with pytest.raises(DataError, match="format not recognised"):
        load_sn_data(path)
    with pytest.raises(DataError, match="unknown format"):
        load_sn_data(UNION, format="fits")
    with pytest.raises(DataError, match="not found"):
        load_sn_data(tmp_path / "missing.dat")


def test_autodetection_of_shipped_files() -> None:
    assert detect_format(PANTHEON) == "pantheon_plus"
    assert detect_format(UNION) == "union21"
    assert detect_format(JLA) == "jla_binned"


# ------------------------------------------------------------------ official binned lcparam releases (issue 15)
LCPARAM_HEADER = "#name zcmb zhel dz mb dmb x1 dx1 color dcolor 3rdvar d3rdvar cov_m_s cov_m_c cov_s_c set ra dec biascor"


def _release(tmp_path: Path, name: str, mb: list[float], dmb: list[float], z: list[float]) -> Path:
    """An lcparam file written the way the official binned releases are: 19 names, 18 values per row (the
    trailing biascor absent), zeros in the unused columns (Pantheon lcparam_DS17f.txt, Union3 lcparam_full.txt)."""
    rows = [f"{n} {zi:.6f} {zi:.6f} 0.0 {m:.6f} {e:g} 0 0 0 0 0 0 0 0 0 0 0 0"
            for n, (zi, m, e) in enumerate(zip(z, mb, dmb, strict=True))]
    assert all(len(r.split()) == 18 for r in rows)
    path = tmp_path / name
    path.write_text(LCPARAM_HEADER + " \n" + "\n".join(rows) + "\n")
    return path


def _covariance(tmp_path: Path, n: int, scale: float) -> Path:
    cov = scale * (np.eye(n) + 0.3 * np.exp(-np.abs(np.subtract.outer(np.arange(n), np.arange(n)))))
    path = tmp_path / "sys.txt"
    path.write_text(f"{n}\n" + "\n".join(f"{v:.8g}" for v in cov.ravel()) + "\n")
    return path


def test_pantheon_binned_release_rows_lack_the_trailing_column(tmp_path: Path) -> None:
    from cmbagent.tools.methods.cosmology import fiducial_mu

    z = np.array([0.014, 0.05, 0.2, 0.5, 1.0, 1.6])
    mb = fiducial_mu(z, z) - 19.35
    path = _release(tmp_path, "lcparam_DS17f.txt", mb.tolist(), [0.03] * 6, z.tolist())
    assert detect_format(path) == "lcparam"
    data = load_sn_data(path, _covariance(tmp_path, 6, 1e-4))
    assert (data.kind, data.n) == ("mb", 6)
    np.testing.assert_allclose(np.diag(data.covariance), 1.3e-4 + 0.03**2)


def test_union3_binned_release_holds_distance_moduli_with_zero_dmb(tmp_path: Path) -> None:
    from cmbagent.tools.methods.cosmology import fiducial_mu

    z = np.linspace(0.05, 2.26, 22)
    mu = fiducial_mu(z, z) + 0.02 * np.sin(np.arange(22))
    path = _release(tmp_path, "lcparam_full.txt", mu.tolist(), [0.0] * 22, z.tolist())
    cov = _covariance(tmp_path, 22, 4e-3)
    data = load_sn_data(path, cov)
    assert (data.format, data.kind, data.n) == ("lcparam", "mu", 22)
    assert any("distance moduli" in note for note in data.notes)
    np.testing.assert_allclose(np.diag(data.covariance), 4e-3 * 1.3)  # every error is in the covariance
    with pytest.raises(DataError, match=r"dmb is zero on 22 of 22 rows.*pass covariance="):
        load_sn_data(path)


def test_lcparam_rows_missing_more_than_the_trailing_column_are_rejected(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text(LCPARAM_HEADER + "\nsn1 0.1 0.1 0 19.0 0.1 0 0 0 0 0 0 0 0 0 0 0\n")
    with pytest.raises(DataError, match="17 fields but the header names 19 columns"):
        load_sn_data(path)


def test_des_hubble_diagram_csv_names_its_error_muerr(tmp_path: Path) -> None:
    path = tmp_path / "DES-SN5YR_HD.csv"
    path.write_text("CID,IDSURVEY,zHD,zHEL,MU,MUERR_FINAL,PROBIA_BEAMS\n1,10,0.1,0.1,38.3,0.1,1.0\n"
                    "2,10,0.5,0.5,42.3,0.2,1.0\n")
    data = load_sn_data(path)
    assert (data.format, data.kind, data.n) == ("csv", "mu", 2)
    np.testing.assert_allclose(data.sigma, [0.1, 0.2])
