"""The Planck 2018 high-ℓ "plik_lite" likelihood of binned TT, TE and EE band powers, with two optional binned
low-ℓ TT points, and the Gaussian prior on τ that stands in for the low-ℓ polarisation likelihood.

plik_lite (Planck 2018 V, arXiv:1907.12875, §3.3; Prince & Dunkley 2019, arXiv:1909.05869) is the
foreground-marginalised compression of the full high-ℓ plik likelihood: 215 TT bins over 30 ≤ ℓ ≤ 2508 and
199 TE and 199 EE bins over 30 ≤ ℓ ≤ 1996, binned C_ℓ in μK², with one 613 × 613 covariance that carries the
foreground and nuisance marginalisation.  Its only free nuisance is the overall Planck calibration
``A_planck`` (Gaussian prior 1 ± 0.0025); the theory is binned with the release's weights and divided by
A_planck².  The file layout (``cl_cmb_plik_v22.dat`` with columns ℓ_eff, C_b, σ_b; ``c_matrix_plik_v22.dat``,
the covariance's lower triangle as one Fortran unformatted record of float64; ``blmin.dat``/``blmax.dat``
bin edges counted from ℓ = 30; ``bweight.dat`` one weight per ℓ from 30) is the Planck Legacy Archive's.

Low ℓ: the two Gaussian TT bins (ℓ = 2–15 and 16–29) of Prince & Dunkley 2019, which compress the
Commander low-ℓ TT likelihood; they are not correlated with the high-ℓ bins.  Their Gaussian form ignores
the skewed (inverse-gamma-like) shape of the true low-ℓ likelihood, which pulls n_s and A_s by a fraction of
σ.  The low-ℓ EE likelihood ("lowE") is replaced by a Gaussian prior on τ: Planck 2018 VI (arXiv:1807.06209)
quotes τ = 0.0506 ± 0.0086 from lowE alone, which is the default here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from cmbagent.exceptions import DataError, UserError

__all__ = ["A_PLANCK_PRIOR", "LOWE_TAU_PRIOR", "BandPowers", "load_plik_lite"]

Array = NDArray[np.float64]

#: Planck's calibration nuisance prior, (mean, std)
A_PLANCK_PRIOR = (1.0, 0.0025)
#: τ from the Planck 2018 low-ℓ EE likelihood alone (Planck 2018 VI, §3.3), (mean, std)
LOWE_TAU_PRIOR = (0.0506, 0.0086)

_PLIK_LMIN = 30
_N_TT, _N_TE, _N_EE = 215, 199, 199
Spectra = Literal["TTTEEE", "TT", "TE", "EE"]


@dataclass(frozen=True)
class BandPowers:
    """Binned spectra and what turns a theory D_ℓ into the same bins.

    Attributes:
        names: ``TT``/``TE``/``EE`` per bin.
        ell_eff: effective multipole per bin.
        cl: the measured binned C_ℓ (μK²).
        sigma: the diagonal errors (for plots; the likelihood uses the covariance).
        windows: per spectrum, (ℓ_min, W) with W of shape (n_bins of that spectrum, n_ℓ): binned C = W @ D_ℓ[ℓ_min:].
        inv_chol_t: the transposed inverse Cholesky factor of the covariance (whitens residuals).
        source: where the data came from.
    """

    names: tuple[str, ...]
    ell_eff: Array
    cl: Array
    sigma: Array
    windows: dict[str, tuple[int, Array]]
    inv_chol_t: Array
    covariance: Array
    source: str
    description: str

    @property
    def n(self) -> int:
        return int(self.cl.size)

    def lmax(self) -> int:
        return max(lo + w.shape[1] - 1 for lo, w in self.windows.values())

    def bin_theory(self, dl: dict[str, Array], a_planck: Array | float = 1.0) -> Array:
        """Binned theory C_b (n_samples, n_bins) from D_ℓ arrays indexed by ℓ (each (n_samples, ≥ lmax+1)).

        Bins that tile their ℓ range (every plik_lite block does) are summed with ``np.add.reduceat`` over the
        weighted D_ℓ: linear in the number of multipoles and free of BLAS threads, which on a busy machine
        made the dense product 30x slower than the sum."""
        parts = []
        for spec in ("TT", "TE", "EE"):
            if spec in self.windows:
                lo, w = self.windows[spec]
                d = np.atleast_2d(dl[spec])[:, lo:lo + w.shape[1]]
                tiled = self._tiles.get(spec)
                if tiled is not None:
                    weight, starts = tiled
                    parts.append(np.add.reduceat(d * weight, starts, axis=1))
                else:
                    parts.append(d @ w.T)
        a = np.atleast_1d(np.asarray(a_planck, dtype=float))[:, None]
        return np.concatenate(parts, axis=1) / (a * a)

    @cached_property
    def _tiles(self) -> dict[str, tuple[Array, NDArray[np.intp]] | None]:
        out: dict[str, tuple[Array, NDArray[np.intp]] | None] = {}
        for spec, (_, w) in self.windows.items():
            nz = w != 0
            first = np.argmax(nz, axis=1)
            last = w.shape[1] - 1 - np.argmax(nz[:, ::-1], axis=1)
            one_bin = nz.sum(axis=0) <= 1
            tiles = bool(np.all(one_bin) and np.all(first[1:] == last[:-1] + 1) and first[0] == 0
                         and last[-1] == w.shape[1] - 1 and np.all(nz.any(axis=1)))
            out[spec] = (w.sum(axis=0), first.astype(np.intp)) if tiles else None
        return out

    def chi2(self, binned: Array) -> Array:
        r = (np.atleast_2d(binned) - self.cl) @ self.inv_chol_t
        return np.einsum("ij,ij->i", r, r)


def _package_dir(name: str) -> Path:
    return Path(str(resources.files("cmbagent.tools.methods.cosmology") / "data" / name))


def _read_lower_triangle(path: Path, n: int) -> Array:
    from scipy.io import FortranFile

    try:
        with FortranFile(path, "r") as f:
            raw = f.read_reals(dtype=np.float64)
    except (OSError, ValueError) as exc:
        raise DataError(f"{path.name}: not a Fortran unformatted float64 covariance ({exc})") from exc
    if raw.size != n * n:
        raise DataError(f"{path.name}: {raw.size} values, expected {n}×{n} = {n * n} for the bins of cl_cmb_plik")
    cov = raw.reshape(n, n)
    return np.tril(cov) + np.tril(cov, -1).T  # the file holds the lower triangle; mirror it


def _binning(blmin: NDArray[np.int64], blmax: NDArray[np.int64], weights: Array, lmin: int) -> tuple[int, Array]:
    """Window W with binned C = W @ D_ℓ for ℓ from ``lmin``: the release's weights times 2π/(ℓ(ℓ+1))."""
    n_ell = int(blmax.max()) + 1
    ell = np.arange(lmin, lmin + n_ell, dtype=float)
    w = np.zeros((blmin.size, n_ell))
    for b, (lo, hi) in enumerate(zip(blmin, blmax, strict=True)):
        w[b, lo:hi + 1] = weights[lo:hi + 1]
    return lmin, w * (2.0 * np.pi / (ell * (ell + 1.0)))


def load_plik_lite(folder: str | Path | None = None, *, spectra: Spectra = "TTTEEE",
                   low_ell_tt: bool = True) -> BandPowers:
    """Read plik_lite band powers (the shipped Planck 2018 v22 release when ``folder`` is None).

    Args:
        folder: a folder with ``cl_cmb_plik_v22.dat`` (or any ``cl_cmb_plik_v*.dat``), the matching
            ``c_matrix_plik_v*.dat``, ``blmin.dat``, ``blmax.dat`` and ``bweight.dat``.
        spectra: which blocks to use (the covariance is cut to them).
        low_ell_tt: add the two binned low-ℓ TT points (only with the shipped release).

    Raises:
        DataError: a missing or malformed file, named.
    """
    shipped = folder is None
    root = _package_dir("planck2018_plik_lite") if shipped else Path(folder)  # type: ignore[arg-type]
    if spectra not in ("TTTEEE", "TT", "TE", "EE"):
        raise UserError(f"spectra must be TTTEEE, TT, TE or EE (got {spectra!r})")
    if not root.is_dir():
        raise DataError(f"band-power folder not found: {root}; it needs cl_cmb_plik_v*.dat, c_matrix_plik_v*.dat, "
                        "blmin.dat, blmax.dat and bweight.dat (the Planck Legacy Archive plik_lite layout)")
    cl_files = sorted(root.glob("cl_cmb_plik_v*.dat"))
    if not cl_files:
        raise DataError(f"{root.name}: no cl_cmb_plik_v*.dat band-power file")
    version = cl_files[-1].name.removeprefix("cl_cmb_plik_v").removesuffix(".dat")
    need = {"cov": root / f"c_matrix_plik_v{version}.dat", "blmin": root / "blmin.dat",
            "blmax": root / "blmax.dat", "bweight": root / "bweight.dat"}
    missing = [p.name for p in need.values() if not p.is_file()]
    if missing:
        raise DataError(f"{root.name}: missing {', '.join(missing)} beside {cl_files[-1].name}")
    try:
        table = np.loadtxt(cl_files[-1], dtype=float)
        blmin = np.loadtxt(need["blmin"]).astype(np.int64)
        blmax = np.loadtxt(need["blmax"]).astype(np.int64)
        bweight = np.loadtxt(need["bweight"], dtype=float)
    except ValueError as exc:
        raise DataError(f"{root.name}: unreadable band-power file ({exc})") from exc
    n_all = _N_TT + _N_TE + _N_EE
    if table.ndim != 2 or table.shape != (n_all, 3):
        raise DataError(f"{cl_files[-1].name}: expected {n_all} rows of (ℓ_eff, C_b, σ_b), got shape {table.shape}")
    if not np.all(np.isfinite(table)) or np.any(table[:, 2] <= 0):
        raise DataError(f"{cl_files[-1].name}: non-finite values or non-positive errors")
    cov = _read_lower_triangle(need["cov"], n_all)
    blocks = {"TT": np.arange(0, _N_TT), "TE": np.arange(_N_TT, _N_TT + _N_TE),
              "EE": np.arange(_N_TT + _N_TE, n_all)}
    use = ("TT", "TE", "EE") if spectra == "TTTEEE" else (spectra,)
    index = np.concatenate([blocks[s] for s in use])
    windows = {s: _binning(blmin[: blocks[s].size], blmax[: blocks[s].size], bweight, _PLIK_LMIN) for s in use}
    names = [s for s in use for _ in blocks[s]]
    ell, cl, sigma = table[index, 0], table[index, 1], table[index, 2]
    cov = cov[np.ix_(index, index)]
    description = f"Planck 2018 plik_lite v{version} {spectra} (30 ≤ ℓ ≤ 2508)" if shipped else \
        f"plik_lite-format band powers v{version} {spectra} from {root.name}"
    if low_ell_tt and "TT" in use:
        if not shipped:
            raise UserError("low_ell_tt uses the shipped Planck 2018 low-ℓ TT bins; set it to false for other data")
        low = _package_dir("planck2018_lowl_tt_bins")
        lt = np.loadtxt(low / "CTT_bin_low_ell_2018.dat", dtype=float)
        lmin_low = int(np.loadtxt(low / "plmin_low_ell.dat"))
        lo_w = _binning(np.loadtxt(low / "blmin_low_ell.dat").astype(np.int64),
                        np.loadtxt(low / "blmax_low_ell.dat").astype(np.int64),
                        np.loadtxt(low / "bweight_low_ell.dat", dtype=float), lmin_low)
        # one TT window from ℓ = 2: the two low bins then the high-ℓ bins
        hi_lo, hi_w = windows["TT"]
        width = hi_lo + hi_w.shape[1] - lmin_low
        w = np.zeros((lo_w[1].shape[0] + hi_w.shape[0], width))
        w[: lo_w[1].shape[0], : lo_w[1].shape[1]] = lo_w[1]
        w[lo_w[1].shape[0]:, hi_lo - lmin_low:] = hi_w
        windows["TT"] = (lmin_low, w)
        n_low = lt.shape[0]
        pos = 0  # TT is first when present
        ell = np.concatenate([ell[:pos], lt[:, 0], ell[pos:]])
        cl = np.concatenate([cl[:pos], lt[:, 1], cl[pos:]])
        sigma = np.concatenate([sigma[:pos], lt[:, 2], sigma[pos:]])
        big = np.zeros((cov.shape[0] + n_low, cov.shape[0] + n_low))
        big[:n_low, :n_low] = np.diag(lt[:, 2] ** 2)
        big[n_low:, n_low:] = cov
        cov = big
        names = ["TT"] * n_low + names
        description += " + 2 binned low-ℓ TT points (2 ≤ ℓ ≤ 29; Prince & Dunkley 2019)"
    from scipy.linalg import cholesky, solve_triangular

    try:
        chol = cholesky(cov, lower=True)
    except np.linalg.LinAlgError as exc:
        raise DataError(f"{need['cov'].name}: the covariance is not positive definite") from exc
    inv_t = np.ascontiguousarray(solve_triangular(chol, np.eye(cov.shape[0]), lower=True).T)
    return BandPowers(names=tuple(names), ell_eff=ell, cl=cl, sigma=sigma, windows=windows, inv_chol_t=inv_t,
                      covariance=cov, source=str(root), description=description)
