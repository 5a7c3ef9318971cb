"""A polynomial emulator of CAMB's lensed TT, TE and EE spectra, so that a full ΛCDM (or wCDM) fit to CMB band
powers runs in minutes on a laptop instead of the hours one CAMB call per sample would take.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from cmbagent.exceptions import DataError
from cmbagent.tools.methods.cosmology._camb import ACCURACY

__all__ = ["BLOCKS", "BOX", "DERIVED", "EMULATOR_FILE", "LMAX", "CMBEmulator", "fit_emulator", "load_training_set"]

Array = NDArray[np.float64]

#: highest multipole emulated (the last multipole of the Planck 2018 plik_lite bins)
LMAX = 2508

#: the parameter box the emulator answers in (and its training points fill); outside it the fit's prior is
#: zero.  About ±6σ of the Planck 2018 TT,TE,EE+lowE posterior in each ΛCDM parameter, τ over [0.01, 0.10]
#: (±4.5σ of the lowE prior), and w over [-1.3, -0.7] (CAMB's PPF dark energy; θ_MC is held fixed while w
#: moves, so H0 follows).  Training points from a wider box (ombh2 0.0212-0.0236, omch2 0.109-0.1315,
#: 100θ_MC 1.0384-1.0434, τ 0.01-0.11, logA 2.94-3.16, ns 0.93-1.0, w -1.5 to -0.6) are used too.
BOX: dict[str, tuple[float, float]] = {
    "ombh2": (0.02146, 0.02326),
    "omch2": (0.1118, 0.1286),
    "theta_MC_100": (1.0390, 1.0428),
    "tau": (0.01, 0.10),
    "logA": (2.95, 3.14),
    "ns": (0.938, 0.991),
    "w": (-1.3, -0.7),
}


# ---------------------------------------------------------------------------------------------- the model
#: the emulated outputs, each over ℓ = 2..LMAX: log D_ℓ^TT, log D_ℓ^EE and the TE correlation
#: TE/sqrt(TT·EE), which stays in (-1, 1) and is smooth through TE's zero crossings where TE itself is not
BLOCKS = ("log_tt", "log_ee", "r_te")
#: derived numbers emulated beside the spectra (CAMB derives them; H0 from θ_MC needs a root search)
DERIVED = ("H0", "rdrag", "zstar", "thetastar")
#: the parameters the derived numbers depend on (background and recombination only): they are fitted in this
#: subspace with a cubic, where the 7-dimensional fit of the spectra would add the noise of irrelevant axes
DERIVED_DIMS = ("ombh2", "omch2", "theta_MC_100", "w")
DERIVED_DEGREE = 3


def _exponents(n_dim: int, degree: int) -> NDArray[np.int64]:
    """Monomial exponents of every term of total degree <= ``degree`` (constant first)."""
    from itertools import combinations_with_replacement

    rows = [np.zeros(n_dim, dtype=np.int64)]
    for d in range(1, degree + 1):
        for combo in combinations_with_replacement(range(n_dim), d):
            e = np.zeros(n_dim, dtype=np.int64)
            for i in combo:
                e[i] += 1
            rows.append(e)
    return np.array(rows)


def _features(u: Array, exponents: NDArray[np.int64]) -> Array:
    """Monomials of the unit-box coordinates ``u`` (n, d) -> (n, n_terms), by repeated products."""
    max_deg = int(exponents.max())
    powers = np.ones((max_deg + 1, *u.shape))
    for k in range(1, max_deg + 1):
        powers[k] = powers[k - 1] * u
    out = np.ones((u.shape[0], exponents.shape[0]))
    for j in range(u.shape[1]):
        out *= powers[exponents[:, j], :, j].T
    return out


def _rbf_kernel(r: Array) -> Array:
    """Polyharmonic spline r³ (conditionally positive definite of order 2; the cubic polynomial part covers it)."""
    return r * r * r


@dataclass
class CMBEmulator:
    """CAMB's lensed TT/TE/EE spectra and a few derived numbers as fast functions of the parameters in
    :data:`BOX`.

    Each output block is projected on its leading principal components; each component is a quadratic
    polynomial of the unit-box coordinates plus a polyharmonic-spline (r³) interpolant of the polynomial's
    residuals at the training points, so the emulator reproduces its training spectra and is smooth in between.
    The derived numbers are a cubic plus r³ interpolant in the four parameters they depend on
    (:data:`DERIVED_DIMS`).  Evaluation is a few small matrix products per batch of points.
    """

    names: tuple[str, ...]
    lo: Array
    hi: Array
    exponents: NDArray[np.int64]
    means: dict[str, Array]
    components: dict[str, Array]
    poly: Array  # (n_terms, n_outputs): PCA coefficients of every block, then the derived numbers
    centers: Array  # (n_train, d) unit-box training points
    rbf: Array  # (n_train, n_outputs)
    n_components: dict[str, int]
    omnuh2: float
    derived_poly: Array  # (n_terms in DERIVED_DIMS, n_derived)
    derived_rbf: Array  # (n_train, n_derived)
    meta: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------------------------ evaluation
    def unit(self, x: ArrayLike) -> Array:
        return np.asarray(2.0 * (np.atleast_2d(np.asarray(x, dtype=float)) - self.lo) / (self.hi - self.lo) - 1.0)

    def in_box(self, x: ArrayLike) -> NDArray[np.bool_]:
        u = self.unit(x)
        return np.all(np.abs(u) <= 1.0 + 1e-12, axis=1)

    def _outputs(self, x: ArrayLike) -> Array:
        u = self.unit(x)
        out = _features(u, self.exponents) @ self.poly
        if self.rbf.size:
            r = np.sqrt(np.maximum(((u[:, None, :] - self.centers[None, :, :]) ** 2).sum(axis=2), 0.0))
            out += _rbf_kernel(r) @ self.rbf
        dims = [self.names.index(n) for n in DERIVED_DIMS]
        ud, cd = u[:, dims], self.centers[:, dims]
        der = _features(ud, _exponents(len(dims), DERIVED_DEGREE)) @ self.derived_poly
        if self.derived_rbf.size:
            r = np.sqrt(np.maximum(((ud[:, None, :] - cd[None, :, :]) ** 2).sum(axis=2), 0.0))
            der += _rbf_kernel(r) @ self.derived_rbf
        return np.asarray(np.concatenate([out, der], axis=1))

    def predict(self, x: ArrayLike) -> tuple[dict[str, Array], dict[str, Array]]:
        """``(spectra, derived)`` at points ``x`` (n, d) in :attr:`names` order.

        spectra: ``TT``, ``TE``, ``EE`` as D_ℓ in μK², shape (n, LMAX + 1), zero at ℓ = 0, 1.
        derived: ``H0``, ``Omega_m`` (with this emulator's fixed Σmν) and the other :data:`DERIVED` numbers.
        """
        out = self._outputs(x)
        blocks: dict[str, Array] = {}
        col = 0
        for b in BLOCKS:
            k = self.n_components[b]
            blocks[b] = self.means[b] + out[:, col:col + k] @ self.components[b]
            col += k
        n = out.shape[0]
        spectra = {s: np.zeros((n, LMAX + 1)) for s in ("TT", "TE", "EE")}
        tt, ee = np.exp(blocks["log_tt"]), np.exp(blocks["log_ee"])
        spectra["TT"][:, 2:], spectra["EE"][:, 2:] = tt, ee
        spectra["TE"][:, 2:] = blocks["r_te"] * np.sqrt(tt * ee)
        derived = {d: out[:, col + j] for j, d in enumerate(DERIVED)}
        xx = np.atleast_2d(np.asarray(x, dtype=float))
        h = derived["H0"] / 100.0
        derived["Omega_m"] = (xx[:, self.names.index("ombh2")] + xx[:, self.names.index("omch2")] + self.omnuh2) / h**2
        return spectra, derived

    # ------------------------------------------------------------------------------------ persistence
    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {
            "names": np.array(self.names), "lo": self.lo, "hi": self.hi, "exponents": self.exponents,
            "poly": self.poly, "centers": self.centers, "rbf": self.rbf, "omnuh2": np.array(self.omnuh2),
            "derived_poly": self.derived_poly, "derived_rbf": self.derived_rbf,
            "meta": np.array(json.dumps(self.meta)),
        }
        for b in BLOCKS:
            arrays[f"mean_{b}"] = self.means[b]
            arrays[f"components_{b}"] = self.components[b].astype(np.float32)
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path | None = None) -> CMBEmulator:
        """The shipped emulator (``data/camb_emulator.npz``) or one written by :meth:`save`."""
        if path is None:
            path = Path(str(resources.files("cmbagent.tools.methods.cosmology") / "data" / EMULATOR_FILE))
        path = Path(path)
        if not path.is_file():
            raise DataError(f"CAMB emulator file not found: {path}; rebuild it with "
                            "python -m cmbagent.tools.methods.cosmology._emulator_build (docs/cosmology.md)")
        with np.load(path, allow_pickle=False) as z:
            comps = {b: z[f"components_{b}"].astype(float) for b in BLOCKS}
            return cls(names=tuple(str(n) for n in z["names"]), lo=z["lo"], hi=z["hi"], exponents=z["exponents"],
                       means={b: z[f"mean_{b}"] for b in BLOCKS}, components=comps, poly=z["poly"],
                       centers=z["centers"], rbf=z["rbf"], n_components={b: c.shape[0] for b, c in comps.items()},
                       omnuh2=float(z["omnuh2"]), derived_poly=z["derived_poly"], derived_rbf=z["derived_rbf"],
                       meta=json.loads(str(z["meta"])))


EMULATOR_FILE = "camb_emulator.npz"


# ---------------------------------------------------------------------------------------------- training
def load_training_set(folder: Path) -> tuple[Array, dict[str, Array]]:
    """Inputs (n, d) and outputs (each block (n, LMAX - 1), the derived numbers, ``omnuh2``) of a training
    folder written by ``_emulator_build generate``, in point order."""
    files = sorted(Path(folder).glob("point_*.npz"), key=lambda p: int(p.stem.split("_")[1]))
    files = [f for f in files if not f.name.endswith(".tmp.npz")]
    if not files:
        raise DataError(f"no point_*.npz training files in {folder}")
    xs: list[Any] = []
    out: dict[str, list[Any]] = {b: [] for b in (*BLOCKS, *DERIVED, "omnuh2", "index")}
    for f in files:
        with np.load(f) as z:
            tt, ee, te = z["tt"], z["ee"], z["te"]
            d = dict(zip([str(n) for n in z["derived_names"]], z["derived"].tolist(), strict=True))
            xs.append(z["x"])
        out["log_tt"].append(np.log(tt))
        out["log_ee"].append(np.log(ee))
        out["r_te"].append(te / np.sqrt(tt * ee))
        for k in DERIVED:
            out[k].append(d[k])
        out["omnuh2"].append(d["omnuh2"])
        out["index"].append(int(f.stem.split("_")[1]))
    return np.array(xs), {k: np.array(v) for k, v in out.items()}


def _fit_outputs(u: Array, y: Array, exponents: NDArray[np.int64], rbf: bool, ridge: float = 1e-10
                 ) -> tuple[Array, Array]:
    """Least-squares polynomial, then an r³ interpolant of its residuals (solved with the polynomial
    constraint implicitly satisfied by fitting residuals of a least-squares fit)."""
    phi = _features(u, exponents)
    poly: Array = np.asarray(np.linalg.lstsq(phi, y, rcond=None)[0], dtype=np.float64)
    if not rbf:
        return poly, np.zeros((0, y.shape[1]))
    resid = y - phi @ poly
    r = np.sqrt(((u[:, None, :] - u[None, :, :]) ** 2).sum(axis=2))
    k = _rbf_kernel(r)
    n, m = k.shape[0], phi.shape[1]
    # the standard augmented system keeps the interpolant exact and the polynomial part untouched
    big = np.zeros((n + m, n + m))
    big[:n, :n] = k + ridge * np.eye(n)
    big[:n, n:] = phi
    big[n:, :n] = phi.T
    rhs = np.zeros((n + m, y.shape[1]))
    rhs[:n] = resid
    sol = np.linalg.solve(big, rhs)
    return poly + sol[n:], sol[:n]


def fit_emulator(x: Array, y: dict[str, Array], *, holdout: int = 8, output: Path | None = None,
                 degree: int = 2, pca_tol: float = 1e-5, rbf: bool = True,
                 extra: tuple[Array, dict[str, Array]] | None = None) -> dict[str, Any]:
    """Fit the emulator on all points but every ``holdout``-th, measure it on those, write it to ``output``.

    Args:
        x: inputs (n, d) in :data:`BOX` order.
        y: outputs from :func:`load_training_set`.
        holdout: every n-th point (by position in the Sobol sequence) is held out.
        output: where to write the ``.npz`` (nothing is written when None).
        degree: polynomial degree.
        pca_tol: keep principal components until the RMS reconstruction error of a block's training rows is
            below this (log D_ℓ and the TE correlation are O(1) numbers).
        rbf: add the r³ interpolant of the polynomial's residuals.
        extra: more training points (from a wider box), used for training only.

    Returns:
        The held-out errors per block (max and RMS, in the block's units) and the emulator's sizes.
    """
    names = tuple(BOX)
    lo = np.array([BOX[n][0] for n in names])
    hi = np.array([BOX[n][1] for n in names])
    test = np.zeros(x.shape[0], dtype=bool)
    test[holdout - 1::holdout] = True
    train = ~test
    if extra is not None:
        x = np.concatenate([x, extra[0]])
        y = {k: np.concatenate([v, extra[1][k]]) for k, v in y.items()}
        test = np.concatenate([test, np.zeros(extra[0].shape[0], dtype=bool)])
        train = ~test
    u = 2.0 * (x - lo) / (hi - lo) - 1.0
    exponents = _exponents(len(names), degree)
    means, comps, ncomp, cols = {}, {}, {}, []
    for b in BLOCKS:
        yb = y[b][train]
        mean = yb.mean(axis=0)
        _, s, vt = np.linalg.svd(yb - mean, full_matrices=False)
        # reconstruction RMS with k components = sqrt(sum of the dropped s^2 / size)
        tail = np.sqrt(np.cumsum((s**2)[::-1])[::-1] / yb.size)
        k = int(np.argmax(np.append(tail, 0.0) < pca_tol))
        k = max(k, 1)
        means[b], comps[b], ncomp[b] = mean, vt[:k], k
        cols.append((yb - mean) @ vt[:k].T)
    derived = np.column_stack([y[d][train] for d in DERIVED])
    poly, rbf_w = _fit_outputs(u[train], np.column_stack(cols), exponents, rbf)
    dims = [names.index(n) for n in DERIVED_DIMS]
    d_poly, d_rbf = _fit_outputs(u[train][:, dims], derived, _exponents(len(dims), DERIVED_DEGREE), rbf)
    omnuh2 = float(np.median(y["omnuh2"]))
    emu = CMBEmulator(names=names, lo=lo, hi=hi, exponents=exponents, means=means, components=comps, poly=poly,
                      centers=u[train], rbf=rbf_w, n_components=ncomp, omnuh2=omnuh2, derived_poly=d_poly,
                      derived_rbf=d_rbf)
    report: dict[str, Any] = {"n_train": int(train.sum()), "n_test": int(test.sum()), "degree": degree,
                              "rbf": rbf, "n_components": ncomp, "held_out": {}}
    if test.any():
        spectra, der = emu.predict(x[test])
        truth = {"TT": np.exp(y["log_tt"][test]), "EE": np.exp(y["log_ee"][test])}
        truth["TE"] = y["r_te"][test] * np.sqrt(truth["TT"] * truth["EE"])
        for name in ("TT", "TE", "EE"):
            diff = spectra[name][:, 2:] - truth[name]
            scale = np.sqrt(truth["TT"] * truth["EE"]) if name == "TE" else truth[name]
            rel = np.abs(diff) / scale
            high, low = rel[:, 28:], rel[:, :28]  # 30 <= ell <= LMAX (the high-ell band powers), 2 <= ell < 30
            report["held_out"][name] = {"max_rel": float(high.max()), "rms_rel": float(np.sqrt(np.mean(high**2))),
                                     "max_rel_low_ell": float(low.max()), "ell_range": [30, LMAX]}
        for d in DERIVED:
            rel = np.abs(der[d] - y[d][test]) / np.abs(y[d][test])
            report["held_out"][d] = {"max_rel": float(rel.max()), "rms_rel": float(np.sqrt(np.mean(rel**2)))}
    emu.meta = {"report": report, "camb": _camb_version(), "accuracy": ACCURACY, "seed_note":
                "scrambled Sobol points, seed 20240601 (_emulator_build.SEED)",
                "training_indices_held_out_every": holdout}
    if output is not None:
        emu.save(Path(output))
    return report


def _camb_version() -> str:
    from cmbagent.tools.methods.cosmology._camb import camb_version

    return camb_version()
