"""Input-space partitions of discrete-time LIF spiking networks (Nguyen, Araya, Fono, Kutyniok; arXiv 2505.18023).

With a static input, a discrete-time LIF network is piecewise constant: its output spike trains are constant
on regions of input space, and these regions are unions of the cells of a hyperplane arrangement made by the
first layer alone (each first-layer neuron contributes parallel hyperplanes at the currents where its spike
train changes).  The number of regions therefore grows with the latency T — a single neuron has at most
T(T+1)/2 + 1 distinct spike trains as its current varies (attained for leaks close to 1 with reset by
subtraction) — while extra layers can merge first-layer cells but never split them, unlike depth in ReLU
networks.

The tool enumerates the partition exactly in 1-D and 2-D (see :mod:`._lif`), samples it in higher
dimension, and reports region counts against T and depth with a figure of the regions.
"""

from __future__ import annotations

import itertools
from typing import Any, Literal

import numpy as np

from cmbagent.exceptions import UserError
from cmbagent.paths import OutputDir
from cmbagent.tools.methods import Check, MethodResult, Paper, method
from cmbagent.tools.methods._kit import blas_threads, check_positive, output_path
from cmbagent.tools.methods.theory._io import check_list
from cmbagent.tools.methods.theory._lif import (
    LIFNetwork,
    enumerate_cells,
    neuron_partition,
    random_network,
    regions,
    row_ids,
)

__all__ = ["count_regions", "lif_snn_regions", "single_neuron_trains"]

PAPER = Paper(
    title="Time to Spike? Understanding the Representational Power of Spiking Neural Networks in Discrete Time",
    arxiv="2505.18023",
    authors="Nguyen, Araya, Fono, Kutyniok",
    year=2025,
)


def single_neuron_trains(latency: int, beta: float = 0.9, threshold: float = 1.0,
                         reset: Literal["subtract", "zero"] = "subtract") -> int:
    """How many distinct spike trains one neuron produces over T steps as its constant current varies."""
    return int(neuron_partition(latency, beta, threshold, reset)[1].shape[0])


def count_regions(network: LIFNetwork, latency: int, *, box: float = 3.0, samples: int = 200_000,
                  seed: int = 0) -> dict[int, dict[str, int]]:
    """Per depth l = 1…L of ``network``: distinct outputs and connected regions of constant output in the box.

    Exact for inputs of dimension ≤ 2; in higher dimension the counts are those of ``samples`` uniform points
    (lower bounds).
    """
    out = {}
    with blas_threads():
        cells = enumerate_cells(network, latency, box=box, samples=samples, seed=seed)
        for depth in range(1, network.depth + 1):
            distinct, connected, _ = regions(network.truncated(depth), cells, latency)
            out[depth] = {"distinct_outputs": distinct, "regions": connected, "first_layer_cells": len(cells)}
    return out


def _refinement_violations(network: LIFNetwork, latency: int, box: float, samples: int, seed: int) -> int:
    """Sampled inputs whose first-layer spikes agree while a deeper layer's output differs (must be 0)."""
    rng = np.random.default_rng(seed + 7)
    x = rng.uniform(-box, box, size=(samples, network.input_dim))
    with blas_threads():
        layers = network.spikes(x, latency)
    group, _ = row_ids(layers[0].reshape(samples, -1))
    violations = 0
    for deeper in layers[1:]:
        out_id, _ = row_ids(deeper.reshape(samples, -1))
        pairs, _ = row_ids(np.stack([group, out_id], axis=1))
        violations += int(pairs.max() + 1 - (group.max() + 1))
    return violations


@method(
    "theory.lif_snn_regions",
    paper=PAPER,
    keywords=["spiking neural network", "spiking neural networks", "SNN", "LIF", "leaky integrate-and-fire",
              "linear regions", "input partition", "spike trains", "latency", "neuromorphic",
              "expressivity", "piecewise constant"],
    example="lif_snn_regions(input_dim=2, width=8, depth=2, latencies=[1, 2, 3, 4, 5, 6], beta=0.9)",
)
def lif_snn_regions(
    input_dim: int = 2,
    width: int = 8,
    depth: int = 2,
    latencies: list[int] | None = None,
    beta: float = 0.9,
    threshold: float = 1.0,
    reset: Literal["subtract", "zero"] = "subtract",
    box: float = 3.0,
    samples: int = 100_000,
    seed: int = 0,
    output_dir: OutputDir = "figures",
) -> MethodResult:
    """Count the regions of constant spike output of random discrete-time LIF networks against latency and depth.

    Builds a random network (``depth`` layers of ``width`` LIF neurons, static input of dimension
    ``input_dim``), enumerates the first layer's hyperplane-arrangement cells inside [−box, box]^d exactly for
    d ≤ 2 (sampled with ``samples`` points above), and for every latency T and every depth l ≤ ``depth``
    counts distinct output spike patterns and connected regions of constant output. Also reports the number
    of distinct spike trains of a single neuron against T(T+1)/2 + 1, and checks on sampled inputs that deeper
    layers never split a first-layer cell. Figure: counts against T per depth, and the region map (d ≤ 2).

    Args:
        input_dim: Dimension d of the static input.
        width: Neurons per layer.
        depth: Number of layers.
        latencies: Time steps T to compare; default 1…6.
        beta: Membrane leak β in [0, 1] (1 = no leak).
        threshold: Firing threshold θ > 0.
        reset: 'subtract' (u ← u − θ after a spike) or 'zero' (u ← 0).
        box: Half-width of the input box [−box, box]^d.
        samples: Points sampled for d > 2 and for the refinement check.
        seed: Random seed (weights, samples).
        output_dir: Folder for the figure.
    """
    latencies = sorted(set(int(t) for t in (latencies if latencies is not None else [1, 2, 3, 4, 5, 6])))
    check_list(latencies, argument="latencies")
    for t in latencies:
        if t <= 0:
            raise UserError(f"latencies: every latency T must be a positive number of time steps, got {t}")
    if latencies[-1] > 12:
        raise UserError(f"latencies: T ≤ 12 keeps the enumeration tractable (regions grow like T²ⁿ), got {latencies[-1]}")
    for value, name in ((input_dim, "input_dim"), (width, "width"), (depth, "depth"), (samples, "samples")):
        check_positive(value, argument=name, integer=True)
    check_positive(box, argument="box")
    if width > 64:
        raise UserError(f"width: at most 64 neurons per layer for an exact count, got {width}")
    network = random_network(input_dim, [width] * depth, beta=beta, threshold=threshold, reset=reset, seed=seed)
    counts: dict[str, Any] = {}
    single: dict[str, int] = {}
    bound: dict[str, int] = {}
    violations = 0
    for t in latencies:
        per_depth = count_regions(network, t, box=box, samples=samples, seed=seed)
        counts[str(t)] = {str(d): v for d, v in per_depth.items()}
        single[str(t)] = single_neuron_trains(t, beta, threshold, reset)
        bound[str(t)] = t * (t + 1) // 2 + 1
        if depth > 1:
            violations += _refinement_violations(network, t, box, min(samples, 50_000), seed)
    first = [counts[str(t)]["1"]["regions"] for t in latencies]
    deepest = [counts[str(t)][str(depth)]["regions"] for t in latencies]
    grows = all(b >= a for a, b in itertools.pairwise(first))
    exact = input_dim <= 2
    values: dict[str, Any] = {"regions": counts, "single_neuron_trains": single, "single_neuron_bound": bound,
                              "single_neuron_attains_bound": {k: single[k] == bound[k] for k in single},
                              "refinement_violations": violations, "exact": exact}
    checks = [
        Check(name="single neuron within T(T+1)/2 + 1", passed=all(single[k] <= bound[k] for k in single),
              message=", ".join(f"T={k}: {single[k]} (bound {bound[k]})" for k in single)),
        Check(name="regions grow with latency", passed=grows,
              message="first-layer regions " + ", ".join(f"T={t}: {n}" for t, n in zip(latencies, first, strict=True))),
        Check(name="depth never refines the first layer", passed=violations == 0,
              message=f"{violations} sampled inputs where a deeper layer split a first-layer cell; "
                      f"depth-{depth} regions " + ", ".join(str(n) for n in deepest)),
    ]
    artifacts: list[str] = []
    figure = output_path(output_dir, "lif_regions.png")
    _plot(str(figure), network, latencies, counts, single, bound, box, exact)
    artifacts.append(str(figure))
    how = "exactly" if exact else f"from {samples} samples (lower bounds)"
    summary = (
        f"LIF networks ({depth}×{width} neurons, β={beta:g}, θ={threshold:g}, reset by {reset}) on [−{box:g}, "
        f"{box:g}]^{input_dim}, counted {how}: first-layer regions " + ", ".join(
            f"{n} at T={t}" for t, n in zip(latencies, first, strict=True))
        + (f"; with {depth} layers " + ", ".join(str(n) for n in deepest) + " connected regions of constant output"
           if depth > 1 else "")
        + ". A single neuron has " + ", ".join(f"{single[str(t)]}" for t in latencies)
        + " distinct spike trains (T(T+1)/2 + 1 = " + ", ".join(f"{bound[str(t)]}" for t in latencies) + "). "
        + f"Deeper layers split no first-layer cell ({violations} violations in sampled inputs)."
    )
    diagnostics = {"weights": [np.asarray(w).tolist() for w in network.weights],
                   "biases": [np.asarray(b).tolist() for b in network.biases]}
    return MethodResult(summary=summary, values=values, checks=checks, artifacts=artifacts, diagnostics=diagnostics)


def _plot(path: str, network: LIFNetwork, latencies: list[int], counts: dict[str, Any], single: dict[str, int],
          bound: dict[str, int], box: float, exact: bool) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = network.input_dim
    maps = [1, network.depth] if network.depth > 1 else [1]
    panels = 1 + (len(maps) if d <= 2 else 0)
    fig, axes = plt.subplots(1, panels, figsize=(4.8 * panels, 4.2), squeeze=False)
    ax = axes[0][0]
    for depth in range(1, network.depth + 1):
        ax.plot(latencies, [counts[str(t)][str(depth)]["regions"] for t in latencies], "o-", label=f"depth {depth}")
    ax.plot(latencies, [single[str(t)] for t in latencies], "k--", label="one neuron: spike trains")
    ax.plot(latencies, [bound[str(t)] for t in latencies], "k:", label="T(T+1)/2 + 1")
    ax.set_yscale("log")
    ax.set_xlabel("latency T")
    ax.set_ylabel("regions of constant output" + ("" if exact else " (sampled)"))
    ax.legend(fontsize=8)
    if d <= 2:
        t = latencies[-1]
        grid = np.linspace(-box, box, 300)
        x = grid[:, None] if d == 1 else np.stack(np.meshgrid(grid, grid), axis=-1).reshape(-1, 2)
        for ax, depth in zip(axes[0][1:], maps, strict=True):
            out = network.truncated(depth).output(x, t)
            label, _ = row_ids(out)
            # a random colour per output pattern, so that neighbouring regions differ
            colours = np.random.default_rng(0).permutation(int(np.max(label)) + 1)[np.ravel(label)]
            if d == 2:
                ax.imshow(colours.reshape(len(grid), len(grid)), origin="lower", extent=(-box, box, -box, box),
                          cmap="tab20", interpolation="nearest")
                ax.set_ylabel("x₂")
            else:
                ax.scatter(grid, out.sum(axis=1), c=colours, cmap="tab20", s=4)
                ax.set_ylabel("output spike count")
            ax.set_xlabel("x₁")
            ax.set_title(f"depth {depth}, T = {t}: {counts[str(t)][str(depth)]['regions']} regions")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
