"""Sample-to-population weights with the ``balance`` library (raking, inverse propensity weights, CBPS) and
their diagnostics.

balance does the weighting; this module feeds it, reads its diagnostics back (ASMD per covariate before and
after, Kish's design effect) and keeps its import quiet: balance configures the ``balance`` logger at import
(a stderr handler and a welcome banner, and it drops the root logger's handlers), which would print into every
sandbox cell and take the host's log handlers away.

A target given as margins becomes the *product* of the margins (every combination of levels, weighted by the
product of their shares): raking reads only the margins from it, and IPW and CBPS then treat the covariates as
independent in the population — with margins alone nothing better is known; give a reference sample for
their joint distribution.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import itertools
import logging
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Literal

import numpy as np
import pandas as pd

from cmbagent.exceptions import DataError, UserError
from cmbagent.tools.methods.alignment._io import Target, as_text

__all__ = ["Weighting", "WeightingMethod", "calibration_matrix", "fit_weights", "import_balance",
           "weight_diagnostics"]

WeightingMethod = Literal["rake", "ipw", "cbps", "none"]
EXTREME = 5.0  # a weight above 5 × the mean weight is "extreme" (a common trimming threshold)
_PRODUCT_LIMIT = 20_000
_NUMERIC_LEVELS = 10  # a numeric covariate with more distinct values than this is used as a number


def import_balance() -> ModuleType:
    """``balance``, imported with its banner swallowed and the host's root log handlers kept; its own
    messages go to the ``balance`` logger at WARNING and above (collected per call by :func:`fit_weights`)."""
    root = logging.getLogger()
    kept = list(root.handlers)
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            module = importlib.import_module("balance")
    except ImportError as exc:
        raise UserError("the alignment tools need the `balance` package: pip install --no-deps 'balance>=0.23' "
                        "(scripts/install.sh does this; its dependencies come with cmbagent[methods])") from exc
    finally:
        for handler in kept:
            if handler not in root.handlers:
                root.addHandler(handler)
    logger = logging.getLogger("balance")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    logger.setLevel(logging.WARNING)
    return module


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.module != "pandas_utils":  # dtype bookkeeping of SampleFrame, not about the weights
            self.messages.append(record.getMessage().strip())


@contextlib.contextmanager
def _collected(notes: list[str]) -> Iterator[None]:
    """balance's log warnings and Python warnings raised inside, kept as notes (first line, once each)."""
    handler = _Collect()
    logger = logging.getLogger("balance")
    logger.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
    finally:
        logger.removeHandler(handler)
    for message in [*handler.messages, *(str(w.message) for w in caught)]:
        line = message.splitlines()[0][:300] if message else ""
        if line and line not in notes:
            notes.append(line)


@dataclass
class Weighting:
    """Weights (mean 1 within each stratum) and what balance says about them."""

    weights: np.ndarray
    method: str
    covariates: list[str]
    asmd_before: dict[str, float]
    asmd_after: dict[str, float]
    converged: bool
    calibration: np.ndarray | None  # rows x columns: what the weights calibrate on, for the linearisation
    notes: list[str] = field(default_factory=list)


def weight_diagnostics(weights: np.ndarray) -> dict[str, float]:
    """Kish's design effect (balance), the effective sample size n / deff and the extreme-weight share."""
    balance_stats = importlib.import_module("balance.stats_and_plots.weights_stats")
    w = np.asarray(weights, dtype=float)
    deff = float(balance_stats.design_effect(pd.Series(w)))
    relative = w / w.mean()
    return {"design_effect": deff, "effective_sample_size": len(w) / deff,
            "extreme_weight_share": float(np.mean(relative > EXTREME)), "max_weight_ratio": float(relative.max()),
            "min_weight_ratio": float(relative.min())}


def _kinds(frame: pd.DataFrame, covariates: list[str], target: Target) -> dict[str, str]:
    kinds = {}
    for c in covariates:
        numeric = (target.margins is None and pd.api.types.is_numeric_dtype(frame[c])
                   and frame[c].nunique() > _NUMERIC_LEVELS)
        kinds[c] = "numeric" if numeric else "category"
    return kinds


def _prepare(frame: pd.DataFrame, kinds: dict[str, str], *, argument: str) -> pd.DataFrame:
    out = pd.DataFrame(index=frame.index)
    for c, kind in kinds.items():
        values = pd.to_numeric(frame[c], errors="coerce") if kind == "numeric" else as_text(frame[c])
        bad = values.isna()
        if bad.any():
            rows = frame.index[bad][:5].tolist()
            raise DataError(f"{argument}: covariate {c!r} is missing in {int(bad.sum())} row(s) (first {rows}); "
                            "drop or impute those rows, or add the missing value as a level of the margins")
        out[c] = values
    return out


def _target_frame(target: Target, covariates: list[str], kinds: dict[str, str],
                  method: str) -> tuple[pd.DataFrame, np.ndarray]:
    if target.margins is not None:
        missing = [c for c in covariates if c not in target.margins]
        if missing:
            raise UserError(f"covariates: {missing} have no margins in the population table (it has "
                            f"{list(target.margins)}); add their shares or weight on the others")
        levels = [list(target.margins[c].items()) for c in covariates]
        cells = int(np.prod([len(x) for x in levels]))
        if cells > _PRODUCT_LIMIT:
            if method != "rake":
                raise UserError(f"weighting: {method} on margins of {len(covariates)} covariates needs their "
                                f"{cells:,} combinations; use weighting='rake' or give a reference sample")
            realised = importlib.import_module("balance.weighting_methods.rake").prepare_marginal_dist_for_raking(
                {c: target.margins[c] for c in covariates}, max_length=_PRODUCT_LIMIT)
            frame = realised[covariates].astype(str)
            return frame, np.ones(len(frame))
        rows = list(itertools.product(*levels))
        frame = pd.DataFrame([[lv for lv, _ in row] for row in rows], columns=covariates)
        weights = np.array([np.prod([s for _, s in row]) for row in rows]) * 10_000
        keep = weights > 0
        return frame.loc[keep].reset_index(drop=True), weights[keep]
    if target.frame is None:
        raise UserError("population: give a margins table (variable, level, share) or a reference sample")
    missing = [c for c in covariates if c not in target.frame.columns]
    if missing:
        shown = ", ".join(map(str, target.frame.columns[:30]))
        raise UserError(f"covariates: {missing} are not columns of the population table ({shown}); a reference "
                        "sample needs every weighting covariate")
    frame = _prepare(target.frame, kinds, argument="population").reset_index(drop=True)
    weights = target.weights if target.weights is not None else np.ones(len(frame))
    return frame, np.asarray(weights, dtype=float)


def _check_levels(sample: pd.DataFrame, population: pd.DataFrame, kinds: dict[str, str]) -> None:
    for c, kind in kinds.items():
        if kind == "numeric":
            continue
        in_sample, in_population = set(sample[c]), set(population[c])
        stray = sorted(in_sample - in_population)
        if stray:
            raise DataError(f"covariates: level(s) {stray} of {c!r} in the data have no share in the population "
                            f"(its levels: {sorted(in_population)}); recode the data's levels to the population's")
        empty = sorted(in_population - in_sample)
        if empty:
            raise DataError(f"covariates: the data have no respondent with {c!r} in {empty}, which the population "
                            "has; merge those levels with a neighbouring level in both tables")


def calibration_matrix(frame: pd.DataFrame, kinds: dict[str, str], strata: np.ndarray | None) -> np.ndarray:
    """What the weights calibrate on (an intercept, every level of each categorical covariate, numeric
    covariates standardised), repeated per stratum when strata are weighted separately."""
    blocks = [np.ones((len(frame), 1))]
    for c, kind in kinds.items():
        if kind == "numeric":
            x = frame[c].to_numpy(float)
            blocks.append(((x - x.mean()) / (x.std() or 1.0))[:, None])
        else:
            blocks.append(pd.get_dummies(frame[c]).to_numpy(float))
    x = np.hstack(blocks)
    if strata is None or len(np.unique(strata)) == 1:
        return x
    return np.hstack([x * (strata == h)[:, None] for h in np.unique(strata)])


def _fit_one(balance: ModuleType, sample: pd.DataFrame, design: np.ndarray, population: pd.DataFrame,
             population_weights: np.ndarray, method: str, notes: list[str],
             asmd: bool) -> tuple[np.ndarray, bool, pd.DataFrame | None]:
    covariates = list(sample.columns)
    responders = sample.assign(_row=np.arange(len(sample)).astype(str), _weight=design)
    reference = population.assign(_row=np.arange(len(population)).astype(str), _weight=population_weights)
    kwargs: dict[str, Any] = {}
    if method == "ipw":
        from sklearn.linear_model import LogisticRegression

        # one logistic fit; balance's default cross-validates a 250-value regularisation path (minutes on
        # 20,000 rows for a handful of categorical covariates, where it selects little shrinkage anyway)
        kwargs["model"] = LogisticRegression(C=1e4, max_iter=5000)
    with _collected(notes):
        s = balance.Sample.from_frame(responders, id_column="_row", weight_column="_weight",
                                      covar_columns=covariates)
        t = balance.Sample.from_frame(reference, id_column="_row", weight_column="_weight",
                                      covar_columns=covariates)
        adjusted = s.set_target(t).adjust(method=method, **kwargs)
        weights = adjusted.weights().df.iloc[:, 0]
        ids = adjusted.id_series if hasattr(adjusted, "id_series") else adjusted.df["_row"]
        order = pd.Series(weights.to_numpy(float), index=ids.astype(str).to_numpy())
        w = order.loc[[str(i) for i in range(len(sample))]].to_numpy(float)
        table = adjusted.covars().asmd(aggregate_by_main_covar=True) if asmd else None
    return w, _converged(method, adjusted.model or {}), table


def _converged(method: str, model: dict[str, Any]) -> bool:
    if method == "rake":
        return bool(model.get("converged", True))
    if method == "cbps":
        results = [model.get(k) for k in ("gmm_optimize_result_glm_init", "gmm_optimize_result_bal_init",
                                          "balance_optimize_result")]
        return any(bool(getattr(r, "success", False) or (isinstance(r, dict) and r.get("success")))
                   for r in results if r is not None)
    fit = model.get("fit")
    n_iter = getattr(fit, "n_iter_", None)
    return n_iter is None or bool(np.max(n_iter) < getattr(fit, "max_iter", np.inf))


def fit_weights(data: pd.DataFrame, covariates: list[str], target: Target, method: WeightingMethod, *,
                design_weights: np.ndarray | None = None, strata: np.ndarray | None = None,
                asmd: bool = True) -> Weighting:
    """Weights that make ``data`` look like ``target`` on ``covariates`` (each stratum — a wave — weighted to
    the target on its own), with balance's ASMD before/after (the largest over strata; ``asmd=False`` skips
    them, half the time of a fit) and the calibration matrix the linearised variances need."""
    if not covariates:
        raise UserError("covariates: name the columns to weight on (e.g. age_group, education)")
    n = len(data)
    design = np.ones(n) if design_weights is None else np.asarray(design_weights, dtype=float)
    kinds = _kinds(data, covariates, target)
    sample = _prepare(data[covariates], kinds, argument="data").reset_index(drop=True)
    population, population_weights = _target_frame(target, covariates, kinds, method)
    if method == "none":
        relative = design / design.mean()
        return Weighting(weights=relative, method="none", covariates=covariates, asmd_before={}, asmd_after={},
                         converged=True, calibration=None)
    _check_levels(sample, population, kinds)
    balance = import_balance()
    labels = np.zeros(n, dtype=int) if strata is None else strata
    weights = np.empty(n)
    before: dict[str, float] = {}
    after: dict[str, float] = {}
    converged = True
    notes: list[str] = []
    for h in np.unique(labels):
        rows = np.flatnonzero(labels == h)
        if len(rows) < 2 * len(covariates) + 10:
            raise DataError(f"wave: stratum {h!r} has only {len(rows)} respondents, too few to weight on "
                            f"{len(covariates)} covariates; merge it with another wave")
        part = sample.iloc[rows].reset_index(drop=True)
        if strata is not None:
            _check_levels(part, population, kinds)
        try:
            w, ok, table = _fit_one(balance, part, design[rows], population, population_weights, method, notes,
                                    asmd)
        except (ValueError, np.linalg.LinAlgError) as exc:  # translate balance's errors at the boundary
            raise DataError(f"weighting: balance could not compute {method} weights ({exc}); check that every "
                            "covariate level has respondents, or try weighting='rake'") from exc
        weights[rows] = w / w.mean()
        converged &= ok
        if table is not None:
            for c in covariates:
                before[c] = max(before.get(c, 0.0), float(table.loc["unadjusted", c]))
                after[c] = max(after.get(c, 0.0), float(table.loc["self", c]))
    if not np.all(np.isfinite(weights)) or (weights < 0).any():
        raise DataError(f"weighting: {method} produced non-finite or negative weights; try weighting='rake'")
    return Weighting(weights=weights, method=method, covariates=covariates, asmd_before=before, asmd_after=after,
                     converged=converged, calibration=calibration_matrix(sample, kinds, strata), notes=notes)
