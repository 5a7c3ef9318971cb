"""Benchmark: the theory family's two exact kernels against their naive baselines, measured in the same run.

1. t-product A * B of two 64×64×16 tensors: the Fourier-domain product (one matrix product per frequency of
   the half spectrum, Gauss's three real products per complex slice) vs the definition,
   fold(bcirc(A) · unfold(B)) with the 1024×1024 block-circulant matrix built each time and multiplied in one
   BLAS call.  Target: ≥ 10×.  The flop ratio bounds it: k² = 256 block products against 3·(k/2 − 1) + 2 = 23
   slice products, ≈ 11× at k = 16 before the transforms' memory traffic; it grows like k (k = 64 is shown).
2. LIF-SNN partition: exact enumeration of the first layer's cells (breakpoint recursion + arrangement sweep,
   then one network evaluation per cell) vs brute-force evaluation of the network on a grid, counting the
   distinct spike outputs.  Same network and box; the grid has the resolution of a 1024² image (1-D: 2·10⁵
   points), and in 2-D it still misses the smallest regions, which the exact count includes.  Target: ≥ 10×.

Times are the best of several repeats on one thread (the machine may be shared).

Run:  OMP_NUM_THREADS=1 .venv/bin/python bench/theory.py
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from cmbagent.tools.methods.theory import random_network, t_product, t_product_circulant
from cmbagent.tools.methods.theory._lif import enumerate_cells, regions, row_ids


def _best(fn: Callable[[], object], repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def t_product_bench(n: int = 64, k: int = 16) -> float:
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(n, n, k)), rng.normal(size=(n, n, k))
    assert np.allclose(t_product(a, b), t_product_circulant(a, b))
    fast = _best(lambda: t_product(a, b), 20)
    naive = _best(lambda: t_product_circulant(a, b), 5)
    ratio = naive / fast
    print(f"t-product {n}x{n}x{k} * {n}x{n}x{k}: Fourier {fast * 1e3:.2f} ms, block-circulant {naive * 1e3:.2f} ms "
          f"-> {ratio:.1f}x (target >= 10x)")
    return ratio


def lif_bench(input_dim: int, width: int, depth: int, latency: int, resolution: int) -> float:
    net = random_network(input_dim, [width] * depth, beta=0.9, threshold=1.0, reset="subtract", seed=0)

    def exact() -> int:
        cells = enumerate_cells(net, latency, box=3.0)
        return regions(net, cells, latency)[0]

    grid = np.linspace(-3.0, 3.0, resolution)
    x = grid[:, None] if input_dim == 1 else np.stack(np.meshgrid(grid, grid), axis=-1).reshape(-1, 2)

    def brute() -> int:
        return int(row_ids(net.output(x, latency))[0].max()) + 1

    n_exact, n_grid = exact(), brute()
    t_exact = _best(exact, 3)
    t_grid = _best(brute, 2)
    ratio = t_grid / t_exact
    print(f"LIF {input_dim}-D, {depth}x{width} neurons, T={latency}: exact {n_exact} outputs in {t_exact * 1e3:.0f} ms, "
          f"grid of {len(x):,} points finds {n_grid} in {t_grid * 1e3:.0f} ms -> {ratio:.1f}x (target >= 10x)")
    return ratio


def main() -> None:
    t_product_bench()
    t_product_bench(64, 64)
    lif_bench(1, 16, 2, 6, 200_000)
    lif_bench(2, 8, 2, 4, 1024)
    lif_bench(2, 8, 1, 6, 1024)


if __name__ == "__main__":
    main()
