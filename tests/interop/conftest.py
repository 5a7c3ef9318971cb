"""Fixtures for the interop tests: a small MCMC chain in a data folder, and an isolating sandbox or a skip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cmbagent.sandbox import probe_backends


@pytest.fixture(scope="session")
def isolating_sandbox() -> str:
    """``auto`` (what solve uses) when bwrap or docker works here; else skip, saying why."""
    status = probe_backends()
    if not (status["bwrap"].available or status["docker"].available):
        pytest.skip(f"no isolating sandbox backend here: bwrap: {status['bwrap'].reason}; "
                    f"docker: {status['docker'].reason}")
    return "auto"


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    rng = np.random.default_rng(1)
    samples = np.column_stack([rng.normal(0.3, 0.02, 2000), rng.normal(0.7, 0.01, 2000)])
    np.savetxt(folder / "chain.txt", samples, header="omega_m h0", fmt="%.6f")
    (folder / "task.md").write_text(
        "---\ntitle: Summarise a chain\nmethod: cosmology.summarize_chain\narguments: {chain: chain.txt}\n---\n"
        "Summarise the MCMC chain: posterior means and 68% intervals of every parameter.\n")
    return folder
