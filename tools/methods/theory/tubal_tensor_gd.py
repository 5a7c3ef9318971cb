"""Implicit regularisation in tubal tensor factorisation (Karnik, Veselovska, Iwen, Krahmer; arXiv 2410.16247).

A symmetric tensor X* = T*Tᵀ ∈ R^{n×n×k} of low tubal rank r* is observed through m linear measurements
y_j = ⟨A_j, X*⟩ with m below the number of entries, so many tensors fit the data.  Gradient descent on an
over-parametrised factor U ∈ R^{n×r×k} (r ≫ r*) of X = U*Uᵀ, started from a small random U₀ of scale α,
nevertheless finds (approximately) the low-tubal-rank X*: the spectral components that the data excite grow
exponentially from the tiny start while the others stay near α, so the error at the end shrinks with α.
Large α loses this bias: the fit is as good (train error ≈ 0) but generalises worse and has high tubal rank.

Gradient descent runs in the Fourier domain along the third mode, where the t-product is a product of the
⌊k/2⌋+1 independent frontal slices: X̂_f = Û_f Û_fᴴ and ∇ = (M̂_f + M̂_fᴴ) Û_f with M = (1/m) Σ_j r_j A_j,
so no transform is needed inside the loop (the measurement tensors are transformed once).  The
loss is (1/2m)‖A(U*Uᵀ) − y‖², the reference code's loss up to the 1/m that makes the step size independent of
m; initialisation U₀ = α·N(0, 1/r) and X* with orthonormal tubal factors follow the reference code
(MATLAB, github.com/AnnaVeselovskaUA/tubal-tensor-implicit-reg-GD).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.paths import OutputDir
from cmbagent.tools.methods import Check, MethodFinding, MethodResult, Paper, method
from cmbagent.tools.methods._kit import blas_threads, check_positive, output_path
from cmbagent.tools.methods.theory._io import check_list, spread
from cmbagent.tools.methods.theory._tensor import t_product, t_transpose

__all__ = ["TubalGD", "TubalProblem", "make_problem", "tubal_tensor_gd"]

PAPER = Paper(
    title="Implicit Regularization for Tubal Tensor Factorizations via Gradient Descent",
    arxiv="2410.16247",
    authors="Karnik, Veselovska, Iwen, Krahmer",
    year=2024,
    code="AnnaVeselovskaUA/tubal-tensor-implicit-reg-GD",
)
#: measurement tensors held in the Fourier domain (complex128), above which the caller must shrink the problem
MAX_OPERATOR_BYTES = 400_000_000
#: relative train error ‖A(X) − y‖/‖y‖ at or below which the data count as interpolated
FIT_TOL = 1e-2


def _rfft_weights(k: int) -> np.ndarray:
    """Parseval weights of the half spectrum: ⟨A, B⟩ = (1/k) Σ_f w_f Re⟨Â_f, B̂_f⟩ over f ≤ ⌊k/2⌋."""
    w = np.full(k // 2 + 1, 2.0)
    w[0] = 1.0
    if k % 2 == 0:
        w[-1] = 1.0
    return w


@dataclass(frozen=True)
class TubalProblem:
    """A tubal sensing problem: the truth X*, measurement tensors A (m×n×n×k) and data y = A(X*)."""

    x_star: np.ndarray
    operator: np.ndarray
    y: np.ndarray


def make_problem(n: int, k: int, true_rank: int, measurements: int, *, seed: int) -> TubalProblem:
    """X* = Q*Qᵀ with Q ∈ R^{n×r*×k} t-orthonormal (every Fourier slice has orthonormal columns), Gaussian A_j."""
    rng = np.random.default_rng(seed)
    t = rng.normal(size=(n, true_rank, k))
    spectrum = np.fft.rfft(t, axis=2)
    q_hat = np.stack([np.linalg.qr(spectrum[:, :, f])[0] for f in range(k // 2 + 1)], axis=2)
    q = np.fft.irfft(q_hat, n=k, axis=2)
    x_star = t_product(q, t_transpose(q))
    operator = rng.normal(size=(measurements, n, n, k))
    y = operator.reshape(measurements, -1) @ x_star.ravel()
    return TubalProblem(x_star=x_star, operator=operator, y=y)


class TubalGD:
    """Gradient descent on U in X = U*Uᵀ from U₀ = α·N(0, 1/r), fitted to linear measurements.

    Follows the scikit-learn contract: ``__init__`` stores the settings, :meth:`fit` validates them and sets
    ``u_``, ``x_``, ``history_`` (iterations, train error and, when ``x_star`` is given, test error and the
    singular values of X̂ at each recorded step), ``n_iter_`` and ``diverged_``.

    Args:
        rank: number of tubal columns r of U (over-parametrised when r > r*).
        alpha: initialisation scale α > 0.
        learning_rate: step size η on the loss (1/2m)‖A(U*Uᵀ) − y‖².
        iterations: the number of gradient steps.
        record_every: record errors and spectra every this many steps.
        random_state: seed of U₀.
    """

    def __init__(self, rank: int = 50, alpha: float = 1e-3, learning_rate: float = 0.05, iterations: int = 4000,
                 record_every: int = 50, random_state: int | None = 0) -> None:
        self.rank = rank
        self.alpha = alpha
        self.learning_rate = learning_rate
        self.iterations = iterations
        self.record_every = record_every
        self.random_state = random_state

    def _validate(self) -> None:
        check_positive(self.rank, argument="rank", integer=True)
        check_positive(self.alpha, argument="alpha")
        check_positive(self.learning_rate, argument="learning_rate")
        check_positive(self.iterations, argument="iterations", integer=True)
        check_positive(self.record_every, argument="record_every", integer=True)

    def fit(self, operator: np.ndarray, y: np.ndarray, x_star: np.ndarray | None = None) -> TubalGD:
        """Fit to measurements ``y_j = ⟨operator[j], X⟩`` (operator: m×n×n×k); ``x_star`` only scores the path."""
        self._validate()
        operator = np.asarray(operator, dtype=float)
        y = np.asarray(y, dtype=float).ravel()
        if operator.ndim != 4 or operator.shape[1] != operator.shape[2]:
            raise UserError(f"operator: measurement tensors must be stacked as m×n×n×k, got shape {operator.shape}")
        m, n, _, k = operator.shape
        if y.shape[0] != m:
            raise UserError(f"y: {y.shape[0]} measurements do not match the {m} measurement tensors")
        if x_star is not None and np.shape(x_star) != (n, n, k):
            raise UserError(f"x_star: shape {np.shape(x_star)} does not match the measurement tensors' {(n, n, k)}")
        if operator.size * 16 > MAX_OPERATOR_BYTES:
            raise UserError(f"the measurement operator ({m}×{n}×{n}×{k}) is too large to hold in memory; "
                            "use fewer measurements or a smaller n or k")
        spectrum = np.fft.rfft(operator, axis=3).transpose(0, 3, 1, 2)  # m × kh × n × n
        forward = (np.conj(spectrum) * (_rfft_weights(k) / k)[None, :, None, None]).reshape(m, -1)
        adjoint = spectrum.reshape(m, -1) / m
        star_hat = None if x_star is None else np.fft.rfft(np.asarray(x_star, float), axis=2).transpose(2, 0, 1)
        star_norm = None if x_star is None else float(np.linalg.norm(x_star))
        y_norm = float(np.linalg.norm(y)) or 1.0

        rng = np.random.default_rng(self.random_state)
        u0 = self.alpha * rng.normal(size=(n, self.rank, k)) / np.sqrt(self.rank)
        u_hat = np.fft.rfft(u0, axis=2).transpose(2, 0, 1)  # kh × n × r
        history: dict[str, list[Any]] = {"iteration": [], "train_error": [], "test_error": [], "slice_sv": []}
        with blas_threads():
            step, u_hat, x_hat = self._descend(u_hat, forward, adjoint, y, y_norm, star_hat, star_norm, k,
                                               history)
        self.n_iter_ = step
        self.u_ = np.fft.irfft(u_hat.transpose(1, 2, 0), n=k, axis=2)
        self.x_ = np.fft.irfft(x_hat.transpose(1, 2, 0), n=k, axis=2)
        self.history_ = {key: np.asarray(value) for key, value in history.items() if len(value)}
        return self

    def _descend(self, u_hat: np.ndarray, forward: np.ndarray, adjoint: np.ndarray, y: np.ndarray, y_norm: float,
                 star_hat: np.ndarray | None, star_norm: float | None, k: int,
                 history: dict[str, list[Any]]) -> tuple[int, np.ndarray, np.ndarray]:
        """The gradient steps on the half spectrum Û (kh × n × r); returns the last step, Û and X̂."""
        kh, n, _ = u_hat.shape
        eta = self.learning_rate
        self.diverged_ = False
        step = 0
        x_hat = u_hat @ np.conj(u_hat.transpose(0, 2, 1))
        for step in range(self.iterations + 1):
            x_hat = u_hat @ np.conj(u_hat.transpose(0, 2, 1))
            residual = np.real(forward @ x_hat.ravel()) - y
            if step % self.record_every == 0 or step == self.iterations:
                train = float(np.linalg.norm(residual)) / y_norm
                history["iteration"].append(step)
                history["train_error"].append(train)
                history["slice_sv"].append(np.linalg.svd(x_hat, compute_uv=False).max(axis=0))
                if star_hat is not None and star_norm:
                    history["test_error"].append(_fourier_distance(x_hat, star_hat, k) / star_norm)
                if not np.isfinite(train) or train > 1e6:
                    self.diverged_ = True
                    break
            if step == self.iterations:
                break
            m_hat = (residual @ adjoint).reshape(kh, n, n)
            u_hat = u_hat - eta * ((m_hat + np.conj(m_hat.transpose(0, 2, 1))) @ u_hat)
        return step, u_hat, x_hat

    def loss_gradient(self, operator: np.ndarray, y: np.ndarray, u: np.ndarray) -> np.ndarray:
        """∇_U (1/2m)‖A(U*Uᵀ) − y‖² computed with t-products in the original domain (the definition)."""
        m = operator.shape[0]
        x = t_product(u, t_transpose(u))
        residual = operator.reshape(m, -1) @ x.ravel() - y
        mm = (residual @ operator.reshape(m, -1)).reshape(x.shape) / m
        return t_product(mm + t_transpose(mm), u)


def _fourier_distance(x_hat: np.ndarray, star_hat: np.ndarray, k: int) -> float:
    """‖X − X*‖_F from half spectra (Parseval)."""
    diff = x_hat - star_hat
    energy = (np.abs(diff) ** 2).sum(axis=(1, 2))
    return float(np.sqrt((_rfft_weights(k) * energy).sum() / k))


def _tubal_rank_from_sv(sv: np.ndarray, tol: float) -> int:
    top = float(sv.max()) if sv.size else 0.0
    return int((sv > tol * top).sum()) if top > 0 else 0


def _run(problem: TubalProblem, *, rank: int, alpha: float, learning_rate: float, iterations: int, tol: float,
         seed: int) -> dict[str, Any]:
    gd = TubalGD(rank=rank, alpha=alpha, learning_rate=learning_rate, iterations=iterations,
                 record_every=max(1, iterations // 80), random_state=seed)
    gd.fit(problem.operator, problem.y, problem.x_star)
    h = gd.history_
    ranks = [_tubal_rank_from_sv(sv, tol) for sv in h["slice_sv"]]
    return {"train_error": float(h["train_error"][-1]), "test_error": float(h["test_error"][-1]),
            "tubal_rank": ranks[-1], "diverged": gd.diverged_, "history": h, "rank_path": ranks}


@method(
    "theory.tubal_tensor_gd",
    paper=PAPER,
    keywords=["tubal rank", "t-product", "tensor factorization", "tensor factorisation", "implicit regularization",
              "implicit regularisation", "implicit bias", "small initialization", "tensor sensing",
              "overparameterization", "t-SVD", "gradient descent"],
    example="tubal_tensor_gd(alphas=[1e-6, 1e-3, 1e-1], n=10, k=4, true_rank=2, rank=50, measurements=110)",
)
def tubal_tensor_gd(
    alphas: list[float] | None = None,
    n: int = 10,
    k: int = 4,
    true_rank: int = 2,
    rank: int = 50,
    measurements: int = 110,
    learning_rate: float = 0.05,
    iterations: int = 4000,
    n_seeds: int = 3,
    rank_sweep: list[int] | None = None,
    measurement_sweep: list[int] | None = None,
    rank_tol: float = 1e-2,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Sweep the initialisation scale α of gradient descent on a tubal tensor factorisation U*Uᵀ.

    For each seed a fresh problem (X* of tubal rank ``true_rank``, Gaussian measurements) is drawn and gradient
    descent runs from U₀ = α·N(0, 1/r) for every α. Reports the relative train error ‖A(X) − y‖/‖y‖, the
    relative test error ‖X − X*‖_F/‖X*‖_F and the tubal rank of the learned X (singular tubes above
    ``rank_tol`` × the largest), with mean, median and range over seeds; optionally sweeps the factor rank r
    and the number of measurements m at the smallest α. The checks judge the claim: a stable descent, the data
    interpolated (train error ≤ 1e-2) and a low tubal rank at the smallest α, and test error rising with α; an
    α further up the sweep that stops short of interpolating is reported per α (``fitted``) and in a note. Figures: errors against α, and the singular tubes of X
    over the iterations for the smallest and largest α.

    Args:
        alphas: Initialisation scales α (> 0); default 1e-6, 1e-5, …, 1e-1.
        n: Tensor side n (X is n×n×k).
        k: Length of the tubes (third mode).
        true_rank: Tubal rank r* of the ground truth.
        rank: Tubal columns r of the factor U (over-parametrised when r > r*).
        measurements: Number m of Gaussian linear measurements.
        learning_rate: Step size η on the loss (1/2m)‖A(U*Uᵀ) − y‖².
        iterations: Gradient steps per run.
        n_seeds: Problems (and initialisations) drawn per setting.
        rank_sweep: Factor ranks r to compare at the smallest α.
        measurement_sweep: Measurement counts m to compare at the smallest α.
        rank_tol: Relative size below which a singular tube counts as zero.
        seed: Base random seed.
        output_dir: Folder for the figures.
    """
    alphas = sorted(float(a) for a in (alphas if alphas is not None else [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]))
    check_list(alphas, argument="alphas")
    for a in alphas:
        check_positive(a, argument="alphas")
    for value, name in ((n, "n"), (k, "k"), (true_rank, "true_rank"), (rank, "rank"), (measurements, "measurements"),
                        (iterations, "iterations"), (n_seeds, "n_seeds")):
        check_positive(value, argument=name, integer=True)
    check_positive(learning_rate, argument="learning_rate")
    check_positive(rank_tol, argument="rank_tol")
    if true_rank > n:
        raise UserError(f"true_rank: a tubal rank cannot exceed n = {n}, got {true_rank}")
    for r in rank_sweep or []:
        check_positive(r, argument="rank_sweep", integer=True)
    for mm in measurement_sweep or []:
        check_positive(mm, argument="measurement_sweep", integer=True)

    runs: dict[float, list[dict[str, Any]]] = {a: [] for a in alphas}
    for s in range(n_seeds):
        problem = make_problem(n, k, true_rank, measurements, seed=seed + 1000 * s)
        for a in alphas:
            runs[a].append(_run(problem, rank=rank, alpha=a, learning_rate=learning_rate, iterations=iterations,
                                tol=rank_tol, seed=seed + 1000 * s + 1))
    table: dict[str, dict[str, Any]] = {f"{a:g}": {"test_error": spread([r["test_error"] for r in runs[a]]),
                        "train_error": spread([r["train_error"] for r in runs[a]]),
                        "tubal_rank": spread([r["tubal_rank"] for r in runs[a]])} for a in alphas}
    sweeps: dict[str, Any] = {}
    a0 = alphas[0]
    for label, options in (("rank_sweep", rank_sweep or []), ("measurement_sweep", measurement_sweep or [])):
        rows = {}
        for value in options:
            results = []
            for s in range(n_seeds):
                mm = value if label == "measurement_sweep" else measurements
                problem = make_problem(n, k, true_rank, mm, seed=seed + 1000 * s)
                results.append(_run(problem, rank=value if label == "rank_sweep" else rank, alpha=a0,
                                    learning_rate=learning_rate, iterations=iterations, tol=rank_tol,
                                    seed=seed + 1000 * s + 1))
            rows[str(value)] = {"test_error": spread([r["test_error"] for r in results]),
                                "train_error": spread([r["train_error"] for r in results]),
                                "tubal_rank": spread([r["tubal_rank"] for r in results])}
        if rows:
            sweeps[label] = {"alpha": a0, "results": rows}

    from scipy.stats import spearmanr

    medians = [table[f"{a:g}"]["test_error"]["median"] for a in alphas]
    trend = float(spearmanr(alphas, medians).statistic) if len(alphas) > 2 else float(np.sign(medians[-1] - medians[0]))
    diverged = sum(r["diverged"] for rs in runs.values() for r in rs)
    worst_train = max(table[f"{a:g}"]["train_error"]["max"] for a in alphas)
    for a in alphas:
        table[f"{a:g}"]["fitted"] = table[f"{a:g}"]["train_error"]["max"] <= FIT_TOL
    low_rank = table[f"{a0:g}"]["tubal_rank"]["median"]
    small_train = table[f"{a0:g}"]["train_error"]["max"]
    values: dict[str, Any] = {"alpha": table, "test_error_trend_spearman": trend, **sweeps,
                              "dof": {"entries": n * n * k, "measurements": measurements}}
    # The claim lives at the small-α end: there the data must be interpolated, or a low rank only means that
    # gradient descent stopped before the factor grew.  Towards large α the implicit bias is lost by design,
    # and whether the fit also completes within the step budget there describes that end of the sweep; it is
    # reported (values, a note), and does not fail the run.
    checks = [
        Check(name="gradient descent stable", passed=diverged == 0,
              message=f"{diverged} runs diverged" + ("; lower learning_rate" if diverged else "")),
        Check(name="data fitted at the smallest α", passed=small_train <= FIT_TOL,
              message=f"largest relative train error {small_train:.2e} at α = {a0:g} (≤ {FIT_TOL:g} means the data "
                      "are interpolated" + ("" if small_train <= FIT_TOL else "; raise iterations") + ")"),
        Check(name="test error grows with α", passed=trend >= 0.8 or len(alphas) < 2,
              message=f"Spearman(α, median test error) = {trend:.2f}"),
        Check(name="low tubal rank from small α", passed=low_rank <= true_rank + 1,
              message=f"median tubal rank {low_rank:g} at α = {a0:g} (true rank {true_rank})"),
    ]
    unfitted = [a for a in alphas if not table[f"{a:g}"]["fitted"]]
    findings = []
    if unfitted and a0 not in unfitted:  # else the failed check above already asks for more iterations
        rows = {f"{a:g}": {"train_error_max": table[f"{a:g}"]["train_error"]["max"],
                           "test_error_median": table[f"{a:g}"]["test_error"]["median"]} for a in unfitted}
        findings.append(MethodFinding(
            message=f"the data are not interpolated within {iterations} steps at α = "
                    + ", ".join(f"{a:g} (train error up to {rows[f'{a:g}']['train_error_max']:.2e}, test error "
                                f"{rows[f'{a:g}']['test_error_median']:.3g})" for a in unfitted)
                    + f"; large initialisation is the end of the sweep that loses the implicit bias, so this "
                    f"describes that end and is not a failure (the claim is judged at α = {a0:g})",
            evidence={"not_interpolated": rows, "fit_tolerance": FIT_TOL},
            settle="Raise iterations to see whether those α interpolate the data with a higher-rank solution."))
    fitted = [a for a in alphas if a not in unfitted]
    fit_text = (f"train error ≤ {worst_train:.1e} at every α" if not unfitted else
                (f"train error ≤ {max(table[f'{a:g}']['train_error']['max'] for a in fitted):.1e} at α = "
                 + ", ".join(f"{a:g}" for a in fitted) + "; " if fitted else "")
                + f"data not interpolated within {iterations} steps at α = " + ", ".join(f"{a:g}" for a in unfitted))
    figures = [str(output_path(output_dir, "tubal_error_vs_alpha.png")),
               str(output_path(output_dir, "tubal_singular_tubes.png"))]
    _plot_errors(figures[0], alphas, table)
    _plot_tubes(figures[1], {a: runs[a][0] for a in (alphas[0], alphas[-1])}, true_rank)
    summary = (
        f"Gradient descent on U*Uᵀ (n={n}, k={k}, r={rank}, r*={true_rank}, m={measurements} of {n * n * k} "
        f"entries, {n_seeds} seeds, {iterations} steps): relative test error "
        + ", ".join(f"{table[f'{a:g}']['test_error']['median']:.3g} at α={a:g}" for a in alphas)
        + f" (medians; Spearman with α {trend:.2f}); {fit_text}; median tubal rank "
        + ", ".join(f"{table[f'{a:g}']['tubal_rank']['median']:g}" for a in alphas)
        + (". Small initialisation biases gradient descent towards the low-tubal-rank tensor that the data do not "
           "single out on their own." if all(c.passed for c in checks) else
           ". The sweep does not show the implicit bias as claimed: failed check(s) "
           + "; ".join(f"{c.name} ({c.message})" for c in checks if not c.passed) + ".")
    )
    diagnostics = {"settings": {"n": n, "k": k, "true_rank": true_rank, "rank": rank, "measurements": measurements,
                                "learning_rate": learning_rate, "iterations": iterations, "n_seeds": n_seeds},
                   "per_seed_test_error": {f"{a:g}": [r["test_error"] for r in runs[a]] for a in alphas},
                   "rank_path": {f"{a:g}": runs[a][0]["rank_path"] for a in alphas},
                   "iterations_recorded": runs[alphas[0]][0]["history"]["iteration"].tolist()}
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=figures, diagnostics=diagnostics,
                        findings=findings)


def _plot_errors(path: str, alphas: list[float], table: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 4))
    for key, label, marker in (("test_error", "test ‖X−X*‖/‖X*‖", "o"), ("train_error", "train ‖A(X)−y‖/‖y‖", "s")):
        med = np.array([table[f"{a:g}"][key]["median"] for a in alphas])
        lo = np.array([table[f"{a:g}"][key]["min"] for a in alphas])
        hi = np.array([table[f"{a:g}"][key]["max"] for a in alphas])
        floor = 1e-12
        ax.plot(alphas, np.maximum(med, floor), marker=marker, label=label)
        ax.fill_between(alphas, np.maximum(lo, floor), np.maximum(hi, floor), alpha=0.2)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("initialisation scale α")
    ax.set_ylabel("relative error (median, range over seeds)")
    ax.set_title("Implicit regularisation vs initialisation")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _plot_tubes(path: str, runs: dict[float, dict[str, Any]], true_rank: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(runs), figsize=(5 * len(runs), 4), squeeze=False)
    for ax, (alpha, run) in zip(axes[0], runs.items(), strict=True):
        h = run["history"]
        sv = np.asarray(h["slice_sv"])  # records × tubes: each tube's largest Fourier coefficient
        for i in range(min(sv.shape[1], 8)):
            ax.plot(h["iteration"], np.maximum(sv[:, i], 1e-16), lw=2 if i < true_rank else 1,
                    label=f"tube {i + 1}" if i < 4 else None)
        ax.set_yscale("log")
        ax.set_xlabel("iteration")
        ax.set_ylabel("singular tube size (max over Fourier slices)")
        ax.set_title(f"α = {alpha:g}: tubal rank {run['tubal_rank']}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
