"""The default limits leave room for the scientific stack: numpy, scipy, astropy, torch, scikit-learn, joblib."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import start

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

CODE = """\
import numpy as np, scipy.linalg, astropy.units as u
import torch, sklearn.ensemble, joblib
x = torch.randn(300, 300, requires_grad=True)
(x @ x).sum().backward()
forest = sklearn.ensemble.RandomForestClassifier(n_estimators=10, n_jobs=2, random_state=0)
forest.fit(np.random.default_rng(0).random((200, 4)), np.arange(200) % 2)
print(x.grad.shape[0], len(forest.estimators_), joblib.Parallel(n_jobs=2)(joblib.delayed(abs)(-i) for i in range(3)),
      (1 * u.Mpc).to(u.km).unit, scipy.linalg.det(np.eye(3)))
"""


def test_scientific_stack_works_under_default_limits(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("sklearn")
    ex = start(tmp_path / "run", "bwrap")
    try:
        res = ex.execute(CODE, timeout=300)
    finally:
        ex.close()
    assert res.status == "ok", f"{res.message}\n{res.traceback}\n{res.stderr.text}"
    assert res.stdout.text.strip() == "300 10 [0, 1, 2] km 1.0"
    assert "serial mode" not in res.stderr.text  # joblib found working semaphores (/dev/shm)
