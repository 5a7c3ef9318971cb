"""Readers and argument checks of the alignment tools.

Every check raises :class:`~cmbagent.exceptions.UserError` (:class:`DataError` for file contents) naming the
argument and the fix, so a model that called the tool with a bad value can correct the call.  Answers and
covariate levels are compared as text ("1" in a margins file is level 1 of a numeric column).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from cmbagent.exceptions import DataError, UserError

__all__ = ["MARGIN_COLUMNS", "Target", "as_text", "check_columns", "load_table", "model_answers", "read_target"]

MARGIN_COLUMNS = ("variable", "level", "share")
_MISSING = {"", "nan"}  # what pandas reads as missing is missing already; "none" can be an answer


def load_table(path: str, *, argument: str) -> pd.DataFrame:
    """A CSV/TSV/Parquet/Stata/Excel table; an unreadable or empty file is a :class:`DataError` naming ``argument``."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"{argument}: file {path!r} not found; pass the path of an existing table")
    suffix = file.suffix.lower()
    readers = {".csv": pd.read_csv, ".txt": pd.read_csv, ".gz": pd.read_csv, ".parquet": pd.read_parquet,
               ".dta": pd.read_stata, ".xlsx": pd.read_excel, ".xls": pd.read_excel,
               ".tsv": lambda f: pd.read_csv(f, sep="\t"), ".tab": lambda f: pd.read_csv(f, sep="\t")}
    if suffix not in readers:
        raise UserError(f"{argument}: unsupported file type {file.suffix!r}; use .csv, .tsv, .parquet, .dta or .xlsx")
    try:
        frame = readers[suffix](file)
    except Exception as exc:  # translate any parser failure at the boundary
        raise DataError(f"{argument}: could not read {path!r} as a table ({exc}); check the file format") from exc
    if frame.empty:
        raise DataError(f"{argument}: {path!r} has no rows")
    frame.columns = [str(c).strip() for c in frame.columns]
    return frame


def check_columns(frame: pd.DataFrame, columns: Sequence[str], *, argument: str, what: str = "the data") -> None:
    """Every name in ``columns`` must be a column of ``frame``."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        shown = ", ".join(map(str, list(frame.columns)[:30]))
        raise UserError(f"{argument}: column(s) {missing} not in {what}; available columns: {shown}")


def as_text(values: pd.Series) -> pd.Series:
    """Answers or levels as text, missing values as ``None`` (``1.0`` read from a CSV is ``"1"``)."""
    def one(value: object) -> str | None:
        if value is None or (isinstance(value, float) and not np.isfinite(value)):
            return None
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            return str(int(value))
        text = str(value).strip()
        return None if text.lower() in _MISSING else text

    return pd.Series([one(v) for v in values], index=values.index, dtype=object)


@dataclass(frozen=True)
class Target:
    """The population to weight to: known margins (``margins``: variable -> level -> share) or a reference
    sample (``frame`` with optional ``weights``)."""

    margins: dict[str, dict[str, float]] | None = None
    frame: pd.DataFrame | None = None
    weights: np.ndarray | None = None

    @property
    def variables(self) -> list[str]:
        if self.margins is not None:
            return list(self.margins)
        return [] if self.frame is None else list(self.frame.columns)


def _margins(frame: pd.DataFrame, path: str) -> dict[str, dict[str, float]]:
    shares = pd.to_numeric(frame["share"], errors="coerce")
    if shares.isna().any() or (shares < 0).any():
        bad = frame.index[shares.isna() | (shares < 0)][:5].tolist()
        raise DataError(f"population: {path!r} has shares that are not non-negative numbers (rows {bad})")
    margins: dict[str, dict[str, float]] = {}
    for (variable, level), share in zip(zip(frame["variable"].astype(str).str.strip(), as_text(frame["level"]),
                                            strict=True), shares, strict=True):
        if level is None:
            raise DataError(f"population: {path!r} has a row of {variable!r} without a level; name every level")
        if level in margins.setdefault(variable, {}):
            raise DataError(f"population: level {level!r} of {variable!r} appears twice in {path!r}")
        margins[variable][level] = float(share)
    for variable, levels in margins.items():
        total = sum(levels.values())
        scale = 100.0 if abs(total - 100.0) <= 2.0 else 1.0  # percentages are read as such
        if abs(total / scale - 1.0) > 0.02:
            raise DataError(f"population: the shares of {variable!r} sum to {total:g}, not 1 (or 100); every "
                            "variable's levels must cover the whole population")
        margins[variable] = {k: v / total for k, v in levels.items()}
    return margins


def read_target(path: str, *, weight: str | None = None) -> Target:
    """A margins table (columns ``variable, level, share``) or a reference sample of the population (one row
    per person, the weighting covariates as columns, optional ``weight`` column)."""
    frame = load_table(path, argument="population")
    if set(MARGIN_COLUMNS) <= set(frame.columns):
        if weight is not None:
            raise UserError("population_weight: a margins table carries shares, not weights; drop the argument")
        return Target(margins=_margins(frame, path))
    weights = None
    if weight is not None:
        check_columns(frame, [weight], argument="population_weight", what=f"the population table {path!r}")
        weights = pd.to_numeric(frame.pop(weight), errors="coerce").to_numpy(float)
        if not np.all(np.isfinite(weights)) or (weights <= 0).any():
            raise DataError(f"population_weight: column {weight!r} must hold positive numbers in every row")
    return Target(frame=frame, weights=weights)


def model_answers(path: str, questions: Sequence[str], levels: dict[str, list[str]],
                  subgroup_levels: Sequence[str]) -> dict[str, dict[str, np.ndarray]]:
    """The model's answer distribution per persona (``""``: no persona) and question, aligned with the
    survey's answer ``levels``.

    The table has columns ``question`` and ``answer``, and optionally ``share`` (an answer distribution; without
    it every row is one sampled answer and rows are counted) and ``subgroup`` (the persona the model was asked
    to answer as: a level of the survey's ``subgroup`` column)."""
    frame = load_table(path, argument="model_answers")
    check_columns(frame, ["question", "answer"], argument="model_answers", what=f"{path!r}")
    question = frame["question"].astype(str).str.strip()
    answer = as_text(frame["answer"])
    share = (pd.to_numeric(frame["share"], errors="coerce") if "share" in frame.columns
             else pd.Series(1.0, index=frame.index))
    if share.isna().any() or (share < 0).any():
        raise DataError(f"model_answers: the share column of {path!r} must hold non-negative numbers")
    persona = as_text(frame["subgroup"]).fillna("") if "subgroup" in frame.columns else pd.Series("", index=frame.index)
    persona = persona.where(persona.str.lower() != "all", "")
    unknown_q = sorted(set(question) - set(questions))
    if unknown_q:
        raise DataError(f"model_answers: question(s) {unknown_q} are not among the survey's questions "
                        f"{list(questions)}; name each question by its column in the survey table")
    unknown_p = sorted(set(persona) - {""} - set(subgroup_levels))
    if unknown_p:
        hint = (f"levels of the subgroup column: {list(subgroup_levels)}" if subgroup_levels
                else "give subgroup=<column of the survey> to compare personas with that column's groups")
        raise DataError(f"model_answers: persona(s) {unknown_p} match no subgroup of the survey; {hint}")
    out: dict[str, dict[str, np.ndarray]] = {}
    for (who, q), rows in pd.DataFrame({"p": persona, "q": question, "a": answer, "s": share}).groupby(["p", "q"]):
        known = levels[q]
        stray = sorted({a for a in rows["a"] if a not in known} - {None})
        if stray or rows["a"].isna().any():
            raise DataError(f"model_answers: answers {stray or ['(empty)']} to {q!r} are not answers in the survey "
                            f"({known}); map the model's answers onto the survey's answer options")
        dist = np.array([rows.loc[rows["a"] == k, "s"].sum() for k in known], dtype=float)
        if dist.sum() <= 0:
            raise DataError(f"model_answers: the shares of {q!r}{f' for {who!r}' if who else ''} sum to 0")
        out.setdefault(str(who), {})[str(q)] = dist / dist.sum()
    return out
