"""One torch thread per test worker: two workers share two cores in CI, and the tiny models gain nothing more."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _one_torch_thread() -> None:
    import torch

    torch.set_num_threads(1)
