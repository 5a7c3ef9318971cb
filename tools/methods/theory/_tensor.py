"""Tubal (t-product) tensor algebra: products, transposes, t-SVD spectra and the block-circulant view.

The t-product of A (n×p×k) and B (p×q×k) is the circular convolution of their frontal slices along the third
mode.  A discrete Fourier transform along that mode diagonalises the convolution, so the product is k
independent matrix products of the Fourier slices — O(k·n·p·q) plus the transforms instead of the
O(n·p·q·k²) of multiplying the block-circulant matrix bcirc(A) (nk×pk) by the unfolded B.  The real input
makes the spectrum Hermitian, so only ⌊k/2⌋ + 1 slices are computed.  Short tubes are transformed by one
dense DFT matrix product over all tubes (faster than a separate FFT per tube), long ones by numpy's FFT.

Every spectral quantity here (singular values, tubal rank) is read from the Fourier slices: the t-SVD of X is
the SVD of each slice X̂_f, its singular tubes are the inverse transforms of the per-slice singular values,
and its tubal rank is the largest slice rank.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from cmbagent.exceptions import UserError

__all__ = [
    "block_circulant",
    "fold",
    "singular_tubes",
    "t_product",
    "t_product_circulant",
    "t_transpose",
    "tubal_rank",
    "unfold",
]


def _check3(a: np.ndarray, argument: str) -> None:
    if a.ndim != 3:
        raise UserError(f"{argument}: a third-order tensor (n×p×k) is needed, got shape {a.shape}")


#: tubes up to this length are transformed by a dense DFT matrix product (one BLAS call for all n·p tubes),
#: which beats n·p separate FFT calls; longer tubes go through numpy's FFT
DENSE_DFT_MAX = 64


@lru_cache(maxsize=32)
def _dft(k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Real and imaginary parts of the half-spectrum DFT (kh × k) and of its real inverse (k × kh)."""
    kh = k // 2 + 1
    angle = 2 * np.pi * np.outer(np.arange(kh), np.arange(k)) / k
    weight = np.full(kh, 2.0)
    weight[0] = 1.0
    if k % 2 == 0:
        weight[-1] = 1.0
    return np.cos(angle), -np.sin(angle), (np.cos(angle) * weight[:, None]).T / k, (-np.sin(angle) * weight[:, None]).T / k


def _half_spectrum(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Re and Im of the DFT along the third mode, slices first: two (⌊k/2⌋+1) × n × p arrays."""
    n, p, k = a.shape
    if k > DENSE_DFT_MAX:
        spectrum = np.fft.rfft(a, axis=2).transpose(2, 0, 1)
        return np.ascontiguousarray(spectrum.real), np.ascontiguousarray(spectrum.imag)
    cos, sin, _, _ = _dft(k)
    tubes = a.transpose(2, 0, 1).reshape(k, n * p)
    return (cos @ tubes).reshape(-1, n, p), (sin @ tubes).reshape(-1, n, p)


def t_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A * B in the Fourier domain of the third mode (real inputs, real output).

    The transform diagonalises the circular convolution, so the product is one matrix product per frequency of
    the half spectrum (the other half is its conjugate).  Complex slice products use Gauss's three real
    products; the zero and Nyquist frequencies are real and take one.
    """
    _check3(a, "a")
    _check3(b, "b")
    if a.shape[1] != b.shape[0] or a.shape[2] != b.shape[2]:
        raise UserError(f"t-product: shapes {a.shape} and {b.shape} do not match (need n×p×k and p×q×k)")
    n, _, k = a.shape
    q = b.shape[1]
    ar, ai = _half_spectrum(a)
    br, bi = _half_spectrum(b)
    kh = k // 2 + 1
    cplx = slice(1, (k + 1) // 2)  # frequencies with an imaginary part
    re = np.matmul(ar, br)
    im = np.zeros_like(re)
    if cplx.stop > cplx.start:
        rr, ii = re[cplx], np.matmul(ai[cplx], bi[cplx])
        im[cplx] = np.matmul(ar[cplx] + ai[cplx], br[cplx] + bi[cplx]) - rr - ii
        re[cplx] = rr - ii
    if k > DENSE_DFT_MAX:
        return np.fft.irfft((re + 1j * im).transpose(1, 2, 0), n=k, axis=2)
    _, _, icos, isin = _dft(k)
    out = icos @ re.reshape(kh, n * q) + isin @ im.reshape(kh, n * q)
    return out.reshape(k, n, q).transpose(1, 2, 0)


def t_transpose(a: np.ndarray) -> np.ndarray:
    """Aᵀ: each frontal slice transposed, slices 2…k in reverse order (so that (A*B)ᵀ = Bᵀ*Aᵀ)."""
    _check3(a, "a")
    out = np.empty((a.shape[1], a.shape[0], a.shape[2]), dtype=a.dtype)
    out[:, :, 0] = a[:, :, 0].T
    out[:, :, 1:] = a[:, :, :0:-1].transpose(1, 0, 2)
    return out


def unfold(a: np.ndarray) -> np.ndarray:
    """The frontal slices stacked vertically: (n·k)×p."""
    return a.transpose(2, 0, 1).reshape(-1, a.shape[1])


def fold(matrix: np.ndarray, k: int) -> np.ndarray:
    """Inverse of :func:`unfold`."""
    n = matrix.shape[0] // k
    return matrix.reshape(k, n, matrix.shape[1]).transpose(1, 2, 0)


def block_circulant(a: np.ndarray) -> np.ndarray:
    """bcirc(A): the (n·k)×(p·k) block-circulant matrix whose first block column holds A's slices."""
    _check3(a, "a")
    n, p, k = a.shape
    out = np.empty((n * k, p * k), dtype=a.dtype)
    for i in range(k):
        for j in range(k):
            out[i * n:(i + 1) * n, j * p:(j + 1) * p] = a[:, :, (i - j) % k]
    return out


def t_product_circulant(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A * B by the definition, fold(bcirc(A) · unfold(B)): the naive baseline for benchmarks and tests."""
    if a.shape[1] != b.shape[0] or a.shape[2] != b.shape[2]:
        raise UserError(f"t-product: shapes {a.shape} and {b.shape} do not match (need n×p×k and p×q×k)")
    return fold(block_circulant(a) @ unfold(b), a.shape[2])


def slice_singular_values(a: np.ndarray) -> np.ndarray:
    """Singular values of every Fourier slice, shape (min(n, p), k), descending within a slice."""
    _check3(a, "a")
    k = a.shape[2]
    spectrum = np.fft.fft(a, axis=2).transpose(2, 0, 1)
    half = np.linalg.svd(spectrum[: k // 2 + 1], compute_uv=False)  # the rest mirror these (conjugate slices)
    full = np.concatenate([half, half[1:(k + 1) // 2][::-1]], axis=0)
    return full.T


def singular_tubes(a: np.ndarray) -> np.ndarray:
    """The t-SVD's singular tubes s_i (inverse transforms of the i-th singular values across slices), (r, k)."""
    return np.real(np.fft.ifft(slice_singular_values(a), axis=1))


def tubal_rank(a: np.ndarray, tol: float = 1e-3) -> int:
    """Number of singular tubes whose Fourier-domain size exceeds ``tol`` times the largest one."""
    sv = slice_singular_values(a)
    top = float(sv.max()) if sv.size else 0.0
    if top == 0.0:
        return 0
    return int((sv.max(axis=1) > tol * top).sum())
