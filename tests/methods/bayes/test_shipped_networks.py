"""The networks of the Bayesian tools' default settings ship with the package (``tools/methods/bayes/trained/``,
written by ``scripts/train_networks.py``): a first call with those settings loads one instead of training for
minutes, a call with other settings still trains, and ``cache_dir=None`` still always trains."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import torch

from cmbagent.tools.methods import run_method
from cmbagent.tools.methods.bayes._io import SHIPPED, load_or_train

ROOT = Path(__file__).resolve().parents[3]


def test_every_default_network_is_shipped_and_current() -> None:
    """``--check`` computes each network's settings with the tools' current code: a network whose settings changed
    (a new version of a tool's network) is reported missing, and the script says to train it again."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_networks.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("ok ") == 6, done.stdout
    assert sorted(p.suffix for p in SHIPPED.iterdir() if p.suffix in {".pt", ".json"}) == [".json"] * 6 + [".pt"] * 6


def test_a_first_call_with_default_settings_loads_the_shipped_network(tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    x = rng.normal(size=30)
    y = 0.5 - 0.3 * x + rng.normal(size=30)
    table = tmp_path / "plants.csv"
    table.write_text("shade,growth\n" + "".join(f"{a:.4f},{b:.4f}\n" for a, b in zip(x, y, strict=True)))
    started = time.perf_counter()
    result = run_method("bayes.icl_posterior", {"data": str(table), "target": "growth", "cache_dir": str(tmp_path / "new"),
                                                "output_dir": str(tmp_path / "figures")})
    assert result.diagnostics["loaded_from_cache"] is True
    assert time.perf_counter() - started < 60  # training alone takes minutes of one core
    assert not (tmp_path / "new").exists() or not any((tmp_path / "new").iterdir())  # nothing trained, nothing written
    standardised = np.column_stack([(x - x.mean()) / x.std(), y])
    from cmbagent.tools.methods.bayes._simulators import ModelFamily

    mean, cov = ModelFamily("linear_regression").exact_posterior(standardised)
    sd = float(np.sqrt(cov[1, 1]))
    assert abs(result.values["posterior"]["w_1"]["mean"] - mean[1]) < sd


def test_other_settings_and_no_cache_still_train(tmp_path: Path) -> None:
    trained: list[str] = []

    def train(net: torch.nn.Module) -> list[float]:
        trained.append("yes")
        return [1.0]

    settings = {"family": "linear_regression", "n_features": 1, "steps": 3}  # no shipped network has these
    assert load_or_train("icl", settings, lambda: torch.nn.Linear(1, 1), train, cache_dir=str(tmp_path)).cached is False
    assert load_or_train("icl", settings, lambda: torch.nn.Linear(1, 1), train, cache_dir=None).cached is False
    assert trained == ["yes", "yes"]
    assert load_or_train("icl", settings, lambda: torch.nn.Linear(1, 1), train, cache_dir=str(tmp_path)).cached is True

