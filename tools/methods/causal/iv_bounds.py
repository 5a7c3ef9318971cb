"""Bounds on the conditional average treatment effect from high-dimensional instruments.

Schweisthal et al. (arXiv 2410.08976): with an instrument Z that may be continuous and high-dimensional,
closed-form partial-identification bounds exist for a *discrete* instrument, so Z is mapped to K cells φ(Z).
In each cell l the Manski-type bounds on E[Y(1) | x] and E[Y(0) | x] follow from the cell's propensity
π^l(x) = P(A=1 | x, φ(Z)=l), the cell means E[YA | x, l] and E[Y(1−A) | x, l] and the outcome support
[s⁻, s⁺]; intersecting over cells gives the CATE bounds

    b⁻(x) = max_l (E[YA|x,l] + (1−π^l) s⁻) − min_m (E[Y(1−A)|x,m] + π^m s⁺),
    b⁺(x) = min_l (E[YA|x,l] + (1−π^l) s⁺) − max_m (E[Y(1−A)|x,m] + π^m s⁻).

Step 1 fits π(x, z) and μ_a(x, z) on the full instrument.  The cell-level quantities are averages of these
over a reference sample of instruments that fall in the cell (exact when the instrument is independent of the
covariates, as for randomised encouragements), which makes them differentiable in the partition.  Step 2
learns φ, a small network with a hard (straight-through) Gumbel-softmax output, to minimise the mean bound
width plus a penalty that keeps the cells balanced.  k-means and quantile partitions of the instrument are the
baselines; with one cell the bounds are the no-instrument Manski bounds, of width s⁺ − s⁻.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import output_path
from cmbagent.tools.methods.causal._io import (
    as_binary,
    check_columns,
    check_finite,
    check_not_constant,
    check_same_length,
    load_array,
    load_table,
)

__all__ = ["NuisanceGrid", "cell_bounds", "fit_nuisance_grid", "iv_cate_bounds", "learn_partition"]

PAPER = Paper(
    title="Learning Representations of Instruments for Partial Identification of Treatment Effects",
    arxiv="2410.08976",
    authors="Jonas Schweisthal, Dennis Frauen, Maresa Schröder, Konstantin Hess, Niki Kilbertus, Stefan Feuerriegel",
    year=2025,
    code="https://github.com/JSchweisthal/ComplexPartialIdentif",
)


@dataclass
class NuisanceGrid:
    """Step-1 predictions for every (unit i, reference instrument j) pair.

    Attributes:
        propensity: π(x_i, z_j), shape (n, M).
        treated_mean: π·μ₁ = E[YA | x_i, z_j], shape (n, M).
        control_mean: (1−π)·μ₀ = E[Y(1−A) | x_i, z_j], shape (n, M).
        reference: the M reference instruments (standardised), shape (M, d_z).
        support: outcome support (s⁻, s⁺).
    """

    propensity: np.ndarray
    treated_mean: np.ndarray
    control_mean: np.ndarray
    reference: np.ndarray
    support: tuple[float, float]


def _nuisance_models(kind: str, seed: int) -> tuple[Any, Any, Any]:
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    if kind == "mlp":
        options: dict[str, Any] = {
            "hidden_layer_sizes": (64, 64),
            "alpha": 1e-3,
            "early_stopping": True,
            "max_iter": 400,
            "random_state": seed,
        }
        return MLPClassifier(**options), MLPRegressor(**options), MLPRegressor(**options)
    boost: dict[str, Any] = {
        "max_iter": 300,
        "learning_rate": 0.05,
        "min_samples_leaf": 20,
        "random_state": seed,
    }
    return (
        HistGradientBoostingClassifier(**boost),
        HistGradientBoostingRegressor(**boost),
        HistGradientBoostingRegressor(**boost),
    )


def fit_nuisance_grid(
    y: np.ndarray,
    a: np.ndarray,
    x: np.ndarray,
    z: np.ndarray,
    *,
    support: tuple[float, float],
    n_reference: int = 256,
    nuisance: str = "mlp",
    seed: int = 0,
) -> NuisanceGrid:
    """Step 1: fit π(x, z), μ₁(x, z), μ₀(x, z) and evaluate them on units × reference instruments."""
    rng = np.random.default_rng(seed)
    xs = (x - x.mean(0)) / x.std(0)
    zs = (z - z.mean(0)) / z.std(0)
    features = np.hstack([xs, zs])
    clf, reg1, reg0 = _nuisance_models(nuisance, seed)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(converge|Stochastic Optimizer).*")
        clf.fit(features, a)
        reg1.fit(features[a == 1], y[a == 1])
        reg0.fit(features[a == 0], y[a == 0])
    m = min(n_reference, len(z))
    reference = zs[np.sort(rng.choice(len(z), size=m, replace=False))]
    n = len(x)
    shape = (n, m)
    prop, treated, control = np.empty(shape), np.empty(shape), np.empty(shape)
    low, high = support
    step = max(1, 200_000 // m)
    for start in range(0, n, step):
        block = xs[start : start + step]
        grid = np.hstack([np.repeat(block, m, axis=0), np.tile(reference, (len(block), 1))])
        p = clf.predict_proba(grid)[:, 1].reshape(len(block), m)
        mu1 = np.clip(reg1.predict(grid), low, high).reshape(len(block), m)
        mu0 = np.clip(reg0.predict(grid), low, high).reshape(len(block), m)
        prop[start : start + step], treated[start : start + step] = p, p * mu1
        control[start : start + step] = (1.0 - p) * mu0
    return NuisanceGrid(prop, treated, control, reference, (float(low), float(high)))


def cell_bounds(grid: NuisanceGrid, assignment: Any, min_share: float = 0.02) -> tuple[Any, Any]:
    """CATE bounds (lower, upper) per unit for a (soft or hard) cell assignment of the reference instruments.

    Works on numpy arrays and on torch tensors (so that step 2 can differentiate through it).  Cells holding
    less than ``min_share`` of the reference instruments are ignored: their averages are too noisy to trust.
    """
    try:
        import torch

        is_torch = isinstance(assignment, torch.Tensor)
    except ImportError:  # pragma: no cover - torch is a hard dependency of the learned partition only
        is_torch = False
    if is_torch:

        def lib(arr: np.ndarray) -> Any:
            return torch.as_tensor(arr, dtype=assignment.dtype)

        xp: Any = torch
    else:

        def lib(arr: np.ndarray) -> Any:
            return arr

        xp = np
    w = assignment
    counts = w.sum(0)
    valid = counts >= max(min_share * w.shape[0], 1.0)
    safe = counts + (counts == 0) * 1.0
    pi = lib(grid.propensity) @ w / safe
    treated = lib(grid.treated_mean) @ w / safe
    control = lib(grid.control_mean) @ w / safe
    s_low, s_high = grid.support
    inf = float("inf")
    lower_y1 = xp.where(valid, treated + (1 - pi) * s_low, -inf)
    upper_y1 = xp.where(valid, treated + (1 - pi) * s_high, inf)
    lower_y0 = xp.where(valid, control + pi * s_low, -inf)
    upper_y0 = xp.where(valid, control + pi * s_high, inf)
    if is_torch:
        lower = lower_y1.max(1).values - upper_y0.min(1).values
        upper = upper_y1.min(1).values - lower_y0.max(1).values
    else:
        lower = lower_y1.max(1) - upper_y0.min(1)
        upper = upper_y1.min(1) - lower_y0.max(1)
    return lower, upper


def one_hot(labels: np.ndarray, k: int) -> np.ndarray:
    out = np.zeros((len(labels), k))
    out[np.arange(len(labels)), labels] = 1.0
    return out


def kmeans_partition(reference: np.ndarray, k: int, seed: int) -> np.ndarray:
    from sklearn.cluster import KMeans

    return KMeans(n_clusters=k, n_init=10, random_state=seed).fit_predict(reference)


def quantile_partition(reference: np.ndarray, k: int) -> np.ndarray:
    """Equal-mass bins of the instrument's first principal component."""
    centred = reference - reference.mean(0)
    direction = np.linalg.svd(centred, full_matrices=False)[2][0]
    score = centred @ direction
    edges = np.quantile(score, np.linspace(0, 1, k + 1)[1:-1])
    return np.searchsorted(edges, score, side="right")


def learn_partition(
    grid: NuisanceGrid,
    k: int,
    *,
    epochs: int = 300,
    balance_weight: float = 5.0,
    temperature: float = 1.0,
    hidden: int = 64,
    max_units: int = 1000,
    seed: int = 0,
) -> np.ndarray:
    """Step 2: learn φ(z) -> {0..k-1} minimising mean width + balance_weight · KL(cell shares || uniform).

    The network outputs k logits; a hard Gumbel-softmax sample (one-hot forward, soft gradient backward)
    assigns each reference instrument to a cell during training; the final partition is the arg-max of the
    network with the smallest hard-assignment width seen (checked every 5 steps).  The loss is averaged over
    at most ``max_units`` units (a fixed random subset), which is all the gradient needs.
    """
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the tensors are small: extra threads only contend (15x slower on a busy host)
    try:
        return _train_partition(grid, k, epochs, balance_weight, temperature, hidden, max_units, seed)
    finally:
        torch.set_num_threads(threads)


def _train_partition(
    grid: NuisanceGrid,
    k: int,
    epochs: int,
    balance_weight: float,
    temperature: float,
    hidden: int,
    max_units: int,
    seed: int,
) -> np.ndarray:
    import torch

    with torch.random.fork_rng():
        torch.manual_seed(seed)
        ref = torch.as_tensor(grid.reference, dtype=torch.float32)
        rows = np.random.default_rng(seed).permutation(len(grid.propensity))[:max_units]
        tensors: list[Any] = [
            torch.as_tensor(arr[rows], dtype=torch.float32)
            for arr in (grid.propensity, grid.treated_mean, grid.control_mean)
        ]
        train = NuisanceGrid(tensors[0], tensors[1], tensors[2], grid.reference, grid.support)
        net = torch.nn.Sequential(
            torch.nn.Linear(ref.shape[1], hidden),
            torch.nn.ELU(),
            torch.nn.Linear(hidden, hidden),
            torch.nn.ELU(),
            torch.nn.Linear(hidden, k),
        )
        optimiser = torch.optim.Adam(net.parameters(), lr=3e-3)
        uniform = torch.full((k,), 1.0 / k)
        best_width, best_state = float("inf"), None
        for epoch in range(epochs):
            logits = net(ref)
            assignment = torch.nn.functional.gumbel_softmax(logits, tau=temperature, hard=True)
            lower, upper = cell_bounds(train, assignment)
            width = (upper - lower).clamp(min=0.0).mean()
            shares = torch.softmax(logits, dim=1).mean(0)
            balance = (shares * (shares / uniform).log()).sum()
            loss = width + balance_weight * balance
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if epoch % 5 and epoch != epochs - 1:
                continue
            with torch.no_grad():
                hard = torch.nn.functional.one_hot(net(ref).argmax(1), k).to(torch.float32)
                low_h, up_h = cell_bounds(train, hard)
                current = float((up_h - low_h).clamp(min=0.0).mean())
            if current < best_width:
                best_width = current
                best_state = {key: v.detach().clone() for key, v in net.state_dict().items()}
        if best_state is not None:
            net.load_state_dict(best_state)
        with torch.no_grad():
            return net(ref).argmax(1).numpy()


def _summarise(lower: np.ndarray, upper: np.ndarray) -> dict[str, float]:
    width = upper - lower
    return {
        "mean_width": float(np.mean(np.clip(width, 0, None))),
        "share_crossing": float(np.mean(width < 0)),
    }


def _plot(
    path: str,
    x: np.ndarray,
    bounds: dict[str, tuple[np.ndarray, np.ndarray]],
    manski: float,
    reference: np.ndarray | None,
    label: str,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = np.argsort(x)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    colours = {"learned": "C0", "kmeans": "C1", "quantile": "C2"}
    for name, (low, up) in bounds.items():
        ax1.fill_between(
            x[order], low[order], up[order], alpha=0.25, color=colours[name], label=f"{name} cells"
        )
    if reference is not None:
        ax1.plot(x[order], reference[order], "k.", ms=2, label="reference CATE")
    ax1.set_xlabel(label)
    ax1.set_ylabel("CATE bounds")
    ax1.legend(fontsize=8)
    names = [*bounds.keys(), "no instrument"]
    widths = [float(np.mean(np.clip(up - low, 0, None))) for low, up in bounds.values()] + [manski]
    ax2.bar(names, widths, color=[colours.get(n, "grey") for n in names])
    ax2.set_ylabel("mean bound width")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


@method(
    "causal.iv_cate_bounds",
    paper=PAPER,
    keywords=[
        "instrumental variable",
        "instrument",
        "partial identification",
        "bounds",
        "CATE",
        "conditional average treatment effect",
        "heterogeneous treatment effect",
        "unobserved confounding",
        "Manski bounds",
        "high-dimensional instrument",
        "Gumbel-softmax",
        "partition",
    ],
    example='iv_cate_bounds(data="iv_sim.csv", outcome="y", treatment="a", covariates=["x"], '
    'instruments=["z0", "z1", "z2"], n_cells=4, outcome_support=[0, 1])',
)
def iv_cate_bounds(
    data: InputFile,
    outcome: str,
    treatment: str,
    covariates: list[str],
    instruments: list[str] | None = None,
    instrument_file: InputFile | None = None,
    n_cells: int = 4,
    outcome_support: list[float] | None = None,
    partition: Literal["learned", "kmeans", "quantile"] = "learned",
    nuisance: Literal["mlp", "gradient_boosting"] = "mlp",
    n_reference: int = 256,
    epochs: int = 300,
    balance_weight: float = 5.0,
    reference_cate: str | None = None,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Bound the conditional average treatment effect (CATE) with a high-dimensional instrument.

    Under unobserved confounding the CATE is only partially identified; a (possibly continuous,
    high-dimensional) instrument narrows the bounds. The instrument is mapped to n_cells discrete cells by a
    learned neural partition (hard Gumbel-softmax trained to minimise bound width), and per-cell Manski-type
    bounds are intersected over cells. k-means and quantile partitions with the same number of cells and the
    no-instrument bounds are reported for comparison. Per-unit bounds are written to a CSV file.

    Args:
        data: Table with one row per unit.
        outcome: Outcome column (bounded; see outcome_support).
        treatment: Binary treatment column.
        covariates: Covariate columns x the CATE is conditioned on.
        instruments: Instrument columns (any number).
        instrument_file: Alternatively a .npy/.npz/.csv array of instrument features, one row per unit.
        n_cells: Number K of discrete instrument cells.
        outcome_support: [s_min, s_max] known outcome range; default the observed minimum and maximum.
        partition: Which partition's bounds are reported per unit (all three are computed).
        nuisance: Step-1 learner for the propensity and outcome models.
        n_reference: Number of reference instrument draws the cell averages are taken over.
        epochs: Training steps of the learned partition.
        balance_weight: Weight of the cell-balance penalty in step 2.
        reference_cate: Optional column holding a known CATE (simulations) to measure coverage.
        seed: Seed for the reference draws, the nuisance models and the partition network.
        output_dir: Folder for the figure and the per-unit bounds file.
    """
    frame = load_table(data)
    if n_cells < 2:
        raise UserError(f"n_cells: need at least 2 cells to use the instrument, got {n_cells}")
    if n_reference < 4 * n_cells:
        raise UserError(f"n_reference: need at least 4 reference instruments per cell ({4 * n_cells})")
    if not covariates:
        raise UserError("covariates: give at least one covariate column")
    if (instruments is None) == (instrument_file is None):
        raise UserError("instruments, instrument_file: give exactly one of them")
    needed = [outcome, treatment, *covariates, *(instruments or [])] + (
        [reference_cate] if reference_cate else []
    )
    check_columns(frame, needed, argument="outcome/treatment/covariates/instruments/reference_cate")
    y = check_finite(frame[outcome].to_numpy(), argument="outcome")
    a = as_binary(frame[treatment].to_numpy(), argument="treatment")
    x = check_finite(frame[covariates].to_numpy(), argument="covariates")
    check_not_constant(x, argument="covariates", names=covariates)
    if instruments is not None:
        z = check_finite(frame[instruments].to_numpy(), argument="instruments")
        check_not_constant(z, argument="instruments", names=instruments)
    else:
        z = check_finite(
            load_array(str(instrument_file), argument="instrument_file"), argument="instrument_file"
        )
        check_not_constant(z, argument="instrument_file")
    check_same_length(data=y, instrument_file=z)
    if outcome_support is None:
        support = (float(y.min()), float(y.max()))
    else:
        if len(outcome_support) != 2 or not outcome_support[0] < outcome_support[1]:
            raise UserError(f"outcome_support: give [s_min, s_max] with s_min < s_max, got {outcome_support}")
        support = (float(outcome_support[0]), float(outcome_support[1]))
        if y.min() < support[0] or y.max() > support[1]:
            raise DataError(
                f"outcome_support: observed outcomes span [{y.min():.4g}, {y.max():.4g}], outside "
                f"{list(support)}; widen the support"
            )
    if min(int(a.sum()), int(len(a) - a.sum())) < 10:
        raise DataError("treatment: need at least 10 treated and 10 control units")

    grid = fit_nuisance_grid(
        y, a, x, z, support=support, n_reference=n_reference, nuisance=nuisance, seed=seed
    )
    labels = {
        "learned": learn_partition(grid, n_cells, epochs=epochs, balance_weight=balance_weight, seed=seed),
        "kmeans": kmeans_partition(grid.reference, n_cells, seed),
        "quantile": quantile_partition(grid.reference, n_cells),
    }
    bounds = {name: cell_bounds(grid, one_hot(lab, n_cells)) for name, lab in labels.items()}
    manski = support[1] - support[0]
    values: dict[str, Any] = {"manski_width": manski}
    for name, (low, up) in bounds.items():
        stats = _summarise(low, up)
        values[f"{name}_mean_width"] = stats["mean_width"]
        values[f"{name}_share_crossing"] = stats["share_crossing"]
    lower, upper = bounds[partition]
    values["mean_width"] = values[f"{partition}_mean_width"]
    values["mean_lower"] = float(np.mean(lower))
    values["mean_upper"] = float(np.mean(upper))
    checks = [
        Check(
            name="narrower than no-instrument bounds",
            passed=values["mean_width"] < manski,
            message=f"mean width {values['mean_width']:.4g} vs Manski width {manski:.4g}",
        ),
        Check(
            name="bounds do not cross",
            passed=values[f"{partition}_share_crossing"] <= 0.05,
            message=f"{100 * values[f'{partition}_share_crossing']:.1f}% of units have lower > upper "
            "(a weak or invalid instrument, or step-1 models that fit poorly)",
        ),
    ]
    if partition == "learned":
        checks.append(
            Check(
                name="learned partition no wider than k-means",
                passed=values["learned_mean_width"] <= values["kmeans_mean_width"] + 1e-9,
                message=f"learned {values['learned_mean_width']:.4g} vs k-means {values['kmeans_mean_width']:.4g}",
            )
        )
    truth = None
    if reference_cate is not None:
        truth = check_finite(frame[reference_cate].to_numpy(), argument="reference_cate")
        for name, (low, up) in bounds.items():
            values[f"{name}_coverage"] = float(np.mean((truth >= low - 1e-9) & (truth <= up + 1e-9)))
        values["coverage"] = values[f"{partition}_coverage"]
    import pandas as pd

    table = output_path(output_dir, "iv_cate_bounds.csv")
    pd.DataFrame({"row": np.arange(len(y)), "lower": lower, "upper": upper, "width": upper - lower}).to_csv(
        table, index=False
    )
    figure = output_path(output_dir, "iv_cate_bounds.png")
    _plot(str(figure), x[:, 0], bounds, manski, truth, covariates[0])
    cells = np.bincount(labels[partition], minlength=n_cells) / len(labels[partition])
    summary = (
        f"With the instrument mapped to {n_cells} {partition} cells, the CATE bounds have mean width "
        f"{values['mean_width']:.4g} (no instrument: {manski:.4g}; k-means {values['kmeans_mean_width']:.4g}, "
        f"quantile {values['quantile_mean_width']:.4g}). Average bounds [{values['mean_lower']:.4g}, "
        f"{values['mean_upper']:.4g}]; per-unit bounds in {table.name}."
    )
    diagnostics = {
        "cell_shares": cells.tolist(),
        "support": list(support),
        "n_reference": len(grid.reference),
        "nuisance": nuisance,
        "n_units": len(y),
    }
    return MethodResult(
        summary=summary,
        values=values,
        diagnostics=diagnostics,
        checks=checks,
        artifacts=[str(table), str(figure)],
    )
