"""The t-product algebra: the FFT product is the block-circulant definition; transposes and spectra behave."""

from __future__ import annotations

import numpy as np
import pytest

from cmbagent.exceptions import UserError
from cmbagent.tools.methods.theory import (
    block_circulant,
    singular_tubes,
    t_product,
    t_product_circulant,
    t_transpose,
    tubal_rank,
)


@pytest.mark.parametrize("k", [1, 4, 5])
def test_fft_product_equals_the_block_circulant_definition(k: int) -> None:
    rng = np.random.default_rng(k)
    a, b = rng.normal(size=(6, 3, k)), rng.normal(size=(3, 4, k))
    assert np.allclose(t_product(a, b), t_product_circulant(a, b), atol=1e-12)
    assert block_circulant(a).shape == (6 * k, 3 * k)


def test_transpose_reverses_products_and_identity_is_neutral() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(5, 3, 4)), rng.normal(size=(3, 2, 4))
    assert np.allclose(t_transpose(t_product(a, b)), t_product(t_transpose(b), t_transpose(a)))
    identity = np.zeros((5, 5, 4))
    identity[:, :, 0] = np.eye(5)
    assert np.allclose(t_product(identity, a), a)
    assert np.allclose(t_transpose(t_transpose(a)), a)


def test_tubal_rank_and_singular_tubes_of_a_constructed_tensor() -> None:
    rng = np.random.default_rng(1)
    u = rng.normal(size=(8, 2, 6))
    x = t_product(u, t_transpose(u))
    assert tubal_rank(x, tol=1e-10) == 2
    tubes = singular_tubes(x)
    assert tubes.shape == (8, 6)
    assert np.abs(tubes[2:]).max() < 1e-10 * np.abs(tubes).max()
    # Parseval: Σ_i ‖s_i‖² = (1/k) Σ_f ‖X̂_f‖²_F = ‖X‖²_F
    assert np.isclose((tubes**2).sum(), (x**2).sum())


def test_mismatched_shapes_are_refused() -> None:
    with pytest.raises(UserError, match="do not match"):
        t_product(np.zeros((3, 4, 2)), np.zeros((5, 2, 2)))
    with pytest.raises(UserError, match="third-order"):
        t_product(np.zeros((3, 4)), np.zeros((4, 2, 2)))
