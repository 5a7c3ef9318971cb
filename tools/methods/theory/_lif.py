"""Discrete-time leaky integrate-and-fire (LIF) networks with static inputs, and the exact input partition.

Neuron dynamics (snnTorch's convention), with input current I[t], leak β ∈ [0, 1] and threshold θ > 0:

    subtract:  u[t] = β·u[t−1] + I[t] − θ·s[t−1]          zero:  u[t] = β·u[t−1]·(1 − s[t−1]) + I[t]
    s[t] = 1 if u[t] ≥ θ else 0,        u[0] = 0, s[0] = 0.

Layer 1 sees the static input, I = W₁x + b₁; layer l > 1 sees the previous layer's spikes at the same step,
I[t] = W_l s_{l−1}[t] + b_l.  The network's output is the last layer's spike trains over T steps.

Why the partition can be enumerated exactly: with a constant current c the membrane potential is affine in c
for as long as the spike history is fixed, so a single neuron's spike train is a step function of c whose
breakpoints a depth-T binary recursion finds exactly (:func:`neuron_partition`).  A first-layer neuron i
therefore cuts input space along the parallel hyperplanes w_i·x + b_i = τ for its breakpoints τ, and the first
layer's output is constant exactly on the cells of that hyperplane arrangement.  Every later layer only sees
the first layer's spikes, so it is constant on those cells too: depth can merge cells but never split them.
In 1-D and 2-D the cells are enumerated exactly (one interior point each, by a sweep over the arrangement's
vertices); in higher dimension they are sampled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from cmbagent.exceptions import UserError

__all__ = ["Cells", "LIFNetwork", "enumerate_cells", "neuron_partition", "random_network", "regions", "row_ids"]

Reset = Literal["subtract", "zero"]


def _check_dynamics(latency: int, beta: float, threshold: float, reset: str) -> None:
    if int(latency) != latency or latency <= 0:
        raise UserError(f"latency T: must be a positive integer number of time steps, got {latency}")
    if not 0.0 <= beta <= 1.0:
        raise UserError(f"beta: the leak factor must lie in [0, 1], got {beta}")
    if not np.isfinite(threshold) or threshold <= 0:
        raise UserError(f"threshold: must be positive, got {threshold}")
    if reset not in ("subtract", "zero"):
        raise UserError(f"reset: must be 'subtract' or 'zero', got {reset!r}")


def neuron_partition(latency: int, beta: float, threshold: float = 1.0,
                     reset: Reset = "subtract") -> tuple[np.ndarray, np.ndarray]:
    """Exact breakpoints of a single neuron's spike train as a function of a constant current c.

    Returns ``(breakpoints, trains)``: breakpoints τ₁ < … < τ_L, and the L + 1 distinct trains (rows, 0/1 over
    T steps) on (−∞, τ₁), [τ₁, τ₂), …, [τ_L, ∞).
    """
    _check_dynamics(latency, beta, threshold, reset)
    # each piece: [lo, hi), u = a·c + d after the last step, last spike, spike history
    pieces: list[tuple[float, float, float, float, int, tuple[int, ...]]] = [(-np.inf, np.inf, 0.0, 0.0, 0, ())]
    for _ in range(int(latency)):
        grown = []
        for lo, hi, a, d, s, hist in pieces:
            keep = 1.0 if reset == "subtract" else 1.0 - s
            a2 = beta * a * keep + 1.0
            d2 = beta * d * keep - (threshold * s if reset == "subtract" else 0.0)
            cut = (threshold - d2) / a2  # a2 ≥ 1: the neuron fires at this step iff c ≥ cut
            if cut <= lo:
                grown.append((lo, hi, a2, d2, 1, (*hist, 1)))
            elif cut >= hi:
                grown.append((lo, hi, a2, d2, 0, (*hist, 0)))
            else:
                grown.append((lo, cut, a2, d2, 0, (*hist, 0)))
                grown.append((cut, hi, a2, d2, 1, (*hist, 1)))
        pieces = grown
    pieces.sort(key=lambda p: p[0])
    breakpoints = np.array([p[0] for p in pieces[1:]], dtype=float)
    trains = np.array([p[5] for p in pieces], dtype=np.int8)
    return breakpoints, trains


@dataclass
class LIFNetwork:
    """A feed-forward LIF network: weights[l] is n_l × n_{l−1}, biases[l] has n_l entries."""

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    beta: float = 0.9
    threshold: float = 1.0
    reset: Reset = "subtract"

    def __post_init__(self) -> None:
        if not self.weights or len(self.weights) != len(self.biases):
            raise UserError("network: give one weight matrix and one bias vector per layer")
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if np.ndim(w) != 2 or np.shape(b) != (np.shape(w)[0],):
                raise UserError(f"network layer {i + 1}: weights {np.shape(w)} and bias {np.shape(b)} do not match "
                                "(need n_out × n_in and n_out)")
            if i and np.shape(w)[1] != np.shape(self.weights[i - 1])[0]:
                raise UserError(f"network layer {i + 1}: takes {np.shape(w)[1]} inputs but layer {i} has "
                                f"{np.shape(self.weights[i - 1])[0]} neurons")
        _check_dynamics(1, self.beta, self.threshold, self.reset)

    @property
    def input_dim(self) -> int:
        return int(np.shape(self.weights[0])[1])

    @property
    def depth(self) -> int:
        return len(self.weights)

    def truncated(self, depth: int) -> LIFNetwork:
        """The network's first ``depth`` layers."""
        return LIFNetwork(self.weights[:depth], self.biases[:depth], self.beta, self.threshold, self.reset)

    def spikes(self, x: np.ndarray, latency: int) -> list[np.ndarray]:
        """Spike trains of every layer for inputs x (N × d): a list of N × n_l × T arrays of 0/1."""
        _check_dynamics(latency, self.beta, self.threshold, self.reset)
        x = np.atleast_2d(np.asarray(x, dtype=float))
        if x.shape[1] != self.input_dim:
            raise UserError(f"inputs: have {x.shape[1]} features, the network takes {self.input_dim}")
        out = []
        drive = x @ np.asarray(self.weights[0]).T + self.biases[0]  # the static current of layer 1
        previous = np.zeros((x.shape[0], 0, latency))
        for layer, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            n = x.shape[0]
            u = np.zeros((n, w.shape[0]))
            s = np.zeros((n, w.shape[0]))
            trains = np.zeros((n, w.shape[0], latency), dtype=np.int8)
            for t in range(latency):
                current = drive if layer == 0 else previous[:, :, t] @ np.asarray(w).T + b
                u = beta_step(u, s, current, self.beta, self.threshold, self.reset)
                s = (u >= self.threshold).astype(float)
                trains[:, :, t] = s
            out.append(trains)
            previous = trains.astype(float)
        return out

    def output(self, x: np.ndarray, latency: int) -> np.ndarray:
        """The last layer's spike trains, flattened per input (N × n_L·T)."""
        return self.spikes(x, latency)[-1].reshape(np.atleast_2d(x).shape[0], -1)


def beta_step(u: np.ndarray, s: np.ndarray, current: np.ndarray, beta: float, threshold: float,
              reset: str) -> np.ndarray:
    """One membrane update (before thresholding)."""
    if reset == "subtract":
        return beta * u + current - threshold * s
    return beta * u * (1.0 - s) + current


def random_network(input_dim: int, widths: list[int], *, beta: float, threshold: float, reset: Reset,
                   seed: int) -> LIFNetwork:
    """Gaussian weights whose currents span the neurons' firing range on a box of side ~3 around the origin.

    Layer 1: W ~ N(0, 1), b ~ U(−0.5, 1.5)·θ, so first-layer currents cross many breakpoints on the box; later
    layers: W ~ N(0, 4/n_in)·θ and b ~ U(−0.5, 1)·θ, so that some spike patterns of the layer below drive them
    above threshold and others do not.
    """
    rng = np.random.default_rng(seed)
    weights, biases = [], []
    fan_in = input_dim
    for layer, width in enumerate(widths):
        if layer == 0:
            weights.append(rng.normal(size=(width, fan_in)))
            biases.append(rng.uniform(-0.5, 1.5, size=width) * threshold)
        else:
            weights.append(rng.normal(scale=2.0 / np.sqrt(fan_in), size=(width, fan_in)) * threshold)
            biases.append(rng.uniform(-0.5, 1.0, size=width) * threshold)
        fan_in = width
    return LIFNetwork(weights, biases, beta=beta, threshold=threshold, reset=reset)


@dataclass
class Cells:
    """The cells of the first layer's partition inside the box: one interior point and one pattern each.

    ``patterns[c, i]`` is the index of the interval of neuron i's breakpoints that cell c lies in, which fixes
    neuron i's spike train; ``exact`` is False when the cells were sampled (d > 2), so counts are lower bounds.
    """

    points: np.ndarray
    patterns: np.ndarray
    exact: bool
    breakpoints: list[np.ndarray] = field(default_factory=list)

    def __len__(self) -> int:
        return int(self.points.shape[0])


def _patterns(network: LIFNetwork, x: np.ndarray, breakpoints: list[np.ndarray]) -> np.ndarray:
    current = x @ np.asarray(network.weights[0]).T + network.biases[0]
    cols = [np.searchsorted(bp, current[:, i], side="right") for i, bp in enumerate(breakpoints)]
    return np.stack(cols, axis=1).astype(np.int32)


def row_ids(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dense ids of the distinct rows of a non-negative integer array, and the first row of each id.

    Rows are folded column by column into one int64 key (mixed radix), renumbering the keys densely whenever
    the next column could overflow them; sorting integers is far faster than ``np.unique(axis=0)``.
    """
    rows = np.asarray(rows)
    n = rows.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    key = np.zeros(n, dtype=np.int64)
    bound = 1  # key < bound
    for column in rows.reshape(n, -1).T:
        radix = int(column.max()) + 1
        if bound * radix >= 2**62:
            _, key = np.unique(key, return_inverse=True)
            key = key.astype(np.int64).ravel()
            bound = int(key.max()) + 1
        key = key * radix + column.astype(np.int64)
        bound *= radix
    _, first, ids = np.unique(key, return_index=True, return_inverse=True)
    return ids.ravel().astype(np.int64), first


def _unique_rows(patterns: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    _, first = row_ids(patterns)
    return points[first], patterns[first]


def enumerate_cells(network: LIFNetwork, latency: int, *, box: float = 3.0, samples: int = 200_000,
                    seed: int = 0) -> Cells:
    """The first layer's cells in [−box, box]^d: exact for d ≤ 2, from ``samples`` uniform points otherwise."""
    if not np.isfinite(box) or box <= 0:
        raise UserError(f"box: the half-width of the input box must be positive, got {box}")
    bp, _ = neuron_partition(latency, network.beta, network.threshold, network.reset)
    breakpoints = [bp] * np.shape(network.weights[0])[0]
    w1 = np.asarray(network.weights[0], dtype=float)
    b1 = np.asarray(network.biases[0], dtype=float)
    d = network.input_dim
    if d == 1:
        cuts = [(tau - b1[i]) / w1[i, 0] for i in range(len(b1)) if w1[i, 0] != 0 for tau in bp]
        edges = np.unique(np.clip(np.concatenate([[-box, box], np.ravel(cuts)]), -box, box))
        points = ((edges[:-1] + edges[1:]) / 2)[:, None]
    elif d == 2:
        points = _sweep_points(w1, b1, bp, box)
    else:
        rng = np.random.default_rng(seed)
        points = rng.uniform(-box, box, size=(samples, d))
    reps, keys = _unique_rows(_patterns(network, points, breakpoints), points)
    return Cells(points=reps, patterns=keys, exact=d <= 2, breakpoints=breakpoints)


def _sweep_points(w1: np.ndarray, b1: np.ndarray, bp: np.ndarray, box: float, *, every_gap: bool = False,
                  chunk: int = 2048) -> np.ndarray:
    """One point inside every cell of the line arrangement {w_i·x = τ − b_i} clipped to the box.

    Sweep over x: between consecutive events (vertices, points where a line crosses the box's top or bottom,
    vertical lines) no two lines cross, so on the vertical through the middle of such a strip the cells are
    the gaps between consecutive lines.  A cell starts either at the box's left edge or at its leftmost
    vertex, where it lies between the (one or two) lines through that vertex; so it is enough to take, in the
    strips on both sides of each event, the gaps next to the lines the event involves — O(events) points, not
    one per gap and strip.  ``every_gap`` takes every gap of every strip instead (the slower reference).
    """
    normals, offsets = [], []
    for i in range(len(b1)):
        if np.any(w1[i] != 0):
            for tau in bp:
                normals.append(w1[i])
                offsets.append(tau - b1[i])
    if not normals:
        return np.zeros((1, 2))
    nrm_all = np.asarray(normals)
    off_all = np.asarray(offsets)
    vertical = np.abs(nrm_all[:, 1]) < 1e-14 * np.abs(nrm_all).max()
    nrm, off = nrm_all[~vertical], off_all[~vertical]
    ALL = -1
    ev_x = [np.array([-box]), off_all[vertical] / nrm_all[vertical, 0]]
    ev_a = [np.array([ALL]), np.full(int(vertical.sum()), ALL)]
    ev_b = [np.array([ALL]), np.full(int(vertical.sum()), ALL)]
    if len(off):
        det = nrm[:, None, 0] * nrm[None, :, 1] - nrm[:, None, 1] * nrm[None, :, 0]
        iu = np.triu_indices(len(off), 1)
        ok = np.abs(det[iu]) > 1e-12
        i, j = iu[0][ok], iu[1][ok]
        px = (off[i] * nrm[j, 1] - off[j] * nrm[i, 1]) / det[i, j]
        py = (nrm[i, 0] * off[j] - nrm[j, 0] * off[i]) / det[i, j]
        inside = (np.abs(px) < box) & (np.abs(py) < box)
        ev_x.append(px[inside])
        ev_a.append(i[inside])
        ev_b.append(j[inside])
        for edge in (-box, box):  # where a line enters or leaves the box through its bottom or top
            tilted = np.flatnonzero(np.abs(nrm[:, 0]) > 0)
            cross = (off[tilted] - nrm[tilted, 1] * edge) / nrm[tilted, 0]
            keep = np.abs(cross) < box
            ev_x.append(cross[keep])
            ev_a.append(tilted[keep])
            ev_b.append(tilted[keep])
    x_ev = np.clip(np.concatenate(ev_x), -box, box)
    a_ev, b_ev = np.concatenate(ev_a), np.concatenate(ev_b)
    xs = np.unique(np.concatenate([x_ev, [box]]))
    mids = (xs[:-1] + xs[1:]) / 2
    if not len(off):
        return np.stack([mids, np.zeros_like(mids)], axis=1)
    if every_gap:
        strips, lines_a, lines_b = np.arange(len(mids)), np.full(len(mids), ALL), np.full(len(mids), ALL)
    else:
        pos = np.searchsorted(xs, x_ev)
        after, before = pos < len(mids), pos > 0
        strips = np.concatenate([pos[after], pos[before] - 1])
        lines_a = np.concatenate([a_ev[after], a_ev[before]])
        lines_b = np.concatenate([b_ev[after], b_ev[before]])
    order = np.argsort(strips, kind="stable")
    strips, lines_a, lines_b = strips[order], lines_a[order], lines_b[order]
    points = []
    needed = np.unique(strips)
    for start in range(0, len(needed), chunk):
        rows = needed[start:start + chunk]
        ys = np.clip((off[None, :] - nrm[None, :, 0] * mids[rows, None]) / nrm[None, :, 1], -box, box)
        rank_order = np.argsort(ys, axis=1)
        padded = np.concatenate([np.full((len(rows), 1), -box), np.take_along_axis(ys, rank_order, 1),
                                 np.full((len(rows), 1), box)], axis=1)
        rank = np.empty_like(rank_order)
        np.put_along_axis(rank, rank_order, np.arange(ys.shape[1])[None, :], axis=1)
        lo, hi = np.searchsorted(strips, rows[0]), np.searchsorted(strips, rows[-1], side="right")
        req_row = np.searchsorted(rows, strips[lo:hi])
        req_a, req_b = lines_a[lo:hi], lines_b[lo:hi]
        every = req_a == ALL
        gap_rows = [np.repeat(req_row[every], ys.shape[1] + 1)]
        gap_idx = [np.tile(np.arange(ys.shape[1] + 1), int(every.sum()))]
        local = ~every
        for line in (req_a[local], req_b[local]):
            r = rank[req_row[local], line]
            gap_rows += [req_row[local], req_row[local]]
            gap_idx += [r, r + 1]
        gr, gi = np.concatenate(gap_rows), np.concatenate(gap_idx)
        low, high = padded[gr, gi], padded[gr, gi + 1]
        keep = high - low > 1e-12 * box
        points.append(np.stack([mids[rows[gr[keep]]], (low[keep] + high[keep]) / 2], axis=1))
    return np.concatenate(points)


def regions(network: LIFNetwork, cells: Cells, latency: int) -> tuple[int, int, np.ndarray]:
    """Distinct outputs and connected regions of constant output of ``network`` over the first layer's cells.

    Returns ``(distinct_outputs, connected_regions, labels)``; labels give each cell its region.  Cells whose
    patterns differ by one step of one neuron's interval index share a facet (they sit on either side of one
    hyperplane and on the same side of all others), so regions are the components of that adjacency among
    cells with equal output.  For sampled cells adjacency is unknown and regions equals distinct outputs.
    """
    output_id, _ = row_ids(network.output(cells.points, latency))
    distinct = int(output_id.max()) + 1 if output_id.size else 0
    if not cells.exact:
        return distinct, distinct, output_id
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = len(cells)
    rows, cols = [], []
    for i in range(cells.patterns.shape[1]):
        shifted = cells.patterns.copy()
        shifted[:, i] += 1
        ids, _ = row_ids(np.concatenate([cells.patterns, shifted]))
        owner = np.full(int(ids.max()) + 1, -1)
        owner[ids[:n]] = np.arange(n)  # cell patterns are distinct, so each id names one cell
        neighbour = owner[ids[n:]]
        edge = (neighbour >= 0) & (output_id[np.maximum(neighbour, 0)] == output_id)
        rows.append(np.flatnonzero(edge))
        cols.append(neighbour[edge])
    r, c = np.concatenate(rows), np.concatenate(cols)
    graph = coo_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    count, labels = connected_components(graph, directed=False)
    return distinct, int(count), labels
