"""Weight-space learning under LoRA symmetries (workshop paper; see METHODS.md "Weight-space learning").

A LoRA adapter (B, A) with B ∈ R^{d×r}, A ∈ R^{r×k} changes a weight by ΔW = BA, and (BG, G⁻¹A) gives the
same ΔW for every invertible G.  A predictor that reads adapters can remove this redundancy with invariant
features — the singular values of BA, its norms — or keep the raw weights.  Which is right depends on the
target: invariant targets (‖BA‖, anything that depends only on the weight change) are predicted from
invariant features, while targets that depend on the factorisation itself (‖A‖² − ‖B‖², or anything about how
further training proceeds from (B, A)) are invisible to them and need the raw weights.

The tool reads adapters (PEFT-style ``lora_A``/``lora_B`` tensors from .safetensors or .pt files) or
generates a population — balanced factors of random low-rank updates, each moved along its symmetry orbit by
a random G = c·Q (Q orthogonal, log c normal) — and fits the same regressor on both feature sets for each
target, reporting held-out R².
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cmbagent.exceptions import DataError, UserError
from cmbagent.paths import InputFile, OutputDir
from cmbagent.tools.methods import Check, MethodFinding, MethodResult, Paper, method
from cmbagent.tools.methods._kit import check_positive, output_path
from cmbagent.tools.methods.lm._io import load_records

__all__ = ["generate_adapters", "invariance_error", "invariant_features", "lora_symmetry", "raw_features",
           "read_adapters", "rows_needed"]

PAPER = Paper(title="Weight-space learning under LoRA symmetries (workshop paper)")
TARGETS = ("norm_ba", "norm_difference")
#: training rows per degree-2 feature of the raw weights from which their R² measures the symmetry and not the
#: sample: measured held-out R² of ‖A‖² − ‖B‖² from raw weights 0.97 at this ratio for 72 and 104 raw numbers
#: (0.90 at half of it, 0.65-0.74 at a quarter)
ROWS_PER_FEATURE = 0.4
#: generated population when the sample size is left to the tool (more when the raw weights need it)
MIN_GENERATED = 1500
#: the most generated adapters, and the most numbers (rows × features) a degree-2 regression may hold
MAX_GENERATED = 8000
MAX_DESIGN = 60_000_000
#: condition numbers of the reparametrisations G of the invariance check
CONDITIONS = (1.0, 1e1, 1e2, 1e3, 1e4)
TEST_SHARE = 0.25


def generate_adapters(n: int, d: int, k: int, r: int, *, orbit_scale: float, seed: int) -> list[tuple[np.ndarray,
                                                                                                     np.ndarray]]:
    """``n`` adapters (B, A): balanced factors U√S, √S Vᵀ of a random rank-r update, then (BG, G⁻¹A), G = c·Q."""
    rng = np.random.default_rng(seed)
    adapters = []
    for _ in range(n):
        u, _ = np.linalg.qr(rng.normal(size=(d, r)))
        v, _ = np.linalg.qr(rng.normal(size=(k, r)))
        s = np.sort(rng.lognormal(0.0, 0.5, size=r))[::-1]
        b0, a0 = u * np.sqrt(s), (np.sqrt(s)[:, None] * v.T)
        q, _ = np.linalg.qr(rng.normal(size=(r, r)))
        c = float(np.exp(orbit_scale * rng.normal()))
        g = c * q
        adapters.append((b0 @ g, np.linalg.solve(g, a0)))
    return adapters


def invariant_features(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Features unchanged by (B, A) → (BG, G⁻¹A): the r singular values of BA, ‖BA‖_F, ‖BA‖_2 and ‖BA‖_*."""
    r = b.shape[1]
    s = np.linalg.svd(b @ a, compute_uv=False)[:r]
    return np.concatenate([s, [np.sqrt((s**2).sum()), s[0], s.sum()]])


def raw_features(b: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The adapter's own numbers, flattened."""
    return np.concatenate([b.ravel(), a.ravel()])


def poly2_size(p: int) -> int:
    """Columns of the degree-2 polynomial expansion of ``p`` numbers (bias, linear, squares and products)."""
    return (p + 1) * (p + 2) // 2


def training_rows(n: int) -> int:
    """Rows of ``n`` adapters left for training once the test share is split off (as scikit-learn splits)."""
    return n - int(np.ceil(TEST_SHARE * n))


def rows_needed(p: int) -> int:
    """Adapters to generate so that the training split holds ``ROWS_PER_FEATURE`` rows per degree-2 feature."""
    need = int(np.ceil(ROWS_PER_FEATURE * poly2_size(p)))
    n = int(np.ceil(need / (1 - TEST_SHARE)))
    while training_rows(n) < need:
        n += 1
    return n


def general_reparametrisation(r: int, condition: float, rng: np.random.Generator) -> np.ndarray:
    """A random invertible r×r matrix U·diag(s)·Vᵀ whose singular values s run from 1 to ``condition``."""
    u = np.linalg.qr(rng.normal(size=(r, r)))[0]
    v = np.linalg.qr(rng.normal(size=(r, r)))[0]
    s = np.geomspace(1.0, condition, r) if r > 1 else np.array([condition])
    return (u * rng.permutation(s)) @ v.T


def invariance_error(feature: Callable[[np.ndarray, np.ndarray], np.ndarray],
                     pairs: Sequence[tuple[np.ndarray, np.ndarray]], *, seed: int,
                     conditions: Sequence[float] = CONDITIONS, n_pairs: int = 8) -> dict[str, Any]:
    """Largest relative change of ``feature`` under (B, A) → (BG, G⁻¹A) for general invertible G.

    G has condition numbers up to 1e4 (not only c·Q, a scaled rotation, under which ‖B‖·‖A‖ is unchanged too
    although it is no function of BA). The change is relative to the feature's size; round-off grows with the
    condition number (about 1e-16 × cond), so a true invariant stays near 1e-12 and a false one moves by O(1).
    """
    rng = np.random.default_rng(seed)
    worst, at = 0.0, 1.0
    for b, a in list(pairs)[:n_pairs]:
        before = np.atleast_1d(np.asarray(feature(b, a), dtype=float))
        scale = max(float(np.abs(before).max()), 1e-300)
        for condition in conditions:
            g = general_reparametrisation(b.shape[1], condition, rng)
            after = np.atleast_1d(np.asarray(feature(b @ g, np.linalg.solve(g, a)), dtype=float))
            change = float(np.abs(after - before).max()) / scale
            if change > worst:
                worst, at = change, condition
    return {"relative_change": worst, "at_condition": at, "conditions": list(conditions)}


def target_value(name: str, b: np.ndarray, a: np.ndarray) -> float:
    if name == "norm_ba":
        return float(np.linalg.norm(b @ a))
    if name == "norm_difference":
        return float((a**2).sum() - (b**2).sum())
    raise UserError(f"targets: unknown built-in target {name!r}; choose from {', '.join(TARGETS)}")


def _load_tensors(path: Path) -> dict[str, np.ndarray]:
    try:
        if path.suffix == ".safetensors":
            from safetensors.numpy import load_file

            return dict(load_file(str(path)))
        import torch

        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:
        raise DataError(f"adapters: could not read {path} ({exc})") from exc
    if not isinstance(state, dict):
        raise DataError(f"adapters: {path} does not hold a dict of tensors")
    return {key: value.float().numpy() for key, value in state.items() if hasattr(value, "numpy")}


def read_adapters(folder: str, module: str | None = None) -> tuple[list[str], list[tuple[np.ndarray, np.ndarray]]]:
    """One (B, A) per adapter file in ``folder`` (.safetensors/.pt/.bin with ``*lora_A*``/``*lora_B*`` tensors).

    With several adapted modules per file, ``module`` picks one (a substring of the tensor names); all files must
    give B and A of the same shapes.
    """
    root = Path(folder)
    if not root.is_dir():
        raise UserError(f"adapters: {folder!r} is not a folder of adapter files")
    files = sorted(p for p in root.iterdir() if p.suffix in {".safetensors", ".pt", ".bin"})
    if len(files) < 10:
        raise DataError(f"adapters: found {len(files)} adapter files in {folder!r}; need at least 10 to fit predictors")
    names: list[str] = []
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    for path in files:
        tensors = _load_tensors(path)
        keys_a = sorted(k for k in tensors if "lora_A" in k and (module is None or module in k))
        keys_b = sorted(k for k in tensors if "lora_B" in k and (module is None or module in k))
        if len(keys_a) != 1 or len(keys_b) != 1:
            raise DataError(f"adapters: {path.name} has {len(keys_a)} lora_A and {len(keys_b)} lora_B tensors"
                            + ("" if module else "; pass module to pick one adapted module"))
        a, b = tensors[keys_a[0]], tensors[keys_b[0]]
        if a.ndim != 2 or b.ndim != 2 or b.shape[1] != a.shape[0]:
            raise DataError(f"adapters: {path.name}: lora_B {b.shape} and lora_A {a.shape} do not compose to B·A")
        if pairs and (b.shape, a.shape) != (pairs[0][0].shape, pairs[0][1].shape):
            raise DataError(f"adapters: {path.name} has shapes {b.shape}, {a.shape} unlike the others")
        names.append(path.stem)
        pairs.append((b, a))
    return names, pairs


def _r2(x: np.ndarray, y: np.ndarray, seed: int) -> float:
    """Held-out R² of a degree-2 polynomial ridge (the same learner for every feature set and target)."""
    from sklearn.linear_model import RidgeCV
    from sklearn.metrics import r2_score
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures, StandardScaler

    x_train, x_test, y_train, y_test = train_test_split(x, y, test_size=TEST_SHARE, random_state=seed)
    model = make_pipeline(StandardScaler(), PolynomialFeatures(2), StandardScaler(),
                          RidgeCV(alphas=np.logspace(-6, 3, 19)))
    model.fit(x_train, y_train)
    return float(r2_score(y_test, model.predict(x_test)))


@method(
    "lm.lora_symmetry",
    paper=PAPER,
    keywords=["LoRA", "low-rank adaptation", "weight-space learning", "symmetry", "invariant features",
              "singular values", "adapters", "GL(r)", "metanetwork", "parameter symmetry"],
    example="lora_symmetry(d=12, k=12, rank=3, seed=0)",
)
def lora_symmetry(
    adapters: str | None = None,
    module: str | None = None,
    targets: InputFile | None = None,
    n_adapters: int | None = None,
    d: int = 12,
    k: int = 12,
    rank: int = 3,
    orbit_scale: float = 0.5,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Compare invariant features and raw weights of LoRA adapters as inputs for predicting properties.

    For each target, fits the same regressor (standardised degree-2 polynomial ridge) on invariant features
    (singular values and norms of BA) and on the raw weights (B, A), and reports held-out R². Built-in targets:
    ``norm_ba`` = ‖BA‖_F (invariant) and ``norm_difference`` = ‖A‖²_F − ‖B‖²_F (not invariant). A targets file
    adds the user's own (e.g. the loss after further training), one row per adapter. The invariance check moves
    adapters by general invertible G (condition numbers 1 to 1e4). The raw weights have (p+1)(p+2)/2 degree-2
    features for p numbers; their R² is judged only with at least 0.4 training rows per feature (fewer rows
    measure the sample, not the symmetry), and a generated population is sized to have them.

    Args:
        adapters: Folder of adapter files (.safetensors/.pt, PEFT-style lora_A/lora_B tensors); omit to generate.
        module: Substring selecting one adapted module when files hold several.
        targets: Optional CSV/JSONL with column ``adapter`` (file stem) and numeric target columns.
        n_adapters: Generated population size (default: enough training rows for the raw-weights regression,
            at least 1500 and at most 8000).
        d: Output dimension of generated adapters (rows of B).
        k: Input dimension of generated adapters (columns of A).
        rank: LoRA rank r of generated adapters.
        orbit_scale: Spread of log c in the generated symmetry moves G = c·Q.
        seed: Random seed (population, train/test split, invariance check).
        output_dir: Folder for the figure.
    """
    if adapters is not None:
        names, pairs = read_adapters(adapters, module)
        source = f"{len(pairs)} adapters from {adapters}"
    else:
        for value, name in ((d, "d"), (k, "k"), (rank, "rank")):
            check_positive(value, argument=name, integer=True)
        if rank > min(d, k):
            raise UserError(f"rank: must not exceed min(d, k) = {min(d, k)}, got {rank}")
        if n_adapters is None:
            n_adapters = min(max(MIN_GENERATED, rows_needed(rank * (d + k))), MAX_GENERATED)
        check_positive(n_adapters, argument="n_adapters", integer=True)
        if n_adapters < 40:
            raise UserError(f"n_adapters: need at least 40 adapters to fit and test predictors, got {n_adapters}")
        pairs = generate_adapters(n_adapters, d, k, rank, orbit_scale=orbit_scale, seed=seed)
        names = [f"adapter-{i}" for i in range(len(pairs))]
        source = f"{n_adapters} generated rank-{rank} adapters ({d}×{rank}, {rank}×{k})"
    y: dict[str, np.ndarray] = {t: np.array([target_value(t, b, a) for b, a in pairs]) for t in TARGETS}
    if targets is not None:
        rows = load_records(targets, argument="targets", required=("adapter",))
        by_name = {str(r["adapter"]): r for r in rows}
        missing = [n for n in names if n not in by_name]
        if missing:
            raise DataError(f"targets: no row for adapter(s) {missing[:5]}; the adapter column must name each file stem")
        for column in (c for c in rows[0] if c != "adapter"):
            try:
                y[column] = np.array([float(by_name[n][column]) for n in names])
            except ValueError:
                raise DataError(f"targets: column {column!r} has non-numeric values") from None
    inv = np.stack([invariant_features(b, a) for b, a in pairs])
    raw = np.stack([raw_features(b, a) for b, a in pairs])
    # what the raw-weights regression can measure with this sample
    n_train = training_rows(len(pairs))
    width = poly2_size(raw.shape[1])
    need = int(np.ceil(ROWS_PER_FEATURE * width))
    sample = {"training_rows": n_train, "raw_numbers": raw.shape[1], "raw_degree2_features": width,
              "rows_needed": need, "adapters_needed": rows_needed(raw.shape[1]),
              "raw_fitted": n_train * width <= MAX_DESIGN, "raw_judged": n_train >= need}
    table: dict[str, dict[str, Any]] = {t: {"invariant_r2": _r2(inv, values, seed),
                 "raw_r2": _r2(raw, values, seed) if sample["raw_fitted"] else None} for t, values in y.items()}
    # the symmetry check: invariant features do not move along an orbit of general G while raw weights do
    invariance = invariance_error(invariant_features, pairs, seed=seed + 1)
    raw_change = invariance_error(raw_features, pairs, seed=seed + 1)["relative_change"]
    values: dict[str, Any] = {"r2": table, "invariance_error": invariance["relative_change"],
                              "raw_orbit_change": raw_change, "invariance": invariance, "sample": sample}
    diff = table["norm_difference"]
    checks = [
        Check(name="features are invariant", passed=invariance["relative_change"] <= 1e-8,
              message=f"largest relative change of invariant features under (BG, G⁻¹A) for general G with condition "
                      f"numbers up to {max(CONDITIONS):g}: {invariance['relative_change']:.1e} (raw weights "
                      f"{raw_change:.2f})"),
        Check(name="invariant target predicted from invariant features", passed=table["norm_ba"]["invariant_r2"] >= 0.99,
              message=f"R²(‖BA‖ | invariant) = {table['norm_ba']['invariant_r2']:.4f}"),
        Check(name="non-invariant target invisible to invariant features", passed=diff["invariant_r2"] <= 0.1,
              message=f"R²(‖A‖²−‖B‖² | invariant) = {diff['invariant_r2']:.3f}"),
    ]
    findings = []
    if sample["raw_judged"] and diff["raw_r2"] is not None:
        checks.append(Check(name="non-invariant target predicted from raw weights", passed=diff["raw_r2"] >= 0.9,
                            message=f"R²(‖A‖²−‖B‖² | raw) = {diff['raw_r2']:.3f} with {n_train} training rows for "
                                    f"{width} degree-2 features"))
    else:
        measured = "not fitted (too large a design)" if diff["raw_r2"] is None else f"{diff['raw_r2']:.3f}"
        findings.append(MethodFinding(
            message=f"the raw weights' R² for ‖A‖²−‖B‖² ({measured}) is not judged: {n_train} training rows for the "
                    f"{width} degree-2 features of {raw.shape[1]} raw numbers measure the sample, not the symmetry "
                    f"(it needs at least {need} rows, i.e. {sample['adapters_needed']} adapters)",
            evidence=sample,
            settle=f"Rerun with n_adapters ≥ {sample['adapters_needed']} (or adapters of a smaller rank or size)."))
    figure = output_path(output_dir, "lora_symmetry.png")
    _plot(str(figure), table)
    summary = (f"On {source}: " + "; ".join(
        f"{t}: R² {v['invariant_r2']:.3f} from invariant features vs "
        + ("not fitted" if v["raw_r2"] is None else f"{v['raw_r2']:.3f}") + " from raw weights"
        for t, v in table.items())
        + f" ({n_train} training rows for {width} raw degree-2 features"
        + ("" if sample["raw_judged"] else f"; too few to judge the raw weights, which need {need}") + "). "
        "Invariant features see only BA, so they predict what depends on the weight change and nothing about how "
        "it is factorised.")
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=[str(figure)], findings=findings,
                        diagnostics={"n_adapters": len(pairs), "feature_dims": {"invariant": inv.shape[1],
                                                                                 "raw": raw.shape[1]}})


def _plot(path: str, table: dict[str, dict[str, Any]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(table)
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(1.6 * len(names) + 3, 4))
    ax.bar(x - 0.2, [max(table[t]["invariant_r2"], -0.1) for t in names], 0.4, label="invariant features")
    ax.bar(x + 0.2, [np.nan if table[t]["raw_r2"] is None else max(table[t]["raw_r2"], -0.1) for t in names], 0.4,
           label="raw weights")
    ax.set_xticks(x, names)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_ylim(-0.1, 1.05)
    ax.set_ylabel("held-out R²")
    ax.set_title("Predicting adapter properties")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
