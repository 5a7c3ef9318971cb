"""data.rows_dropped and eval.leakage (from the data and from the cell), analysis.specification_search."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from cmbagent.audits import audit_step
from tests.audits._evidence import audit, codes, evidence, write


def _points(folder: Path, n: int = 100, nan_rows: int = 5) -> str:
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, n)
    y = 2 * x + rng.normal(0, 0.1, n)
    y[:nan_rows] = np.nan
    lines = ["x,y"] + [f"{a:.5f},{'' if np.isnan(b) else f'{b:.5f}'}" for a, b in zip(x, y, strict=True)]
    return write(folder, "data/points.csv", "\n".join(lines) + "\n")


def test_rows_used_below_rows_read_without_saying_so(tmp_path: Path) -> None:
    rel = _points(tmp_path)
    (f,) = audit(run_dir=tmp_path, inputs=[rel], values={"slope": 2.0, "n": 95}, cell="c.py")
    assert f.code == "data.rows_dropped" and f.severity == "warning"
    assert (f.evidence["rows_read"], f.evidence["rows_used"]) == (100, 95)
    assert "5 row(s) with missing values" in f.message


def test_rows_dropped_and_said_so_or_all_used(tmp_path: Path) -> None:
    rel = _points(tmp_path)
    stated = "Dropped 5 rows with a missing y before the fit."
    assert audit(run_dir=tmp_path, inputs=[rel], values={"slope": 2.0, "n": 95}, output=stated) == []
    assert audit(run_dir=tmp_path, inputs=[rel], values={"slope": 2.0, "n": 100}) == []
    declared = {"rows": {"read": 1701, "used": 1590, "reasons": {"with zHD <= 0.01": 111}}}
    (f,) = audit(run_dir=tmp_path, inputs=[rel], values={"n_sne": 1590}, diagnostics=declared)
    assert "111 with zHD <= 0.01" in f.message  # a method's own accounting is used when it gives one
    assert audit(run_dir=tmp_path, inputs=[rel], values={"n_sne": 1590}, diagnostics=declared,
                 summary="1590 of 1701 rows kept") == []


def _labelled(folder: Path, leak: bool) -> str:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(400, 3))
    y = (rng.uniform(size=400) < 0.1).astype(int)
    if leak:
        X = np.column_stack([X, y + rng.normal(0, 0.01, 400)])
    path = folder / "data" / "table.npz"
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, X=X, y=y)
    return "data/table.npz"


def test_a_feature_that_copies_the_label(tmp_path: Path) -> None:
    values = {"wsad_dt": {"auc_roc": 1.0, "auc_pr": 1.0}}
    rel = _labelled(tmp_path, leak=True)
    (f,) = audit(run_dir=tmp_path, inputs=[rel], arguments={"data": rel}, method="anomaly.wsad_dt", values=values)
    assert f.code == "eval.leakage" and f.severity == "error" and f.evidence["feature"] == "x3"
    clean = _labelled(tmp_path / "clean", leak=False)
    assert audit(run_dir=tmp_path / "clean", inputs=[clean], arguments={"data": clean}, method="anomaly.wsad_dt",
                 values={"wsad_dt": {"auc_roc": 0.6}}) == []


def test_a_csv_label_column_and_steps_that_report_no_score(tmp_path: Path) -> None:
    rows = ["a,b,label"] + [f"{i % 7},{i % 2},{i % 2}" for i in range(200)]
    rel = write(tmp_path, "data/t.csv", "\n".join(rows) + "\n")
    assert codes(audit(run_dir=tmp_path, inputs=[rel], values={"accuracy": 1.0}, cell="c.py")) == ["eval.leakage"]
    # reading the same table without scoring anything (an inspection step) is not leakage
    assert audit(run_dir=tmp_path, inputs=[rel], values={"n_rows": 200}, cell="c.py") == []


LEAKY = """
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
model = LogisticRegression().fit(X, y)
scores = model.predict_proba(X)[:, 1]
print(roc_auc_score(y, scores))
"""
HELD_OUT = """
model = LogisticRegression().fit(X_train, y_train)
print(roc_auc_score(y_test, model.predict_proba(X_test)[:, 1]), model.score(X_test, y_test))
"""


def test_a_score_on_the_training_data_in_the_cell() -> None:
    (f,) = audit(code=LEAKY, cell="c.py", values={"auc": 1.0})
    assert f.code == "eval.leakage" and f.evidence["data"] == "X"
    assert codes(audit(code="clf.fit(X, y)\nacc = clf.score(X, y)\n", cell="c.py", values={"acc": 1.0})) == ["eval.leakage"]
    assert audit(code=HELD_OUT, cell="c.py", values={"auc": 0.8}) == []


SEARCH = """
import itertools
from scipy import stats
best = None
for subset in itertools.combinations(columns, 2):
    r, p = stats.pearsonr(df[list(subset)].sum(axis=1), df.y)
    if best is None or p < best[1]:
        best = (subset, p)
"""


def test_a_loop_over_variants_that_keeps_the_best() -> None:
    (f,) = audit(code=SEARCH, cell="c.py", values={"p_value": 0.01})
    assert f.code == "analysis.specification_search" and "pearsonr" in f.evidence["tests"]
    one = "r, p = stats.pearsonr(df.a, df.y)\nprint(p)\n"
    loop_without_choice = "for c in ['a', 'b', 'c']:\n    print(stats.pearsonr(df[c], df.y))\n"
    assert audit(code=one, cell="c.py", values={"p_value": 0.3}) == []
    assert audit(code=loop_without_choice, cell="c.py", values={"n": 3}) == []


def test_printed_variants_are_judged_with_the_x_hacking_detection() -> None:
    variants = [{"name": f"v{i}", "estimate": e} for i, e in enumerate([0.1, 0.9, 0.5, 0.4, 1.6])]
    (f,) = audit(values={"estimate": 1.6, "variants": variants}, cell="c.py", code="print(1)")
    assert f.code == "analysis.specification_search" and f.evidence["spread"]["flag"]
    stable = [{"name": f"v{i}", "estimate": e} for i, e in enumerate([1.0, 1.02, 0.98, 1.01])]
    assert audit(values={"estimate": 1.0, "variants": stable}, cell="c.py", code="print(1)") == []


def test_an_audit_that_cannot_read_its_input_is_a_note(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "broken.npz").write_bytes(b"not a zip file at all")
    found = audit_step(evidence(run_dir=tmp_path, inputs=["data/broken.npz"], values={"auc": 1.0, "n": 3},
                                cell="c.py")).findings
    assert found and {f.code for f in found} == {"audit.failed"} and all(f.severity == "note" for f in found)
